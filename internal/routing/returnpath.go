package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// ReturnPath is how replies get back to the node.
type ReturnPath struct {
	// Checked is false when the destination needs no check here (Internet,
	// service endpoints) or the forward path already failed.
	Checked bool
	Verdict model.Verdict
	// Hops are the reply's path inside Azure, when it was traced.
	Hops []Hop
	// Appliances the reply crosses.
	Appliances []Appliance
	// Note says how the return path was decided.
	Note string
}

// checkReturn decides the return path of a forward path that arrived
// (Azure: "a return route in one direction is not a route"). Its findings
// and gaps join the result's.
func (e *Engine) checkReturn(res *Result, nat NATFunc) {
	if !res.Source.IsValid() {
		res.Gaps = appendGap(res.Gaps, model.Gap{ResourceID: res.From, Kind: model.GapNotFound,
			Detail: "the node address is unknown (subnet without prefixes): the return path cannot be traced"})
		res.Return = ReturnPath{Verdict: model.Unverified}
		return
	}
	if k := lastTranslating(res.Appliances, nat); k >= 0 {
		e.returnToTranslator(res, k, nat)
		return
	}
	switch res.Arrival.Kind {
	case ArrivalPrivateEndpoint:
		e.returnFromPrivateEndpoint(res, nat)
	case ArrivalNIC, ArrivalSubnet:
		if u := res.Arrival.Unattributed; !u.IsZero() {
			// Replies from a private endpoint bypass route tables, replies
			// from anything else follow the subnet's routes: which applies
			// rests on what was not read.
			res.Gaps = appendGap(res.Gaps, gapFor(e.net, u, model.GapNotFound, fmt.Sprintf(
				"private endpoint %s of %s was not read (or its addresses were not): %s may be its address, whose replies bypass route tables, so the return path is unknown",
				u.Name(), SubnetLabel(res.Arrival.SubnetID), res.Destination)))
			res.Return = ReturnPath{Verdict: model.Unverified, Note: "the return path depends on whether " + res.Destination.String() + " is a private endpoint that was not read"}
			return
		}
		back := e.traceBack(res, res.Arrival.SubnetID, false)
		e.judgeBack(res, back, res.Appliances, nat)
	case ArrivalOnPremises:
		if e.returnFromBranch(res, e.nodePrefixes(res)) {
			return
		}
		e.returnFromOnPremises(res, res.Source, e.nodePrefixes(res), res.Appliances, nat)
	case ArrivalBeyondAppliance:
		e.returnFromBeyondAppliance(res)
	default:
		res.Return = ReturnPath{Verdict: model.Reachable, Note: "replies from " + res.Arrival.Label + " need no route check in Azure"}
	}
}

// returnFromPrivateEndpoint: replies from a private endpoint bypass route
// tables and go straight back to the source address the endpoint saw. With
// no appliance on the forward path that is the node itself: symmetric.
// Through an appliance, the flow is symmetric only if the appliance
// source-NATs it, which ARM does not show.
func (e *Engine) returnFromPrivateEndpoint(res *Result, nat NATFunc) {
	res.Return = ReturnPath{Checked: true, Verdict: model.Reachable,
		Note: fmt.Sprintf("replies from private endpoint %s bypass route tables and return straight to %s", res.Arrival.PrivateEndpointID.Name(), res.Source)}
	if len(res.Appliances) == 0 {
		e.checkPrivateEndpointReplyPeering(res)
		e.checkPrivateEndpointReplyHub(res)
		return
	}
	if f, ok := e.endpointBypass(res, res.Appliances, res.Source, nat); ok {
		res.Findings = appendFinding(res.Findings, f)
		res.Return.Verdict, res.Return.Note = verdictOfCode(f.Code), f.Message
		return
	}
	first := res.Appliances[0]
	resource := first.NICID
	if resource.IsZero() {
		resource = first.SubnetID
	}
	f := newFinding(model.ReturnRouteUnverified, resource, res.From, nil,
		"the path to private endpoint %s (%s) crosses %s. Replies from a private endpoint bypass route tables and go straight to the source address it saw, so the flow is symmetric only if the appliance source-NATs it; ARM does not show an appliance's NAT. Check that %s source-NATs traffic from %s to %s (Azure Firewall application rules always do; Microsoft recommends SNAT for exactly this).",
		res.Arrival.PrivateEndpointID.Name(), res.Destination, first.Label, first.IP, res.Source, res.Destination)
	res.Findings = appendFinding(res.Findings, f)
	res.Return.Verdict = model.Unverified
	res.Return.Note = f.Message
}

// returnFromOnPremises: the reply comes back through the gateway. Inside
// Azure it is routed from the gateway's subnet like any packet; on the
// far side, a BGP peer routes it back only if the gateway advertises a
// prefix covering the node subnet (getAdvertisedRoutes), and a static local
// network gateway's side cannot be read at all.
//
// The reply goes to target: the node (res.Source, whose prefixes are
// nodePrefixes), or the address of an appliance that translated the
// flow's source; on the way inside Azure it must cross the appliances
// want (those the forward path crossed after that point).
func (e *Engine) returnFromOnPremises(res *Result, target netip.Addr, nodePrefixes []netip.Prefix, want []Appliance, nat NATFunc) {
	net := e.net
	gw := net.Gateway(res.Arrival.GatewayID)
	res.Return = ReturnPath{Checked: true, Verdict: model.Reachable}
	if gw == nil {
		res.Gaps = appendGap(res.Gaps, gapFor(net, res.Arrival.GatewayID, model.GapNotFound, "the gateway was not read"))
		res.Return.Verdict = model.Unverified
		return
	}
	if gwSubnet := gatewaySubnet(net, gw); gwSubnet != nil {
		back := e.traceBackTo(res, gwSubnet.ID, res.Destination, target, true)
		if !e.judgeBack(res, back, want, nat) {
			return
		}
	} else {
		res.Gaps = appendGap(res.Gaps, model.Gap{ResourceID: gw.VNetID, Kind: model.GapNotFound,
			Detail: "the GatewaySubnet of " + gw.VNetID.Name() + " was not read: the reply's path from gateway " + gw.Name + " is unknown"})
	}
	if staticOnly(gw, res.Destination) {
		f := newFinding(model.ReturnRouteUnverified, gw.ID, res.From, nil,
			"%s is reached through a static local network gateway connection of %s; whether the on-premises side routes %s back through it cannot be read from Azure.",
			res.Destination, gw.Name, prefixList(nodePrefixes))
		res.Findings = appendFinding(res.Findings, f)
		res.Return.Verdict, res.Return.Note = model.Unverified, f.Message
		return
	}
	if ev := model.AdvertisedRoutesOf(gw.ID); net.Pending.Has(ev) {
		// Read only for paths whose replies come back through the
		// gateway: this one's do.
		res.Needs = model.AddNeed(res.Needs, ev)
		res.Gaps = appendGap(res.Gaps, model.Gap{ResourceID: gw.ID, Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("the advertised routes of gateway %s (getAdvertisedRoutes) are not read yet: whether on-premises has a route back to %s is unknown", gw.Name, prefixList(nodePrefixes))})
		res.Return.Verdict = model.Unverified
		return
	}
	if !gw.AdvertisedKnown {
		res.Gaps = appendGap(res.Gaps, gapFor(net, gw.ID, model.GapUnavailable,
			fmt.Sprintf("the advertised routes of gateway %s (getAdvertisedRoutes) were not read: whether on-premises has a route back to %s is unknown", gw.Name, prefixList(nodePrefixes))))
		res.Return.Verdict = model.Unverified
		return
	}
	var uncovered []netip.Prefix
	for _, np := range nodePrefixes {
		if !advertises(gw, np) {
			uncovered = append(uncovered, np)
		}
	}
	if len(uncovered) > 0 {
		f := newFinding(model.ReturnRouteMissing, gw.ID, res.From, nil,
			"gateway %s does not advertise %s (it advertises %s), so %s on-premises has no route back to the nodes.",
			gw.Name, prefixList(uncovered), prefixList(advertisedPrefixes(gw)), res.Destination)
		res.Findings = appendFinding(res.Findings, f)
		res.Return.Verdict, res.Return.Note = model.Unreachable, f.Message
		return
	}
	res.Return.Note = fmt.Sprintf("gateway %s advertises a prefix covering %s to its BGP peers", gw.Name, prefixList(nodePrefixes))
}

// traceBack routes the reply from the destination's subnet to the node.
func (e *Engine) traceBack(res *Result, from model.ResourceID, viaGateway bool) *walker {
	return e.traceBackTo(res, from, res.Destination, res.Source, viaGateway)
}

// traceBackTo routes a reply from src in subnet from to dst.
func (e *Engine) traceBackTo(res *Result, from model.ResourceID, src, dst netip.Addr, viaGateway bool) *walker {
	back := &walker{e: e, src: src, dst: dst, gatewayIngress: viaGateway}
	back.run(from)
	for _, ev := range back.needs {
		res.Needs = model.AddNeed(res.Needs, ev)
	}
	return back
}

// judgeBack turns the reply's walk into return findings: any drop is
// RETURN_ROUTE_MISSING (with the cause in the message); appliances crossed
// in one direction only (the forward path's are want) are
// RETURN_ROUTE_ASYMMETRIC (a stateful appliance sees half a flow and
// drops it), or RETURN_ROUTE_UNVERIFIED where whether a bypassed Azure
// Firewall translates the flow is unknown. It reports whether the return
// is sound. The reply's hops add to those already on res.Return.
func (e *Engine) judgeBack(res *Result, back *walker, want []Appliance, nat NATFunc) bool {
	res.Return.Checked = true
	res.Return.Hops = append(res.Return.Hops, back.hops...)
	res.Return.Appliances = append(res.Return.Appliances, back.appliances...)
	for _, g := range back.gaps {
		res.Gaps = appendGap(res.Gaps, g)
	}
	for _, bf := range back.suspected {
		res.Suspected = appendFinding(res.Suspected, newFinding(model.ReturnRouteMissing, bf.Resource, bf.SubnetID, bf.Route,
			"replies from %s may not return to %s: %s", res.Destination, res.Source, bf.Message))
	}
	backVerdict := verdictOf(back.findings, back.gaps)
	if backVerdict == model.Unreachable {
		for _, bf := range back.findings {
			f := newFinding(model.ReturnRouteMissing, bf.Resource, bf.SubnetID, bf.Route,
				"replies from %s cannot return to %s: %s", res.Destination, res.Source, bf.Message)
			res.Findings = appendFinding(res.Findings, f)
			res.Return.Note = f.Message
		}
		res.Return.Verdict = model.Unreachable
		return false
	}
	if fwdOnly, backOnly := applianceDifference(want, withoutAddr(back.appliances, back.dst)); len(fwdOnly) > 0 || len(backOnly) > 0 {
		f := e.asymmetry(res, back, fwdOnly, backOnly, nat)
		if f.Code == model.ReturnRouteUnverified {
			res.Findings = appendFinding(res.Findings, f)
			res.Return.Verdict, res.Return.Note = model.Unverified, f.Message
			return false
		}
		if len(back.gaps) > 0 {
			// The reply's path rests on missing evidence: suspect only.
			res.Suspected = appendFinding(res.Suspected, f)
			res.Return.Verdict, res.Return.Note = model.Unverified, f.Message
			return false
		}
		res.Findings = appendFinding(res.Findings, f)
		res.Return.Verdict, res.Return.Note = model.Unreachable, f.Message
		return false
	}
	res.Return.Verdict = backVerdict
	res.Return.Note = "replies return along the traced path"
	return true
}

func (e *Engine) asymmetry(res *Result, back *walker, fwdOnly, backOnly []Appliance, nat NATFunc) Finding {
	if f, ok := e.translationUnknown(res, fwdOnly, nat); ok {
		return f
	}
	var parts []string
	resource := model.ResourceID("")
	if len(fwdOnly) > 0 {
		parts = append(parts, fmt.Sprintf("the forward path crosses %s, which the replies bypass", labels(fwdOnly)))
		// The fix is a UDR on the replying subnet: its route table (or the
		// subnet, to attach one) is what to change.
		if len(back.hops) > 0 {
			resource = back.hops[0].Route.OriginID
			if !isUserRoute(&back.hops[0].Route) {
				resource = back.hops[0].SubnetID
			}
		}
	}
	if len(backOnly) > 0 {
		parts = append(parts, fmt.Sprintf("the replies cross %s, which the forward path bypasses", labels(backOnly)))
		if resource.IsZero() && len(res.Hops) > 0 {
			resource = res.Hops[0].SubnetID
		}
	}
	return newFinding(model.ReturnRouteAsymmetric, resource, res.From, nil,
		"traffic from %s to %s is asymmetric: %s; a stateful appliance sees only half of the flow and drops it.%s",
		res.Source, res.Destination, strings.Join(parts, "; "), e.firewallFix(fwdOnly, nat))
}

// applianceDifference lists the appliances (by VNet and address) crossed in
// one direction only.
func applianceDifference(fwd, back []Appliance) (fwdOnly, backOnly []Appliance) {
	in := func(list []Appliance, a Appliance) bool {
		for _, b := range list {
			if b.IP == a.IP && b.VNetID.Equal(a.VNetID) {
				return true
			}
		}
		return false
	}
	for _, a := range fwd {
		if !in(back, a) {
			fwdOnly = append(fwdOnly, a)
		}
	}
	for _, a := range back {
		if !in(fwd, a) {
			backOnly = append(backOnly, a)
		}
	}
	return fwdOnly, backOnly
}

func labels(as []Appliance) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.Label
	}
	return strings.Join(s, ", ")
}

// nodePrefixes are the source subnet's prefixes of the destination's family
// (the prefix on-premises must route back), or the source address alone.
func (e *Engine) nodePrefixes(res *Result) []netip.Prefix {
	if s := e.net.Subnet(res.From); s != nil {
		if ps := familyPrefixes(s.Prefixes, res.Destination); len(ps) > 0 {
			out := make([]netip.Prefix, len(ps))
			for i, p := range ps {
				out[i] = p.Masked()
			}
			return out
		}
	}
	return []netip.Prefix{netip.PrefixFrom(res.Source, res.Source.BitLen())}
}

// advertises reports whether the gateway advertises, to any peer, a prefix
// covering p.
func advertises(gw *model.Gateway, p netip.Prefix) bool {
	for _, routes := range gw.Advertised {
		for _, r := range routes {
			if covers(r.Prefix, p) {
				return true
			}
		}
	}
	return false
}

func advertisedPrefixes(gw *model.Gateway) []netip.Prefix {
	var out []netip.Prefix
	for _, peer := range sortedAddrKeys(gw.Advertised) {
		for _, r := range gw.Advertised[peer] {
			if !containsPrefix(out, r.Prefix) {
				out = append(out, r.Prefix)
			}
		}
	}
	return out
}

// gatewaySubnet is the GatewaySubnet of the gateway's VNet.
func gatewaySubnet(net *model.Network, gw *model.Gateway) *model.Subnet {
	v := net.VNet(gw.VNetID)
	if v == nil {
		return nil
	}
	for _, s := range v.Subnets {
		if strings.EqualFold(s.Name, "GatewaySubnet") {
			return s
		}
	}
	return nil
}

// checkPrivateEndpointReplyPeering: a private endpoint in a peered VNet
// replies across the peering's other side. Replies bypass route tables, but
// whether Azure delivers them to node addresses that side has not synced
// (the nodes' VNet gained the space after the last sync), or across a subnet
// peering that does not connect the endpoint's subnet or the nodes', is not
// documented: the return path is unverified, with the peering to fix.
func (e *Engine) checkPrivateEndpointReplyPeering(res *Result) {
	net := e.net
	pe := net.PrivateEndpoint(res.Arrival.PrivateEndpointID)
	if pe == nil {
		return
	}
	nodeVNet := vnetOfSubnet(net, res.From)
	peVNet := vnetOfSubnet(net, pe.SubnetID)
	if peVNet.Equal(nodeVNet) {
		return
	}
	back, err := e.EffectiveRoutes(pe.SubnetID)
	if err != nil {
		return // the forward trace already carries what is missing
	}
	reverse := back.vnet.PeeringTo(nodeVNet)
	if reverse == nil {
		return // the forward crossing found the missing side
	}
	f, ok := peeringReachCause(net, back, nil, reverse, res.Source, "so replies from the private endpoint may not reach the nodes")
	if !ok {
		return
	}
	u := newFinding(model.ReturnRouteUnverified, reverse.ID, res.From, nil,
		"replies from private endpoint %s (%s) to %s cross peering %s: %s Replies from a private endpoint bypass route tables, but Azure does not document whether they are delivered where the peering does not route.",
		pe.Name, res.Destination, res.Source, reverse.Name, f.Message)
	u.Remediation = f.Remediation
	res.Findings = appendFinding(res.Findings, u)
	res.Return.Verdict, res.Return.Note = model.Unverified, u.Message
}

// returnFromBeyondAppliance: the destination lies behind an appliance that
// advertised its prefix to a Route Server. Where the appliance sends the
// packet, and whether replies come back through it, cannot be read from
// Azure Resource Manager: unverified, with the appliance to check.
func (e *Engine) returnFromBeyondAppliance(res *Result) {
	a := res.Arrival
	resource := a.NICID
	if resource.IsZero() {
		resource = a.SubnetID
	}
	last := res.Appliances[len(res.Appliances)-1]
	f := newFinding(model.ReturnRouteUnverified, resource, res.From, nil,
		"%s is reached through %s, which advertised the prefix to Azure Route Server %s: the networks behind the appliance (a tunnel, SD-WAN, on-premises) are not in Azure Resource Manager, so neither where it sends the traffic nor whether replies to %s come back through it can be read. Check the appliance's routing table for %s and its route back to %s.",
		res.Destination, last.Label, a.RouteServerID.Name(), res.Source, res.Destination, prefixList(e.nodePrefixes(res)))
	f.Remediation = "Verify the path on the appliance: its routes towards the destination and back to the node subnet, and that the far side advertises a route back. Azure shows only that the appliance advertised the prefix; nothing in Azure needs to change for this finding."
	res.Findings = appendFinding(res.Findings, f)
	res.Return = ReturnPath{Checked: true, Verdict: model.Unverified, Note: f.Message}
}
