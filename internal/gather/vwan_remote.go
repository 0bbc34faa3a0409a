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
// outside n's closure pending (EvidenceRemoteHub) when n's VNets are (or
// may be: model.Network.HubSpokesInClosure) connected to a virtual hub; the registry's private endpoints (and the
// network interfaces of those outside the closure) that could not be read
// are n.UnresolvedEndpoints.
func markRemoteEndpoints(n *model.Network, reg *model.Registry, pes []*model.PrivateEndpoint) {
	if !n.HubSpokesInClosure() {
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
	r.addHubsWithSpokes(ctx, n, mu, hubs, add, []*model.VNet{v}, false)
}

// addHubsWithSpokes adds hubs (read outside the closure) to n with the
// VNets in add and the VNets connected to the hubs, read here (their
// address spaces are the hubs' routes); the subnets of the VNets in full
// also get their route tables and security groups read (the replies of
// what they hold and the flows into it), and, with allSpokes, those of
// every spoke read here. The appliances the hubs' static routes name in
// the VNets of add, or in a VNet of n connected to them, are marked
// pending, and the hubs' firewalls read, as the closure's are.
func (r *Reader) addHubsWithSpokes(ctx context.Context, n *model.Network, mu *sync.Mutex, hubs []*model.VirtualHub, add, full []*model.VNet, allSpokes bool) {
	var spokes []model.ResourceID
	for _, h := range hubs {
		for _, c := range h.Connections {
			mu.Lock()
			have := n.VNet(c.RemoteVNetID) != nil
			mu.Unlock()
			if !c.RemoteVNetID.IsZero() && !have && !hasVNet(add, c.RemoteVNetID) && !hasVNet(full, c.RemoteVNetID) {
				spokes = appendUniqueID(spokes, c.RemoteVNetID)
			}
		}
	}
	got, _ := mapEach(ctx, r, spokes, r.vnetGet)
	for _, s := range got {
		if s != nil {
			add = append(add, s)
			if allSpokes {
				full = append(full, s)
			}
		}
	}
	var tables []*model.RouteTable
	var inner sync.Mutex
	var tasks []func(context.Context)
	var subnets []*model.Subnet
	for _, v := range full {
		subnets = append(subnets, v.Subnets...)
	}
	for _, s := range subnets {
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
				holders := add
				if cv := n.VNet(c.RemoteVNetID); cv != nil && !hasVNet(add, cv.ID) {
					holders = append(holders[:len(holders):len(holders)], cv)
				}
				for _, s := range holders {
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

// markPeerHubs marks the hub of each VNet of n's closure that is peered
// with a Virtual WAN hub's VNet while no hub read lists it (a VNet beyond
// the node VNets, whose hubs are read with the closure) pending
// (model.EvidencePeerHub): an NVA VNet the nodes' VNet is peered with
// ("Scenario: Route traffic through an NVA") routes through its hub, read
// when a path is routed through that VNet.
func markPeerHubs(n *model.Network) {
	for _, v := range n.VNets {
		if model.IsHubVNet(v.ID) || len(hubVNetPeerings(v)) == 0 {
			continue
		}
		if h, _ := n.HubOfVNet(v.ID); h != nil {
			continue
		}
		n.Pending.Add(model.PeerHubOf(v.ID))
	}
}

// readPeerHub reads the hub of a VNet of the closure that markPeerHubs
// left pending, with the VNets connected to it (their subnets' route
// tables and security groups: a path through the hub arrives in one, and
// its replies leave from there) and its firewall. Failures are gaps (on
// the Resource Graph search, the hub or its children, a spoke), as for
// the node VNets' hubs.
func (r *Reader) readPeerHub(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	v := n.VNet(ev.ID)
	known := false
	if v != nil {
		h, _ := n.HubOfVNet(v.ID)
		known = h != nil
	}
	mu.Unlock()
	if v == nil || known {
		return
	}
	var hubs []*model.VirtualHub
	found := r.hubsOfVNets(ctx, []*model.VNet{v})
	mu.Lock()
	for _, h := range found {
		if n.VirtualHub(h.ID) == nil {
			hubs = append(hubs, h)
		}
	}
	mu.Unlock()
	r.addHubsWithSpokes(ctx, n, mu, hubs, nil, nil, true)
}
