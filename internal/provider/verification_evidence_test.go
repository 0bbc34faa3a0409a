// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// Missing evidence is EVIDENCE_* and unverified, never an error: the
// provider must not conclude that something is broken from a read it could
// not make. These tests hold every scenario folder to that, the public ones
// and this package's, so that a rule added for one topology cannot turn a
// refused read into a failed plan on another.

// failedPath identifies what an error finding fails across runs: the node
// pool and the host (or DNS server). With less evidence the same failure
// may be named by a less specific cause (ROUTE_BLACKHOLE where the hub that
// would show ROUTE_GATEWAY_TRANSIT_MISSING could not be read); a path that
// did not fail must not start failing.
func failedPath(f provider.Finding) string {
	return f.NodePool + " | " + f.Endpoint
}

func failedPaths(fs []provider.Finding) map[string]provider.Finding {
	out := map[string]provider.Finding{}
	for _, f := range fs {
		if f.Severity == string(model.SeverityError) {
			out[failedPath(f)] = f
		}
	}
	return out
}

// about reports whether a finding's resource is the resource at path or
// lies beneath it (a subnet of a VNet that could not be read): an error
// about something that was not read.
func about(f provider.Finding, path string) bool {
	res, p := strings.ToLower(f.ResourceID), strings.ToLower(path)
	return res != "" && (res == p || strings.HasPrefix(res, p+"/"))
}

// snapshotFaults returns the "METHOD /path" keys of a snapshot's faults.
func snapshotFaults(t *testing.T, path string) []string {
	t.Helper()
	var snap struct {
		Faults map[string]json.RawMessage `json:"faults"`
	}
	raw := loadSnapshot(t, path)
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &snap); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(snap.Faults))
	for k := range snap.Faults {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestScenarioFaultsAreEvidence: in every scenario folder whose snapshot
// refuses or lacks a read (faults), the read is reported as evidence, and
// no error finding is about the resource that could not be read; a fault
// expect.json lists in faults_off_path (a read no path uses) is named by no
// finding at all.
func TestScenarioFaultsAreEvidence(t *testing.T) {
	checked := 0
	for _, sc := range discoverScenarios(t) {
		in := scenarioInput(t, sc)
		faults := snapshotFaults(t, in.Snapshot)
		if len(faults) == 0 {
			continue
		}
		checked++
		offPath := map[string]bool{}
		for _, k := range sc.Expect.FaultsOffPath {
			offPath[strings.ToLower(k)] = true
		}
		t.Run(sc.Name, func(t *testing.T) {
			out := runInProcess(t, context.Background(), in)
			for _, key := range faults {
				if !offPath[strings.ToLower(key)] {
					continue
				}
				delete(offPath, strings.ToLower(key))
				_, path, _ := strings.Cut(key, " ")
				for _, f := range out.Findings {
					if namesResource(f, path) || about(f, path) {
						t.Errorf("%s fails on a read no path uses, yet finding %s names it: %s", path, f.Code, f.Message)
					}
				}
			}
			for k := range offPath {
				t.Errorf("expect.json lists %s in faults_off_path, which is not a fault of the snapshot", k)
			}
			requested := map[string]bool{}
			for _, r := range out.Requested {
				requested[r] = true
			}
			for _, key := range faults {
				method, path, _ := strings.Cut(key, " ")
				if !requested[strings.ToUpper(method)+" "+strings.ToLower(path)] || containsFold(sc.Expect.FaultsOffPath, key) {
					continue // a fault on a read this verification does not make, or that no path uses
				}
				evidence := false
				for _, f := range out.Findings {
					if f.Severity == string(model.SeverityError) && about(f, path) {
						t.Errorf("error %s is about %s, which could not be read: %s", f.Code, path, f.Message)
					}
					evidence = evidence || (f.Condition == "evidence" && namesResource(f, path))
				}
				if !evidence {
					t.Errorf("no evidence finding names %s (%s); findings: %s", path, method, jsonOf(out.Findings))
				}
			}
		})
	}
	if checked < 3 {
		t.Fatalf("only %d scenario folders have faults; the test proves nothing", checked)
	}
}

// evidenceFaults are the persistent failures injected into every read.
var evidenceFaults = []faultClass{
	{name: "403", fault: map[string]any{"status": 403}, code: "EVIDENCE_PERMISSION_DENIED"},
	{name: "404", fault: map[string]any{"status": 404}, code: "EVIDENCE_NOT_FOUND"},
}

// TestMissingEvidenceAddsNoError faults, in every scenario folder, every
// read the scenario makes in turn (403, then 404) and compares with the
// undisturbed run: a read that fails makes no path fail that did not (every
// error of the faulted run is on a node pool and host the undisturbed run
// has an error for), no error is about the resource that could not be
// read, and an evidence finding names it. Where the undisturbed run is
// reachable, the faulted one is unverified. A read of what an argument
// names (the cluster, the registry) fails closed instead.
func TestMissingEvidenceAddsNoError(t *testing.T) {
	classes := evidenceFaults
	if testing.Short() {
		classes = classes[:1] // 403 only
	}
	var mu sync.Mutex
	cells := 0
	for _, sc := range discoverScenarios(t) {
		in := scenarioInput(t, sc)
		ref := runInProcess(t, context.Background(), in)
		if ref.Verdict == "" {
			t.Fatalf("scenario %s: no verdict: %v", sc.Name, ref.Diagnostics)
		}
		refErrors := failedPaths(ref.Findings)
		// Paths the undisturbed run follows by what a cross-check read
		// showed against the configuration (COVERAGE_MODEL_DRIFT): without
		// the read their verdict is the configuration's.
		refDrift := map[string]bool{}
		for _, f := range ref.Findings {
			if f.Code == string(model.CoverageModelDrift) {
				refDrift[failedPath(f)] = true
			}
		}
		faulted := map[string]bool{}
		for _, k := range snapshotFaults(t, in.Snapshot) {
			method, path, _ := strings.Cut(k, " ")
			faulted[strings.ToUpper(method)+" "+strings.ToLower(path)] = true
		}
		created := plannedPuts(t, in.PlannedChangesFile)
		raw := loadSnapshot(t, in.Snapshot)
		rawBytes, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(sc.Name, func(t *testing.T) {
			for _, read := range ref.Requested {
				if faulted[read] {
					continue // fails already: TestScenarioFaultsAreEvidence
				}
				method, path, _ := strings.Cut(read, " ")
				for _, fc := range classes {
					if fc.name == "404" && created[path] {
						// The plan creates it: Azure not having it yet is
						// what the plan expects, not missing evidence.
						continue
					}
					t.Run(fc.name+" "+shortRead(read), func(t *testing.T) {
						t.Parallel()
						var snap map[string]any
						if err := json.Unmarshal(rawBytes, &snap); err != nil {
							t.Fatal(err)
						}
						withFault(read, fc.fault)(snap)
						cell := in
						cell.Snapshot = writeSnapshot(t, snap)
						out := runInProcess(t, context.Background(), cell)
						mu.Lock()
						cells++
						mu.Unlock()
						if isTarget(cell, path) {
							// What an argument names fails closed.
							checkFailsClosed(t, method, path, fc, out)
							return
						}
						if out.Verdict == "" {
							t.Fatalf("no verdict: %v", out.Diagnostics)
						}
						crossCheck := model.IsCrossCheckRead(model.ResourceID(path))
						var added []string
						for _, f := range out.Findings {
							if f.Severity != string(model.SeverityError) {
								continue
							}
							if _, ok := refErrors[failedPath(f)]; !ok && !(crossCheck && refDrift[failedPath(f)]) {
								added = append(added, fmt.Sprintf("%s on %s: %s", f.Code, failedPath(f), f.Message))
							}
							if about(f, path) {
								t.Errorf("error %s is about %s, which could not be read: %s", f.Code, path, f.Message)
							}
						}
						sort.Strings(added)
						if len(added) > 0 {
							t.Errorf("%s %s failing (%s) made paths fail that did not:\n  %s", method, path, fc.name, strings.Join(added, "\n  "))
						}
						if crossCheck {
							// A read that only cross-checks what is computed
							// from configuration: the verdict stays, the pool's
							// COVERAGE_ROUTES_COMPUTED note names the read.
							checkCrossCheckCell(t, path, ref, out, refDrift, cell.PlannedChangesFile != "")
							return
						}
						if ref.Verdict == "reachable" && out.Verdict != "unverified" {
							t.Errorf("verdict %s; the undisturbed run is reachable, so a failed read must leave it unverified", out.Verdict)
						}
						named := false
						for _, f := range out.Findings {
							named = named || (f.Code == fc.code && namesResource(f, path))
						}
						if !named {
							t.Errorf("no %s finding names %s; findings: %s", fc.code, path, jsonOf(out.Findings))
						}
					})
				}
			}
		})
	}
	t.Logf("%d cells: every read of every scenario folder, failing with %d classes", cells, len(classes))
}

// checkCrossCheckCell holds a failed cross-check read (model.IsCrossCheckRead)
// to what docs/design/azure-behaviour.md promises: no evidence finding is
// about the read (it is not missing evidence); a finding names it (the
// pool's COVERAGE_ROUTES_COMPUTED note, or the gap of what only it shows);
// and no path's verdict changes, except a path the undisturbed run follows
// by the read against the configuration (drift: now the configuration's
// verdict), and where the read is the only evidence of something else (the
// branch prefixes of a hub's gateways): such a path is unverified by an
// evidence finding the undisturbed run does not have, about something
// other than the read. Under a plan the read may be made only for the
// comparison with the network before it (whatif), whose findings are not
// the result's: then no finding need name it.
func checkCrossCheckCell(t *testing.T, path string, ref, out provider.VerificationOutcome, refDrift map[string]bool, planned bool) {
	t.Helper()
	noted := false
	for _, f := range out.Findings {
		if f.Condition == string(model.ConditionEvidence) && about(f, path) {
			t.Errorf("%s only cross-checks computed routes, yet evidence finding %s is about it: %s", path, f.Code, f.Message)
		}
		noted = noted || (f.Code == string(model.CoverageRoutesComputed) && f.Severity == string(model.SeverityInfo) && namesResource(f, path)) ||
			(f.Condition == string(model.ConditionEvidence) && namesResource(f, path))
	}
	if !noted && !planned {
		t.Errorf("no info COVERAGE_ROUTES_COMPUTED note (nor the gap of what only the read shows) names %s; findings: %s", path, jsonOf(out.Findings))
	}
	refEvidence := map[string]bool{}
	for _, f := range ref.Findings {
		if f.Condition == string(model.ConditionEvidence) {
			refEvidence[failedPath(f)+" | "+strings.ToLower(f.ResourceID)] = true
		}
	}
	refVerdicts := map[string]string{}
	hosts := map[string]bool{}
	for _, p := range ref.Paths {
		refVerdicts[p.NodePool+" | "+p.Host] = p.Verdict
		hosts[p.Host] = true
	}
	for _, p := range out.Paths {
		key := p.NodePool + " | " + p.Host
		was, ok := refVerdicts[key]
		if !ok || was == p.Verdict || refDrift[key] {
			continue
		}
		explained := false
		for _, f := range out.Findings {
			// A finding of the pool's DNS server (its endpoint is the
			// server, no registry host) explains every path of the pool.
			forPath := f.Endpoint == p.Host || (f.Endpoint != "" && !hosts[f.Endpoint])
			if f.Condition == string(model.ConditionEvidence) && f.NodePool == p.NodePool && forPath &&
				!refEvidence[failedPath(f)+" | "+strings.ToLower(f.ResourceID)] && !about(f, path) {
				explained = true
			}
		}
		if p.Verdict != "unverified" || !explained {
			t.Errorf("path %s: verdict %s, %s undisturbed; a failed cross-check read (%s) must not decide it", key, p.Verdict, was, path)
		}
	}
	if ref.Verdict != out.Verdict && out.Verdict != "unverified" && len(refDrift) == 0 {
		t.Errorf("verdict %s, %s undisturbed", out.Verdict, ref.Verdict)
	}
}

// plannedPuts are the resources (lower-case paths) a scenario's plan puts,
// none without a plan.
func plannedPuts(t *testing.T, planFile string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	if planFile == "" {
		return out
	}
	data, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planned.ParseFile(planFile, data, planned.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range p.Ops {
		if op.Kind == planned.OpPut {
			out[strings.ToLower(op.ID)] = true
		}
	}
	return out
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
