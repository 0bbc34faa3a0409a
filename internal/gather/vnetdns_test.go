// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

func addrList(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = ip(a)
	}
	return out
}

// dnsFixture is a spoke peered with a hub that holds a DNS private
// resolver, a DNS server VM, a NIC attached to no VM, a private endpoint,
// and a NIC that cannot be read; the spoke also peers with a VNet that
// cannot be read.
type dnsFixture struct {
	spoke, hub                     *model.VNet
	far                            model.ResourceID
	resolver                       *model.Resolver
	remote                         *model.Resolver
	searchFails                    netip.Addr
	searchGap                      model.Gap
	ruleset                        *model.Ruleset
	vmNIC, bareNIC, peNIC, nodeNIC *model.NIC
	lockedAddr                     netip.Addr
	lockedGap                      model.Gap
	// Azure Firewalls in the hub's AzureFirewallSubnet: fwOn's policy has
	// the DNS proxy on (Azure DNS), fwOff's classic setting has it off,
	// fwFwd's classic proxy forwards to the remote resolver (only the
	// search finds it).
	fwOn, fwOff, fwFwd *model.AzureFirewall
	policyOn           *model.FirewallPolicy
}

func newDNSFixture() dnsFixture {
	rg := func(group, rest string) model.ResourceID {
		return model.ResourceID(sub + "/resourceGroups/" + group + "/providers/" + rest)
	}
	var f dnsFixture
	f.far = rg("rg-far", "Microsoft.Network/virtualNetworks/vnet-far")
	f.hub = &model.VNet{ID: vnetHub, Name: "vnet-hub", AddressSpace: []netip.Prefix{pfx("10.0.0.0/16")},
		Subnets: []*model.Subnet{{ID: vnetHub + "/subnets/snet-dns", VNetID: vnetHub, Prefixes: []netip.Prefix{pfx("10.0.1.0/24")}}}}
	fwSubnet := &model.Subnet{ID: vnetHub + "/subnets/AzureFirewallSubnet", Name: "AzureFirewallSubnet", VNetID: vnetHub, Prefixes: []netip.Prefix{pfx("10.0.4.0/24")}}
	f.hub.Subnets = append(f.hub.Subnets, fwSubnet)
	firewall := func(name, addr string) *model.AzureFirewall {
		id := rg("rg-hub", "Microsoft.Network/azureFirewalls/"+name)
		fwSubnet.IPConfigurationIDs = append(fwSubnet.IPConfigurationIDs, id+"/azureFirewallIpConfigurations/ipconfig")
		return &model.AzureFirewall{ID: id, Name: name, PrivateIPs: addrList(addr), SubnetIDs: []model.ResourceID{fwSubnet.ID}}
	}
	f.policyOn = &model.FirewallPolicy{ID: rg("rg-hub", "Microsoft.Network/firewallPolicies/afwp-on"), Name: "afwp-on", DNSProxyEnabled: true}
	f.fwOn = firewall("afw-on", "10.0.4.4")
	f.fwOn.PolicyID = f.policyOn.ID
	f.fwOff = firewall("afw-off", "10.0.4.5")
	f.fwFwd = firewall("afw-fwd", "10.0.4.6")
	f.fwFwd.DNSProxyEnabled, f.fwFwd.ClassicDNSServers = true, addrList("10.4.3.4")
	f.spoke = &model.VNet{ID: vnetSpoke, Name: "vnet-spoke", AddressSpace: []netip.Prefix{pfx("10.1.0.0/16")}, Peerings: []*model.Peering{
		{RemoteVNetID: vnetHub, RemoteAddressSpace: []netip.Prefix{pfx("10.0.0.0/16")}},
		{RemoteVNetID: f.far, RemoteAddressSpace: []netip.Prefix{pfx("10.3.0.0/16")}},
	}}
	f.resolver = &model.Resolver{ID: rg("rg-hub", "Microsoft.Network/dnsResolvers/dnsr-hub"), Name: "dnsr-hub", VNetID: vnetHub,
		Inbound: []model.ResolverEndpoint{{ID: rg("rg-hub", "Microsoft.Network/dnsResolvers/dnsr-hub/inboundEndpoints/in-hub"), Name: "in-hub", Address: ip("10.0.3.4")}}}
	// A resolver in a VNet no peering of the spoke reaches (a spoke of
	// another Virtual WAN hub, or another subscription): only the
	// Resource Graph search finds it.
	f.remote = &model.Resolver{ID: rg("rg-dns", "Microsoft.Network/dnsResolvers/dnsr-neu"), Name: "dnsr-neu", VNetID: rg("rg-dns", "Microsoft.Network/virtualNetworks/vnet-dns"),
		Inbound: []model.ResolverEndpoint{{ID: rg("rg-dns", "Microsoft.Network/dnsResolvers/dnsr-neu/inboundEndpoints/in-neu"), Name: "in-neu", Address: ip("10.4.3.4")}}}
	f.searchFails = ip("10.5.0.53")
	f.searchGap = model.Gap{ResourceID: ResourceGraphQuery, Kind: model.GapPermissionDenied, Permission: permResourceGraphRead, Detail: "HTTP 403"}
	f.ruleset = &model.Ruleset{ID: rg("rg-hub", "Microsoft.Network/dnsForwardingRulesets/rs-hub"), Name: "rs-hub", LinkedVNets: []model.ResourceID{vnetSpoke}}
	nic := func(group, name, subnet, addr string) *model.NIC {
		return &model.NIC{ID: rg(group, "Microsoft.Network/networkInterfaces/"+name), Name: name, SubnetID: model.ResourceID(subnet), PrivateIPs: addrList(addr)}
	}
	f.vmNIC = nic("rg-hub", "nic-vm-dns", string(vnetHub)+"/subnets/snet-dns", "10.0.1.10")
	f.vmNIC.VMID = rg("rg-hub", "Microsoft.Compute/virtualMachines/vm-dns")
	f.bareNIC = nic("rg-hub", "nic-bare", string(vnetHub)+"/subnets/snet-dns", "10.0.1.11")
	f.peNIC = nic("rg-hub", "pe-acr.nic", string(vnetHub)+"/subnets/snet-pe", "10.0.2.5")
	f.peNIC.PrivateEndpointID = rg("rg-hub", "Microsoft.Network/privateEndpoints/pe-acr")
	f.nodeNIC = nic("rg-spoke", "nic-node", string(vnetSpoke)+"/subnets/snet-aks", "10.1.0.4")
	f.lockedAddr = ip("10.0.1.12")
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
	facts.DNS.Resolvers[f.remote.ID.Key()] = f.remote
	facts.DNS.AddResolverSearchGap(f.searchFails, f.searchGap)
	for _, fw := range []*model.AzureFirewall{f.fwOn, f.fwOff, f.fwFwd} {
		facts.Network.AddFirewall(fw)
	}
	facts.Network.AddFirewallPolicy(f.policyOn)
	return facts
}

// fixtureReads answers VNetDNS's reads from the same resources, as the
// Reader does: an unreadable resource is a ReadError with its gap.
type fixtureReads struct {
	f            dnsFixture
	vnets        map[string]*model.VNet
	policyDenied bool
}

func (r fixtureReads) VNet(_ context.Context, id model.ResourceID) (*model.VNet, error) {
	if v := r.vnets[id.Key()]; v != nil {
		return v, nil
	}
	return nil, &ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"}, Err: errors.New("HTTP 403")}
}

func (r fixtureReads) Resolvers(_ context.Context, vnetID model.ResourceID) ([]*model.Resolver, error) {
	if r.f.resolver.VNetID.Equal(vnetID) {
		return []*model.Resolver{r.f.resolver}, nil
	}
	return nil, nil
}

func (r fixtureReads) NICByAddress(_ context.Context, vnet *model.VNet, a netip.Addr) (*model.NIC, error) {
	if a == r.f.lockedAddr && vnet.ID.Equal(vnetHub) {
		return nil, errors.Join(&ReadError{Gap: r.f.lockedGap, Err: errors.New("HTTP 403")})
	}
	for _, n := range []*model.NIC{r.f.vmNIC, r.f.bareNIC, r.f.peNIC, r.f.nodeNIC} {
		if strings.HasPrefix(n.SubnetID.Key(), vnet.ID.Key()+"/subnets/") && slices.Contains(n.PrivateIPs, a) {
			return n, nil
		}
	}
	return nil, nil
}

// ResolverEndpointsAt answers the resolver search: the remote resolver's
// endpoint; a search that asks for searchFails fails.
func (r fixtureReads) ResolverEndpointsAt(_ context.Context, addrs []netip.Addr) (map[netip.Addr]model.ResourceID, error) {
	out := map[netip.Addr]model.ResourceID{}
	for _, a := range addrs {
		if a == r.f.searchFails {
			return nil, &ReadError{Gap: r.f.searchGap, Err: errors.New("HTTP 403")}
		}
		if _, ok := r.f.remote.InboundAt(a); ok {
			out[a] = r.f.remote.ID
		}
	}
	return out, nil
}

func (r fixtureReads) resolver(_ context.Context, id model.ResourceID) (*model.Resolver, error) {
	if id.Equal(r.f.remote.ID) {
		return r.f.remote, nil
	}
	return nil, &ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapNotFound, Permission: permDNSResolverRead}, Err: errors.New("HTTP 404")}
}

func (r fixtureReads) DNSPolicies(_ context.Context, vnetID model.ResourceID) (dnsPolicyRead, error) {
	return dnsPolicyRead{Linked: &model.VNetDNSPolicies{VNetID: vnetID}}, nil
}

func (r fixtureReads) Rulesets(_ context.Context, vnetID model.ResourceID) ([]*model.Ruleset, error) {
	if slices.ContainsFunc(r.f.ruleset.LinkedVNets, vnetID.Equal) {
		return []*model.Ruleset{r.f.ruleset}, nil
	}
	return nil, nil
}

func (r fixtureReads) Firewall(_ context.Context, id model.ResourceID) (*model.AzureFirewall, error) {
	for _, fw := range []*model.AzureFirewall{r.f.fwOn, r.f.fwOff, r.f.fwFwd} {
		if fw.ID.Equal(id) {
			return fw, nil
		}
	}
	return nil, &ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapNotFound, Permission: permFirewallRead}, Err: errors.New("HTTP 404")}
}

func (r fixtureReads) firewallsInGroup(context.Context, model.ResourceID) ([]*model.AzureFirewall, error) {
	return nil, nil
}

func (r fixtureReads) firewallPolicySettings(_ context.Context, id model.ResourceID) (*model.FirewallPolicy, error) {
	if id.Equal(r.f.policyOn.ID) && !r.policyDenied {
		return r.f.policyOn, nil
	}
	return nil, &ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapPermissionDenied, Permission: permFirewallPolicyRead}, Err: errors.New("HTTP 403")}
}

func (r fixtureReads) hubsOfVNets(context.Context, []*model.VNet) []*model.VirtualHub { return nil }

// evidence is what classification looks at, from what VNetDNS read.
func evidence(d VNetDNS) verify.DNSEvidence {
	return verify.DNSEvidence{VNets: d.VNets, Resolvers: d.Resolvers, NICs: d.NICs, LookupGaps: d.LookupGaps, SearchGaps: d.SearchGaps}
}

// The same NIC and VNet facts, read by VNetDNS (pullpath_vnet_dns) and
// gathered by the verification, give the same applied servers, from the
// same source, and the same classification of each server.
func TestDNSServersAgreeBetweenVNetDNSAndVerification(t *testing.T) {
	every := addrList("10.0.3.4", "10.0.1.10", "10.0.1.11", "10.0.2.5", "10.0.1.99", "10.0.1.12", "10.3.0.5", "192.168.1.10", "10.4.3.4", "168.63.129.16")
	tests := []struct {
		name      string
		vnetDNS   []netip.Addr
		nicDNS    []netip.Addr // the node NIC's own servers; nil: no NIC asked about
		withNIC   bool
		want      []verify.DNSServerKind
		wantFrom  model.DNSSource
		wantAzure bool
		// firewalls: what the Azure Firewall at an address is as a DNS
		// server, and the VNet that answers.
		firewalls  map[netip.Addr]verify.FirewallDNSKind
		answerVNet model.ResourceID
	}{
		{name: "azure-provided dns", want: []verify.DNSServerKind{verify.DNSServerAzure}, wantFrom: model.DNSFromAzureDefault, wantAzure: true},
		{name: "every kind of server on the vnet", vnetDNS: every, wantFrom: model.DNSFromVNet, wantAzure: true, want: []verify.DNSServerKind{
			verify.DNSServerResolverInbound, verify.DNSServerNIC, verify.DNSServerNIC, verify.DNSServerNIC,
			verify.DNSServerUnidentified, verify.DNSServerUnidentified, verify.DNSServerUnidentified,
			verify.DNSServerExternal, verify.DNSServerResolverInbound, verify.DNSServerAzure}},
		{name: "a resolver only the search finds", vnetDNS: addrList("10.4.3.4"), wantFrom: model.DNSFromVNet, want: []verify.DNSServerKind{verify.DNSServerResolverInbound}},
		{name: "a failed search leaves the server unknown", vnetDNS: addrList("10.5.0.53"), wantFrom: model.DNSFromVNet,
			want: []verify.DNSServerKind{verify.DNSServerUnidentified}},
		{name: "the nic's servers override the vnet's", vnetDNS: addrList("10.0.3.4"), nicDNS: addrList("10.0.1.10", "192.168.1.10"), withNIC: true,
			wantFrom: model.DNSFromNIC, want: []verify.DNSServerKind{verify.DNSServerNIC, verify.DNSServerExternal}},
		{name: "an azure firewall with the dns proxy on", vnetDNS: addrList("10.0.4.4"), wantFrom: model.DNSFromVNet,
			want: []verify.DNSServerKind{verify.DNSServerUnidentified}, firewalls: map[netip.Addr]verify.FirewallDNSKind{ip("10.0.4.4"): verify.FirewallDNSToAzure}, answerVNet: vnetHub},
		{name: "an azure firewall with the dns proxy off", vnetDNS: addrList("10.0.4.5", "10.0.3.4"), wantFrom: model.DNSFromVNet,
			want: []verify.DNSServerKind{verify.DNSServerUnidentified, verify.DNSServerResolverInbound}, firewalls: map[netip.Addr]verify.FirewallDNSKind{ip("10.0.4.5"): verify.FirewallDNSProxyOff}},
		{name: "an azure firewall whose proxy forwards to a resolver only the search finds", vnetDNS: addrList("10.0.4.6"), wantFrom: model.DNSFromVNet,
			want: []verify.DNSServerKind{verify.DNSServerUnidentified}, firewalls: map[netip.Addr]verify.FirewallDNSKind{ip("10.0.4.6"): verify.FirewallDNSToResolvers},
			answerVNet: model.ResourceID(sub + "/resourceGroups/rg-dns/providers/Microsoft.Network/virtualNetworks/vnet-dns")},
		{name: "a nic without servers defers to the vnet", vnetDNS: addrList("10.0.3.4"), withNIC: true,
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
			reads := fixtureReads{f: f, vnets: map[string]*model.VNet{spoke.ID.Key(): &spoke, vnetHub.Key(): f.hub}}
			read := vnetDNS(t.Context(), New(nil), reads, &spoke, applied.Servers)
			ev := evidence(read)

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
				if (a == f.lockedAddr || a == f.searchFails) && (got.Gap == nil || want.Gap == nil || *got.Gap != *want.Gap) {
					t.Errorf("%s: the failed lookup must be the same gap: %+v / %+v", a, got.Gap, want.Gap)
				}
				// An Azure Firewall's address: both find the firewall and
				// say the same of its DNS proxy.
				read, found := read.FirewallAt(a)
				vfw := facts.Network.FirewallByPrivateIP(a)
				wantKind, isFirewall := tt.firewalls[a]
				if found != isFirewall || (vfw != nil) != isFirewall {
					t.Fatalf("%s: firewall found %v (pullpath_vnet_dns), %v (verification), want %v", a, found, vfw != nil, isFirewall)
				}
				if !isFirewall {
					continue
				}
				gotFW := verify.ClassifyFirewallDNS(read.Firewall, read.DNS, ev)
				wantFW := verify.ClassifyFirewallDNS(vfw, facts.Network.FirewallDNSOf(vfw), vev)
				if gotFW.Kind != wantKind || wantFW.Kind != wantKind || !gotFW.VNetID.Equal(wantFW.VNetID) || !gotFW.VNetID.Equal(tt.answerVNet) ||
					gotFW.Reason != wantFW.Reason || !gotFW.Firewall.ID.Equal(vfw.ID) {
					t.Errorf("%s: firewall DNS %+v (pullpath_vnet_dns), %+v (verification), want %d from %q", a, gotFW, wantFW, wantKind, tt.answerVNet)
				}
			}
			// The rulesets linked to the VNet are read beside the servers.
			if len(read.Rulesets) != 1 || read.Rulesets[0] != f.ruleset || read.RulesetsErr != nil {
				t.Errorf("rulesets %+v, %v", read.Rulesets, read.RulesetsErr)
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

// Lookups that fail are named with their gap, resolvers first, then each
// server's, in the order of the servers; the servers they concern stay
// unidentified, never external.
func TestVNetDNSLookupFailures(t *testing.T) {
	f := newDNSFixture()
	reads := fixtureReads{f: f, vnets: map[string]*model.VNet{vnetSpoke.Key(): f.spoke, vnetHub.Key(): f.hub}}
	read := vnetDNS(t.Context(), New(nil), reads, f.spoke, addrList("10.0.1.12", "10.3.0.5", "168.63.129.16", "192.168.1.10"))
	if len(read.Failed) != 2 {
		t.Fatalf("want two failed lookups, got %+v", read.Failed)
	}
	if got := read.Failed[0]; got.Lookup != LookupNIC || got.Addr != f.lockedAddr || !got.VNetID.Equal(vnetHub) || got.Gap != f.lockedGap {
		t.Errorf("NIC lookup: %+v", got)
	}
	if got := read.Failed[1]; got.Lookup != LookupPeeredVNet || got.Addr != ip("10.3.0.5") || !got.VNetID.Equal(f.far) ||
		got.Gap.Permission != "Microsoft.Network/virtualNetworks/read" || !got.Gap.ResourceID.Equal(f.far) {
		t.Errorf("peered VNet: %+v", got)
	}
	for _, a := range addrList("10.0.1.12", "10.3.0.5") {
		if s := verify.ClassifyDNSServer(a, evidence(read)); s.Kind != verify.DNSServerUnidentified || s.Gap == nil {
			t.Errorf("%s: %+v", a, s)
		}
	}

	// A failed resolver list is named too, and what it returned is kept.
	failing := failingResolvers{fixtureReads: reads}
	read = vnetDNS(t.Context(), New(nil), failing, f.spoke, addrList("10.0.3.4"))
	if len(read.Failed) != 2 || read.Failed[0].Lookup != LookupResolvers || !read.Failed[0].VNetID.Equal(vnetHub) ||
		read.Failed[0].Gap.Permission != permListDNSResolvers {
		t.Fatalf("resolver list: %+v", read.Failed)
	}
	// Without the resolver, the address is looked up as a NIC, and found by none.
	if s := verify.ClassifyDNSServer(ip("10.0.3.4"), evidence(read)); s.Kind != verify.DNSServerUnidentified {
		t.Errorf("10.0.3.4 without its resolver: %+v", s)
	}

	// Azure DNS costs no read but the rulesets'; addresses outside every
	// known VNet cost the one resolver search, and a resolver read only
	// where it finds one.
	searches := 0
	read = vnetDNS(t.Context(), New(nil), noServerReads{fixtureReads: reads, searches: &searches}, f.spoke, addrList("168.63.129.16"))
	if len(read.Failed) != 0 || len(read.Resolvers)+len(read.NICs) != 0 || len(read.Rulesets) != 1 || searches != 0 {
		t.Errorf("no lookups expected: %+v, %d searches", read, searches)
	}
	read = vnetDNS(t.Context(), New(nil), noServerReads{fixtureReads: reads, searches: &searches}, f.spoke, addrList("168.63.129.16", "192.168.1.10", "192.168.1.11"))
	if len(read.Failed) != 0 || len(read.Resolvers)+len(read.NICs) != 0 || searches != 1 {
		t.Errorf("one search expected: %+v, %d searches", read, searches)
	}

	// A failed search is named, and the server is unknown, never external.
	read = vnetDNS(t.Context(), New(nil), reads, f.spoke, addrList("10.5.0.53"))
	if len(read.Failed) != 1 || read.Failed[0].Lookup != LookupResolverSearch || read.Failed[0].Addr != f.searchFails || read.Failed[0].Gap != f.searchGap {
		t.Fatalf("search: %+v", read.Failed)
	}
	if s := verify.ClassifyDNSServer(f.searchFails, evidence(read)); s.Kind != verify.DNSServerUnidentified || s.Gap == nil || *s.Gap != f.searchGap {
		t.Errorf("%s after a failed search: %+v", f.searchFails, s)
	}
}

// failingResolvers cannot list the resolvers of a VNet, and its NIC
// lookups find nothing.
type failingResolvers struct{ fixtureReads }

func (failingResolvers) Resolvers(_ context.Context, vnetID model.ResourceID) ([]*model.Resolver, error) {
	return nil, &ReadError{Gap: model.Gap{ResourceID: vnetID, Kind: model.GapPermissionDenied, Permission: permListDNSResolvers}, Err: errors.New("HTTP 403")}
}

func (failingResolvers) NICByAddress(_ context.Context, vnet *model.VNet, _ netip.Addr) (*model.NIC, error) {
	return nil, &ReadError{Gap: model.Gap{ResourceID: vnet.ID, Kind: model.GapPermissionDenied, Permission: permNICRead}, Err: errors.New("HTTP 403")}
}

// noServerReads panics on any read but the rulesets' and the resolver
// search, which it counts.
type noServerReads struct {
	fixtureReads
	searches *int
}

func (r noServerReads) ResolverEndpointsAt(ctx context.Context, addrs []netip.Addr) (map[netip.Addr]model.ResourceID, error) {
	*r.searches++
	return r.fixtureReads.ResolverEndpointsAt(ctx, addrs)
}
func (noServerReads) resolver(context.Context, model.ResourceID) (*model.Resolver, error) {
	panic("unexpected resolver read")
}

func (noServerReads) VNet(context.Context, model.ResourceID) (*model.VNet, error) {
	panic("unexpected VNet read")
}
func (noServerReads) Resolvers(context.Context, model.ResourceID) ([]*model.Resolver, error) {
	panic("unexpected resolver read")
}
func (noServerReads) NICByAddress(context.Context, *model.VNet, netip.Addr) (*model.NIC, error) {
	panic("unexpected NIC read")
}

// The servers' NIC lookups run concurrently, as many at a time as the
// Reader's width allows and no more; the result keeps the servers' order.
func TestVNetDNSLookupsRunConcurrently(t *testing.T) {
	servers := addrList("10.0.1.10", "10.0.1.11", "10.0.1.99", "10.0.2.5")
	for _, width := range []int{1, 2, 4} {
		f := newDNSFixture()
		spoke := *f.spoke
		reads := &barrierReads{fixtureReads: fixtureReads{f: f, vnets: map[string]*model.VNet{spoke.ID.Key(): &spoke, vnetHub.Key(): f.hub}},
			want: width, arrived: make(chan struct{})}
		r := New(nil)
		r.SetConcurrency(width)
		read := vnetDNS(t.Context(), r, reads, &spoke, servers)
		if reads.max != width {
			t.Errorf("width %d: %d NIC lookups at most at a time", width, reads.max)
		}
		if len(read.NICs) != 3 || read.NICs[0] != f.vmNIC || read.NICs[1] != f.bareNIC || read.NICs[2] != f.peNIC {
			t.Errorf("width %d: NICs out of the servers' order: %+v", width, read.NICs)
		}
	}
}

// barrierReads holds each NIC lookup until want of them are in flight (or
// a second has passed), and records how many were at most.
type barrierReads struct {
	fixtureReads
	want    int
	mu      sync.Mutex
	in, max int
	arrived chan struct{}
	closed  bool
}

func (b *barrierReads) NICByAddress(ctx context.Context, vnet *model.VNet, a netip.Addr) (*model.NIC, error) {
	b.mu.Lock()
	b.in++
	b.max = max(b.max, b.in)
	if b.in >= b.want && !b.closed {
		b.closed = true
		close(b.arrived)
	}
	b.mu.Unlock()
	select {
	case <-b.arrived:
	case <-time.After(time.Second):
	}
	defer func() { b.mu.Lock(); b.in--; b.mu.Unlock() }()
	return b.fixtureReads.NICByAddress(ctx, vnet, a)
}

// movedReads: Resource Graph still names the remote resolver for an
// address its inbound endpoint no longer holds.
type movedReads struct{ fixtureReads }

func (r movedReads) ResolverEndpointsAt(_ context.Context, addrs []netip.Addr) (map[netip.Addr]model.ResourceID, error) {
	out := map[netip.Addr]model.ResourceID{}
	for _, a := range addrs {
		out[a] = r.f.remote.ID
	}
	return out, nil
}

// The search's answer counts only where the resolver read confirms it: an
// address its endpoint holds gets the resolver's VNet (the remote hub
// lookup starts from it), an address it no longer holds stays unexplained,
// with no VNet and no gap.
func TestSearchResolverEndpointsConfirmsByTheRead(t *testing.T) {
	f := newDNSFixture()
	reads := movedReads{fixtureReads{f: f}}
	held, moved := ip("10.4.3.4"), ip("10.4.3.9")
	got := searchResolverEndpoints(t.Context(), New(nil), reads, addrList("10.4.3.9", "10.4.3.4"))
	if len(got.Holding) != 1 || got.Holding[0] != f.remote || len(got.Read) != 1 {
		t.Fatalf("resolvers: holding %v, read %v", got.Holding, got.Read)
	}
	if v, ok := got.VNets[held]; !ok || !v.Equal(f.remote.VNetID) {
		t.Errorf("%s: VNet %q", held, v)
	}
	if _, ok := got.VNets[moved]; ok {
		t.Errorf("%s is no longer the resolver's, yet has its VNet", moved)
	}
	if len(got.Gaps) != 0 {
		t.Errorf("gaps %v", got.Gaps)
	}
}

// A firewall whose policy cannot be read is found, its DNS settings stay
// unknown (never "proxy off"), and the failed read is named with its gap;
// a firewall's address is never looked up as a NIC.
func TestVNetDNSFirewallPolicyUnread(t *testing.T) {
	f := newDNSFixture()
	reads := fixtureReads{f: f, vnets: map[string]*model.VNet{vnetSpoke.Key(): f.spoke, vnetHub.Key(): f.hub}, policyDenied: true}
	read := vnetDNS(t.Context(), New(nil), reads, f.spoke, addrList("10.0.4.4", "10.0.4.5"))
	if len(read.Firewalls) != 2 || read.Firewalls[0].Firewall != f.fwOn || read.Firewalls[1].Firewall != f.fwOff {
		t.Fatalf("firewalls %+v", read.Firewalls)
	}
	if len(read.NICs) != 0 {
		t.Errorf("a firewall's address looked up as a NIC: %+v", read.NICs)
	}
	on := read.Firewalls[0]
	if on.DNS.Known || !on.DNS.From.Equal(f.policyOn.ID) {
		t.Errorf("settings of an unread policy: %+v", on.DNS)
	}
	if c := verify.ClassifyFirewallDNS(on.Firewall, on.DNS, evidence(read)); c.Kind != verify.FirewallDNSSettingsUnknown {
		t.Errorf("unread settings classified as %d", c.Kind)
	}
	if len(read.Failed) != 1 || read.Failed[0].Lookup != LookupFirewallDNS || read.Failed[0].Addr != ip("10.0.4.4") ||
		!read.Failed[0].VNetID.Equal(f.policyOn.ID) || !read.Failed[0].Gap.ResourceID.Equal(f.policyOn.ID) {
		t.Errorf("failed lookups %+v", read.Failed)
	}
	if off := read.Firewalls[1]; !off.DNS.Known || off.DNS.Proxy {
		t.Errorf("classic proxy off: %+v", off.DNS)
	}
}

// hubReads answers the hub lookup: the spoke is connected to hub, unless
// hub is nil (no connection found).
type hubReads struct {
	fixtureReads
	hub *model.VirtualHub
	fw  *model.AzureFirewall
}

func (r hubReads) hubsOfVNets(context.Context, []*model.VNet) []*model.VirtualHub {
	if r.hub == nil {
		return nil
	}
	return []*model.VirtualHub{r.hub}
}

func (r hubReads) Firewall(ctx context.Context, id model.ResourceID) (*model.AzureFirewall, error) {
	if id.Equal(r.fw.ID) {
		return r.fw, nil
	}
	return r.fixtureReads.Firewall(ctx, id)
}

func (r hubReads) VNet(context.Context, model.ResourceID) (*model.VNet, error) {
	panic("a hub's VNet is never read")
}

// A DNS server in a Virtual WAN hub's VNet is the hub's Azure Firewall,
// found through the hub as the verification finds it; when the hub cannot
// be found, the lookup fails with a gap on the hub VNet, never a read of
// the hub VNet itself.
func TestVNetDNSHubFirewall(t *testing.T) {
	f := newDNSFixture()
	hv := model.ResourceID("/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-weu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-weu_1")
	hubID := model.ResourceID(sub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu")
	fw := &model.AzureFirewall{ID: model.ResourceID(sub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/azureFirewalls/afw-hub"), Name: "afw-hub",
		PrivateIPs: addrList("10.100.0.132"), VirtualHubID: hubID, DNSProxyEnabled: true}
	spoke := *f.spoke
	spoke.Peerings = []*model.Peering{{RemoteVNetID: hv, RemoteAddressSpace: []netip.Prefix{pfx("10.100.0.0/23")}}}
	hub := &model.VirtualHub{ID: hubID, Name: "hub-weu", AddressPrefix: pfx("10.100.0.0/23"), FirewallID: fw.ID, HubVNetID: hv,
		Connections: []*model.HubConnection{{ID: hubID + "/hubVirtualNetworkConnections/spoke", Name: "spoke", RemoteVNetID: spoke.ID}}}
	base := fixtureReads{f: f, vnets: map[string]*model.VNet{spoke.ID.Key(): &spoke}}

	read := vnetDNS(t.Context(), New(nil), hubReads{fixtureReads: base, hub: hub, fw: fw}, &spoke, addrList("10.100.0.132", "10.100.0.140"))
	got, ok := read.FirewallAt(ip("10.100.0.132"))
	if !ok || got.Firewall != fw || !got.DNS.Known || !got.DNS.Proxy {
		t.Fatalf("hub firewall: %+v, %v (firewalls %+v, failed %+v)", got, ok, read.Firewalls, read.Failed)
	}
	if c := verify.ClassifyFirewallDNS(got.Firewall, got.DNS, evidence(read)); c.Kind != verify.FirewallDNSUnverified || c.Reason != verify.FirewallDNSNoVNet {
		t.Errorf("a hub firewall asking Azure DNS: %+v", c)
	}
	if _, ok := read.FirewallAt(ip("10.100.0.140")); ok {
		t.Errorf("another address in the hub is not its firewall")
	}
	if s := verify.ClassifyDNSServer(ip("10.100.0.140"), evidence(read)); s.Kind != verify.DNSServerUnidentified || !s.VNet.ID.Equal(hv) {
		t.Errorf("another address in the hub: %+v", s)
	}

	read = vnetDNS(t.Context(), New(nil), hubReads{fixtureReads: base, fw: fw}, &spoke, addrList("10.100.0.132"))
	if len(read.Firewalls) != 0 || len(read.Failed) != 1 || read.Failed[0].Lookup != LookupVirtualHub || !read.Failed[0].VNetID.Equal(hv) ||
		read.Failed[0].Addr != ip("10.100.0.132") {
		t.Fatalf("hub not found: firewalls %+v, failed %+v", read.Firewalls, read.Failed)
	}
	if s := verify.ClassifyDNSServer(ip("10.100.0.132"), evidence(read)); s.Kind != verify.DNSServerUnidentified || s.Gap == nil {
		t.Errorf("hub not found: %+v", s)
	}
}
