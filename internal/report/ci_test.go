// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/schemacheck"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// notChecked is a verification of a mistyped cluster id that failed closed.
func notChecked() Input {
	in := failing()
	in.Result = verify.Result{}
	in.PlannedChanges = nil
	in.NotChecked = []NotChecked{{Argument: "cluster_id", Cause: "The AKS cluster does not exist",
		Detail: "Azure answered 404 Not Found for the AKS cluster aks-typo. Check cluster_id."}}
	in.DeclaredIn = DeclaredIn{File: "infra/network/pull-path-check/main.tf", Line: 48}
	return in
}

func TestOutcome(t *testing.T) {
	pass, fail, nc := Build(passing()), Build(failing()), Build(notChecked())
	if pass.Outcome != OutcomePass || fail.Outcome != OutcomeFail || nc.Outcome != OutcomeNotChecked {
		t.Fatalf("outcomes %q %q %q, want pass fail not_checked", pass.Outcome, fail.Outcome, nc.Outcome)
	}
	// enforce = false: an unreachable verdict does not fail the policy.
	in := failing()
	in.Enforce, in.FailsPlan = false, false
	if r := Build(in); r.Outcome != OutcomePass || r.NotChecked != nil {
		t.Errorf("enforce = false: outcome %q, not_checked %v", r.Outcome, r.NotChecked)
	}
	if nc.Verdict != model.Unverified || nc.Reachable || !nc.Policy.FailsPlan || len(nc.Paths) != 0 || len(nc.Findings) != 0 {
		t.Errorf("a report that checked nothing must be unverified, failing, without paths or findings: %+v", nc)
	}
	for name, r := range map[string]Report{"pass": pass, "fail": fail, "not_checked": nc} {
		m := decode(t, JSON(r))
		if m["outcome"] != r.Outcome {
			t.Errorf("%s: JSON outcome %v", name, m["outcome"])
		}
		if err := schemacheck.Report(JSON(r)); err != nil {
			t.Errorf("%s: the report does not follow the schema: %v", name, err)
		}
	}
	m := decode(t, JSON(nc))
	causes := m["not_checked"].([]any)
	if c := causes[0].(map[string]any); len(causes) != 1 || c["argument"] != "cluster_id" || !strings.Contains(c["detail"].(string), "404") {
		t.Errorf("not_checked does not carry the argument and the cause: %v", causes)
	}
	// The schema holds outcome and not_checked together.
	for name, breakIt := range map[string]func(m map[string]any){
		"not_checked without causes": func(m map[string]any) { m["not_checked"] = nil },
		"pass with causes":           func(m map[string]any) { m["outcome"] = "pass" },
		"unknown outcome":            func(m map[string]any) { m["outcome"] = "maybe" },
		"no declared_in":             func(m map[string]any) { delete(m, "declared_in") },
	} {
		m := decode(t, JSON(nc))
		breakIt(m)
		data, _ := json.Marshal(m)
		if schemacheck.Report(data) == nil {
			t.Errorf("the schema accepts a report with %s", name)
		}
	}
}

func TestNotCheckedReportSaysSoFirst(t *testing.T) {
	r := Build(notChecked())
	md := string(Markdown(r))
	if !strings.HasPrefix(md, "## pullpath: AKS1 → contosoreg: ⛔ not checked\n") ||
		!strings.Contains(md, "- `cluster_id`: **The AKS cluster does not exist**: Azure answered 404") {
		t.Errorf("the Markdown does not start with what could not be checked:\n%s", md)
	}
	if strings.Contains(md, "✅") || strings.Contains(md, "No findings.") {
		t.Errorf("the Markdown of a verification that checked nothing reads like a pass:\n%s", md)
	}
	run := sarifLogOf(t, SARIF(r)).Runs[0]
	if len(run.Results) != 1 || run.Results[0].Level != "error" || run.Results[0].RuleID != notCheckedRule ||
		!strings.Contains(run.Results[0].Message.Text, "cluster_id") || run.Invocations[0].ExecutionSuccessful {
		t.Errorf("the SARIF log does not carry one error result saying what was not checked: %+v", run)
	}
	if err := schemacheck.SARIF(SARIF(r)); err != nil {
		t.Errorf("not valid SARIF: %v", err)
	}
}

// GitHub code scanning's documented SARIF requirements ("SARIF support for
// code scanning", https://docs.github.com/en/code-security/code-scanning/
// integrating-with-code-scanning/sarif-support-for-code-scanning, and the
// upload limits of "Uploading a SARIF file to GitHub"): version 2.1.0; at
// most 20 runs per file and 25,000 results per run; tool.driver.name; a
// rule's id, shortDescription.text, fullDescription.text and help.text,
// at most 20 tags; a result's ruleId and message.text, and 1 to 10
// locations, each a physicalLocation whose artifactLocation.uri is the
// path of a file relative to the repository's root (code scanning rejects
// the upload, or shows no alert, for a result without one) with
// region.startLine; partialFingerprints to follow a result across runs;
// and one category (automationDetails.id) per run, since an upload of
// several runs of one tool and category is rejected. The location rules are
// also those Microsoft's SARIF multitool checks for GitHub Advanced
// Security (`sarif validate --rule-kinds Ghas`, microsoft/sarif-sdk):
// GH1001 (every location has physicalLocation.artifactLocation.uri, else
// code scanning does not display the result), GH1003 (region.startLine at
// least) and GH1005 (the uri is a relative path or a file URI).
func checkGitHubSARIF(t *testing.T, data []byte) {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string            `json:"id"`
						ShortDescription map[string]string `json:"shortDescription"`
						FullDescription  map[string]string `json:"fullDescription"`
						Help             map[string]string `json:"help"`
						Properties       struct {
							Tags []string `json:"tags"`
						} `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			AutomationDetails struct {
				ID string `json:"id"`
			} `json:"automationDetails"`
			Results []struct {
				RuleID    string            `json:"ruleId"`
				Message   map[string]string `json:"message"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) == 0 || len(log.Runs) > 20 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	relative := regexp.MustCompile(`^[^/\\:]+(/[^/\\]+)*$`)
	categories := map[string]bool{}
	for _, run := range log.Runs {
		if run.Tool.Driver.Name == "" {
			t.Error("tool.driver.name is empty")
		}
		if categories[run.AutomationDetails.ID] {
			t.Errorf("two runs of category %q", run.AutomationDetails.ID)
		}
		categories[run.AutomationDetails.ID] = true
		rules := map[string]bool{}
		for _, r := range run.Tool.Driver.Rules {
			if r.ID == "" || r.ShortDescription["text"] == "" || r.FullDescription["text"] == "" || r.Help["text"] == "" {
				t.Errorf("rule %q lacks id, shortDescription, fullDescription or help text", r.ID)
			}
			if len(r.Properties.Tags) > 20 {
				t.Errorf("rule %s has %d tags", r.ID, len(r.Properties.Tags))
			}
			rules[r.ID] = true
		}
		if len(run.Results) > 25000 {
			t.Errorf("%d results in a run", len(run.Results))
		}
		for i, res := range run.Results {
			if !rules[res.RuleID] || res.Message["text"] == "" || len(res.PartialFingerprints) == 0 {
				t.Errorf("result %d: ruleId %q (a rule of the run: %v), message %q, fingerprints %v", i, res.RuleID, rules[res.RuleID],
					res.Message["text"], res.PartialFingerprints)
			}
			if len(res.Locations) == 0 || len(res.Locations) > 10 {
				t.Errorf("result %d has %d locations", i, len(res.Locations))
			}
			for _, l := range res.Locations {
				p := l.PhysicalLocation
				if p == nil {
					t.Errorf("result %d (%s) has a location without physicalLocation", i, res.RuleID)
					continue
				}
				u := p.ArtifactLocation.URI
				if !relative.MatchString(u) || strings.Contains("/"+u+"/", "/../") || strings.Contains("/"+u+"/", "/./") {
					t.Errorf("result %d: artifactLocation.uri %q is not a path relative to the repository's root", i, u)
				}
				if p.Region.StartLine < 1 {
					t.Errorf("result %d: region.startLine %d", i, p.Region.StartLine)
				}
			}
		}
	}
}

func TestSARIFMeetsGitHubCodeScanningRequirements(t *testing.T) {
	located := failing()
	located.DeclaredIn = DeclaredIn{File: "infra/network/pull-path-check/main.tf", Line: 48}
	for name, r := range map[string]Report{"failing": Build(failing()), "located": Build(located), "accepted": accepted(),
		"not_checked": Build(notChecked()), "passing": Build(passing())} {
		t.Run(name, func(t *testing.T) { checkGitHubSARIF(t, SARIF(r)) })
	}
	run := sarifLogOf(t, SARIF(Build(located))).Runs[0]
	for _, res := range run.Results {
		l := res.Locations[0].PhysicalLocation
		if l.ArtifactLocation.URI != "infra/network/pull-path-check/main.tf" || l.ArtifactLocation.URIBaseID != "%SRCROOT%" || l.Region.StartLine != 48 {
			t.Errorf("result %s is not anchored where the verification is declared: %+v", res.RuleID, l)
		}
	}
	// The default, documented in ci-reports.md.
	if l := sarifLogOf(t, SARIF(Build(failing()))).Runs[0].Results[0].Locations[0].PhysicalLocation; l.ArtifactLocation.URI != DefaultDeclaredIn || l.Region.StartLine != 1 {
		t.Errorf("default location %+v, want %s line 1", l, DefaultDeclaredIn)
	}
	// The check catches a log with logical locations only (what code
	// scanning rejects).
	var bare sarifLog
	_ = json.Unmarshal(SARIF(Build(failing())), &bare)
	raw, _ := json.Marshal(bare)
	stripped := regexp.MustCompile(`"physicalLocation":\{[^{}]*\{[^{}]*\}[^{}]*\{[^{}]*\}\},`).ReplaceAll(raw, nil)
	if string(stripped) == string(raw) {
		t.Fatal("could not strip the physical locations")
	}
	ft := &testing.T{}
	func() {
		defer func() { _ = recover() }()
		checkGitHubSARIF(ft, stripped)
	}()
	if !ft.Failed() {
		t.Error("the GitHub check accepts results without a physical location")
	}
}

// junitDoc is the JUnit XML as a consumer parses it.
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failures  []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Errors []struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, data []byte) junitDoc {
	t.Helper()
	var d junitDoc
	if err := xml.Unmarshal(data, &d); err != nil {
		t.Fatalf("not XML: %v\n%s", err, data)
	}
	if len(d.Suites) != 1 {
		t.Fatalf("%d test suites, want 1", len(d.Suites))
	}
	return d
}

func TestJUnit(t *testing.T) {
	in := failing()
	// A third path, unverified, and an error about every host of pool user.
	in.Result.Paths = append(in.Result.Paths, verify.Path{NodePool: "user", Host: "contosoreg.westeurope.data.azurecr.io",
		Verdict: model.Unverified, Hops: []string{"snet-aks: 0.0.0.0/0 VirtualAppliance 10.1.0.4"}})
	fw := model.NewFinding(model.EgressUnverified, "user", "contosoreg.westeurope.data.azurecr.io", "", "Rules of fw-hub unreadable.", "Grant read.")
	in.Result.Findings = append(in.Result.Findings, fw)
	r := Build(in)
	d := parseJUnit(t, JUnit(r))
	s := d.Suites[0]
	if s.Name != "aks1.contosoreg" || s.Tests != 3 || len(s.Cases) != 3 || s.Failures != 1 || s.Skipped != 1 || s.Errors != 0 {
		t.Fatalf("suite %q: %d tests (%d cases), %d failures, %d skipped, %d errors; want aks1.contosoreg, 3, 1, 1, 0",
			s.Name, s.Tests, len(s.Cases), s.Failures, s.Skipped, s.Errors)
	}
	byName := map[string]int{}
	for i, c := range s.Cases {
		byName[c.ClassName+" "+c.Name] = i
	}
	sys := s.Cases[byName["aks1.contosoreg.system contosoreg.azurecr.io"]]
	if len(sys.Failures) != 1 || sys.Failures[0].Type != "DNS_ZONE_NOT_LINKED" ||
		!strings.HasPrefix(sys.Failures[0].Message, "DNS_ZONE_NOT_LINKED: The zone privatelink.azurecr.io") ||
		!strings.Contains(sys.Failures[0].Text, "Link the zone to vnet-spoke") || !strings.Contains(sys.Failures[0].Text, zone) {
		t.Errorf("system → contosoreg.azurecr.io: %+v", sys)
	}
	user := s.Cases[byName["aks1.contosoreg.user contosoreg.azurecr.io"]]
	if len(user.Failures) != 0 || user.Skipped != nil {
		t.Errorf("the reachable path of pool user fails or is skipped: %+v", user)
	}
	data := s.Cases[byName["aks1.contosoreg.user contosoreg.westeurope.data.azurecr.io"]]
	if len(data.Failures) != 0 || data.Skipped == nil || data.Skipped.Message != "unverified: EGRESS_UNVERIFIED" {
		t.Errorf("the unverified path is not skipped with its code: %+v", data)
	}

	// A failure per error finding: two errors on one path are two failures.
	in = failing()
	in.Result.Findings = append(in.Result.Findings, model.NewFinding(model.RouteBlackhole, "system", "", "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Network/routeTables/rt-aks",
		"Route quarantine-hub (10.0.0.0/16 None) drops the traffic.", "Remove the route."))
	d = parseJUnit(t, JUnit(Build(in)))
	for _, c := range d.Suites[0].Cases {
		if c.ClassName == "aks1.contosoreg.system" && len(c.Failures) != 2 {
			t.Errorf("pool system has %d failures, want one per error finding (2)", len(c.Failures))
		}
	}

	// Not checked: one error, nothing passes.
	d = parseJUnit(t, JUnit(Build(notChecked())))
	s = d.Suites[0]
	if s.Tests != 1 || s.Errors != 1 || len(s.Cases[0].Errors) != 1 || !strings.Contains(s.Cases[0].Errors[0].Message, "cluster_id") {
		t.Errorf("a verification that checked nothing: %+v", s)
	}
	// Passing: every case passes.
	d = parseJUnit(t, JUnit(Build(passing())))
	if s := d.Suites[0]; s.Tests != 1 || s.Failures+s.Errors+s.Skipped != 0 {
		t.Errorf("a passing verification: %+v", s)
	}
	// Accepted: listed, fails nothing.
	ar := accepted()
	ar.Findings[0].Accepted, ar.Findings[0].Severity = &Accepted{Reason: "link comes tomorrow", Expires: "2027-01-01"}, model.SeverityInfo
	d = parseJUnit(t, JUnit(ar))
	for _, c := range d.Suites[0].Cases {
		if len(c.Failures) != 0 {
			t.Errorf("an accepted finding fails %s %s", c.ClassName, c.Name)
		}
		if c.ClassName == "aks1.contosoreg.system" && !strings.Contains(c.SystemOut, "DNS_ZONE_NOT_LINKED accepted until 2027-01-01: link comes tomorrow") {
			t.Errorf("the accepted finding is not listed: %q", c.SystemOut)
		}
	}
}

// manyPools is a failing verification of n pools, each with its own
// subnet (so no two share a path), two hosts and one cause each, the
// shape that made the Markdown outgrow a pull request comment.
func manyPools(n int, distinctCauses bool) Input {
	in := failing()
	in.PlannedChanges = nil
	in.Result = verify.Result{}
	rt := sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks"
	for i := range n {
		pool := fmt.Sprintf("pool%03d", i)
		for _, h := range []string{"contosoreg.azurecr.io", "contosoreg.westeurope.data.azurecr.io"} {
			in.Result.Paths = append(in.Result.Paths, verify.Path{NodePool: pool, Host: h, Address: fmt.Sprintf("10.%d.0.4", i),
				Resolver: "azure_dns 168.63.129.16", RouteSource: verify.RouteSourceEffective, Verdict: model.Unreachable,
				Hops: []string{fmt.Sprintf("snet-%s: 10.0.0.0/16 None (route quarantine-hub of rt-aks)", pool)}})
			res := rt
			if distinctCauses {
				res = fmt.Sprintf("%s-%03d", rt, i)
			}
			in.Result.Findings = append(in.Result.Findings, model.NewFinding(model.RouteBlackhole, pool, h, model.ResourceID(res),
				fmt.Sprintf("Route quarantine-hub (10.0.0.0/16 None) of route table rt-aks, associated with snet-%s, drops the traffic of node pool %s to %s (10.%d.0.4): "+
					"the next hop None discards every packet that the route selects, so the node cannot open a connection to the registry.", pool, pool, h, i),
				"Remove the route quarantine-hub from rt-aks, or give it a next hop that forwards to the registry's private endpoint. Opening a security rule will not help."))
		}
	}
	in.Result.Verdict = model.Unreachable
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "pool%03d  unreachable  snet-pool%03d: 10.0.0.0/16 None (route quarantine-hub of rt-aks) — a long line of the summary\n", i, i)
	}
	in.Result.Summary = b.String()
	return in
}

// wholeMarkdown reports a cut that leaves a block open.
func wholeMarkdown(t *testing.T, md string) {
	t.Helper()
	if o, c := strings.Count(md, "<details>"), strings.Count(md, "</details>"); o != c {
		t.Errorf("%d <details> and %d </details>", o, c)
	}
	var fence string
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimRight(line, "abcdefghijklmnopqrstuvwxyz")
		if strings.HasPrefix(line, "```") && strings.Trim(trimmed, "`") == "" {
			switch {
			case fence == "":
				fence = trimmed
			case line == fence:
				fence = ""
			}
		}
	}
	if fence != "" {
		t.Errorf("a code fence %s is left open", fence)
	}
}

func TestMarkdownFitsAPullRequestCommentAt100Pools(t *testing.T) {
	for _, distinct := range []bool{false, true} {
		t.Run(fmt.Sprintf("distinct causes %v", distinct), func(t *testing.T) {
			r := Build(manyPools(100, distinct))
			md := string(Markdown(r))
			if n := utf8.RuneCountInString(md); n > MaxMarkdown {
				t.Errorf("%d characters at 100 failing pools, more than %d", n, MaxMarkdown)
			}
			wholeMarkdown(t, md)
			if !strings.Contains(md, "❌ unreachable") || !strings.Contains(md, "ROUTE_BLACKHOLE") {
				t.Errorf("the verdict or the cause is gone:\n%.2000s", md)
			}
			rows := strings.Count(md, "\n| error |")
			if !distinct {
				// One cause (one route table, one fix) seen from 100 pools × 2
				// hosts is one row naming every pool, and the whole report fits.
				if rows != 1 || !strings.Contains(md, "node pools pool000, pool001") || !strings.Contains(md, "(200 findings of this cause)") {
					t.Errorf("%d rows for one cause, want 1 naming the pools", rows)
				}
				if !strings.Contains(md, "<details><summary>Summary</summary>") || !strings.Contains(md, "```mermaid") {
					t.Error("the grouped report left out the summary or the diagram although it fits")
				}
			} else if rows == 0 || !strings.Contains(md, "more causes are not shown here") && rows != 100 {
				t.Errorf("%d rows of 100 causes, and no line saying what is left out", rows)
			}
		})
	}
}

// Without the grouping and the limit, 20 pools × 2 hosts × 1 cause were
// 61,276 characters; a row per cause keeps that far below.
func TestMarkdownGroupsFindingsByCause(t *testing.T) {
	r := Build(manyPools(20, false))
	md := string(Markdown(r))
	if rows := strings.Count(md, "\n| error |"); rows != 1 {
		t.Errorf("%d rows for 40 findings of one cause, want 1", rows)
	}
	if n := len(md); n > 20000 {
		t.Errorf("%d bytes for 20 pools of one cause", n)
	}
}

func TestMarkdownCutNeverLeavesABlockOpen(t *testing.T) {
	// A summary and a diagram that alone exceed the limit.
	in := manyPools(300, true)
	in.Result.Summary = strings.Repeat("```\nline of the summary\n", 4000)
	r := Build(in)
	md := string(Markdown(r))
	if n := utf8.RuneCountInString(md); n > MaxMarkdown {
		t.Errorf("%d characters", n)
	}
	wholeMarkdown(t, md)
	if !strings.Contains(md, "The summary is left out here") {
		t.Error("the summary was cut without saying so")
	}
}

func TestMarkdownHeadlineListsAcceptedFindings(t *testing.T) {
	r := accepted()
	r.Findings[1].Severity = model.SeverityInfo
	r.Counts = Counts{Error: 1, Info: 2}
	md := string(Markdown(r))
	for _, want := range []string{
		"**1 error, 0 warnings, 2 notes (1 accepted).**",
		"- `COVERAGE_MODEL_DRIFT` (node pool user), accepted until 2027-06-30: the hub appliance is owned by a third party\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
