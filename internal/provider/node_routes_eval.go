// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Route sources of pullpath_node_routes (route_sets[*].source,
// traces[*].route_source).
const (
	nodeRouteSourceEffective = "effective"
	nodeRouteSourceComputed  = "computed"
)

// nodeRouteSet is one route set to report: the routes of a node pool, a
// subnet or a network interface, as gathered. Evaluating it (routes,
// traces, findings) is pure: evaluateNodeRouteSet.
type nodeRouteSet struct {
	// Pool is the node pool's name; empty for subnet_id and
	// network_interface_id.
	Pool string
	// SubnetID is the subnet the routes belong to; empty when a pool's
	// subnet could not be determined (then Blocked is set).
	SubnetID model.ResourceID
	// NIC is the network interface asked for, or the one whose effective
	// route table stands for the pool; nil for computed pool and subnet sets.
	NIC *model.NIC
	// Effective is NIC's real effective route table; nil means the routes
	// are computed from configuration (ComputedWhy says why).
	Effective   []model.Route
	ComputedWhy string
	// Source is the node address flows start from; invalid means the first
	// address Azure hands out in the subnet (a pool at zero nodes).
	Source netip.Addr
	// NodeNIC is a node's network interface in the subnet (its application
	// security groups, and its security group unless NICGroupID is set);
	// nil for a pool at zero nodes and for subnet_id.
	NodeNIC *model.NIC
	// NICGroupID is the NIC-level security group of a scale-set pool: the
	// one of the scale set's NIC configuration, which every new instance
	// gets.
	NICGroupID model.ResourceID
	// NICGroupGap is set for a scale-set pool whose scale set was not read:
	// the group of its NIC configuration is unknown.
	NICGroupGap *model.Gap
	// Notes are findings about the whole set made while gathering (an
	// effective route table that could not be read, a subnet that could
	// not be determined).
	Notes []model.Finding
	// Blocked: nothing about the routes can be determined; Notes say why.
	Blocked bool
}

// nodeDestination is one element of `destinations`: as written (the trace
// is keyed by it) and parsed.
type nodeDestination struct {
	Text string
	Addr netip.Addr
}

// nodeRouteSetResult is an evaluated route set.
type nodeRouteSetResult struct {
	Set    *nodeRouteSet
	Source string // nodeRouteSourceEffective or nodeRouteSourceComputed
	// Routes is the route set: the effective table, or the computed one
	// (empty when it cannot be computed; Findings say why).
	Routes []model.Route
	// Findings concern the whole set: COVERAGE_ROUTES_COMPUTED and the
	// evidence its routes lack.
	Findings []model.Finding
	Traces   []nodeTraceResult
}

// nodeTraceResult is one destination traced from a route set. Findings
// carry the destination in Endpoint (the finding's "what it is about").
type nodeTraceResult struct {
	Destination nodeDestination
	Source      netip.Addr
	// Selected is the route the set selects for the destination, nil when
	// none matches or the routes are unknown.
	Selected      *model.Route
	Hops          []string
	Verdict       model.Verdict
	ReturnVerdict model.Verdict // "" when the return path was not decided
	ReturnNote    string
	Findings      []model.Finding
	// Suspected hold only if missing evidence does not change the route;
	// never counted in the verdict.
	Suspected []model.Finding
}

// nodeEngines hands out route engines over one network: one for computed
// route sets (the default reserved None ranges), and one per set of
// reserved ranges a real effective table shows, so that the path traced
// for an effective route set is computed with the same reserved ranges as
// the comparison (routing.Engine.CompareNIC) and the real table itself.
// Sets with the same ranges share an engine, and so its computed tables.
// Every engine shares one memo of what the VirtualNetwork service tag
// means per VNet, for the security rules on the traced paths.
type nodeEngines struct {
	net    *model.Network
	by     map[string]*nodeEvaluator
	spaces func(model.ResourceID) security.Space
}

// nodeEvaluator is a route engine with what evaluating the security rules
// on its paths needs: the network and the VirtualNetwork tag spaces.
type nodeEvaluator struct {
	*routing.Engine
	net    *model.Network
	spaces func(model.ResourceID) security.Space
}

func newNodeEngines(net *model.Network) *nodeEngines {
	return &nodeEngines{net: net, by: map[string]*nodeEvaluator{}, spaces: verify.SpacesOf(net)}
}

// forSet returns the engine for a route set.
func (ne *nodeEngines) forSet(set *nodeRouteSet) *nodeEvaluator {
	var reserved []netip.Prefix
	if set.Effective != nil {
		reserved = routing.ReservedNoneFromEffective(set.Effective)
	}
	key := fmt.Sprint(reserved)
	if e, ok := ne.by[key]; ok {
		return e
	}
	e := &nodeEvaluator{Engine: routing.NewEngine(ne.net, routing.Options{ReservedNone: reserved}), net: ne.net, spaces: ne.spaces}
	ne.by[key] = e
	return e
}

// evaluateNodeRouteSet computes (or takes) the set's routes and traces each
// destination with the route engine. Computed tables come from the engine,
// which computes each subnet once, so pools sharing a subnet share one
// table.
//
// A set with a real effective table uses it: its routes are the route set
// and its selected route is the real one. The path beyond is traced with
// the engine when the computed routes agree with the real ones for the
// destination; when they do not (COVERAGE_MODEL_DRIFT) the model cannot
// follow the route Azure really takes, so the trace stops after the first
// hop: unreachable when the real route drops the packet, else unverified.
func evaluateNodeRouteSet(e *nodeEvaluator, set *nodeRouteSet, dests []nodeDestination) nodeRouteSetResult {
	res := nodeRouteSetResult{Set: set, Source: nodeRouteSourceComputed, Routes: []model.Route{}}
	if set.Effective != nil {
		res.Source = nodeRouteSourceEffective
		res.Routes = append(res.Routes, set.Effective...)
	} else {
		res.Findings = append(res.Findings, routesComputedFinding(set))
	}
	res.Findings = append(res.Findings, set.Notes...)

	var comp *routing.Computed
	var compErr error
	if !set.Blocked {
		comp, compErr = e.EffectiveRoutes(set.SubnetID)
		switch {
		case compErr != nil && set.Effective == nil:
			res.Findings = append(res.Findings, nodeRoutesGapFinding(gapOfRouting(set.SubnetID, compErr), set.Pool, "",
				"the routes of "+nodeSubnetLabel(set.SubnetID)))
		case compErr == nil && set.Effective == nil:
			res.Routes = append(res.Routes, comp.Routes...)
			for _, g := range comp.Gaps {
				res.Findings = append(res.Findings, nodeRoutesGapFinding(g, set.Pool, "", "the routes of "+nodeSubnetLabel(set.SubnetID)))
			}
		}
	}

	var realTable *routing.Table
	if set.Effective != nil {
		realTable = routing.NewTable(set.Effective)
	}
	for _, d := range dests {
		var t nodeTraceResult
		switch {
		case set.Blocked:
			t = blockedTrace(set, d)
		case set.Effective != nil:
			t = effectiveTrace(e, set, realTable, d)
		default:
			t = computedTrace(e, set, comp, d)
		}
		res.Traces = append(res.Traces, t)
	}
	return res
}

// blockedTrace: nothing is known about the routes; the set's notes are the
// evidence the trace lacks.
func blockedTrace(set *nodeRouteSet, d nodeDestination) nodeTraceResult {
	t := nodeTraceResult{Destination: d, Source: set.Source, Hops: []string{}}
	for _, f := range set.Notes {
		f.Endpoint = d.Text
		t.Findings = append(t.Findings, f)
	}
	t.Verdict = nodeTraceVerdict(t.Findings)
	if t.Verdict == model.Reachable {
		t.Verdict = model.Unverified // never reachable without routes
	}
	return t
}

// computedTrace traces with the routes computed from configuration.
func computedTrace(e *nodeEvaluator, set *nodeRouteSet, comp *routing.Computed, d nodeDestination) nodeTraceResult {
	r := traceFrom(e, set, d.Addr)
	t := nodeTraceResult{Destination: d, Source: r.Source, Hops: nonNilStrings(r.Path())}
	if comp != nil {
		if sel, ok := comp.Select(d.Addr); ok {
			t.Selected = &sel
		}
	}
	t.Findings = routeResultFindings(r, set, d)
	t.Suspected = suspectedFindings(r, set.Pool, d)
	e.checkSecurity(set, d, r, &t)
	t.Verdict = nodeTraceVerdict(t.Findings)
	t.ReturnVerdict, t.ReturnNote = r.Return.Verdict, r.Return.Note
	return t
}

// effectiveTrace traces a set whose NIC has a real effective route table.
func effectiveTrace(e *nodeEvaluator, set *nodeRouteSet, realTable *routing.Table, d nodeDestination) nodeTraceResult {
	r := traceFrom(e, set, d.Addr)
	t := nodeTraceResult{Destination: d, Source: r.Source}
	realRoute, realFound := realTable.Lookup(d.Addr)
	if realFound {
		t.Selected = &realRoute
	}
	nic := *set.NIC
	nic.Effective = set.Effective
	drift, drifted, compared, err := e.CompareNIC(&nic, d.Addr)
	if compared && err == nil && !drifted {
		// The computed routes select what Azure selects: the engine's path
		// is the real one.
		t.Hops = nonNilStrings(r.Path())
		t.Findings = routeResultFindings(r, set, d)
		t.Suspected = suspectedFindings(r, set.Pool, d)
		e.checkSecurity(set, d, r, &t)
		t.Verdict = nodeTraceVerdict(t.Findings)
		t.ReturnVerdict, t.ReturnNote = r.Return.Verdict, r.Return.Note
		return t
	}

	// The model cannot follow the real route: report the first hop as Azure
	// takes it, the drift, the evidence the computation lacked, and a drop
	// when the real route drops.
	var outcome string
	if compared && err == nil {
		f := drift.Finding(nic.ID).ToModel(set.Pool, d.Text)
		if f.Remediation == "" {
			f.Remediation = driftRemediation
		}
		t.Findings = append(t.Findings, f)
		outcome = "not followed: the routes computed from configuration select " + describeSelected(drift.Computed, drift.ComputedFound)
	} else {
		outcome = "not followed: the routes of " + nodeSubnetLabel(set.SubnetID) + " cannot be computed from configuration"
	}
	for _, g := range r.Gaps {
		t.Findings = append(t.Findings, nodeRoutesGapFinding(g, set.Pool, d.Text, "the route from "+nodeSubnetLabel(set.SubnetID)+" to "+d.Addr.String()))
	}
	if routeDrops(realRoute, realFound, d.Addr) {
		outcome = "dropped"
		t.Findings = append(t.Findings, effectiveDropFinding(set, realRoute, realFound, d))
	}
	t.Hops = []string{nodeHopText(set.SubnetID, realRoute, realFound, outcome)}
	t.Verdict = nodeTraceVerdict(t.Findings)
	if t.Verdict == model.Reachable {
		t.Verdict = model.Unverified
	}
	return t
}

// nodeFlowProtocol and nodeFlowPort are the flow traced to every
// destination: destinations are addresses without a port, and the flow an
// image pull needs is HTTPS to the registry's endpoints.
const (
	nodeFlowProtocol = "Tcp"
	nodeFlowPort     = 443
)

// checkSecurity evaluates the network security groups on a trace that
// arrived, with the code verification uses (verify.CheckSecurity): the
// node NIC's group (a scale-set pool's NIC configuration's) and the node
// subnet's outbound, those of every appliance on the path in and out, and
// the destination's subnet and NIC inbound. The groups passed are appended
// to the hops; a denial, an undecidable rule or a group that could not be
// read becomes a finding of the trace. A trace that already failed is left
// alone: a dropped packet meets no security rule.
func (e *nodeEvaluator) checkSecurity(set *nodeRouteSet, d nodeDestination, r routing.Result, t *nodeTraceResult) {
	for _, f := range t.Findings {
		if f.Severity == model.SeverityError {
			return
		}
	}
	sf := verify.SecurityFlow{SubnetID: set.SubnetID, NIC: set.NodeNIC, NICGroupID: set.NICGroupID, NICGroupGap: set.NICGroupGap,
		Dest: d.Addr, Protocol: nodeFlowProtocol, Port: nodeFlowPort}
	sr := verify.CheckSecurity(e.net, sf, r, e.spaces)
	t.Hops = append(t.Hops, sr.Hops...)
	for _, f := range sr.Findings {
		f.NodePool, f.Endpoint = set.Pool, d.Text
		t.Findings = append(t.Findings, f)
	}
	for _, g := range sr.Gaps {
		t.Findings = append(t.Findings, nodeRoutesGapFinding(g, set.Pool, d.Text,
			"the security rules from "+nodeSubnetLabel(set.SubnetID)+" to "+d.Addr.String()))
	}
}

// traceFrom traces from the set's node address, or from the subnet's first
// host address when no node address is known.
func traceFrom(e *nodeEvaluator, set *nodeRouteSet, dst netip.Addr) routing.Result {
	if set.Source.IsValid() {
		return e.TraceFrom(set.SubnetID, set.Source, dst)
	}
	return e.Trace(set.SubnetID, dst)
}

// routeResultFindings are a trace's route findings and, for each gap it
// depends on, an evidence finding.
func routeResultFindings(r routing.Result, set *nodeRouteSet, d nodeDestination) []model.Finding {
	var out []model.Finding
	for _, f := range r.Findings {
		out = append(out, f.ToModel(set.Pool, d.Text))
	}
	for _, g := range r.Gaps {
		out = append(out, nodeRoutesGapFinding(g, set.Pool, d.Text, "the route from "+nodeSubnetLabel(set.SubnetID)+" to "+d.Addr.String()))
	}
	return out
}

func suspectedFindings(r routing.Result, pool string, d nodeDestination) []model.Finding {
	out := []model.Finding{}
	for _, f := range r.Suspected {
		out = append(out, f.ToModel(pool, d.Text))
	}
	return out
}

// nodeTraceVerdict is the catalogue's verdict rule over a trace's findings.
func nodeTraceVerdict(fs []model.Finding) model.Verdict { return model.VerdictOf(fs) }

// routeDrops reports a selected route that drops the packet: none matches,
// next hop None, or Internet for a private address.
func routeDrops(r model.Route, found bool, dst netip.Addr) bool {
	if !found {
		return true
	}
	switch {
	case strings.EqualFold(r.NextHopType, model.NextHopNone):
		return true
	case strings.EqualFold(r.NextHopType, model.NextHopInternet):
		return routing.IsPrivate(dst)
	}
	return false
}

// effectiveDropFinding is the ROUTE_BLACKHOLE of a real effective route
// that drops the destination.
func effectiveDropFinding(set *nodeRouteSet, r model.Route, found bool, d nodeDestination) model.Finding {
	var msg string
	if found {
		msg = fmt.Sprintf("The effective routes of network interface %s (subnet %s) select %s for %s, so Azure drops the packet.",
			set.NIC.Name, nodeSubnetLabel(set.SubnetID), describeSelected(r, true), d.Addr)
	} else {
		msg = fmt.Sprintf("No effective route of network interface %s (subnet %s) matches %s, so Azure drops the packet.",
			set.NIC.Name, nodeSubnetLabel(set.SubnetID), d.Addr)
	}
	fix := "Give the subnet a route that carries the destination (peering, gateway transit, or a UDR to an appliance that reaches it), " +
		"or remove the route that drops it. Nodes see a connection timeout; credentials and imagePullSecrets are irrelevant here."
	return model.NewFinding(model.RouteBlackhole, set.Pool, d.Text, set.NIC.ID, msg, fix)
}

// driftRemediation is what to do about COVERAGE_MODEL_DRIFT.
const driftRemediation = "Find what the configuration misses: compare the network interface's effective routes " +
	"(az network nic show-effective-route-table) with the subnet's route table, the peerings and the gateway's learned routes. " +
	"Typical causes are a route table, peering or gateway the provider could not read, BGP routes injected by Azure Route Server " +
	"or an SD-WAN appliance, or a change Azure has not finished programming. Until it is explained, treat computed verdicts " +
	"of scale-set pools in the same subnet with caution."

// routesComputedFinding is the set's COVERAGE_ROUTES_COMPUTED.
func routesComputedFinding(set *nodeRouteSet) model.Finding {
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
	why := set.ComputedWhy
	if why == "" {
		why = "Azure gave no effective route table for it"
	}
	msg := fmt.Sprintf("%s were computed from configuration (the route table of %s, the VNet's address space, peerings, "+
		"private endpoints and gateway routes) because %s. A route added by hand on a node is invisible here on purpose.", what, nodeSubnetLabel(set.SubnetID), why)
	fix := "Nothing to fix. To compare with what Azure programs, read the effective routes of a standalone VM's network " +
		"interface in the same subnet (network_interface_id); differences show up as COVERAGE_MODEL_DRIFT."
	return model.NewFinding(model.CoverageRoutesComputed, set.Pool, "", resource, msg, fix)
}

// gapOfRouting is the gap behind an engine error.
func gapOfRouting(subnetID model.ResourceID, err error) model.Gap {
	var ge *routing.GapError
	if errors.As(err, &ge) {
		return ge.Gap
	}
	return model.Gap{ResourceID: subnetID, Kind: model.GapUnavailable, Detail: err.Error()}
}

// nodeRoutesGapFinding turns a missing fact into its EVIDENCE_* finding:
// which resource, why (with the RBAC action a refused read needs), and that
// the conclusion that depends on it (what) is unverified.
func nodeRoutesGapFinding(gap model.Gap, pool, dest, what string) model.Finding {
	label := nodeResourceLabel(gap.ResourceID)
	detail := ""
	if gap.Detail != "" {
		detail = " (" + gap.Detail + ")"
	}
	subject := ""
	switch {
	case pool != "" && dest != "":
		subject = fmt.Sprintf(" for node pool %s and %s", pool, dest)
	case pool != "":
		subject = " for node pool " + pool
	case dest != "":
		subject = " for " + dest
	}
	unverified := fmt.Sprintf("The conclusion%s depends on %s, so it is unverified, never reachable.", subject, what)
	switch gap.Kind {
	case model.GapPermissionDenied:
		perm := gap.Permission
		if perm == "" {
			perm = readPermission(gap.ResourceID)
		}
		if perm == "" {
			perm = "the read permission for it"
		}
		msg := fmt.Sprintf("Reading %s (%s) was refused%s: the identity running the plan lacks %s. %s", label, gap.ResourceID, detail, perm, unverified)
		fix := fmt.Sprintf("Grant the identity that runs the plan %s on %s (the built-in Reader role includes it), or read "+
			"from a snapshot recorded by an identity that has it. Nothing on the network path needs to change for this finding.", perm, gap.ResourceID)
		return model.NewFinding(model.EvidencePermissionDenied, pool, dest, gap.ResourceID, msg, fix)
	case model.GapNotFound:
		msg := fmt.Sprintf("%s (%s) was not found%s: it does not exist or is not visible to the identity running the plan. %s",
			capitalizeFirst(label), gap.ResourceID, detail, unverified)
		fix := "Check that the resource exists and that its id is right; if it lives in another subscription, give the identity " +
			"that runs the plan Reader there. If it was deleted, whatever refers to it (a subnet, a peering, a route) is broken as well."
		return model.NewFinding(model.EvidenceNotFound, pool, dest, gap.ResourceID, msg, fix)
	default:
		msg := fmt.Sprintf("Reading %s (%s) kept failing after retries%s. %s", label, gap.ResourceID, detail, unverified)
		fix := "Plan again; if the failure persists, check Azure service health and Resource Manager throttling for the " +
			"subscription. Nothing on the network path needs to change for this finding."
		return model.NewFinding(model.EvidenceUnavailable, pool, dest, gap.ResourceID, msg, fix)
	}
}

// nodeResourceLabel names a resource by type and name ("virtualNetworks
// vnet-spoke"), a read that ARM exposes as an action by the action and its
// resource ("effectiveRouteTable of networkInterfaces nic-1"), and a
// collection by its type ("the virtualNetworks of resource group rg"), and
// the service tag read of a location as "the service tags of westeurope".
func nodeResourceLabel(id model.ResourceID) string {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	if string(id) == "" {
		return "an unnamed resource"
	}
	provider := -1
	for i, s := range segs {
		if strings.EqualFold(s, "providers") {
			provider = i
		}
	}
	if n := len(segs); n >= 3 && strings.EqualFold(segs[n-1], "serviceTags") && strings.EqualFold(segs[n-3], "locations") {
		return "the service tags of " + segs[n-2]
	}
	if provider >= 0 && provider+2 <= len(segs) {
		rest := segs[provider+2:]
		switch {
		case len(rest) == 1:
			return "the " + rest[0] + " of resource group " + id.ResourceGroup()
		case len(rest) >= 3 && len(rest)%2 == 1:
			return rest[len(rest)-1] + " of " + rest[len(rest)-3] + " " + rest[len(rest)-2]
		}
	}
	if len(segs) >= 2 {
		return segs[len(segs)-2] + " " + segs[len(segs)-1]
	}
	return string(id)
}

func capitalizeFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// nodeSubnetLabel is "subnet vnet/subnet", or "an unknown subnet".
func nodeSubnetLabel(id model.ResourceID) string {
	if id.IsZero() {
		return "an unknown subnet"
	}
	return "subnet " + id.Parent().Name() + "/" + id.Name()
}

// describeSelected is "route <prefix> <type>[ <ip>] (<origin>)", or "no route".
func describeSelected(r model.Route, found bool) string {
	if !found {
		return "no route"
	}
	var b strings.Builder
	b.WriteString("route ")
	if r.Prefix.IsValid() {
		b.WriteString(r.Prefix.String())
	} else {
		b.WriteString(r.ServiceTag)
	}
	b.WriteString(" " + r.NextHopType)
	if r.NextHopIP.IsValid() {
		b.WriteString(" " + r.NextHopIP.String())
	}
	switch {
	case r.Origin != "":
		b.WriteString(" (" + r.Origin + ")")
	case r.Source != "":
		b.WriteString(" (" + strings.ToLower(r.Source) + ")")
	}
	return b.String()
}

// nodeHopText is a hop in the engine's words: "subnet v/s → route … → outcome".
func nodeHopText(subnet model.ResourceID, r model.Route, found bool, outcome string) string {
	return fmt.Sprintf("%s → %s → %s", nodeSubnetLabel(subnet), describeSelected(r, found), outcome)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
