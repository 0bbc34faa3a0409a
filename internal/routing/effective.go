package routing

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Computed is a subnet's effective route table as computed from
// configuration: what `az network nic show-effective-route-table` would show
// for a NIC in the subnet. Scale-set instances and pools at zero nodes have
// no effective-route API, so this is the only table they have.
type Computed struct {
	SubnetID model.ResourceID
	VNetID   model.ResourceID
	// Table selects among the routes (Routes).
	Table *Table
	// Suppressed are the gateway routes that the route table's
	// disableBgpRoutePropagation keeps out of the subnet.
	Suppressed []model.Route
	// Gaps are the facts the computation lacked (route table, peered VNet,
	// gateway learned routes, service tag members, …). GapsFor tells which
	// of them can change the route of one destination.
	Gaps []model.Gap

	subnet     *model.Subnet
	vnet       *model.VNet
	routeTable *model.RouteTable
	links      []gatewayLink
	rsLinks    []routeServerLink
	gaps       []scopedGap
}

// forSubnet is c for another subnet with the same inputs (see
// Engine.sharedFor): the routes and table are shared, read-only.
func (c *Computed) forSubnet(sub *model.Subnet) *Computed {
	out := *c
	out.SubnetID, out.subnet = sub.ID, sub
	return &out
}

// GapsFor returns the gaps that could change the route selected for dst:
// callers must report the destination as unverified when there are any.
func (c *Computed) GapsFor(dst netip.Addr) []model.Gap {
	dst = dst.Unmap()
	var out []model.Gap
	for _, g := range c.gaps {
		if g.applies(c, dst) {
			out = appendGap(out, g.gap)
		}
	}
	return out
}

// Routes lists every entry as Azure would, including Invalid ones (a
// system route overridden by a same-prefix UDR or BGP route, a private
// endpoint /32 invalidated by a UDR, a UDR to a gateway that is not there).
// Each carries Origin and OriginID. The list is built on first use and
// shared: callers must not change it.
func (c *Computed) Routes() []model.Route { return c.Table.list() }

// Select returns the route selected for dst.
func (c *Computed) Select(dst netip.Addr) (model.Route, bool) { return c.Table.Lookup(dst) }

// RouteTable is the subnet's route table as read, or nil.
func (c *Computed) RouteTable() *model.RouteTable { return c.routeTable }

// inProtectedSpace reports whether a protected system route (VNet space,
// peering, service endpoint, private endpoint) contains dst: unknown BGP
// routes cannot change the selection there.
func (c *Computed) inProtectedSpace(dst netip.Addr) bool {
	// Protected system routes are never a gateway's: the table's own
	// routes hold them all.
	for i := range c.Table.own {
		if r := &c.Table.own[i]; isProtectedSystem(r) && r.Prefix.IsValid() && r.Prefix.Contains(dst) {
			return true
		}
	}
	return false
}

// computeEffective assembles a subnet's routes the way Azure does:
//
//   - VnetLocal for each prefix of the VNet's address space;
//   - VNetPeering / VNetGlobalPeering for the synced remote space of every
//     Connected peering with access allowed;
//   - VirtualNetworkServiceEndpoint for the subnet's service endpoints;
//   - InterfaceEndpoint /32s of private endpoints in the VNet and in
//     directly peered VNets (Invalid where a UDR invalidates them);
//   - VirtualNetworkGateway routes of the VNet's gateway or, through gateway
//     transit, a hub's, and the routes Route Servers learned from
//     appliances (next hop the appliance), unless the route table disables
//     BGP propagation;
//   - the routes of the Virtual WAN hub the VNet is connected to (vwan.go),
//     unless the route table disables BGP propagation;
//   - the route table's UDRs;
//   - the default routes (Internet, None ranges outside the VNet's space);
//
// then marks every same-prefix loser Invalid, as Azure lists it.
func computeEffective(net *model.Network, subnetID model.ResourceID, reserved []netip.Prefix, gateways *gatewayMemo) (*Computed, error) {
	sub := net.Subnet(subnetID)
	if sub == nil {
		missing := subnetID
		if _, ok := net.Gaps.Lookup(subnetID); !ok {
			if _, ok := net.Gaps.Lookup(subnetID.Parent()); ok {
				// Absent because its VNet could not be read (the reader
				// records that gap on the VNet, with the permission it
				// needed): that read is the missing evidence.
				missing = subnetID.Parent()
			}
		}
		return nil, &GapError{gapFor(net, missing, model.GapNotFound, "the subnet was not read")}
	}
	vnetID := vnetOfSubnet(net, subnetID)
	vnet := net.VNet(vnetID)
	if vnet == nil {
		return nil, &GapError{gapFor(net, vnetID, model.GapNotFound, "the virtual network of subnet "+sub.Name+" was not read")}
	}
	c := &Computed{SubnetID: sub.ID, VNetID: vnet.ID, subnet: sub, vnet: vnet}
	if !sub.RouteTableID.IsZero() {
		if c.routeTable = net.RouteTable(sub.RouteTableID); c.routeTable == nil {
			c.gaps = append(c.gaps, scopedGap{gap: gapFor(net, sub.RouteTableID, model.GapNotFound,
				fmt.Sprintf("route table %s of subnet %s was not read", sub.RouteTableID.Name(), sub.Name))})
		}
	}

	links, linkGaps := gatewayLinks(net, vnet)
	c.links = links
	c.gaps = append(c.gaps, linkGaps...)
	tags, tagsGap := net.ServiceTagsAt(vnet.Location)
	udrs, udrGaps := userRoutes(c.routeTable, links, linkGaps, tags, tagsGap, vnet.AddressSpace)
	c.gaps = append(c.gaps, udrGaps...)
	peRoutes, peGaps := privateEndpointRoutes(net, vnet, sub, udrs)
	c.gaps = append(c.gaps, peGaps...)
	seRoutes, seGaps := serviceEndpointRoutes(sub, tags, tagsGap, vnet.AddressSpace)
	c.gaps = append(c.gaps, seGaps...)
	gwRoutes, gwBlock, gwGaps := propagatedGatewayRoutes(net, links, gateways)
	c.gaps = append(c.gaps, gwGaps...)
	rsLinks, rsLinkGaps := routeServerLinks(net, vnet)
	c.rsLinks = rsLinks
	c.gaps = append(c.gaps, rsLinkGaps...)
	rsRoutes, rsGaps := routeServerRoutes(net, rsLinks)
	c.gaps = append(c.gaps, rsGaps...)
	c.gaps = append(c.gaps, routeServerConflicts(gwRoutes, rsRoutes)...)
	hubRts, hubGaps := hubRoutes(net, vnet)
	c.gaps = append(c.gaps, hubGaps...)

	local, peered, defaults := vnetLocalRoutes(vnet), peeringRoutes(vnet, sub), defaultRoutes(vnet.AddressSpace, reserved, udrs)
	if c.routeTable != nil && c.routeTable.DisableBGPRoutePropagation {
		c.gaps = append(c.gaps, privateNoneUnknown(sub.ID, udrs)...)
	} else {
		c.gaps = append(c.gaps, privateNoneUnknown(sub.ID, udrs, gwRoutes, rsRoutes, hubRts)...)
	}
	// The routes in Azure's listing order: the VNet's own, its peerings',
	// the gateway routes, the Route Servers' routes, defaults, private
	// endpoints, service endpoints, UDRs. One gateway's routes (the usual
	// case) are its memoised block, shared with every table behind it; the
	// table owns the rest and marks the losers of each shared prefix
	// Invalid, as Azure lists them.
	routes := make([]model.Route, 0, len(local)+len(peered)+len(rsRoutes)+len(defaults)+len(peRoutes)+len(seRoutes)+len(udrs))
	routes = append(routes, local...)
	routes = append(routes, peered...)
	start := len(routes)
	var block *sortedBlock
	switch {
	case c.routeTable != nil && c.routeTable.DisableBGPRoutePropagation:
		c.Suppressed = append(append(append([]model.Route(nil), gwRoutes...), rsRoutes...), hubRts...)
	case gwBlock != nil:
		block = gwBlock
		routes = append(routes, rsRoutes...)
		routes = append(routes, hubRts...)
	default:
		routes = append(routes, gwRoutes...)
		routes = append(routes, rsRoutes...)
		routes = append(routes, hubRts...)
	}
	routes = append(routes, defaults...)
	routes = append(routes, peRoutes...)
	routes = append(routes, seRoutes...)
	routes = append(routes, udrs...)
	c.Table = buildTable(routes, start, block, true)
	for _, g := range c.gaps {
		if !g.standInOnly { // about a destination, not about the table
			c.Gaps = appendGap(c.Gaps, g.gap)
		}
	}
	return c, nil
}

// vnetLocalRoutes: "Azure creates a route with an address prefix that
// corresponds to each address range defined within the address space of a
// virtual network" (next hop type VnetLocal).
func vnetLocalRoutes(vnet *model.VNet) []model.Route {
	out := make([]model.Route, 0, len(vnet.AddressSpace))
	for _, p := range vnet.AddressSpace {
		out = append(out, model.Route{
			Prefix: p, NextHopType: model.NextHopVnetLocal, Source: model.RouteSourceDefault,
			State: model.RouteStateActive, Origin: "address space of " + vnet.Name, OriginID: vnet.ID,
		})
	}
	return out
}

// propagatedGatewayRoutes merges the routes of every gateway that reaches
// the VNet, first gateway first for a prefix both have. With one gateway
// (the usual case) it returns that gateway's memoised routes, which the
// caller must not change, with their presorted keys.
func propagatedGatewayRoutes(net *model.Network, links []gatewayLink, gateways *gatewayMemo) ([]model.Route, *sortedBlock, []scopedGap) {
	var reaching []*gatewayEntry
	for _, l := range links {
		if l.reaches {
			reaching = append(reaching, gateways.get(net, l.gw))
		}
	}
	switch len(reaching) {
	case 0:
		return nil, nil, nil
	case 1:
		return reaching[0].routes, reaching[0].block, reaching[0].gaps
	}
	var out []model.Route
	var gaps []scopedGap
	seen := map[netip.Prefix]bool{}
	for _, e := range reaching {
		routes := e.routes
		gaps = append(gaps, e.gaps...)
		out = slices.Grow(out, len(routes))
		for _, r := range routes {
			if !seen[r.Prefix] {
				seen[r.Prefix] = true
				out = append(out, r)
			}
		}
	}
	return out, nil, gaps
}

// userRoutes are the route table's routes as effective entries. A UDR named
// by service tag is one route per prefix of the tag when the service tags
// of the VNet's location were read and list it; otherwise it has no prefix
// this package can match: it stays listed, and public destinations become
// unverified (citing the failed read of the service tags when there was
// one). Prefixes of an address family the VNet has no space in are left
// out: no packet of that family leaves the subnet. A UDR to
// VirtualNetworkGateway with no gateway reaching the VNet is listed
// Invalid, as Azure shows it.
func userRoutes(rt *model.RouteTable, links []gatewayLink, linkGaps []scopedGap, tags *model.ServiceTags, tagsGap *model.Gap, space []netip.Prefix) ([]model.Route, []scopedGap) {
	if rt == nil {
		return nil, nil
	}
	gatewayReaches := false
	for _, l := range links {
		gatewayReaches = gatewayReaches || l.reaches
	}
	var out []model.Route
	var gaps []scopedGap
	for _, r := range rt.Routes {
		r.Source = model.RouteSourceUser
		r.State = model.RouteStateActive
		r.Origin = fmt.Sprintf("route table %s route %s", rt.Name, r.Name)
		r.OriginID = rt.ID
		if strings.EqualFold(r.NextHopType, model.NextHopVirtualNetworkGateway) && !gatewayReaches && len(linkGaps) == 0 {
			r.State = model.RouteStateInvalid
		}
		if r.Prefix.IsValid() {
			r.Prefix = r.Prefix.Masked()
			out = append(out, r)
			continue
		}
		if t, ok := tags.Lookup(r.ServiceTag); ok {
			// "Virtual network traffic routing", service tags for
			// user-defined routes: the route applies to every prefix of
			// the tag, as Azure keeps it up to date.
			r.ServiceTag = t.Name
			r.Origin = fmt.Sprintf("route table %s route %s, service tag %s", rt.Name, r.Name, t.Name)
			n := 0
			for _, p := range inFamilies(t.Prefixes, space) {
				e := r
				e.Prefix = p.Masked()
				out = append(out, e)
				n++
			}
			if isActive(&r) && n > 0 {
				gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: rt.ID, Kind: model.GapUnavailable,
					Detail: fmt.Sprintf("route %s of route table %s sends the prefixes of service tag %s to %s; a public address Resource Manager does not name may be among them",
						r.Name, rt.Name, t.Name, hopLabel(r))},
					standInOnly: true, sameHop: &r})
			}
			continue
		}
		gap := model.Gap{ResourceID: rt.ID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("route %s of route table %s is addressed by service tag %q, whose prefixes cannot be resolved from configuration", r.Name, rt.Name, r.ServiceTag)}
		switch {
		case tagsGap != nil:
			gap = *tagsGap
		case tags != nil:
			gap.Detail = fmt.Sprintf("route %s of route table %s is addressed by service tag %q, which %s do not list", r.Name, rt.Name, r.ServiceTag, tags.Label())
		}
		gaps = append(gaps, scopedGap{gap: gap, publicOnly: true})
		out = append(out, r)
	}
	return out, gaps
}

// inFamilies keeps the prefixes of the address families (IPv4, IPv6) the
// VNet's address space has.
func inFamilies(ps, space []netip.Prefix) []netip.Prefix {
	v4, v6 := false, false
	for _, s := range space {
		v4, v6 = v4 || s.Addr().Is4(), v6 || s.Addr().Is6()
	}
	var out []netip.Prefix
	for _, p := range ps {
		if (p.Addr().Is4() && v4) || (p.Addr().Is6() && v6) {
			out = append(out, p)
		}
	}
	return out
}

// hopLabel is a route's next hop in words: "VirtualAppliance 10.0.1.4".
func hopLabel(r model.Route) string {
	if r.NextHopIP.IsValid() {
		return r.NextHopType + " " + r.NextHopIP.String()
	}
	return r.NextHopType
}

// serviceEndpointRoutes are the VirtualNetworkServiceEndpoint routes of the
// subnet's service endpoints, one per public prefix of the service's
// regional tag in each location of the endpoint, as Azure lists them in
// effective routes ("Virtual network service endpoints"). Prefixes come
// from the endpoint itself when known, else from the service tags of the
// VNet's location; unknown prefixes are a gap for public destinations
// (citing the failed read of the service tags when there was one).
func serviceEndpointRoutes(sub *model.Subnet, tags *model.ServiceTags, tagsGap *model.Gap, space []netip.Prefix) ([]model.Route, []scopedGap) {
	var out []model.Route
	var gaps []scopedGap
	for _, se := range sub.ServiceEndpoints {
		groups := []*model.ServiceTag{{Prefixes: se.Prefixes}}
		if !se.PrefixesKnown {
			resolved, missing, ok := se.Tags(tags)
			if !ok {
				gap := model.Gap{ResourceID: sub.ID, Kind: model.GapUnavailable,
					Detail: fmt.Sprintf("the public prefixes of service endpoint %s (%s) on subnet %s are not resolved", se.Service, strings.Join(se.Locations, ", "), sub.Name)}
				switch {
				case tagsGap != nil:
					gap = *tagsGap
				case tags != nil:
					gap.Detail += fmt.Sprintf(": %s do not list %s", tags.Label(), missing)
				}
				gaps = append(gaps, scopedGap{gap: gap, publicOnly: true, serviceEndpoint: true})
				continue
			}
			groups = resolved
		}
		seen := map[netip.Prefix]bool{}
		n := 0
		for _, g := range groups {
			origin := "service endpoint " + se.Service
			if g.Name != "" {
				origin += ", service tag " + g.Name
			}
			for _, p := range inFamilies(g.Prefixes, space) {
				if p = p.Masked(); seen[p] {
					continue
				}
				seen[p] = true
				n++
				out = append(out, model.Route{
					Prefix: p, NextHopType: model.NextHopServiceEndpoint, Source: model.RouteSourceDefault,
					State: model.RouteStateActive, Origin: origin, OriginID: sub.ID,
				})
			}
		}
		if n > 0 {
			gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: sub.ID, Kind: model.GapUnavailable,
				Detail: fmt.Sprintf("service endpoint %s on subnet %s routes the public prefixes of its service over the backbone; a public address Resource Manager does not name may be among them", se.Service, sub.Name)},
				standInOnly: true, serviceEndpoint: true})
		}
	}
	return out, gaps
}
