// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// poolGroup is node pools whose paths read the same in the summary.
type poolGroup struct {
	pools []string
	// paths are the first pool's, one per host in chain order.
	paths []Path
}

// groupPools groups the pools whose paths are identical as the summary
// shows them: the same hosts in the same order, and for each the same
// address, resolver, route source and verdict, and, for a path that is not
// reachable, the same lookup and hops. Groups come in the order of their
// first pool, pools in the order of paths.
func groupPools(paths []Path) []poolGroup {
	var pools []string
	byPool := map[string][]Path{}
	for _, p := range paths {
		if _, ok := byPool[p.NodePool]; !ok {
			pools = append(pools, p.NodePool)
		}
		byPool[p.NodePool] = append(byPool[p.NodePool], p)
	}
	index := map[string]int{}
	var out []poolGroup
	for _, pool := range pools {
		k := shownKey(byPool[pool])
		if i, ok := index[k]; ok {
			out[i].pools = append(out[i].pools, pool)
			continue
		}
		index[k] = len(out)
		out = append(out, poolGroup{pools: []string{pool}, paths: byPool[pool]})
	}
	return out
}

// shownKey is what the summary shows of one pool's paths.
func shownKey(paths []Path) string {
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%s\x00%s\x00", p.Host, p.Address, p.Resolver, p.RouteSource, p.Verdict)
		if p.Verdict != model.Reachable {
			fmt.Fprintf(&b, "%s\x00%s\x00", p.Resolution, strings.Join(p.Hops, "\x01"))
		}
		b.WriteString("\x02")
	}
	return b.String()
}

// writePaths writes the paths: a heading with the count per verdict, then
// per group of pools a row naming the pools (with the resolver and route
// source when all its paths share them) and one line per host: verdict,
// host, address. The lookup and hops of the paths that are not reachable
// follow (writeDetail).
func writePaths(p *page, paths []Path) {
	p.para("", "  ", "Paths (node pool × hostname): "+verdictCounts(paths))
	hostWidth := 0
	for _, path := range paths {
		hostWidth = max(hostWidth, columns(path.Host))
	}
	for _, g := range groupPools(paths) {
		resolver, sameResolver := common(g.paths, func(p Path) string { return p.Resolver })
		routes, sameRoutes := common(g.paths, func(p Path) string { return string(p.RouteSource) })
		head := poolWords(g.pools)
		var shared []string
		if sameResolver && resolver != "" {
			shared = append(shared, "resolver "+resolver)
		}
		if sameRoutes && routes != "" {
			shared = append(shared, "routes "+routes)
		}
		if len(shared) > 0 {
			head += " — " + strings.Join(shared, "; ")
		}
		p.para("  ", "    ", head)
		for _, path := range g.paths {
			addr := path.Address
			if addr == "" {
				addr = "-"
			}
			row := fmt.Sprintf("    %-11s  %-*s  %s", path.Verdict, hostWidth, path.Host, addr)
			if !sameResolver && path.Resolver != "" {
				row += "  resolver " + path.Resolver
			}
			if !sameRoutes && path.RouteSource != "" {
				row += "  routes " + string(path.RouteSource)
			}
			p.line(row, "      ")
		}
	}
	writeDetail(p, paths)
}

// writeDetail writes, host by host, the lookup (dns) and the hops (route)
// of the paths that are not reachable (those that stopped before the
// lookup have neither); each distinct text once, named with its pools when
// the pools' texts differ (the same lookup from every pool, a route from
// each subnet).
func writeDetail(p *page, paths []Path) {
	var hosts []string
	failing := map[string][]Path{}
	for _, path := range paths {
		if path.Verdict == model.Reachable || (path.Resolution == "" && len(path.Hops) == 0) {
			continue
		}
		if _, ok := failing[path.Host]; !ok {
			hosts = append(hosts, path.Host)
		}
		failing[path.Host] = append(failing[path.Host], path)
	}
	if len(hosts) == 0 {
		return
	}
	p.blank()
	p.para("", "  ", "Paths that are not reachable: the lookup (dns) and the hops (route)")
	for _, h := range hosts {
		var pools []string
		for _, path := range failing[h] {
			pools = appendNew(pools, path.NodePool)
		}
		p.para("  ", "      ", h+" from "+poolWords(pools))
		writeVariants(p, "dns", failing[h], func(p Path) string { return p.Resolution })
		writeVariants(p, "route", failing[h], func(p Path) string { return strings.Join(p.Hops, " → ") })
	}
}

// writeVariants writes the distinct non-empty texts of paths, each once,
// prefixed by label, and by the pools it concerns when there are several.
func writeVariants(p *page, label string, paths []Path, text func(Path) string) {
	var texts []string
	poolsOf := map[string][]string{}
	for _, path := range paths {
		t := text(path)
		if t == "" {
			continue
		}
		if _, ok := poolsOf[t]; !ok {
			texts = append(texts, t)
		}
		poolsOf[t] = appendNew(poolsOf[t], path.NodePool)
	}
	for _, t := range texts {
		prefix := label + ": "
		if len(texts) > 1 {
			prefix = fmt.Sprintf("%s (%s): ", label, poolWords(poolsOf[t]))
		}
		p.para("    "+prefix, "      ", t)
	}
}

// common is the value every path has, if they all have the same.
func common(paths []Path, value func(Path) string) (string, bool) {
	v := value(paths[0])
	for _, p := range paths[1:] {
		if value(p) != v {
			return "", false
		}
	}
	return v, true
}

// verdictCounts is "9 paths: 3 reachable, 6 unreachable".
func verdictCounts(paths []Path) string {
	counts := map[model.Verdict]int{}
	for _, p := range paths {
		counts[p.Verdict]++
	}
	var parts []string
	for _, v := range []model.Verdict{model.Reachable, model.Unreachable, model.Unverified} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[v], v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return plural(len(paths), "path") + ": " + strings.Join(parts, ", ")
}
