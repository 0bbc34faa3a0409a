// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"

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
)

// DNSLookupFailure is a lookup that failed, with the gap it left. The
// server it concerns stays unidentified, never external.
type DNSLookupFailure struct {
	Lookup DNSLookup
	VNetID model.ResourceID
	// Addr is the server the lookup was for (LookupPeeredVNet, LookupNIC).
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
// VNet's resolver inbound endpoints and, failing those, the NIC holding
// the address (after reading the peered VNet). For addresses outside
// every known VNet it is the verification's search for the DNS private
// resolver inbound endpoints holding them (one Resource Graph query, then
// the resolvers found), so that a resolver in a VNet connected to a
// Virtual WAN hub, or in another subscription, is classified as the
// verification classifies it. Azure DNS costs no read. The reads run
// concurrently within the Reader's width: the rulesets beside the
// servers' lookups, the resolvers of every holding VNet at once beside the
// search, then every server's NIC lookup at once.
func (r *Reader) VNetDNS(ctx context.Context, vnet *model.VNet, servers []netip.Addr) VNetDNS {
	return vnetDNS(ctx, r, r, vnet, servers)
}

// vnetDNSReads are the reads VNetDNS makes (the Reader's own; a test may
// answer them).
type vnetDNSReads interface {
	resolverSearchReads
	VNet(ctx context.Context, id model.ResourceID) (*model.VNet, error)
	Resolvers(ctx context.Context, vnetID model.ResourceID) ([]*model.Resolver, error)
	NICByAddress(ctx context.Context, vnet *model.VNet, ip netip.Addr) (*model.NIC, error)
	Rulesets(ctx context.Context, vnetID model.ResourceID) ([]*model.Ruleset, error)
}

// vnetDNS is VNetDNS with its reads answered by reads and its fan-outs run
// by r.
func vnetDNS(ctx context.Context, r *Reader, reads vnetDNSReads, vnet *model.VNet, servers []netip.Addr) VNetDNS {
	out := VNetDNS{VNets: model.KnownVNetsOf([]*model.VNet{vnet}), LookupGaps: map[netip.Addr]model.Gap{}, SearchGaps: map[netip.Addr]model.Gap{}}
	all(ctx, r,
		func(ctx context.Context) { out.Rulesets, out.RulesetsErr = reads.Rulesets(ctx, vnet.ID) },
		func(ctx context.Context) { serverLookups(ctx, r, reads, vnet, servers, &out) })
	return out
}

// serverLookups fills out's facts about the servers (VNetDNS).
func serverLookups(ctx context.Context, r *Reader, reads vnetDNSReads, vnet *model.VNet, servers []netip.Addr, out *VNetDNS) {
	// Which known VNet holds each server that needs a look, holders in the
	// order of the servers.
	var holders []model.ResourceID
	seen := map[string]bool{}
	var pending, outside []netip.Addr
	for _, a := range servers {
		if a == model.AzureDNS {
			continue
		}
		if v, ok := out.VNets.Holding(a); ok {
			if !seen[v.ID.Key()] {
				seen[v.ID.Key()] = true
				holders = append(holders, v.ID)
			}
			pending = append(pending, a)
		} else if !containsAddrOf(outside, a) {
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

	// NICs holding the remaining addresses.
	var lookups []netip.Addr
	for _, a := range pending {
		if !atInbound(out.Resolvers, a) {
			lookups = append(lookups, a)
		}
	}
	type found struct {
		nic     *model.NIC
		failure *DNSLookupFailure
	}
	results, _ := mapEach(ctx, r, lookups, func(ctx context.Context, a netip.Addr) (found, error) {
		holder, _ := out.VNets.Holding(a)
		hv := vnet
		if !holder.ID.Equal(vnet.ID) {
			var err error
			if hv, err = reads.VNet(ctx, holder.ID); err != nil {
				f := lookupFailure(LookupPeeredVNet, holder.ID, a, err)
				return found{failure: &f}, nil
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
		case res.nic != nil:
			out.NICs = append(out.NICs, res.nic)
		case res.failure != nil:
			out.LookupGaps[lookups[i]] = res.failure.Gap
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
