package gather

import (
	"context"
	"net/netip"
	"sort"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Hubs beyond the node VNets (model/vwan_interhub.go): the closure reads
// the hubs of the node VNets and their spokes. A destination in a VNet
// outside that closure, while the nodes' VNets are hub spokes, may be in
// a spoke of another hub of the same Virtual WAN: a registry's private
// endpoint, or the DNS private resolver inbound endpoint the nodes use as
// DNS server or forward to (the resolver search names its resolver, whose
// VNet holds it). One mechanism serves both (model.Network.
// MarkRemoteAddress): the VNet and that hub are read only when a path to
// the address needs them (model.EvidenceRemoteHub): the VNet, the same
// Resource Graph search for its hub connection as for the node VNets, the
// hub with its connections, route tables and routing intent, the VNets
// connected to it (their address spaces are the inter-hub routes), and
// the hub's firewall. A DNS server whose VNet nothing names (no resolver
// holds it) stays what an address outside every known VNet is.

// markRemoteEndpoints marks the addresses of private endpoints in VNets
// outside n's closure pending (EvidenceRemoteHub) when n's VNets are
// connected to a virtual hub; the registry's private endpoints (and the
// network interfaces of those outside the closure) that could not be read
// are n.UnresolvedEndpoints.
func markRemoteEndpoints(n *model.Network, reg *model.Registry, pes []*model.PrivateEndpoint) {
	if len(n.VirtualHubs) == 0 {
		return
	}
	read := map[string]bool{}
	for _, pe := range pes {
		read[pe.ID.Key()] = true
	}
	if reg != nil {
		for _, c := range reg.PrivateEndpointConnections {
			if id := c.PrivateEndpointID; !id.IsZero() && !read[id.Key()] {
				read[id.Key()] = true
				n.UnresolvedEndpoints = append(n.UnresolvedEndpoints, id)
			}
		}
	}
	for _, pe := range pes {
		vnetID := pe.SubnetID.Parent()
		if vnetID.IsZero() || n.VNet(vnetID) != nil {
			continue
		}
		for _, nicID := range pe.NICIDs {
			nic := n.NICs[nicID.Key()]
			if nic == nil {
				n.UnresolvedEndpoints = append(n.UnresolvedEndpoints, nicID)
				continue
			}
			for _, a := range nic.PrivateIPs {
				n.MarkRemoteAddress(a, vnetID, model.RemotePrivateEndpoint)
			}
		}
	}
}

// markRemoteResolvers marks the DNS server addresses and forwarding
// targets that the resolver search found at an inbound endpoint of a
// resolver in a VNet outside n's closure (found: address to the
// resolver's VNet) pending, as markRemoteEndpoints does for private
// endpoints, in address order.
func markRemoteResolvers(n *model.Network, found map[netip.Addr]model.ResourceID) {
	addrs := make([]netip.Addr, 0, len(found))
	for a := range found {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	for _, a := range addrs {
		n.MarkRemoteAddress(a, found[a], model.RemoteResolverInbound)
	}
}

// readRemoteHub reads the VNet outside the closure of a private endpoint
// or resolver inbound endpoint address and, when it is connected to a virtual hub, that hub with its spokes and
// firewall. Failures are gaps (on the VNet, the Resource Graph search, the
// hub or its children), as for the node VNets' hubs.
func (r *Reader) readRemoteHub(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	have := n.VNet(ev.ID) != nil
	mu.Unlock()
	if have {
		return
	}
	v, err := r.vnetGet(ctx, ev.ID)
	if err != nil {
		return
	}
	add := []*model.VNet{v}
	var hubs []*model.VirtualHub
	connected := []*model.VNet{v}
	if len(hubVNetPeerings(v)) == 0 {
		// An indirect spoke ("Scenario: Route traffic through an NVA"):
		// not connected to a hub itself, but peered with an NVA VNet that
		// is, whose connection's static routes bring traffic to it. Those
		// peered VNets and their hubs are what the path needs.
		var peers []model.ResourceID
		mu.Lock()
		for _, p := range v.Peerings {
			if !p.RemoteVNetID.IsZero() && !model.IsHubVNet(p.RemoteVNetID) && n.VNet(p.RemoteVNetID) == nil {
				peers = appendUniqueID(peers, p.RemoteVNetID)
			}
		}
		mu.Unlock()
		got, _ := mapEach(ctx, r, peers, r.vnetGet)
		connected = connected[:0]
		for _, pv := range got {
			if pv != nil && len(hubVNetPeerings(pv)) > 0 {
				add = append(add, pv)
				connected = append(connected, pv)
			}
		}
	}
	if len(connected) > 0 {
		found := r.hubsOfVNets(ctx, connected)
		mu.Lock()
		for _, h := range found {
			if n.VirtualHub(h.ID) == nil {
				hubs = append(hubs, h)
			}
		}
		mu.Unlock()
	}
	var spokes []model.ResourceID
	for _, h := range hubs {
		for _, c := range h.Connections {
			if !c.RemoteVNetID.IsZero() && !c.RemoteVNetID.Equal(v.ID) && !hasVNet(add, c.RemoteVNetID) {
				spokes = appendUniqueID(spokes, c.RemoteVNetID)
			}
		}
	}
	got, _ := mapEach(ctx, r, spokes, r.vnetGet)
	for _, s := range got {
		if s != nil {
			add = append(add, s)
		}
	}
	// The endpoint's subnets' route tables and security groups (its
	// replies and the flows into it); the other spokes give their
	// address space only.
	var tables []*model.RouteTable
	var inner sync.Mutex
	var tasks []func(context.Context)
	for _, s := range v.Subnets {
		if id := s.RouteTableID; !id.IsZero() {
			tasks = append(tasks, func(ctx context.Context) {
				if rt, err := r.RouteTable(ctx, id); err == nil {
					inner.Lock()
					tables = append(tables, rt)
					inner.Unlock()
				}
			})
		}
		if id := s.NSGID; !id.IsZero() {
			tasks = append(tasks, func(ctx context.Context) { r.includeSecurityGroup(ctx, n, mu, id) })
		}
	}
	all(ctx, r, tasks...)
	mu.Lock()
	var added []model.ResourceID
	for _, s := range add {
		if n.VNet(s.ID) == nil {
			n.AddVNet(cloneVNet(s))
			added = append(added, s.ID)
		}
	}
	// Their security admin rules, as the closure's: read when a path
	// reaches a point in one of them.
	markAdminRulesPending(n, added)
	for _, rt := range tables {
		n.RouteTables[rt.ID.Key()] = rt
	}
	n.SpeculativeReads = append(n.SpeculativeReads, addHubs(n, hubs)...)
	// The appliances the new hubs' static routes name in the VNets read
	// here are pending, as the closure's are: read when a path reaches one.
	for _, h := range hubs {
		for _, c := range h.Connections {
			for _, sr := range c.StaticRoutes {
				for _, s := range add {
					if sr.NextHopIP.IsValid() && anyPrefixContains(s.AddressSpace, sr.NextHopIP) {
						n.Pending.Add(model.ApplianceNICAt(s.ID, sr.NextHopIP))
					}
				}
			}
		}
	}
	mu.Unlock()
	r.includeFirewalls(ctx, n, mu, hubFirewallIDs(hubs))
}

func anyPrefixContains(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func hasVNet(vs []*model.VNet, id model.ResourceID) bool {
	for _, v := range vs {
		if v.ID.Equal(id) {
			return true
		}
	}
	return false
}
