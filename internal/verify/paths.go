// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// run is one verification: the facts, the route engine and what has been
// concluded so far.
type run struct {
	f      *model.Facts
	tracer Tracer
	cloud  model.Cloud
	hosts  []model.PullHost
	ep     *endpoints
	gaps   model.Gaps
	used   map[string]bool // gap keys a rule consumed
	// dnsEv is the evidence DNS servers are classified against (dnsEvidence).
	dnsEv *DNSEvidence
	// spaces are the VirtualNetwork tag spaces for security checks made
	// outside the tracer (checkPlatformDNS), set on first use.
	spaces func(model.ResourceID) security.Space

	findings []model.Finding
	paths    []Path
	// pathFindings are the findings each path's verdict was decided on,
	// index by index with paths (acceptPaths decides again with them).
	pathFindings [][]model.Finding
	needs        []model.Evidence
	// onProxyLeg: the flow being evaluated leaves the cluster's HTTPS
	// proxy, whose nodes trust httpProxyConfig.trustedCa too.
	onProxyLeg bool
}

// poolCtx is what every path of one node pool shares.
type poolCtx struct {
	pool   *model.NodePool
	subnet *model.Subnet
	vnet   *model.VNet
	// label introduces the pool in messages: "Node pool user (subnet
	// vnet-spoke/snet-aks, 10.1.0.0/22)".
	label string
	// blocked: the pool's subnet or VNet could not be read; every path is
	// unverified by the evidence findings in shared.
	blocked bool

	dnsOrigin string
	resolvers []*resolver
	answering *resolver

	// resolved is each host's resolution (hosts the registry's coverage
	// stops before DNS have none); publicHosts are the hosts it sends to
	// public addresses, in chain order: what a device on the way out must
	// allow.
	resolved    map[string]resolution
	publicHosts []model.PullHost

	// shared are the pool-level findings (DNS servers, evidence about the
	// node subnet) that bear on every path of the pool.
	shared []model.Finding
	// source is the pool's route source; computed is set once any trace
	// used computed routes.
	source   RouteSource
	computed bool
	// computedNotes are the route engine's COVERAGE_ROUTES_COMPUTED notes
	// about reads that only cross-check computed routes (a Virtual WAN
	// hub's effective routes), one per read, folded into the pool's note.
	computedNotes []model.Finding

	// onProxy: this context is the cluster's HTTPS proxy's side of the
	// pool's pulls (proxy.go), not the nodes': the cluster's outbound
	// type does not apply to it. proxy is that context for the pool,
	// built on first use (proxyDone).
	onProxy   bool
	proxy     *proxyCtx
	proxyDone bool
}

// addComputedNote keeps the route engine's note about a read once per
// pool.
func (pc *poolCtx) addComputedNote(f model.Finding) {
	for _, have := range pc.computedNotes {
		if have.ResourceID.Equal(f.ResourceID) {
			return
		}
	}
	pc.computedNotes = append(pc.computedNotes, f)
}

// pathState is one pool × host path being evaluated.
type pathState struct {
	host     model.PullHost
	address  string
	source   RouteSource // of its route query, when one was made
	story    string
	hops     []string
	steps    []model.Hop
	findings []model.Finding
	broken   bool
	// stopped: the path ends here unverified, without an error (the
	// finding that says why is on it).
	stopped bool
	// why says, when a public path broke, why it fails in words that
	// follow "the node gets the registry's public address, …"; via says
	// what it leaves through and what admits it, when it works.
	why, via string
}

// add records findings on the path; an error breaks the chain there.
func (p *pathState) add(fs ...model.Finding) {
	for _, f := range fs {
		p.findings = append(p.findings, f)
		if f.Severity == model.SeverityError {
			p.broken = true
		}
	}
}

// has reports whether the path already holds f (same code, resource and
// message): a firewall inspecting every address a name resolves to says so
// once.
func (p *pathState) has(f model.Finding) bool {
	for _, have := range p.findings {
		if have.Code == f.Code && have.ResourceID.Equal(f.ResourceID) && have.Message == f.Message {
			return true
		}
	}
	return false
}

// verifyPool evaluates every host for one pool.
func (r *run) verifyPool(pool *model.NodePool) {
	pc := r.newPoolCtx(pool)
	if !pc.blocked {
		r.poolResolvers(pc)
		r.resolveHosts(pc)
	}
	for _, h := range r.hosts {
		r.verifyPath(pc, h)
	}
	if pc.computed || len(pc.computedNotes) > 0 {
		r.findings = append(r.findings, r.routesComputedFinding(pc))
	}
	r.findings = append(r.findings, pc.shared...)
}

// newPoolCtx finds the pool's subnet and VNet; when either is missing the
// pool is blocked by the evidence for it.
func (r *run) newPoolCtx(pool *model.NodePool) *poolCtx {
	pc := &poolCtx{pool: pool, source: poolRouteSource(pool, r.f.Network)}
	pc.computed = pc.source == RouteSourceComputed
	pc.subnet = r.f.Network.Subnet(pool.SubnetID)
	if pc.subnet != nil {
		pc.vnet = r.f.Network.VNet(pc.subnet.VNetID)
		if pc.vnet == nil {
			pc.vnet = r.f.Network.VNet(pool.SubnetID.Parent())
		}
	}
	pc.label = poolLabel(pool, pc.subnet, pc.vnet)
	switch {
	case pool.SubnetID.IsZero():
		pc.blocked = true
		msg := fmt.Sprintf("Node pool %s reports no subnet (vnetSubnetID is empty and the AKS-managed VNet was not read), so none of its paths can be evaluated; they are unverified.", pool.Name)
		fix := "Give the pool a subnet of your own VNet (vnetSubnetID), or let the identity that runs the plan read the cluster's node resource group."
		pc.shared = append(pc.shared, model.NewFinding(model.EvidenceNotFound, pool.Name, "", pool.ScaleSetID, msg, fix))
	case pc.subnet == nil:
		pc.blocked = true
		pc.shared = append(pc.shared, r.evidence(pool.Name, "", pool.SubnetID, "the node subnet (its routes, VNet and DNS settings)"))
	case pc.vnet == nil:
		pc.blocked = true
		pc.shared = append(pc.shared, r.evidence(pool.Name, "", pc.subnet.VNetID, "the node VNet (its DNS servers, address space and peerings)"))
	default:
		// Every path of the pool starts by resolving names through the
		// pool's DNS servers: when the plan leaves them unknown (the node
		// VNet's, for nodes whose NICs set none), no path can be followed.
		if dns := model.PoolDNSServers(pool, pc.vnet, r.f.Network); dns.Unknown != nil {
			pc.blocked = true
			pc.shared = append(pc.shared, gapFinding(*dns.Unknown, pool.Name, "", "the DNS servers of node VNet "+pc.vnet.Name+", which the nodes of the pool resolve every name through"))
		}
	}
	return pc
}

// resolveHosts resolves every host the registry's coverage lets through,
// once, before the paths: a device on the way out must allow every host
// the pool reaches at a public address, so each path's findings name them
// all.
func (r *run) resolveHosts(pc *poolCtx) {
	pc.resolved = map[string]resolution{}
	for _, h := range r.hosts {
		if _, stop := r.coverageFinding(pc, h); stop {
			continue
		}
		res := r.resolve(pc, h)
		pc.resolved[h.Name] = res
		if res.Public && !res.Broken {
			pc.publicHosts = append(pc.publicHosts, h)
		}
	}
}

// verifyPath follows the chain for one pool and host, stopping at the
// first broken link: endpoint coverage (a property of the registry), name
// resolution, private endpoint approval, the route and return route (for
// a public address: public access, the way out and the registry's IP
// rules), TLS name, and, on the login server, the pull identity.
func (r *run) verifyPath(pc *poolCtx, h model.PullHost) {
	// The pool's shared findings count for the path's verdict, but do not
	// stop it: an unreachable secondary DNS server still leaves a resolver
	// to follow, and an unreachable only one shows as no answering resolver.
	p := &pathState{host: h, findings: append([]model.Finding(nil), pc.shared...)}
	defer r.finishPath(pc, p)
	if pc.blocked {
		return
	}
	if f, ok := r.coverageFinding(pc, h); ok {
		p.add(f)
		return
	}
	res := pc.resolved[h.Name]
	if px, ok := r.proxyFor(h); ok {
		if !r.proxiedPath(pc, p, h, res, px) {
			return
		}
		r.pathEnd(pc, p, h)
		return
	}
	if f, ok := r.bypassWildcardFinding(pc, h); ok {
		p.add(f)
	}
	p.story = res.Story
	p.add(res.Findings...)
	if res.Broken || p.broken {
		p.broken = true
		return
	}
	p.address = joinAddrs(res.Addrs)
	if res.Public {
		if !r.publicPath(pc, p, h, res) {
			return
		}
	} else {
		r.traceAddrs(pc, h, res, p)
		if p.broken {
			return
		}
	}
	r.pathEnd(pc, p, h)
}

// pathEnd is the end of the chain, whichever way the pull went: the TLS
// name the node uses and, on the login server, the pull identity.
func (r *run) pathEnd(pc *poolCtx, p *pathState, h model.PullHost) {
	if f, ok := r.tlsFinding(pc, h); ok {
		p.add(f)
		return
	}
	if h.Kind == model.HostLogin {
		p.add(r.identityFindings(pc, h)...)
	}
}

// publicPath follows a host that resolves publicly and reports whether the
// chain goes on. When a private endpoint serves the host (the nodes resolve
// it publicly only because the zone is not linked to their resolver, or a
// link's NxDomainRedirect fell back), the DNS finding depends on the public
// path: DNS_RESOLVES_PUBLIC (a warning) with the public path's own findings
// when it works; its DNS error alone, saying why the public path fails
// too, when it does not — each problem once, by its cause.
func (r *run) publicPath(pc *poolCtx, p *pathState, h model.PullHost, res resolution) bool {
	if res.Intended == nil {
		r.publicFlow(pc, p, h, res)
		return !p.broken && !p.stopped
	}
	q := &pathState{host: h}
	r.publicFlow(pc, q, h, res)
	p.hops, p.steps, p.source = q.hops, q.steps, q.source
	switch {
	case q.broken:
		why := q.why
		if why == "" {
			why = "which the nodes cannot reach either (" + errorCodes(q.findings) + ")"
		}
		p.add(res.Intended.fails(why))
		return false
	case q.stopped:
		p.add(q.findings...)
		return false
	}
	p.add(res.Intended.works(q.via))
	p.add(q.findings...)
	return true
}

// publicFlow follows the flow to the public address of h: the registry's
// public network access, the route, the way out to the internet, and the
// registry's IP rules for the public addresses the nodes leave through.
func (r *run) publicFlow(pc *poolCtx, p *pathState, h model.PullHost, res resolution) {
	reg := r.f.Registry
	if reg != nil && h.Kind != model.HostBlob && reg.PublicNetworkDisabled() {
		// A public address that was only assumed (the answer could not be
		// read) proves no refusal: missing evidence never becomes an
		// error. The path stops unverified by the finding that says why.
		if res.Assumed {
			p.stopped = true
			return
		}
		p.add(r.publicAccessDeniedFinding(pc, h))
		p.why = "which the registry refuses (public network access is denied)"
		return
	}
	rr := r.trace(pc, RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID, Public: true, Host: h.Name, DestTags: r.f.PublicServiceTags(h), Protocol: "Tcp", Port: 443}, h.Name)
	p.hops, p.steps, p.source = rr.Hops, rr.Steps, rr.Source
	p.add(inContext(pc, h.Name, "", rr.Findings)...)
	if p.broken {
		return
	}
	if len(rr.Gaps) > 0 && !r.egressBlocked() {
		// The route depends on facts that could not be read, so which way
		// the flow leaves is unknown: nothing after it is concluded, and
		// the gap findings keep the path unverified.
		p.stopped = true
		return
	}
	eg := r.egressOf(pc, h, rr)
	for _, s := range eg.steps {
		p.hops = append(p.hops, s.Label)
		p.steps = append(p.steps, s)
	}
	p.add(eg.findings...)
	if p.broken {
		p.why = "which the nodes cannot reach: " + firstError(eg.findings)
		return
	}
	if eg.via != "" {
		p.via = "the nodes leave through " + eg.via
	}
	ip := r.registryIPRules(pc, h, eg)
	p.add(ip...)
	if p.broken {
		p.why = fmt.Sprintf("which the registry refuses (its IP rules admit only %s, not the public addresses the nodes leave through)", rangeWords(reg.IPRules))
		return
	}
	if reg != nil && h.Kind != model.HostBlob {
		admits := "registry " + reg.Name + " admits public clients"
		if reg.IPRulesApply() {
			admits = "registry " + reg.Name + "'s IP rules admit the nodes' public addresses"
		}
		if p.via == "" {
			p.via = admits
		} else {
			p.via = admits + "; " + p.via
		}
	}
}

// errorCodes lists the codes of the error findings.
func errorCodes(fs []model.Finding) string {
	var codes []string
	for _, f := range fs {
		if f.Severity == model.SeverityError {
			codes = append(codes, string(f.Code))
		}
	}
	return strings.Join(codes, ", ")
}

// firstError is the first error finding's cause, in a few words.
func firstError(fs []model.Finding) string {
	for _, f := range fs {
		if f.Severity != model.SeverityError {
			continue
		}
		if f.Code == model.EgressNoOutbound {
			return "they have no outbound path to the internet"
		}
		return string(f.Code)
	}
	return ""
}

// traceAddrs follows the route to every address the name resolves to (a
// node may get any address of the record set, so one failing address fails
// the host): the private endpoint behind it must be approved, and the
// route there and back must hold. With several addresses each hop names
// the address it leads to.
func (r *run) traceAddrs(pc *poolCtx, h model.PullHost, res resolution, p *pathState) {
	dests := res.Addrs
	if len(dests) == 0 {
		dests = []netip.Addr{{}} // a public address Resource Manager does not know
	}
	for _, dest := range dests {
		address := ""
		if dest.IsValid() {
			address = dest.String()
			if pe := r.ep.owner(dest); pe != nil && !r.ep.isApproved(pe) {
				p.add(r.notApprovedFinding(pc, h, pe))
				continue
			}
		}
		q := RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID, Dest: dest, Public: res.Public, Host: h.Name, Protocol: "Tcp", Port: 443}
		if res.Public {
			q.DestTags = r.f.PublicServiceTags(h)
		}
		rr := r.trace(pc, q, h.Name)
		p.source = rr.Source
		for _, hop := range rr.Hops {
			if len(dests) > 1 {
				hop = address + ": " + hop
			}
			p.hops = append(p.hops, hop)
		}
		for _, s := range rr.Steps {
			if len(dests) > 1 {
				s.Destination = address
			}
			p.steps = append(p.steps, s)
		}
		if len(dests) > 1 {
			address += ", one of " + joinAddrs(dests) + " the name resolves to (a node may get any of them)"
		}
		p.add(inContext(pc, h.Name, address, rr.Findings)...)
		// A firewall on the private path that inspects TLS: the same rule
		// as on the public path, once per firewall and host.
		for _, in := range rr.Inspected {
			for _, f := range r.tlsInspectionFindings(pc.pool.Name, in.Firewall, h.Name, in.Decision) {
				if !p.has(f) {
					p.add(f)
				}
			}
		}
	}
}

// finishPath records the path and its findings.
func (r *run) finishPath(pc *poolCtx, p *pathState) {
	if !pc.blocked {
		p.add(r.unmodelledFindings(pc, p)...)
	}
	r.findings = append(r.findings, p.findings...)
	source := p.source
	if source == "" {
		source = pc.source
	}
	r.paths = append(r.paths, Path{
		NodePool:    pc.pool.Name,
		Host:        p.host.Name,
		Address:     p.address,
		Resolver:    pc.resolverLabel(),
		Resolution:  p.story,
		RouteSource: source,
		Hops:        append([]string{}, p.hops...),
		Steps:       append([]model.Hop(nil), p.steps...),
		Verdict:     model.VerdictOf(p.findings),
	})
	r.pathFindings = append(r.pathFindings, append([]model.Finding(nil), p.findings...))
}

// trace asks the route engine about one flow of a pool and normalizes its
// findings: pool and endpoint filled in, gaps it cites marked as used, and
// its coverage note folded into the pool's single COVERAGE_ROUTES_COMPUTED.
func (r *run) trace(pc *poolCtx, q RouteQuery, endpoint string) RouteResult {
	rr := r.tracer.Trace(r.f.Network, q)
	for _, ev := range rr.Needs {
		r.needs = model.AddNeed(r.needs, ev)
	}
	if rr.Source == RouteSourceComputed {
		pc.computed = true
	}
	kept := rr.Findings[:0:0]
	for _, f := range rr.Findings {
		if f.Code == model.CoverageRoutesComputed {
			pc.computed = true
			if !f.ResourceID.IsZero() && f.Message != "" {
				pc.addComputedNote(f)
			}
			continue
		}
		if f.NodePool == "" {
			f.NodePool = pc.pool.Name
		}
		if f.Endpoint == "" {
			f.Endpoint = endpoint
		}
		if f.Condition == model.ConditionEvidence {
			r.gapFor(f.ResourceID)
		}
		kept = append(kept, f)
	}
	for _, gap := range rr.Gaps {
		if known, ok := r.gaps.Lookup(gap.ResourceID); ok && gap.Detail == "" {
			gap = known
		}
		r.used[gap.ResourceID.Key()] = true
		kept = append(kept, gapFinding(gap, pc.pool.Name, endpoint, "the route from the node subnet to "+endpoint))
	}
	rr.Findings = kept
	return rr
}

// poolRouteSource: effective when a NIC of the pool has a real effective
// route table, computed otherwise.
func poolRouteSource(pool *model.NodePool, n *model.Network) RouteSource {
	for _, nic := range pool.NICs {
		if nic != nil && nic.Effective != nil {
			return RouteSourceEffective
		}
	}
	for _, id := range pool.NICIDs {
		if nic := n.NIC(id); nic != nil && nic.Effective != nil {
			return RouteSourceEffective
		}
	}
	return RouteSourceComputed
}

// poolEffectivePlanned: a NIC of the pool has an effective route table the
// planned changes made stale.
func poolEffectivePlanned(pool *model.NodePool, n *model.Network) bool {
	for _, nic := range pool.NICs {
		if nic != nil && nic.EffectivePlanned {
			return true
		}
	}
	for _, id := range pool.NICIDs {
		if nic := n.NIC(id); nic != nil && nic.EffectivePlanned {
			return true
		}
	}
	return false
}

// routesComputedFinding says why the pool's routes are computed.
func (r *run) routesComputedFinding(pc *poolCtx) model.Finding {
	why := "Azure gave no effective route table for its NICs"
	switch {
	case pc.pool.Count == 0 && len(pc.pool.NICIDs) == 0 && pc.pool.Type != "":
		why = "it has no nodes, so there is no NIC to ask"
	case strings.EqualFold(pc.pool.Type, "VirtualMachineScaleSets"):
		why = "it is a scale-set pool, and scale-set instance NICs have no effective-route API"
	}
	if poolEffectivePlanned(pc.pool, r.f.Network) {
		why = "the planned changes (planned_changes_file) alter the network, and the effective route table Azure has for its NICs describes it before them"
	}
	subnet := string(pc.pool.SubnetID)
	if pc.subnet != nil {
		subnet = pc.subnet.Name
	}
	msg := fmt.Sprintf("Routes for node pool %s were computed from configuration (route table of subnet %s, VNet address space, peerings, gateway routes) because %s. A route added by hand on a node is invisible here on purpose.", pc.pool.Name, subnet, why)
	fix := "Nothing to fix. To compare with what Azure programs, read the effective routes of a standalone VM's NIC in the same subnet; differences show up as COVERAGE_MODEL_DRIFT."
	if !pc.computed {
		msg = fmt.Sprintf("Routes for node pool %s beyond its network interfaces' effective route table were computed from configuration.", pc.pool.Name)
		fix = "Nothing to fix."
	}
	// The engine's notes about cross-check reads that failed: the same
	// condition (routes computed from configuration), so the same note.
	for _, n := range pc.computedNotes {
		msg += " " + n.Message
		fix += " " + strings.TrimPrefix(n.Remediation, "Nothing to fix. ")
	}
	resource := pc.pool.ScaleSetID
	if resource.IsZero() {
		resource = pc.pool.SubnetID
	}
	return model.NewFinding(model.CoverageRoutesComputed, pc.pool.Name, "", resource, msg, fix)
}

// poolLabel introduces a pool in messages.
func poolLabel(pool *model.NodePool, subnet *model.Subnet, vnet *model.VNet) string {
	if subnet == nil {
		return "Node pool " + pool.Name
	}
	where := subnet.Name
	if vnet != nil {
		where = vnet.Name + "/" + subnet.Name
	}
	prefixes := make([]string, len(subnet.Prefixes))
	for i, p := range subnet.Prefixes {
		prefixes[i] = p.String()
	}
	if len(prefixes) == 0 {
		return fmt.Sprintf("Node pool %s (subnet %s)", pool.Name, where)
	}
	return fmt.Sprintf("Node pool %s (subnet %s, %s)", pool.Name, where, strings.Join(prefixes, ", "))
}

// vnetName names a VNet for messages.
func (r *run) vnetName(id model.ResourceID) string {
	if v := r.f.Network.VNet(id); v != nil && v.Name != "" {
		return v.Name
	}
	return id.Name()
}

// inContext puts the route engine's messages, which speak of addresses and
// routes, in the context of the pool and host they are about.
func inContext(pc *poolCtx, host, address string, fs []model.Finding) []model.Finding {
	dest := host
	if address != "" {
		dest += " (" + address + ")"
	}
	out := make([]model.Finding, len(fs))
	for i, f := range fs {
		if f.Condition != model.ConditionEvidence {
			f.Message = pc.label + " → " + dest + ": " + f.Message
		}
		out[i] = f
	}
	return out
}
