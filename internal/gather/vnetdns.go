// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// VNetDNS is what a VNet's DNS servers and forwarding rulesets need read
// to be described (pullpath_vnet_dns): the rulesets linked to the VNet and
// the facts that classifying its servers looks at (the verification's
// ClassifyDNSServer), for exactly the servers that need them.
type VNetDNS struct {
	// Rulesets are the DNS forwarding rulesets linked to the VNet, as far
	// as they were read; RulesetsErr is why (some of) them were not.
	Rulesets    []*model.Ruleset
	RulesetsErr error
	// Policies are the DNS security policies linked to the VNet with
	// their rules, and DomainLists the domain lists those name that were
	// read; PoliciesErr is why (some of) them were not. A failed list
	// leaves Policies nil.
	Policies    []*model.DNSSecurityPolicy
	DomainLists []*model.DNSDomainList
	PoliciesErr error
	// VNets are the VNets an address can be placed in: the VNet and those
	// it peers with (model.KnownVNetsOf).
	VNets model.KnownVNets
	// Resolvers are the DNS private resolvers of the known VNets holding a
	// server, in the order of the servers, then those the resolver search
	// found holding a server outside every known VNet (in id order).
	Resolvers []*model.Resolver
	// NICs are the network interfaces found holding a server, in the
	// order of the servers.
	NICs []*model.NIC
	// Firewalls are the Azure Firewalls (in a known VNet, or a secured
	// Virtual WAN hub's) found holding a server, in the order of the
	// servers, each with its DNS settings. The servers their DNS proxies
	// forward to are looked up as the VNet's own servers are, so that they
	// are classified (verify.ClassifyFirewallDNS).
	Firewalls []DNSFirewall
	// LookupGaps are the servers whose holder could not be determined
	// because a read failed, with the gap of that read.
	LookupGaps map[netip.Addr]model.Gap
	// SearchGaps are the servers outside every known VNet whose search for
	// a DNS private resolver inbound endpoint holding them failed
	// (verify.DNSEvidence.SearchGaps).
	SearchGaps map[netip.Addr]model.Gap
	// Failed are the lookups that failed: the resolvers of each holding
	// VNet first, in the order of the servers, then the resolver search of
	// each server outside every known VNet, then each server's NIC lookup,
	// both in the order of the servers.
	Failed []DNSLookupFailure
}

// DNSFirewall is an Azure Firewall whose private address is a DNS server.
type DNSFirewall struct {
	Addr     netip.Addr
	Firewall *model.AzureFirewall
	// DNS are its DNS settings (model.Network.FirewallDNSOf); not Known
	// when its policy (or its parent policy) could not be read.
	DNS model.FirewallDNS
}

// FirewallAt is the firewall found holding a, if any.
func (d VNetDNS) FirewallAt(a netip.Addr) (DNSFirewall, bool) {
	for _, f := range d.Firewalls {
		if f.Addr == a {
			return f, true
		}
	}
	return DNSFirewall{}, false
}

// DNSLookup is a read that describing a DNS server makes.
type DNSLookup int

const (
	// LookupResolvers reads the DNS private resolvers of VNetID.
	LookupResolvers DNSLookup = iota
	// LookupPeeredVNet reads the peered VNet VNetID, whose space holds
	// Addr, to look for the network interface holding Addr.
	LookupPeeredVNet
	// LookupNIC reads the network interfaces of VNetID's subnets holding
	// Addr, to find the one holding it.
	LookupNIC
	// LookupResolverSearch asks Azure Resource Graph which DNS private
	// resolver inbound endpoint holds Addr, an address outside every
	// known VNet (the verification's search, resolversearch.go), and
	// reads the resolver found.
	LookupResolverSearch
	// LookupFirewallDNS reads the DNS settings of the Azure Firewall
	// holding Addr: its firewall policy (VNetID), or that policy's parent.
	LookupFirewallDNS
	// LookupVirtualHub finds and reads the Virtual WAN hub whose VNet
	// (VNetID, HV_…) holds Addr, to look for the hub's Azure Firewall.
	LookupVirtualHub
)

// DNSLookupFailure is a lookup that failed, with the gap it left. The
// server it concerns stays unidentified, never external.
type DNSLookupFailure struct {
	Lookup DNSLookup
	VNetID model.ResourceID
	// Addr is the server the lookup was for (LookupPeeredVNet, LookupNIC,
	// LookupFirewallDNS, LookupVirtualHub).
	Addr netip.Addr
	Gap  model.Gap
}

// lookupFailure is the failure of a lookup about id: the gap err carries
// (a ReadError: the exact resource, list or action and the permission the
// read needed; for a NIC lookup, the first NIC that could not be read),
// else err's own classification (a cancelled context).
func lookupFailure(lookup DNSLookup, id model.ResourceID, a netip.Addr, err error) DNSLookupFailure {
	g, ok := GapOf(err)
	if !ok {
		g = azure.Gap(id, "", err)
	}
	return DNSLookupFailure{Lookup: lookup, VNetID: id, Addr: a, Gap: g}
}

// VNetDNS reads what describing vnet's DNS takes: its forwarding rulesets
// and, for the servers, what classification needs (VNetDNS). For an
// address inside a known VNet (vnet or one it peers with) that is that
// VNet's resolver inbound endpoints and, failing those, the Azure Firewall
// holding the address (found as the verification finds it,
// dnsFirewallAt: a VNet's, or a secured Virtual WAN hub's once the hub is
// read) with its DNS settings, else the NIC holding it (after reading the
// peered VNet). For addresses outside every known VNet it is the
// verification's search for the DNS private resolver inbound endpoints
// holding them (one Resource Graph query, then the resolvers found), so
// that a resolver in a VNet connected to a Virtual WAN hub, or in another
// subscription, is classified as the verification classifies it. The
// servers a firewall's DNS proxy forwards to are then looked up the same
// way (without looking for firewalls again). Azure DNS costs no read. The
// reads run concurrently within the Reader's width: the rulesets beside
// the servers' lookups, the resolvers of every holding VNet at once beside
// the search, then every server's firewall and NIC lookup at once.
func (r *Reader) VNetDNS(ctx context.Context, vnet *model.VNet, servers []netip.Addr) VNetDNS {
	return vnetDNS(ctx, r, r, vnet, servers)
}

// vnetDNSReads are the reads VNetDNS makes (the Reader's own; a test may
// answer them).
type vnetDNSReads interface {
	resolverSearchReads
	firewallDNSReads
	VNet(ctx context.Context, id model.ResourceID) (*model.VNet, error)
	Resolvers(ctx context.Context, vnetID model.ResourceID) ([]*model.Resolver, error)
	NICByAddress(ctx context.Context, vnet *model.VNet, ip netip.Addr) (*model.NIC, error)
	Rulesets(ctx context.Context, vnetID model.ResourceID) ([]*model.Ruleset, error)
	DNSPolicies(ctx context.Context, vnetID model.ResourceID) (dnsPolicyRead, error)
	hubsOfVNets(ctx context.Context, vnets []*model.VNet) []*model.VirtualHub
}

// vnetDNS is VNetDNS with its reads answered by reads and its fan-outs run
// by r.
func vnetDNS(ctx context.Context, r *Reader, reads vnetDNSReads, vnet *model.VNet, servers []netip.Addr) VNetDNS {
	out := VNetDNS{VNets: model.KnownVNetsOf([]*model.VNet{vnet}), LookupGaps: map[netip.Addr]model.Gap{}, SearchGaps: map[netip.Addr]model.Gap{}}
	all(ctx, r,
		func(ctx context.Context) { out.Rulesets, out.RulesetsErr = reads.Rulesets(ctx, vnet.ID) },
		func(ctx context.Context) {
			pol, err := reads.DNSPolicies(ctx, vnet.ID)
			if pol.Linked != nil {
				out.Policies = pol.Linked.Policies
			}
			out.DomainLists, out.PoliciesErr = pol.Lists, err
		},
		func(ctx context.Context) {
			l := &lookups{r: r, reads: reads, vnet: vnet, out: &out, n: model.NewNetwork(), holders: map[string]bool{}, done: map[netip.Addr]bool{}}
			l.n.AddVNet(vnet)
			l.servers(ctx, servers, true)
			// The servers the firewalls' DNS proxies forward to.
			var proxied []netip.Addr
			for _, f := range out.Firewalls {
				if f.DNS.Known && f.DNS.Proxy {
					proxied = append(proxied, f.DNS.Servers...)
				}
			}
			l.servers(ctx, proxied, false)
		})
	return out
}

// lookups are the server lookups of one VNetDNS: n holds what the
// firewall lookup (dnsFirewallAt) looks at, the VNet, the peered VNets
// read and the Virtual WAN hubs; holders and done are the VNets whose
// resolvers, and the addresses, already looked up.
type lookups struct {
	r       *Reader
	reads   vnetDNSReads
	vnet    *model.VNet
	out     *VNetDNS
	mu      sync.Mutex
	n       *model.Network
	hubs    bool
	holders map[string]bool
	done    map[netip.Addr]bool
}

// servers fills out's facts about the servers (VNetDNS); with firewalls,
// an address in a known VNet is looked for as an Azure Firewall's first.
func (l *lookups) servers(ctx context.Context, servers []netip.Addr, firewalls bool) {
	r, reads, vnet, out := l.r, l.reads, l.vnet, l.out
	// Which known VNet holds each server that needs a look, holders in the
	// order of the servers.
	var holders []model.ResourceID
	var pending, outside []netip.Addr
	for _, a := range servers {
		if a == model.AzureDNS || l.done[a] {
			continue
		}
		l.done[a] = true
		if v, ok := out.VNets.Holding(a); ok {
			// A Virtual WAN hub's VNet (HV_…) is Microsoft's: its
			// resolvers can never be listed, and it holds none (the
			// hub's firewall is found through the hub).
			if !l.holders[v.ID.Key()] && !model.IsHubVNet(v.ID) {
				l.holders[v.ID.Key()] = true
				holders = append(holders, v.ID)
			}
			pending = append(pending, a)
		} else {
			outside = append(outside, a)
		}
	}
	if len(pending) == 0 && len(outside) == 0 {
		return
	}

	// Resolvers of the holding VNets (a resolver's inbound endpoint has no
	// NIC that could be found, so resolvers come first), beside the search
	// for the addresses outside every known VNet.
	var (
		resolvers [][]*model.Resolver
		errs      []error
		searched  resolverSearch
	)
	all(ctx, r,
		func(ctx context.Context) { resolvers, errs = mapEach(ctx, r, holders, reads.Resolvers) },
		func(ctx context.Context) { searched = searchResolverEndpoints(ctx, r, reads, outside) })
	for i, id := range holders {
		if errs[i] != nil {
			out.Failed = append(out.Failed, lookupFailure(LookupResolvers, id, netip.Addr{}, errs[i]))
		}
		out.Resolvers = append(out.Resolvers, resolvers[i]...)
	}
	out.Resolvers = append(out.Resolvers, searched.Holding...)
	for _, a := range outside {
		if g, failed := searched.Gaps[a]; failed {
			out.SearchGaps[a] = g
			out.Failed = append(out.Failed, DNSLookupFailure{Lookup: LookupResolverSearch, Addr: a, VNetID: g.ResourceID, Gap: g})
		}
	}

	// Firewalls, else NICs, holding the remaining addresses.
	var rest []netip.Addr
	inHub := false
	for _, a := range pending {
		if !atInbound(out.Resolvers, a) {
			rest = append(rest, a)
			holder, _ := out.VNets.Holding(a)
			inHub = inHub || model.IsHubVNet(holder.ID)
		}
	}
	if firewalls && inHub && !l.hubs {
		// A Virtual WAN hub's VNet is Microsoft's and never read: the hub
		// (found through Resource Graph) stands in for it, with its
		// firewall (model/vwan.go).
		l.hubs = true
		hubs := reads.hubsOfVNets(ctx, []*model.VNet{vnet})
		l.mu.Lock()
		addHubs(l.n, hubs)
		l.mu.Unlock()
	}
	type found struct {
		nic      *model.NIC
		firewall *DNSFirewall
		failure  *DNSLookupFailure
	}
	results, _ := mapEach(ctx, r, rest, func(ctx context.Context, a netip.Addr) (found, error) {
		holder, _ := out.VNets.Holding(a)
		hv := vnet
		if !holder.ID.Equal(vnet.ID) {
			l.mu.Lock()
			stand := l.n.VNet(holder.ID)
			l.mu.Unlock()
			switch {
			case stand != nil:
				hv = stand // a hub's VNet, or a peer already read
			case model.IsHubVNet(holder.ID) && firewalls:
				// Its hub could not be found (a gap on the hub VNet) or
				// read (a gap on the hub): hubsOfVNets.
				g, ok := r.Gaps().Lookup(holder.ID)
				l.mu.Lock()
				for _, h := range l.n.VirtualHubs {
					if !ok && h.HubVNetID.Equal(holder.ID) {
						g, ok = r.Gaps().Lookup(h.ID)
					}
				}
				l.mu.Unlock()
				if !ok {
					g = model.Gap{ResourceID: holder.ID, Kind: model.GapNotFound, Detail: "the virtual hub whose VNet holds the address was not found"}
				}
				f := DNSLookupFailure{Lookup: LookupVirtualHub, VNetID: holder.ID, Addr: a, Gap: g}
				return found{failure: &f}, nil
			default:
				var err error
				if hv, err = reads.VNet(ctx, holder.ID); err != nil {
					f := lookupFailure(LookupPeeredVNet, holder.ID, a, err)
					return found{failure: &f}, nil
				}
				l.mu.Lock()
				if l.n.VNet(hv.ID) == nil {
					l.n.AddVNet(hv)
				}
				l.mu.Unlock()
			}
		}
		if firewalls {
			if fw := dnsFirewallAt(ctx, reads, l.n, &l.mu, a); fw != nil {
				l.mu.Lock()
				dns := l.n.FirewallDNSOf(fw)
				l.mu.Unlock()
				return found{firewall: &DNSFirewall{Addr: a, Firewall: fw, DNS: dns}}, nil
			}
		}
		nic, err := reads.NICByAddress(ctx, hv, a)
		if nic == nil && err != nil {
			f := lookupFailure(LookupNIC, hv.ID, a, err)
			return found{failure: &f}, nil
		}
		return found{nic: nic}, nil
	})
	for i, res := range results {
		switch {
		case res.firewall != nil:
			out.Firewalls = append(out.Firewalls, *res.firewall)
			if dns := res.firewall.DNS; !dns.Known {
				g, ok := r.Gaps().Lookup(dns.From)
				if !ok {
					g = model.Gap{ResourceID: dns.From, Kind: model.GapNotFound, Detail: "the DNS settings of firewall policy " + dns.From.Name() + " were not read"}
				}
				out.Failed = append(out.Failed, DNSLookupFailure{Lookup: LookupFirewallDNS, VNetID: dns.From, Addr: rest[i], Gap: g})
			}
		case res.nic != nil:
			out.NICs = append(out.NICs, res.nic)
		case res.failure != nil:
			out.LookupGaps[rest[i]] = res.failure.Gap
			out.Failed = append(out.Failed, *res.failure)
		}
	}
}

// atInbound reports an address that is an inbound endpoint of one of the
// resolvers.
func atInbound(resolvers []*model.Resolver, a netip.Addr) bool {
	for _, rs := range resolvers {
		if _, ok := rs.InboundAt(a); ok {
			return true
		}
	}
	return false
}
