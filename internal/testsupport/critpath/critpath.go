// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package critpath computes, from the facts of a verification, the longest
// chain of dependent reads its verdict depends on: the least simulated
// latency any reader could wait for, whatever it reads in parallel. It is
// the yardstick of the benchmark (scripts/bench.sh): the data source's
// latency overhead is compared with it.
//
// The chain is built from what the facts hold, not from the reads the
// provider makes or the order it makes them in. Each read has as its
// predecessor the read whose answer names what it reads (its id, or what
// its request asks for): the cluster names the node subnets and so their
// VNets, a VNet names its peers, route tables, security groups, gateway
// and private endpoints, a scale set list the pools' NIC lists, a zone
// list the zones, a DNS server address the VNet whose resolvers are asked
// about it. Whether a read turns out to be needed is not a dependency: a
// reader can ask as soon as it can name what it asks for. So the node
// VNets' forwarding rulesets follow the cluster (the subnet ids name the
// VNets), and the Azure Resource Graph search for zone links needs nothing
// read (it asks for the zones named in the registry's domain, which the
// cloud table gives, and is filtered by the VNets whose Azure DNS answers
// the nodes once they are known); a zone only it finds is read after it.
// Reads that need only the request's ids (the cluster, the registry, the
// zone lists) start at once. Evidence that only some paths need (a
// gateway's advertised routes, an appliance's NIC) is read in a later
// round by design, and counts only when the verdict reached it (Needs, as
// evaluation reports it), after what showed the path needs it.
//
// A Virtual WAN hub's VNet (HV_…) is never read: the VNet read that shows
// a peering to it names the VNet whose hub connection Azure Resource Graph
// is asked for; the connection names the hub, whose connections, route
// tables and routing intent need only its id; the connections name the
// other VNets connected to the hub, the hub its Azure Firewall (vwan.go).
package critpath

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Latency is the simulated cost of one read: Read for a GET or a list
// page, Read+Action for a read action (POST, long-running).
type Latency struct {
	Read, Action time.Duration
}

// Read is one read of the chain.
type Read struct {
	What   string
	Action bool
	// End is when it answers at the earliest: its cost after its
	// predecessor's End.
	End time.Duration
	// after is its predecessor, nil for a read that needs only the request.
	after *Read
}

// Chain is the longest chain of dependent reads: its reads in order and
// the time the last one answers.
type Chain struct {
	Reads []*Read
	Total time.Duration
	// Counted is how many reads the facts gave the chain to choose from.
	Counted int
}

// String is the chain in words: "GET managedClusters/aks (50 ms) → …".
func (c Chain) String() string {
	parts := make([]string, len(c.Reads))
	for i, r := range c.Reads {
		kind := "GET"
		if r.Action {
			kind = "POST"
		}
		parts[i] = fmt.Sprintf("%s %s", kind, r.What)
	}
	return strings.Join(parts, " → ") + fmt.Sprintf(" = %d ms", c.Total.Milliseconds())
}

// graph collects the reads and the longest chain.
type graph struct {
	lat   Latency
	reads map[string]*Read
	n     int
}

// add records a read after the latest of its predecessors (nil ones are
// ignored: a read with none starts at once). A read added twice keeps
// its earliest end: the first read that names it is the one it waits for.
func (g *graph) add(what string, action bool, after ...*Read) *Read {
	var prev *Read
	for _, p := range after {
		if p != nil && (prev == nil || p.End > prev.End) {
			prev = p
		}
	}
	cost := g.lat.Read
	if action {
		cost += g.lat.Action
	}
	end := cost
	if prev != nil {
		end += prev.End
	}
	key := strings.ToLower(what)
	if r, ok := g.reads[key]; ok {
		if end < r.End {
			r.End, r.after = end, prev
		}
		return r
	}
	r := &Read{What: what, Action: action, End: end, after: prev}
	g.reads[key] = r
	g.n++
	return r
}

func (g *graph) get(what string) *Read { return g.reads[strings.ToLower(what)] }

// short names a resource by its type and name.
func short(id model.ResourceID) string {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	if len(segs) >= 2 {
		return segs[len(segs)-2] + "/" + segs[len(segs)-1]
	}
	return string(id)
}

// Of computes the chain of a verification's facts, gathered with every
// pending evidence read (so that the facts hold what any path could
// reach), where needs is the pending evidence the verdict reached (the
// union of the needs of its evaluation rounds).
func Of(f model.Facts, needs []model.Evidence, lat Latency) Chain {
	g := &graph{lat: lat, reads: map[string]*Read{}}
	n := f.Network
	if n == nil {
		n = model.NewNetwork()
	}

	// The cluster and what it names.
	var cluster, scaleSets, vms *Read
	nicList := map[string]*Read{} // pool subnet's VNet key → the latest NIC read of pools there
	if f.Cluster != nil {
		cluster = g.add(short(f.Cluster.ID), false)
		g.add(short(f.Cluster.ID)+"/agentPools", false)
		for _, p := range f.Pools {
			var nics *Read
			switch {
			case strings.EqualFold(p.Type, "VirtualMachines"):
				vms = g.add(f.Cluster.NodeResourceGroup+"/virtualMachines", false, cluster)
				for _, id := range p.NICIDs {
					nics = latest(nics, g.add(short(id), false, vms))
				}
			default:
				scaleSets = g.add(f.Cluster.NodeResourceGroup+"/virtualMachineScaleSets", false, cluster)
				if !p.ScaleSetID.IsZero() {
					nics = g.add(short(p.ScaleSetID)+"/networkInterfaces", false, scaleSets)
				}
				if !p.NSGID.IsZero() {
					g.add(short(p.NSGID), false, scaleSets)
				}
			}
			for _, id := range p.NICIDs {
				if nic := n.NIC(id); nic != nil && nic.Effective != nil {
					g.add(short(id)+"/effectiveRouteTable", true, nics)
				}
			}
			k := p.SubnetID.Parent().Key()
			nicList[k] = latest(nicList[k], latest(nics, scaleSets))
		}
	}

	// The network closure: VNets breadth first from the pools' subnets,
	// each named by the first VNet that peers with it.
	vnetRead := map[string]*Read{}
	var level []model.ResourceID
	for _, p := range f.Pools {
		if v := p.SubnetID.Parent(); !v.IsZero() && vnetRead[v.Key()] == nil {
			vnetRead[v.Key()] = g.add(short(v), false, cluster)
			level = append(level, v)
		}
	}
	for len(level) > 0 {
		var next []model.ResourceID
		sortIDs(level)
		for _, id := range level {
			v := n.VNet(id)
			if v == nil {
				continue
			}
			for _, p := range v.Peerings {
				r := p.RemoteVNetID
				if r.IsZero() || n.VNet(r) == nil || vnetRead[r.Key()] != nil || n.HubByVNet(r) != nil {
					continue // a hub's VNet is never read: hubs below
				}
				vnetRead[r.Key()] = g.add(short(r), false, vnetRead[id.Key()])
				next = append(next, r)
			}
		}
		level = next
	}
	hubs := virtualHubs(g, n, vnetRead)
	for _, key := range slices.Sorted(maps.Keys(n.VNets)) {
		v := n.VNets[key]
		at := vnetRead[key]
		if at == nil {
			continue // a VNet read for another reason (DNS, registry): named below
		}
		for _, s := range v.Subnets {
			if !s.RouteTableID.IsZero() && n.RouteTable(s.RouteTableID) != nil {
				g.add(short(s.RouteTableID), false, at)
			}
			if !s.NSGID.IsZero() && n.SecurityGroup(s.NSGID) != nil {
				g.add(short(s.NSGID), false, at)
			}
			for _, pe := range s.PrivateEndpointIDs {
				if x := n.PrivateEndpoint(pe); x != nil {
					peRead := g.add(short(pe), false, at)
					g.add(short(pe)+"/privateDnsZoneGroups", false, at)
					for _, nic := range x.NICIDs {
						g.add(short(nic), false, peRead)
					}
				}
			}
		}
	}

	// Gateways: the VNet names them; their learned routes and connections
	// need only their id; what they advertise is read for a verdict that
	// reached it, once the routes and the destination's address show it.
	needed := map[string]bool{}
	for _, ev := range needs {
		needed[ev.Key()] = true
	}
	for _, key := range slices.Sorted(maps.Keys(n.Gateways)) {
		gw := n.Gateways[key]
		at := vnetRead[gw.VNetID.Key()]
		g.add(short(gw.ID), false, at)
		learned := g.add(short(gw.ID)+"/getLearnedRoutes", true, at)
		g.add(gw.ID.ResourceGroup()+"/connections", false, at)
		if needed[model.AdvertisedRoutesOf(gw.ID).Key()] {
			status := g.add(short(gw.ID)+"/getBgpPeerStatus", true, learned, dnsAnswers(g, f))
			peers := max(len(gw.Advertised), 1)
			for i := range peers {
				g.add(fmt.Sprintf("%s/getAdvertisedRoutes (peer %d)", short(gw.ID), i+1), true, status)
			}
		}
	}

	// Appliances a path went through: the route table names the address,
	// the VNet the NICs of its subnet.
	for _, ev := range needs {
		if ev.Kind != model.EvidenceApplianceNIC {
			continue
		}
		var rt *Read
		for _, key := range slices.Sorted(maps.Keys(n.RouteTables)) {
			for _, r := range n.RouteTables[key].Routes {
				if r.NextHopIP == ev.Addr {
					rt = latest(rt, g.get(short(n.RouteTables[key].ID)))
				}
			}
		}
		nic := g.add("NIC at "+ev.Addr.String(), false, vnetRead[ev.ID.Key()], rt)
		if x := nicAt(n, ev.Addr); x != nil && !x.NSGID.IsZero() {
			g.add(short(x.NSGID), false, nic)
		}
	}

	// The registry, its private endpoints and the pull role.
	var registry *Read
	if f.Registry != nil {
		registry = g.add(short(f.Registry.ID), false)
		g.add(short(f.Registry.ID)+"/replications", false)
		for _, c := range f.Registry.PrivateEndpointConnections {
			if pe := n.PrivateEndpoint(c.PrivateEndpointID); pe != nil {
				peRead := g.add(short(pe.ID), false, registry)
				g.add(short(pe.ID)+"/privateDnsZoneGroups", false, registry)
				for _, nic := range pe.NICIDs {
					g.add(short(nic), false, peRead)
				}
			}
		}
		if f.Cluster != nil && len(f.RoleAssignments) > 0 {
			ra := g.add(short(f.Registry.ID)+"/roleAssignments", false, registry, cluster)
			for _, a := range f.RoleAssignments {
				if def := f.RoleDefinitions[strings.ToLower(a.RoleDefinitionID.Name())]; def != nil && !model.KnownRole(a.RoleDefinitionID) {
					g.add(short(a.RoleDefinitionID), false, ra)
				}
			}
		}
	}

	// DNS: the zone lists need only the subscriptions; each zone's records
	// and links follow. The Resource Graph search (when the zone
	// subscriptions were not named) needs nothing read; a zone it found in
	// a subscription that was not listed is read after it. The rulesets of
	// a node VNet follow the cluster that names the VNet; a custom DNS
	// server is looked for in the VNet that holds its address.
	if d := f.DNS; d != nil {
		var graph *Read
		if !d.LinkSearch.Query.IsZero() {
			graph = g.add("ResourceGraph/resources (links of the zones in the registry's domain)", true)
		}
		listed := map[string]bool{}
		for _, s := range d.LinkSearch.Subscriptions {
			listed[strings.ToLower(s)] = true
		}
		for _, key := range slices.Sorted(maps.Keys(d.Zones)) {
			z := d.Zones[key]
			at := g.add("privateDnsZones of "+z.ID.Subscription(), false)
			if !listed[strings.ToLower(z.ID.Subscription())] && graph != nil {
				at = graph
				g.add(short(z.ID), false, at)
			}
			g.add(short(z.ID)+"/ALL", false, at)
			g.add(short(z.ID)+"/virtualNetworkLinks", false, at)
		}
		// The security admin rules in effect on every node VNet decide
		// every flow from the nodes: the cluster names the VNets.
		adminRules := map[string]bool{}
		for _, p := range f.Pools {
			if v := p.SubnetID.Parent(); !v.IsZero() && !adminRules[v.Key()] {
				adminRules[v.Key()] = true
				g.add(short(v)+"/listNetworkManagerEffectiveSecurityAdminRules", true, cluster)
			}
		}
		for _, p := range f.Pools {
			v := n.VNet(p.SubnetID.Parent())
			if v == nil {
				continue
			}
			servers := poolServers(p, v, n)
			if len(servers) == 0 {
				g.add(short(v.ID)+"/listDnsForwardingRulesets", true, cluster)
				continue
			}
			// The read that names the servers: the scale set's NIC
			// configuration, a NIC's, else the VNet's.
			at := vnetRead[v.ID.Key()]
			switch {
			case len(p.DNSServers) > 0:
				at = scaleSets
			case !slices.Equal(servers, v.DNSServers):
				at = nicList[v.ID.Key()]
			}
			for _, a := range servers {
				holder := vnetHolding(n, a)
				if holder == nil {
					// In no VNet read: Resource Graph is asked which
					// resolver inbound endpoint holds it, then that
					// resolver is read (gather/resolversearch.go).
					search := g.add("ResourceGraph/resources (resolver inbound endpoints at "+a.String()+")", true, at)
					if f.DNS != nil {
						for _, rs := range f.DNS.Resolvers {
							for _, in := range rs.Inbound {
								if in.Address == a {
									g.add(short(rs.ID), false, search)
								}
							}
						}
					}
					continue
				}
				res := g.add(short(holder.ID)+"/listDnsResolvers", true, at, vnetRead[holder.ID.Key()])
				if x := nicAt(n, a); x != nil {
					nic := g.add(short(x.ID), false, res)
					if !x.NSGID.IsZero() {
						g.add(short(x.NSGID), false, nic)
					}
				}
			}
		}
	}

	hubEvidence(g, f, hubs, needs)

	var last *Read
	for _, key := range slices.Sorted(maps.Keys(g.reads)) {
		if r := g.reads[key]; last == nil || r.End > last.End {
			last = r
		}
	}
	c := Chain{Counted: g.n}
	for r := last; r != nil; r = r.after {
		c.Reads = append([]*Read{r}, c.Reads...)
	}
	if last != nil {
		c.Total = last.End
	}
	return c
}

// dnsAnswers is the latest read of a zone's records: a destination's
// address is known after it.
func dnsAnswers(g *graph, f model.Facts) *Read {
	var out *Read
	if f.DNS == nil {
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(f.DNS.Zones)) {
		out = latest(out, g.get(short(f.DNS.Zones[key].ID)+"/ALL"))
	}
	return out
}

// poolServers are the pool's custom DNS servers (none: Azure DNS).
func poolServers(p *model.NodePool, v *model.VNet, n *model.Network) []netip.Addr {
	if len(p.DNSServers) > 0 {
		return p.DNSServers
	}
	for _, nic := range p.NICs {
		if nic != nil && len(nic.DNSServers) > 0 {
			return nic.DNSServers
		}
	}
	return v.DNSServers
}

func latest(a, b *Read) *Read {
	switch {
	case a == nil:
		return b
	case b == nil || a.End >= b.End:
		return a
	}
	return b
}

func nicAt(n *model.Network, a netip.Addr) *model.NIC {
	for _, key := range slices.Sorted(maps.Keys(n.NICs)) {
		for _, x := range n.NICs[key].PrivateIPs {
			if x == a {
				return n.NICs[key]
			}
		}
	}
	return nil
}

func vnetHolding(n *model.Network, a netip.Addr) *model.VNet {
	for _, key := range slices.Sorted(maps.Keys(n.VNets)) {
		for _, p := range n.VNets[key].AddressSpace {
			if p.Contains(a) {
				return n.VNets[key]
			}
		}
	}
	return nil
}

func sortIDs(ids []model.ResourceID) {
	sort.Slice(ids, func(i, j int) bool { return ids[i].Key() < ids[j].Key() })
}
