// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A DNS server address that no VNet read explains (it lies in no VNet of
// the network's closure) may still be a DNS private resolver's inbound
// endpoint: in a VNet peered with a VNet beyond the closure, connected to
// another hub, or in another subscription. Resource Graph lists inbound
// endpoints in every subscription the identity can read
// (model.ResolverEndpointQuery); only the addresses nothing else explains
// are asked for, so a verification whose DNS servers are all in read VNets
// (or Azure DNS) sends nothing more. The resolver found is read like any
// other (its inbound endpoints confirm the address) and answers from its
// own VNet's zone links and rulesets. A search that fails is evidence on
// those addresses (model.DNS.ResolverSearchGaps): never "outside Azure".

// ResolverEndpointsAt asks Azure Resource Graph which DNS private resolver
// inbound endpoints hold the addresses, and returns, per address, the
// resolver whose endpoint holds it. Failures are a gap on
// ResourceGraphQuery, as for zone links.
func (r *Reader) ResolverEndpointsAt(ctx context.Context, addrs []netip.Addr) (map[netip.Addr]model.ResourceID, error) {
	q := model.NewResolverEndpointQuery(addrs)
	if q.IsZero() {
		return nil, nil
	}
	query := q.KQL()
	return read(r, "resolverendpoints "+query, ResourceGraphQuery, permResourceGraphRead, func() (map[netip.Addr]model.ResourceID, error) {
		client, err := r.clients.ResourceGraph()
		if err != nil {
			return nil, err
		}
		ctx := azure.WithGraphSearch(ctx, q)
		out := map[netip.Addr]model.ResourceID{}
		err = r.graphQuery(ctx, client, query, "DNS private resolver inbound endpoints", func(row map[string]any) {
			resolver, ok := inboundEndpointRow(row)
			if !ok {
				return
			}
			for _, a := range model.RowEndpointAddresses(row) {
				if !q.Asks(a) {
					continue // a replay, or a service that ignored part of the query
				}
				if have, dup := out[a]; !dup || resolver.Key() < have.Key() {
					out[a] = resolver
				}
			}
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	})
}

// inboundEndpointRow is the resolver of an inbound endpoint row.
func inboundEndpointRow(row map[string]any) (model.ResourceID, bool) {
	id, _ := row["id"].(string)
	a, err := parseID(model.ResourceID(id))
	if err != nil || !isType(a, "Microsoft.Network", "dnsResolvers", "inboundEndpoints") {
		return "", false
	}
	return model.ResourceID(id).Parent(), true
}

// resolverSearchReads are the reads of the resolver search (the Reader's
// own; a test may answer them).
type resolverSearchReads interface {
	ResolverEndpointsAt(ctx context.Context, addrs []netip.Addr) (map[netip.Addr]model.ResourceID, error)
	resolver(ctx context.Context, id model.ResourceID) (*model.Resolver, error)
}

// resolverSearch is what the search for the inbound endpoints holding
// some addresses found: one rule for the verification (searchResolvers)
// and pullpath_vnet_dns (VNetDNS), so that both classify the same server
// the same way.
type resolverSearch struct {
	// Read are the resolvers found and read, in id order.
	Read []*model.Resolver
	// Holding are those whose inbound endpoint read holds an address
	// asked for.
	Holding []*model.Resolver
	// VNets are the addresses found at such an endpoint, with the
	// resolver's VNet.
	VNets map[netip.Addr]model.ResourceID
	// Gaps are the addresses the search could not answer for: the search
	// failed, or the resolver it named could not be read.
	Gaps map[netip.Addr]model.Gap
}

// searchResolverEndpoints asks Resource Graph for the inbound endpoints
// holding addrs and reads the resolvers found (concurrently within r's
// width).
func searchResolverEndpoints(ctx context.Context, r *Reader, reads resolverSearchReads, addrs []netip.Addr) resolverSearch {
	out := resolverSearch{VNets: map[netip.Addr]model.ResourceID{}, Gaps: map[netip.Addr]model.Gap{}}
	if len(addrs) == 0 {
		return out
	}
	addrs = slices.Clone(addrs)
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	found, err := reads.ResolverEndpointsAt(ctx, addrs)
	if err != nil {
		g, ok := GapOf(err)
		if !ok {
			if g, ok = r.Gaps().Lookup(ResourceGraphQuery); !ok {
				g = azure.Gap(ResourceGraphQuery, permResourceGraphRead, err)
			}
		}
		for _, a := range addrs {
			out.Gaps[a] = g
		}
		return out
	}
	var ids []model.ResourceID
	for _, a := range addrs {
		if id, ok := found[a]; ok {
			ids = appendUniqueID(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Key() < ids[j].Key() })
	got, errs := mapEach(ctx, r, ids, reads.resolver)
	for _, rs := range got {
		if rs == nil {
			continue
		}
		out.Read = append(out.Read, rs)
		held := false
		for _, in := range rs.Inbound {
			if containsAddrOf(addrs, in.Address) {
				held = true
				if !rs.VNetID.IsZero() {
					out.VNets[in.Address] = rs.VNetID
				}
			}
		}
		if held {
			out.Holding = append(out.Holding, rs)
		}
	}
	// A resolver Resource Graph named whose endpoint read does not hold
	// the address (it moved since the index was updated) explains
	// nothing: the address stays unexplained, as the search found it,
	// unless the resolver could not be read.
	for _, a := range addrs {
		id, ok := found[a]
		if !ok || resolverHolds(got, id, a) {
			continue
		}
		i := slices.IndexFunc(ids, id.Equal)
		if g, failed := r.Gaps().Lookup(id); failed {
			out.Gaps[a] = g
		} else if g, failed := r.Gaps().Lookup(child(id, "inboundEndpoints")); failed {
			out.Gaps[a] = g
		} else if i >= 0 && errs[i] != nil {
			if g, failed := GapOf(errs[i]); failed {
				out.Gaps[a] = g
			}
		}
	}
	return out
}

// searchResolvers looks up, by Resource Graph, the resolvers whose inbound
// endpoints hold addrs (addresses no VNet read explains) and reads each
// found. It returns the resolvers whose endpoint holds an address asked
// for, records in disc each such address with the resolver's VNet (which
// the network may reach through another virtual hub: vwan_remote.go), and
// the gap of every address the search could not answer for.
func (r *Reader) searchResolvers(ctx context.Context, addrs []netip.Addr, disc *dnsDiscovery, mu *sync.Mutex) []*model.Resolver {
	if len(addrs) == 0 {
		return nil
	}
	found := searchResolverEndpoints(ctx, r, r, addrs)
	mu.Lock()
	defer mu.Unlock()
	for _, rs := range found.Read {
		disc.resolvers[rs.ID.Key()] = rs
	}
	for a, id := range found.VNets {
		disc.searched[a] = id
	}
	for a, g := range found.Gaps {
		disc.searchGaps[a] = g
	}
	return found.Holding
}

// resolverHolds reports whether the resolver id among got has an inbound
// endpoint at a.
func resolverHolds(got []*model.Resolver, id model.ResourceID, a netip.Addr) bool {
	for _, rs := range got {
		if rs != nil && strings.EqualFold(string(rs.ID), string(id)) {
			for _, in := range rs.Inbound {
				if in.Address == a {
					return true
				}
			}
		}
	}
	return false
}

func containsAddrOf(addrs []netip.Addr, a netip.Addr) bool {
	for _, x := range addrs {
		if x == a {
			return true
		}
	}
	return false
}
