package routing

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Azure Route Server (docs/design/azure-behaviour.md, "Route Server"): a
// Route Server learns routes from network virtual appliances over BGP and
// programs them into the subnets of its VNet, and of peered VNets that use
// the remote VNet's gateway or Route Server (useRemoteGateways on their
// side, allowGatewayTransit on the Route Server's). It forwards no traffic:
// the next hop of its routes is the appliance's address. They are BGP
// routes: the system routes of VNet space, peerings and private endpoints
// win over them, and a route table that disables BGP route propagation
// keeps them out. A VPN/ExpressRoute gateway in the same VNet learns them
// too (branch-to-branch); its copy is the Route Server's route, not one of
// its own. Where the gateway and the Route Server offer the same prefix,
// which one the subnets get is the Route Server's routing preference,
// whose effect on the subnets is not documented: unverified.

// routeServerLink is a Route Server whose routes reach a VNet: its own, or
// a peered hub's through gateway transit.
type routeServerLink struct {
	rs *model.RouteServer
}

// routeServerLinks lists the Route Servers whose routes reach vnet: its own
// and, through gateway transit, those of peered VNets. A Route Server a
// subnet names but that was not read is a gap for every destination BGP
// routes could carry.
func routeServerLinks(net *model.Network, vnet *model.VNet) ([]routeServerLink, []scopedGap) {
	var links []routeServerLink
	var gaps []scopedGap
	add := func(v *model.VNet, via string) {
		for _, id := range v.RouteServerIDs() {
			rs := net.RouteServer(id)
			if rs == nil {
				gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
					fmt.Sprintf("Route Server %s in %s%s was not read: the routes it programs are unknown", id.Name(), v.Name, via)), bgpOnly: true})
				continue
			}
			links = append(links, routeServerLink{rs: rs})
		}
	}
	add(vnet, "")
	for _, p := range vnet.Peerings {
		reverse, _ := net.PeeringBack(vnet.ID, p)
		transit := p.Connected() && p.UseRemoteGateways && reverse != nil && reverse.Connected() && reverse.AllowGatewayTransit
		if remote := net.VNet(p.RemoteVNetID); remote != nil && transit {
			add(remote, fmt.Sprintf(" (reached through peering %s)", p.Name))
		}
	}
	return links, gaps
}

// routeServerRoutes are the routes the Route Servers of links program: one
// per prefix learned from their peers, outside the Route Server VNet's own
// space, with the appliance's address as next hop (the first peer's, by
// name, when several advertise the prefix: the others are named in the
// origin). Routes the Route Server could not read are a gap.
func routeServerRoutes(net *model.Network, links []routeServerLink) ([]model.Route, []scopedGap) {
	var out []model.Route
	var gaps []scopedGap
	seen := map[netip.Prefix]int{}
	for _, l := range links {
		rs := l.rs
		var space []netip.Prefix
		if v := net.VNet(rs.VNetID); v != nil {
			space = v.AddressSpace
		}
		if !rs.PeersKnown {
			gaps = append(gaps, scopedGap{gap: gapFor(net, rs.ID+"/bgpConnections", model.GapUnavailable,
				fmt.Sprintf("the BGP peers of Route Server %s were not read: the routes it programs are unknown", rs.Name)), bgpOnly: true})
		}
		for _, p := range sortedPeers(rs) {
			if !p.LearnedKnown {
				gaps = append(gaps, scopedGap{gap: gapFor(net, p.ID+"/learnedRoutes", model.GapUnavailable,
					fmt.Sprintf("the routes Route Server %s learned from peer %s (%s) were not read", rs.Name, p.Name, p.IP)), bgpOnly: true})
				continue
			}
			for _, lr := range p.Learned {
				prefix := lr.Prefix.Masked()
				if !prefix.IsValid() || strings.EqualFold(lr.Origin, "Network") || coveredBySpace(space, prefix) {
					continue
				}
				hop := lr.NextHop
				if !hop.IsValid() {
					hop = p.IP
				}
				if i, ok := seen[prefix]; ok {
					if out[i].NextHopIP != hop && out[i].OriginID.Equal(rs.ID) {
						out[i].Origin = strings.TrimSuffix(out[i].Origin, ")") + ", also " + hop.String() + ")"
					}
					continue
				}
				seen[prefix] = len(out)
				out = append(out, model.Route{
					Prefix: prefix, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: hop,
					Source: model.RouteSourceGateway, State: model.RouteStateActive,
					Origin: fmt.Sprintf("Route Server %s (learned from %s)", rs.Name, p.IP), OriginID: rs.ID,
				})
			}
		}
	}
	return out, gaps
}

// routeServerConflicts are the prefixes both a gateway and a Route Server
// program: which one the subnet gets is not documented, so destinations in
// them are unverified.
func routeServerConflicts(gwRoutes, rsRoutes []model.Route) []scopedGap {
	if len(rsRoutes) == 0 || len(gwRoutes) == 0 {
		return nil
	}
	byPrefix := make(map[netip.Prefix]model.Route, len(gwRoutes))
	for _, r := range gwRoutes {
		byPrefix[r.Prefix] = r
	}
	var gaps []scopedGap
	for _, r := range rsRoutes {
		g, ok := byPrefix[r.Prefix]
		if !ok {
			continue
		}
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: r.OriginID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("gateway %s and Route Server %s both have a route for %s; which one Azure programs depends on the Route Server's routing preference and is not documented",
				g.OriginID.Name(), r.OriginID.Name(), r.Prefix)},
			scope: []netip.Prefix{r.Prefix}, bgpOnly: true})
	}
	return gaps
}

// routeServerIPs are the BGP addresses of the Route Servers in a VNet.
func routeServerIPs(net *model.Network, vnetID model.ResourceID) map[netip.Addr]bool {
	var out map[netip.Addr]bool
	for _, k := range sortedKeys(net.RouteServers) {
		rs := net.RouteServers[k]
		if !rs.VNetID.Equal(vnetID) {
			continue
		}
		for _, a := range rs.RouterIPs {
			if out == nil {
				out = map[netip.Addr]bool{}
			}
			out[a.Unmap()] = true
		}
	}
	return out
}

// routeServerOf is the Route Server behind a route selected in c: the
// route's origin, or, for a real effective route the configuration does
// not explain, a Route Server reaching the subnet that learned a route to
// that next hop.
func routeServerOf(net *model.Network, c *Computed, r *model.Route) *model.RouteServer {
	if rs := net.RouteServer(r.OriginID); rs != nil {
		return rs
	}
	if net.Gateway(r.OriginID) != nil || !r.NextHopIP.IsValid() {
		return nil
	}
	for _, l := range c.rsLinks {
		for _, p := range l.rs.Peers {
			if p.IP == r.NextHopIP {
				return l.rs
			}
			for _, lr := range p.Learned {
				if lr.NextHop == r.NextHopIP {
					return l.rs
				}
			}
		}
	}
	return nil
}

// sortedPeers returns a Route Server's peers by name (the reader sorts
// them; tests may not).
func sortedPeers(rs *model.RouteServer) []model.RouteServerPeer {
	out := append([]model.RouteServerPeer(nil), rs.Peers...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
