// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// Destination is one address pullpath_node_routes traces to: as written
// (traces and findings are keyed by it) and parsed.
type Destination struct {
	Text string
	Addr netip.Addr
}

// NodeRoutesResult is the evaluation of pullpath_node_routes.
type NodeRoutesResult struct {
	// Sets are the evaluated route sets, in the order of the facts.
	Sets []RouteSetResult
	// Findings hold each cause once per route set: the set's own findings
	// (COVERAGE_ROUTES_COMPUTED, the evidence its routes lack), then each
	// trace's findings with their destination, leaving out those the set
	// already reports (same code, resource and pool). Errors first, then
	// warnings, then info, keeping route set and destination order within
	// a severity.
	Findings []model.Finding
	// Needs is the pending evidence (model.Network.Pending) a trace
	// reached, in Key order: while it is not empty the result is
	// provisional (see Result.Needs).
	Needs []model.Evidence
}

// RouteSetResult is an evaluated route set.
type RouteSetResult struct {
	Set    *model.RouteSet
	Source RouteSource
	// Routes is the route set: the effective table, or the computed one
	// (empty, never nil, when it cannot be computed; Findings say why).
	Routes []model.Route
	// Findings concern the whole set: COVERAGE_ROUTES_COMPUTED and the
	// evidence its routes lack.
	Findings []model.Finding
	// Traces are one per destination, in the order given.
	Traces []NodeTrace
}

// NodeTrace is one destination traced from a route set. Findings carry the
// destination in Endpoint (the finding's "what it is about").
type NodeTrace struct {
	Destination Destination
	Source      netip.Addr
	// Selected is the route the set selects for the destination, nil when
	// none matches or the routes are unknown.
	Selected *model.Route
	// Hops are never nil.
	Hops          []string
	Verdict       model.Verdict
	ReturnVerdict model.Verdict // "" when the return path was not decided
	ReturnNote    string
	Findings      []model.Finding
	// Suspected hold only if missing evidence does not change the route;
	// never counted in the verdict.
	Suspected []model.Finding
}

// NodeRoutes evaluates the route sets of pullpath_node_routes: each set's
// routes (its real effective table, or the routes computed from
// configuration), and each destination traced from it with the route
// engine, the security rules on the path and the return path. It is pure
// and deterministic.
func NodeRoutes(f model.NodeRouteFacts, dests []Destination) NodeRoutesResult {
	n := f.Network
	if n == nil {
		n = model.NewNetwork()
	}
	engines := newNodeEngines(n)
	res := NodeRoutesResult{Sets: make([]RouteSetResult, 0, len(f.Sets))}
	for _, set := range f.Sets {
		res.Sets = append(res.Sets, evaluateRouteSet(engines.forSet(set), f.Cluster, set, dests))
	}
	res.Findings = routeSetsFindings(res.Sets)
	res.Needs = engines.needs
	model.SortEvidence(res.Needs)
	return res
}

// routeSetsFindings are NodeRoutesResult.Findings.
func routeSetsFindings(sets []RouteSetResult) []model.Finding {
	var all []model.Finding
	for _, res := range sets {
		setLevel := map[string]bool{}
		for _, f := range res.Findings {
			setLevel[findingCause(f)] = true
			all = appendUniqueFinding(all, f)
		}
		for _, t := range res.Traces {
			for _, f := range t.Findings {
				if !setLevel[findingCause(f)] {
					all = appendUniqueFinding(all, f)
				}
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return severityRank(all[i].Severity) < severityRank(all[j].Severity) })
	return all
}

// findingCause identifies a cause within one route set.
func findingCause(f model.Finding) string {
	return string(f.Code) + "\x00" + f.ResourceID.Key() + "\x00" + f.NodePool
}

// appendUniqueFinding appends f unless an identical finding is there.
func appendUniqueFinding(list []model.Finding, f model.Finding) []model.Finding {
	for _, have := range list {
		if have == f {
			return list
		}
	}
	return append(list, f)
}

// nodeEngines hands out route engines over one network: one for computed
// route sets (the default reserved None ranges), and one per set of
// reserved ranges a real effective table shows, so that the path traced
// for an effective route set is computed with the same reserved ranges as
// the comparison (routing.Engine.TraceEffective) and the real table itself.
// Sets with the same ranges share an engine, and so its computed tables.
// Every engine shares one memo of what the VirtualNetwork service tag
// means per VNet, for the security rules on the traced paths.
type nodeEngines struct {
	net    *model.Network
	by     map[string]*nodeEvaluator
	spaces func(model.ResourceID) security.Space
	// needs is the pending evidence the traces reached.
	needs []model.Evidence
}

// nodeEvaluator is a route engine with what evaluating the security rules
// on its paths needs: the network and the VirtualNetwork tag spaces.
type nodeEvaluator struct {
	*routing.Engine
	net    *model.Network
	spaces func(model.ResourceID) security.Space
	needs  *[]model.Evidence
}

func newNodeEngines(net *model.Network) *nodeEngines {
	return &nodeEngines{net: net, by: map[string]*nodeEvaluator{}, spaces: SpacesOf(net)}
}

// forSet returns the engine for a route set.
func (ne *nodeEngines) forSet(set *model.RouteSet) *nodeEvaluator {
	var reserved []netip.Prefix
	if set.Effective != nil {
		reserved = routing.ReservedNoneFromEffective(set.Effective)
	}
	key := fmt.Sprint(reserved)
	if e, ok := ne.by[key]; ok {
		return e
	}
	e := &nodeEvaluator{Engine: routing.NewEngine(ne.net, routing.Options{ReservedNone: reserved}), net: ne.net, spaces: ne.spaces, needs: &ne.needs}
	ne.by[key] = e
	return e
}

// blocked reports a set nothing is known about: a pool whose subnet could
// not be determined.
func blocked(set *model.RouteSet) bool { return set.SubnetID.IsZero() }

// evaluateRouteSet computes (or takes) the set's routes and traces each
// destination with the route engine. Computed tables come from the engine,
// which computes each subnet once, so pools sharing a subnet share one
// table.
//
// A set with a real effective table uses it: its routes are the route set,
// its selected route is the real one, and the path is traced with it
// (routing.Engine.TraceEffective): the first hop is the one Azure takes,
// the hops beyond use computed routes, and a destination the computed
// routes select another way for is COVERAGE_MODEL_DRIFT on the trace.
func evaluateRouteSet(e *nodeEvaluator, cl *model.Cluster, set *model.RouteSet, dests []Destination) RouteSetResult {
	res := RouteSetResult{Set: set, Source: RouteSourceComputed, Routes: []model.Route{}}
	if set.Effective != nil {
		res.Source = RouteSourceEffective
		res.Routes = append(res.Routes, set.Effective...)
	} else {
		res.Findings = append(res.Findings, routeSetComputedFinding(set))
	}
	notes := routeSetNotes(cl, set)
	res.Findings = append(res.Findings, notes...)

	var comp *routing.Computed
	var compErr error
	if !blocked(set) {
		comp, compErr = e.EffectiveRoutes(set.SubnetID)
		switch {
		case compErr != nil && set.Effective == nil:
			res.Findings = append(res.Findings, nodeGapFinding(routing.GapOf(set.SubnetID, compErr), set.Pool, "",
				"the routes of subnet "+routing.SubnetLabel(set.SubnetID)))
		case compErr == nil && set.Effective == nil:
			res.Routes = append(res.Routes, comp.Routes()...)
			for _, g := range comp.Gaps {
				res.Findings = append(res.Findings, nodeGapFinding(g, set.Pool, "", "the routes of subnet "+routing.SubnetLabel(set.SubnetID)))
			}
		}
	}

	var realTable *routing.Table
	if set.Effective != nil {
		realTable = routing.NewTable(set.Effective)
	}
	for _, d := range dests {
		var t NodeTrace
		switch {
		case blocked(set):
			t = blockedTrace(set, notes, d)
		case set.Effective != nil:
			t = e.effectiveTrace(set, realTable, d)
		default:
			t = e.computedTrace(set, comp, d)
		}
		if hop, ok := nodeProxyHop(cl, d); ok {
			t.Hops = append(t.Hops, hop)
		}
		res.Traces = append(res.Traces, t)
	}
	foldComputedNotes(&res)
	return res
}

// nodeProxyHop is the cluster's HTTPS proxy as the last hop of a trace:
// the route traced is the packet's, but containerd hands an HTTPS pull to
// the proxy unless noProxy matches (proxy.go; an address is matched only
// by an IP or CIDR entry).
func nodeProxyHop(cl *model.Cluster, d Destination) (string, bool) {
	if cl == nil || cl.HTTPProxy == nil {
		return "", false
	}
	ep, ok, _ := cl.HTTPProxy.Endpoint()
	if !ok {
		return "", false
	}
	if m := cl.HTTPProxy.MatchNoProxy(d.Addr.String()); m.Bypass {
		return fmt.Sprintf("%s not used: noProxy entry %q matches %s, so an image pull addressed to it goes direct as traced", ep.Label(), m.Entry, d.Addr), true
	}
	return fmt.Sprintf("%s: an image pull goes to the proxy instead of %s (no noProxy entry matches it), unless noProxy matches the hostname it was asked by; trace the proxy's address for the nodes' leg", ep.Label(), d.Addr), true
}

// foldComputedNotes moves the route engine's COVERAGE_ROUTES_COMPUTED
// notes about a cross-check read it could not make (a Virtual WAN hub's
// effective routes) from the traces into the set's one note, once each, as
// pullpath_verification folds them into the pool's.
func foldComputedNotes(res *RouteSetResult) {
	var notes []model.Finding
	for i := range res.Traces {
		kept := res.Traces[i].Findings[:0]
		for _, f := range res.Traces[i].Findings {
			if f.Code != model.CoverageRoutesComputed || f.ResourceID.IsZero() {
				kept = append(kept, f)
				continue
			}
			seen := false
			for _, n := range notes {
				seen = seen || n.ResourceID.Equal(f.ResourceID)
			}
			if !seen {
				notes = append(notes, f)
			}
		}
		res.Traces[i].Findings = kept
	}
	if len(notes) == 0 {
		return
	}
	for i := range res.Findings {
		if f := &res.Findings[i]; f.Code == model.CoverageRoutesComputed {
			for _, n := range notes {
				f.Message += " " + n.Message
				f.Remediation += " " + strings.TrimPrefix(n.Remediation, "Nothing to fix. ")
			}
			return
		}
	}
	for _, n := range notes {
		n.NodePool, n.Endpoint = res.Set.Pool, ""
		res.Findings = append(res.Findings, n)
	}
}

// routeSetNotes are the findings about a whole set that come from reading
// it: why a pool's subnet is unknown, and each effective route table that
// could not be read.
func routeSetNotes(cl *model.Cluster, set *model.RouteSet) []model.Finding {
	var notes []model.Finding
	if blocked(set) {
		notes = append(notes, poolWithoutSubnetFinding(cl, set))
	}
	for _, eg := range set.EffectiveGaps {
		notes = append(notes, nodeGapFinding(eg.Gap, set.Pool, "",
			"the effective route table of network interface "+eg.NIC.Name+" (the routes were computed from configuration instead)"))
	}
	return notes
}

// poolWithoutSubnetFinding: the pool has no vnetSubnetID and the
// AKS-managed VNet of the node resource group was not found, or could not
// be looked for.
func poolWithoutSubnetFinding(cl *model.Cluster, set *model.RouteSet) model.Finding {
	if cl == nil {
		cl = &model.Cluster{}
	}
	if set.SubnetGap != nil {
		return nodeGapFinding(*set.SubnetGap, set.Pool, "",
			"the subnet of node pool "+set.Pool+" (the AKS-managed virtual network in "+cl.NodeResourceGroup+")")
	}
	msg := fmt.Sprintf("Node pool %s reports no subnet (vnetSubnetID is empty) and no AKS-managed virtual network (aks-vnet-*) was found in "+
		"its node resource group %s, so its routes cannot be determined; every trace from it is unverified, never reachable.", set.Pool, cl.NodeResourceGroup)
	fix := "Give the pool a subnet of your own virtual network (vnetSubnetID), or let the identity that runs the plan read the " +
		"cluster's node resource group (Microsoft.Network/virtualNetworks/read)."
	return model.NewFinding(model.EvidenceNotFound, set.Pool, "", cl.ID+model.ResourceID("/agentPools/"+set.Pool), msg, fix)
}

// blockedTrace: nothing is known about the routes; the set's notes are the
// evidence the trace lacks.
func blockedTrace(set *model.RouteSet, notes []model.Finding, d Destination) NodeTrace {
	t := NodeTrace{Destination: d, Source: set.Source, Hops: []string{}}
	for _, f := range notes {
		f.Endpoint = d.Text
		t.Findings = append(t.Findings, f)
	}
	t.Verdict = model.VerdictOf(t.Findings)
	if t.Verdict == model.Reachable {
		t.Verdict = model.Unverified // never reachable without routes
	}
	return t
}

// computedTrace traces with the routes computed from configuration.
func (e *nodeEvaluator) computedTrace(set *model.RouteSet, comp *routing.Computed, d Destination) NodeTrace {
	r := e.traceFrom(set, d.Addr)
	t := NodeTrace{Destination: d, Source: r.Source}
	if comp != nil {
		if sel, ok := comp.Select(d.Addr); ok {
			t.Selected = &sel
		}
	}
	e.followed(set, d, r, &t)
	return t
}

// followed completes a trace whose path the route engine followed: its
// hops, route findings, suspicions, the security rules on the path, the
// verdict and the return path.
func (e *nodeEvaluator) followed(set *model.RouteSet, d Destination, r routing.Result, t *NodeTrace) {
	t.Hops = append([]string{}, r.Path()...)
	t.Findings = routeResultFindings(r, set, d)
	t.Suspected = suspectedFindings(r, set.Pool, d)
	e.checkTraceSecurity(set, d, r, t)
	t.Verdict = model.VerdictOf(t.Findings)
	t.ReturnVerdict, t.ReturnNote = r.Return.Verdict, r.Return.Note
}

// effectiveTrace traces a set whose NIC has a real effective route table:
// the first hop selects from that table (what Azure programs), so a drop
// there is a drop even when the configuration would route the packet, and
// a route the configuration lacks is followed; the routes computed from
// configuration are the comparison (COVERAGE_MODEL_DRIFT).
func (e *nodeEvaluator) effectiveTrace(set *model.RouteSet, realTable *routing.Table, d Destination) NodeTrace {
	nic := *set.NIC
	nic.Effective = set.Effective
	r := e.TraceEffective(&nic, set.Source, d.Addr)
	e.addNeeds(r)
	t := NodeTrace{Destination: d, Source: r.Source}
	if realRoute, ok := realTable.Lookup(d.Addr); ok {
		t.Selected = &realRoute
	}
	e.followed(set, d, r, &t)
	return t
}

// nodeFlowProtocol and nodeFlowPort are the flow traced to every
// destination: destinations are addresses without a port, and the flow an
// image pull needs is HTTPS to the registry's endpoints.
const (
	nodeFlowProtocol = "Tcp"
	nodeFlowPort     = 443
)

// checkTraceSecurity evaluates the network security groups on a trace that
// arrived, with the code verification uses (CheckSecurity): the node NIC's
// group (a scale-set pool's NIC configuration's) and the node subnet's
// outbound, those of every appliance on the path in and out, and the
// destination's subnet and NIC inbound. The groups passed are appended to
// the hops; a denial, an undecidable rule or a group that could not be read
// becomes a finding of the trace. A trace that already failed is left
// alone: a dropped packet meets no security rule.
func (e *nodeEvaluator) checkTraceSecurity(set *model.RouteSet, d Destination, r routing.Result, t *NodeTrace) {
	for _, f := range t.Findings {
		if f.Severity == model.SeverityError {
			return
		}
	}
	sf := SecurityFlow{SubnetID: set.SubnetID, NIC: set.NodeNIC, NICGroupID: set.NICGroupID, NICGroupGap: set.NICGroupGap,
		Dest: d.Addr, Protocol: nodeFlowProtocol, Port: nodeFlowPort}
	sr := CheckSecurity(e.net, sf, r, e.spaces)
	for _, ev := range sr.Needs {
		*e.needs = model.AddNeed(*e.needs, ev)
	}
	t.Hops = append(t.Hops, sr.Hops...)
	for _, f := range sr.Findings {
		f.NodePool, f.Endpoint = set.Pool, d.Text
		t.Findings = append(t.Findings, f)
	}
	for _, g := range sr.Gaps {
		t.Findings = append(t.Findings, nodeGapFinding(g, set.Pool, d.Text,
			"the security rules from subnet "+routing.SubnetLabel(set.SubnetID)+" to "+d.Addr.String()))
	}
}

// traceFrom traces from the set's node address, or from the subnet's first
// host address when no node address is known.
func (e *nodeEvaluator) traceFrom(set *model.RouteSet, dst netip.Addr) routing.Result {
	var r routing.Result
	if set.Source.IsValid() {
		r = e.TraceFrom(set.SubnetID, set.Source, dst)
	} else {
		r = e.Trace(set.SubnetID, dst)
	}
	e.addNeeds(r)
	return r
}

// addNeeds records the pending evidence a trace reached.
func (e *nodeEvaluator) addNeeds(r routing.Result) {
	for _, ev := range r.Needs {
		*e.needs = model.AddNeed(*e.needs, ev)
	}
}

// routeResultFindings are a trace's route findings and, for each gap it
// depends on, an evidence finding.
func routeResultFindings(r routing.Result, set *model.RouteSet, d Destination) []model.Finding {
	var out []model.Finding
	for _, f := range r.Findings {
		out = append(out, f.ToModel(set.Pool, d.Text))
	}
	return append(out, routeGapFindings(r, set, d)...)
}

// routeGapFindings are the evidence findings of the gaps a trace depends on.
func routeGapFindings(r routing.Result, set *model.RouteSet, d Destination) []model.Finding {
	var out []model.Finding
	for _, g := range r.Gaps {
		out = append(out, nodeGapFinding(g, set.Pool, d.Text, "the route from subnet "+routing.SubnetLabel(set.SubnetID)+" to "+d.Addr.String()))
	}
	return out
}

func suspectedFindings(r routing.Result, pool string, d Destination) []model.Finding {
	out := []model.Finding{}
	for _, f := range r.Suspected {
		out = append(out, f.ToModel(pool, d.Text))
	}
	return out
}

// routeSetComputedFinding is the set's COVERAGE_ROUTES_COMPUTED.
func routeSetComputedFinding(set *model.RouteSet) model.Finding {
	what := "Routes"
	switch {
	case set.Pool != "":
		what = "Routes for node pool " + set.Pool
	case set.NIC != nil:
		what = "Routes for network interface " + set.NIC.Name
	}
	resource := set.SubnetID
	if set.NIC != nil {
		resource = set.NIC.ID
	}
	subnet := "an unknown subnet"
	if !blocked(set) {
		subnet = "subnet " + routing.SubnetLabel(set.SubnetID)
	}
	msg := fmt.Sprintf("%s were computed from configuration (the route table of %s, the VNet's address space, peerings, "+
		"private endpoints and gateway routes) because %s. A route added by hand on a node is invisible here on purpose.",
		what, subnet, computedWhy(set))
	fix := "Nothing to fix. To compare with what Azure programs, read the effective routes of a standalone VM's network " +
		"interface in the same subnet (network_interface_id); differences show up as COVERAGE_MODEL_DRIFT."
	return model.NewFinding(model.CoverageRoutesComputed, set.Pool, "", resource, msg, fix)
}

// computedWhy says, in words, why a set's routes are computed.
func computedWhy(set *model.RouteSet) string {
	switch set.Computed {
	case model.ComputedSubnetUnknown:
		return "its subnet is unknown"
	case model.ComputedEffectiveUnread:
		if set.Pool == "" {
			return "its effective route table could not be read (see the EVIDENCE finding; a deallocated VM has none)"
		}
		return "the effective route table of its nodes' network interfaces could not be read (see the EVIDENCE finding)"
	case model.ComputedNoNICInSubnet:
		return "none of its nodes' network interfaces is in the pool's subnet"
	case model.ComputedNICsUnread:
		return "its virtual machines' network interfaces could not be read"
	case model.ComputedNoRunningNode:
		return "it has no running node, so there is no network interface to ask"
	case model.ComputedNoNodes:
		return "it has no nodes, so there is no network interface to ask (and scale-set instances have no effective-route API anyway)"
	case model.ComputedScaleSetPool:
		return "it is a scale-set pool, and scale-set instance network interfaces have no effective-route API"
	case model.ComputedScaleSetNIC:
		return "it is a scale-set instance's network interface, and those have no effective-route API"
	case model.ComputedPrivateEndpoint:
		pe := ""
		if set.NIC != nil {
			pe = set.NIC.PrivateEndpointID.Name()
		}
		return "it is the network interface of private endpoint " + pe + ", which has no effective route table"
	case model.ComputedNoVM:
		return "it is attached to no virtual machine, and Azure shows effective routes only for the network interface of a running VM"
	case model.ComputedPlanned:
		return "the planned changes (planned_changes_file) alter the network, and the effective route table Azure has now describes it before them"
	case model.ComputedNoEffectiveAPI:
		return "Azure has no effective-route API for it"
	case model.ComputedSubnetGiven:
		return "a subnet was given: its routes are what Azure would program for any network interface in it " +
			"(for a VM's real effective routes, give its network interface in network_interface_id)"
	}
	return "Azure gave no effective route table for it"
}

// nodeGapFinding is the evidence finding of a gap for pullpath_node_routes
// (pool and destination may be empty).
func nodeGapFinding(gap model.Gap, pool, dest, what string) model.Finding {
	return networkPathWords.gapFinding(gap, pool, dest, what)
}
