package routing

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Virtual WAN hub routing (docs/design/azure-behaviour.md, "Virtual WAN
// hubs"; "About virtual hub routing", "How to configure Virtual WAN Hub
// routing intent and routing policies"): a VNet connected to a virtual hub
// gets, from the route table its connection is associated with, the
// prefixes of every connection that propagates to that table (by id or by
// label), with the hub as next hop (type VirtualNetworkGateway, as Azure
// shows them), never its own prefixes; the table's static routes (a
// 0.0.0.0/0 one only with enableInternetSecurity); with routing intent,
// private traffic (RFC 1918) and, with enableInternetSecurity, Internet
// traffic go to the hub's firewall instead. A route table with
// disableBgpRoutePropagation keeps them all out of its subnets.

// rfc1918 are the private ranges a private-traffic routing policy sends
// through the hub's firewall.
var rfc1918 = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
}

var defaultRoute4 = netip.MustParsePrefix("0.0.0.0/0")

// hubFirewallIP is the private address of the hub's Azure Firewall, when
// the hub has one and it was read.
func hubFirewallIP(net *model.Network, hub *model.VirtualHub) (netip.Addr, bool) {
	if hub.FirewallID.IsZero() {
		return netip.Addr{}, false
	}
	fw := net.Firewall(hub.FirewallID)
	if fw == nil || len(fw.PrivateIPs) == 0 {
		return netip.Addr{}, false
	}
	return fw.PrivateIPs[0].Unmap(), true
}

// hubRoutes are the routes the virtual hub the VNet is connected to
// programs into its subnets. A VNet peered with a hub's VNet whose hub was
// not read gets a gap for every destination outside its protected routes.
func hubRoutes(net *model.Network, vnet *model.VNet) ([]model.Route, []scopedGap) {
	if h := net.HubByVNet(vnet.ID); h != nil {
		// The hub's own VNet (the firewall's subnet): its peerings to the
		// connected VNets are its routes; a connected VNet that was not
		// read is space the hub may route that no peering shows.
		var gaps []scopedGap
		for _, c := range h.Connections {
			if net.VNet(c.RemoteVNetID) == nil {
				gaps = append(gaps, scopedGap{gap: gapFor(net, c.RemoteVNetID, model.GapNotFound,
					fmt.Sprintf("%s, connected to virtual hub %s by connection %s, was not read: the hub's routes to it are unknown", c.RemoteVNetID.Name(), h.Name, c.Name)), bgpOnly: true})
			}
		}
		rts, more := hubVNetRoutes(net, h, vnet)
		return append(rts, hubVNetStaticRoutes(h, vnet, rts)...), append(gaps, more...)
	}
	hub, conn := net.HubOfVNet(vnet.ID)
	if hub == nil {
		var gaps []scopedGap
		for _, p := range vnet.Peerings {
			// A peering that records no state (a snapshot written by
			// hand, completed only once its hub is read) may be Connected.
			if !(model.IsHubVNet(p.RemoteVNetID) || net.HubByVNet(p.RemoteVNetID) != nil) || (!p.Connected() && p.State != "") {
				continue
			}
			if net.Pending.Has(model.PeerHubOf(vnet.ID)) {
				// Its hub is read when a path through the VNet needs it
				// (walker.peerHubNeed).
				gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: p.RemoteVNetID, Kind: model.GapUnavailable,
					Detail: fmt.Sprintf("the virtual hub of Virtual WAN hub VNet %s, which peering %s connects %s to, is not read yet: the routes it programs into %s are unknown", p.RemoteVNetID.Name(), p.Name, vnet.Name, vnet.Name)},
					bgpOnly: true})
				continue
			}
			// Never the hub VNet's own read (it is Microsoft's): the
			// hub's, or the search for it.
			id := p.RemoteVNetID
			if h := net.HubByVNet(p.RemoteVNetID); h != nil {
				id = h.ID
				if _, ok := net.Gaps.Lookup(id); !ok {
					id = model.ResourceID(string(h.ID) + "/hubVirtualNetworkConnections")
				}
			}
			gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
				fmt.Sprintf("peering %s connects %s to the Virtual WAN hub VNet %s, whose virtual hub does not list a connection of %s that was read: the routes the hub programs are unknown", p.Name, vnet.Name, p.RemoteVNetID.Name(), vnet.Name)),
				bgpOnly: true})
		}
		return nil, gaps
	}
	var gaps []scopedGap
	unknown := func(id model.ResourceID, what string) {
		gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
			fmt.Sprintf("the %s of virtual hub %s were not read: the routes it programs into %s are unknown", what, hub.Name, vnet.Name)), bgpOnly: true})
	}
	switch {
	case !hub.ConnectionsKnown:
		unknown(model.ResourceID(string(hub.ID)+"/hubVirtualNetworkConnections"), "connections")
	case !hub.RouteTablesKnown:
		unknown(model.ResourceID(string(hub.ID)+"/hubRouteTables"), "route tables")
	case !hub.IntentKnown:
		unknown(model.ResourceID(string(hub.ID)+"/routingIntent"), "routing intent")
	}
	// A router that is not provisioned: its routes are unknown whatever
	// its configuration says (named with a part that was not read).
	if g, ok := hubRouterNotReady(hub); ok {
		gaps = append(gaps, scopedGap{gap: g, bgpOnly: true})
	}
	if len(gaps) > 0 {
		return nil, gaps
	}
	router := hub.RouterIP()
	fwIP, fwKnown := hubFirewallIP(net, hub)
	var out []model.Route
	seen := map[netip.Prefix]bool{}
	add := func(p netip.Prefix, nh netip.Addr, origin string) {
		p = p.Masked()
		if !p.IsValid() || seen[p] || coveredBySpace(vnet.AddressSpace, p) || len(inFamilies([]netip.Prefix{p}, vnet.AddressSpace)) == 0 {
			return
		}
		seen[p] = true
		out = append(out, model.Route{
			Prefix: p, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: nh,
			Source: model.RouteSourceGateway, State: model.RouteStateActive, Origin: origin, OriginID: hub.ID,
		})
	}
	toFirewall := func(ps []netip.Prefix, origin string) {
		if !fwKnown {
			gaps = append(gaps, scopedGap{gap: gapFor(net, hub.FirewallID, model.GapNotFound,
				fmt.Sprintf("%s sends traffic to the hub's Azure Firewall %s, which was not read", origin, hub.FirewallID.Name())), bgpOnly: true})
			return
		}
		for _, p := range ps {
			add(p, fwIP, origin)
		}
	}
	intent := hub.Intent
	if intent != nil && len(intent.UnknownPolicies) > 0 {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: intent.ID, Kind: model.GapUnavailable,
			Detail:      fmt.Sprintf("routing intent of virtual hub %s has routing policies this provider does not model (%s)", hub.Name, strings.Join(intent.UnknownPolicies, ", ")),
			Remediation: "The provider models the PrivateTraffic and Internet routing policies only. Check by hand where the hub sends the registry's addresses (az network vhub get-effective-routes --resource-type RouteTable), or accept this finding with the reason."}, bgpOnly: true})
	}
	if intent != nil && len(intent.NoNextHop) > 0 {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: intent.ID, Kind: model.GapUnavailable,
			Detail:      fmt.Sprintf("routing intent of virtual hub %s has a routing policy for %s that names no next hop: where the hub sends that traffic is unknown", hub.Name, strings.Join(intent.NoNextHop, ", ")),
			Remediation: fmt.Sprintf("Record the next hop of every routing policy of virtual hub %s (az network vhub routing-intent show), normally the hub's Azure Firewall, then plan again.", hub.Name)}, bgpOnly: true})
	}
	private := intent != nil && !intent.PrivateNextHop.IsZero()
	internet := intent != nil && !intent.InternetNextHop.IsZero()
	if private {
		toFirewall(append(append([]netip.Prefix(nil), rfc1918...), additionalPrivatePrefixes(hub)...), fmt.Sprintf("routing intent of virtual hub %s (private traffic)", hub.Name))
	}
	// Whether a 0.0.0.0/0 of the hub reaches a connection that records no
	// enableInternetSecurity is unknown.
	unrecordedDefault := func(origin string) {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: conn.ID, Kind: model.GapUnavailable,
			Detail:      fmt.Sprintf("connection %s of virtual hub %s records no enableInternetSecurity, so whether %s (0.0.0.0/0) reaches %s is unknown", conn.Name, hub.Name, origin, vnet.Name),
			Remediation: fmt.Sprintf("Record enableInternetSecurity (Propagate Default Route) of connection %s (az network vhub connection show), then plan again.", conn.Name)},
			bgpOnly: true, defaultOnly: true})
	}
	if internet && conn.EnableInternetSecurity {
		toFirewall([]netip.Prefix{defaultRoute4}, fmt.Sprintf("routing intent of virtual hub %s (Internet traffic)", hub.Name))
	} else if internet && conn.InternetSecurityUnrecorded {
		unrecordedDefault(fmt.Sprintf("routing intent of virtual hub %s (Internet traffic)", hub.Name))
	}
	gaps = append(gaps, branchRoutes(net, hub, conn, vnet, router, add)...)
	gaps = append(gaps, unknownWANGaps(net, hub, vnet)...)
	assocID := hub.AssociatedTable(conn)
	assoc := hub.RouteTable(assocID)
	if assoc == nil {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: assocID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("route table %s that connection %s of virtual hub %s is associated with was not read", assocID.Name(), conn.Name, hub.Name)}, bgpOnly: true})
		return out, gaps
	}
	// The table's static routes come first: "Routes added statically take
	// precedence over dynamically learned routes for the same prefixes"
	// ("About virtual hub routing"), so a static route for a prefix a
	// connection also propagates wins (add keeps the first route of a
	// prefix). A static route to a firewall that was not read still claims
	// its prefix: the destination is unverified, never sent directly.
	if intent == nil {
		for _, hr := range assoc.Routes {
			origin := fmt.Sprintf("virtual hub %s route table %s route %s", hub.Name, assoc.Name, hr.Name)
			for _, p := range hr.Destinations {
				if p.Bits() == 0 && !conn.EnableInternetSecurity {
					if conn.InternetSecurityUnrecorded {
						unrecordedDefault(origin)
					}
					continue // "0.0.0.0/0 is propagated only to connections with enableInternetSecurity"
				}
				if hr.NextHop.Equal(hub.FirewallID) {
					if !fwKnown {
						seen[p.Masked()] = true
					}
					toFirewall([]netip.Prefix{p}, origin)
				} else {
					add(p, router, origin)
				}
			}
		}
	}
	if !private {
		for _, oc := range hub.Connections {
			if oc == conn || oc.RemoteVNetID.Equal(vnet.ID) {
				continue
			}
			switch hub.PropagationTo(oc, assoc) {
			case model.NotPropagated:
				continue
			case model.PropagationUndocumented:
				gaps = append(gaps, undocumentedPropagationGap(net, hub, oc, hub, assoc)...)
				continue
			}
			origin := fmt.Sprintf("virtual hub %s route table %s, connection %s", hub.Name, assoc.Name, oc.Name)
			remote := net.VNet(oc.RemoteVNetID)
			if remote == nil {
				gaps = append(gaps, scopedGap{gap: gapFor(net, oc.RemoteVNetID, model.GapNotFound,
					fmt.Sprintf("connection %s of virtual hub %s propagates the address space of %s, which was not read", oc.Name, hub.Name, oc.RemoteVNetID.Name())), bgpOnly: true})
			} else {
				for _, p := range remote.AddressSpace {
					add(p, router, origin)
				}
			}
			for _, sr := range oc.PropagatedStaticRoutes() {
				for _, p := range sr.Prefixes {
					add(p, router, origin+" static route "+sr.Name)
				}
			}
		}
		gaps = append(gaps, interHubRoutes(net, hub, assoc, vnet, func(_ *model.VirtualHub, p netip.Prefix, origin string) { add(p, router, origin) })...)
	}
	return out, gaps
}

// hubRouterNotReady is the gap of a hub whose router reports a routing
// state other than Provisioned: what it programs, and whether it forwards
// at all, is not documented for that state.
func hubRouterNotReady(hub *model.VirtualHub) (model.Gap, bool) {
	if !hub.RouterNotReady() {
		return model.Gap{}, false
	}
	return model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable,
		Detail: fmt.Sprintf("its router has routing state %s, not Provisioned: which routes it programs into the VNets connected to it, and whether it forwards their traffic at all, is not documented for that state",
			hub.RoutingState),
		Remediation: fmt.Sprintf("Wait until virtual hub %s shows routing status Provisioned; if it stays %s, reset the hub (Azure portal: the virtual hub, Reset; or Reset-AzHubRouter), then plan again.", hub.Name, hub.RoutingState)}, true
}

// undocumentedPropagationGap is the gap of a connection oc of hub ocHub
// that lists route tables but no label, for route table t of hub, which
// would hold its prefixes only by the label "default"
// (model.PropagationUndocumented): scoped to the address space of oc's
// VNet and its static routes' prefixes (0.0.0.0/0 never crosses hubs);
// where that VNet was not read, to every destination BGP routes carry, as
// for a propagating connection whose VNet was not read.
func undocumentedPropagationGap(net *model.Network, ocHub *model.VirtualHub, oc *model.HubConnection, hub *model.VirtualHub, t *model.HubRouteTable) []scopedGap {
	var scope []netip.Prefix
	if v := net.VNet(oc.RemoteVNetID); v != nil {
		scope = append(scope, v.AddressSpace...)
		for _, sr := range oc.PropagatedStaticRoutes() {
			for _, p := range sr.Prefixes {
				if p.Bits() > 0 || ocHub.ID.Equal(hub.ID) {
					scope = append(scope, p)
				}
			}
		}
	}
	where := fmt.Sprintf("route table %s of virtual hub %s", t.Name, hub.Name)
	g := model.Gap{ResourceID: oc.ID, Kind: model.GapUnavailable,
		Detail: fmt.Sprintf("it propagates to route tables (%s) and names no label, while %s carries the label default: Microsoft documents that a virtual network connection naming no label propagates to the label default (\"About virtual hub routing\"), but not whether that still holds when it names route tables, so whether the prefixes of %s are in %s is not documented",
			oc.PropagationTargets(), where, oc.RemoteVNetID.Name(), where),
		Remediation: fmt.Sprintf("Name the labels of connection %s of virtual hub %s explicitly (routingConfiguration.propagatedRouteTables.labels; azurerm: routing.propagated_route_table.labels): add \"default\" if its prefixes should reach %s, or the label of the tables it propagates to (\"none\" for noneRouteTable) if they should not; then plan again. To see what Azure did, list the routes of %s (az network vhub get-effective-routes --resource-type RouteTable).",
			oc.Name, ocHub.Name, where, where)}
	out := []scopedGap{{gap: g, scope: scope, bgpOnly: true}}
	// Were the prefixes there, another hub would forward the path by its
	// own configuration (its route tables' static routes too), as
	// interHubPropagationCause names it: a part of it that was not read
	// is missing for the same destinations.
	if !ocHub.ID.Equal(hub.ID) {
		if ug, unread := hubUnread(net, ocHub, true, fmt.Sprintf("how it would forward traffic to %s is unknown", oc.RemoteVNetID.Name())); unread {
			out = append(out, scopedGap{gap: ug, scope: scope, bgpOnly: true})
		}
	}
	return out
}

// unknownWANGaps: the hubs of one Virtual WAN route to each other's
// connected VNets (model/vwan_interhub.go), which hubs share one is their
// virtualWan. Where hub or another hub that was read names none (a
// snapshot written by hand), whether hub routes to that hub's VNets is
// unknown: a gap scoped to their address spaces.
func unknownWANGaps(net *model.Network, hub *model.VirtualHub, vnet *model.VNet) []scopedGap {
	others := make([]*model.VirtualHub, 0, len(net.VirtualHubs))
	for _, o := range net.VirtualHubs {
		if o != hub && !o.ID.Equal(hub.ID) && (hub.VirtualWANID.IsZero() || o.VirtualWANID.IsZero()) {
			others = append(others, o)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].ID.Key() < others[j].ID.Key() })
	var out []scopedGap
	for _, o := range others {
		var scope []netip.Prefix
		for _, oc := range o.Connections {
			if v := net.VNet(oc.RemoteVNetID); v != nil && !v.ID.Equal(vnet.ID) {
				scope = append(scope, v.AddressSpace...)
			}
		}
		if len(scope) == 0 {
			continue
		}
		missing := hub
		if !hub.VirtualWANID.IsZero() {
			missing = o
		}
		out = append(out, scopedGap{gap: model.Gap{ResourceID: missing.ID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("virtual hub %s names no Virtual WAN (properties.virtualWan), so whether virtual hub %s routes to the VNets connected to virtual hub %s (another hub of its Virtual WAN, or of none) is unknown",
				missing.Name, hub.Name, o.Name),
			Remediation: fmt.Sprintf("Record the virtualWan of virtual hub %s (az network vhub show -n %s), then plan again.", missing.Name, missing.Name)},
			scope: scope, bgpOnly: true})
		// Were they one Virtual WAN, the other hub's route tables and
		// routing intent would decide those routes too.
		for _, part := range []struct {
			known bool
			child string
		}{{o.RouteTablesKnown, "hubRouteTables"}, {o.IntentKnown, "routingIntent"}} {
			if !part.known {
				id := model.ResourceID(string(o.ID) + "/" + part.child)
				out = append(out, scopedGap{gap: gapFor(net, id, model.GapNotFound,
					fmt.Sprintf("the %s of virtual hub %s were not read: the routes it would give to its VNets are unknown", part.child, o.Name)),
					scope: scope, bgpOnly: true})
			}
		}
	}
	return out
}

// viaHub follows a route a virtual hub programmed: to the hub's firewall
// (routing intent, a static route to it), crossed like any Azure Firewall;
// otherwise the hub router delivers into the connected VNet that holds the
// destination.
func (w *walker) viaHub(c *Computed, r *model.Route, hub *model.VirtualHub) (model.ResourceID, bool) {
	net := w.e.net
	if fwIP, ok := hubFirewallIP(net, hub); ok && r.NextHopIP.Unmap() == fwIP {
		return w.viaAppliance(c, r)
	}
	if next, ok, handled := w.viaOtherHub(c, r, hub); handled {
		return next, ok
	}
	// From the hub's own VNet (after its firewall) the hub router routes
	// the packet without a peering to cross.
	atHub := !hub.HubVNetID.IsZero() && c.vnet.ID.Equal(hub.HubVNetID)
	p := c.vnet.PeeringTo(hub.HubVNetID)
	if !atHub && (p == nil || hub.HubVNetID.IsZero()) {
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+" (no peering to its VNet)")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("no peering of %s to the VNet of virtual hub %s was read", c.vnet.Name, hub.Name)})
		return "", false
	}
	t, found := hubTargetOf(net, hub, c.vnet.ID, w.dst)
	switch {
	case found && t.static != nil:
		return w.viaHubStaticRoute(c, r, hub, p, t)
	case !found:
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+" (destination not in a connected VNet)")
		detail := fmt.Sprintf("%s sends %s to virtual hub %s, but no VNet connected to it that was read holds it (a branch, or another hub, is not followed)", routeLabel(*r), w.dst, hub.Name)
		remedy := fmt.Sprintf("Check where virtual hub %s sends %s (az network vhub get-effective-routes --resource-type RouteTable): if it should be in a VNet, connect that VNet to the hub; if it is behind a branch, the path leaves Azure and cannot be verified.", hub.Name, w.dst)
		if hub.VirtualWANID.IsZero() {
			// Without its Virtual WAN, the hub's sibling hubs (whose
			// spokes its router reaches) cannot be found.
			detail += fmt.Sprintf("; virtual hub %s names no Virtual WAN (properties.virtualWan), so the other hubs of its Virtual WAN, whose VNets may hold %s, are unknown", hub.Name, w.dst)
			remedy = fmt.Sprintf("Record the virtual hub's virtualWan (az network vhub show -n %s) so that the other hubs of its Virtual WAN are read. ", hub.Name) + remedy
		}
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable, Detail: detail, Remediation: remedy})
		return "", false
	}
	if !atHub {
		if _, ok := w.crossPeering(c, r, p); !ok {
			return "", false
		}
	}
	w.arriveIn(c, r, t.vnet)
	return "", false
}

// hubTarget is where a virtual hub's router sends a destination: into the
// connected VNet that holds it, or by a static route of a connection to
// an address in that connection's VNet (an appliance: "Route traffic
// through an NVA", indirect spokes).
type hubTarget struct {
	conn *model.HubConnection
	// vnet holds the destination (no static route applies).
	vnet *model.VNet
	// static is the connection's static route that applies, with the
	// prefix of it that matched.
	static *model.HubStaticRoute
	prefix netip.Prefix
}

// hubTargetOf is where hub sends dst coming from the VNet from. A VNet
// connected to the hub that holds dst receives it, unless a static route
// of its own connection contains dst and the connection's
// vnetLocalRouteOverrideCriteria is Contains (Azure's default: "all
// traffic matching static route ranges gets redirected through the next
// hop, even within the spoke VNet itself"); with Equal the VNet's own
// space bypasses the static route. A destination no connected VNet holds
// goes by the most specific static route of the hub's connections that
// contains it.
func hubTargetOf(net *model.Network, hub *model.VirtualHub, from model.ResourceID, dst netip.Addr) (hubTarget, bool) {
	var best hubTarget
	found := false
	for _, oc := range hub.Connections {
		if oc.RemoteVNetID.Equal(from) {
			continue
		}
		sr, sp, static := oc.StaticRouteFor(dst)
		if v := net.VNet(oc.RemoteVNetID); v != nil && anyContains(v.AddressSpace, dst) {
			if static && !oc.BypassStaticRoutesInVNet {
				return hubTarget{conn: oc, static: &sr, prefix: sp}, true
			}
			return hubTarget{conn: oc, vnet: v}, true
		}
		if static && (!found || sp.Bits() > best.prefix.Bits()) {
			best, found = hubTarget{conn: oc, static: &sr, prefix: sp}, true
		}
	}
	return best, found
}

// viaHubStaticRoute follows a connection's static route: the hub delivers
// the packet into the connection's VNet (over the hub's peering to it, as
// for any destination in a connected VNet) to the route's next hop
// address, which is then an appliance exactly as a VirtualAppliance next
// hop of a user-defined route: its NIC must forward, an Azure Firewall at
// the address is crossed as a firewall, and the appliance's subnet routes
// the packet on (to an indirect spoke peered with that VNet, whose side of
// the peering must allow forwarded traffic).
func (w *walker) viaHubStaticRoute(c *Computed, r *model.Route, hub *model.VirtualHub, toHub *model.Peering, t hubTarget) (model.ResourceID, bool) {
	net := w.e.net
	oc, sr := t.conn, t.static
	nh := sr.NextHopIP.Unmap()
	what := fmt.Sprintf("static route %s (%s) of connection %s of virtual hub %s", sr.Name, t.prefix, oc.Name, hub.Name)
	transit := net.VNet(oc.RemoteVNetID)
	if transit == nil {
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+", "+what+" (its VNet was not read)")
		w.gaps = appendGap(w.gaps, gapFor(net, oc.RemoteVNetID, model.GapNotFound,
			fmt.Sprintf("%s sends %s to %s in %s, which was not read", what, w.dst, nh, oc.RemoteVNetID.Name())))
		return "", false
	}
	if !nh.IsValid() || !anyContains(transit.AddressSpace, nh) {
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+", "+what+" (next hop outside "+transit.Name+")")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: oc.ID, Kind: model.GapUnavailable,
			Detail:      fmt.Sprintf("%s sends %s to next hop %s, which is not in the address space of %s (%s), the connection's VNet: where the hub delivers it is not documented", what, w.dst, addrOrNone(nh), transit.Name, prefixList(transit.AddressSpace)),
			Remediation: fmt.Sprintf("Set the next hop of static route %s of connection %s to the private address of the appliance in %s (routingConfiguration.vnetRoutes.staticRoutes[].nextHopIpAddress).", sr.Name, oc.Name, transit.Name)})
		return "", false
	}
	if toHub != nil {
		if _, ok := w.crossPeering(c, r, toHub); !ok {
			return "", false
		}
	}
	return w.applianceAt(c, r, transit, nh)
}

// hubVNetStaticRoutes are the routes the hub's own VNet (its firewall's
// subnet) has for the propagated static routes of the hub's connections,
// next hop the hub router: under a private traffic routing policy the
// firewall hands such traffic back to the hub, which sends it to the
// static route's appliance ("Routing intent with static routes"). The
// prefixes the hub VNet already routes (have) are left out.
func hubVNetStaticRoutes(h *model.VirtualHub, vnet *model.VNet, have []model.Route) []model.Route {
	router := h.RouterIP()
	seen := map[netip.Prefix]bool{}
	for _, r := range have {
		seen[r.Prefix] = true
	}
	var out []model.Route
	for _, oc := range h.Connections {
		for _, sr := range oc.PropagatedStaticRoutes() {
			for _, p := range sr.Prefixes {
				p = p.Masked()
				if !p.IsValid() || p.Bits() == 0 || seen[p] || coveredBySpace(vnet.AddressSpace, p) {
					continue
				}
				seen[p] = true
				out = append(out, model.Route{
					Prefix: p, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: router,
					Source: model.RouteSourceGateway, State: model.RouteStateActive,
					Origin: fmt.Sprintf("virtual hub %s, connection %s static route %s", h.Name, oc.Name, sr.Name), OriginID: h.ID,
				})
			}
		}
	}
	return out
}

func addrOrNone(a netip.Addr) string {
	if !a.IsValid() {
		return "(none)"
	}
	return a.String()
}

// hubPropagationCause explains a private destination the nodes have no
// route to when it lies in a VNet connected to the same virtual hub whose
// connection does not propagate to the route table the nodes' connection
// is associated with, or behind a static route of a connection that does
// not propagate it there (not to that table, or propagateStaticRoutes
// false).
func hubPropagationCause(net *model.Network, c *Computed, r *model.Route, dst netip.Addr, verb string) (Finding, bool) {
	hub, conn := net.HubOfVNet(c.vnet.ID)
	if hub == nil || !hub.ConnectionsKnown || !hub.RouteTablesKnown || (hub.Intent != nil && !hub.Intent.PrivateNextHop.IsZero()) {
		return Finding{}, false
	}
	assoc := hub.RouteTable(hub.AssociatedTable(conn))
	if assoc == nil {
		return Finding{}, false
	}
	for _, oc := range hub.Connections {
		if oc == conn {
			continue
		}
		v := net.VNet(oc.RemoteVNetID)
		if v == nil || !anyContains(v.AddressSpace, dst) || hub.PropagationTo(oc, assoc) != model.NotPropagated {
			continue
		}
		if assoc.IsNone() {
			// No connection's routes reach noneRouteTable: the nodes'
			// association is what to change.
			f := newFinding(model.RouteHubNotPropagated, conn.ID, c.SubnetID, r,
				"%s is in %s, connected to virtual hub %s by connection %s, but connection %s of %s (the nodes' VNet) is associated with noneRouteTable, to which no connection's routes propagate; so subnet %s has no route to it and %s %s it.",
				dst, v.Name, hub.Name, oc.Name, conn.Name, c.vnet.Name, SubnetLabel(c.SubnetID), routeLabel(*r), verb)
			f.Remediation = fmt.Sprintf("Associate connection %s of virtual hub %s with defaultRouteTable, or with a custom route table that connection %s propagates to (routingConfiguration.associatedRouteTable).%s",
				conn.Name, hub.Name, oc.Name, timeoutNote)
			return f, true
		}
		via := "route table " + assoc.Name
		if len(assoc.Labels) > 0 {
			via += " (labels " + strings.Join(assoc.Labels, ", ") + ")"
		}
		f := newFinding(model.RouteHubNotPropagated, oc.ID, c.SubnetID, r,
			"%s is in %s, connected to virtual hub %s by connection %s, which propagates its routes only to %s, not to %s that connection %s of %s (the nodes' VNet) is associated with; so subnet %s has no route to it and %s %s it.",
			dst, v.Name, hub.Name, oc.Name, oc.PropagationTargets(), via, conn.Name, c.vnet.Name, SubnetLabel(c.SubnetID), routeLabel(*r), verb)
		f.Remediation = fmt.Sprintf("Add route table %s (or one of its labels) to the propagated route tables of connection %s of virtual hub %s (routingConfiguration.propagatedRouteTables); if replies must come back, %s's route table needs connection %s propagated to it as well.%s",
			assoc.Name, oc.Name, hub.Name, v.Name, conn.Name, timeoutNote)
		return f, true
	}
	for _, oc := range hub.Connections {
		if oc == conn {
			continue
		}
		sr, sp, ok := oc.StaticRouteFor(dst)
		p := hub.PropagationTo(oc, assoc)
		if !ok || p == model.PropagationUndocumented || (p == model.Propagated && !oc.StaticRoutesNotPropagated) {
			continue
		}
		why := fmt.Sprintf("propagates its routes only to %s, not to route table %s", oc.PropagationTargets(), assoc.Name)
		fix := fmt.Sprintf("Add route table %s (or one of its labels) to the propagated route tables of connection %s of virtual hub %s (routingConfiguration.propagatedRouteTables)", assoc.Name, oc.Name, hub.Name)
		if oc.StaticRoutesNotPropagated {
			why = fmt.Sprintf("does not propagate its static routes (staticRoutesConfig.propagateStaticRoutes is false) to route table %s", assoc.Name)
			fix = fmt.Sprintf("Set propagateStaticRoutes on connection %s of virtual hub %s (azurerm: routing.static_vnet_propagate_static_routes_enabled = true), or add to route table %s a static route for %s with next hop connection %s", oc.Name, hub.Name, assoc.Name, sp, oc.Name)
		}
		f := newFinding(model.RouteHubNotPropagated, oc.ID, c.SubnetID, r,
			"%s is routed by static route %s (%s) of connection %s of virtual hub %s to appliance %s in %s, but connection %s %s, the table connection %s of %s (the nodes' VNet) is associated with; so subnet %s has no route to it and %s %s it.",
			dst, sr.Name, sp, oc.Name, hub.Name, addrOrNone(sr.NextHopIP), oc.RemoteVNetID.Name(), oc.Name, why, conn.Name, c.vnet.Name, SubnetLabel(c.SubnetID), routeLabel(*r), verb)
		f.Remediation = fix + "." + timeoutNote
		return f, true
	}
	return Finding{}, false
}
