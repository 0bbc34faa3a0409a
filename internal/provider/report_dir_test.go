// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/schemacheck"
)

// reportsConfig is a provider on snapshot with report_dir, and the
// verification bodies given (one data source each, named v0, v1, …).
func reportsConfig(snapshot, dir string, bodies ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider \"pullpath\" {\n  snapshot_file = %q\n  report_dir    = %q\n}\n", snapshot, dir)
	for i, body := range bodies {
		fmt.Fprintf(&b, "\ndata \"pullpath_verification\" \"v%d\" {\n%s\n}\n", i, body)
	}
	return b.String()
}

// pairBody verifies the scenario cluster against the scenario registry.
func pairBody(extra string) string {
	return fmt.Sprintf("  cluster_id  = %q\n  registry_id = %q\n%s", accCluster, accRegistry, extra)
}

// reportFilesOf reads and validates the JSON, SARIF and Markdown files of
// the report named
// name in dir: the JSON against the published schema, the SARIF log
// against the SARIF 2.1.0 schema, and the Markdown's heading. It returns
// the decoded JSON report and SARIF log.
func reportFilesOf(t *testing.T, dir, name string) (rep map[string]any, sarif map[string]any, md string) {
	t.Helper()
	read := func(ext string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name+ext))
		if err != nil {
			t.Fatalf("report file: %v (directory holds %v)", err, dirNames(dir))
		}
		return data
	}
	js, sf, m := read(".json"), read(".sarif"), read(".md")
	if err := schemacheck.Report(js); err != nil {
		t.Fatalf("%s.json does not follow the published schema: %v", name, err)
	}
	if err := schemacheck.SARIF(sf); err != nil {
		t.Fatalf("%s.sarif is not valid SARIF 2.1.0: %v", name, err)
	}
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sf, &sarif); err != nil {
		t.Fatal(err)
	}
	return rep, sarif, string(m)
}

func dirNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// reportCodes are the codes of a JSON report's findings, and the rule ids
// of a SARIF log's results, in order.
func reportCodes(rep map[string]any) []string {
	var out []string
	for _, f := range rep["findings"].([]any) {
		out = append(out, f.(map[string]any)["code"].(string))
	}
	return out
}

func sarifCodes(log map[string]any) []string {
	var out []string
	run := log["runs"].([]any)[0].(map[string]any)
	for _, r := range run["results"].([]any) {
		out = append(out, r.(map[string]any)["ruleId"].(string))
	}
	return out
}

// An enforced verification that fails the plan has written its three
// files first, into a directory that did not exist, with the findings of
// the failing scenario.
func TestAccReports_failingPlan(t *testing.T) {
	snap := scenarioSnapshot(t, "dns_zone_not_linked")
	dir := filepath.Join(t.TempDir(), "not", "yet")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      reportsConfig(snap, dir, pairBody("")),
			ExpectError: regexp.MustCompile(`Registry pull path broken`),
		}},
	})
	rep, sarif, md := reportFilesOf(t, dir, "aks1.contosoreg")
	if rep["verdict"] != "unreachable" || rep["policy"].(map[string]any)["fails_plan"] != true {
		t.Errorf("verdict %v, policy %v", rep["verdict"], rep["policy"])
	}
	codes := reportCodes(rep)
	if !slices.Contains(codes, "DNS_ZONE_NOT_LINKED") || slices.Contains(codes, "ROUTE_BLACKHOLE") {
		t.Errorf("findings of dns_zone_not_linked: %v", codes)
	}
	if got := sarifCodes(sarif); !slices.Equal(got, codes) {
		t.Errorf("SARIF results %v, want one per finding %v", got, codes)
	}
	if !strings.Contains(md, "❌ unreachable") || !strings.Contains(md, "```mermaid") || !strings.Contains(md, "DNS_ZONE_NOT_LINKED") {
		t.Errorf("markdown:\n%s", md)
	}
	if names := dirNames(dir); len(names) != 4 {
		t.Errorf("report_dir holds %v, want the four files and no temporary file", names)
	}
}

// A passing plan writes its reports too.
func TestAccReports_passingPlan(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	dir := t.TempDir()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reportsConfig(snap, dir, pairBody("")),
		}},
	})
	rep, sarif, md := reportFilesOf(t, dir, "aks1.contosoreg")
	if rep["verdict"] != "reachable" || rep["policy"].(map[string]any)["fails_plan"] != false {
		t.Errorf("verdict %v, policy %v", rep["verdict"], rep["policy"])
	}
	if paths := rep["paths"].([]any); len(paths) == 0 {
		t.Error("the report of a reachable verification has no paths")
	}
	if got, want := sarifCodes(sarif), reportCodes(rep); !slices.Equal(got, want) {
		t.Errorf("SARIF results %v, want %v", got, want)
	}
	if !strings.Contains(md, "✅ reachable") {
		t.Errorf("markdown:\n%s", md)
	}
}

// Two verifications of the same pair in one plan: the second file gets
// "-2", in the order of their arguments (node pool system before user),
// whichever Terraform reads first.
func TestAccReports_samePairNumbered(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	dir := t.TempDir()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reportsConfig(snap, dir, pairBody(`  node_pools = ["user"]`), pairBody(`  node_pools = ["system"]`)),
		}},
	})
	first, _, _ := reportFilesOf(t, dir, "aks1.contosoreg")
	second, _, _ := reportFilesOf(t, dir, "aks1.contosoreg-2")
	pools := func(rep map[string]any) any { return rep["subject"].(map[string]any)["node_pools"] }
	if fmt.Sprint(pools(first)) != "[system]" || fmt.Sprint(pools(second)) != "[user]" {
		t.Errorf("node_pools of the first %v and of -2 %v, want [system] and [user]", pools(first), pools(second))
	}
	if names := dirNames(dir); len(names) != 8 {
		t.Errorf("report_dir holds %v, want two reports of four files", names)
	}
}

// A report_dir that cannot be created fails the read with an error that
// names it and says what to do.
func TestAccReports_unwritableDirectory(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "reports")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reportsConfig(snap, dir, pairBody("")),
			ExpectError: regexp.MustCompile(`(?s)Could not write the verification report to report_dir.*` +
				regexp.QuoteMeta(filepath.Base(file)) + `/reports.*not\s+a\s+directory.*Set\s+report_dir\s+\(or\s+PULLPATH_REPORT_DIR\)`),
		}},
	})
}

// TestReportsOfEveryScenarioAreValid reads every scenario's verification in
// process, as Terraform does, with report_dir: each read writes the four
// files (the JUnit XML parsed, a test case per path), the JSON follows the published schema, the SARIF log the SARIF
// 2.1.0 schema, and both hold the verdict and the findings of the state.
func TestReportsOfEveryScenarioAreValid(t *testing.T) {
	for _, sc := range discoverScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			in := scenarioInput(t, sc)
			cfg := scenarioConfig(in)
			dir := t.TempDir()
			args := map[string]any{"snapshot_file": in.Snapshot, "report_dir": dir}
			if in.PlannedChangesFile != "" {
				args["planned_changes_file"] = in.PlannedChangesFile
			}
			state, diags := readWithProvider(t, args, "pullpath_verification", cfg)
			if state == nil {
				t.Fatalf("no state: %v", diags)
			}
			names := dirNames(dir)
			if len(names) != 4 {
				t.Fatalf("report_dir holds %v, want one report of four files", names)
			}
			name := strings.TrimSuffix(names[0], ".json")
			rep, sarif, md := reportFilesOf(t, dir, name)
			outcome := "pass"
			if failsPlan(diags) {
				outcome = "fail"
			}
			if rep["outcome"] != outcome {
				t.Errorf("outcome %v, want %s (diagnostics %v)", rep["outcome"], outcome, diags)
			}
			junitOf(t, dir, name, len(state["paths"].([]any)))
			if rep["verdict"] != state["verdict"] || rep["verdict"] != sc.Expect.Verdict {
				t.Errorf("report verdict %v, state %v, expect.json %v", rep["verdict"], state["verdict"], sc.Expect.Verdict)
			}
			var stateCodes []string
			for _, f := range state["findings"].([]any) {
				stateCodes = append(stateCodes, f.(map[string]any)["code"].(string))
			}
			if codes := reportCodes(rep); !slices.Equal(codes, stateCodes) {
				t.Errorf("report findings %v, state %v", codes, stateCodes)
			}
			if codes := sarifCodes(sarif); !slices.Equal(codes, stateCodes) {
				t.Errorf("SARIF results %v, state findings %v", codes, stateCodes)
			}
			if !strings.Contains(md, fmt.Sprint(state["verdict"])) {
				t.Errorf("the markdown does not say the verdict %v", state["verdict"])
			}
			if (rep["planned_changes"] != nil) != (in.PlannedChangesFile != "") {
				t.Errorf("planned_changes %v with planned_changes_file %q", rep["planned_changes"], in.PlannedChangesFile)
			}
		})
	}
}

// readWithProvider reads one data source in process over protocol 6 with
// the provider arguments args, and returns its state as plain values (nil
// when the read set none) and its diagnostics.
func readWithProvider(t *testing.T, args map[string]any, typeName string, config map[string]any) (map[string]any, []goldenDiag) {
	t.Helper()
	ctx := t.Context()
	srv, err := providerserver.NewProtocol6WithError(provider.NewAt("test", func() time.Time { return testToday })())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	cresp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.9.0", Config: dynamicValue(t, schemas.Provider.ValueType(), args)})
	if err != nil || len(cresp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, diagsOf(cresp.Diagnostics))
	}
	typ := schemas.DataSourceSchemas[typeName].ValueType()
	rresp, err := srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: dynamicValue(t, typ, config)})
	if err != nil {
		t.Fatal(err)
	}
	if rresp.State == nil {
		return nil, diagsOf(rresp.Diagnostics)
	}
	val, err := rresp.State.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	state, _ := plainValue(val).(map[string]any)
	return state, diagsOf(rresp.Diagnostics)
}

// scenarioConfig is the pullpath_verification configuration of a scenario's
// input: its cluster, registry (by id or block), zone subscriptions, pull
// credentials and accept blocks.
func scenarioConfig(in provider.VerificationInput) map[string]any {
	cfg := map[string]any{"cluster_id": in.ClusterID}
	if in.RegistryID != "" {
		cfg["registry_id"] = in.RegistryID
	}
	if len(in.RegistryHosts) > 0 {
		registry := map[string]any{"hosts": in.RegistryHosts}
		if in.RegistryAddresses != nil {
			registry["addresses"] = in.RegistryAddresses
		}
		cfg["registry"] = registry
	}
	if len(in.ZoneSubscriptionIDs) > 0 {
		cfg["zone_subscription_ids"] = in.ZoneSubscriptionIDs
	}
	if in.PullCredentials != "" {
		cfg["pull_credentials"] = in.PullCredentials
	}
	if len(in.Accept) > 0 {
		var blocks []map[string]any
		for _, b := range in.Accept {
			block := map[string]any{}
			for k, v := range b {
				block[k] = v
			}
			blocks = append(blocks, block)
		}
		cfg["accept"] = blocks
	}
	return cfg
}

// failsPlan is whether diagnostics hold an error.
func failsPlan(diags []goldenDiag) bool {
	for _, d := range diags {
		if d.Severity == "error" {
			return true
		}
	}
	return false
}

// junitOf parses a report's JUnit XML as a test reporter does and checks
// that it has one test case per path (or one "verification" case when
// there are none, or errors that concern no path).
func junitOf(t *testing.T, dir, name string, paths int) junitSuites {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name+".junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var j junitSuites
	if err := xml.Unmarshal(data, &j); err != nil {
		t.Fatalf("%s.junit.xml is not XML: %v", name, err)
	}
	if len(j.Suites) != 1 || j.Suites[0].Name != name {
		t.Fatalf("%s.junit.xml: suites %+v", name, j.Suites)
	}
	cases := 0
	for _, c := range j.Suites[0].Cases {
		if c.Name != "verification" {
			cases++
		}
	}
	if cases != paths {
		t.Errorf("%s.junit.xml: %d path test cases, %d paths", name, cases, paths)
	}
	return j
}

type junitSuites struct {
	Suites []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failures  []struct {
				Type string `xml:"type,attr"`
			} `xml:"failure"`
			Errors []struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// A verification that fails closed (what cluster_id names does not exist,
// a pool that does not exist, a 403, an outage of Azure Resource Manager,
// a read timeout) still writes its four files: outcome not_checked with the argument and the cause, a
// SARIF error result, the Markdown saying so first, a JUnit error. A
// pipeline never sees a partial set of reports as a complete one.
func TestFailClosedReadWritesNotCheckedReports(t *testing.T) {
	in := scenarioInput(t, scenarioByName(t, "baseline_ok"))
	denied := variant(t, "baseline_ok.json", withFault("GET "+accCluster, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client does not have authorization to perform action 'Microsoft.ContainerService/managedClusters/read'.",
	}))
	outage := variant(t, "baseline_ok.json", withFault("GET "+accRegistry, map[string]any{
		"status": 503, "code": "ServiceUnavailable", "message": "The service is unavailable.",
	}))
	for _, tc := range []struct {
		name, arg, snapshot string
		edit                func(cfg map[string]any)
	}{
		{"mistyped cluster", "cluster_id", in.Snapshot, func(cfg map[string]any) {
			cfg["cluster_id"] = strings.TrimSuffix(cfg["cluster_id"].(string), "/") + "typo"
		}},
		{"pool that does not exist", "node_pools", in.Snapshot, func(cfg map[string]any) { cfg["node_pools"] = []string{"nosuchpool"} }},
		{"403 on the cluster", "cluster_id", denied, func(map[string]any) {}},
		{"ARM outage on the registry", "registry_id", outage, func(map[string]any) {}},
		// A read that times out names no argument.
		{"read timeout", "", in.Snapshot, func(cfg map[string]any) { cfg["timeouts"] = map[string]any{"read": "1ns"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := scenarioConfig(in)
			tc.edit(cfg)
			dir := t.TempDir()
			args := map[string]any{"snapshot_file": tc.snapshot, "report_dir": dir}
			_, diags := readWithProvider(t, args, "pullpath_verification", cfg)
			if !failsPlan(diags) {
				t.Fatalf("the read did not fail closed: %v", diags)
			}
			names := dirNames(dir)
			if len(names) != 4 {
				t.Fatalf("report_dir holds %v, want the four files of the report", names)
			}
			name := strings.TrimSuffix(names[0], ".json")
			rep, sarif, md := reportFilesOf(t, dir, name)
			if rep["outcome"] != "not_checked" || rep["verdict"] != "unverified" {
				t.Errorf("outcome %v, verdict %v", rep["outcome"], rep["verdict"])
			}
			causes, _ := rep["not_checked"].([]any)
			if len(causes) == 0 {
				t.Fatalf("not_checked is empty")
			}
			c := causes[0].(map[string]any)
			var diag goldenDiag
			for _, d := range diags {
				if d.Severity == "error" {
					diag = d
					break
				}
			}
			if c["argument"] != tc.arg || c["cause"] != diag.Summary || c["detail"] != diag.Detail {
				t.Errorf("not_checked %v does not carry the error on %s: %+v", c, tc.arg, diag)
			}
			if codes := sarifCodes(sarif); len(codes) != 1 || codes[0] != "PULLPATH_NOT_CHECKED" {
				t.Errorf("SARIF results %v", codes)
			}
			if !strings.Contains(md, "not checked") || strings.Contains(md, "✅") {
				t.Errorf("the Markdown does not say that nothing was checked:\n%s", md)
			}
			j := junitOf(t, dir, name, 0)
			if cs := j.Suites[0].Cases; len(cs) != 1 || len(cs[0].Errors) != 1 {
				t.Errorf("JUnit cases %+v, want one error", cs)
			}
		})
	}
}
