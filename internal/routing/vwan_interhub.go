package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Hub-to-hub routing (docs/design/azure-behaviour.md, "Virtual WAN hubs";
// "About virtual hub routing", "How to configure Virtual WAN Hub routing
// intent and routing policies"): the hubs of a Virtual WAN are connected.
// A connection of another hub that propagates to a label of the route
// table the VNet's connection is associated with (defaultRouteTable has
// the built-in label "default") reaches the VNet, next hop the local hub
// (VirtualNetworkGateway, as Azure shows it); the hub router hands the
// packet to the remote hub, which delivers it. A private traffic routing
// policy sends inter-hub traffic through the firewall of each hub that has
// one: both, when both hubs have one. The default route 0.0.0.0/0 never
// crosses hubs.

// interHubRoutes calls add for the address space (and static routes) of
// every connection of another hub of hub's Virtual WAN whose prefixes
// reach route table assoc of hub, and returns the gaps of what was not
// read.
func interHubRoutes(net *model.Network, hub *model.VirtualHub, assoc *model.HubRouteTable, vnet *model.VNet, add func(*model.VirtualHub, netip.Prefix, string)) []scopedGap {
	var gaps []scopedGap
	for _, o := range net.OtherHubsOfWAN(hub) {
		if g, ok := hubUnread(net, o, false, fmt.Sprintf("virtual hub %s is in the same Virtual WAN as %s: the routes it gives %s are unknown", o.Name, hub.Name, vnet.Name)); ok {
			gaps = append(gaps, scopedGap{gap: g, bgpOnly: true})
			continue
		}
		for _, oc := range o.Connections {
			if oc.RemoteVNetID.Equal(vnet.ID) {
				continue
			}
			if p := o.ReachesRemoteTable(oc, assoc); p != model.Propagated {
				if p == model.PropagationUndocumented {
					gaps = append(gaps, undocumentedPropagationGap(net, o, oc, hub, assoc)...)
				}
				continue
			}
			origin := fmt.Sprintf("virtual hub %s route table %s, from virtual hub %s connection %s", hub.Name, assoc.Name, o.Name, oc.Name)
			remote := net.VNet(oc.RemoteVNetID)
			if remote == nil {
				gaps = append(gaps, scopedGap{gap: gapFor(net, oc.RemoteVNetID, model.GapNotFound,
					fmt.Sprintf("connection %s of virtual hub %s propagates the address space of %s to virtual hub %s, but it was not read", oc.Name, o.Name, oc.RemoteVNetID.Name(), hub.Name)), bgpOnly: true})
			} else {
				for _, p := range remote.AddressSpace {
					add(o, p, origin)
				}
			}
			for _, sr := range oc.PropagatedStaticRoutes() {
				for _, p := range sr.Prefixes {
					if p.Bits() > 0 { // 0.0.0.0/0 stays in its hub
						add(o, p, origin+" static route "+sr.Name)
					}
				}
			}
		}
	}
	return gaps
}

// hubVNetRoutes are the routes of a hub's own VNet (its firewall's
// subnet) to the spokes of the other hubs of its Virtual WAN: next hop the
// remote hub, which its firewall crosses under a private routing policy.
func hubVNetRoutes(net *model.Network, h *model.VirtualHub, vnet *model.VNet) ([]model.Route, []scopedGap) {
	var out []model.Route
	seen := map[netip.Prefix]bool{}
	local := h.RouteTable(model.ResourceID(string(h.ID) + "/hubRouteTables/" + model.HubDefaultRouteTable))
	if local == nil {
		local = &model.HubRouteTable{ID: model.ResourceID(string(h.ID) + "/hubRouteTables/" + model.HubDefaultRouteTable), Name: model.HubDefaultRouteTable}
	}
	gaps := interHubRoutes(net, h, local, vnet, func(o *model.VirtualHub, p netip.Prefix, origin string) {
		p = p.Masked()
		if !p.IsValid() || seen[p] || coveredBySpace(vnet.AddressSpace, p) {
			return
		}
		seen[p] = true
		router := o.RouterIP()
		out = append(out, model.Route{
			Prefix: p, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: router,
			Source: model.RouteSourceGateway, State: model.RouteStateActive,
			Origin: fmt.Sprintf("virtual hub %s to virtual hub %s (%s)", h.Name, o.Name, origin), OriginID: o.ID,
		})
	})
	return out, gaps
}

// connectedVNetHolding returns the VNet connected to hub that was read and
// holds dst, or nil.
func connectedVNetHolding(net *model.Network, hub *model.VirtualHub, dst netip.Addr, except model.ResourceID) *model.VNet {
	for _, oc := range hub.Connections {
		if oc.RemoteVNetID.Equal(except) {
			continue
		}
		if v := net.VNet(oc.RemoteVNetID); v != nil && anyContains(v.AddressSpace, dst) {
			return v
		}
	}
	return nil
}

// viaOtherHub follows a hub route across hubs: from a spoke of hub to a
// VNet connected to another hub of its Virtual WAN, or from another hub's
// VNet (after its firewall) into a VNet connected to hub. Under the
// destination hub's private routing policy the packet crosses that hub's
// firewall first (by the appliance crossing every firewall takes). It
// reports false when the route is not an inter-hub one.
func (w *walker) viaOtherHub(c *Computed, r *model.Route, hub *model.VirtualHub) (model.ResourceID, bool, bool) {
	net := w.e.net
	from := net.HubByVNet(c.vnet.ID)
	var destHub *model.VirtualHub
	var dest *model.VNet
	// static, when set, is the static route of a connection of destHub
	// that takes the destination (an indirect spoke behind an appliance
	// in that connection's VNet, "Route traffic through an NVA"): no VNet
	// connected to any hub holds it.
	var static *hubTarget
	switch {
	case from != nil && !from.ID.Equal(hub.ID):
		destHub, dest = hub, connectedVNetHolding(net, hub, w.dst, "")
		if dest == nil {
			if t, ok := hubTargetOf(net, hub, c.vnet.ID, w.dst); ok && t.static != nil {
				static = &t
			}
		}
	case from == nil:
		if connectedVNetHolding(net, hub, w.dst, c.vnet.ID) != nil {
			return "", false, false
		}
		for _, o := range net.OtherHubsOfWAN(hub) {
			if d := connectedVNetHolding(net, o, w.dst, c.vnet.ID); d != nil {
				destHub, dest = o, d
				break
			}
		}
		if dest != nil {
			break
		}
		if _, ok := hubTargetOf(net, hub, c.vnet.ID, w.dst); ok {
			return "", false, false // the nodes' own hub's static route
		}
		for _, o := range net.OtherHubsOfWAN(hub) {
			if t, ok := hubTargetOf(net, o, c.vnet.ID, w.dst); ok && t.static != nil && (static == nil || t.prefix.Bits() > static.prefix.Bits()) {
				destHub, static = o, &t
			}
		}
	}
	if dest == nil && static == nil {
		return "", false, false
	}
	toWhat := ""
	if dest != nil {
		toWhat = dest.Name
	} else {
		toWhat = fmt.Sprintf("%s (static route %s of connection %s)", w.dst, static.static.Name, static.conn.Name)
	}
	// How the destination hub hands the packet on (its routing intent,
	// the static routes of its tables) is its own configuration.
	if g, ok := hubUnread(net, destHub, true, "how it forwards traffic from virtual hub "+hubName(from, hub)+" to "+toWhat+" is unknown"); ok {
		w.hop(c.SubnetID, r, "virtual hub "+destHub.Name+" (not read)")
		w.gaps = appendGap(w.gaps, g)
		return "", false, true
	}
	if from == nil {
		p := c.vnet.PeeringTo(hub.HubVNetID)
		if p == nil || hub.HubVNetID.IsZero() {
			w.hop(c.SubnetID, r, "virtual hub "+hub.Name+" (no peering to its VNet)")
			w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapNotFound,
				Detail: fmt.Sprintf("no peering of %s to the VNet of virtual hub %s was read", c.vnet.Name, hub.Name)})
			return "", false, true
		}
		if _, ok := w.crossPeering(c, r, p); !ok {
			return "", false, true
		}
	}
	if destHub.PrivatePolicy() && !(from != nil && from.ID.Equal(destHub.ID)) {
		fwIP, ok := hubFirewallIP(net, destHub)
		if !ok || destHub.HubVNetID.IsZero() || net.VNet(destHub.HubVNetID) == nil {
			w.hop(c.SubnetID, r, "virtual hub "+destHub.Name+" (its firewall was not read)")
			w.gaps = appendGap(w.gaps, gapFor(net, destHub.FirewallID, model.GapNotFound,
				fmt.Sprintf("the routing intent of virtual hub %s sends traffic from virtual hub %s through its firewall %s, which was not read (or the hub's address prefix is unknown)", destHub.Name, hub.Name, destHub.FirewallID.Name())))
			return "", false, true
		}
		// The remote hub receives the packet and hands it to its
		// firewall: crossed from the remote hub's VNet, where it is.
		at, err := w.e.EffectiveRoutes(model.HubFirewallSubnet(destHub.HubVNetID))
		if err != nil {
			w.missing(model.HubFirewallSubnet(destHub.HubVNetID), err)
			return "", false, true
		}
		w.hop(c.SubnetID, r, fmt.Sprintf("virtual hub %s to virtual hub %s", hubName(from, hub), destHub.Name))
		via := *r
		via.NextHopIP = fwIP
		via.Origin = fmt.Sprintf("routing intent of virtual hub %s (private traffic from virtual hub %s)", destHub.Name, hubName(from, hub))
		via.OriginID = destHub.ID
		next, ok := w.viaAppliance(at, &via)
		return next, ok, true
	}
	if static != nil {
		// Delivered by the destination hub's router into the connection's
		// VNet to the static route's next hop (the nodes' peering to
		// their hub, when there is one, was crossed above).
		next, ok := w.viaHubStaticRoute(c, r, destHub, nil, *static)
		return next, ok, true
	}
	w.arriveIn(c, r, dest)
	return "", false, true
}

func hubName(from, hub *model.VirtualHub) string {
	if from != nil {
		return from.Name
	}
	return hub.Name
}

// additionalPrivatePrefixes are the hub's private traffic prefixes beyond
// RFC 1918: with routing intent, the static routes of its defaultRouteTable
// whose next hop is the private routing policy's (Firewall Manager's
// "private traffic prefixes", the route private_traffic); 0.0.0.0/0 is the
// Internet policy's.
func additionalPrivatePrefixes(hub *model.VirtualHub) []netip.Prefix {
	if !hub.PrivatePolicy() {
		return nil
	}
	t := hub.RouteTable(model.ResourceID(string(hub.ID) + "/hubRouteTables/" + model.HubDefaultRouteTable))
	if t == nil {
		for _, rt := range hub.RouteTables {
			if strings.EqualFold(rt.Name, model.HubDefaultRouteTable) {
				t = rt
			}
		}
	}
	if t == nil {
		return nil
	}
	var out []netip.Prefix
	for _, hr := range t.Routes {
		if !hr.NextHop.Equal(hub.Intent.PrivateNextHop) {
			continue
		}
		for _, p := range hr.Destinations {
			if p.Bits() > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// remoteAddressGap: the destination is an address in a VNet outside the
// closure (a registry private endpoint's, a DNS private resolver inbound
// endpoint's: model.Network.RemoteAddresses) while the packet is in a
// hub-connected VNet; that VNet may be a spoke of another hub of the
// Virtual WAN. Until it and its hub are read (needed now, when pending)
// the route is unknown.
func (w *walker) remoteAddressGap(c *Computed) {
	net := w.e.net
	if h, _ := net.HubOfVNet(c.vnet.ID); h == nil && net.HubByVNet(c.vnet.ID) == nil {
		return
	}
	gap := func(g model.Gap) {
		w.gaps = appendGap(w.gaps, g)
		w.uncertain = true
	}
	remote, ok := net.RemoteAddresses[w.dst.Unmap()]
	if !ok {
		// A registry endpoint that could not be read may hold the
		// address, in a spoke of another hub: a private destination
		// this VNet has no route to is unverified, not dropped.
		if len(net.UnresolvedEndpoints) > 0 && IsPrivate(w.dst) && dropsHere(c, w.dst) {
			for _, id := range net.UnresolvedEndpoints {
				gap(gapFor(net, id, model.GapNotFound,
					fmt.Sprintf("%s could not be read: %s may be its address, in a spoke of another virtual hub whose routes are then unknown", id.Name(), w.dst)))
			}
		}
		return
	}
	vnetID, what := remote.VNetID, remote.What
	if ev := model.RemoteHubOf(vnetID, w.dst); net.Pending.Has(ev) {
		w.needs = model.AddNeed(w.needs, ev)
		gap(model.Gap{ResourceID: vnetID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("%s, which holds %s %s, and the virtual hub it may be connected to are not read yet: the route to it is unknown", vnetID.Name(), what, w.dst)})
		return
	}
	v := net.VNet(vnetID)
	if v == nil {
		gap(gapFor(net, vnetID, model.GapNotFound,
			fmt.Sprintf("%s, which holds %s %s, was not read: whether a virtual hub connects it is unknown", vnetID.Name(), what, w.dst)))
		return
	}
	if h, _ := net.HubOfVNet(vnetID); h != nil {
		return
	}
	for _, p := range v.Peerings {
		if h := net.HubByVNet(p.RemoteVNetID); h != nil {
			// Its hub was found but could not be read.
			if g, ok := hubUnread(net, h, false, fmt.Sprintf("the route to %s %s in %s is unknown", what, w.dst, v.Name)); ok {
				gap(g)
				continue
			}
		}
		if model.IsHubVNet(p.RemoteVNetID) {
			gap(gapFor(net, p.RemoteVNetID, model.GapNotFound,
				fmt.Sprintf("%s is peered with Virtual WAN hub VNet %s, but its virtual hub was not found: the route to %s %s is unknown", v.Name, p.RemoteVNetID.Name(), what, w.dst)))
			continue
		}
		w.indirectSpokeGap(v, p.RemoteVNetID, what, gap)
	}
}

// indirectSpokeGap: v, which holds the destination and is connected to no
// virtual hub, is peered with the VNet peer, which may be an NVA VNet
// connected to a hub whose connection's static routes bring traffic to v
// ("Scenario: Route traffic through an NVA", indirect spokes). Where peer,
// its hub or the search for that hub could not be read, the route to the
// destination is unknown: the gap is that failed read.
func (w *walker) indirectSpokeGap(v *model.VNet, peer model.ResourceID, what string, gap func(model.Gap)) {
	net := w.e.net
	pv := net.VNet(peer)
	if pv == nil {
		if g, failed := net.Gaps.Lookup(peer); failed {
			g.Detail = fmt.Sprintf("%s (peered with %s, which holds %s %s and is connected to no virtual hub) could not be read: whether it is a Virtual WAN hub spoke whose hub routes to %s is unknown; %s", peer.Name(), v.Name, what, w.dst, w.dst, g.Detail)
			gap(g)
		}
		return
	}
	if h, _ := net.HubOfVNet(pv.ID); h != nil {
		return // its hub was read: its routes decide
	}
	for _, pp := range pv.Peerings {
		if !model.IsHubVNet(pp.RemoteVNetID) {
			continue
		}
		if h := net.HubByVNet(pp.RemoteVNetID); h != nil {
			if g, ok := hubUnread(net, h, false, fmt.Sprintf("%s is connected to it and peered with %s, which holds %s %s: the route to %s is unknown", pv.Name, v.Name, what, w.dst, w.dst)); ok {
				gap(g)
			}
			continue
		}
		gap(gapFor(net, pp.RemoteVNetID, model.GapNotFound,
			fmt.Sprintf("%s, peered with %s (which holds %s %s), is peered with Virtual WAN hub VNet %s, but its virtual hub was not found: the route to %s is unknown", pv.Name, v.Name, what, w.dst, pp.RemoteVNetID.Name(), w.dst)))
	}
}

// interHubPropagationCause explains a private destination the nodes have
// no route to when it lies in a VNet connected to another hub of their
// hub's Virtual WAN whose connection does not propagate to a label of the
// route table the nodes' connection is associated with. When that hub's
// route tables were not read (their static routes are its configuration
// too), it also returns their gap: the finding is then a suspicion, the
// path unverified.
func interHubPropagationCause(net *model.Network, c *Computed, r *model.Route, dst netip.Addr, verb string) (Finding, *model.Gap, bool) {
	hub, conn := net.HubOfVNet(c.vnet.ID)
	if hub == nil || !hub.RouteTablesKnown || hub.PrivatePolicy() {
		return Finding{}, nil, false
	}
	assoc := hub.RouteTable(hub.AssociatedTable(conn))
	if assoc == nil {
		return Finding{}, nil, false
	}
	for _, o := range net.OtherHubsOfWAN(hub) {
		if !o.ConnectionsKnown || !o.IntentKnown {
			continue
		}
		for _, oc := range o.Connections {
			v := net.VNet(oc.RemoteVNetID)
			if v == nil || !anyContains(v.AddressSpace, dst) || o.ReachesRemoteTable(oc, assoc) != model.NotPropagated {
				continue
			}
			labels := "no label"
			if ls := assoc.LabelSet(); len(ls) > 0 {
				labels = "labels " + strings.Join(ls, ", ")
			}
			f := newFinding(model.RouteHubNotPropagated, oc.ID, c.SubnetID, r,
				"%s is in %s, connected to virtual hub %s by connection %s, which propagates its routes only to %s; none of them reaches route table %s (%s) of virtual hub %s that connection %s of %s (the nodes' VNet) is associated with, so subnet %s has no route to it and %s %s it.",
				dst, v.Name, o.Name, oc.Name, oc.PropagationTargets(), assoc.Name, labels, hub.Name, conn.Name, c.vnet.Name, SubnetLabel(c.SubnetID), routeLabel(*r), verb)
			f.Remediation = fmt.Sprintf("Add a label of route table %s of virtual hub %s (the label default reaches the defaultRouteTable of every hub of the Virtual WAN) to the propagated labels of connection %s of virtual hub %s (routingConfiguration.propagatedRouteTables.labels); if replies must come back, connection %s must reach the route table %s is associated with as well.%s",
				assoc.Name, hub.Name, oc.Name, o.Name, conn.Name, oc.Name, timeoutNote)
			if g, unread := hubUnread(net, o, true, fmt.Sprintf("whether virtual hub %s gives route table %s of virtual hub %s a route to %s in %s is unknown", o.Name, assoc.Name, hub.Name, dst, v.Name)); unread {
				return f, &g, true
			}
			return f, nil, true
		}
	}
	return Finding{}, nil, false
}

// dropsHere reports whether c's routes drop dst: no route, or one to None
// or, for a private address, the Internet.
func dropsHere(c *Computed, dst netip.Addr) bool {
	r, ok := c.Table.Lookup(dst)
	return !ok || dropsPrivate(r)
}

// hubUnread returns the gap of the first part of hub h that was not read:
// its connections, its routing intent and, with tables, its route tables;
// or of its router, when it reports a routing state other than Provisioned.
func hubUnread(net *model.Network, h *model.VirtualHub, tables bool, why string) (model.Gap, bool) {
	part := func(child, what string) (model.Gap, bool) {
		return gapFor(net, model.ResourceID(string(h.ID)+"/"+child), model.GapNotFound,
			fmt.Sprintf("the %s of virtual hub %s were not read; %s", what, h.Name, why)), true
	}
	switch {
	case h.ConnectionsKnown && h.RouterNotReady():
		g, _ := hubRouterNotReady(h)
		g.Detail += "; " + why
		return g, true
	case !h.ConnectionsKnown:
		if g, ok := net.Gaps.Lookup(h.ID); ok {
			return g, true // the hub itself
		}
		return part("hubVirtualNetworkConnections", "connections")
	case !h.IntentKnown:
		return part("routingIntent", "routing intent")
	case tables && !h.RouteTablesKnown:
		return part("hubRouteTables", "route tables")
	}
	return model.Gap{}, false
}
