// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const (
	tSub   = "/subscriptions/00000000-0000-0000-0000-000000000001"
	tHub   = model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub")
	tSpoke = model.ResourceID(tSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
)

var (
	mustAddr   = netip.MustParseAddr
	mustPrefix = netip.MustParsePrefix
)

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = mustAddr(a)
	}
	return out
}

func TestReversePeering(t *testing.T) {
	fwd := &model.Peering{Name: "spoke-to-hub", VNetID: tSpoke, RemoteVNetID: tHub}
	back := &model.Peering{Name: "hub-to-spoke", VNetID: tHub, RemoteVNetID: model.ResourceID(strings.ToLower(string(tSpoke)))}
	other := &model.Peering{Name: "hub-to-other", VNetID: tHub, RemoteVNetID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/other"}
	gap := model.Gap{ResourceID: tHub, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"}

	tests := []struct {
		name       string
		remote     *model.VNet
		gap        *model.Gap
		wantStatus string
		wantRev    *model.Peering
		wantDetail string
	}{
		{"present, matched case-insensitively", &model.VNet{ID: tHub, Peerings: []*model.Peering{other, back}}, nil, reversePresent, back, ""},
		{"missing", &model.VNet{ID: tHub, Peerings: []*model.Peering{other}}, nil, reverseMissing, nil, "has no peering back to vnet-spoke"},
		{"unreadable beats everything", &model.VNet{ID: tHub, Peerings: []*model.Peering{back}}, &gap, reverseUnreadable, nil, "needs Microsoft.Network/virtualNetworks/read"},
		{"not read", nil, nil, reverseUnreadable, nil, "was not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, rev, detail := reversePeering(fwd, tt.remote, tt.gap)
			if status != tt.wantStatus || rev != tt.wantRev || !strings.Contains(detail, tt.wantDetail) {
				t.Errorf("reversePeering = %q, %v, %q; want %q, %v, detail containing %q", status, rev, detail, tt.wantStatus, tt.wantRev, tt.wantDetail)
			}
		})
	}
}

func TestPeeringToModel(t *testing.T) {
	p := &model.Peering{ID: tSpoke + "/virtualNetworkPeerings/p", Name: "p", VNetID: tSpoke, RemoteVNetID: tHub, State: "Connected",
		AllowVirtualNetworkAccess: true, UseRemoteGateways: true,
		RemoteAddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16")}, RemoteCurrentAddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16"), mustPrefix("10.10.0.0/16")}}
	m := peeringToModel(p, reverseMissing, nil, "why")
	if m.SyncLevel != types.StringNull() {
		t.Errorf("an unreported sync level must be null, got %v", m.SyncLevel)
	}
	if !slices.Equal(m.RemoteCurrentAddressSpace, []string{"10.0.0.0/16", "10.10.0.0/16"}) || !m.UseRemoteGateways.ValueBool() || m.AllowGatewayTransit.ValueBool() {
		t.Errorf("unexpected mapping: %+v", m)
	}
	if m.Reverse.Status.ValueString() != reverseMissing || m.Reverse.Detail.ValueString() != "why" ||
		!m.Reverse.Name.IsNull() || !m.Reverse.AllowVirtualNetworkAccess.IsNull() {
		t.Errorf("reverse of a missing side: %+v", m.Reverse)
	}
	rev := &model.Peering{ID: tHub + "/virtualNetworkPeerings/r", Name: "r", State: "Connected", SyncLevel: "FullyInSync", AllowGatewayTransit: true}
	m = peeringToModel(p, reversePresent, rev, "")
	if m.Reverse.Name.ValueString() != "r" || !m.Reverse.AllowGatewayTransit.ValueBool() || m.Reverse.AllowVirtualNetworkAccess.ValueBool() ||
		!m.Reverse.Detail.IsNull() || m.Reverse.SyncLevel.ValueString() != "FullyInSync" {
		t.Errorf("reverse of a present side: %+v", m.Reverse)
	}
}

func TestRulesetsToModel(t *testing.T) {
	in := []*model.Ruleset{
		{ID: "id-b", Name: "b", Rules: []model.ForwardingRule{
			{Name: "z", DomainName: "z.example.", Enabled: false, Targets: []netip.AddrPort{netip.MustParseAddrPort("10.0.0.1:53")}},
			{Name: "a", DomainName: "a.example.", Enabled: true},
		}},
		nil,
		{ID: "id-a", Name: "A"},
	}
	got := rulesetsToModel(in)
	if len(got) != 2 || got[0].Name.ValueString() != "A" || got[1].Name.ValueString() != "b" {
		t.Fatalf("rulesets not sorted by name: %+v", got)
	}
	if got[0].Rules == nil || len(got[0].Rules) != 0 {
		t.Errorf("a ruleset without rules must have an empty (known) list: %#v", got[0].Rules)
	}
	r := got[1].Rules
	if r[0].Domain.ValueString() != "a.example." || r[0].State.ValueString() != "Enabled" || len(r[0].Targets) != 0 ||
		r[1].State.ValueString() != "Disabled" || !slices.Equal(r[1].Targets, []string{"10.0.0.1:53"}) {
		t.Errorf("rules: %+v", r)
	}
	if got := rulesetsToModel(nil); got == nil || len(got) != 0 {
		t.Errorf("no rulesets must map to an empty list, got %#v", got)
	}
}

func TestLinkedZones(t *testing.T) {
	zone := func(name string, known bool, links ...model.ZoneLink) *model.PrivateZone {
		return &model.PrivateZone{ID: model.ResourceID(tSub + "/resourceGroups/dns/providers/Microsoft.Network/privateDnsZones/" + name), Name: name, LinksKnown: known, Links: links}
	}
	link := func(name string, vnet model.ResourceID) model.ZoneLink {
		return model.ZoneLink{ID: model.ResourceID("link/" + name), Name: name, VNetID: vnet, State: "Completed", ResolutionPolicy: "Default"}
	}
	zones := []*model.PrivateZone{
		zone("privatelink.blob.core.windows.net", true, link("l2", tSpoke)),
		zone("privatelink.azurecr.io", true, link("hub", tHub), link("spoke", model.ResourceID(strings.ToUpper(string(tSpoke))))),
		zone("privatelink.vaultcore.azure.net", true, link("hub", tHub)),
		zone("privatelink.postgres.database.azure.com", false),
		nil,
	}
	linked, undecided := linkedZones(zones, tSpoke)
	var names []string
	for _, l := range linked {
		names = append(names, l.Name.ValueString()+"/"+l.LinkName.ValueString())
	}
	if want := []string{"privatelink.azurecr.io/spoke", "privatelink.blob.core.windows.net/l2"}; !slices.Equal(names, want) {
		t.Errorf("linked = %v, want %v", names, want)
	}
	if len(undecided) != 1 || undecided[0].Name != "privatelink.postgres.database.azure.com" {
		t.Errorf("undecided = %v", undecided)
	}
	if linked[0].RegistrationEnabled.ValueBool() || linked[0].ResolutionPolicy.ValueString() != "Default" || linked[0].LinkState.ValueString() != "Completed" {
		t.Errorf("link fields: %+v", linked[0])
	}
	if got, _ := linkedZones(nil, tSpoke); got == nil {
		t.Error("no zones must map to an empty list, not null")
	}
}

func TestZoneSubscriptions(t *testing.T) {
	if got := zoneSubscriptions(nil, tSpoke); !slices.Equal(got, []string{"00000000-0000-0000-0000-000000000001"}) {
		t.Errorf("default = %v", got)
	}
	in := []string{"AAAAAAAA-0000-0000-0000-000000000000", " aaaaaaaa-0000-0000-0000-000000000000", "bbbbbbbb-0000-0000-0000-000000000000"}
	if got := zoneSubscriptions(in, tSpoke); !slices.Equal(got, []string{in[0], in[2]}) {
		t.Errorf("deduplicated = %v", got)
	}
}

func TestRegistryEndpoints(t *testing.T) {
	regID := model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg")
	peID := model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr")
	pe := &model.PrivateEndpoint{ID: peID, Name: "pe-acr", DNSConfigs: []model.FQDNAddresses{
		{FQDN: "contosoreg.azurecr.io", Addresses: addrs("10.0.2.5")},
		{FQDN: "contosoreg.westeurope.data.azurecr.io", Addresses: addrs("10.0.2.6")},
		{FQDN: "CONTOSOREG.northeurope.data.azurecr.io.", Addresses: addrs("10.0.2.8", "10.0.2.7", "10.0.2.7")},
	}}
	type ep struct{ host, kind, region, addrs string }
	flat := func(in []endpoint) []ep {
		var out []ep
		for _, e := range in {
			out = append(out, ep{e.Host, e.Kind, e.Region, strings.Join(addrStrings(e.PrivateAddresses), ",")})
		}
		return out
	}
	tests := []struct {
		name string
		reg  model.Registry
		pes  []*model.PrivateEndpoint
		want []ep
	}{
		{
			name: "private, with data endpoints listed by the registry and by the private endpoint",
			reg: model.Registry{ID: regID, Name: "contosoreg", Location: "West Europe", LoginServer: "contosoreg.azurecr.io",
				DataEndpointEnabled: true, DataEndpointHosts: []string{"contosoreg.westeurope.data.azurecr.io"},
				Replicas:                   []model.Replica{{Location: "westeurope"}, {Location: "northeurope"}},
				PrivateEndpointConnections: []model.RegistryPEConnection{{PrivateEndpointID: peID, Status: "Approved"}}},
			pes: []*model.PrivateEndpoint{pe},
			want: []ep{
				{"contosoreg.azurecr.io", "login", "westeurope", "10.0.2.5"},
				{"contosoreg.northeurope.data.azurecr.io", "data", "northeurope", "10.0.2.7,10.0.2.8"},
				{"contosoreg.westeurope.data.azurecr.io", "data", "westeurope", "10.0.2.6"},
			},
		},
		{
			name: "a replica region no one listed gets its documented data host, without address",
			reg: model.Registry{Name: "ContosoReg", Location: "westeurope", LoginServer: "contosoreg.azurecr.io", DataEndpointEnabled: true,
				DataEndpointHosts: []string{"contosoreg.westeurope.data.azurecr.io"}, Replicas: []model.Replica{{Location: "East US"}}},
			want: []ep{
				{"contosoreg.azurecr.io", "login", "westeurope", ""},
				{"contosoreg.eastus.data.azurecr.io", "data", "eastus", ""},
				{"contosoreg.westeurope.data.azurecr.io", "data", "westeurope", ""},
			},
		},
		{
			name: "public without data endpoints: storage per region, sovereign suffix",
			reg: model.Registry{Name: "gov", Location: "usgovvirginia", LoginServer: "gov.azurecr.us",
				Replicas: []model.Replica{{Location: "usgovvirginia"}, {Location: "usgovtexas"}}},
			want: []ep{
				{"gov.azurecr.us", "login", "usgovvirginia", ""},
				{"*.blob.core.usgovcloudapi.net", "storage", "usgovtexas", ""},
				{"*.blob.core.usgovcloudapi.net", "storage", "usgovvirginia", ""},
			},
		},
		{
			name: "regional endpoints",
			reg: model.Registry{Name: "r", Location: "westeurope", LoginServer: "r.azurecr.io", DataEndpointEnabled: true,
				DataEndpointHosts: []string{"r.westeurope.data.azurecr.io"}, RegionalEndpointHosts: []string{"r.westeurope.geo.azurecr.io"}},
			want: []ep{
				{"r.azurecr.io", "login", "westeurope", ""},
				{"r.westeurope.data.azurecr.io", "data", "westeurope", ""},
				{"r.westeurope.geo.azurecr.io", "regional", "westeurope", ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := registryEndpoints(&tt.reg, tt.pes)
			if !reflect.DeepEqual(flat(got), tt.want) {
				t.Errorf("registryEndpoints:\n got %v\nwant %v", flat(got), tt.want)
			}
			for _, e := range got {
				if e.Note == "" || !slices.Contains(EndpointKinds, e.Kind) {
					t.Errorf("endpoint %+v lacks a note or has an unlisted kind", e)
				}
				m := endpointToModel(e)
				if m.PrivateAddresses == nil {
					t.Errorf("private_addresses of %s must be a known list", e.Host)
				}
			}
		})
	}
}

func TestPrivateEndpointToModel(t *testing.T) {
	peID := model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr")
	conn := model.RegistryPEConnection{PrivateEndpointID: peID, Status: "Pending"}
	m := privateEndpointToModel(conn, nil)
	if m.Name.ValueString() != "pe-acr" || m.ConnectionStatus.ValueString() != "Pending" || !m.SubnetID.IsNull() || m.FQDNs != nil {
		t.Errorf("unread private endpoint: %+v", m)
	}
	pe := &model.PrivateEndpoint{ID: peID, Name: "pe-acr", SubnetID: "snet", DNSConfigs: []model.FQDNAddresses{{FQDN: "a"}, {FQDN: "b"}, {FQDN: "a"}}}
	m = privateEndpointToModel(conn, pe)
	if m.SubnetID.ValueString() != "snet" || !slices.Equal(m.FQDNs, []string{"a", "b"}) {
		t.Errorf("read private endpoint: %+v", m)
	}
}
