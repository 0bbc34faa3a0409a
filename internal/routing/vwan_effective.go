package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A Virtual WAN hub's effective routes (docs/design/azure-behaviour.md,
// "Effective routes of the hub"; model/vwan_effective.go): what the hub's
// router holds for its defaultRouteTable, which Azure reports like a NIC's
// effective route table. For a hub with a branch gateway, a path whose
// first hop, by the routes computed from configuration, uses the hub (the
// selected route is the hub's) or is dropped is checked against them: while
// they are pending the path needs them; when their read failed
// (model.IsCrossCheckRead) the hop computed from the hub's configuration
// stands and the pool gets a COVERAGE_ROUTES_COMPUTED note (the branch gap,
// vwan_branch.go, says what only they show). For a hub without one, only a
// path dropped on the way to a destination no read places (located) needs
// them, after the pending reads that may place it (wanPending): they are the
// only evidence of a route from a hub of the Virtual WAN the provider did
// not read, and their failure leaves the path unverified (unplacedGap).
// Where they select another next hop than the computed routes, the finding
// is COVERAGE_MODEL_DRIFT (drift.go) and the path follows what the hub
// really holds, as a trace from a NIC's effective routes does. No other
// path waits for them.

// hubUnreadNote is the COVERAGE_ROUTES_COMPUTED note of a path through hub
// whose effective routes could not be read (gap g on action): its routes
// were computed from its configuration, as a scale-set pool's subnet
// routes are; verify folds it into the pool's one note.
func hubUnreadNote(hub *model.VirtualHub, action model.ResourceID, g model.Gap) Finding {
	why, fix := hubEffectiveFailure(hub, action, g)
	msg := fmt.Sprintf("The effective routes of Virtual WAN hub %s (POST %s) could not be read: %s. The hub's routes were computed from its connections, route tables and routing intent by the documented rules, without that cross-check; no verdict depends on it.",
		hub.Name, action, why)
	return Finding{Code: model.CoverageRoutesComputed, Resource: action, Message: msg,
		Remediation: "Nothing to fix. To cross-check the hub's computed routes with what its router holds (differences show up as COVERAGE_MODEL_DRIFT), " + fix + "."}
}

// hubEffectiveFailure says, in words, why the read of hub's effective
// routes (gap g on action) failed, and what gets them read: the one
// wording of the cross-check note (hubUnreadNote) and of the branch gap
// (branchRoutes), for which they are the only evidence.
func hubEffectiveFailure(hub *model.VirtualHub, action model.ResourceID, g model.Gap) (why, fix string) {
	perm := g.Permission
	if perm == "" {
		perm = "Microsoft.Network/virtualHubs/effectiveRoutes/action"
	}
	switch {
	case g.Kind == model.GapPermissionDenied:
		return "the permission " + perm + " was refused",
			"grant " + perm + " on virtual hub " + hub.Name + " to the identity that runs the plan"
	case g.Snapshot && g.Kind == model.GapNotFound:
		return "the snapshot does not record them",
			"record the answer of POST " + string(action) + " in the snapshot (az network vhub get-effective-routes --resource-type RouteTable --resource-id " + string(hub.DefaultRouteTable()) + ")"
	case g.Kind == model.GapNotFound:
		return "Azure answered that they were not found", "run the plan again once the hub is provisioned"
	}
	why = "the read kept failing"
	if g.Detail != "" {
		why += " (" + g.Detail + ")"
	}
	return why, "run the plan again when Azure answers"
}

// hubFirstHop checks the first hop of a forward trace from c's subnet,
// whose computed selection is r (found false: no route), against the
// effective routes of the Virtual WAN hub the subnet's VNet is connected
// to. done is false when the computed selection stands (no hub, a path
// that does not use it, routes that agree, or an answer that describes the
// hub before a plan); otherwise the hop is decided here.
func (w *walker) hubFirstHop(c *Computed, r model.Route, found bool) (next model.ResourceID, ok, done bool) {
	net := w.e.net
	hub, conn := net.HubOfVNet(c.vnet.ID)
	if hub == nil || !hub.AssociatedTable(conn).Equal(hub.DefaultRouteTable()) ||
		(c.routeTable != nil && c.routeTable.DisableBGPRoutePropagation) {
		return "", false, false
	}
	if found && !r.OriginID.Equal(hub.ID) && !routeDrops(r, w.dst) {
		return "", false, false
	}
	if hub.RouterNotReady() {
		// Its effective routes describe a router that is not provisioned:
		// the computed routes stand, with hubRoutes' gap for it.
		return "", false, false
	}
	branch := hub.HasBranchGateway()
	if !branch {
		switch {
		case found && !routeDrops(r, w.dst):
			// The hub's route, and no branch gateway: its connections,
			// route tables, routing intent and the hubs of its Virtual
			// WAN decide what its router holds.
			return "", false, false
		case located(net, w.dst):
			// A destination in a VNet or hub the provider read: its
			// configuration decides the route to it (remoteAddressGap
			// waits for a remote VNet still pending, or names its gap).
			return "", false, false
		}
		if pend := wanPending(net); len(pend) > 0 {
			// Reads still pending may place the destination in a spoke of
			// a hub of the Virtual WAN: they come first, so that the
			// effective routes are read only for a destination no read
			// places.
			for _, ev := range pend {
				w.needs = model.AddNeed(w.needs, ev)
			}
			w.hop(c.SubnetID, routePtr(r, found), "virtual hub "+hub.Name+" (hubs of its Virtual WAN not read yet)")
			w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable,
				Detail: fmt.Sprintf("%s is in no VNet the provider has read, and hubs of the Virtual WAN of virtual hub %s that may connect it are not read yet", w.dst, hub.Name)})
			return "", false, true
		}
	}
	action := model.HubEffectiveRoutesAction(hub.ID)
	if ev := model.HubEffectiveRoutesOf(hub.ID); net.Pending.Has(ev) {
		w.needs = model.AddNeed(w.needs, ev)
		w.hop(c.SubnetID, routePtr(r, found), "virtual hub "+hub.Name+" (its effective routes are not read yet)")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: action, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("the effective routes of Virtual WAN hub %s are not read yet: what its router holds for %s is unknown", hub.Name, w.dst)})
		return "", false, true
	}
	eff := net.HubEffective(hub.ID)
	if eff == nil {
		if g, failed := net.Gaps.Lookup(action); failed {
			if !branch {
				// The only evidence of a route to a destination no read
				// places: a hub of the Virtual WAN the provider did not
				// read may hold it.
				w.hop(c.SubnetID, routePtr(r, found), "virtual hub "+hub.Name+" (its effective routes could not be read)")
				w.gaps = appendGap(w.gaps, unplacedGap(hub, action, w.dst, g))
				return "", false, true
			}
			if model.IsCrossCheckRead(action) {
				// A cross-check: the hop computed from the hub's
				// configuration stands, with a note that says so.
				w.findings = appendFinding(w.findings, hubUnreadNote(hub, action, g))
				return "", false, false
			}
			w.hop(c.SubnetID, routePtr(r, found), "virtual hub "+hub.Name+" (its effective routes could not be read)")
			w.gaps = appendGap(w.gaps, g)
			return "", false, true
		}
		// Not read: a plan changes the hub's routing, and Azure's answer
		// would describe the hub before it. The computed hop stands, except
		// for a destination no read places, which only they could show.
		if !branch && net.HubEffectiveStale(hub.ID) {
			w.hop(c.SubnetID, routePtr(r, found), "virtual hub "+hub.Name+" (its effective routes are not read under the plan)")
			w.gaps = appendGap(w.gaps, model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable,
				Detail:      fmt.Sprintf("%s is in no VNet the provider read, and virtual hub %s's routes computed from its planned configuration hold no route to it; a hub of its Virtual WAN that was not read may give it one, and the hub's effective routes, the only evidence of that, were not read: a planned change alters the hub's routing, and Azure's answer would describe the hub before it", w.dst, hub.Name),
				Remediation: "Verify again after the plan is applied, when the hub's effective routes describe it (az network vhub get-effective-routes --resource-type RouteTable --resource-id " + string(hub.DefaultRouteTable()) + "), or place the destination: the provider reads the VNets and hubs a registry endpoint or a DNS resolver names."})
			return "", false, true
		}
		return "", false, false
	}
	routes := make([]model.Route, 0, len(c.Routes()))
	for _, cr := range c.Routes() {
		if !cr.OriginID.Equal(hub.ID) {
			routes = append(routes, cr)
		}
	}
	routes = append(routes, hubEffectiveRoutes(net, hub, conn, c.vnet, eff)...)
	sel, selFound := NewTable(routes).Lookup(w.dst)
	d, drifted := compareSelections(sel, selFound, r, found, c, w.dst)
	if !drifted {
		return "", false, false
	}
	if !branch {
		// The evidence of a destination no read places, not a
		// cross-check: a route the computed routes lack comes from what
		// the provider did not read (a hub of the Virtual WAN), which is
		// no drift. The path follows it.
		next, ok = w.follow(c, &sel, w.diagnoseDrop)
		return next, ok, true
	}
	df := d.finding(eff.TableID, "the effective routes of "+eff.TableID.Label(),
		"the path follows what the hub's router holds; verdicts of other paths through the hub, computed from its configuration, may be wrong")
	df.Remediation = "Find what the configuration misses: compare the hub's effective routes (az network vhub get-effective-routes --resource-type RouteTable) with the connections' associated and propagated route tables, the route tables' static routes and the routing intent. Typical causes are a connection, route table or routing intent the provider could not read, routes from branches or other hubs, or a change Azure has not finished programming."
	w.findings = appendFinding(w.findings, df)
	if !selFound || routeDrops(sel, w.dst) {
		w.hop(c.SubnetID, routePtr(sel, selFound), "dropped (effective routes of virtual hub "+hub.Name+")")
		f := newFinding(model.RouteBlackhole, eff.TableID, c.SubnetID, routePtr(sel, selFound),
			"the effective routes of %s hold no route to %s for %s (the configuration of virtual hub %s would select %s), so subnet %s selects %s and Azure drops the packet.",
			eff.TableID.Label(), w.dst, conn.Name, hub.Name, DescribeSelection(r, found), SubnetLabel(c.SubnetID), DescribeSelection(sel, selFound))
		f.Remediation = "Find out why the hub's router does not hold the route: compare the hub's effective routes (az network vhub get-effective-routes --resource-type RouteTable) with the connections' propagation, the route tables and the routing intent, and finish or re-apply the change that should carry the destination." + timeoutNote
		w.fail(f)
		return "", false, true
	}
	next, ok = w.follow(c, &sel, w.diagnoseDrop)
	return next, ok, true
}

// hubEffectiveRoutes turns a hub route table's effective routes into the
// routes a VNet connected by conn gets, as hubRoutes gives the computed
// ones: next hop the hub's router, or its Azure Firewall's address for a
// route to the firewall; never the VNet's own prefixes; a 0.0.0.0/0 route
// only with enableInternetSecurity.
func hubEffectiveRoutes(net *model.Network, hub *model.VirtualHub, conn *model.HubConnection, vnet *model.VNet, eff *model.HubEffectiveRoutes) []model.Route {
	router := hub.RouterIP()
	fwIP, fwKnown := hubFirewallIP(net, hub)
	var out []model.Route
	seen := map[netip.Prefix]bool{}
	for _, er := range eff.Routes {
		// The hub's router may have no address read (a hub without
		// virtualRouterIps): its routes still go to the hub, as the
		// computed ones do; only a route to a firewall whose address is
		// unknown has nothing to compare.
		nh, via, skip := router, er.NextHopType, false
		for _, id := range er.NextHops {
			via = er.NextHopType + " " + id.Name()
			if !hub.FirewallID.IsZero() && id.Equal(hub.FirewallID) {
				if !fwKnown {
					skip = true
				} else {
					nh = fwIP
				}
			}
			break
		}
		if strings.TrimSpace(via) == "" {
			via = "an unnamed next hop"
		}
		if skip {
			continue
		}
		for _, p := range er.Prefixes {
			p = p.Masked()
			if !p.IsValid() || seen[p] || coveredBySpace(vnet.AddressSpace, p) || len(inFamilies([]netip.Prefix{p}, vnet.AddressSpace)) == 0 {
				continue
			}
			if p.Bits() == 0 && !conn.EnableInternetSecurity {
				continue
			}
			seen[p] = true
			out = append(out, model.Route{
				Prefix: p, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: nh,
				Source: model.RouteSourceGateway, State: model.RouteStateActive,
				Origin: fmt.Sprintf("effective route of virtual hub %s route table %s, next hop %s", hub.Name, eff.TableID.Name(), strings.TrimSpace(via)), OriginID: hub.ID,
			})
		}
	}
	return out
}

// located reports whether a read places dst where the configuration
// decides the route to it (placedVNet), or in the address space of a
// virtual hub whose connections were read, or at a remote destination (a
// registry private endpoint's, a DNS private resolver inbound endpoint's)
// whose VNet and hub are read when a path needs them (remoteAddressGap
// waits for them or names their gap). A hub without a branch gateway holds
// no route to such a destination that the routes computed from
// configuration miss.
func located(net *model.Network, dst netip.Addr) bool {
	dst = dst.Unmap()
	if _, ok := net.RemoteAddresses[dst]; ok {
		return true
	}
	for _, v := range net.VNets {
		for _, p := range v.AddressSpace {
			if p.Contains(dst) && placedVNet(net, v) {
				return true
			}
		}
	}
	for _, h := range net.VirtualHubs {
		if h.ConnectionsKnown && h.AddressPrefix.IsValid() && h.AddressPrefix.Contains(dst) {
			return true
		}
	}
	return false
}

// placedVNet reports whether what decides a route from a virtual hub to v
// was read: v is connected to a hub whose connections were read, or v is
// peered with no hub's VNet and each of its peers is a VNet the provider
// read that is connected to such a hub or peered with no hub's VNet either
// (a hub reaches v only through a static route of a peer's connection,
// "Scenario: Route traffic through an NVA", which is then read). A VNet
// peered with a peer the provider did not read, or with the VNet of a hub
// it did not read, may be a spoke, direct or behind an appliance, of a hub
// of the Virtual WAN that was not read.
func placedVNet(net *model.Network, v *model.VNet) bool {
	if h, _ := net.HubOfVNet(v.ID); h != nil {
		return true
	}
	noHubPeering := func(v *model.VNet) bool {
		for _, p := range v.Peerings {
			if model.IsHubVNet(p.RemoteVNetID) || net.HubByVNet(p.RemoteVNetID) != nil {
				return false
			}
		}
		return true
	}
	if !noHubPeering(v) {
		return false
	}
	for _, p := range v.Peerings {
		pv := net.VNet(p.RemoteVNetID)
		if pv == nil {
			return false
		}
		if h, _ := net.HubOfVNet(pv.ID); h == nil && !noHubPeering(pv) {
			return false
		}
	}
	return true
}

// wanPending is the pending evidence that adds hubs of a Virtual WAN and
// their spokes to the network (a remote VNet and its hub, the hub of a
// VNet peered with the nodes'), in key order.
func wanPending(net *model.Network) []model.Evidence {
	var out []model.Evidence
	for _, ev := range net.Pending.Sorted() {
		if ev.Kind == model.EvidenceRemoteHub || ev.Kind == model.EvidencePeerHub {
			out = append(out, ev)
		}
	}
	return out
}

// unplacedGap is the gap of a path from a VNet connected to hub, which has
// no branch gateway, to dst, which no read places, when the hub's effective
// routes (action), the only evidence of a route another hub of its
// Virtual WAN gives it, could not be read (gap g). It is about the hub,
// not the read: the read's failure is why the route is unknown.
func unplacedGap(hub *model.VirtualHub, action model.ResourceID, dst netip.Addr, g model.Gap) model.Gap {
	why, fix := hubEffectiveFailure(hub, action, g)
	return model.Gap{ResourceID: hub.ID, Kind: model.GapUnavailable,
		Detail:      fmt.Sprintf("%s is in no VNet the provider read, and virtual hub %s's routes computed from its configuration hold no route to it; a hub of its Virtual WAN that was not read may give it one, and the hub's effective routes (POST %s), the only evidence of that, could not be read: %s", dst, hub.Name, action, why),
		Remediation: "Let the provider read the hub's effective routes: " + fix + ". By hand: az network vhub get-effective-routes --resource-type RouteTable --resource-id " + string(hub.DefaultRouteTable()) + ", and look for a route to " + dst.String() + "."}
}
