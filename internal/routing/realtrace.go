package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Real effective routes (docs/design/azure-behaviour.md, "Effective and
// computed routes"): where Azure reports a NIC's effective route table, that
// table is what Azure programs for the NIC, whatever the configuration says.
// A trace from such a NIC selects its first hop from the real table; the
// routes computed from configuration are only the comparison, and where
// they select another next hop the result says so (COVERAGE_MODEL_DRIFT).
// Later hops (an appliance's subnet) have no real table and use computed
// routes, as every hop of a computed trace does.

// realFirstHop is the real table a trace starts with.
type realFirstHop struct {
	nic   *model.NIC
	table *Table
	// comp is the NIC's subnet's computed routes with the reserved None
	// ranges the real table shows; nil when they cannot be computed (err).
	comp *Computed
	err  error
}

// TraceEffective traces dst from nic, whose real effective route table
// Azure reported (NIC.Effective), with src as the packet's source (invalid:
// the NIC's first address). The first hop selects from the real table; a
// drop there is a drop even when the configuration would route the packet.
// When the routes computed for the NIC's subnet select another next hop,
// Result.Drift is set and Findings carry COVERAGE_MODEL_DRIFT. Without an
// effective table it is TraceFrom from the NIC's subnet.
func (e *Engine) TraceEffective(nic *model.NIC, src, dst netip.Addr) Result {
	if nic == nil {
		return e.TraceFrom("", src, dst)
	}
	if !src.IsValid() && len(nic.PrivateIPs) > 0 {
		src = nic.PrivateIPs[0]
	}
	if nic.Effective == nil {
		if !src.IsValid() {
			return e.Trace(nic.SubnetID, dst)
		}
		return e.TraceFrom(nic.SubnetID, src, dst)
	}
	if !src.IsValid() {
		src = e.sourceAddr(nic.SubnetID, dst)
	}
	dst = dst.Unmap()
	res := Result{From: nic.SubnetID, Destination: dst, Source: src.Unmap(), Effective: true}
	if !dst.IsValid() {
		res.Gaps = []model.Gap{{ResourceID: nic.SubnetID, Kind: model.GapNotFound, Detail: "the destination address is unknown"}}
		res.Verdict = model.Unverified
		return res
	}
	fwd := &walker{e: e, src: res.Source, dst: dst, real: e.realFirstHop(nic)}
	fwd.run(nic.SubnetID)
	res.Hops, res.Arrival, res.Appliances = fwd.hops, fwd.arrival, fwd.appliances
	res.Findings, res.Gaps, res.Suspected = fwd.findings, fwd.gaps, fwd.suspected
	res.Needs = fwd.needs
	if fwd.drift != nil {
		res.Drift = fwd.drift
		res.Findings = appendFinding(res.Findings, fwd.drift.Finding(nic.ID))
	}
	if verdictOf(res.Findings, res.Gaps) != model.Unreachable && fwd.arrival.Kind != ArrivalNone {
		res.fwd = snapshotForward(&res)
		e.checkReturn(&res, nil)
	}
	res.Verdict = verdictOf(res.Findings, res.Gaps)
	return res
}

// realFirstHop builds (once per NIC) the real table and the computed
// comparison: computed with the reserved None ranges the real table shows,
// which vary by region and are not configuration.
func (e *Engine) realFirstHop(nic *model.NIC) *realFirstHop {
	key := nic.ID.Key()
	e.mu.Lock()
	if h, ok := e.real[key]; ok {
		e.mu.Unlock()
		return h
	}
	e.mu.Unlock()
	reserved := ReservedNoneFromEffective(nic.Effective)
	if reserved == nil {
		reserved = e.opts.reservedNone()
	}
	h := &realFirstHop{nic: nic, table: NewTable(nic.Effective)}
	h.comp, h.err = computeEffective(e.net, nic.SubnetID, reserved, &e.gateways)
	e.mu.Lock()
	if e.real == nil {
		e.real = map[string]*realFirstHop{}
	}
	e.real[key] = h
	e.mu.Unlock()
	return h
}

// stepReal routes the packet out of the NIC's subnet with the real table.
func (w *walker) stepReal(subnetID model.ResourceID, h *realFirstHop) (model.ResourceID, bool) {
	w.uncertain = false // the real table is evidence, not configuration
	i := h.table.LookupIndex(w.dst)
	var r model.Route
	found := i >= 0
	if found {
		r = h.table.Route(i)
	}
	if h.comp == nil {
		// The configuration could not be read: the real route still
		// decides a drop; anything beyond it cannot be followed.
		if !found || routeDrops(r, w.dst) {
			w.hop(subnetID, routePtr(r, found), "dropped")
			w.fail(w.realDropFinding(h, r, found, model.Route{}, false))
			return "", false
		}
		w.hop(subnetID, &r, "not followed: the routes of subnet "+SubnetLabel(subnetID)+" cannot be computed from configuration")
		w.gaps = appendGap(w.gaps, GapOf(subnetID, h.err))
		return "", false
	}
	c := h.comp
	comp, compFound := c.Table.Lookup(w.dst)
	if d, drifted := compareSelections(r, found, comp, compFound, c, w.dst); drifted {
		w.drift = &d
	}
	if !found {
		w.hop(subnetID, nil, "no route: dropped")
		w.fail(w.realDropFinding(h, r, false, comp, compFound))
		return "", false
	}
	annotateReal(w.e, c, h.nic, &r, w.dst)
	if strings.EqualFold(r.NextHopType, model.NextHopInterfaceEndpoint) && w.e.net.PrivateEndpoint(r.OriginID) == nil {
		w.hop(subnetID, &r, "private endpoint not in the model")
		w.gaps = appendGap(w.gaps, model.Gap{ResourceID: h.nic.ID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("the effective routes of %s send %s to a private endpoint (%s) that is in none of the VNets read", h.nic.Name, w.dst, routeLabel(r))})
		return "", false
	}
	return w.follow(c, &r, func(c *Computed, r *model.Route) {
		if !compFound || routeDrops(comp, w.dst) {
			// The configuration drops it as well: explain it by its cause.
			w.diagnoseDrop(c, r)
			return
		}
		w.fail(w.realDropFinding(h, *r, true, comp, compFound))
	})
}

// realDropFinding is the ROUTE_BLACKHOLE of a real effective route that
// drops the packet, naming the route the configuration would select.
func (w *walker) realDropFinding(h *realFirstHop, r model.Route, found bool, comp model.Route, compFound bool) Finding {
	sel := "no route matches " + w.dst.String()
	if found {
		sel = fmt.Sprintf("%s is selected for %s", routeLabel(r), w.dst)
	}
	msg := fmt.Sprintf("the effective routes of network interface %s (what Azure programs for subnet %s): %s, so Azure drops the packet.",
		h.nic.Name, SubnetLabel(h.nic.SubnetID), sel)
	f := newFinding(model.RouteBlackhole, h.nic.ID, h.nic.SubnetID, routePtr(r, found), "%s", msg)
	if compFound && !routeDrops(comp, w.dst) {
		f.Message += fmt.Sprintf(" The configuration would select %s: Azure does not program what the configuration says (a change still being applied, or routes from a source the provider does not read).", routeLabel(comp))
		f.Remediation = "Find out why Azure programs this route: compare the network interface's effective routes (az network nic show-effective-route-table) with the subnet's route table, the peerings and the gateway and Route Server routes, and re-apply or finish the change that should carry the destination. A configuration that looks right does not help while Azure drops the packet." + timeoutNote
	}
	return f
}

// compareSelections is CompareForDestination for selections already made.
func compareSelections(eff model.Route, realFound bool, comp model.Route, compFound bool, c *Computed, dst netip.Addr) (Drift, bool) {
	d := Drift{Destination: dst, Real: eff, RealFound: realFound, Computed: comp, ComputedFound: compFound}
	return d, selectionsDiffer(d, c)
}

// annotateReal gives a real route the origin of the computed route it
// corresponds to (same prefix, next hop type, address and state), so that
// findings name the route table, peering or gateway behind it; a real
// route the configuration does not explain is attributed to the NIC (its
// origin, when the reader gave none, says so). A
// private endpoint route is attributed to the endpoint holding dst in the
// VNet or a peered VNet.
func annotateReal(e *Engine, c *Computed, nic *model.NIC, r *model.Route, dst netip.Addr) {
	for _, cr := range c.Routes() {
		if cr.Prefix == r.Prefix.Masked() && strings.EqualFold(cr.NextHopType, r.NextHopType) && cr.NextHopIP == r.NextHopIP && isActive(&cr) == isActive(r) {
			r.Name, r.Origin, r.OriginID = cr.Name, cr.Origin, cr.OriginID
			return
		}
	}
	if r.Origin == "" {
		r.Origin = "effective route of " + nic.Name
	}
	r.OriginID = nic.ID
	if !strings.EqualFold(r.NextHopType, model.NextHopInterfaceEndpoint) {
		return
	}
	ix := e.addrs()
	vnets := []model.ResourceID{c.vnet.ID}
	for _, p := range c.vnet.Peerings {
		vnets = append(vnets, p.RemoteVNetID)
	}
	for _, v := range vnets {
		if pe := ix.privateEndpoint(v, dst); pe != nil {
			r.Origin, r.OriginID = "private endpoint "+pe.Name+", in the effective routes of "+nic.Name, pe.ID
			return
		}
	}
}

// routeDrops reports a selected route that drops the packet: next hop None,
// or Internet for a private address.
func routeDrops(r model.Route, dst netip.Addr) bool {
	switch {
	case strings.EqualFold(r.NextHopType, model.NextHopNone):
		return true
	case strings.EqualFold(r.NextHopType, model.NextHopInternet):
		return IsPrivate(dst)
	}
	return false
}

func routePtr(r model.Route, found bool) *model.Route {
	if !found {
		return nil
	}
	return &r
}
