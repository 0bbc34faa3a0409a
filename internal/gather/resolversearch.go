// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
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
		ctx := azure.WithResolverEndpointQuery(ctx, q)
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
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	found, err := r.ResolverEndpointsAt(ctx, addrs)
	if err != nil {
		g, ok := r.Gaps().Lookup(ResourceGraphQuery)
		if !ok {
			g = azure.Gap(ResourceGraphQuery, permResourceGraphRead, err)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, a := range addrs {
			disc.searchGaps[a] = g
		}
		return nil
	}
	var ids []model.ResourceID
	for _, a := range addrs {
		if id, ok := found[a]; ok {
			ids = appendUniqueID(ids, id)
		}
	}
	got, _ := mapEach(ctx, r, ids, r.resolver)
	var out []*model.Resolver
	mu.Lock()
	defer mu.Unlock()
	for _, rs := range got {
		if rs == nil {
			continue
		}
		disc.resolvers[rs.ID.Key()] = rs
		held := false
		for _, in := range rs.Inbound {
			if containsAddrOf(addrs, in.Address) {
				held = true
				if disc.searched != nil && !rs.VNetID.IsZero() {
					disc.searched[in.Address] = rs.VNetID
				}
			}
		}
		if held {
			out = append(out, rs)
		}
	}
	// A resolver Resource Graph named whose endpoint read does not hold
	// the address (it moved since the index was updated) explains
	// nothing: the address stays unexplained, as the search found it.
	for _, a := range addrs {
		if id, ok := found[a]; ok && !resolverHolds(got, id, a) {
			if g, failed := r.Gaps().Lookup(id); failed {
				disc.searchGaps[a] = g
			} else if g, failed := r.Gaps().Lookup(child(id, "inboundEndpoints")); failed {
				disc.searchGaps[a] = g
			}
		}
	}
	return out
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
