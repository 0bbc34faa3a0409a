// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package diagram draws a verification's pull paths as a Mermaid
// flowchart: node pools → the resolver they use → the hostnames a pull
// touches → the hops on the way (peerings, appliances, firewalls, gateways,
// security groups, the way out) → the addresses. It is pure: it reads the
// paths and findings of a verify.Result and returns text, with no I/O
// (docs/design/architecture.md, "What may import what").
//
// The text is deterministic: node ids derive from what the node stands
// for, nodes and edges are written in sorted order, and nothing depends on
// the order of the input, so a diagram kept in a pull request comment or a
// job summary only changes where the network did.
package diagram

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Node kinds; each has its own shape and class.
type kind int

const (
	kindPools kind = iota
	kindResolver
	kindHost
	kindHop
	kindAddress
	kindStop
)

// idPrefix starts every node id of a kind: capitals, so that no id starts
// with the "o" or "x" Mermaid would read as an edge end.
var idPrefix = map[kind]string{
	kindPools: "P", kindResolver: "R", kindHost: "H", kindHop: "N", kindAddress: "A", kindStop: "S",
}

// shapes open and close a node's label: pools rectangles, resolvers
// hexagons, hostnames stadiums, hops rounded boxes, addresses cylinders,
// the end of a path that reached no address a circle.
var shapes = map[kind][2]string{
	kindPools: {`["`, `"]`}, kindResolver: {`{{"`, `"}}`}, kindHost: {`(["`, `"])`},
	kindHop: {`("`, `")`}, kindAddress: {`[("`, `")]`}, kindStop: {`(("`, `"))`},
}

var className = map[kind]string{
	kindPools: "pool", kindResolver: "resolver", kindHost: "host", kindHop: "hop", kindAddress: "address", kindStop: "stop",
}

// status of an edge: where a path ends broken or unverified.
type status int

const (
	statusOK status = iota
	statusUnverified
	statusBroken
)

type node struct {
	kind  kind
	key   string
	label string // escaped Mermaid text
}

type edge struct {
	from, to string
	fromKind kind
	route    string // the route that took the packet there, raw text
	status   status
	codes    map[string]bool
	// planned are, per code, the planned changes that cause it.
	planned map[string]map[string]bool
	// hosts are the hostnames whose paths stop on the edge: named in its
	// label when it leaves a node several hostnames share.
	hosts map[string]bool
}

// graph holds nodes by handle (kind and key) and edges between handles;
// render gives the nodes their ids once every label is known.
type graph struct {
	nodes map[string]*node
	edges map[string]*edge
}

// Flowchart returns the Mermaid flowchart of the paths, with the findings
// that break them. Pools whose paths are the same (same resolver, hosts,
// hops, addresses, verdicts and codes) are one node listing their names;
// a hop or address many paths share is one node. The edge where a path
// stops is labelled with the codes that stop it: solid red when the path
// is unreachable, dotted orange when it is unverified.
func Flowchart(paths []verify.Path, findings []model.Finding) string {
	g := &graph{nodes: map[string]*node{}, edges: map[string]*edge{}}
	for _, grp := range groupPools(paths, findings) {
		g.addGroup(grp)
	}
	return g.render()
}

// poolPaths are one pool's paths, with the codes that stop each.
type poolPaths struct {
	name  string
	paths []pathCodes
}

type pathCodes struct {
	verify.Path
	codes []string
	// planned maps a code to the planned changes that cause it.
	planned map[string][]string
	// reaches: the packet gets to the address (the path is reachable, or
	// stops beyond the network: return route, endpoint, TLS name,
	// identity), so the address ends the drawing.
	reaches bool
}

// group is pools drawn as one node.
type group struct {
	names []string
	paths []pathCodes
	key   string
}

// groupPools collects each pool's paths (sorted by host) and groups pools
// whose paths draw the same.
func groupPools(paths []verify.Path, findings []model.Finding) []group {
	byPool := map[string]*poolPaths{}
	for _, p := range paths {
		pp := byPool[p.NodePool]
		if pp == nil {
			pp = &poolPaths{name: p.NodePool}
			byPool[p.NodePool] = pp
		}
		codes, planned, reaches := stopCodes(p, findings)
		pp.paths = append(pp.paths, pathCodes{Path: p, codes: codes, planned: planned, reaches: reaches})
	}
	byKey := map[string]*group{}
	for _, pp := range byPool {
		sort.Slice(pp.paths, func(i, j int) bool {
			a, b := pp.paths[i], pp.paths[j]
			if a.Host != b.Host {
				return a.Host < b.Host
			}
			return a.Address < b.Address
		})
		var b strings.Builder
		for _, p := range pp.paths {
			fmt.Fprintf(&b, "%q %q %q %q %q", p.Host, p.Resolver, p.Address, p.Verdict, p.codes)
			for _, c := range p.codes {
				fmt.Fprintf(&b, " %q", p.planned[c])
			}
			for _, s := range p.Steps {
				fmt.Fprintf(&b, " %q %q %q %q %q", s.Key(), s.Label, s.From.Key(), s.Route, s.Destination)
			}
			b.WriteByte('\n')
		}
		key := b.String()
		g := byKey[key]
		if g == nil {
			g = &group{paths: pp.paths, key: key}
			byKey[key] = g
		}
		g.names = append(g.names, pp.name)
	}
	out := make([]group, 0, len(byKey))
	for _, g := range byKey {
		sort.Strings(g.names)
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].names[0] < out[j].names[0] })
	return out
}

// stopCodes are the codes that make a path unreachable (its errors) or
// unverified (its warnings): the findings of its pool for its host or for
// every host of the pool. A reachable path has none. reaches reports
// whether the packet gets to the address: the path is reachable, or every
// code stopping it lies beyond the route there (the return route, the
// registry's endpoint, the TLS name, the pull identity). planned maps
// each code to the planned changes that cause it (docs/design/what-if.md).
func stopCodes(p verify.Path, findings []model.Finding) (codes []string, planned map[string][]string, reaches bool) {
	var want model.Severity
	switch p.Verdict {
	case model.Unreachable:
		want = model.SeverityError
	case model.Unverified:
		want = model.SeverityWarning
	default:
		return nil, nil, true
	}
	set := map[string]bool{}
	changes := map[string]map[string]bool{}
	reaches = true
	for _, f := range findings {
		if f.Severity == want && f.NodePool == p.NodePool && (f.Endpoint == p.Host || f.Endpoint == "") {
			set[string(f.Code)] = true
			if f.PlannedChange != "" {
				if changes[string(f.Code)] == nil {
					changes[string(f.Code)] = map[string]bool{}
				}
				changes[string(f.Code)][f.PlannedChange] = true
			}
			switch f.Condition {
			case model.ConditionReturnRoute, model.ConditionEndpoint, model.ConditionTLSIdentity:
			default:
				reaches = false
			}
		}
	}
	for c, m := range changes {
		if planned == nil {
			planned = map[string][]string{}
		}
		planned[c] = slices.Sorted(maps.Keys(m))
	}
	return slices.Sorted(maps.Keys(set)), planned, reaches && len(set) > 0
}

// addGroup draws one group's paths. The pool node is the group's own;
// resolvers, hostnames, hops and addresses are one node each, shared by
// every group that reaches them (the route on an edge, and the node subnet
// the routes start from, tell the groups apart). A code of the registry's
// side of the pull (condition endpoint or tls_identity: the pull identity's
// role, the registry's network rules, the TLS name) is not drawn on a
// network edge the packet crosses: the group's pool node has an edge of its
// own to the "pull refused by the registry" node, labelled with those
// codes and the hostnames they concern.
func (g *graph) addGroup(grp group) {
	poolLabel := poolsLabel(grp.names, nodeSubnet(grp.paths))
	pools := g.node(kindPools, "pools "+grp.key, poolLabel)
	for _, p := range grp.paths {
		st := statusOK
		switch p.Verdict {
		case model.Unreachable:
			st = statusBroken
		case model.Unverified:
			st = statusUnverified
		}
		from := pools
		if p.Resolver != "" {
			res := g.node(kindResolver, "resolver "+p.Resolver, escape("DNS "+p.Resolver))
			g.edge(from, res, "", mark{})
			from = res
		}
		host := g.node(kindHost, "host "+p.Host, escape(p.Host))
		g.edge(from, host, "", mark{})

		network, registry := splitCodes(p.codes)
		netStatus := st
		if len(network) == 0 && len(registry) > 0 {
			// Only the registry refuses: the packet's way is fine.
			netStatus = statusOK
		}
		if len(registry) > 0 {
			refused := g.node(kindStop, "stop refused", escape("pull refused by the registry"))
			g.edge(pools, refused, "", mark{status: st, codes: registry, planned: p.planned, host: p.Host})
		}
		mark := mark{status: netStatus, codes: network, planned: p.planned, host: p.Host}
		drawn := false
		for _, c := range addressChains(p.Path) {
			if !p.reaches && len(c.steps) > 0 {
				// The packet stops on the way: the last hop ends the
				// drawing, not the address.
				c.address = ""
			}
			if g.chain(host, c, mark) {
				drawn = true
			}
		}
		if !drawn && netStatus != statusOK {
			stop := g.node(kindStop, "stop no address", escape("no address"))
			g.edge(host, stop, "", mark)
		}
	}
}

// splitCodes separates the codes of the way there (routes, security
// rules, egress, DNS, return routes, coverage, evidence) from those of the
// registry's side of the pull (endpoint, TLS and identity).
func splitCodes(codes []string) (network, registry []string) {
	for _, c := range codes {
		switch model.Catalogue[model.Code(c)].Condition {
		case model.ConditionEndpoint, model.ConditionTLSIdentity:
			registry = append(registry, c)
		default:
			network = append(network, c)
		}
	}
	return network, registry
}

// chain is the steps to one address (address "" when the path has none).
type chain struct {
	address string
	steps   []model.Hop
}

// addressChains splits a path's steps by the address they lead to: with
// several addresses, each step says its own (model.Hop.Destination), and
// a step that says none leads to every address.
func addressChains(p verify.Path) []chain {
	var addrs []string
	for a := range strings.SplitSeq(p.Address, ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	if len(addrs) <= 1 {
		c := chain{steps: p.Steps}
		if len(addrs) == 1 {
			c.address = addrs[0]
		}
		return []chain{c}
	}
	out := make([]chain, 0, len(addrs))
	for _, a := range addrs {
		c := chain{address: a}
		for _, s := range p.Steps {
			if s.Destination == "" || s.Destination == a {
				c.steps = append(c.steps, s)
			}
		}
		out = append(out, c)
	}
	return out
}

// step is one node of a chain and the route that led to it.
type step struct {
	node  string
	route string
}

// mark is what the last edge of a path carries.
type mark struct {
	status  status
	codes   []string
	planned map[string][]string
	host    string
}

// chain draws the steps from host to the chain's address and marks its
// last edge with the path's status and codes. It reports whether it drew
// an edge.
func (g *graph) chain(host string, c chain, m mark) bool {
	var steps []step
	crossed := map[string]bool{}
	for _, h := range c.steps {
		// A resource the path already crossed (the firewall a route led
		// to, named again as the way out) is the same node: drawing it
		// twice would draw a loop the packet does not take.
		n := g.node(kindHop, "hop "+h.Key(), escape(h.Label))
		if crossed[n] {
			continue
		}
		crossed[n] = true
		steps = append(steps, step{node: n, route: h.Route})
	}
	if c.address != "" {
		steps = append(steps, step{node: g.node(kindAddress, "address "+c.address, escape(c.address))})
	}
	if len(steps) == 0 {
		return false
	}
	from := host
	for i, s := range steps {
		if i == len(steps)-1 {
			g.edge(from, s.node, s.route, m)
		} else {
			g.edge(from, s.node, s.route, mark{})
		}
		from = s.node
	}
	return true
}

// nodeSubnet is the subnet the group's routes start from ("vnet/subnet"),
// "" when no path was routed or they start from different subnets.
func nodeSubnet(paths []pathCodes) string {
	subnet := ""
	for _, p := range paths {
		for _, c := range addressChains(p.Path) {
			if len(c.steps) == 0 || c.steps[0].From.IsZero() {
				continue
			}
			from := c.steps[0].From
			s := from.Parent().Name() + "/" + from.Name()
			if subnet != "" && subnet != s {
				return ""
			}
			subnet = s
		}
	}
	return subnet
}

// namesPerLine bounds a pool node's width: its names wrap after this many.
const namesPerLine = 4

// poolsLabel is "node pool system" or "node pools system, user", names
// wrapped namesPerLine to a line, then the node subnet.
func poolsLabel(names []string, subnet string) string {
	word := "node pool "
	if len(names) > 1 {
		word = "node pools "
	}
	var lines []string
	for i := 0; i < len(names); i += namesPerLine {
		end := min(i+namesPerLine, len(names))
		line := strings.Join(names[i:end], ", ")
		if end < len(names) {
			line += ","
		}
		lines = append(lines, escape(line))
	}
	lines[0] = escape(word) + lines[0]
	if subnet != "" {
		lines = append(lines, escape("subnet "+subnet))
	}
	return strings.Join(lines, "<br/>")
}

// node adds (once) the node of kind standing for key, labelled label
// (already escaped), and returns its handle. A node is what it stands for,
// so the words that name a resource never split it into several nodes;
// when they differ, the node keeps the least label, whatever the order of
// the input.
func (g *graph) node(k kind, key, label string) string {
	h := idPrefix[k] + "\x00" + key
	if n, ok := g.nodes[h]; !ok {
		g.nodes[h] = &node{kind: k, key: key, label: label}
	} else if label < n.label {
		n.label = label
	}
	return h
}

// edge adds the edge from → to taken by route, or merges the mark into
// the one already there.
func (g *graph) edge(from, to, route string, m mark) {
	key := from + "\x00" + to + "\x00" + route
	e := g.edges[key]
	if e == nil {
		e = &edge{from: from, to: to, route: route, codes: map[string]bool{}, planned: map[string]map[string]bool{}, hosts: map[string]bool{}}
		g.edges[key] = e
	}
	if m.status == statusOK {
		return
	}
	e.status = max(e.status, m.status)
	for _, c := range m.codes {
		e.codes[c] = true
	}
	for c, changes := range m.planned {
		if e.planned[c] == nil {
			e.planned[c] = map[string]bool{}
		}
		for _, a := range changes {
			e.planned[c][a] = true
		}
	}
	e.hosts[m.host] = true
}

// nodeID is the kind's prefix, the label's letters and digits (up to 24)
// and a hash of the key: stable for the same content, distinct for
// different content, and only letters, digits and underscores.
func nodeID(k kind, key, label string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	var b strings.Builder
	b.WriteString(idPrefix[k])
	b.WriteByte('_')
	n, sep := 0, false
	for _, r := range label {
		if n >= 24 {
			break
		}
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if sep && n > 0 {
				b.WriteByte('_')
				n++
			}
			b.WriteRune(r)
			n++
			sep = false
		} else {
			sep = true
		}
	}
	fmt.Fprintf(&b, "_%08x", h.Sum32())
	return b.String()
}

// Edge and node styles. Broken edges are solid red and thick; unverified
// ones dotted and orange.
const (
	brokenStyle     = "stroke:#d32f2f,stroke-width:3px,color:#d32f2f"
	unverifiedStyle = "stroke:#ef6c00,stroke-width:2px,color:#ef6c00"
)

var classDefs = []string{
	"classDef pool fill:#e3f2fd,stroke:#1565c0",
	"classDef resolver fill:#f3e5f5,stroke:#6a1b9a",
	"classDef host fill:#fffde7,stroke:#f9a825",
	"classDef hop fill:#f5f5f5,stroke:#616161",
	"classDef address fill:#e8f5e9,stroke:#2e7d32",
	"classDef stop fill:#ffebee,stroke:#c62828",
}

// render writes the flowchart: nodes by id, edges by (from, to, route),
// then the classes and the styles of broken and unverified edges (by their
// position among the edges, as linkStyle counts them).
func (g *graph) render() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if len(g.nodes) == 0 {
		b.WriteString(`    S_none(("no node pool paths were verified"))` + "\n")
		return b.String()
	}
	byID := map[string]*node{}
	idOf := map[string]string{}
	for h, n := range g.nodes {
		id := nodeID(n.kind, n.key, n.label)
		byID[id], idOf[h] = n, id
	}
	ids := slices.Sorted(maps.Keys(byID))
	for _, id := range ids {
		n := byID[id]
		s := shapes[n.kind]
		fmt.Fprintf(&b, "    %s%s%s%s\n", id, s[0], n.label, s[1])
	}
	edges := make([]*edge, 0, len(g.edges))
	for _, e := range g.edges {
		c := *e
		c.from, c.to = idOf[e.from], idOf[e.to]
		c.fromKind = g.nodes[e.from].kind
		edges = append(edges, &c)
	}
	sort.Slice(edges, func(i, j int) bool {
		a, c := edges[i], edges[j]
		if a.from != c.from {
			return a.from < c.from
		}
		if a.to != c.to {
			return a.to < c.to
		}
		return a.route < c.route
	})
	var broken, unverified []string
	for i, e := range edges {
		arrow := "-->"
		switch e.status {
		case statusBroken:
			broken = append(broken, strconv.Itoa(i))
		case statusUnverified:
			arrow = "-.->"
			unverified = append(unverified, strconv.Itoa(i))
		}
		label := edgeLabel(e, e.fromKind != kindHost)
		if label == "" {
			fmt.Fprintf(&b, "    %s %s %s\n", e.from, arrow, e.to)
		} else {
			fmt.Fprintf(&b, "    %s %s|\"%s\"| %s\n", e.from, arrow, label, e.to)
		}
	}
	for _, c := range classDefs {
		b.WriteString("    " + c + "\n")
	}
	byClass := map[string][]string{}
	for _, id := range ids {
		c := className[byID[id].kind]
		byClass[c] = append(byClass[c], id)
	}
	for _, c := range slices.Sorted(maps.Keys(byClass)) {
		fmt.Fprintf(&b, "    class %s %s\n", strings.Join(byClass[c], ","), c)
	}
	if len(broken) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s %s\n", strings.Join(broken, ","), brokenStyle)
	}
	if len(unverified) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s %s\n", strings.Join(unverified, ","), unverifiedStyle)
	}
	return b.String()
}

// edgeLabel is the stopping codes, each a planned change causes followed
// by "after this plan: <address>" (so a pull request comment shows which
// change breaks the path), then (when the edge leaves a node several
// hostnames share) the hostnames that stop there, then the route, escaped.
func edgeLabel(e *edge, shared bool) string {
	var parts []string
	if codes := slices.Sorted(maps.Keys(e.codes)); len(codes) > 0 {
		var plain []string
		var planned []string
		for _, c := range codes {
			if changes := slices.Sorted(maps.Keys(e.planned[c])); len(changes) > 0 {
				planned = append(planned, escape(c)+"<br/>"+escape("after this plan: "+strings.Join(changes, ", ")))
			} else {
				plain = append(plain, c)
			}
		}
		if len(plain) > 0 {
			parts = append(parts, escape(strings.Join(plain, ", ")))
		}
		parts = append(parts, planned...)
	} else if e.status == statusBroken {
		parts = append(parts, escape(string(model.Unreachable)))
	} else if e.status == statusUnverified {
		parts = append(parts, escape(string(model.Unverified)))
	}
	if hosts := slices.Sorted(maps.Keys(e.hosts)); shared && len(hosts) > 0 {
		parts = append(parts, escape("for "+strings.Join(hosts, ", ")))
	}
	if e.route != "" {
		parts = append(parts, escape(e.route))
	}
	return strings.Join(parts, "<br/>")
}

// escape makes text safe inside a quoted Mermaid label: the characters
// Mermaid or the HTML it renders would read (quotes, brackets, braces,
// pipes, #, <, >, &, ;, backquotes) become entity codes (#quot;, #35;, …),
// and line breaks spaces. Parentheses are safe between the quotes and stay
// as they are.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString("#quot;")
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		case '#', '|', '<', '>', '[', ']', '{', '}', '&', ';', '`':
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
