package routing

import (
	"fmt"
	"net/netip"
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
		return rts, append(gaps, more...)
	}
	hub, conn := net.HubOfVNet(vnet.ID)
	if hub == nil {
		var gaps []scopedGap
		for _, p := range vnet.Peerings {
			if !(model.IsHubVNet(p.RemoteVNetID) || net.HubByVNet(p.RemoteVNetID) != nil) || !p.Connected() {
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
	if !hub.ConnectionsKnown {
		unknown(model.ResourceID(string(hub.ID)+"/hubVirtualNetworkConnections"), "connections")
		return nil, gaps
	}
	if !hub.RouteTablesKnown {
		unknown(model.ResourceID(string(hub.ID)+"/hubRouteTables"), "route tables")
		return nil, gaps
	}
	if !hub.IntentKnown {
		unknown(model.ResourceID(string(hub.ID)+"/routingIntent"), "routing intent")
		return nil, gaps
	}
	var router netip.Addr
	if len(hub.RouterIPs) > 0 {
		router = hub.RouterIPs[0].Unmap()
	}
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
			Detail: fmt.Sprintf("routing intent of virtual hub %s has routing policies this provider does not model (%s)", hub.Name, strings.Join(intent.UnknownPolicies, ", "))}, bgpOnly: true})
	}
	private := intent != nil && !intent.PrivateNextHop.IsZero()
	internet := intent != nil && !intent.InternetNextHop.IsZero()
	if private {
		toFirewall(append(append([]netip.Prefix(nil), rfc1918...), additionalPrivatePrefixes(hub)...), fmt.Sprintf("routing intent of virtual hub %s (private traffic)", hub.Name))
	}
	if internet && conn.EnableInternetSecurity {
		toFirewall([]netip.Prefix{defaultRoute4}, fmt.Sprintf("routing intent of virtual hub %s (Internet traffic)", hub.Name))
	}
	gaps = append(gaps, branchRoutes(net, hub, conn, vnet, router, add)...)
	assocID := hub.AssociatedTable(conn)
	assoc := hub.RouteTable(assocID)
	if assoc == nil {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: assocID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("route table %s that connection %s of virtual hub %s is associated with was not read", assocID.Name(), conn.Name, hub.Name)}, bgpOnly: true})
		return out, gaps
	}
	if !private {
		for _, oc := range hub.Connections {
			if oc == conn || oc.RemoteVNetID.Equal(vnet.ID) || !oc.PropagatesTo(assoc) {
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
			for _, sr := range oc.StaticRoutes {
				for _, p := range sr.Prefixes {
					add(p, router, origin+" static route "+sr.Name)
				}
			}
		}
		gaps = append(gaps, interHubRoutes(net, hub, assoc, vnet, func(_ *model.VirtualHub, p netip.Prefix, origin string) { add(p, router, origin) })...)
	}
	if intent == nil {
		for _, hr := range assoc.Routes {
			origin := fmt.Sprintf("virtual hub %s route table %s route %s", hub.Name, assoc.Name, hr.Name)
			for _, p := range hr.Destinations {
				if p.Bits() == 0 && !conn.EnableInternetSecurity {
					continue // "0.0.0.0/0 is propagated only to connections with enableInternetSecurity"
				}
				if hr.NextHop.Equal(hub.FirewallID) {
					toFirewall([]netip.Prefix{p}, origin)
				} else {
					add(p, router, origin)
				}
			}
		}
	}
	return out, gaps
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
	p := c.vnet.PeeringTo(hub.HubVNetID)
	if p == nil || hub.HubVNetID.IsZero() {
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+" (no peering to its VNet)")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("no peering of %s to the VNet of virtual hub %s was read", c.vnet.Name, hub.Name)})
		return "", false
	}
	var dest *model.VNet
	for _, oc := range hub.Connections {
		if oc.RemoteVNetID.Equal(c.vnet.ID) {
			continue
		}
		v := net.VNet(oc.RemoteVNetID)
		if v != nil && anyContains(v.AddressSpace, w.dst) {
			dest = v
			break
		}
		for _, sr := range oc.StaticRoutes {
			if anyContains(sr.Prefixes, w.dst) {
				w.hop(c.SubnetID, r, "virtual hub "+hub.Name+", static route "+sr.Name+" of connection "+oc.Name)
				w.gaps = appendGap(w.gaps, model.Gap{ResourceID: oc.ID, Kind: model.GapUnavailable,
					Detail: fmt.Sprintf("static route %s of connection %s sends %s to %s in %s; what is behind that address is not followed", sr.Name, oc.Name, w.dst, sr.NextHopIP, oc.RemoteVNetID.Name())})
				return "", false
			}
		}
	}
	if dest == nil {
		w.hop(c.SubnetID, r, "virtual hub "+hub.Name+" (destination not in a connected VNet)")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("%s sends %s to virtual hub %s, but no VNet connected to it that was read holds it (a branch, or another hub, is not followed)", routeLabel(*r), w.dst, hub.Name)})
		return "", false
	}
	if _, ok := w.crossPeering(c, r, p); !ok {
		return "", false
	}
	w.arriveIn(c, r, dest)
	return "", false
}

// hubPropagationCause explains a private destination the nodes have no
// route to when it lies in a VNet connected to the same virtual hub whose
// connection does not propagate to the route table the nodes' connection
// is associated with.
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
		if v == nil || !anyContains(v.AddressSpace, dst) || oc.PropagatesTo(assoc) {
			continue
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
	return Finding{}, false
}
