// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

var (
	clsSpoke = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	clsHub   = id("/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub")
)

// Each kind of DNS server, its positive case and the look-alike that is not
// it.
func TestClassifyDNSServer(t *testing.T) {
	resolver := &model.Resolver{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/r"), Name: "r", VNetID: clsHub,
		Inbound: []model.ResolverEndpoint{{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in"), Name: "in", Address: ip("10.0.3.4")}}}
	vmNIC := &model.NIC{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-dns"),
		VMID: id("/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-dns"), PrivateIPs: ips("10.0.1.10")}
	bareNIC := &model.NIC{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-bare"), PrivateIPs: ips("10.0.1.11")}
	peNIC := &model.NIC{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/pe.nic"),
		PrivateEndpointID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr"), PrivateIPs: ips("10.0.2.5")}
	lookupGap := model.Gap{Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/read"}
	ev := DNSEvidence{
		VNets: model.KnownVNets{
			{ID: clsSpoke, Name: "vnet-spoke", Space: pfxs("10.1.0.0/16")},
			{ID: clsHub, Name: "vnet-hub", Space: pfxs("10.0.0.0/16"), Peered: true},
		},
		Resolvers:  []*model.Resolver{nil, resolver},
		NICs:       []*model.NIC{nil, vmNIC, bareNIC, peNIC},
		LookupGaps: map[netip.Addr]model.Gap{ip("10.0.1.12"): lookupGap},
		SearchGaps: map[netip.Addr]model.Gap{ip("192.168.7.7"): {Kind: model.GapPermissionDenied, Permission: "Microsoft.ResourceGraph/resources/read"}},
	}
	tests := []struct {
		name, addr string
		kind       DNSServerKind
		vnet       model.ResourceID // holding VNet, "" for none
		nic        *model.NIC
		resolver   bool
		gap        bool
	}{
		// Azure DNS: only the Azure virtual IP.
		{name: "azure dns", addr: "168.63.129.16", kind: DNSServerAzure},
		{name: "a look-alike public address is not azure dns", addr: "168.63.129.17", kind: DNSServerExternal},
		// A resolver's inbound endpoint address.
		{name: "resolver inbound", addr: "10.0.3.4", kind: DNSServerResolverInbound, vnet: clsHub, resolver: true},
		{name: "next address in the resolver subnet is not the resolver", addr: "10.0.3.5", kind: DNSServerUnidentified, vnet: clsHub},
		// A NIC holds it: a VM's, one attached to none, a private endpoint's.
		{name: "vm", addr: "10.0.1.10", kind: DNSServerNIC, vnet: clsHub, nic: vmNIC},
		{name: "nic without vm", addr: "10.0.1.11", kind: DNSServerNIC, vnet: clsHub, nic: bareNIC},
		{name: "private endpoint nic", addr: "10.0.2.5", kind: DNSServerNIC, vnet: clsHub, nic: peNIC},
		// In a known VNet with nothing found, or the lookup failed.
		{name: "nothing holds it", addr: "10.1.5.5", kind: DNSServerUnidentified, vnet: clsSpoke},
		{name: "lookup failed", addr: "10.0.1.12", kind: DNSServerUnidentified, vnet: clsHub, gap: true},
		// Outside every known VNet, private or public.
		{name: "on-premises", addr: "192.168.1.10", kind: DNSServerExternal},
		{name: "public resolver", addr: "8.8.8.8", kind: DNSServerExternal},
		{name: "private range of no known vnet", addr: "10.2.0.4", kind: DNSServerExternal},
		// Outside every known VNet, but the search for a resolver holding
		// it failed: unknown, never outside Azure.
		{name: "resolver search failed", addr: "192.168.7.7", kind: DNSServerUnidentified, gap: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyDNSServer(ip(tt.addr), ev)
			if got.Kind != tt.kind {
				t.Fatalf("kind = %d, want %d", got.Kind, tt.kind)
			}
			if got.Addr != ip(tt.addr) {
				t.Errorf("address %s", got.Addr)
			}
			if got.InVNet != (tt.vnet != "") || got.VNet.ID != tt.vnet {
				t.Errorf("vnet = %q (in: %v), want %q", got.VNet.ID, got.InVNet, tt.vnet)
			}
			if got.NIC != tt.nic {
				t.Errorf("nic = %+v, want %+v", got.NIC, tt.nic)
			}
			if (got.Resolver == resolver) != tt.resolver || (tt.resolver && got.Endpoint.Name != "in") {
				t.Errorf("resolver = %+v endpoint %+v", got.Resolver, got.Endpoint)
			}
			wantGap := lookupGap
			if !got.InVNet {
				wantGap = ev.SearchGaps[ip(tt.addr)]
			}
			if (got.Gap != nil) != tt.gap || (tt.gap && *got.Gap != wantGap) {
				t.Errorf("gap = %+v", got.Gap)
			}
			if got.Opaque() != (tt.kind != DNSServerAzure && tt.kind != DNSServerResolverInbound) {
				t.Errorf("Opaque() = %v", got.Opaque())
			}
		})
	}
}

// The evidence of a verification is ordered by id, so that overlapping
// candidates resolve the same way on every run; an address in a VNet the
// facts know only from a peering is in Azure, not outside it.
func TestDNSEvidenceOf(t *testing.T) {
	f := &model.Facts{Network: model.NewNetwork(), DNS: model.NewDNS()}
	f.Network.AddVNet(&model.VNet{ID: clsSpoke, Name: "vnet-spoke", AddressSpace: pfxs("10.1.0.0/16"),
		Peerings: []*model.Peering{{RemoteVNetID: clsHub, RemoteAddressSpace: pfxs("10.0.0.0/16")}}})
	// Two NICs claim the same address: the lower id wins.
	for _, name := range []string{"nic-b", "nic-a"} {
		nic := &model.NIC{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/" + name), Name: name, PrivateIPs: ips("10.0.1.10")}
		f.Network.NICs[nic.ID.Key()] = nic
	}
	f.Network.AddAddressGap(ip("10.0.1.20"), model.Gap{Kind: model.GapUnavailable})
	ev := DNSEvidenceOf(f)

	if s := ClassifyDNSServer(ip("10.0.1.10"), ev); s.Kind != DNSServerNIC || s.NIC.Name != "nic-a" || s.VNet.ID != clsHub {
		t.Errorf("10.0.1.10: %+v", s)
	}
	if s := ClassifyDNSServer(ip("10.0.1.20"), ev); s.Kind != DNSServerUnidentified || s.Gap == nil || s.VNet.Name != "vnet-hub" {
		t.Errorf("10.0.1.20 in the peered hub, lookup failed: %+v", s)
	}
	if s := ClassifyDNSServer(ip("10.9.0.1"), ev); s.Kind != DNSServerExternal {
		t.Errorf("10.9.0.1: %+v", s)
	}
	if ev := DNSEvidenceOf(&model.Facts{}); len(ev.VNets)+len(ev.NICs)+len(ev.Resolvers) != 0 {
		t.Errorf("no facts, no evidence: %+v", ev)
	}
}
