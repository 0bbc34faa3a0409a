// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func init() {
	// The reflection walk and the document cover these roots too.
	openWorldRoots = append(openWorldRoots, openWorldDNSVWANRoots...)
}

// TestUnmodelledDNSVWANSettings: each unmodelled property of the private
// DNS, resolver, Virtual WAN and compute types is reported with its value
// when set away from its default, and not when absent or at the default;
// evaluated and irrelevant neighbours never are.
func TestUnmodelledDNSVWANSettings(t *testing.T) {
	link := func(st armprivatedns.VirtualNetworkLinkState, pol armprivatedns.ResolutionPolicy) *armprivatedns.VirtualNetworkLink {
		return &armprivatedns.VirtualNetworkLink{Properties: &armprivatedns.VirtualNetworkLinkProperties{VirtualNetworkLinkState: &st, ResolutionPolicy: &pol, RegistrationEnabled: to.Ptr(true)}}
	}
	resolver := func(st armdnsresolver.DNSResolverState) *armdnsresolver.DNSResolver {
		return &armdnsresolver.DNSResolver{Properties: &armdnsresolver.Properties{DNSResolverState: &st}}
	}
	hub := func(p armnetwork.VirtualHubProperties) *armnetwork.VirtualHub {
		return &armnetwork.VirtualHub{Properties: &p}
	}
	ref := &armnetwork.SubResource{ID: to.Ptr("/x")}
	conn := func(p armnetwork.HubVirtualNetworkConnectionProperties) *armnetwork.HubVirtualNetworkConnection {
		return &armnetwork.HubVirtualNetworkConnection{Properties: &p}
	}
	// The transit flags are deprecated in the SDK: set them as Azure
	// answers them.
	connJSON := func(body string) *armnetwork.HubVirtualNetworkConnection {
		var c armnetwork.HubVirtualNetworkConnection
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			t.Fatal(err)
		}
		return &c
	}
	table := func(dt string) *armnetwork.HubRouteTable {
		return &armnetwork.HubRouteTable{Properties: &armnetwork.HubRouteTableProperties{Routes: []*armnetwork.HubRoute{{DestinationType: to.Ptr(dt), Destinations: []*string{to.Ptr("10.0.0.0/8")}}}}}
	}
	enforce, audit := armcompute.ModesEnforce, armcompute.ModesAudit
	vmss := func(sp *armcompute.SecurityProfile) *armcompute.VirtualMachineScaleSet {
		return &armcompute.VirtualMachineScaleSet{Properties: &armcompute.VirtualMachineScaleSetProperties{VirtualMachineProfile: &armcompute.VirtualMachineScaleSetVMProfile{SecurityProfile: sp, ExtensionProfile: &armcompute.VirtualMachineScaleSetExtensionProfile{}}}}
	}
	proxyAgent := func(on bool, imds *armcompute.Modes) *armcompute.SecurityProfile {
		s := &armcompute.ProxyAgentSettings{Enabled: to.Ptr(on)}
		if imds != nil {
			s.Imds = &armcompute.HostEndpointSettings{Mode: imds}
		}
		return &armcompute.SecurityProfile{ProxyAgentSettings: s, EncryptionAtHost: to.Ptr(true)}
	}
	tests := []unmodelledCase{
		{"zone link in progress", link(armprivatedns.VirtualNetworkLinkStateInProgress, armprivatedns.ResolutionPolicyDefault), []string{"properties.virtualNetworkLinkState=InProgress"}},
		{"zone link completed, NxDomainRedirect evaluated", link(armprivatedns.VirtualNetworkLinkStateCompleted, armprivatedns.ResolutionPolicyNxDomainRedirect), nil},
		{"zone link state absent", &armprivatedns.VirtualNetworkLink{Properties: &armprivatedns.VirtualNetworkLinkProperties{}}, nil},
		{"record set with TXT and TTL is irrelevant", &armprivatedns.RecordSet{Properties: &armprivatedns.RecordSetProperties{TTL: to.Ptr[int64](10), TxtRecords: []*armprivatedns.TxtRecord{{}}}}, nil},
		{"resolver disconnected", resolver(armdnsresolver.DNSResolverStateDisconnected), []string{"properties.dnsResolverState=Disconnected"}},
		{"resolver connected", resolver(armdnsresolver.DNSResolverStateConnected), nil},
		{"forwarding rule disabled is evaluated", &armdnsresolver.ForwardingRule{Properties: &armdnsresolver.ForwardingRuleProperties{ForwardingRuleState: to.Ptr(armdnsresolver.ForwardingRuleStateDisabled)}}, nil},
		{"hub legacy route table", hub(armnetwork.VirtualHubProperties{RouteTable: &armnetwork.VirtualHubRouteTable{Routes: []*armnetwork.VirtualHubRoute{{NextHopIPAddress: to.Ptr("10.1.0.4")}}}}), []string{`properties.routeTable=[{"nextHopIpAddress":"10.1.0.4"}]`}},
		{"hub legacy route table empty", hub(armnetwork.VirtualHubProperties{RouteTable: &armnetwork.VirtualHubRouteTable{Routes: []*armnetwork.VirtualHubRoute{}}, VirtualHubRouteTableV2S: []*armnetwork.VirtualHubRouteTableV2{}}), nil},
		{"hub basic", hub(armnetwork.VirtualHubProperties{SKU: to.Ptr("Basic")}), []string{"properties.sku=Basic"}},
		{"hub standard", hub(armnetwork.VirtualHubProperties{SKU: to.Ptr("Standard"), AllowBranchToBranchTraffic: to.Ptr(true), HubRoutingPreference: to.Ptr(armnetwork.HubRoutingPreferenceASPath)}), nil},
		{"hub security partner", hub(armnetwork.VirtualHubProperties{SecurityPartnerProvider: ref, SecurityProviderName: to.Ptr("ZScaler")}), []string{`properties.securityPartnerProvider={"id":"/x"}`}},
		{"hub BGP peers", hub(armnetwork.VirtualHubProperties{BgpConnections: []*armnetwork.SubResource{ref}}), []string{`properties.bgpConnections=[{"id":"/x"}]`}},
		{"hub route maps defined but not applied", hub(armnetwork.VirtualHubProperties{RouteMaps: []*armnetwork.SubResource{ref}}), nil},
		{"connection transit off", connJSON(`{"properties":{"allowHubToRemoteVnetTransit":false,"allowRemoteVnetToUseHubVnetGateways":true}}`), []string{"properties.allowHubToRemoteVnetTransit=false"}},
		{"connection transit on", connJSON(`{"properties":{"allowHubToRemoteVnetTransit":true,"enableInternetSecurity":false}}`), nil},
		{"connection inbound route map", conn(armnetwork.HubVirtualNetworkConnectionProperties{RoutingConfiguration: &armnetwork.RoutingConfiguration{InboundRouteMap: ref, AssociatedRouteTable: ref}}), []string{`properties.routingConfiguration.inboundRouteMap={"id":"/x"}`}},
		{"connection outbound route map", conn(armnetwork.HubVirtualNetworkConnectionProperties{RoutingConfiguration: &armnetwork.RoutingConfiguration{OutboundRouteMap: ref}}), []string{`properties.routingConfiguration.outboundRouteMap={"id":"/x"}`}},
		{"connection static routes evaluated", conn(armnetwork.HubVirtualNetworkConnectionProperties{RoutingConfiguration: &armnetwork.RoutingConfiguration{VnetRoutes: &armnetwork.VnetRoute{StaticRoutes: []*armnetwork.StaticRoute{{}}}}}), nil},
		{"hub route to a resource id", table("ResourceId"), []string{"properties.routes[0].destinationType=ResourceId"}},
		{"hub route to CIDR", table("CIDR"), nil},
		{"scale set proxy agent enforcing", vmss(proxyAgent(true, &enforce)), []string{"properties.virtualMachineProfile.securityProfile=proxyAgentSettings enabled, mode Enforce"}},
		{"scale set proxy agent auditing", vmss(proxyAgent(true, &audit)), nil},
		{"scale set proxy agent off", vmss(proxyAgent(false, &enforce)), nil},
		{"scale set encryption at host only", vmss(&armcompute.SecurityProfile{EncryptionAtHost: to.Ptr(true)}), nil},
		{"VM proxy agent without a mode", &armcompute.VirtualMachine{Properties: &armcompute.VirtualMachineProperties{SecurityProfile: proxyAgent(true, nil)}}, []string{"properties.securityProfile=proxyAgentSettings enabled, mode not set"}},
	}
	runUnmodelledCases(t, tests)
}

// TestGraphRowColumnsClassified: every column a Resource Graph search
// projects is classified for its row type, and the classification lists
// no column, nor row type, that no search has.
func TestGraphRowColumnsClassified(t *testing.T) {
	used := map[string]map[string]bool{}
	for _, q := range model.GraphSearches() {
		kql := q.KQL()
		i := strings.LastIndex(kql, "| project ")
		if i < 0 {
			t.Errorf("%T: the KQL projects no columns; classify what its rows hold", q)
			continue
		}
		cols := graphRowColumns[q.RowType()]
		if cols == nil {
			t.Errorf("%T: row type %s has no row classification in graphRowColumns", q, q.RowType())
			continue
		}
		if used[q.RowType()] == nil {
			used[q.RowType()] = map[string]bool{}
		}
		for _, c := range strings.Split(strings.TrimSpace(kql[i+len("| project "):]), ",") {
			c = strings.TrimSpace(c)
			used[q.RowType()][c] = true
			if cols[c] == "" {
				t.Errorf("%T: column %q of row type %s is not classified in graphRowColumns", q, c, q.RowType())
			}
		}
	}
	for typ, cols := range graphRowColumns {
		for c := range cols {
			if !used[typ][c] {
				t.Errorf("graphRowColumns classifies %s.%s, which no Resource Graph search projects", typ, c)
			}
		}
	}
}

// TestConvertersKeepUnmodelledSettings: the converters of zone links,
// resolvers, hubs, hub connections, hub route tables and a pool's scale
// set keep the resource's unmodelled settings, attributed to it, for
// verification to put on the paths through it.
func TestConvertersKeepUnmodelledSettings(t *testing.T) {
	ref := &armnetwork.SubResource{ID: to.Ptr("/rm")}
	one := func(t *testing.T, what string, got []model.UnmodelledSetting, res, prop string) {
		t.Helper()
		if len(got) != 1 || string(got[0].Resource) != res || got[0].Property != prop {
			t.Errorf("%s: unmodelled = %+v, want one %s on %s", what, got, prop, res)
		}
	}
	st := armprivatedns.VirtualNetworkLinkStateInProgress
	l := zoneLinkFromSDK(&armprivatedns.VirtualNetworkLink{ID: to.Ptr("/link"), Properties: &armprivatedns.VirtualNetworkLinkProperties{VirtualNetworkLinkState: &st}})
	one(t, "zone link", l.Unmodelled, "/link", "properties.virtualNetworkLinkState")

	rs := armdnsresolver.DNSResolverStateDisconnected
	r := resolverFromSDK(&armdnsresolver.DNSResolver{ID: to.Ptr("/res"), Properties: &armdnsresolver.Properties{DNSResolverState: &rs}})
	one(t, "resolver", r.Unmodelled, "/res", "properties.dnsResolverState")

	h, err := virtualHubFromSDK(&armnetwork.VirtualHub{ID: to.Ptr("/hub"), Properties: &armnetwork.VirtualHubProperties{SecurityPartnerProvider: ref}})
	if err != nil {
		t.Fatal(err)
	}
	one(t, "hub", h.Unmodelled, "/hub", "properties.securityPartnerProvider")

	c, err := hubConnectionFromSDK(&armnetwork.HubVirtualNetworkConnection{ID: to.Ptr("/conn"), Properties: &armnetwork.HubVirtualNetworkConnectionProperties{RoutingConfiguration: &armnetwork.RoutingConfiguration{InboundRouteMap: ref}}})
	if err != nil {
		t.Fatal(err)
	}
	one(t, "hub connection", c.Unmodelled, "/conn", "properties.routingConfiguration.inboundRouteMap")

	tb, err := hubRouteTableFromSDK(&armnetwork.HubRouteTable{ID: to.Ptr("/rt"), Properties: &armnetwork.HubRouteTableProperties{Routes: []*armnetwork.HubRoute{
		{DestinationType: to.Ptr("CIDR"), Destinations: []*string{to.Ptr("10.0.0.0/8")}}, {DestinationType: to.Ptr("Service"), Destinations: []*string{to.Ptr("Storage")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	one(t, "hub route table", tb.Unmodelled, "/rt", "properties.routes[1].destinationType")

	pool := &model.NodePool{Name: "user"}
	enforce := armcompute.ModesEnforce
	ss := &armcompute.VirtualMachineScaleSet{ID: to.Ptr("/vmss"), Properties: &armcompute.VirtualMachineScaleSetProperties{VirtualMachineProfile: &armcompute.VirtualMachineScaleSetVMProfile{
		SecurityProfile: &armcompute.SecurityProfile{ProxyAgentSettings: &armcompute.ProxyAgentSettings{Enabled: to.Ptr(true), Imds: &armcompute.HostEndpointSettings{Mode: &enforce}}}}}}
	if err := scaleSetNICConfig(pool, ss); err != nil {
		t.Fatal(err)
	}
	one(t, "scale set", pool.Unmodelled, "/vmss", "properties.virtualMachineProfile.securityProfile")
}
