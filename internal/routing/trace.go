package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Result is the outcome of tracing one destination from a node subnet.
type Result struct {
	From        model.ResourceID
	Source      netip.Addr
	Destination netip.Addr
	// Verdict covers the forward and the return path.
	Verdict model.Verdict
	// Hops are the forward path, one per subnet that routed the packet.
	Hops    []Hop
	Arrival Arrival
	// Appliances are the virtual appliances the forward path crossed.
	Appliances []Appliance
	// Findings of the forward and the return path, one per cause.
	Findings []Finding
	// Gaps are the missing facts the conclusion depends on.
	Gaps []model.Gap
	// Suspected are findings that hold only if the missing evidence does
	// not change the route (a drop selected while a gap could supply a
	// better route): worth showing, never counted in the verdict.
	Suspected []Finding
	Return    ReturnPath
	// Needs is the pending evidence (model.Network.Pending) the forward or
	// the return path reached: the conclusion is unverified until gather
	// reads it and the flow is traced again.
	Needs []model.Evidence
	// Effective is true when the first hop selected from a NIC's real
	// effective route table (TraceEffective); Drift is set when the
	// routes computed from configuration select another next hop there.
	Effective bool
	Drift     *Drift

	// fwd keeps the forward path's conclusions when the return path was
	// checked (ReturnWithNAT judges it again).
	fwd *forwardPart
}

// Path is the forward path as text, one string per hop.
func (r Result) Path() []string {
	out := make([]string, len(r.Hops))
	for i, h := range r.Hops {
		out[i] = h.Text
	}
	return out
}

// Hop is one routing decision: the subnet that routed the packet, the
// route it selected and where that led.
type Hop struct {
	SubnetID model.ResourceID
	// Route is the selected route; HasRoute is false when none matched or
	// the subnet's routes could not be computed.
	Route    model.Route
	HasRoute bool
	Text     string
	// Steps are the hop as data (the peering the route crosses, if any,
	// then where it leads), for consumers that must not parse Text.
	Steps []model.Hop
}

// ArrivalKind says where a path ended.
type ArrivalKind string

// Arrival kinds; ArrivalNone means the packet was dropped or the path
// could not be followed.
const (
	ArrivalNone            ArrivalKind = ""
	ArrivalSubnet          ArrivalKind = "subnet"
	ArrivalNIC             ArrivalKind = "network_interface"
	ArrivalPrivateEndpoint ArrivalKind = "private_endpoint"
	ArrivalOnPremises      ArrivalKind = "on_premises"
	ArrivalInternet        ArrivalKind = "internet"
	ArrivalServiceEndpoint ArrivalKind = "service_endpoint"
	// ArrivalBeyondAppliance: the packet reached an appliance that
	// advertised the destination's prefix to a Route Server; the networks
	// behind it (a tunnel, SD-WAN, on-premises) cannot be read.
	ArrivalBeyondAppliance ArrivalKind = "beyond_appliance"
)

// Arrival is where the packet was delivered.
type Arrival struct {
	Kind              ArrivalKind
	VNetID            model.ResourceID
	SubnetID          model.ResourceID
	NICID             model.ResourceID
	PrivateEndpointID model.ResourceID
	GatewayID         model.ResourceID
	// Unattributed is, for a subnet arrival, a private endpoint of that
	// subnet whose addresses were not read (the endpoint, or its network
	// interface): the address may be the endpoint's, whose replies bypass
	// route tables, so the return path cannot be judged.
	Unattributed model.ResourceID
	// RouteServerID is the Route Server whose route led beyond an
	// appliance (ArrivalBeyondAppliance).
	RouteServerID model.ResourceID
	Label         string
}

// Appliance is a virtual appliance a path crossed.
type Appliance struct {
	IP       netip.Addr
	VNetID   model.ResourceID
	SubnetID model.ResourceID
	// NICID is empty for an appliance known only by its subnet (Azure
	// Firewall, whose NICs are not in the customer's subscription).
	NICID model.ResourceID
	Label string
}

// Trace follows dst from the subnet hop by hop with the selected route of
// each subnet (Azure routes every packet by the effective routes of the
// subnet it leaves; route tables do not apply on arrival), then checks the
// return path. The packet's source is Options.Source, or the first address
// Azure assigns in the subnet.
func (e *Engine) Trace(fromSubnetID model.ResourceID, dst netip.Addr) Result {
	return e.TraceFrom(fromSubnetID, e.sourceAddr(fromSubnetID, dst), dst)
}

// TraceFrom is Trace with an explicit source address (a node's own IP).
func (e *Engine) TraceFrom(fromSubnetID model.ResourceID, src, dst netip.Addr) Result {
	dst = dst.Unmap()
	res := Result{From: fromSubnetID, Destination: dst, Source: src.Unmap()}
	if !dst.IsValid() {
		res.Gaps = []model.Gap{{ResourceID: fromSubnetID, Kind: model.GapNotFound, Detail: "the destination address is unknown"}}
		res.Verdict = model.Unverified
		return res
	}
	fwd := &walker{e: e, src: res.Source, dst: dst, hubCheck: true}
	fwd.run(fromSubnetID)
	res.Hops, res.Arrival, res.Appliances = fwd.hops, fwd.arrival, fwd.appliances
	res.Findings, res.Gaps, res.Suspected = fwd.findings, fwd.gaps, fwd.suspected
	res.Needs = fwd.needs
	if verdictOf(res.Findings, res.Gaps) != model.Unreachable && fwd.arrival.Kind != ArrivalNone {
		res.fwd = snapshotForward(&res)
		e.checkReturn(&res, nil)
	}
	res.Verdict = verdictOf(res.Findings, res.Gaps)
	return res
}

// sourceAddr is the configured source, else the first address Azure
// assigns in the subnet's first prefix of dst's family.
func (e *Engine) sourceAddr(subnetID model.ResourceID, dst netip.Addr) netip.Addr {
	if e.opts.Source.IsValid() {
		return e.opts.Source.Unmap()
	}
	s := e.net.Subnet(subnetID)
	if s == nil {
		return netip.Addr{}
	}
	ps := familyPrefixes(s.Prefixes, dst)
	if len(ps) == 0 {
		ps = s.Prefixes
	}
	if len(ps) == 0 {
		return netip.Addr{}
	}
	a := ps[0].Masked().Addr()
	for i := 0; i < 4; i++ {
		a = a.Next()
	}
	return a
}

// walker follows one packet.
type walker struct {
	e        *Engine
	src, dst netip.Addr
	// gatewayIngress: the packet entered Azure through a gateway (a reply
	// from on-premises); see forwarded.
	gatewayIngress bool

	hops       []Hop
	arrival    Arrival
	appliances []Appliance
	findings   []Finding
	gaps       []model.Gap
	// uncertain: a gap could change the route selected at the current hop,
	// so a failure there is suspected, not concluded.
	uncertain bool
	suspected []Finding
	// needs is the pending evidence the walk reached.
	needs []model.Evidence
	// real, when set, is the first hop's real effective route table: the
	// first step selects from it (see TraceEffective).
	real *realFirstHop
	// drift is the first hop's disagreement between the real and the
	// computed routes, when there is one.
	drift *Drift
	// hubCheck: the first hop is checked against the effective routes of
	// the Virtual WAN hub its VNet is connected to (vwan_effective.go).
	hubCheck bool
	// crossed is the peering the current route crosses, once
	// crossPeering has looked at it: the next hop records it as a step.
	crossed *model.Peering
}

// run routes the packet from subnet to subnet until it arrives, is dropped,
// or loops.
func (w *walker) run(start model.ResourceID) {
	seen := map[vnetAddr]bool{}
	subnet := start
	for hop := 0; ; hop++ {
		if hop >= w.e.opts.maxHops() {
			w.fail(newFinding(model.RouteBlackhole, subnet, subnet, nil,
				"the path to %s crosses more than %d appliances without arriving (%s): a routing loop drops it.",
				w.dst, w.e.opts.maxHops(), w.applianceChain()))
			return
		}
		next, ok := w.step(subnet)
		if !ok {
			return
		}
		last := w.appliances[len(w.appliances)-1]
		k := vnetAddr{last.VNetID.Key(), last.IP}
		if seen[k] {
			w.fail(newFinding(model.RouteBlackhole, w.hops[len(w.hops)-1].Route.OriginID, subnet, &w.hops[len(w.hops)-1].Route,
				"routing loop: traffic to %s returns to appliance %s (%s), so it never arrives.", w.dst, last.IP, w.applianceChain()))
			return
		}
		seen[k] = true
		subnet = next
	}
}

// step routes the packet out of one subnet. It returns the subnet to route
// from next (the appliance's) and true when an appliance forwards it.
func (w *walker) step(subnetID model.ResourceID) (model.ResourceID, bool) {
	if eff := w.real; eff != nil {
		w.real = nil
		return w.stepReal(subnetID, eff)
	}
	c, err := w.e.EffectiveRoutes(subnetID)
	if err != nil {
		w.missing(subnetID, err)
		return "", false
	}
	hopGaps := c.GapsFor(w.dst)
	for _, g := range hopGaps {
		w.gaps = appendGap(w.gaps, g)
	}
	w.uncertain = len(hopGaps) > 0
	w.branchNeed(c, hopGaps)
	w.peerHubNeed(c, hopGaps)
	w.remoteAddressGap(c)
	i := c.Table.LookupIndex(w.dst)
	hubCheck := w.hubCheck
	w.hubCheck = false
	if i < 0 && hubCheck {
		if next, ok, done := w.hubFirstHop(c, model.Route{}, false); done {
			return next, ok
		}
	}
	if i < 0 {
		w.hop(subnetID, nil, "no route: dropped")
		w.fail(newFinding(model.RouteBlackhole, resourceToRoute(c), subnetID, nil,
			"no route of subnet %s matches %s, so Azure drops the packet.", SubnetLabel(subnetID), w.dst))
		return "", false
	}
	r := c.Table.Route(i)
	if hubCheck {
		if next, ok, done := w.hubFirstHop(c, r, true); done {
			return next, ok
		}
	}
	return w.follow(c, &r, w.diagnoseDrop)
}

// follow acts on the route selected in c's subnet: deliver, cross a
// peering, hand to a gateway or an appliance (returning the appliance's
// subnet and true), or drop, explained by onDrop.
func (w *walker) follow(c *Computed, rp *model.Route, onDrop func(*Computed, *model.Route)) (model.ResourceID, bool) {
	r, subnetID := *rp, c.SubnetID
	switch hop := r.NextHopType; {
	case strings.EqualFold(hop, model.NextHopVnetLocal):
		w.viaVNetLocal(c, &r)
	case strings.EqualFold(hop, model.NextHopVNetPeering), strings.EqualFold(hop, model.NextHopVNetGlobalPeering):
		w.viaPeering(c, &r)
	case strings.EqualFold(hop, model.NextHopInterfaceEndpoint):
		w.viaPrivateEndpointRoute(c, &r)
	case strings.EqualFold(hop, model.NextHopServiceEndpoint):
		w.arrive(subnetID, &r, Arrival{Kind: ArrivalServiceEndpoint, Label: "Azure service over the backbone (" + r.Origin + ")"})
	case strings.EqualFold(hop, model.NextHopVirtualNetworkGateway):
		if hub := w.e.net.VirtualHub(r.OriginID); hub != nil {
			if w.viaBranch(c, &r, hub) {
				return "", false
			}
			return w.viaHub(c, &r, hub)
		}
		if rs := routeServerOf(w.e.net, c, &r); rs != nil {
			return w.viaRouteServer(c, &r, rs)
		}
		w.viaGateway(c, &r)
	case strings.EqualFold(hop, model.NextHopVirtualAppliance):
		return w.viaAppliance(c, &r)
	case strings.EqualFold(hop, model.NextHopInternet):
		if !IsPrivate(w.dst) {
			w.arrive(subnetID, &r, Arrival{Kind: ArrivalInternet, Label: "Internet"})
			return "", false
		}
		w.hop(subnetID, &r, "dropped (a private address cannot be reached over the Internet)")
		onDrop(c, &r)
	case strings.EqualFold(hop, model.NextHopNone):
		w.hop(subnetID, &r, "dropped")
		onDrop(c, &r)
	default:
		w.hop(subnetID, &r, "unknown next hop type")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: r.OriginID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("next hop type %q of %s is not modeled", r.NextHopType, routeLabel(r))})
	}
	return "", false
}

// viaVNetLocal delivers inside the subnet's own VNet. A UDR with next hop
// VnetLocal for an address outside the VNet's space has no documented
// meaning: unverified rather than guessed.
func (w *walker) viaVNetLocal(c *Computed, r *model.Route) {
	if !anyContains(c.vnet.AddressSpace, w.dst) {
		w.hop(c.SubnetID, r, "outside the VNet's address space")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: r.OriginID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("%s sends %s, which is outside %s's address space (%s), to VnetLocal; Azure does not document where that goes",
				routeLabel(*r), w.dst, c.vnet.Name, prefixList(c.vnet.AddressSpace))})
		return
	}
	w.arriveIn(c, r, c.vnet)
}

// viaPeering crosses the peering the route belongs to.
func (w *walker) viaPeering(c *Computed, r *model.Route) {
	p := peeringByID(c.vnet, r.OriginID)
	if p == nil {
		p = peeringCovering(c.vnet, w.dst)
	}
	if p == nil {
		// A real effective route the configuration does not explain:
		// the peering towards the VNet that holds the address today.
		for _, cand := range c.vnet.Peerings {
			if anyContains(currentSpace(w.e.net, cand), w.dst) {
				p = cand
				break
			}
		}
	}
	if p == nil {
		w.hop(c.SubnetID, r, "peering not found")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: r.OriginID, Kind: model.GapNotFound,
			Detail: "the peering behind " + routeLabel(*r) + " is not in the model"})
		return
	}
	remote, ok := w.crossPeering(c, r, p)
	if !ok {
		return
	}
	if !anyContains(remote.AddressSpace, w.dst) {
		w.hop(c.SubnetID, r, "dropped (not in "+remote.Name+"'s address space)")
		w.fail(newFinding(model.RoutePeeringNotSynced, p.ID, c.SubnetID, r,
			"peering %s still routes %s to %s as synced (%s), but %s's address space is now %s: the peering has not been synced since the change.",
			p.Name, w.dst, remote.Name, prefixList(syncedSpace(p)), remote.Name, prefixList(remote.AddressSpace)))
		return
	}
	w.arriveIn(c, r, remote)
}

// viaPrivateEndpointRoute follows an InterfaceEndpoint /32 to the endpoint,
// across the peering when the endpoint is in a peered VNet.
func (w *walker) viaPrivateEndpointRoute(c *Computed, r *model.Route) {
	net := w.e.net
	target := c.vnet
	if pe := net.PrivateEndpoint(r.OriginID); pe != nil {
		if peVNet := vnetOfSubnet(net, pe.SubnetID); !peVNet.Equal(c.vnet.ID) {
			p := c.vnet.PeeringTo(peVNet)
			if p == nil {
				w.hop(c.SubnetID, r, "peering not found")
				w.gaps = appendGap(w.gaps, model.Gap{ResourceID: peVNet, Kind: model.GapNotFound,
					Detail: "no peering from " + c.vnet.Name + " to " + peVNet.Name() + " carries " + routeLabel(*r)})
				return
			}
			remote, ok := w.crossPeering(c, r, p)
			if !ok {
				return
			}
			target = remote
		}
	}
	w.arriveIn(c, r, target)
}

// crossPeering checks what a packet needs to cross peering p out of the
// subnet's VNet: both sides Connected, access allowed on both, and, for
// traffic that did not originate in the sending VNet (forwarded by an
// appliance), allowForwardedTraffic on the receiving side.
func (w *walker) crossPeering(c *Computed, r *model.Route, p *model.Peering) (*model.VNet, bool) {
	net := w.e.net
	w.crossed = p
	if !p.Connected() {
		w.hop(c.SubnetID, r, "dropped (peering "+p.Name+" is "+p.State+")")
		w.fail(notConnected(c, r, p, w.dst))
		return nil, false
	}
	reverse, remoteKnown := net.PeeringBack(c.vnet.ID, p)
	if !remoteKnown {
		w.hop(c.SubnetID, r, "into "+p.RemoteVNetID.Name()+" (not read)")
		w.gaps = appendGap(w.gaps, gapFor(net, p.RemoteVNetID, model.GapNotFound, "the peered VNet "+p.RemoteVNetID.Name()+" was not read"))
		return nil, false
	}
	remote := net.VNet(p.RemoteVNetID)
	if h := net.HubByVNet(remote.ID); h != nil && reverse == nil {
		// The stand-in for a Virtual WAN hub's VNet (Microsoft's, never
		// read) has a peering back to each connection of the hub that was
		// read: none is the hub's connections not known, not a peering to
		// create.
		g, ok := hubUnread(net, h, false, "whether it connects "+c.vnet.Name+" is unknown")
		if !ok {
			g = model.Gap{ResourceID: model.ResourceID(string(h.ID) + "/hubVirtualNetworkConnections"), Kind: model.GapNotFound,
				Detail: "virtual hub " + h.Name + " lists no connection of " + c.vnet.Name + ", whose peering " + p.Name + " names the hub's VNet"}
		}
		w.hop(c.SubnetID, r, "into virtual hub "+h.Name+" (its connection of "+c.vnet.Name+" is unknown)")
		w.gaps = appendGap(w.gaps, g)
		return nil, false
	}
	switch {
	case reverse == nil || !reverse.Connected():
		w.hop(c.SubnetID, r, "dropped (the "+remote.Name+" side of the peering is missing or not Connected)")
		w.fail(remoteSideNotConnected(c, r, p, reverse, remote, w.dst))
		return nil, false
	case !p.AllowVirtualNetworkAccess:
		w.hop(c.SubnetID, r, "dropped (peering "+p.Name+" denies access)")
		w.fail(accessDisabled(c, r, p, c.vnet.Name, remote.Name))
		return nil, false
	case !reverse.AllowVirtualNetworkAccess:
		w.hop(c.SubnetID, r, "dropped (peering "+reverse.Name+" denies access)")
		w.fail(accessDisabled(c, r, reverse, remote.Name, c.vnet.Name))
		return nil, false
	case w.forwarded(c.vnet, p, reverse) && !reverse.AllowForwardedTraffic:
		w.hop(c.SubnetID, r, "dropped ("+reverse.Name+" refuses forwarded traffic)")
		w.fail(newFinding(model.RouteForwardedTrafficBlock, reverse.ID, c.SubnetID, r,
			"traffic from %s to %s is forwarded by an appliance (%s) into %s over peering %s, whose receiving side %s does not allow forwarded traffic.",
			w.src, w.dst, w.applianceChain(), remote.Name, p.Name, reverse.Name))
		return nil, false
	}
	return remote, true
}

// forwarded reports whether the packet crossing peering p (reverse is the
// receiving side) is forwarded traffic: it did not originate in the
// sending VNet. A reply from on-premises leaving the hub's gateway crosses
// under gateway transit instead (hub allowGatewayTransit, spoke
// useRemoteGateways) until an appliance forwards it.
func (w *walker) forwarded(vnet *model.VNet, p, reverse *model.Peering) bool {
	if w.gatewayIngress && len(w.appliances) == 0 && p.AllowGatewayTransit && reverse.UseRemoteGateways {
		return false
	}
	if !reverse.VirtualHubID.IsZero() {
		// Into a VNet from its Virtual WAN hub: the hub routes between
		// its connections by design ("About virtual hub routing").
		return false
	}
	return !anyContains(vnet.AddressSpace, w.src)
}

// viaGateway hands the packet to a VPN/ExpressRoute gateway: its own VNet's
// or, through gateway transit, the hub's.
func (w *walker) viaGateway(c *Computed, r *model.Route) {
	net := w.e.net
	gw := net.Gateway(r.OriginID)
	if gw == nil {
		for _, l := range c.links {
			if l.reaches {
				gw = l.gw
				break
			}
		}
	}
	if gw == nil {
		w.hop(c.SubnetID, r, "no gateway")
		w.gaps = appendGap(w.gaps, gapFor(net, r.OriginID, model.GapNotFound, "the gateway behind "+routeLabel(*r)+" is not in the model"))
		return
	}
	gwe := w.e.gateways.get(net, gw)
	covered, known := gwe.covers(w.dst)
	switch {
	case !covered && known:
		w.hop(c.SubnetID, r, "dropped at gateway "+gw.Name)
		w.fail(newFinding(model.RouteBlackhole, gw.ID, c.SubnetID, r,
			"%s sends %s to gateway %s, which has no route for it (neither learned over BGP nor a local network gateway prefix).", routeLabel(*r), w.dst, gw.Name))
		return
	case !covered:
		for _, g := range gwe.gaps {
			w.gaps = appendGap(w.gaps, g.gap)
		}
	}
	label := "on-premises via gateway " + gw.Name
	if r.NextHopIP.IsValid() {
		label += " (" + r.NextHopIP.String() + ")"
	}
	w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalOnPremises, GatewayID: gw.ID, VNetID: gw.VNetID, Label: label})
}

// viaRouteServer follows a route a Route Server programmed: Azure sends the
// packet to the appliance that advertised the prefix (the route's next
// hop), like a VirtualAppliance route. A Route Server route that leads the
// packet back to the appliance it is at means the prefix lies beyond that
// appliance (a tunnel, SD-WAN, on-premises): the path leaves what Azure
// Resource Manager shows.
func (w *walker) viaRouteServer(c *Computed, r *model.Route, rs *model.RouteServer) (model.ResourceID, bool) {
	if n := len(w.appliances); n > 0 && w.appliances[n-1].IP == r.NextHopIP.Unmap() {
		app := w.appliances[n-1]
		w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalBeyondAppliance, VNetID: app.VNetID, SubnetID: app.SubnetID, NICID: app.NICID, RouteServerID: rs.ID,
			Label: fmt.Sprintf("beyond %s (networks it advertised to Route Server %s)", app.Label, rs.Name)})
		return "", false
	}
	return w.viaAppliance(c, r)
}

// viaAppliance hands the packet to a VirtualAppliance next hop. Azure
// delivers to that address only inside the VNet or a directly peered VNet,
// drops it when the appliance's NIC does not forward, and otherwise the
// appliance routes it on with its own subnet's effective routes (assumed:
// its operating system forwards along them and does not NAT).
func (w *walker) viaAppliance(c *Computed, r *model.Route) (model.ResourceID, bool) {
	nh := r.NextHopIP.Unmap()
	applianceVNet := c.vnet
	if !nh.IsValid() || !anyContains(c.vnet.AddressSpace, nh) {
		p := peeringCoveringUsable(c.vnet, nh)
		if q := peeringCovering(c.vnet, nh); p == nil && q != nil {
			// Peered, but the peering carries nothing: that is the cause.
			w.hop(c.SubnetID, r, "appliance unreachable (peering "+q.Name+" is not usable)")
			if !q.Connected() {
				w.fail(notConnected(c, r, q, nh))
			} else {
				w.fail(accessDisabled(c, r, q, c.vnet.Name, q.RemoteVNetID.Name()))
			}
			return "", false
		}
		if p == nil {
			// In a peered VNet's space the peering does not carry (a
			// subnet peering, or space not synced): that is the cause.
			for _, cand := range c.vnet.Peerings {
				if !peeringRoutesUsable(cand) || !anyContains(currentSpace(w.e.net, cand), nh) {
					continue
				}
				if f, ok := peeringReachCause(w.e.net, c, r, cand, nh, "so Azure cannot deliver to appliance "+nh.String()+" and drops the packet"); ok {
					w.hop(c.SubnetID, r, "appliance unreachable (peering "+cand.Name+" does not carry it)")
					w.fail(f)
					return "", false
				}
			}
			w.hop(c.SubnetID, r, "appliance unreachable")
			w.fail(newFinding(model.RouteNVAUnreachable, r.OriginID, c.SubnetID, r,
				"%s sends %s to appliance %s, which is neither in %s (%s) nor in a VNet peered with it, so Azure drops the packet.",
				routeLabel(*r), w.dst, nh, c.vnet.Name, prefixList(c.vnet.AddressSpace)))
			return "", false
		}
		if f, ok := peeringReachCause(w.e.net, c, r, p, nh, "so Azure cannot deliver to appliance "+nh.String()+" and drops the packet"); ok {
			w.hop(c.SubnetID, r, "appliance unreachable (peering "+p.Name+" does not carry it)")
			w.fail(f)
			return "", false
		}
		remote, ok := w.crossPeering(c, r, p)
		if !ok {
			return "", false
		}
		applianceVNet = remote
	}
	return w.applianceAt(c, r, applianceVNet, nh)
}

// applianceAt hands the packet to the appliance at address nh in
// applianceVNet, where Azure delivered it (by a VirtualAppliance next hop,
// or a virtual hub connection's static route): the NIC holding the address
// must forward (pending while it is not read), an address in
// AzureFirewallSubnet is an Azure Firewall; it returns the appliance's
// subnet, whose routes carry the packet on, and true.
func (w *walker) applianceAt(c *Computed, r *model.Route, applianceVNet *model.VNet, nh netip.Addr) (model.ResourceID, bool) {
	app := Appliance{IP: nh, VNetID: applianceVNet.ID}
	nic := w.e.addrs().nic(applianceVNet.ID, nh)
	if ev := model.ApplianceNICAt(applianceVNet.ID, nh); nic == nil && w.e.net.Pending.Has(ev) {
		// Whether the appliance forwards is on its NIC, which is read
		// only for paths that reach it: this one does.
		w.needs = model.AddNeed(w.needs, ev)
		w.hopTo(c.SubnetID, r, fmt.Sprintf("appliance %s (its network interface is not read yet)", nh),
			model.Hop{Kind: model.HopAppliance, Address: nh.String(), Label: "appliance " + nh.String() + " (its network interface is not read yet)"})
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: applianceVNet.ID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("the network interface of appliance %s is not read yet: whether it forwards traffic is unknown", nh)})
		return "", false
	}
	if nic != nil {
		if !nic.IPForwarding {
			w.hop(c.SubnetID, r, "dropped (appliance "+nic.Name+" does not forward)")
			w.fail(newFinding(model.RouteNVAForwardingDisabled, nic.ID, c.SubnetID, r,
				"%s sends %s to appliance %s (%s), whose network interface %s has IP forwarding disabled, so Azure drops the packet.",
				routeLabel(*r), w.dst, nh, SubnetLabel(nic.SubnetID), nic.Name))
			return "", false
		}
		app.NICID, app.SubnetID = nic.ID, nic.SubnetID
		app.Label = fmt.Sprintf("appliance %s %s in %s", nic.Name, nh, SubnetLabel(nic.SubnetID))
	} else {
		sub := subnetContaining(applianceVNet, nh)
		if sub == nil {
			w.hop(c.SubnetID, r, "appliance unreachable")
			w.fail(newFinding(model.RouteNVAUnreachable, r.OriginID, c.SubnetID, r,
				"%s sends %s to appliance %s, but no subnet of %s contains that address, so Azure drops the packet.",
				routeLabel(*r), w.dst, nh, applianceVNet.Name))
			return "", false
		}
		app.SubnetID = sub.ID
		if why, absent := nextHopAbsent(w.e.net, sub, nh); absent {
			w.hop(c.SubnetID, r, "dropped (nothing holds "+nh.String()+")")
			w.fail(newFinding(model.RouteNextHopAbsent, r.OriginID, c.SubnetID, r,
				"%s sends %s to the VirtualAppliance next hop %s, which nothing holds: %s. Azure drops the packet.",
				routeLabel(*r), w.dst, nh, why))
			return "", false
		}
		if strings.EqualFold(sub.Name, "AzureFirewallSubnet") {
			// Azure Firewall: a managed appliance that forwards by design;
			// its NICs are not in the customer's subscription.
			app.Label = fmt.Sprintf("Azure Firewall %s in %s", nh, SubnetLabel(sub.ID))
		} else {
			app.Label = fmt.Sprintf("appliance %s in %s", nh, SubnetLabel(sub.ID))
			w.gaps = appendGap(w.gaps, model.Gap{ResourceID: sub.ID, Kind: model.GapNotFound,
				Detail: fmt.Sprintf("no network interface with address %s was read in %s (an internal load balancer frontend, or a NIC that could not be read): whether it forwards traffic is unknown", nh, SubnetLabel(sub.ID))})
		}
	}
	w.hopTo(c.SubnetID, r, app.Label, w.applianceStep(app))
	w.appliances = append(w.appliances, app)
	return app.SubnetID, true
}

// arriveIn delivers the packet inside vnet: to a private endpoint, a NIC,
// or at least a subnet. An address in the VNet's space but in no subnet is
// dropped.
func (w *walker) arriveIn(c *Computed, r *model.Route, vnet *model.VNet) {
	ix := w.e.addrs()
	if pe := ix.privateEndpoint(vnet.ID, w.dst); pe != nil {
		w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalPrivateEndpoint, VNetID: vnet.ID, SubnetID: pe.SubnetID, PrivateEndpointID: pe.ID,
			Label: fmt.Sprintf("%s (private endpoint %s %s)", SubnetLabel(pe.SubnetID), pe.Name, w.dst)})
		return
	}
	if nic := ix.nic(vnet.ID, w.dst); nic != nil {
		if !nic.PrivateEndpointID.IsZero() {
			// The interface of a private endpoint that was not read itself:
			// the address is the endpoint's all the same.
			w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalPrivateEndpoint, VNetID: vnet.ID, SubnetID: nic.SubnetID, PrivateEndpointID: nic.PrivateEndpointID,
				Label: fmt.Sprintf("%s (private endpoint %s %s)", SubnetLabel(nic.SubnetID), nic.PrivateEndpointID.Name(), w.dst)})
			return
		}
		w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalNIC, VNetID: vnet.ID, SubnetID: nic.SubnetID, NICID: nic.ID,
			Label: fmt.Sprintf("%s (%s %s)", SubnetLabel(nic.SubnetID), nic.Name, w.dst)})
		return
	}
	if sub := subnetContaining(vnet, w.dst); sub != nil {
		w.arrive(c.SubnetID, r, Arrival{Kind: ArrivalSubnet, VNetID: vnet.ID, SubnetID: sub.ID,
			Unattributed: unreadEndpointOf(w.e.net, sub),
			Label:        fmt.Sprintf("%s (%s)", SubnetLabel(sub.ID), w.dst)})
		return
	}
	w.hop(c.SubnetID, r, "dropped (no subnet of "+vnet.Name+" contains it)")
	w.fail(newFinding(model.RouteBlackhole, vnet.ID, c.SubnetID, r,
		"%s is in the address space of %s (%s) but in none of its subnets, so Azure drops the packet.", w.dst, vnet.Name, prefixList(vnet.AddressSpace)))
}

func (w *walker) arrive(subnet model.ResourceID, r *model.Route, a Arrival) {
	w.arrival = a
	w.hopTo(subnet, r, a.Label, w.arrivalStep(a))
}

// hop records a routing decision that ends the path (a drop, a fact
// missing) with outcome in words.
func (w *walker) hop(subnet model.ResourceID, r *model.Route, outcome string) {
	w.hopTo(subnet, r, outcome, model.Hop{Kind: model.HopStop, Label: outcome})
}

// hopTo records a routing decision: its text, and as steps the peering the
// route crossed (if any), then to, where it led.
func (w *walker) hopTo(subnet model.ResourceID, r *model.Route, outcome string, to model.Hop) {
	h := Hop{SubnetID: subnet, Text: hopText(subnet, r, outcome)}
	route := ""
	if r != nil {
		h.Route, h.HasRoute = *r, true
		route = strings.TrimPrefix(routeLabel(*r), "route ")
	}
	if p := w.crossed; p != nil {
		w.crossed = nil
		h.Steps = append(h.Steps, model.Hop{Kind: model.HopPeering, Name: p.Name, ResourceID: p.ID, Label: "peering " + p.Name, From: subnet, Route: route})
	} else {
		to.From, to.Route = subnet, route
	}
	h.Steps = append(h.Steps, to)
	w.hops = append(w.hops, h)
}

// applianceStep is the appliance a route hands the packet to, as a step:
// an Azure Firewall by its resource (named as the way out names it), an
// appliance by its NIC, else by its address in its subnet.
func (w *walker) applianceStep(app Appliance) model.Hop {
	if app.NICID.IsZero() && app.SubnetID.Name() != "" && strings.EqualFold(app.SubnetID.Name(), "AzureFirewallSubnet") {
		var id model.ResourceID
		if fw := w.e.net.FirewallByPrivateIP(app.IP); fw != nil {
			id = fw.ID
		} else if s := w.e.net.Subnet(app.SubnetID); s != nil {
			if owners := s.IPConfigurationOwners("azureFirewallIpConfigurations"); len(owners) == 1 {
				id = owners[0]
			}
		}
		return model.FirewallHop(id, app.IP.String(), app.SubnetID)
	}
	return model.Hop{Kind: model.HopAppliance, Name: app.NICID.Name(), ResourceID: app.NICID, Address: app.IP.String(), SubnetID: app.SubnetID, Label: app.Label}
}

// arrivalStep is where the packet arrived, as a step: the resource it was
// delivered to, named without the address (one step for every address of
// the resource).
func (w *walker) arrivalStep(a Arrival) model.Hop {
	dst := w.dst.String()
	switch a.Kind {
	case ArrivalPrivateEndpoint:
		return model.Hop{Kind: model.HopPrivateEndpoint, Name: a.PrivateEndpointID.Name(), ResourceID: a.PrivateEndpointID, SubnetID: a.SubnetID, Address: dst,
			Label: "private endpoint " + a.PrivateEndpointID.Name() + " in " + SubnetLabel(a.SubnetID)}
	case ArrivalNIC:
		return model.Hop{Kind: model.HopNIC, Name: a.NICID.Name(), ResourceID: a.NICID, SubnetID: a.SubnetID, Address: dst,
			Label: a.NICID.Name() + " in " + SubnetLabel(a.SubnetID)}
	case ArrivalSubnet:
		return model.Hop{Kind: model.HopSubnet, Name: a.SubnetID.Name(), ResourceID: a.SubnetID, SubnetID: a.SubnetID, Address: dst,
			Label: "subnet " + SubnetLabel(a.SubnetID)}
	case ArrivalOnPremises:
		return model.Hop{Kind: model.HopGateway, Name: a.GatewayID.Name(), ResourceID: a.GatewayID, Label: "on-premises via gateway " + a.GatewayID.Name()}
	case ArrivalInternet:
		return model.Hop{Kind: model.HopInternet, Label: a.Label}
	case ArrivalServiceEndpoint:
		return model.Hop{Kind: model.HopServiceEndpoint, Label: a.Label}
	}
	return model.Hop{Kind: model.HopBeyondAppliance, ResourceID: a.RouteServerID, Address: dst, Label: a.Label}
}

// fail records a finding, or only suspects it when missing evidence could
// have given this hop another route.
func (w *walker) fail(f Finding) {
	if w.uncertain {
		w.suspected = appendFinding(w.suspected, f)
		return
	}
	w.findings = appendFinding(w.findings, f)
}

func (w *walker) missing(subnet model.ResourceID, err error) {
	w.hop(subnet, nil, "routes unknown")
	w.gaps = appendGap(w.gaps, GapOf(subnet, err))
}

// applianceChain is "10.0.1.4 → 10.2.1.4" or "none".
func (w *walker) applianceChain() string {
	if len(w.appliances) == 0 {
		return "none"
	}
	s := make([]string, len(w.appliances))
	for i, a := range w.appliances {
		s[i] = a.IP.String()
	}
	return strings.Join(s, " → ")
}

// resourceToRoute is what to change to give the subnet a route: its route
// table when it has one, else the subnet (to attach one).
func resourceToRoute(c *Computed) model.ResourceID {
	if !c.subnet.RouteTableID.IsZero() {
		return c.subnet.RouteTableID
	}
	return c.SubnetID
}

func peeringByID(vnet *model.VNet, id model.ResourceID) *model.Peering {
	if id.IsZero() {
		return nil
	}
	for _, p := range vnet.Peerings {
		if p.ID.Equal(id) {
			return p
		}
	}
	return nil
}

// peeringCovering is the peering whose synced remote space contains a.
func peeringCovering(vnet *model.VNet, a netip.Addr) *model.Peering {
	for _, p := range vnet.Peerings {
		if anyContains(syncedSpace(p), a) {
			return p
		}
	}
	return nil
}

// peeringCoveringUsable is peeringCovering among peerings Azure programs
// routes for.
func peeringCoveringUsable(vnet *model.VNet, a netip.Addr) *model.Peering {
	for _, p := range vnet.Peerings {
		if peeringRoutesUsable(p) && anyContains(syncedSpace(p), a) {
			return p
		}
	}
	return nil
}

// Steps are the forward path as data, the steps of every hop in order.
func (r Result) Steps() []model.Hop {
	var out []model.Hop
	for _, h := range r.Hops {
		out = append(out, h.Steps...)
	}
	return out
}
