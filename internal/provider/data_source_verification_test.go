// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const verificationAddr = "data.pullpath_verification.this"

// enforceLine matches the enforce argument of a verify.tf body.
var enforceLine = regexp.MustCompile(`(?m)^\s*enforce\s*=.*$`)

// verificationConfig wraps a verify.tf body: the provider answering from
// the snapshot, the data source, and outputs for the verdict and codes.
func verificationConfig(snapshot, body string, enforce bool) string {
	body = enforceLine.ReplaceAllString(body, "")
	return providerConfig(snapshot) + fmt.Sprintf(`
data "pullpath_verification" "this" {
%s
  enforce = %t
}

output "verdict" {
  value = data.pullpath_verification.this.verdict
}

output "codes" {
  value = [for f in data.pullpath_verification.this.findings : f.code]
}
`, strings.TrimRight(body, "\n"), enforce)
}

// findingsCheck decodes `findings` from the state, records the codes for
// the coverage assertion, and checks must_include / must_not_include.
type findingsCheck struct {
	include, exclude []string
	record           func(codes []model.Finding)
	// expect, when set, checks each finding's planned_change against
	// expect.json (scenarios with plan.json, and every other scenario: no
	// planned_change at all).
	expect *scenarioExpect
}

func (c findingsCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	findings, err := stateFindings(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if c.record != nil {
		c.record(findings)
	}
	have := map[string]bool{}
	var codes []string
	for _, f := range findings {
		if !have[string(f.Code)] {
			codes = append(codes, string(f.Code))
		}
		have[string(f.Code)] = true
	}
	var problems []string
	for _, code := range c.include {
		if !have[code] {
			problems = append(problems, "missing "+code)
		}
	}
	for _, code := range c.exclude {
		if have[code] {
			problems = append(problems, "unexpected "+code)
		}
	}
	if c.expect != nil {
		var got []plannedOf
		for _, f := range findings {
			got = append(got, plannedOf{Code: string(f.Code), NodePool: f.NodePool, PlannedChange: f.PlannedChange})
		}
		problems = append(problems, c.expect.plannedChangeProblems(got)...)
		var acc []acceptedOf
		for _, f := range findings {
			acc = append(acc, acceptedOf{Code: string(f.Code), Severity: string(f.Severity), Accepted: f.Accepted != nil})
		}
		problems = append(problems, c.expect.acceptedProblems(acc)...)
	}
	if len(problems) > 0 {
		resp.Error = fmt.Errorf("findings: %s (codes: %s)", strings.Join(problems, ", "), strings.Join(codes, ", "))
	}
}

// stateFindings decodes the findings of the verification from the state.
func stateFindings(state *tfjson.State) ([]model.Finding, error) {
	if state == nil || state.Values == nil || state.Values.RootModule == nil {
		return nil, fmt.Errorf("no state")
	}
	for _, r := range state.Values.RootModule.Resources {
		if r.Address != verificationAddr {
			continue
		}
		raw, _ := r.AttributeValues["findings"].([]any)
		out := make([]model.Finding, 0, len(raw))
		for _, el := range raw {
			m, _ := el.(map[string]any)
			s := func(k string) string { v, _ := m[k].(string); return v }
			out = append(out, model.Finding{
				Code: model.Code(s("code")), Severity: model.Severity(s("severity")), Condition: model.Condition(s("condition")),
				Owner: model.Owner(s("owner")), NodePool: s("node_pool"), Endpoint: s("endpoint"),
				ResourceID: model.ResourceID(s("resource_id")), Message: s("message"), Remediation: s("remediation"),
				PlannedChange: s("planned_change"),
			})
			if a, ok := m["accepted"].(map[string]any); ok {
				reason, _ := a["reason"].(string)
				expires, _ := a["expires"].(string)
				out[len(out)-1].Accepted = &model.Accepted{Reason: reason, Expires: model.Date(expires)}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s is not in the state", verificationAddr)
}

// codesRegexp matches text that holds every code, in any order.
func codesRegexp(codes []string) *regexp.Regexp {
	if len(codes) == 0 {
		return regexp.MustCompile(`Registry pull path broken`)
	}
	var alts []string
	permute(append([]string(nil), codes...), 0, func(p []string) {
		q := make([]string, len(p))
		for i, c := range p {
			q[i] = regexp.QuoteMeta(c)
		}
		alts = append(alts, strings.Join(q, `[\s\S]*`))
	})
	return regexp.MustCompile(`Registry pull path broken[\s\S]*(?:` + strings.Join(alts, "|") + `)`)
}

func permute(a []string, k int, emit func([]string)) {
	if k == len(a) {
		emit(a)
		return
	}
	for i := k; i < len(a); i++ {
		a[k], a[i] = a[i], a[k]
		permute(a, k+1, emit)
		a[k], a[i] = a[i], a[k]
	}
}

// TestAccVerificationScenarios runs every scenario folder through the real
// CLI: with enforce = false the verdict and codes must match expect.json;
// with enforce = true the plan must fail exactly when the expected verdict
// is unreachable, with the expected codes in the error. When every folder
// ran (no -run filter below "scenario"), every code of model.Catalogue must
// have fired in some scenario, as TestEveryCatalogueCodeFiresInAScenario
// requires of the golden files, and baseline_ok must have no error finding
// at all.
func TestAccVerificationScenarios(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests run with %s=1 (scripts/acc-env.sh)", resource.EnvTfAcc)
	}
	scenarios := discoverScenarios(t)
	var mu sync.Mutex
	fired := map[string][]model.Finding{}

	t.Run("scenario", func(t *testing.T) {
		for _, sc := range scenarios {
			t.Run(sc.Name, func(t *testing.T) {
				snap := sc.snapshotPath(t)
				record := func(fs []model.Finding) {
					mu.Lock()
					defer mu.Unlock()
					fired[sc.Name] = fs
				}
				plan := sc.planPath(t)
				config := func(enforce bool) string {
					return strings.Replace(verificationConfig(snap, sc.Body, enforce), providerConfig(snap), providerConfigWithPlan(snap, plan), 1)
				}
				expect := sc.Expect
				enforced := resource.TestStep{Config: config(true)}
				if sc.Expect.Verdict == string(model.Unreachable) {
					enforced.ExpectError = codesRegexp(sc.Expect.MustInclude)
				} else {
					enforced.ConfigStateChecks = []statecheck.StateCheck{
						statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact(sc.Expect.Verdict)),
					}
				}
				resource.ParallelTest(t, resource.TestCase{
					ProtoV6ProviderFactories: testAccProviderFactories,
					Steps: []resource.TestStep{
						{
							Config: config(false),
							ConfigStateChecks: []statecheck.StateCheck{
								statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact(sc.Expect.Verdict)),
								statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("reachable"),
									knownvalue.Bool(sc.Expect.Verdict == string(model.Reachable))),
								statecheck.ExpectKnownOutputValue("verdict", knownvalue.StringExact(sc.Expect.Verdict)),
								statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("enforce"), knownvalue.Bool(false)),
								statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("fail_on_unverified"), knownvalue.Bool(false)),
								statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("summary"),
									knownvalue.StringRegexp(regexp.MustCompile(`^Pull path verification: `+sc.Expect.Verdict))),
								findingsCheck{include: sc.Expect.MustInclude, exclude: sc.Expect.MustNotInclude, record: record, expect: &expect},
							},
						},
						enforced,
					},
				})
			})
		}
	})
	if t.Failed() {
		return
	}
	if len(fired) < len(scenarios) {
		t.Logf("%d of %d scenarios ran: the catalogue and baseline_ok checks need all of them", len(fired), len(scenarios))
		return
	}

	codes := map[model.Code]bool{}
	for _, fs := range fired {
		for _, f := range fs {
			codes[f.Code] = true
		}
	}
	if missing := catalogueCodesNotFired(codes); len(missing) > 0 {
		t.Errorf("codes of model.Catalogue that fire in no scenario: %s", strings.Join(missing, ", "))
	}
	base, ok := fired["baseline_ok"]
	if !ok {
		t.Fatal("no baseline_ok scenario")
	}
	for _, f := range base {
		if model.Catalogue[f.Code].Severity == model.SeverityError {
			t.Errorf("baseline_ok: error finding %s: %s", f.Code, f.Message)
		}
	}
	var names []string
	for n := range fired {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		codes := map[model.Code]bool{}
		for _, f := range fired[n] {
			codes[f.Code] = true
		}
		var list []string
		for c := range codes {
			list = append(list, string(c))
		}
		sort.Strings(list)
		t.Logf("%-28s %s", n, strings.Join(list, " "))
	}
}

const (
	accCluster  = "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
	accNodeSnet = accSpoke + "/subnets/snet-aks"
)

// scenarioSnapshot is the snapshot of a scenario folder.
func scenarioSnapshot(t *testing.T, name string) string {
	t.Helper()
	for _, sc := range discoverScenarios(t) {
		if sc.Name == name {
			return sc.snapshotPath(t)
		}
	}
	t.Fatalf("no scenario %s", name)
	return ""
}

// verificationWith is a configuration of the data source with the given
// body (no outputs).
func verificationWith(snapshot, body string) string {
	return providerConfig(snapshot) + fmt.Sprintf("\ndata \"pullpath_verification\" \"this\" {\n%s\n}\n", body)
}

// The paths, stats and finding fields of a reachable verification.
func TestAccVerification_baselineAttributes(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	path0 := tfjsonpath.New("paths").AtSliceIndex(0)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, fmt.Sprintf(`
  cluster_id  = %q
  registry_id = %q
  timeouts {
    read = "2m"
  }`, accCluster, accRegistry)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("enforce"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(4)),
				statecheck.ExpectKnownValue(verificationAddr, path0, knownvalue.ObjectExact(map[string]knownvalue.Check{
					"node_pool":    knownvalue.StringExact("system"),
					"host":         knownvalue.StringExact("contosoreg.azurecr.io"),
					"address":      knownvalue.StringExact("10.0.2.5"),
					"resolver":     knownvalue.StringExact("azure_dns 168.63.129.16"),
					"route_source": knownvalue.StringExact("computed"),
					// One routing decision: the node subnet's route to the
					// private endpoint, delivered in the hub.
					"hops": knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringRegexp(regexp.MustCompile(`^subnet vnet-spoke/snet-aks → route 10\.0\.2\.5/32 InterfaceEndpoint .*private endpoint pe-acr 10\.0\.2\.5\)$`)),
					}),
					"verdict": knownvalue.StringExact("reachable"),
				})),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(3).AtMapKey("host"),
					knownvalue.StringExact("contosoreg.westeurope.data.azurecr.io")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("findings").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"code": knownvalue.StringExact("COVERAGE_ROUTES_COMPUTED"), "severity": knownvalue.StringExact("info"),
					"condition": knownvalue.StringExact("coverage"), "owner": knownvalue.StringExact("operator"),
					"node_pool": knownvalue.StringExact("system"), "endpoint": knownvalue.StringExact(""),
					"resource_id": knownvalue.StringRegexp(regexp.MustCompile(`virtualMachineScaleSets/aks-system-12345678-vmss$`)),
					"message":     knownvalue.StringRegexp(regexp.MustCompile(`computed from configuration`)),
					"remediation": knownvalue.StringRegexp(regexp.MustCompile(`Nothing to fix`)),
					// Without planned_changes_file no finding names a planned change.
					"planned_change": knownvalue.Null(),
					"accepted":       knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("stats").AtMapKey("arm_requests"), int64Between(10, 40)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("stats").AtMapKey("duration_ms"), int64Between(0, 60000)),
				// Both pools are one node; each hostname reaches its
				// private endpoint address; no edge is styled as broken.
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("diagram"), knownvalue.StringRegexp(regexp.MustCompile(
					`(?s)^flowchart LR\n.*\[\("10\.0\.2\.5"\)\].*\[\("10\.0\.2\.6"\)\].*\["node pools system, user<br/>subnet vnet-spoke/snet-aks"\]`))),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("diagram"), notMatching{regexp.MustCompile(`linkStyle|-\.->`)}),
			},
		}},
	})
}

// notMatching checks a string that does not match re.
type notMatching struct{ re *regexp.Regexp }

func (c notMatching) CheckValue(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("expected a string, got %T", v)
	}
	if c.re.MatchString(s) {
		return fmt.Errorf("expected no match of %s, got %q", c.re, s)
	}
	return nil
}

func (c notMatching) String() string { return "not " + c.re.String() }

// int64Between checks a number in [lo, hi].
func int64Between(lo, hi int64) knownvalue.Check { return rangeCheck{lo, hi} }

type rangeCheck struct{ lo, hi int64 }

func (c rangeCheck) CheckValue(v any) error {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return fmt.Errorf("expected a number, got %T", v)
	}
	i, err := n.Int64()
	if err != nil || i < c.lo || i > c.hi {
		return fmt.Errorf("expected a number in [%d, %d], got %v", c.lo, c.hi, v)
	}
	return nil
}

func (c rangeCheck) String() string { return fmt.Sprintf("[%d, %d]", c.lo, c.hi) }

// node_subnet_ids: one pool per subnet, named after it, no pull identity;
// node_pools filters the cluster's pools, and an unknown name is an error
// on node_pools, never silently ignored.
func TestAccVerification_nodesAndPools(t *testing.T) {
	snap := scenarioSnapshot(t, "acrpull_missing")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			// Without a cluster there is no kubelet identity to check, so the
			// missing AcrPull cannot show: the network path is reachable.
			Config: verificationWith(snap, fmt.Sprintf(`
  node_subnet_ids = [%q]
  registry_id     = %q`, accNodeSnet, accRegistry)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(0).AtMapKey("node_pool"), knownvalue.StringExact("snet-aks")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("summary"),
					knownvalue.StringRegexp(regexp.MustCompile(`Pull identity not checked: the nodes were given as subnets`))),
			},
		}, {
			Config: verificationWith(snap, fmt.Sprintf(`
  cluster_id  = %q
  node_pools  = ["user"]
  registry_id = %q
  enforce     = false`, accCluster, accRegistry)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("unreachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(1).AtMapKey("node_pool"), knownvalue.StringExact("user")),
				findingsCheck{include: []string{"IDENTITY_PULL_ROLE_MISSING"}},
			},
		}, {
			Config: verificationWith(snap, fmt.Sprintf(`
  cluster_id  = %q
  node_pools  = ["gpu"]
  registry_id = %q
  enforce     = false`, accCluster, accRegistry)),
			// A pool the cluster does not have fails closed
			// (TestAccVerification_failsClosed has every such case).
			ExpectError: failClosed("Node pool not found", "node_pools", `no node pool named "gpu"`, "Its node pools are: system, user"),
		}},
	})
}

// A 403 on the role assignments makes the identity unverified and names
// the permission; with fail_on_unverified the plan fails, without it the
// read succeeds (the warnings are diagnostics).
func TestAccVerification_roleAssignmentsForbidden(t *testing.T) {
	snap := scenarioSnapshot(t, "roleassignments_forbidden")
	body := fmt.Sprintf("  cluster_id  = %q\n  registry_id = %q\n", accCluster, accRegistry)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, body),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("unverified")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("reachable"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("findings").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"code":        knownvalue.StringExact("EVIDENCE_PERMISSION_DENIED"),
					"severity":    knownvalue.StringExact("warning"),
					"owner":       knownvalue.StringExact("operator"),
					"node_pool":   knownvalue.StringExact("system"),
					"endpoint":    knownvalue.StringExact("contosoreg.azurecr.io"),
					"resource_id": knownvalue.StringExact(accRegistry + "/providers/Microsoft.Authorization/roleAssignments"),
					"message":     knownvalue.StringRegexp(regexp.MustCompile(`lacks Microsoft\.Authorization/roleAssignments/read`)),
				})),
			},
		}, {
			Config:      verificationWith(snap, body+"  fail_on_unverified = true\n"),
			ExpectError: regexp.MustCompile(`(?s)Registry pull path unverified \(fail_on_unverified\).*EVIDENCE_PERMISSION_DENIED.*Microsoft\.Authorization/roleAssignments/read`),
		}},
	})
}

// The failure diagnostic is one short report: the verdict, each cause once
// with its owner, pools, hosts, what is wrong, the fix, and where the
// detail is.
func TestAccVerification_failureReport(t *testing.T) {
	snap := scenarioSnapshot(t, "dns_zone_not_linked")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, fmt.Sprintf("  cluster_id  = %q\n  registry_id = %q\n", accCluster, accRegistry)),
			ExpectError: regexp.MustCompile(`(?s)Registry pull path broken: 4 errors, 0 warnings.*` +
				`cannot pull from the registry.*\[dns\] DNS_ZONE_NOT_LINKED — node pools system, user →\s+contosoreg\.azurecr\.io,\s+` +
				`contosoreg\.westeurope\.data\.azurecr\.io\s+Node\s+pool\s+system\s.*linked\s+only\s+to\s+vnet-hub.*\s+Fix: Link zone privatelink\.azurecr\.io.*summary\s+attribute`),
		}},
	})
}

// An input unknown at plan time (a cluster created in the same run) defers
// the read to apply, where it runs once the value is known; nothing fails
// while validating unknown values, including the registry block.
func TestAccVerification_unknownInputs(t *testing.T) {
	snap := scenarioSnapshot(t, "gateway_transit_missing")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerConfig(snap) + fmt.Sprintf(`
resource "terraform_data" "cluster" {
  input = %q
}

resource "terraform_data" "hosts" {
  input = ["harbor.corp.example"]
}

data "pullpath_verification" "this" {
  cluster_id = terraform_data.cluster.output
  registry {
    hosts     = terraform_data.hosts.output
    addresses = { (terraform_data.hosts.output[0]) = "192.168.10.20" }
  }
  enforce = false
}
`, accCluster),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(verificationAddr, tfjsonpath.New("verdict")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("unreachable")),
				findingsCheck{include: []string{"ROUTE_GATEWAY_TRANSIT_MISSING"}},
			},
		}},
	})
}

// Arguments that are wrong fail at validate time, on the argument.
func TestAccVerification_invalidArguments(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{Config: verificationWith(snap, body), PlanOnly: true, ExpectError: regexp.MustCompile(want)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(fmt.Sprintf("  cluster_id = %q\n  registry_id = %q", accNodeSnet, accRegistry),
				`(?s)cluster_id.*expected a Microsoft\.ContainerService/managedClusters id`),
			step(fmt.Sprintf("  node_subnet_ids = [%q]\n  registry_id = %q", accSpoke, accRegistry),
				`(?s)node_subnet_ids.*expected a Microsoft\.Network/virtualNetworks/subnets id.*append /subnets/\{name\}`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry_id = %q", accCluster, accSpoke),
				`(?s)registry_id.*expected a Microsoft\.ContainerRegistry/registries id`),
			step(fmt.Sprintf("  cluster_id = %q\n  node_subnet_ids = [%q]\n  registry_id = %q", accCluster, accNodeSnet, accRegistry),
				`(?s)cluster_id.*node_subnet_ids`),
			step(fmt.Sprintf("  registry_id = %q", accRegistry), `(?s)Missing Attribute Configuration.*cluster_id`),
			step(fmt.Sprintf("  cluster_id = %q", accCluster), `(?s)Missing Attribute Configuration.*registry_id`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry_id = %q\n  registry {\n    hosts = [\"harbor.corp.example\"]\n  }", accCluster, accRegistry),
				`(?s)Invalid Attribute Combination.*registry`),
			step(fmt.Sprintf("  node_subnet_ids = [%q]\n  node_pools = [\"system\"]\n  registry_id = %q", accNodeSnet, accRegistry),
				`(?s)Invalid Attribute Combination.*node_pools`),
			step(fmt.Sprintf("  cluster_id = %q\n  node_pools = [\"System-1\"]\n  registry_id = %q", accCluster, accRegistry),
				`(?s)node_pools.*AKS node pool name`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry {\n    hosts = [\"https://harbor.corp.example/v2\"]\n  }", accCluster),
				`(?s)Invalid hostname.*is a URL`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry {\n    addresses = { \"harbor.corp.example\" = \"192.168.10.20\" }\n  }", accCluster),
				`(?s)Missing registry hosts`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry {\n    hosts = [\"harbor.corp.example\"]\n    addresses = { \"harbour.corp.example\" = \"192.168.10.20\" }\n  }", accCluster),
				`(?s)Address for a host not in hosts.*harbour\.corp\.example`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry {\n    hosts = [\"harbor.corp.example\"]\n    addresses = { \"harbor.corp.example\" = \"192.168.10.0/24\" }\n  }", accCluster),
				`(?s)Invalid IP address.*is a prefix`),
			step(fmt.Sprintf("  cluster_id = %q\n  registry_id = %q\n  zone_subscription_ids = [\"connectivity\"]", accCluster, accRegistry),
				`(?s)zone_subscription_ids.*subscription\s+id\s+\(a\s+GUID\)`),
		},
	})
}

// The read timeout ends the read with a timeout error, not a verdict: with
// every answer 10 minutes away, the plan fails after the 2 s read timeout
// with an error that names the timeout and says what to do.
func TestAccVerification_timeout(t *testing.T) {
	snap := variant(t, "baseline_ok.json", func(s map[string]any) {
		s["simulate"] = map[string]any{"latency_ms": 10 * 60 * 1000}
	})
	started := time.Now()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, fmt.Sprintf(`
  cluster_id  = %q
  registry_id = %q
  timeouts {
    read = "2s"
  }`, accCluster, accRegistry)),
			ExpectError: regexp.MustCompile(`(?s)Timed out verifying the pull path.*read\s+timeout\s+\(2s\).*Still\s+being\s+read\s+when\s+the\s+time\s+ran\s+out:\s+GET\s+/subscriptions/.*Raise\s+timeouts\s+\{\s+read\s+=.*on\s+this\s+data\s+source`),
		}},
	})
	// Generous: the CLI starts and plans more than once; the point is that
	// the 10-minute answers are not waited for.
	if took := time.Since(started); took > 2*time.Minute {
		t.Errorf("the test took %s with a 2 s read timeout", took)
	}
}

// In a check block (examples/…/check.tf) a broken pull path is reported,
// never blocking: even with enforce = true the read's error becomes a
// warning of the check, and the run succeeds.
func TestAccVerification_checkBlock(t *testing.T) {
	snap := scenarioSnapshot(t, "dns_zone_not_linked")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerConfig(snap) + fmt.Sprintf(`
check "registry_pull_path" {
  data "pullpath_verification" "this" {
    cluster_id  = %q
    registry_id = %q
    enforce     = false
  }

  assert {
    condition     = data.pullpath_verification.this.verdict == "reachable"
    error_message = data.pullpath_verification.this.summary
  }
}

check "registry_pull_path_enforced" {
  data "pullpath_verification" "enforced" {
    cluster_id  = %q
    registry_id = %q
  }

  assert {
    condition     = data.pullpath_verification.enforced.reachable
    error_message = "unreachable"
  }
}
`, accCluster, accRegistry, accCluster, accRegistry),
			// A scoped data source whose read failed is planned again for
			// apply ("config will be reloaded to verify a check block").
			ExpectNonEmptyPlan: true,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("unreachable")),
			},
		}},
	})
}
