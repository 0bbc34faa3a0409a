// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"sort"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// Result is the outcome of a verification.
type Result struct {
	// Verdict is model.VerdictOf(Findings): accepted findings decide
	// nothing (accept.go).
	Verdict model.Verdict
	// Findings are sorted (severity, code, node pool, endpoint, resource)
	// and de-duplicated (one per code, pool, endpoint and resource).
	Findings []model.Finding
	// Paths are one per node pool × hostname, pools by name, hosts in
	// chain order.
	Paths []Path
	// Summary is the human-readable report: the paths table, then the
	// findings grouped by owner.
	Summary string
	// Needs is the pending evidence (model.Network.Pending) some path
	// reached, in Key order. While it is not empty the result is
	// provisional: those paths are unverified for want of evidence that
	// was not read yet, not because it is missing. The caller reads it
	// (gather) and verifies again; see docs/design/architecture.md.
	Needs []model.Evidence

	// accepts is what the accept blocks did to Findings, for findings
	// added later (WithBlameGaps); nil for a Result not made by Verify.
	accepts *acceptTally
}

// Path is one node pool × hostname.
type Path struct {
	NodePool string
	Host     string
	// Address is the address the nodes connect to (several, comma-separated,
	// when the record holds several: each is traced); "" when the name does
	// not resolve, when its address is a public one Resource Manager does
	// not know, or when it cannot be determined.
	Address string
	// Resolver lists the DNS servers the pool's nodes use, the answering
	// one first, e.g. "azure_dns 168.63.129.16" or "10.0.1.10 (vm vm-dns)".
	Resolver string
	// Resolution is the lookup in words (CNAMEs, zone, record), "" when
	// the path stopped before it.
	Resolution  string
	RouteSource RouteSource
	// Hops are the route engine's steps from the node subnet to the
	// address; empty when the path stopped before routing.
	Hops []string
	// Steps are the hops as data: the peerings, appliances, firewalls,
	// gateways, security groups, the way out and where the path arrives or
	// stops, each named by its resource. On a path with several addresses
	// each step says the address it leads to (model.Hop.Destination).
	Steps   []model.Hop
	Verdict model.Verdict
}

// RouteSource says where a pool's routes came from.
type RouteSource string

// Route sources.
const (
	// RouteSourceEffective: the effective route table Azure reported for a
	// NIC of the pool (standalone NICs of running VMs).
	RouteSourceEffective RouteSource = "effective"
	// RouteSourceComputed: computed from configuration, because scale-set
	// instance NICs have no effective-route API and a pool at zero nodes
	// has no NIC at all.
	RouteSourceComputed RouteSource = "computed"
)

// Run verifies the facts with the route engine of package routing: the
// entry point of a verification.
func Run(f model.Facts) Result {
	return Verify(f, NewRoutingTracer(routing.Options{}))
}

// Verify checks every pool × hostname of the facts, asking tracer about
// every flow. It is deterministic: the same facts give byte-identical
// findings, paths and summary.
func Verify(f model.Facts, tracer Tracer) Result {
	if f.Network == nil {
		f.Network = model.NewNetwork()
	}
	if f.DNS == nil {
		f.DNS = model.NewDNS()
	}
	r := &run{f: &f, tracer: tracer, gaps: mergeGaps(&f), used: map[string]bool{}}
	r.cloud = f.RegistryCloud()
	r.ep = newEndpoints(&f)
	r.hosts = f.PullHosts()

	pools := append([]*model.NodePool(nil), f.Pools...)
	sort.SliceStable(pools, func(i, j int) bool { return pools[i].Name < pools[j].Name })
	for _, pool := range pools {
		r.verifyPool(pool)
	}
	r.findings = append(r.findings, r.registryEvidence()...)
	r.settleSpeculativeReads()
	r.findings = append(r.findings, r.unusedGapFindings()...)
	if len(f.PlanNotApplied) > 0 {
		r.findings = append(r.findings, planNotAppliedFinding(f.PlanNotApplied))
	}
	r.findings = append(r.findings, r.planDriftFindings()...)
	if f.PlanOffPath != nil {
		r.findings = append(r.findings, planOffPathFinding(*f.PlanOffPath))
	}

	// The accept blocks apply to the findings as computed, before any
	// verdict; their own findings (one per expired or unused block) are
	// not de-duplicated with the others.
	findings, blocks, tally := acceptAll(r.findings, f.Acceptances)
	r.acceptPaths()
	res := Result{Findings: sortFindings(findings), Paths: r.paths, Needs: r.needs, accepts: tally}
	if len(blocks) > 0 {
		res.Findings = append(res.Findings, blocks...)
		sort.SliceStable(res.Findings, func(i, j int) bool { return findingLess(res.Findings[i], res.Findings[j]) })
	}
	model.SortEvidence(res.Needs)
	res.Verdict = model.VerdictOf(res.Findings)
	res.Summary = summary(&f, res)
	return res
}

// Summarize renders res.Summary again from the facts and the findings, for
// a caller that changed the findings' PlannedChange after Verify.
func Summarize(f model.Facts, res Result) string { return summary(&f, res) }

// registryEvidence reports the registry facts every path depends on that
// could not be read: its private endpoints and its replicas (each replica
// region adds a data endpoint).
func (r *run) registryEvidence() []model.Finding {
	reg := r.f.Registry
	if reg == nil {
		return nil
	}
	var out []model.Finding
	for _, id := range r.ep.unread {
		out = append(out, r.evidence("", "", id, "private endpoint "+id.Name()+" of registry "+reg.Name+" (the addresses it serves the registry names at)"))
	}
	if !reg.ReplicasKnown && len(reg.DataEndpointHosts) == 0 && r.f.RegistryHasPrivateEndpoints() {
		out = append(out, r.evidence("", "", reg.ID+"/replications", "the replicas of registry "+reg.Name+" (each adds a data endpoint the nodes must reach)"))
	}
	return out
}

// severityRank orders errors first.
func severityRank(s model.Severity) int {
	switch s {
	case model.SeverityError:
		return 0
	case model.SeverityWarning:
		return 1
	default:
		return 2
	}
}

// findingLess is the findings order: severity, code, node pool, endpoint,
// resource, then message for a total order.
func findingLess(a, b model.Finding) bool {
	if ra, rb := severityRank(a.Severity), severityRank(b.Severity); ra != rb {
		return ra < rb
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.NodePool != b.NodePool {
		return a.NodePool < b.NodePool
	}
	if a.Endpoint != b.Endpoint {
		return a.Endpoint < b.Endpoint
	}
	if a.ResourceID.Key() != b.ResourceID.Key() {
		return a.ResourceID.Key() < b.ResourceID.Key()
	}
	return a.Message < b.Message
}

// sortFindings sorts and keeps one finding per code, pool, endpoint and
// resource (the first in order).
func sortFindings(in []model.Finding) []model.Finding {
	out := append([]model.Finding(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return findingLess(out[i], out[j]) })
	type key struct {
		code               model.Code
		pool, endpoint, id string
	}
	seen := map[key]bool{}
	kept := out[:0]
	for _, f := range out {
		k := key{f.Code, f.NodePool, f.Endpoint, f.ResourceID.Key()}
		if !seen[k] {
			seen[k] = true
			kept = append(kept, f)
		}
	}
	return kept
}
