// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// brokenFacts has one problem per owner: a replica the private endpoint does
// not serve (registry), a missing record (dns), a missing pull role
// (identity) and an unread gateway (operator).
func brokenFacts() model.Facts {
	f := baselineFacts()
	addReplica(&f, false)
	delete(zone(&f).Records, "contosoreg.westeurope.data")
	f.RoleAssignments = nil
	f.Gaps.Add(model.Gap{ResourceID: hubGatewayID, Kind: model.GapUnavailable, Detail: "HTTP 503"})
	return f
}

// requireFits fails for every line of text wider than width, or starting
// at column 0 and wider than ParagraphWidth.
func requireFits(t *testing.T, text string, width int) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		limit := width
		if !strings.HasPrefix(line, " ") {
			limit = ParagraphWidth
		}
		if n := columns(line); n > limit {
			t.Errorf("line %d is %d columns, at most %d: %q", i+1, n, limit, line)
		}
	}
}

func TestSummary(t *testing.T) {
	res := verifyFake(t, brokenFacts(), nil)
	s := res.Summary
	requireFits(t, s, SummaryWidth)
	requireContains(t, s,
		"Pull path verification: unreachable",
		"Registry contosoreg (contosoreg.azurecr.io); cluster aks1; 2 node pools × 3\n  hostnames = 6 paths",
		"Paths (node pool × hostname): 6 paths: 6 unreachable",
		"  node pools system, user — resolver azure_dns 168.63.129.16; routes computed\n",
		"    unreachable  contosoreg.azurecr.io                   10.0.2.5\n",
		"\nPaths that are not reachable: the lookup (dns) and the hops (route)\n"+
			"  contosoreg.azurecr.io from node pools system, user\n"+
			"    dns: contosoreg.azurecr.io CNAME contosoreg.privatelink.azurecr.io (public DNS);\n",
		"    route: subnet vnet-spoke/snet-aks → 10.0.2.5\n",
		"Findings by owner",
		"  ERROR DNS_RECORD_MISSING — node pools system, user → contosoreg.westeurope.data.azurecr.io\n",
		"    Fix: Add the A record",
		"    Resource: /subscriptions/",
		"  WARNING EVIDENCE_UNAVAILABLE — all node pools",
		"Notes\n  COVERAGE_ROUTES_COMPUTED — node pools system, user: routes computed from configuration",
	)
	// One cause is one entry, whatever the number of pools.
	if n := strings.Count(s, "DNS_RECORD_MISSING"); n != 1 {
		t.Errorf("DNS_RECORD_MISSING appears %d times, want once:\n%s", n, s)
	}
	order := []string{"[dns]", "[registry]", "[identity]", "[operator]", "\nNotes\n"}
	last := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i < 0 || i < last {
			t.Fatalf("section %s missing or out of order in\n%s", o, s)
		}
		last = i
	}
	if strings.Index(s, "Paths (node pool") > strings.Index(s, "Findings by owner") {
		t.Error("the paths come first")
	}
	for _, p := range res.Paths {
		if !strings.Contains(s, p.NodePool) || !strings.Contains(s, p.Host) {
			t.Errorf("path %s × %s missing from the summary", p.NodePool, p.Host)
		}
	}
}

func TestSummaryReachable(t *testing.T) {
	res := verifyFake(t, baselineFacts(), nil)
	s := res.Summary
	requireFits(t, s, SummaryWidth)
	requireContains(t, s, "Pull path verification: reachable (0 errors, 0 warnings, 2 notes)",
		"    reachable    contosoreg.azurecr.io  ")
	for _, absent := range []string{"ERROR", "WARNING", "not checked", "Findings by owner", "dns:", "route:"} {
		if strings.Contains(s, absent) {
			t.Errorf("a reachable summary shows %q:\n%s", absent, s)
		}
	}
	declared := gatewayFacts()
	declared.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
	requireContains(t, verifyFake(t, declared, nil).Summary, "Pull identity not checked: the registry is not an Azure Container Registry")
}

// Hop detail is shown for the paths that are not reachable, and only
// for them.
func TestSummaryHopDetailOnlyWhenNotReachable(t *testing.T) {
	f := baselineFacts()
	delete(zone(&f).Records, "contosoreg.westeurope.data")
	s := verifyFake(t, f, nil).Summary
	requireContains(t, s, "    unreachable  "+dataHostWE, "  "+dataHostWE+" from node pools system, user\n    dns: "+dataHostWE+" CNAME",
		"    reachable    "+loginHost)
	if strings.Contains(s, "dns: "+loginHost) || strings.Contains(s, loginHost+" from") || strings.Contains(s, "route:") {
		t.Errorf("detail of a reachable path shown:\n%s", s)
	}
}

func pathFor(pool, host, addr string, v model.Verdict, hops ...string) Path {
	return Path{NodePool: pool, Host: host, Address: addr, Resolver: "azure_dns 168.63.129.16",
		RouteSource: RouteSourceComputed, Verdict: v, Hops: hops, Resolution: host + " A " + addr}
}

func poolsOf(gs []poolGroup) [][]string {
	out := make([][]string, len(gs))
	for i, g := range gs {
		out[i] = g.pools
	}
	return out
}

func TestGroupPools(t *testing.T) {
	tests := []struct {
		name  string
		paths []Path
		want  string
	}{
		{"reachable paths read the same: one row, whatever the subnet", []Path{
			pathFor("a", loginHost, "10.0.2.5", model.Reachable, "subnet vnet/snet-1 → 10.0.2.5"),
			pathFor("b", loginHost, "10.0.2.5", model.Reachable, "subnet vnet/snet-2 → 10.0.2.5"),
			pathFor("c", loginHost, "10.0.2.5", model.Reachable, "subnet vnet/snet-1 → 10.0.2.5"),
		}, "a b c"},
		{"a different address is another row", []Path{
			pathFor("a", loginHost, "10.0.2.5", model.Reachable),
			pathFor("b", loginHost, "10.0.2.7", model.Reachable),
			pathFor("c", loginHost, "10.0.2.5", model.Reachable),
		}, "a c|b"},
		{"a different verdict is another row", []Path{
			pathFor("a", loginHost, "10.0.2.5", model.Reachable),
			pathFor("b", loginHost, "10.0.2.5", model.Unreachable),
		}, "a|b"},
		{"paths that are not reachable group only with the same hops", []Path{
			pathFor("a", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-1 → 10.0.2.5"),
			pathFor("b", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-2 → 10.0.2.5"),
			pathFor("c", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-1 → 10.0.2.5"),
		}, "a c|b"},
		{"a pool with another host is another row", []Path{
			pathFor("a", loginHost, "10.0.2.5", model.Reachable), pathFor("a", dataHostWE, "10.0.2.6", model.Reachable),
			pathFor("b", loginHost, "10.0.2.5", model.Reachable),
		}, "a|b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts []string
			for _, pools := range poolsOf(groupPools(tt.paths)) {
				parts = append(parts, strings.Join(pools, " "))
			}
			if got := strings.Join(parts, "|"); got != tt.want {
				t.Errorf("groups %q, want %q", got, tt.want)
			}
		})
	}
}

// A pool whose path differs is on its own row, with its own detail.
func TestSummaryPoolsWithDifferentPathsAreNotGrouped(t *testing.T) {
	f := baselineFacts()
	unlinkSpoke(&f)
	s := verifyFake(t, f, nil).Summary
	requireContains(t, s, "  node pools system, user — ")
	f.Pools[1].SubnetID = "" // the user pool's subnet cannot be read
	s = verifyFake(t, f, nil).Summary
	if strings.Contains(s, "  node pools system, user — ") {
		t.Errorf("pools with different paths grouped:\n%s", s)
	}
	requireContains(t, s, "  node pool system — ", "  node pool user")
}

// The detail names each distinct lookup and route once; where the pools'
// differ, each with its pools.
func TestSummaryDetailVariants(t *testing.T) {
	paths := []Path{
		pathFor("a", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-1 → 10.0.2.5"),
		pathFor("b", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-2 → 10.0.2.5"),
		pathFor("c", loginHost, "10.0.2.5", model.Unreachable, "subnet vnet/snet-1 → 10.0.2.5"),
		pathFor("d", loginHost, "10.0.2.5", model.Reachable, "subnet vnet/snet-3 → 10.0.2.5"),
	}
	p := &page{width: SummaryWidth}
	writeDetail(p, paths)
	want := "\nPaths that are not reachable: the lookup (dns) and the hops (route)\n" +
		"  " + loginHost + " from node pools a, b, c\n" +
		"    dns: " + loginHost + " A 10.0.2.5\n" +
		"    route (node pools a, c): subnet vnet/snet-1 → 10.0.2.5\n" +
		"    route (node pool b): subnet vnet/snet-2 → 10.0.2.5\n"
	if got := p.String(); got != want {
		t.Errorf("detail\n%s\nwant\n%s", got, want)
	}
	p = &page{width: SummaryWidth}
	writeDetail(p, paths[3:])
	if p.String() != "" {
		t.Errorf("detail of reachable paths: %q", p.String())
	}
}

func TestNotesFold(t *testing.T) {
	note := func(code model.Code, pool, msg, fix string) model.Finding {
		return model.NewFinding(code, pool, "", model.ResourceID("/subscriptions/s/resourceGroups/rg/providers/x/y/"+pool), msg, fix)
	}
	notes := []model.Finding{
		note(model.CoverageRoutesComputed, "a", "Routes for node pool a …", "Nothing to fix."),
		note(model.CoverageRoutesComputed, "b", "Routes for node pool b …", "Nothing to fix."),
		note(model.CoveragePlannedOffPath, "", "The plan changes nothing on a path.", "Nothing to fix."),
		note(model.CoverageRoutesComputed, "c", "Routes for node pool c …", "Nothing to fix."),
	}
	p := &page{width: SummaryWidth}
	writeNotes(p, notes)
	want := "  COVERAGE_ROUTES_COMPUTED — node pools a, b, c: routes computed from configuration, not read from\n" +
		"    Azure's effective routes\n" +
		"  COVERAGE_PLANNED_CHANGES_OFF_PATH — all node pools: The plan changes nothing on a path.\n"
	if got := p.String(); got != want {
		t.Errorf("notes\n%s\nwant\n%s", got, want)
	}
	// A note for one pool keeps its message; another fix is another line.
	p = &page{width: SummaryWidth}
	writeNotes(p, []model.Finding{notes[0], note(model.CoverageRoutesComputed, "b", "Routes for node pool b …", "Another fix.")})
	want = "  COVERAGE_ROUTES_COMPUTED — node pool a: Routes for node pool a …\n" +
		"  COVERAGE_ROUTES_COMPUTED — node pool b: Routes for node pool b …\n"
	if got := p.String(); got != want {
		t.Errorf("notes\n%s\nwant\n%s", got, want)
	}
}

func TestWhere(t *testing.T) {
	f := func(pool, host string) model.Finding { return model.Finding{NodePool: pool, Endpoint: host} }
	tests := []struct {
		fs   []model.Finding
		want string
	}{
		{[]model.Finding{f("system", loginHost)}, "node pool system → " + loginHost},
		{[]model.Finding{f("system", "")}, "node pool system"},
		{[]model.Finding{f("", "")}, "all node pools"},
		{[]model.Finding{f("a", loginHost), f("b", loginHost), f("a", dataHostWE), f("b", dataHostWE)},
			"node pools a, b → " + loginHost + ", " + dataHostWE},
		{[]model.Finding{f("a", loginHost), f("b", loginHost), f("a", dataHostWE)},
			"node pools a, b → " + loginHost + "; node pool a → " + dataHostWE},
	}
	for _, tt := range tests {
		if got := Where(tt.fs...); got != tt.want {
			t.Errorf("Where(%v) = %q, want %q", tt.fs, got, tt.want)
		}
	}
}

// The same facts give the same summary, whatever the order of the pools.
func TestSummaryDeterministic(t *testing.T) {
	a := verifyFake(t, brokenFacts(), nil).Summary
	f := brokenFacts()
	f.Pools[0], f.Pools[1] = f.Pools[1], f.Pools[0]
	if b := verifyFake(t, f, nil).Summary; a != b {
		t.Errorf("summary differs between runs:\n%s\n---\n%s", a, b)
	}
	r := verifyFake(t, brokenFacts(), nil)
	if FailureReport(r) != FailureReport(verifyFake(t, brokenFacts(), nil)) {
		t.Error("failure report differs between runs")
	}
}

func TestFailureReport(t *testing.T) {
	res := verifyFake(t, brokenFacts(), nil)
	r := FailureReport(res)
	requireFits(t, r, DiagnosticWidth)
	requireContains(t, r,
		"The node pools cannot pull from the registry",
		"Verdict unreachable: 6 errors from 3 causes.",
		"[dns] DNS_RECORD_MISSING — node pools system, user →\n    contosoreg.westeurope.data.azurecr.io\n  Node pool system",
		"the name does not resolve (NXDOMAIN), and the layer download fails after the manifest succeeded.\n  Fix: Add the A record",
		"  Resource: privatelink.azurecr.io (privateDnsZones, resource group rg-hub)\n",
		"[registry] ENDPOINT_DATA_NOT_COVERED — node pools system, user →",
		"[identity] IDENTITY_PULL_ROLE_MISSING — node pools system, user →\n    "+loginHost,
		"Also 1 warning that does not decide the verdict: EVIDENCE_UNAVAILABLE.",
		"the summary attribute", "the findings attribute", "report_dir",
	)
	for _, absent := range []string{"COVERAGE_ROUTES_COMPUTED", "[operator]"} {
		if strings.Contains(r, absent) {
			t.Errorf("the failure report shows %s:\n%s", absent, r)
		}
	}
	// Each cause says what is wrong: the message of its first finding.
	flat := strings.Join(strings.Fields(r), " ")
	for _, c := range ByCause(res.Findings) {
		if c[0].Severity == model.SeverityError && !strings.Contains(flat, strings.Join(strings.Fields(c[0].Message), " ")) {
			t.Errorf("the failure report does not say what is wrong for %s: %s\n%s", c[0].Code, c[0].Message, r)
		}
	}
	if n := strings.Count(r, "\n"); n > 60 {
		t.Errorf("the failure report has %d lines:\n%s", n, r)
	}

	unverified := baselineFacts()
	setSpokeDNS(&unverified, "192.168.1.53")
	u := FailureReport(verifyFake(t, unverified, nil))
	requireFits(t, u, DiagnosticWidth)
	requireContains(t, u, "is unverified", "Verdict unverified: ", "[dns] DNS_FORWARDER_UNVERIFIED")
}

func TestWarningReport(t *testing.T) {
	f := baselineFacts()
	setSpokeDNS(&f, "192.168.1.53")
	res := verifyFake(t, f, nil)
	var warnings []model.Finding
	for _, x := range res.Findings {
		if x.Severity == model.SeverityWarning {
			warnings = append(warnings, x)
		}
	}
	c := ByCause(warnings)[0]
	w := WarningReport(c)
	requireFits(t, w, DiagnosticWidth)
	requireContains(t, w, "[dns] DNS_FORWARDER_UNVERIFIED — node pool", "  Fix: ")
	if !strings.Contains(strings.Join(strings.Fields(w), " "), c[0].Message) {
		t.Errorf("the warning does not say what is wrong:\n%s", w)
	}
}
