// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

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

func TestEffectiveDNS(t *testing.T) {
	vnetCustom := &model.VNet{DNSServers: addrs("10.0.1.10")}
	vnetDefault := &model.VNet{}
	nicCustom := &model.NIC{DNSServers: addrs("10.9.9.9", "168.63.129.16")}
	nicNone := &model.NIC{}
	tests := []struct {
		name       string
		vnet       *model.VNet
		nic        *model.NIC
		want       []netip.Addr
		wantSource string
		wantAzure  bool
	}{
		{"azure default", vnetDefault, nil, addrs("168.63.129.16"), "azure_default", true},
		{"vnet custom", vnetCustom, nil, addrs("10.0.1.10"), "virtual_network", false},
		{"nic without servers uses the vnet's", vnetCustom, nicNone, addrs("10.0.1.10"), "virtual_network", false},
		{"nic overrides vnet", vnetCustom, nicCustom, addrs("10.9.9.9", "168.63.129.16"), "network_interface", true},
		{"nic overrides azure default", vnetDefault, &model.NIC{DNSServers: addrs("10.9.9.9")}, addrs("10.9.9.9"), "network_interface", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, source := effectiveDNS(tt.vnet, tt.nic)
			if !slices.Equal(got, tt.want) || source != tt.wantSource {
				t.Errorf("effectiveDNS = %v, %q; want %v, %q", got, source, tt.want, tt.wantSource)
			}
			if usesAzureDNS(got) != tt.wantAzure {
				t.Errorf("usesAzureDNS(%v) = %v", got, !tt.wantAzure)
			}
		})
	}
	// The result is a copy: callers may not change the model through it.
	got, _ := effectiveDNS(vnetCustom, nil)
	got[0] = mustAddr("1.1.1.1")
	if vnetCustom.DNSServers[0] != mustAddr("10.0.1.10") {
		t.Error("effectiveDNS returned the model's own slice")
	}
}

func TestClassifyDNSServer(t *testing.T) {
	inbound := model.ResolverEndpoint{ID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in"), Address: mustAddr("10.0.3.4")}
	vmNIC := &model.NIC{ID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-dns"),
		VMID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-dns"), PrivateIPs: addrs("10.0.1.10")}
	bareNIC := &model.NIC{ID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-bare"), PrivateIPs: addrs("10.0.1.11")}
	peNIC := &model.NIC{ID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/pe.nic"),
		PrivateEndpointID: model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr"), PrivateIPs: addrs("10.0.2.5")}
	s := dnsSurroundings{
		VNets: []knownVNet{
			{ID: tSpoke, Space: []netip.Prefix{mustPrefix("10.1.0.0/16")}},
			{ID: tHub, Space: []netip.Prefix{mustPrefix("10.0.0.0/16")}, Peered: true},
		},
		Inbound: map[netip.Addr]model.ResolverEndpoint{inbound.Address: inbound},
		NICs: map[netip.Addr]*model.NIC{
			mustAddr("10.0.1.10"): vmNIC,
			mustAddr("10.0.1.11"): bareNIC,
			mustAddr("10.0.2.5"):  peNIC,
		},
		NICGaps: map[netip.Addr]model.Gap{
			mustAddr("10.0.1.12"): {Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/read"},
		},
	}
	tests := []struct {
		name, addr   string
		kind         string
		resource     model.ResourceID
		nic          model.ResourceID
		vnet         model.ResourceID
		noteContains string
	}{
		// azure_dns: only the Azure virtual IP.
		{name: "azure dns", addr: "168.63.129.16", kind: dnsKindAzure, noteContains: "linked to the virtual network"},
		{name: "a look-alike public address is not azure dns", addr: "168.63.129.17", kind: dnsKindExternal},
		// private_resolver_inbound: an inbound endpoint address.
		{name: "resolver inbound", addr: "10.0.3.4", kind: dnsKindResolverInbound, resource: inbound.ID, vnet: tHub, noteContains: "of a DNS private resolver"},
		{name: "next address in the resolver subnet is not the resolver", addr: "10.0.3.5", kind: dnsKindUnknown, vnet: tHub},
		// vm: a NIC holds it; the VM id when attached, else the NIC id.
		{name: "vm", addr: "10.0.1.10", kind: dnsKindVM, resource: vmNIC.VMID, nic: vmNIC.ID, vnet: tHub, noteContains: "cannot show how it forwards"},
		{name: "nic without vm", addr: "10.0.1.11", kind: dnsKindVM, resource: bareNIC.ID, nic: bareNIC.ID, vnet: tHub},
		{name: "private endpoint nic is not a dns server", addr: "10.0.2.5", kind: dnsKindUnknown, resource: peNIC.PrivateEndpointID, nic: peNIC.ID, vnet: tHub, noteContains: "does not serve DNS"},
		// unknown: inside a known VNet with nothing found, or the lookup failed.
		{name: "nothing holds it", addr: "10.1.5.5", kind: dnsKindUnknown, vnet: tSpoke, noteContains: "no network interface"},
		{name: "lookup failed", addr: "10.0.1.12", kind: dnsKindUnknown, vnet: tHub, noteContains: "needs Microsoft.Network/networkInterfaces/read"},
		// external: outside every known VNet, private or public.
		{name: "on-premises", addr: "192.168.1.10", kind: dnsKindExternal, noteContains: "outside every known virtual network"},
		{name: "public resolver", addr: "8.8.8.8", kind: dnsKindExternal},
		{name: "private range of no known vnet", addr: "10.2.0.4", kind: dnsKindExternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classifyDNSServer(mustAddr(tt.addr), s)
			if got.Kind != tt.kind {
				t.Fatalf("kind = %q, want %q (note %q)", got.Kind, tt.kind, got.Note)
			}
			if got.ResourceID != tt.resource || got.NetworkInterfaceID != tt.nic || got.VirtualNetworkID != tt.vnet {
				t.Errorf("ids = resource %q nic %q vnet %q; want %q %q %q", got.ResourceID, got.NetworkInterfaceID, got.VirtualNetworkID, tt.resource, tt.nic, tt.vnet)
			}
			if got.Note == "" || !strings.Contains(got.Note, tt.noteContains) {
				t.Errorf("note %q does not contain %q", got.Note, tt.noteContains)
			}
			if !slices.Contains(DNSServerKinds, got.Kind) {
				t.Errorf("kind %q is not in DNSServerKinds", got.Kind)
			}
		})
	}
}

func TestKnownVNetsOf(t *testing.T) {
	vnet := &model.VNet{ID: tSpoke, AddressSpace: []netip.Prefix{mustPrefix("10.1.0.0/16")}, Peerings: []*model.Peering{
		// Remote read: its own space wins over the peering's copy.
		{RemoteVNetID: tHub, RemoteAddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16")}},
		// Remote not read: the current space from the peering, else the synced one.
		{RemoteVNetID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/a",
			RemoteAddressSpace: []netip.Prefix{mustPrefix("10.2.0.0/16")}, RemoteCurrentAddressSpace: []netip.Prefix{mustPrefix("10.2.0.0/15")}},
		{RemoteVNetID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/b",
			RemoteAddressSpace: []netip.Prefix{mustPrefix("10.4.0.0/16")}},
		// A second peering to the hub adds nothing.
		{RemoteVNetID: model.ResourceID(strings.ToUpper(string(tHub)))},
	}}
	remotes := map[string]*model.VNet{tHub.Key(): {ID: tHub, AddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16"), mustPrefix("172.16.0.0/24")}}}
	got := knownVNetsOf(vnet, remotes)
	want := []string{"[10.1.0.0/16]", "[10.0.0.0/16 172.16.0.0/24]", "[10.2.0.0/15]", "[10.4.0.0/16]"}
	if len(got) != len(want) {
		t.Fatalf("got %d vnets, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if s := fmtPrefixes(got[i].Space); s != want[i] {
			t.Errorf("vnet %d space %s, want %s", i, s, want[i])
		}
		if got[i].Peered != (i > 0) {
			t.Errorf("vnet %d Peered = %v", i, got[i].Peered)
		}
	}
}

func fmtPrefixes(p []netip.Prefix) string { return "[" + strings.Join(prefixStrings(p), " ") + "]" }

func TestInboundByAddress(t *testing.T) {
	r := []*model.Resolver{nil, {Inbound: []model.ResolverEndpoint{{Name: "a", Address: mustAddr("10.0.3.4")}, {Name: "invalid"}}}}
	got := inboundByAddress(r)
	if len(got) != 1 || got[mustAddr("10.0.3.4")].Name != "a" {
		t.Errorf("inboundByAddress = %+v", got)
	}
}
