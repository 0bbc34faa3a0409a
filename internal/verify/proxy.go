// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The cluster's HTTP proxy (docs/design/azure-behaviour.md, "The
// cluster's HTTP proxy"): AKS configures containerd on every node with
// httpProxyConfig, and containerd picks the proxy of a pull by Go's
// rules (model.HTTPProxy.Endpoint, MatchNoProxy). A hostname noProxy
// matches takes the direct path (paths.go). One it does not match has two
// legs: the nodes to the proxy — the proxy's address, then route, return
// route, security groups and firewalls, as for any private address — and
// the proxy to the registry, evaluated from the proxy's own network
// interface (its DNS servers and the zones linked to its VNet, its
// routes, its way out, the registry's public access and IP rules) where
// gather found the NIC holding the proxy's address. Otherwise what lies
// beyond the proxy is EGRESS_PROXY_UNVERIFIED. A hostname the nodes
// resolve to a private endpoint whose pull fails from the proxy is
// PROXY_BYPASS_MISSING: sent direct, it would take the private path.

// proxyRoute is how the nodes' pull of one hostname meets the proxy.
type proxyRoute struct {
	ep    model.ProxyEndpoint
	match model.NoProxyMatch
	// err: httpsProxy could not be parsed.
	err error
}

// proxyFor says whether the cluster sends h to its HTTPS proxy: ok false
// when it has none (or no httpsProxy: Go never uses httpProxy for an
// https:// pull) or noProxy matches h.
func (r *run) proxyFor(h model.PullHost) (proxyRoute, bool) {
	cl := r.f.Cluster
	if cl == nil || cl.HTTPProxy == nil {
		return proxyRoute{}, false
	}
	ep, ok, err := cl.HTTPProxy.Endpoint()
	if !ok {
		return proxyRoute{}, false
	}
	m := cl.HTTPProxy.MatchNoProxy(h.Name)
	if m.Bypass {
		return proxyRoute{ep: ep, match: m}, false
	}
	return proxyRoute{ep: ep, match: m, err: err}, true
}

// bypassWildcardFinding: noProxy sends h direct only through a "*."
// entry, a form AKS documents as unsupported in noProxy, so whether the
// nodes reach h direct or through the proxy cannot be told.
func (r *run) bypassWildcardFinding(pc *poolCtx, h model.PullHost) (model.Finding, bool) {
	cl := r.f.Cluster
	if cl == nil || cl.HTTPProxy == nil {
		return model.Finding{}, false
	}
	ep, ok, _ := cl.HTTPProxy.Endpoint()
	if !ok {
		return model.Finding{}, false
	}
	m := cl.HTTPProxy.MatchNoProxy(h.Name)
	if !m.Bypass || !m.Wildcard {
		return model.Finding{}, false
	}
	msg := fmt.Sprintf("%s → %s: cluster %s sends pulls to %s except for the hosts its noProxy matches, and only the entry %q matches %s. AKS documents a \"*\" wildcard attached to a domain suffix as unsupported in noProxy, so whether the nodes reach %s direct (as checked here) or through the proxy cannot be told; the path is unverified.",
		pc.label, h.Name, cl.Name, ep.Label(), m.Entry, h.Name, h.Name)
	fix := fmt.Sprintf("Replace %q in the cluster's noProxy with %q (a leading dot: every subdomain) or with the hostname %s itself.", m.Entry, strings.TrimPrefix(m.Entry, "*"), model.NoProxyEntryFor(h.Name))
	return model.NewFinding(model.EgressProxyUnverified, pc.pool.Name, h.Name, cl.ID, msg, fix), true
}

// whyProxied says why noProxy sends h to the proxy.
func (r *run) whyProxied(h model.PullHost, m model.NoProxyMatch) string {
	cl := r.f.Cluster
	if len(cl.HTTPProxy.NoProxy) == 0 {
		return "its noProxy is empty"
	}
	why := fmt.Sprintf("no entry of its noProxy (%s) matches %s", strings.Join(cl.HTTPProxy.NoProxy, ", "), h.Name)
	if len(m.Misses) > 0 {
		why += ": " + strings.Join(m.Misses, "; ")
	}
	return why
}

// proxiedPath follows a hostname the cluster sends to its proxy and
// reports whether the chain goes on (to the TLS name and the identity).
// res is the nodes' own resolution of the host: it decides whether
// sending the host direct would take the private path.
func (r *run) proxiedPath(pc *poolCtx, p *pathState, h model.PullHost, res resolution, px proxyRoute) bool {
	cl := r.f.Cluster
	ep := px.ep
	p.address = ep.Host + ":" + strconv.Itoa(ep.Port)
	p.story = fmt.Sprintf("not resolved by the nodes: sent to %s (%s), which resolves it", ep.Label(), r.whyProxied(h, px.match))
	// The nodes' own resolution decides whether sending the host direct
	// would take the private path: reads it lacked are evidence here too.
	for _, f := range res.Findings {
		if f.Condition == model.ConditionEvidence {
			p.add(f)
		}
	}
	if px.err != nil {
		msg := fmt.Sprintf("%s → %s: cluster %s sends the pull to its proxy, but %v, so where the nodes connect cannot be told; the path is unverified.", pc.label, h.Name, cl.Name, px.err)
		fix := "Set httpProxyConfig.httpsProxy to a URL such as http://10.0.1.4:3128, or add " + model.NoProxyEntryFor(h.Name) + " to noProxy to send the pull direct."
		p.add(model.NewFinding(model.EgressProxyUnverified, pc.pool.Name, h.Name, cl.ID, msg, fix))
		p.stopped = true
		return false
	}
	// Leg 1: the nodes to the proxy.
	if !r.nodesToProxy(pc, p, h, ep) {
		return false
	}
	if r.f.Proxy != nil && r.f.Proxy.LoadBalancer != nil && !r.toProxyBackend(pc, p, h, ep, r.f.Proxy.LoadBalancer) {
		return false
	}
	// Leg 2: the proxy to the registry.
	pp := r.proxyPool(pc)
	if pp == nil {
		p.steps = append(p.steps, model.Hop{Kind: model.HopProxy, Address: ep.Host, Label: ep.Label()})
		p.hops = append(p.hops, ep.Label())
		if g, ok := r.f.Network.AddressGaps[ep.Addr]; ok && ep.Addr.IsValid() {
			// The read that would have found the proxy's NIC failed: the
			// evidence finding names it.
			r.used[g.ResourceID.Key()] = true
			p.add(gapFinding(g, pc.pool.Name, h.Name, "the network interface holding "+ep.Addr.String()+", the address of the cluster's HTTPS proxy, whose network the pull of "+h.Name+" continues from"))
		}
		p.add(r.proxyUnverifiedFinding(pc, h, ep, r.proxyUnreadWhy(ep)))
		p.stopped = true
		return false
	}
	held := "NIC " + pp.nic.Name
	if lb := r.f.Proxy.LoadBalancer; lb != nil {
		held = "load balancer " + lb.Name + " frontend " + lb.Frontend + ", rule " + lb.Rule + " → NIC " + pp.nic.Name
	}
	p.steps = append(p.steps, model.Hop{Kind: model.HopProxy, Name: pp.nic.Name, ResourceID: pp.nic.ID, Address: ep.Host, SubnetID: pp.nic.SubnetID, Label: ep.Label() + " (" + held + ")"})
	p.hops = append(p.hops, ep.Label()+" ("+held+")")
	q := r.fromProxy(pp, h)
	for _, hop := range q.hops {
		p.hops = append(p.hops, "from the proxy: "+hop)
	}
	p.steps = append(p.steps, q.steps...)
	if q.broken {
		if !res.Broken && !res.Public && len(res.Addrs) > 0 {
			p.add(r.bypassMissingFinding(pc, h, px, pp, q, res))
			// Reads the proxy's leg lacked are evidence beside the finding
			// that summarises it.
			for _, f := range q.findings {
				if f.Condition == model.ConditionEvidence {
					p.add(f)
				}
			}
		} else {
			p.add(q.findings...)
		}
		return false
	}
	p.add(q.findings...)
	if q.stopped {
		p.stopped = true
		return false
	}
	return true
}

// nodesToProxy traces the nodes' connection to the proxy: its address
// (an IP literal, or its name resolved by the nodes' resolver), then the
// route there and back with the security groups and firewalls on it.
func (r *run) nodesToProxy(pc *poolCtx, p *pathState, h model.PullHost, ep model.ProxyEndpoint) bool {
	addrs := []netip.Addr{ep.Addr}
	if !ep.Addr.IsValid() {
		a := r.proxyNameAnswer(pc, ep)
		if len(a) == 0 {
			msg := fmt.Sprintf("%s → %s: cluster %s sends the pull to %s, whose name %s the nodes' resolver answers from no private DNS zone the provider read, so where the proxy is and whether the nodes reach it cannot be told; the path is unverified.", pc.label, h.Name, r.f.Cluster.Name, ep.Label(), ep.Host)
			p.add(model.NewFinding(model.EgressProxyUnverified, pc.pool.Name, h.Name, r.f.Cluster.ID, msg, r.proxyFix(h, ep)))
			p.stopped = true
			return false
		}
		addrs = a
	}
	for _, addr := range addrs {
		public := !addr.IsPrivate() && !r.knownVNetHolds(addr)
		q := RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID, Dest: addr, Public: public, Host: ep.Host, Protocol: "Tcp", Port: uint16(ep.Port)}
		rr, ok := r.traceToProxy(pc, p, q, h, ep, "to the proxy: ", addr.String()+":"+strconv.Itoa(ep.Port))
		p.source = rr.Source
		if !ok {
			return false
		}
	}
	return true
}

// traceToProxy traces q, a part of the nodes' leg to the proxy, into p:
// its hops (after prefix), steps and findings (at where); false when the
// path broke or a gap stopped it.
func (r *run) traceToProxy(pc *poolCtx, p *pathState, q RouteQuery, h model.PullHost, ep model.ProxyEndpoint, prefix, where string) (RouteResult, bool) {
	rr := r.trace(pc, q, h.Name)
	for _, hop := range rr.Hops {
		p.hops = append(p.hops, prefix+hop)
	}
	p.steps = append(p.steps, rr.Steps...)
	p.add(inContext(pc, ep.Label(), where, rr.Findings)...)
	if p.broken {
		return rr, false
	}
	if len(rr.Gaps) > 0 {
		p.stopped = true
		return rr, false
	}
	return rr, true
}

// toProxyBackend is the rest of leg 1 for a proxy behind an internal
// load balancer (P4): a load-balancing rule must forward the proxy's port
// of the frontend, and the backend must admit the nodes on the backend
// port, since the load balancer keeps the nodes' address as the source.
// Health probes are not evaluated. A backend the provider cannot follow
// leaves the verdict to leg 2, which is then unverified.
func (r *run) toProxyBackend(pc *poolCtx, p *pathState, h model.PullHost, ep model.ProxyEndpoint, lb *model.ProxyLoadBalancer) bool {
	cl := r.f.Cluster
	if lb.Rule == "" {
		msg := fmt.Sprintf("%s → %s: cluster %s sends the pull to %s, the frontend %s of internal load balancer %s, but no load-balancing rule of %s forwards TCP port %d of that frontend (neither a rule for that port nor an HA-ports rule), so the load balancer forwards the connection to no proxy. The catalogue has no code of its own for a load balancer without a rule, so the path is unverified; it is not reachable.",
			pc.label, h.Name, cl.Name, ep.Label(), lb.Frontend, lb.Name, lb.Name, ep.Port)
		fix := fmt.Sprintf("Add a load-balancing rule to load balancer %s for frontend %s, protocol TCP, port %d, to the pool of the proxy's machines (or correct the port of httpProxyConfig.httpsProxy), or add %q to the cluster's noProxy to send the pull direct.",
			lb.Name, lb.Frontend, ep.Port, model.NoProxyEntryFor(h.Name))
		p.add(model.NewFinding(model.EgressProxyUnverified, pc.pool.Name, h.Name, lb.ID, msg, fix))
		p.stopped = true
		return false
	}
	if r.f.Proxy.NICID.IsZero() {
		return true
	}
	nic := r.f.Network.NIC(r.f.Proxy.NICID)
	if nic == nil || len(nic.PrivateIPs) == 0 {
		return true
	}
	addr := nic.PrivateIPs[0]
	q := RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID, Dest: addr, Host: ep.Host, Protocol: "Tcp", Port: uint16(lb.BackendPort)}
	_, ok := r.traceToProxy(pc, p, q, h, ep, "to the proxy's backend (load balancer "+lb.Name+", rule "+lb.Rule+"): ",
		fmt.Sprintf("%s:%d (backend NIC %s of load balancer %s)", addr, lb.BackendPort, nic.Name, lb.Name))
	return ok
}

// knownVNetHolds reports whether a VNet read holds addr (a proxy at a
// public address of a VNet is still inside Azure).
func (r *run) knownVNetHolds(addr netip.Addr) bool {
	for _, v := range r.f.Network.VNets {
		for _, pfx := range v.AddressSpace {
			if pfx.Contains(addr) {
				return true
			}
		}
	}
	return false
}

// proxyNameAnswer resolves the proxy's name as the nodes do, where a
// private zone answers it; nil otherwise.
func (r *run) proxyNameAnswer(pc *poolCtx, ep model.ProxyEndpoint) []netip.Addr {
	srv := pc.answering
	if srv == nil || srv.Kind == resolverOpaque {
		return nil
	}
	a := r.lookup(pc, model.PullHost{Name: ep.Host, Kind: model.HostDeclared}, srv.VNetID)
	if a.Outcome != answerPrivate {
		return nil
	}
	return a.Addrs
}

// proxyCtx is the proxy's side: its NIC and the pool context its network
// is evaluated in (its DNS servers, subnet, VNet).
type proxyCtx struct {
	nic *model.NIC
	pc  *poolCtx
}

// proxyPool is the proxy's side of the pulls of pc's pool, built once per
// pool; nil when gather found no NIC holding the proxy's address, or its
// subnet or VNet was not read.
func (r *run) proxyPool(pc *poolCtx) *proxyCtx {
	if pc.proxy != nil || pc.proxyDone {
		return pc.proxy
	}
	pc.proxyDone = true
	if r.f.Proxy == nil {
		return nil
	}
	nic := r.f.Network.NIC(r.f.Proxy.NICID)
	if nic == nil {
		return nil
	}
	subnet := r.f.Network.Subnet(nic.SubnetID)
	if subnet == nil {
		return nil
	}
	vnet := r.f.Network.VNet(subnet.VNetID)
	if vnet == nil {
		vnet = r.f.Network.VNet(nic.SubnetID.Parent())
	}
	if vnet == nil {
		return nil
	}
	// The stand-in pool carries the node pool's name: its findings are
	// about that pool's pulls.
	pool := &model.NodePool{Name: pc.pool.Name, SubnetID: nic.SubnetID, NICIDs: []model.ResourceID{nic.ID}, NICs: []*model.NIC{nic}, NICsKnown: true}
	ppc := &poolCtx{pool: pool, subnet: subnet, vnet: vnet, onProxy: true}
	ppc.source = poolRouteSource(pool, r.f.Network)
	prefixes := make([]string, len(subnet.Prefixes))
	for i, pfx := range subnet.Prefixes {
		prefixes[i] = pfx.String()
	}
	ppc.label = fmt.Sprintf("HTTPS proxy %s (NIC %s, subnet %s/%s, %s)", r.f.Proxy.Addr, nic.Name, vnet.Name, subnet.Name, strings.Join(prefixes, ", "))
	if dns := model.PoolDNSServers(pool, vnet, r.f.Network); dns.Unknown != nil {
		return nil
	}
	r.poolResolvers(ppc)
	ppc.resolved = map[string]resolution{}
	pc.proxy = &proxyCtx{nic: nic, pc: ppc}
	return pc.proxy
}

// fromProxy follows the pull of h from the proxy: its resolution through
// the proxy's DNS servers, then the private route or the public path.
func (r *run) fromProxy(pp *proxyCtx, h model.PullHost) *pathState {
	ppc := pp.pc
	q := &pathState{host: h, findings: append([]model.Finding(nil), ppc.shared...)}
	for _, f := range ppc.shared {
		if f.Severity == model.SeverityError {
			q.broken = true
		}
	}
	if q.broken {
		return q
	}
	res, ok := ppc.resolved[h.Name]
	if !ok {
		res = r.resolve(ppc, h)
		ppc.resolved[h.Name] = res
		if res.Public && !res.Broken {
			ppc.publicHosts = append(ppc.publicHosts, h)
		}
	}
	q.story = res.Story
	q.add(res.Findings...)
	if res.Broken || q.broken {
		q.broken = true
		return q
	}
	r.onProxyLeg = true
	defer func() { r.onProxyLeg = false }()
	if res.Public {
		r.publicPath(ppc, q, h, res)
	} else {
		r.traceAddrs(ppc, h, res, q)
	}
	return q
}

// bypassMissingFinding: the nodes resolve h to the registry's private
// endpoint, but noProxy sends it to the proxy, from which the pull
// fails.
func (r *run) bypassMissingFinding(pc *poolCtx, h model.PullHost, px proxyRoute, pp *proxyCtx, q *pathState, res resolution) model.Finding {
	cl := r.f.Cluster
	why := q.why
	if why == "" {
		why = firstErrorMessage(q.findings)
	}
	entry := model.NoProxyEntryFor(h.Name)
	msg := fmt.Sprintf("%s → %s: cluster %s sends the pull to %s because %s. The nodes themselves resolve %s to %s (the registry's private endpoint), but from the proxy the pull fails: %s. %s %s therefore fails, while sent direct it would take the private path.",
		pc.label, h.Name, cl.Name, px.ep.Label(), r.whyProxied(h, px.match), h.Name, joinAddrs(res.Addrs), why, capitalize(h.Kind.String()), h.Name)
	if h.Kind == model.HostData || h.Kind == model.HostRegional {
		msg += " Manifests from the login server may still work: layer downloads fail."
	}
	fix := fmt.Sprintf("Add %q to the noProxy of cluster %s (httpProxyConfig.noProxy; `az aks update --http-proxy-config <file>`), or \".%s\" for every name below it, so the nodes reach %s direct over the private endpoint. A noProxy entry for the login server does not cover a data endpoint (it is no subdomain of it), and an IP range never matches a hostname. Allowing %s on the proxy does not help while the proxy's network (%s) cannot reach the private endpoint.",
		entry, cl.Name, parentDomain(h.Name), h.Name, h.Name, pp.pc.label)
	return model.NewFinding(model.ProxyBypassMissing, pc.pool.Name, h.Name, cl.ID, msg, fix)
}

// firstErrorMessage is the first error finding's message, for a finding
// that names its cause.
func firstErrorMessage(fs []model.Finding) string {
	for _, f := range fs {
		if f.Severity == model.SeverityError {
			return string(f.Code) + " (" + strings.TrimSuffix(f.Message, ".") + ")"
		}
	}
	return ""
}

// parentDomain is the name without its first label: "azurecr.io" for
// contosoreg.westeurope.data.azurecr.io would be too wide, so the
// registry domain of an ACR name is kept as the last two labels.
func parentDomain(host string) string {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) <= 2 {
		return strings.Join(parts, ".")
	}
	return strings.Join(parts[len(parts)-2:], ".")
}

// proxyUnreadWhy says why the proxy's side cannot be evaluated.
func (r *run) proxyUnreadWhy(ep model.ProxyEndpoint) string {
	switch {
	case !ep.Addr.IsValid():
		return fmt.Sprintf("the proxy is given by name (%s), and the provider evaluates the proxy's own network only for a proxy given by its IP address", ep.Host)
	case !r.knownVNetHolds(ep.Addr):
		return fmt.Sprintf("%s lies in no virtual network the provider read (on premises, another network, or the internet), so the proxy's policy and its way to the registry cannot be read", ep.Addr)
	}
	if g, ok := r.f.Network.AddressGaps[ep.Addr]; ok {
		return fmt.Sprintf("what holds %s could not be read (%s)", ep.Addr, g.Detail)
	}
	if r.f.Proxy != nil && r.f.Proxy.LoadBalancer != nil {
		lb := r.f.Proxy.LoadBalancer
		at := fmt.Sprintf("%s is frontend %s of internal load balancer %s, whose rule %s forwards port %d", ep.Addr, lb.Frontend, lb.Name, lb.Rule, ep.Port)
		switch {
		case !lb.BackendsKnown:
			return at + " to backends the provider cannot follow (a backend given by address rather than by a network interface, or a floating-IP rule), so the proxy's own network cannot be evaluated"
		case len(lb.Backends) == 0:
			return at + " to an empty backend pool, so no proxy is known to receive the connection"
		case len(lb.Backends) > 1:
			return fmt.Sprintf("%s to %d backends (%s); the provider evaluates the proxy's own network from a single backend only, and the load balancer may send any pull to any of them, so several backends (and whether their security groups admit the nodes) are not evaluated", at, len(lb.Backends), joinIDNames(lb.Backends))
		}
		return at + " to a backend whose network interface, subnet or VNet was not read, so the proxy's own network cannot be evaluated"
	}
	return fmt.Sprintf("no network interface of a virtual machine or scale set holds %s (a load balancer frontend, an Azure Firewall or another appliance may), so the proxy's own network cannot be evaluated", ep.Addr)
}

// proxyUnverifiedFinding: what lies beyond the proxy cannot be read.
func (r *run) proxyUnverifiedFinding(pc *poolCtx, h model.PullHost, ep model.ProxyEndpoint, why string) model.Finding {
	cl := r.f.Cluster
	msg := fmt.Sprintf("%s → %s: cluster %s sends the pull to %s (%s). The nodes reach the proxy, but what happens beyond it cannot be checked: %s. The path is unverified.",
		pc.label, h.Name, cl.Name, ep.Label(), r.whyProxied(h, r.f.Cluster.HTTPProxy.MatchNoProxy(h.Name)), why)
	return model.NewFinding(model.EgressProxyUnverified, pc.pool.Name, h.Name, cl.ID, msg, r.proxyFix(h, ep))
}

// proxyFix is what to do about a proxy the provider cannot see beyond.
func (r *run) proxyFix(h model.PullHost, ep model.ProxyEndpoint) string {
	return fmt.Sprintf("Confirm on the proxy (%s) that it allows CONNECT to %s:443 and reaches the registry from its network (its DNS must give the address the registry admits), or add %q to the cluster's noProxy to send the pull direct. Once confirmed, record it in an accept block for EGRESS_PROXY_UNVERIFIED on %s.",
		ep.URL, h.Name, model.NoProxyEntryFor(h.Name), h.Name)
}

// joinIDNames lists the last segment of each id.
func joinIDNames(ids []model.ResourceID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id.Name()
	}
	return strings.Join(names, ", ")
}
