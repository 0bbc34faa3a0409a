// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// dnsFixture is a spoke peered with a hub that holds a DNS private
// resolver, a DNS server VM, a NIC attached to no VM, a private endpoint,
// and a NIC that cannot be read; the spoke also peers with a VNet that
// cannot be read.
type dnsFixture struct {
	spoke, hub                     *model.VNet
	far                            model.ResourceID
	resolver                       *model.Resolver
	vmNIC, bareNIC, peNIC, nodeNIC *model.NIC
	lockedAddr                     netip.Addr
	lockedGap                      model.Gap
}

func newDNSFixture() dnsFixture {
	rg := func(group, rest string) model.ResourceID {
		return model.ResourceID(tSub + "/resourceGroups/" + group + "/providers/" + rest)
	}
	var f dnsFixture
	f.far = rg("rg-far", "Microsoft.Network/virtualNetworks/vnet-far")
	f.hub = &model.VNet{ID: tHub, Name: "vnet-hub", AddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16")},
		Subnets: []*model.Subnet{{ID: tHub + "/subnets/snet-dns", VNetID: tHub, Prefixes: []netip.Prefix{mustPrefix("10.0.1.0/24")}}}}
	f.spoke = &model.VNet{ID: tSpoke, Name: "vnet-spoke", AddressSpace: []netip.Prefix{mustPrefix("10.1.0.0/16")}, Peerings: []*model.Peering{
		{RemoteVNetID: tHub, RemoteAddressSpace: []netip.Prefix{mustPrefix("10.0.0.0/16")}},
		{RemoteVNetID: f.far, RemoteAddressSpace: []netip.Prefix{mustPrefix("10.3.0.0/16")}},
	}}
	f.resolver = &model.Resolver{ID: rg("rg-hub", "Microsoft.Network/dnsResolvers/dnsr-hub"), Name: "dnsr-hub", VNetID: tHub,
		Inbound: []model.ResolverEndpoint{{ID: rg("rg-hub", "Microsoft.Network/dnsResolvers/dnsr-hub/inboundEndpoints/in-hub"), Name: "in-hub", Address: mustAddr("10.0.3.4")}}}
	nic := func(group, name, subnet, addr string) *model.NIC {
		return &model.NIC{ID: rg(group, "Microsoft.Network/networkInterfaces/"+name), Name: name, SubnetID: model.ResourceID(subnet), PrivateIPs: addrs(addr)}
	}
	f.vmNIC = nic("rg-hub", "nic-vm-dns", string(tHub)+"/subnets/snet-dns", "10.0.1.10")
	f.vmNIC.VMID = rg("rg-hub", "Microsoft.Compute/virtualMachines/vm-dns")
	f.bareNIC = nic("rg-hub", "nic-bare", string(tHub)+"/subnets/snet-dns", "10.0.1.11")
	f.peNIC = nic("rg-hub", "pe-acr.nic", string(tHub)+"/subnets/snet-pe", "10.0.2.5")
	f.peNIC.PrivateEndpointID = rg("rg-hub", "Microsoft.Network/privateEndpoints/pe-acr")
	f.nodeNIC = nic("rg-spoke", "nic-node", string(tSpoke)+"/subnets/snet-aks", "10.1.0.4")
	f.lockedAddr = mustAddr("10.0.1.12")
	f.lockedGap = model.Gap{ResourceID: rg("rg-hub", "Microsoft.Network/networkInterfaces/nic-locked"), Kind: model.GapPermissionDenied,
		Permission: "Microsoft.Network/networkInterfaces/read", Detail: "HTTP 403 AuthorizationFailed"}
	return f
}

// Each classification in pullpath_vnet_dns's words: the kind, what serves
// the address, the NIC and the VNet holding it, and a note.
func TestDNSServerToModel(t *testing.T) {
	f := newDNSFixture()
	ev := verify.DNSEvidence{
		VNets:      model.KnownVNetsOf([]*model.VNet{f.spoke}),
		Resolvers:  []*model.Resolver{f.resolver},
		NICs:       []*model.NIC{f.vmNIC, f.bareNIC, f.peNIC},
		LookupGaps: map[netip.Addr]model.Gap{f.lockedAddr: f.lockedGap},
	}
	tests := []struct {
		name, addr   string
		kind         string
		resource     model.ResourceID
		nic          model.ResourceID
		vnet         model.ResourceID
		noteContains string
	}{
		{name: "azure dns", addr: "168.63.129.16", kind: dnsKindAzure, noteContains: "linked to the virtual network"},
		{name: "a look-alike public address is not azure dns", addr: "168.63.129.17", kind: dnsKindExternal},
		{name: "resolver inbound", addr: "10.0.3.4", kind: dnsKindResolverInbound, resource: f.resolver.Inbound[0].ID, vnet: tHub, noteContains: "Inbound endpoint in-hub of a DNS private resolver"},
		{name: "next address in the resolver subnet is not the resolver", addr: "10.0.3.5", kind: dnsKindUnknown, vnet: tHub},
		{name: "vm", addr: "10.0.1.10", kind: dnsKindVM, resource: f.vmNIC.VMID, nic: f.vmNIC.ID, vnet: tHub, noteContains: "cannot show how it forwards"},
		{name: "nic without vm", addr: "10.0.1.11", kind: dnsKindVM, resource: f.bareNIC.ID, nic: f.bareNIC.ID, vnet: tHub},
		{name: "private endpoint nic is not a vm", addr: "10.0.2.5", kind: dnsKindUnknown, resource: f.peNIC.PrivateEndpointID, nic: f.peNIC.ID, vnet: tHub,
			noteContains: "belongs to private endpoint pe-acr"},
		{name: "nothing holds it", addr: "10.1.5.5", kind: dnsKindUnknown, vnet: tSpoke, noteContains: "no network interface"},
		{name: "lookup failed", addr: "10.0.1.12", kind: dnsKindUnknown, vnet: tHub, noteContains: "lookup of what holds it failed (permission denied; needs Microsoft.Network/networkInterfaces/read)"},
		{name: "in a vnet known from a peering", addr: "10.3.0.5", kind: dnsKindUnknown, vnet: f.far, noteContains: "in virtual network vnet-far"},
		{name: "on-premises", addr: "192.168.1.10", kind: dnsKindExternal, noteContains: "outside every known virtual network"},
		{name: "public resolver", addr: "8.8.8.8", kind: dnsKindExternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := dnsServerToModel(verify.ClassifyDNSServer(mustAddr(tt.addr), ev))
			if m.Kind.ValueString() != tt.kind {
				t.Fatalf("kind = %q, want %q (note %q)", m.Kind.ValueString(), tt.kind, m.Note.ValueString())
			}
			for _, c := range []struct {
				field string
				got   string
				null  bool
				want  model.ResourceID
			}{
				{"resource_id", m.ResourceID.ValueString(), m.ResourceID.IsNull(), tt.resource},
				{"network_interface_id", m.NetworkInterfaceID.ValueString(), m.NetworkInterfaceID.IsNull(), tt.nic},
				{"virtual_network_id", m.VirtualNetworkID.ValueString(), m.VirtualNetworkID.IsNull(), tt.vnet},
			} {
				if c.got != string(c.want) || c.null != (c.want == "") {
					t.Errorf("%s = %q (null %v), want %q", c.field, c.got, c.null, c.want)
				}
			}
			if m.Address.ValueString() != tt.addr || m.Note.ValueString() == "" || !strings.Contains(m.Note.ValueString(), tt.noteContains) {
				t.Errorf("address %q, note %q (want it to contain %q)", m.Address.ValueString(), m.Note.ValueString(), tt.noteContains)
			}
			if !slices.Contains(dnsServerKinds, m.Kind.ValueString()) {
				t.Errorf("kind %q is not in dnsServerKinds", m.Kind.ValueString())
			}
		})
	}
}

func TestDNSSourceName(t *testing.T) {
	for s, want := range map[model.DNSSource]string{
		model.DNSFromAzureDefault: "azure_default", model.DNSFromVNet: "virtual_network",
		model.DNSFromNIC: "network_interface", model.DNSFromScaleSet: "network_interface",
	} {
		if got := dnsSourceName(s); got != want {
			t.Errorf("dnsSourceName(%d) = %q, want %q", s, got, want)
		}
	}
}

// Lookups that failed are warnings naming what could not be read and the
// server concerned, which is reported as unknown, never external.
func TestDNSLookupWarnings(t *testing.T) {
	f := newDNSFixture()
	farGap := model.Gap{ResourceID: f.far, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"}
	listGap := model.Gap{ResourceID: tHub, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/listDnsResolvers/action"}
	diags := dnsLookupWarnings([]gather.DNSLookupFailure{
		{Lookup: gather.LookupResolvers, VNetID: tHub, Gap: listGap},
		{Lookup: gather.LookupNIC, VNetID: tHub, Addr: f.lockedAddr, Gap: f.lockedGap},
		{Lookup: gather.LookupPeeredVNet, VNetID: f.far, Addr: mustAddr("10.3.0.5"), Gap: farGap},
	})
	if len(diags) != 3 {
		t.Fatalf("want three warnings, got %v", diags)
	}
	for _, d := range diags {
		if d.Severity() != diag.SeverityWarning {
			t.Errorf("%s is not a warning", d.Summary())
		}
	}
	if d := diags[0]; d.Summary() != "Could not read the DNS private resolvers of vnet-hub" ||
		!strings.Contains(d.Detail(), "listDnsResolvers/action") || !strings.Contains(d.Detail(), "reported as unknown or vm") {
		t.Errorf("resolvers warning: %s: %s", d.Summary(), d.Detail())
	}
	if d := diags[1]; d.Summary() != "Could not look up a DNS server's network interface" ||
		!strings.Contains(d.Detail(), "10.0.1.12") || !strings.Contains(d.Detail(), "needs Microsoft.Network/networkInterfaces/read") {
		t.Errorf("NIC lookup warning: %s: %s", d.Summary(), d.Detail())
	}
	if d := diags[2]; d.Summary() != "Could not read the peered virtual network vnet-far" || !strings.Contains(d.Detail(), string(f.far)) ||
		!strings.Contains(d.Detail(), "Microsoft.Network/virtualNetworks/read") || !strings.Contains(d.Detail(), "10.3.0.5") {
		t.Errorf("peered VNet warning: %s: %s", d.Summary(), d.Detail())
	}
	if diags := dnsLookupWarnings(nil); len(diags) != 0 {
		t.Errorf("no failure, no warning: %v", diags)
	}
}

// An Azure Firewall's address is azure_firewall, with the firewall as the
// resource and a note saying what its DNS proxy does; a firewall's unread
// settings are a warning naming the policy.
func TestFirewallServerToModel(t *testing.T) {
	f := newDNSFixture()
	rg := func(rest string) model.ResourceID {
		return model.ResourceID(tSub + "/resourceGroups/rg-hub/providers/" + rest)
	}
	fw := &model.AzureFirewall{ID: rg("Microsoft.Network/azureFirewalls/afw-hub"), Name: "afw-hub", PrivateIPs: addrs("10.0.4.4"),
		SubnetIDs: []model.ResourceID{tHub + "/subnets/AzureFirewallSubnet"}}
	policy := rg("Microsoft.Network/firewallPolicies/afwp-hub")
	withPolicy := *fw
	withPolicy.PolicyID = policy
	ev := verify.DNSEvidence{VNets: model.KnownVNetsOf([]*model.VNet{f.spoke}), Resolvers: []*model.Resolver{f.resolver}, NICs: []*model.NIC{f.vmNIC}}
	tests := []struct {
		name string
		fw   *model.AzureFirewall
		dns  model.FirewallDNS
		note []string
	}{
		{name: "proxy off, classic", fw: fw, dns: model.FirewallDNS{Known: true, From: fw.ID},
			note: []string{"Azure Firewall afw-hub", "DNS proxy is off", "Network.DNS.EnableProxy", "nothing answers DNS at this address"}},
		{name: "proxy off in the policy", fw: &withPolicy, dns: model.FirewallDNS{Known: true, From: policy},
			note: []string{"DNS proxy is off", "firewall policy afwp-hub", "nothing answers DNS at this address"}},
		{name: "proxy on to azure dns", fw: &withPolicy, dns: model.FirewallDNS{Known: true, Proxy: true, From: policy},
			note: []string{"forwards to Azure DNS from virtual network vnet-hub"}},
		{name: "proxy on to a resolver", fw: &withPolicy, dns: model.FirewallDNS{Known: true, Proxy: true, Servers: addrs("10.0.3.4"), From: policy},
			note: []string{"forwards to 10.0.3.4", "resolver inbound endpoints", "virtual network vnet-hub"}},
		{name: "proxy on to a dns vm", fw: &withPolicy, dns: model.FirewallDNS{Known: true, Proxy: true, Servers: addrs("10.0.1.10"), From: policy},
			note: []string{"cannot describe the forwarding of 10.0.1.10", "unverified"}},
		{name: "settings unread", fw: &withPolicy, dns: model.FirewallDNS{From: policy},
			note: []string{"could not be read (afwp-hub", "unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := mustAddr("10.0.4.4")
			m := firewallServerToModel(verify.ClassifyDNSServer(a, ev), verify.ClassifyFirewallDNS(tt.fw, tt.dns, ev))
			if m.Kind.ValueString() != dnsKindFirewall || !slices.Contains(dnsServerKinds, dnsKindFirewall) || m.ResourceID.ValueString() != string(fw.ID) ||
				m.VirtualNetworkID.ValueString() != string(tHub) || !m.NetworkInterfaceID.IsNull() || m.Address.ValueString() != "10.0.4.4" {
				t.Fatalf("got %+v", m)
			}
			for _, want := range tt.note {
				if !strings.Contains(m.Note.ValueString(), want) {
					t.Errorf("note %q does not say %q", m.Note.ValueString(), want)
				}
			}
		})
	}

	policyGap := model.Gap{ResourceID: policy, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/firewallPolicies/read"}
	diags := dnsLookupWarnings([]gather.DNSLookupFailure{{Lookup: gather.LookupFirewallDNS, VNetID: policy, Addr: mustAddr("10.0.4.4"), Gap: policyGap}})
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || !strings.Contains(diags[0].Summary(), "Azure Firewall at 10.0.4.4 (afwp-hub)") ||
		!strings.Contains(diags[0].Detail(), "Microsoft.Network/firewallPolicies/read") {
		t.Errorf("firewall settings warning: %v", diags)
	}
}
