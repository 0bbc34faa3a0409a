package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// diagnoseDrop explains a packet dropped by the selected route (next hop
// None, or Internet for a private address) with the most specific cause,
// one finding per cause (docs/design/findings.md): a UDR that drops it on purpose; an
// invalid UDR that should have carried it; a hub gateway whose routes do
// not reach the subnet (transit missing, BGP propagation disabled); a
// peering that is not connected, denies access or is not synced; a VNet
// peered only with a VNet the nodes are peered with (not transitive); and
// only then the plain blackhole.
func (w *walker) diagnoseDrop(c *Computed, r *model.Route) {
	if f, ok := w.dropCause(c, r); ok {
		w.fail(f)
	}
}

func (w *walker) dropCause(c *Computed, r *model.Route) (Finding, bool) {
	net, dst, sub := w.e.net, w.dst, c.SubnetID
	verb := "drops"
	if strings.EqualFold(r.NextHopType, model.NextHopInternet) {
		verb = "sends to the Internet, where a private address is unreachable,"
	}

	if isUserRoute(r) && strings.EqualFold(r.NextHopType, model.NextHopNone) {
		msg := fmt.Sprintf("%s %s traffic to %s.", routeLabel(*r), verb, dst)
		if pe, ok := invalidatedEndpointRoute(c, dst); ok {
			msg += fmt.Sprintf(" The private endpoint route %s would have carried it, but the UDR invalidates it: %s.", pe.Prefix, pe.Origin)
		}
		return newFinding(model.RouteBlackhole, r.OriginID, sub, r, "%s", msg), true
	}

	if u, ok := invalidUDRFor(c, dst, r); ok {
		if f, ok := w.transitCause(c, r, true); ok {
			return f, true
		}
		return newFinding(model.RouteInvalid, u.OriginID, sub, &u,
			"%s is Invalid for subnet %s (%s), so traffic to %s falls to %s and is dropped.", routeLabel(u), SubnetLabel(sub), invalidReason(u), dst, routeLabel(*r)), true
	}

	if f, ok := w.transitCause(c, r, false); ok {
		return f, true
	}

	for _, g := range c.Suppressed {
		if g.Prefix.Contains(dst) {
			uncovered := "no UDR covers it"
			if u, ok := broaderUDRFor(c, dst, r); ok {
				// A forced-tunnelling 0.0.0.0/0 UDR looks as if it covered
				// the destination; longest prefix match says otherwise.
				uncovered = fmt.Sprintf("no UDR as specific as %s covers it (%s is less specific and loses by longest prefix match)", r.Prefix, routeLabel(u))
			}
			return newFinding(model.RouteBGPPropagationDisabled, c.routeTable.ID, sub, r,
				"gateway route %s (%s) would carry %s, but route table %s of subnet %s disables BGP route propagation and %s, so %s %s it.",
				g.Prefix, g.Origin, dst, c.routeTable.Name, SubnetLabel(sub), uncovered, routeLabel(*r), verb), true
		}
	}

	if f, ok := hubPropagationCause(net, c, r, dst, verb); ok {
		return f, true
	}
	if f, g, ok := interHubPropagationCause(net, c, r, dst, verb); ok {
		if g != nil {
			w.gaps = appendGap(w.gaps, *g)
			w.uncertain = true
		}
		return f, true
	}

	if f, ok := peeringCause(net, c, r, dst); ok {
		return f, true
	}

	if f, ok := transitivityCause(net, c, r, dst, verb); ok {
		return f, true
	}

	return newFinding(model.RouteBlackhole, resourceToRoute(c), sub, r,
		"%s %s traffic to %s: no peering, gateway route or UDR of subnet %s carries it.", routeLabel(*r), verb, dst, SubnetLabel(sub)), true
}

// transitCause finds a gateway whose routes cover dst but do not reach the
// subnet: the spoke peering lacks useRemoteGateways or the hub peering
// allowGatewayTransit (or the peering to the hub is not connected, the more
// basic cause). forUDR: a UDR to VirtualNetworkGateway is Invalid for the
// same reason, so any gateway beyond a peering counts.
func (w *walker) transitCause(c *Computed, r *model.Route, forUDR bool) (Finding, bool) {
	net, dst := w.e.net, w.dst
	for _, l := range c.links {
		if l.reaches || l.peering == nil {
			continue
		}
		gwe := w.e.gateways.get(net, l.gw)
		covered, known := gwe.covers(dst)
		if !covered && !forUDR {
			if !known {
				for _, g := range gwe.gaps {
					w.gaps = appendGap(w.gaps, g.gap)
				}
			}
			continue
		}
		p, hub := l.peering, l.peering.RemoteVNetID.Name()
		if l.reverse == nil && net.VNet(p.RemoteVNetID) == nil {
			continue // the hub was not read: a gap, not a finding
		}
		if !p.Connected() {
			return notConnected(c, r, p, dst), true
		}
		var missing []string
		resource := p.ID
		if !p.UseRemoteGateways {
			missing = append(missing, fmt.Sprintf("the spoke peering %s does not use remote gateways", p.Name))
		}
		switch {
		case l.reverse == nil:
			missing = append(missing, "the hub side of the peering is missing")
		case !l.reverse.AllowGatewayTransit:
			missing = append(missing, fmt.Sprintf("the hub peering %s does not allow gateway transit", l.reverse.Name))
			if p.UseRemoteGateways {
				resource = l.reverse.ID
			}
		}
		msg := fmt.Sprintf("%s is behind gateway %s in %s, but its routes do not reach subnet %s: %s; so %s drops it.",
			dst, l.gw.Name, hub, SubnetLabel(c.SubnetID), strings.Join(missing, " and "), routeLabel(*r))
		if c.routeTable != nil && c.routeTable.DisableBGPRoutePropagation {
			msg += fmt.Sprintf(" Route table %s also disables BGP route propagation, which must be enabled as well.", c.routeTable.Name)
		}
		return newFinding(model.RouteGatewayTransitMissing, resource, c.SubnetID, r, "%s", msg), true
	}
	return Finding{}, false
}

// peeringCause finds a peering of the subnet's VNet towards a space holding
// dst that Azure does not route over: not Connected, access denied, a
// subnet peering that does not connect the node subnet or the destination's
// subnet, or the address not yet synced.
func peeringCause(net *model.Network, c *Computed, r *model.Route, dst netip.Addr) (Finding, bool) {
	for _, p := range c.vnet.Peerings {
		if !anyContains(syncedSpace(p), dst) && !anyContains(currentSpace(net, p), dst) {
			continue
		}
		switch {
		case !p.Connected():
			return notConnected(c, r, p, dst), true
		case !p.AllowVirtualNetworkAccess:
			return accessDisabled(c, r, p, c.vnet.Name, p.RemoteVNetID.Name()), true
		}
		if f, ok := peeringReachCause(net, c, r, p, dst, "so "+routeLabel(*r)+" drops it"); ok {
			return f, true
		}
	}
	return Finding{}, false
}

// peeringReachCause explains why peering p of the subnet's VNet, Connected
// and with access allowed, does not carry a, an address in the remote VNet's
// space: the peering is a subnet peering that does not connect the node
// subnet, or that does not reach the remote subnet holding a; or it has not
// synced the remote space holding a. consequence ends the message ("so …
// drops it"). ok is false when the peering carries a.
func peeringReachCause(net *model.Network, c *Computed, r *model.Route, p *model.Peering, a netip.Addr, consequence string) (Finding, bool) {
	if !p.ConnectsLocalSubnet(c.subnet.Name) {
		return newFinding(model.RoutePeeringSubnetExcluded, p.ID, c.SubnetID, r,
			"the path to %s needs peering %s from %s to %s, a subnet peering (peerCompleteVnets false) that connects only subnets %s of %s; subnet %s is not among them, %s.",
			a, p.Name, c.vnet.Name, p.RemoteVNetID.Name(), nameList(p.LocalSubnetNames), c.vnet.Name, c.subnet.Name, consequence), true
	}
	if anyContains(syncedSpace(p), a) {
		return Finding{}, false
	}
	if p.SubnetsOnly {
		name := remoteSubnetName(net, p, a)
		switch {
		case name == "":
			return newFinding(model.RoutePeeringSubnetExcluded, p.ID, c.SubnetID, r,
				"%s is in %s's address space (%s), but peering %s is a subnet peering (peerCompleteVnets false) that reaches only subnets %s there (%s), and no subnet it names holds %s, %s.",
				a, p.RemoteVNetID.Name(), prefixList(currentSpace(net, p)), p.Name, nameList(p.RemoteSubnetNames), prefixList(syncedSpace(p)), a, consequence), true
		case !p.ConnectsRemoteSubnet(name):
			return newFinding(model.RoutePeeringSubnetExcluded, p.ID, c.SubnetID, r,
				"%s is in subnet %s of %s, but peering %s is a subnet peering (peerCompleteVnets false) that reaches only subnets %s there (%s), %s.",
				a, name, p.RemoteVNetID.Name(), p.Name, nameList(p.RemoteSubnetNames), prefixList(syncedSpace(p)), consequence), true
		}
	}
	return newFinding(model.RoutePeeringNotSynced, p.ID, c.SubnetID, r,
		"%s is in %s's address space (%s), but peering %s has synced only %s (peeringSyncLevel %s): Azure programs routes only for synced space, %s.",
		a, p.RemoteVNetID.Name(), prefixList(currentSpace(net, p)), p.Name, prefixList(syncedSpace(p)), syncLevel(p), consequence), true
}

// syncLevel is the peering's peeringSyncLevel, or "unknown".
func syncLevel(p *model.Peering) string {
	if p.SyncLevel == "" {
		return "unknown"
	}
	return p.SyncLevel
}

// nameList is "a, b", or "none".
func nameList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// transitivityCause: dst is in a VNet that is peered with a VNet the nodes
// are peered with, but not with the nodes' VNet. Peering is not transitive.
func transitivityCause(net *model.Network, c *Computed, r *model.Route, dst netip.Addr, verb string) (Finding, bool) {
	target := vnetHolding(net, dst, c.vnet.ID)
	if target == nil {
		return Finding{}, false
	}
	for _, p := range c.vnet.Peerings {
		if !peeringRoutesUsable(p) {
			continue
		}
		middle := net.VNet(p.RemoteVNetID)
		if middle == nil || middle.ID.Equal(target.ID) {
			continue
		}
		if middle.PeeringTo(target.ID) != nil {
			return newFinding(model.RouteNotTransitive, resourceToRoute(c), c.SubnetID, r,
				"%s is in %s, which is peered with %s but not with %s; peering is not transitive and no UDR sends the traffic through an appliance in %s, so %s %s it.",
				dst, target.Name, middle.Name, c.vnet.Name, middle.Name, routeLabel(*r), verb), true
		}
	}
	return newFinding(model.RouteBlackhole, resourceToRoute(c), c.SubnetID, r,
		"%s is in %s (%s), which is not peered with %s, so %s %s it.", dst, target.Name, prefixList(target.AddressSpace), c.vnet.Name, routeLabel(*r), verb), true
}

// vnetHolding is a known VNet other than except whose space contains dst.
func vnetHolding(net *model.Network, dst netip.Addr, except model.ResourceID) *model.VNet {
	for _, k := range sortedKeys(net.VNets) {
		v := net.VNets[k]
		if !v.ID.Equal(except) && anyContains(v.AddressSpace, dst) {
			return v
		}
	}
	return nil
}

func notConnected(c *Computed, r *model.Route, p *model.Peering, dst netip.Addr) Finding {
	state := p.State
	if state == "" {
		state = "unknown"
	}
	return newFinding(model.RoutePeeringNotConnected, p.ID, c.SubnetID, r,
		"the path to %s needs peering %s from %s to %s (%s), which is %s: both sides must exist and be Connected (Initiated means the other side is missing).",
		dst, p.Name, c.vnet.Name, p.RemoteVNetID.Name(), prefixList(syncedSpace(p)), state)
}

// remoteSideNotConnected: this side is Connected, the remote side is
// missing or not Connected; the remote side is what to fix.
func remoteSideNotConnected(c *Computed, r *model.Route, p, reverse *model.Peering, remote *model.VNet, dst netip.Addr) Finding {
	if reverse == nil {
		return newFinding(model.RoutePeeringNotConnected, p.ID, c.SubnetID, r,
			"the path to %s needs peering %s from %s to %s, but %s has no peering back to %s: both sides must exist and be Connected.",
			dst, p.Name, c.vnet.Name, remote.Name, remote.Name, c.vnet.Name)
	}
	return newFinding(model.RoutePeeringNotConnected, reverse.ID, c.SubnetID, r,
		"the path to %s needs the peering between %s and %s, whose %s side %s is %s: both sides must be Connected.",
		dst, c.vnet.Name, remote.Name, remote.Name, reverse.Name, reverse.State)
}

func accessDisabled(c *Computed, r *model.Route, p *model.Peering, from, to string) Finding {
	return newFinding(model.RoutePeeringAccessDisabled, p.ID, c.SubnetID, r,
		"the path needs peering %s (%s → %s), which has allowVirtualNetworkAccess false.", p.Name, from, to)
}

// invalidatedEndpointRoute is an Invalid private endpoint /32 for dst.
func invalidatedEndpointRoute(c *Computed, dst netip.Addr) (model.Route, bool) {
	for _, r := range c.Table.own { // never a gateway's route
		if strings.EqualFold(r.NextHopType, model.NextHopInterfaceEndpoint) && !isActive(&r) && r.Prefix.Contains(dst) {
			return r, true
		}
	}
	return model.Route{}, false
}

// invalidUDRFor is the most specific Invalid UDR for dst that is more
// specific than the selected route and is not merely overridden by a UDR of
// the same prefix: a route the operator meant to carry the traffic.
func invalidUDRFor(c *Computed, dst netip.Addr, selected *model.Route) (model.Route, bool) {
	var best model.Route
	found := false
	for _, u := range c.Table.own { // never a gateway's route
		if !isUserRoute(&u) || isActive(&u) || !u.Prefix.IsValid() || !u.Prefix.Contains(dst) || u.Prefix.Bits() < selected.Prefix.Bits() {
			continue
		}
		if !found || u.Prefix.Bits() > best.Prefix.Bits() {
			best, found = u, true
		}
	}
	return best, found
}

// broaderUDRFor is the most specific active UDR that contains dst but is
// less specific than the selected route, so that the selected route wins
// over it by longest prefix match.
func broaderUDRFor(c *Computed, dst netip.Addr, selected *model.Route) (model.Route, bool) {
	var best model.Route
	found := false
	// UDRs are the table's own routes, never in a shared gateway block.
	for _, u := range c.Table.own {
		if !isUserRoute(&u) || !isActive(&u) || !u.Prefix.IsValid() || !u.Prefix.Contains(dst) || u.Prefix.Bits() >= selected.Prefix.Bits() {
			continue
		}
		if !found || u.Prefix.Bits() > best.Prefix.Bits() {
			best, found = u, true
		}
	}
	return best, found
}

func invalidReason(u model.Route) string {
	if strings.EqualFold(u.NextHopType, model.NextHopVirtualNetworkGateway) {
		return "no virtual network gateway reaches this VNet"
	}
	return "Azure marks it Invalid"
}

func isUserRoute(r *model.Route) bool { return strings.EqualFold(r.Source, model.RouteSourceUser) }
