// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"

	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestUnmodelledDNSAndHubSettings: an unmodelled setting of a zone link,
// a DNS private resolver or a Virtual WAN hub, its connection or route
// table makes unverified exactly the paths that go through it: the link of
// the zone that answers the nodes' VNet, the resolver that answers the
// nodes, a hub the path crosses; the same setting on a link of another
// VNet, a resolver the nodes do not use, or a hub the path does not cross
// changes nothing.
func TestUnmodelledDNSAndHubSettings(t *testing.T) {
	setting := func(res model.ResourceID, prop, val string) []model.UnmodelledSetting {
		return []model.UnmodelledSetting{{Resource: res, Property: prop, Value: val, Why: "it can change the pull"}}
	}
	linkNamed := func(f *model.Facts, name string) *model.ZoneLink {
		z := zone(f)
		for i := range z.Links {
			if z.Links[i].Name == name {
				return &z.Links[i]
			}
		}
		t.Fatalf("no link %s", name)
		return nil
	}
	hubResID := id("/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu")
	connID := hubResID + "/hubVirtualNetworkConnections/conn-spoke"
	tableID := hubResID + "/hubRouteTables/defaultRouteTable"
	// addHub makes vnet-hub the VNet of a Virtual WAN hub (its stand-in)
	// when hubVNet is hubID, with the spoke's connection and its table.
	addHub := func(f *model.Facts, hubVNet model.ResourceID) *model.VirtualHub {
		h := &model.VirtualHub{ID: hubResID, Name: "hub-weu", HubVNetID: hubVNet, RoutingState: "Provisioned",
			Connections: []*model.HubConnection{{ID: connID, Name: "conn-spoke", RemoteVNetID: spokeID, EnableInternetSecurity: true}},
			RouteTables: []*model.HubRouteTable{{ID: tableID, Name: "defaultRouteTable"}}, ConnectionsKnown: true, RouteTablesKnown: true, IntentKnown: true}
		if f.Network.VirtualHubs == nil {
			f.Network.VirtualHubs = map[string]*model.VirtualHub{}
		}
		f.Network.VirtualHubs[h.ID.Key()] = h
		return h
	}
	// viaHubVNet: every private flow crosses the spoke's peering and ends
	// at the private endpoint in vnet-hub's snet-pe.
	viaHubVNet := func() *fakeTracer {
		toPE := func(dst string) RouteResult {
			return RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → peering spoke-to-hub → " + dst},
				Steps: []model.Hop{
					{Kind: model.HopPeering, Name: "spoke-to-hub", ResourceID: spokeID + "/virtualNetworkPeerings/spoke-to-hub", From: spokeID + "/subnets/snet-aks"},
					{Kind: model.HopPrivateEndpoint, Name: "pe-acr", ResourceID: peID, SubnetID: peSubnetID, Address: dst},
				}}
		}
		return &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): toPE("10.0.2.5"), ip("10.0.2.6"): toPE("10.0.2.6")}}
	}
	tests := []struct {
		name    string
		edit    func(f *model.Facts)
		tracer  func() *fakeTracer
		verdict model.Verdict
		want    string // in the finding's message
	}{
		{"none", func(*model.Facts) {}, nil, model.Reachable, ""},
		{"the node VNet's zone link in progress", func(f *model.Facts) {
			l := linkNamed(f, "link-spoke")
			l.Unmodelled = setting(l.ID, "properties.virtualNetworkLinkState", "InProgress")
		}, nil, model.Unverified, "properties.virtualNetworkLinkState = InProgress"},
		{"another VNet's zone link in progress", func(f *model.Facts) {
			l := linkNamed(f, "link-hub")
			l.Unmodelled = setting(l.ID, "properties.virtualNetworkLinkState", "InProgress")
		}, nil, model.Reachable, ""},
		{"the answering resolver disconnected", func(f *model.Facts) {
			rid := addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
			setSpokeDNS(f, "10.0.3.4")
			f.DNS.Resolvers[rid.Key()].Unmodelled = setting(rid, "properties.dnsResolverState", "Disconnected")
		}, nil, model.Unverified, "properties.dnsResolverState = Disconnected"},
		{"a resolver the nodes do not use disconnected", func(f *model.Facts) {
			rid := addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
			f.DNS.Resolvers[rid.Key()].Unmodelled = setting(rid, "properties.dnsResolverState", "Disconnected")
		}, nil, model.Reachable, ""},
		{"a hub the path crosses, with a security partner", func(f *model.Facts) {
			h := addHub(f, hubID)
			h.Unmodelled = setting(h.ID, "properties.securityPartnerProvider", `{"id":"/x"}`)
		}, viaHubVNet, model.Unverified, "properties.securityPartnerProvider"},
		{"the node VNet's hub connection with a route map, on a path through the hub", func(f *model.Facts) {
			h := addHub(f, hubID)
			h.Connections[0].Unmodelled = setting(connID, "properties.routingConfiguration.outboundRouteMap", `{"id":"/rm"}`)
		}, viaHubVNet, model.Unverified, "properties.routingConfiguration.outboundRouteMap"},
		{"the associated route table's resource id route, on a path through the hub", func(f *model.Facts) {
			h := addHub(f, hubID)
			h.RouteTables[0].Unmodelled = setting(tableID, "properties.routes[0].destinationType", "ResourceId")
		}, viaHubVNet, model.Unverified, "properties.routes[0].destinationType = ResourceId"},
		{"a hub the path does not cross", func(f *model.Facts) {
			h := addHub(f, id("/resourceGroups/RG_hub-weu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-weu_1"))
			h.Unmodelled = setting(h.ID, "properties.securityPartnerProvider", `{"id":"/x"}`)
			h.Connections[0].Unmodelled = setting(connID, "properties.routingConfiguration.outboundRouteMap", `{"id":"/rm"}`)
		}, viaHubVNet, model.Reachable, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			tc.edit(&f)
			var tr *fakeTracer
			if tc.tracer != nil {
				tr = tc.tracer()
			}
			res := verifyFake(t, f, tr)
			for _, pool := range []string{"system", "user"} {
				if got := pathOf(t, res, pool, loginHost).Verdict; got != tc.verdict {
					t.Errorf("%s: %s, want %s (codes %v)", pool, got, tc.verdict, codesOf(res))
				}
			}
			fs := findingsWith(res, model.CoverageFeatureUnmodelled)
			if tc.want == "" {
				if len(fs) > 0 {
					t.Errorf("unexpected %s: %s", model.CoverageFeatureUnmodelled, fs[0].Message)
				}
				return
			}
			if len(fs) == 0 {
				t.Fatalf("no %s (codes %v)", model.CoverageFeatureUnmodelled, codesOf(res))
			}
			requireContains(t, fs[0].Message, tc.want)
		})
	}
}
