package gather

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// peeringDepth is how many peering hops beyond the seeds' VNets Network
// reads: the peers (hub) and the peers' peers (other spokes, whose
// reachability decides ROUTE_NOT_TRANSITIVE).
const peeringDepth = 2

// Network reads the closure of the seed subnets, the part of the network
// the route engine needs for nodes in them:
//
//   - the seeds' VNets, every VNet peered with them and the peers of those
//     (each read on its own, so both sides of every peering are known);
//   - the route tables and network security groups of all their subnets;
//   - their VPN/ExpressRoute gateways with learned routes, and their
//     Route Servers with the routes learned from each peer;
//   - the private endpoints in them, with their NICs.
//
// Evidence only some paths need is marked pending in Network.Pending
// instead of read (see ReadEvidence): what each BGP gateway advertises to
// its peers (a path whose replies return from on premises through it needs
// it), and the NIC behind each address a VirtualAppliance route or a
// Route Server route points to (a path routed through that appliance
// needs it).
//
// Every resource is read once. Reads fan out over a bounded number of
// goroutines, and the Reader never has more than its concurrency
// (DefaultConcurrency, see SetConcurrency) requests in flight. Failed reads
// are gaps in Network.Gaps, not errors; the error is non-nil only when a
// seed is unusable (its VNet unreadable, or the subnet absent from it), and
// the network read so far is returned with it.
//
// Peering.Global is set for peerings whose both VNets are in the closure;
// for the outermost VNets' peerings to VNets beyond it, it stays false.
func (r *Reader) Network(ctx context.Context, seedSubnets []model.ResourceID) (*model.Network, error) {
	n := model.NewNetwork()
	var mu sync.Mutex // guards n

	// 1. VNets, breadth first over peerings.
	vnets := map[string]*model.VNet{}
	seen := map[string]bool{}
	var level []model.ResourceID
	for _, s := range seedSubnets {
		v := s.Parent()
		if !v.IsZero() && !seen[v.Key()] {
			seen[v.Key()] = true
			level = append(level, v)
		}
	}
	var hubs []*model.VirtualHub
	for depth := 0; depth <= peeringDepth && len(level) > 0; depth++ {
		got, _ := mapEach(ctx, r, level, r.vnetGet)
		var next []model.ResourceID
		var hubSpokes []*model.VNet
		for _, v := range got {
			if v == nil {
				continue
			}
			vnets[v.ID.Key()] = v
			if depth == 0 && len(hubVNetPeerings(v)) > 0 {
				hubSpokes = append(hubSpokes, v)
			}
			if depth == peeringDepth {
				continue
			}
			for _, p := range v.Peerings {
				// A Virtual WAN hub's VNet is Microsoft's: never read;
				// its hub is (vwan.go).
				if !p.RemoteVNetID.IsZero() && !seen[p.RemoteVNetID.Key()] && !model.IsHubVNet(p.RemoteVNetID) {
					seen[p.RemoteVNetID.Key()] = true
					next = append(next, p.RemoteVNetID)
				}
			}
		}
		if len(hubSpokes) > 0 {
			// The VNets connected to the node VNets' hubs are their
			// neighbours, as a hub-and-spoke's peers are.
			hubs = r.hubsOfVNets(ctx, hubSpokes)
			for _, h := range hubs {
				for _, c := range h.Connections {
					if !c.RemoteVNetID.IsZero() && !seen[c.RemoteVNetID.Key()] {
						seen[c.RemoteVNetID.Key()] = true
						next = append(next, c.RemoteVNetID)
					}
				}
			}
		}
		level = next
	}
	for _, v := range vnets {
		cv := cloneVNet(v)
		for _, p := range cv.Peerings {
			if remote := vnets[p.RemoteVNetID.Key()]; remote != nil {
				p.Global = differentRegion(cv.Location, remote.Location)
			}
		}
		n.AddVNet(cv)
	}

	var seedErrs []error
	for _, s := range seedSubnets {
		vnetID := s.Parent()
		if vnets[vnetID.Key()] == nil {
			gap, _ := r.Gaps().Lookup(vnetID)
			seedErrs = append(seedErrs, fmt.Errorf("node subnet %s: its virtual network could not be read (%s)", string(s), gap.Detail))
			continue
		}
		if n.Subnet(s) == nil {
			err := notFound("SubnetNotFound", "subnet %s is not in virtual network %s", string(s), string(vnetID))
			seedErrs = append(seedErrs, r.fail(s, permVNetRead, err))
		}
	}

	// 2. Route tables, NSGs, gateways and private endpoints of the closure.
	var tasks []func(context.Context)
	tables := map[string]bool{}
	nsgs := map[string]bool{}
	for _, s := range n.Subnets {
		if id := s.RouteTableID; !id.IsZero() && !tables[id.Key()] {
			tables[id.Key()] = true
			tasks = append(tasks, func(ctx context.Context) {
				if rt, err := r.RouteTable(ctx, id); err == nil {
					mu.Lock()
					n.RouteTables[rt.ID.Key()] = rt
					mu.Unlock()
				}
			})
		}
		if id := s.NSGID; !id.IsZero() && !nsgs[id.Key()] {
			nsgs[id.Key()] = true
			tasks = append(tasks, func(ctx context.Context) { r.includeSecurityGroup(ctx, n, &mu, id) })
		}
	}
	for _, v := range n.VNets {
		tasks = append(tasks, func(ctx context.Context) {
			gws, _ := r.GatewaysOfVNet(ctx, v)
			mu.Lock()
			for _, g := range gws {
				n.Gateways[g.ID.Key()] = g
				if g.BGPEnabled {
					n.Pending.Add(model.AdvertisedRoutesOf(g.ID))
				}
			}
			mu.Unlock()
		}, func(ctx context.Context) {
			rss, _ := r.RouteServersOfVNet(ctx, v)
			mu.Lock()
			for _, rs := range rss {
				n.RouteServers[rs.ID.Key()] = rs
			}
			mu.Unlock()
		}, func(ctx context.Context) {
			pes, _ := r.PrivateEndpointsInVNet(ctx, v)
			for _, pe := range pes {
				mu.Lock()
				n.PrivateEndpoints[pe.ID.Key()] = pe
				mu.Unlock()
				for _, nicID := range pe.NICIDs {
					if nic, err := r.NIC(ctx, nicID); err == nil {
						mu.Lock()
						n.NICs[nic.ID.Key()] = nic
						mu.Unlock()
					}
				}
			}
		})
	}
	all(ctx, r, tasks...)

	// The Virtual WAN hubs, standing in for their VNets (after the
	// closure's reads: nothing is read in a hub's VNet), and their
	// firewalls, whose rules are pending until a path crosses one.
	n.SpeculativeReads = append(n.SpeculativeReads, addHubs(n, hubs)...)
	r.includeFirewalls(ctx, n, nil, hubFirewallIDs(hubs))
	markHubEffectiveRoutes(n, hubs)
	markPeerHubs(n)

	// 3. Appliances behind VirtualAppliance next hops, behind the routes
	// Route Servers learned from them and behind the static routes of
	// virtual hub connections, by address in the VNet of the closure that
	// holds it: pending until a path reaches one.
	var hops []netip.Addr
	for _, h := range n.VirtualHubs {
		for _, c := range h.Connections {
			for _, sr := range c.StaticRoutes {
				if sr.NextHopIP.IsValid() {
					hops = append(hops, sr.NextHopIP)
				}
			}
		}
	}
	for _, rt := range n.RouteTables {
		for _, route := range rt.Routes {
			if strings.EqualFold(route.NextHopType, model.NextHopVirtualAppliance) && route.NextHopIP.IsValid() {
				hops = append(hops, route.NextHopIP)
			}
		}
	}
	for _, rs := range n.RouteServers {
		for _, p := range rs.Peers {
			for _, lr := range p.Learned {
				if lr.NextHop.IsValid() {
					hops = append(hops, lr.NextHop)
				}
			}
		}
	}
	for _, hop := range hops {
		for _, v := range n.VNets {
			in := false
			for _, p := range v.AddressSpace {
				in = in || p.Contains(hop)
			}
			if in {
				n.Pending.Add(model.ApplianceNICAt(v.ID, hop))
			}
		}
	}

	n.Gaps = r.Gaps()
	return n, joinErrs(seedErrs)
}

// includeSecurityGroup reads the network security group id into n; mu
// guards n.
func (r *Reader) includeSecurityGroup(ctx context.Context, n *model.Network, mu *sync.Mutex, id model.ResourceID) {
	if g, err := r.SecurityGroup(ctx, id); err == nil {
		mu.Lock()
		n.SecurityGroups[g.ID.Key()] = g
		mu.Unlock()
	}
}

// IncludeNICs adds NICs (the nodes' own, typically) and their network
// security groups to a network read by Network. With withEffective, the
// effective route table of each standalone NIC is read too and set on the
// network's copy of the NIC (scale-set instance NICs have none). Failures
// are gaps; n.Gaps is refreshed.
func (r *Reader) IncludeNICs(ctx context.Context, n *model.Network, nicIDs []model.ResourceID, withEffective bool) {
	var mu sync.Mutex
	each(ctx, r, nicIDs, func(ctx context.Context, id model.ResourceID) {
		nic, err := r.NIC(ctx, id)
		if err != nil {
			return
		}
		cp := *nic
		if withEffective {
			routes, err := r.EffectiveRoutes(ctx, id)
			switch {
			case err == nil:
				cp.Effective = routes
			case errors.Is(err, ErrEffectiveRoutesPlanned):
				cp.EffectivePlanned = true
			}
		}
		mu.Lock()
		n.NICs[cp.ID.Key()] = &cp
		mu.Unlock()
		if !cp.NSGID.IsZero() {
			r.includeSecurityGroup(ctx, n, &mu, cp.NSGID)
		}
	})
	n.Gaps = r.Gaps()
}

// IncludeSecurityGroups adds network security groups (a pool's scale-set
// NSG, say) to a network read by Network; n.Gaps is refreshed.
func (r *Reader) IncludeSecurityGroups(ctx context.Context, n *model.Network, ids []model.ResourceID) {
	var mu sync.Mutex
	each(ctx, r, ids, func(ctx context.Context, id model.ResourceID) {
		if !id.IsZero() {
			r.includeSecurityGroup(ctx, n, &mu, id)
		}
	})
	n.Gaps = r.Gaps()
}

// IncludeNICsAt looks for the network interface at each address that lies
// in a VNet of n and is not already a NIC of n (a registry VM, a DNS server
// VM: destinations whose own security group decides inbound flows), and
// adds it with its security group. When a NIC of the address's subnet could
// not be read, the address gets an entry in n.AddressGaps: whether a NIC
// with a group of its own holds it is unknown. n.Gaps is refreshed.
func (r *Reader) IncludeNICsAt(ctx context.Context, n *model.Network, addrs []netip.Addr) {
	type lookup struct {
		vnet *model.VNet
		addr netip.Addr
	}
	var lookups []lookup
	seen := map[netip.Addr]bool{}
	for _, a := range addrs {
		if !a.IsValid() || seen[a] || nicHolding(n, a) != nil {
			continue
		}
		seen[a] = true
		v := vnetHolding(n, a)
		if v == nil {
			continue // outside the network: on premises, Internet
		}
		lookups = append(lookups, lookup{v, a})
	}
	var mu sync.Mutex
	each(ctx, r, lookups, func(ctx context.Context, l lookup) { r.includeNICAt(ctx, n, &mu, l.vnet, l.addr) })
	n.Gaps = r.Gaps()
}

// includeNICAt adds the NIC at a in v, with its group, or records why it is
// unknown; mu guards n.
func (r *Reader) includeNICAt(ctx context.Context, n *model.Network, mu *sync.Mutex, v *model.VNet, a netip.Addr) {
	nic, err := r.NICByAddress(ctx, v, a)
	switch {
	case nic != nil:
		mu.Lock()
		n.NICs[nic.ID.Key()] = nic
		mu.Unlock()
		if !nic.NSGID.IsZero() {
			r.includeSecurityGroup(ctx, n, mu, nic.NSGID)
		}
	case err != nil:
		where := v.ID
		for _, s := range v.Subnets {
			for _, p := range s.Prefixes {
				if p.Contains(a) {
					where = s.ID
				}
			}
		}
		g := azure.Gap(where, permNICRead, err)
		g.Detail = "a network interface in it could not be read, so whether one holds " + a.String() +
			" with a security group of its own is unknown: " + g.Detail
		mu.Lock()
		n.AddAddressGap(a, g)
		mu.Unlock()
	}
}

// nicHolding is the NIC of n that holds addr, or nil.
func nicHolding(n *model.Network, addr netip.Addr) *model.NIC {
	for _, nic := range n.NICs {
		for _, x := range nic.PrivateIPs {
			if x == addr {
				return nic
			}
		}
	}
	return nil
}
