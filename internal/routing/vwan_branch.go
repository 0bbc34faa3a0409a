package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Branches behind a virtual hub ("About virtual hub routing"): a hub's
// site-to-site VPN and ExpressRoute gateways learn the branches' prefixes
// over BGP and their connections propagate them (to defaultRouteTable
// unless configured otherwise); a 0.0.0.0/0 reaches only connections with
// enableInternetSecurity. Which prefixes a branch advertises is not in any
// resource's configuration: the hub's effective routes show them, and are
// here the only evidence (not a cross-check, vwan_effective.go).
//
// For a VNet whose connection is associated with defaultRouteTable (the one
// table the provider reads), a destination a branch route could take is a
// gap naming the gateway while the effective routes are pending (the path
// needs them: branchNeed) or could not be read; once read, the gap gives
// way to the branch routes they hold, next hop the hub's router. A
// connection associated with a custom route table keeps the gap. A packet a
// branch route takes leaves Azure toward that branch (viaBranch): what the
// branch network does with it cannot be read, so the path is unverified,
// naming the gateway, never reachable.

// hubBranchGateway is one of a hub's branch gateways.
type hubBranchGateway struct {
	id   model.ResourceID
	kind string
}

// branchGateways are the hub's site-to-site VPN and ExpressRoute gateways.
func branchGateways(hub *model.VirtualHub) []hubBranchGateway {
	var out []hubBranchGateway
	for _, gw := range []hubBranchGateway{{hub.VPNGatewayID, "site-to-site VPN gateway"}, {hub.ExpressRouteGatewayID, "ExpressRoute gateway"}} {
		if !gw.id.IsZero() {
			out = append(out, gw)
		}
	}
	return out
}

// branchGatewayOf says which of the hub's branch gateways an effective
// route comes from: its next hop or origin is the gateway, or its next hop
// type names a VPN or ExpressRoute gateway (an open set of strings:
// "VPN_S2S_Gateway", "ExpressRouteGateway", …).
func branchGatewayOf(hub *model.VirtualHub, er model.HubEffectiveRoute) (hubBranchGateway, bool) {
	gws := branchGateways(hub)
	for _, gw := range gws {
		if model.ResourceID(er.Origin).Equal(gw.id) {
			return gw, true
		}
		for _, id := range er.NextHops {
			if id.Equal(gw.id) {
				return gw, true
			}
		}
	}
	t := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(er.NextHopType))
	for _, gw := range gws {
		switch {
		case gw.id.Equal(hub.VPNGatewayID) && strings.Contains(t, "vpn") && !strings.Contains(t, "p2s"):
			return gw, true
		case gw.id.Equal(hub.ExpressRouteGatewayID) && strings.Contains(t, "expressroute"):
			return gw, true
		}
	}
	return hubBranchGateway{}, false
}

// branchPrefix is a prefix of the hub's effective routes that a branch
// gateway learned.
type branchPrefix struct {
	prefix netip.Prefix
	gw     hubBranchGateway
}

// hubBranchPrefixes are the branch prefixes of the hub's effective routes
// that a VNet connected by conn gets (never inside its own space; a
// 0.0.0.0/0 only with enableInternetSecurity).
func hubBranchPrefixes(hub *model.VirtualHub, conn *model.HubConnection, vnet *model.VNet, eff *model.HubEffectiveRoutes) []branchPrefix {
	var out []branchPrefix
	for _, er := range eff.Routes {
		gw, ok := branchGatewayOf(hub, er)
		if !ok || toHubFirewall(hub, er) {
			// A branch prefix a routing policy sends through the hub's
			// firewall is the firewall's route (hubEffectiveRoutes).
			continue
		}
		for _, p := range er.Prefixes {
			p = p.Masked()
			if !p.IsValid() || coveredBySpace(vnet.AddressSpace, p) || len(inFamilies([]netip.Prefix{p}, vnet.AddressSpace)) == 0 {
				continue
			}
			if p.Bits() == 0 && !conn.EnableInternetSecurity {
				continue
			}
			out = append(out, branchPrefix{p, gw})
		}
	}
	return out
}

// branchRoutes are the branch routes hub programs into a VNet connected by
// conn, from its effective routes, and the gaps of what they cannot show:
// the routes are known only when the connection is associated with
// defaultRouteTable and those were read. add programs a route with the
// hub's router as next hop (hubRoutes' add).
func branchRoutes(net *model.Network, hub *model.VirtualHub, conn *model.HubConnection, vnet *model.VNet, router netip.Addr, add func(netip.Prefix, netip.Addr, string)) []scopedGap {
	gws := branchGateways(hub)
	if len(gws) == 0 {
		return nil
	}
	assoc := hub.AssociatedTable(conn)
	if assoc.Equal(hub.DefaultRouteTable()) {
		if eff := net.HubEffective(hub.ID); eff != nil {
			for _, bp := range hubBranchPrefixes(hub, conn, vnet, eff) {
				add(bp.prefix, router, fmt.Sprintf("virtual hub %s route table %s, branch route of %s %s (effective routes)", hub.Name, eff.TableID.Name(), bp.gw.kind, bp.gw.id.Name()))
			}
			return nil
		}
	}
	var why string
	action := model.HubEffectiveRoutesAction(hub.ID)
	switch {
	case !assoc.Equal(hub.DefaultRouteTable()):
		why = fmt.Sprintf("connection %s is associated with route table %s, and the provider reads the effective routes of defaultRouteTable only", conn.Name, assoc.Name())
	case net.Pending.Has(model.HubEffectiveRoutesOf(hub.ID)):
		why = "the hub's effective routes are not read yet"
	default:
		if g, failed := net.Gaps.Lookup(action); failed {
			failure, _ := hubEffectiveFailure(hub, action, g)
			why = fmt.Sprintf("the hub's effective routes (POST %s), the only evidence of them, could not be read: %s", action, failure)
		} else {
			why = "the hub's effective routes were not read: a planned change alters the hub's routing, and Azure's answer would describe the hub before it"
		}
	}
	var gaps []scopedGap
	for _, gw := range gws {
		detail := fmt.Sprintf("virtual hub %s has %s %s: the branch prefixes it learns over BGP, which its connections propagate (to defaultRouteTable unless configured otherwise) into %s, are not in Azure Resource Manager configuration, and %s", hub.Name, gw.kind, gw.id.Name(), conn.Name, why)
		if conn.EnableInternetSecurity {
			detail += " (a branch's 0.0.0.0/0 included: connection " + conn.Name + " has enableInternetSecurity)"
		}
		// Not even where the route selected is already the hub's router:
		// the hub forwards by its own table, where a branch prefix more
		// specific than a connected VNet's takes the destination.
		gaps = append(gaps, scopedGap{
			gap: model.Gap{ResourceID: gw.id, Kind: model.GapUnavailable, Detail: detail,
				Remediation: fmt.Sprintf("Let the provider read the effective routes of virtual hub %s (Microsoft.Network/virtualHubs/effectiveRoutes/action on the hub; in a snapshot, record them): they show the branch prefixes and decide these paths. By hand: az network vhub get-effective-routes --resource-type RouteTable --resource-id %s, and check that no branch prefix covers the registry's addresses. Nothing on the pull path needs to change for this finding.", hub.Name, hub.DefaultRouteTable())},
			bgpOnly: true,
		})
	}
	return gaps
}

// branchNeed makes a hop whose gaps include a branch gateway's of the hub
// c's VNet is connected to (associated with defaultRouteTable) need the
// hub's effective routes while they are pending: they replace the gap.
func (w *walker) branchNeed(c *Computed, gaps []model.Gap) {
	net := w.e.net
	hub, conn := net.HubOfVNet(c.vnet.ID)
	if hub == nil || !hub.AssociatedTable(conn).Equal(hub.DefaultRouteTable()) {
		return
	}
	ev := model.HubEffectiveRoutesOf(hub.ID)
	if !net.Pending.Has(ev) {
		return
	}
	for _, g := range gaps {
		for _, gw := range branchGateways(hub) {
			if g.ResourceID.Equal(gw.id) {
				w.needs = model.AddNeed(w.needs, ev)
				return
			}
		}
	}
}

// viaBranch follows a hub route that is a branch prefix of the hub's
// effective routes: the packet leaves Azure through the hub's gateway
// toward a branch. What the branch network does with it, and whether it
// routes the replies back, is not in Azure Resource Manager: the path is
// unverified, naming the gateway. It reports whether r was such a route.
func (w *walker) viaBranch(c *Computed, r *model.Route, hub *model.VirtualHub) bool {
	net := w.e.net
	eff := net.HubEffective(hub.ID)
	if eff == nil || !r.OriginID.Equal(hub.ID) {
		return false
	}
	_, conn := net.HubOfVNet(c.vnet.ID)
	if conn == nil || !hub.AssociatedTable(conn).Equal(hub.DefaultRouteTable()) {
		return false
	}
	for _, bp := range hubBranchPrefixes(hub, conn, c.vnet, eff) {
		if bp.prefix != r.Prefix.Masked() {
			continue
		}
		// As for an on-premises destination behind a gateway: the packet
		// leaves Azure there, and the return path is judged
		// (returnFromBranch).
		w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalOnPremises, GatewayID: bp.gw.id,
			Label: fmt.Sprintf("a branch through %s %s of virtual hub %s", bp.gw.kind, bp.gw.id.Name(), hub.Name)})
		return true
	}
	return false
}

// toHubFirewall reports whether an effective route's next hop is the hub's
// Azure Firewall.
func toHubFirewall(hub *model.VirtualHub, er model.HubEffectiveRoute) bool {
	for _, id := range er.NextHops {
		if !hub.FirewallID.IsZero() && id.Equal(hub.FirewallID) {
			return true
		}
	}
	return false
}

// returnFromBranch judges the return path of a flow a branch route of a
// virtual hub took (viaBranch): whether the branch network delivers it to
// the destination and routes the replies back to the nodes cannot be read
// from Azure Resource Manager (a hub gateway's advertised routes are not
// read), so the path is unverified, naming the gateway. It reports whether
// the arrival was through a hub's branch gateway.
func (e *Engine) returnFromBranch(res *Result, nodePrefixes []netip.Prefix) bool {
	for _, hub := range e.net.VirtualHubs {
		for _, gw := range branchGateways(hub) {
			if !gw.id.Equal(res.Arrival.GatewayID) {
				continue
			}
			route := "a branch route"
			if n := len(res.Hops); n > 0 && res.Hops[n-1].HasRoute {
				route = routeLabel(res.Hops[n-1].Route)
			}
			f := newFinding(model.ReturnRouteUnverified, gw.id, res.From, nil,
				"%s takes %s out of Azure toward a branch behind %s %s of virtual hub %s; whether the branch network delivers it, and routes %s back through the hub, cannot be read from Azure Resource Manager.",
				route, res.Destination, gw.kind, gw.id.Name(), hub.Name, prefixList(nodePrefixes))
			f.Remediation = fmt.Sprintf("Check with the network team which branch advertises the prefix to %s %s and whether it should: if %s is in Azure, the branch's advertisement takes it away from there (withdraw or narrow it); if it is behind the branch, confirm there that it is reachable and that %s is routed back.", gw.kind, gw.id.Name(), res.Destination, prefixList(nodePrefixes))
			res.Findings = appendFinding(res.Findings, f)
			res.Return = ReturnPath{Checked: true, Verdict: model.Unverified, Note: f.Message}
			return true
		}
	}
	return false
}

// peerHubNeed: c's VNet is peered with a Virtual WAN hub's VNet whose hub
// is pending (model.EvidencePeerHub: an NVA VNet beyond the node VNets,
// "Scenario: Route traffic through an NVA"); where the hop's selection
// depends on the routes that hub programs (a gap about the hub VNet among
// gaps), the path needs it read.
func (w *walker) peerHubNeed(c *Computed, gaps []model.Gap) {
	ev := model.PeerHubOf(c.vnet.ID)
	if !w.e.net.Pending.Has(ev) {
		return
	}
	for _, g := range gaps {
		if model.IsHubVNet(g.ResourceID) {
			w.needs = model.AddNeed(w.needs, ev)
			return
		}
	}
}
