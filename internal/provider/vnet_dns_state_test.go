// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

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

// facts is what the verification gathers from the same resources: the VNets
// it could read, the resolvers and NICs it found, the lookup that failed.
func (f dnsFixture) facts(spoke *model.VNet) *model.Facts {
	facts := &model.Facts{Network: model.NewNetwork(), DNS: model.NewDNS()}
	facts.Network.AddVNet(spoke)
	facts.Network.AddVNet(f.hub)
	for _, n := range []*model.NIC{f.vmNIC, f.bareNIC, f.peNIC, f.nodeNIC} {
		facts.Network.NICs[n.ID.Key()] = n
	}
	facts.Network.AddAddressGap(f.lockedAddr, f.lockedGap)
	facts.DNS.Resolvers[f.resolver.ID.Key()] = f.resolver
	return facts
}

// fixtureReads answers pullpath_vnet_dns's reads from the same resources,
// as gather.Reader does: an unreadable resource is a ReadError with its gap.
type fixtureReads struct {
	f     dnsFixture
	vnets map[string]*model.VNet
}

func (r fixtureReads) VNet(_ context.Context, id model.ResourceID) (*model.VNet, error) {
	if v := r.vnets[id.Key()]; v != nil {
		return v, nil
	}
	return nil, &gather.ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"}, Err: errors.New("HTTP 403")}
}

func (r fixtureReads) Resolvers(_ context.Context, vnetID model.ResourceID) ([]*model.Resolver, error) {
	if r.f.resolver.VNetID.Equal(vnetID) {
		return []*model.Resolver{r.f.resolver}, nil
	}
	return nil, nil
}

func (r fixtureReads) NICByAddress(_ context.Context, vnet *model.VNet, a netip.Addr) (*model.NIC, error) {
	if a == r.f.lockedAddr && vnet.ID.Equal(tHub) {
		return nil, errors.Join(&gather.ReadError{Gap: r.f.lockedGap, Err: errors.New("HTTP 403")})
	}
	for _, n := range []*model.NIC{r.f.vmNIC, r.f.bareNIC, r.f.peNIC, r.f.nodeNIC} {
		if strings.HasPrefix(n.SubnetID.Key(), vnet.ID.Key()+"/subnets/") && slices.Contains(n.PrivateIPs, a) {
			return n, nil
		}
	}
	return nil, nil
}

// The same NIC and VNet facts, fed to pullpath_vnet_dns's code path (its
// reads, then the classification) and to the verification's (the facts it
// gathered), give the same applied servers, from the same source, and the
// same classification of each server.
func TestDNSServersAgreeBetweenVNetDNSAndVerification(t *testing.T) {
	every := addrs("10.0.3.4", "10.0.1.10", "10.0.1.11", "10.0.2.5", "10.0.1.99", "10.0.1.12", "10.3.0.5", "192.168.1.10", "168.63.129.16")
	tests := []struct {
		name      string
		vnetDNS   []netip.Addr
		nicDNS    []netip.Addr // the node NIC's own servers; nil: no NIC asked about
		withNIC   bool
		want      []verify.DNSServerKind
		wantFrom  model.DNSSource
		wantAzure bool
	}{
		{name: "azure-provided dns", want: []verify.DNSServerKind{verify.DNSServerAzure}, wantFrom: model.DNSFromAzureDefault, wantAzure: true},
		{name: "every kind of server on the vnet", vnetDNS: every, wantFrom: model.DNSFromVNet, wantAzure: true, want: []verify.DNSServerKind{
			verify.DNSServerResolverInbound, verify.DNSServerNIC, verify.DNSServerNIC, verify.DNSServerNIC,
			verify.DNSServerUnidentified, verify.DNSServerUnidentified, verify.DNSServerUnidentified,
			verify.DNSServerExternal, verify.DNSServerAzure}},
		{name: "the nic's servers override the vnet's", vnetDNS: addrs("10.0.3.4"), nicDNS: addrs("10.0.1.10", "192.168.1.10"), withNIC: true,
			wantFrom: model.DNSFromNIC, want: []verify.DNSServerKind{verify.DNSServerNIC, verify.DNSServerExternal}},
		{name: "a nic without servers defers to the vnet", vnetDNS: addrs("10.0.3.4"), withNIC: true,
			wantFrom: model.DNSFromVNet, want: []verify.DNSServerKind{verify.DNSServerResolverInbound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newDNSFixture()
			spoke := *f.spoke
			spoke.DNSServers = tt.vnetDNS
			var nics []*model.NIC
			if tt.withNIC {
				f.nodeNIC.DNSServers = tt.nicDNS
				nics = []*model.NIC{f.nodeNIC}
			}

			// pullpath_vnet_dns.
			applied := model.NodeDNSServers(nil, nics, &spoke)
			reads := fixtureReads{f: f, vnets: map[string]*model.VNet{spoke.ID.Key(): &spoke, tHub.Key(): f.hub}}
			ev, _ := dnsEvidence(context.Background(), reads, &spoke, applied.Servers)

			// The verification of a pool on the spoke with that node NIC.
			facts := f.facts(&spoke)
			pooled := model.PoolDNSServers(&model.NodePool{NICs: nics}, &spoke, facts.Network)
			vev := verify.DNSEvidenceOf(facts)

			if !slices.Equal(applied.Servers, pooled.Servers) || applied.Source != pooled.Source {
				t.Fatalf("applied servers: pullpath_vnet_dns %v (%d), verification %v (%d)", applied.Servers, applied.Source, pooled.Servers, pooled.Source)
			}
			if applied.Source != tt.wantFrom || applied.UsesAzureDNS() != tt.wantAzure || len(applied.Servers) != len(tt.want) {
				t.Fatalf("applied %v from %d", applied.Servers, applied.Source)
			}
			for i, a := range applied.Servers {
				got, want := verify.ClassifyDNSServer(a, ev), verify.ClassifyDNSServer(a, vev)
				if got.Kind != tt.want[i] || want.Kind != tt.want[i] {
					t.Errorf("%s: kind %d (pullpath_vnet_dns) and %d (verification), want %d", a, got.Kind, want.Kind, tt.want[i])
				}
				if got.InVNet != want.InVNet || !got.VNet.ID.Equal(want.VNet.ID) {
					t.Errorf("%s: vnet %q and %q", a, got.VNet.ID, want.VNet.ID)
				}
				if nicID(got) != nicID(want) || resolverID(got) != resolverID(want) {
					t.Errorf("%s: nic %q / %q, resolver %q / %q", a, nicID(got), nicID(want), resolverID(got), resolverID(want))
				}
				if a == f.lockedAddr && (got.Gap == nil || want.Gap == nil || *got.Gap != *want.Gap) {
					t.Errorf("%s: the failed lookup must be the same gap: %+v / %+v", a, got.Gap, want.Gap)
				}
				// What pullpath_vnet_dns then reports follows from it.
				m := dnsServerToModel(got)
				if m.Address.ValueString() != a.String() || !slices.Contains(dnsServerKinds, m.Kind.ValueString()) {
					t.Errorf("%s: model %+v", a, m)
				}
			}
		})
	}
}

func nicID(s verify.DNSServer) model.ResourceID {
	if s.NIC == nil {
		return ""
	}
	return s.NIC.ID
}

func resolverID(s verify.DNSServer) model.ResourceID {
	if s.Resolver == nil {
		return ""
	}
	return s.Endpoint.ID
}

// Each classification in pullpath_vnet_dns's words: the kind, what serves
// the address, the NIC and the VNet holding it, and a note.
func TestDNSServerToModel(t *testing.T) {
	f := newDNSFixture()
	ev := verify.DNSEvidence{
		VNets:      verify.DNSVNets([]*model.VNet{f.spoke}),
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

// Reads that fail are warnings naming what could not be read, and the
// servers they concern stay unknown, never external.
func TestDNSEvidenceWarnings(t *testing.T) {
	f := newDNSFixture()
	reads := fixtureReads{f: f, vnets: map[string]*model.VNet{tSpoke.Key(): f.spoke, tHub.Key(): f.hub}}
	ev, diags := dnsEvidence(context.Background(), reads, f.spoke, addrs("10.0.1.12", "10.3.0.5", "168.63.129.16", "192.168.1.10"))
	if len(diags) != 2 {
		t.Fatalf("want two warnings, got %v", diags)
	}
	if d := diags[0]; d.Summary() != "Could not look up a DNS server's network interface" ||
		!strings.Contains(d.Detail(), "10.0.1.12") || !strings.Contains(d.Detail(), "needs Microsoft.Network/networkInterfaces/read") {
		t.Errorf("NIC lookup warning: %s: %s", d.Summary(), d.Detail())
	}
	if d := diags[1]; d.Summary() != "Could not read the peered virtual network vnet-far" || !strings.Contains(d.Detail(), string(f.far)) ||
		!strings.Contains(d.Detail(), "Microsoft.Network/virtualNetworks/read") {
		t.Errorf("peered VNet warning: %s: %s", d.Summary(), d.Detail())
	}
	for _, a := range addrs("10.0.1.12", "10.3.0.5") {
		if s := verify.ClassifyDNSServer(a, ev); s.Kind != verify.DNSServerUnidentified || s.Gap == nil {
			t.Errorf("%s: %+v", a, s)
		}
	}

	// Azure DNS and addresses outside every known VNet cost no read.
	ev, diags = dnsEvidence(context.Background(), failingReads{}, f.spoke, addrs("168.63.129.16", "192.168.1.10"))
	if len(diags) != 0 || len(ev.Resolvers)+len(ev.NICs) != 0 {
		t.Errorf("no reads expected: %v %+v", diags, ev)
	}
}

// failingReads fails the test on any read.
type failingReads struct{}

func (failingReads) VNet(context.Context, model.ResourceID) (*model.VNet, error) {
	panic("unexpected VNet read")
}
func (failingReads) Resolvers(context.Context, model.ResourceID) ([]*model.Resolver, error) {
	panic("unexpected resolver read")
}
func (failingReads) NICByAddress(context.Context, *model.VNet, netip.Addr) (*model.NIC, error) {
	panic("unexpected NIC read")
}
