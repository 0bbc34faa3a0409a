// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
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

// What an Azure Firewall's address is as a DNS server: each outcome of its
// DNS proxy, and the look-alike that is not it.
func TestClassifyFirewallDNS(t *testing.T) {
	resolver := &model.Resolver{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/r"), Name: "r", VNetID: clsHub,
		Inbound: []model.ResolverEndpoint{{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in"), Name: "in", Address: ip("10.0.3.4")}}}
	other := &model.Resolver{ID: id("/resourceGroups/rg-spoke/providers/Microsoft.Network/dnsResolvers/s"), Name: "s", VNetID: clsSpoke,
		Inbound: []model.ResolverEndpoint{{ID: id("/resourceGroups/rg-spoke/providers/Microsoft.Network/dnsResolvers/s/inboundEndpoints/in"), Name: "in", Address: ip("10.1.3.4")}}}
	vmNIC := &model.NIC{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-dns"), PrivateIPs: ips("10.0.1.10")}
	ev := DNSEvidence{
		VNets: model.KnownVNets{
			{ID: clsSpoke, Name: "vnet-spoke", Space: pfxs("10.1.0.0/16")},
			{ID: clsHub, Name: "vnet-hub", Space: pfxs("10.0.0.0/16"), Peered: true},
		},
		Resolvers: []*model.Resolver{resolver, other},
		NICs:      []*model.NIC{vmNIC},
	}
	fw := &model.AzureFirewall{ID: id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/afw"), Name: "afw",
		PrivateIPs: ips("10.0.4.4"), SubnetIDs: []model.ResourceID{clsHub + "/subnets/AzureFirewallSubnet"}}
	hubFW := &model.AzureFirewall{ID: id("/resourceGroups/rg-vwan/providers/Microsoft.Network/azureFirewalls/afw-hub"), Name: "afw-hub", PrivateIPs: ips("10.100.0.4")}
	known := func(proxy bool, servers ...string) model.FirewallDNS {
		return model.FirewallDNS{Known: true, Proxy: proxy, Servers: ips(servers...), From: fw.ID}
	}
	tests := []struct {
		name   string
		fw     *model.AzureFirewall
		dns    model.FirewallDNS
		kind   FirewallDNSKind
		vnet   model.ResourceID
		reason FirewallDNSReason
		why    string
	}{
		{name: "settings not read", fw: fw, dns: model.FirewallDNS{From: fw.ID}, kind: FirewallDNSSettingsUnknown},
		{name: "unread settings are not proxy off, even with the proxy flag", fw: fw, dns: model.FirewallDNS{Proxy: true, From: fw.ID}, kind: FirewallDNSSettingsUnknown},
		{name: "proxy off", fw: fw, dns: known(false), kind: FirewallDNSProxyOff},
		{name: "proxy off, whatever servers it lists", fw: fw, dns: known(false, "10.0.3.4"), kind: FirewallDNSProxyOff},
		{name: "proxy on without servers: azure dns from the firewall's vnet", fw: fw, dns: known(true), kind: FirewallDNSToAzure, vnet: clsHub},
		{name: "proxy on to 168.63.129.16", fw: fw, dns: known(true, "168.63.129.16"), kind: FirewallDNSToAzure, vnet: clsHub},
		{name: "proxy on to a resolver in another vnet", fw: fw, dns: known(true, "10.1.3.4"), kind: FirewallDNSToResolvers, vnet: clsSpoke},
		{name: "proxy on to azure dns and a resolver of the same vnet", fw: fw, dns: known(true, "168.63.129.16", "10.0.3.4"), kind: FirewallDNSToResolvers, vnet: clsHub},
		{name: "proxy on to resolvers of two vnets", fw: fw, dns: known(true, "10.0.3.4", "10.1.3.4"), kind: FirewallDNSUnverified, reason: FirewallDNSManyVNets, why: "different VNets"},
		{name: "proxy on to a dns vm", fw: fw, dns: known(true, "10.0.3.4", "10.0.1.10"), kind: FirewallDNSUnverified, reason: FirewallDNSOpaqueServers, why: "forwarding of 10.0.1.10"},
		{name: "proxy on to an external server", fw: fw, dns: known(true, "192.168.1.1"), kind: FirewallDNSUnverified, reason: FirewallDNSOpaqueServers, why: "forwarding of 192.168.1.1"},
		{name: "a hub firewall asking azure dns", fw: hubFW, dns: known(true), kind: FirewallDNSUnverified, reason: FirewallDNSNoVNet, why: "Virtual WAN hub"},
		{name: "a hub firewall forwarding to a spoke's resolver", fw: hubFW, dns: known(true, "10.1.3.4"), kind: FirewallDNSToResolvers, vnet: clsSpoke},
		{name: "child and parent policies disagree", fw: fw, dns: model.FirewallDNS{Known: true, Proxy: true, From: fw.ID, Inheritance: "the parent differs"},
			kind: FirewallDNSUnverified, reason: FirewallDNSInheritance, why: "the parent differs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyFirewallDNS(tt.fw, tt.dns, ev)
			if got.Kind != tt.kind || !got.VNetID.Equal(tt.vnet) || got.Reason != tt.reason || got.Firewall != tt.fw {
				t.Fatalf("got %+v, want kind %d from %q, reason %d", got, tt.kind, tt.vnet, tt.reason)
			}
			if why := got.Why(); (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
				t.Errorf("why %q, want it to say %q", why, tt.why)
			}
		})
	}
}
