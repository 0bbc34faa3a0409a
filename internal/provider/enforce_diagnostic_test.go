// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"strings"
	"testing"
)

// readScenario reads a scenario's verification in process with edits to
// its arguments, and returns the diagnostics.
func readScenario(t *testing.T, name string, edit func(cfg map[string]any)) []goldenDiag {
	t.Helper()
	in := scenarioInput(t, scenarioByName(t, name))
	cfg := scenarioConfig(in)
	edit(cfg)
	args := map[string]any{"snapshot_file": in.Snapshot}
	_, diags := readWithProvider(t, args, "pullpath_verification", cfg)
	return diags
}

// flat is text with its line wrapping undone.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// The error that fails the plan says, per cause, what is wrong: for a
// blackholed route, the route and its next hop, not only the route table.
func TestEnforceDiagnosticSaysWhatIsWrong(t *testing.T) {
	diags := readScenario(t, "udr_blackhole", func(cfg map[string]any) { cfg["enforce"] = true })
	var errs []goldenDiag
	for _, d := range diags {
		if d.Severity == "error" {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want one error, got %+v", diags)
	}
	for _, want := range []string{
		"ROUTE_BLACKHOLE",
		"route 10.0.0.0/16 None (route table rt-aks route quarantine-hub) drops traffic",
		"Fix: ",
		"Resource: rt-aks",
	} {
		if !strings.Contains(flat(errs[0].Detail), want) {
			t.Errorf("the error lacks %q:\n%s", want, errs[0].Detail)
		}
	}
}

// An accepted finding is listed when the plan passes, never silent.
func TestAcceptedFindingsAreListed(t *testing.T) {
	diags := readScenario(t, "accept_egress_appliance", func(cfg map[string]any) { cfg["enforce"] = true })
	var found bool
	for _, d := range diags {
		if d.Severity == "error" {
			t.Errorf("the accepted finding fails the plan: %+v", d)
		}
		if d.Severity == "warning" && strings.Contains(d.Summary, "accepted finding") {
			found = true
			if !strings.Contains(flat(d.Detail), "EGRESS_UNVERIFIED") || !strings.Contains(flat(d.Detail), "until 2026-12-31") ||
				!strings.Contains(flat(d.Detail), "NET-42") {
				t.Errorf("the accepted finding's line lacks the code, the expiry or the reason:\n%s", d.Detail)
			}
		}
	}
	if !found {
		t.Errorf("no diagnostic lists the accepted finding: %+v", diags)
	}
}

// An accept block whose node_pool names no pool of the verification is an
// error on that attribute: it could never accept anything.
func TestAcceptOfAnUnknownPoolIsAnAttributeError(t *testing.T) {
	diags := readScenario(t, "accept_egress_appliance", func(cfg map[string]any) {
		cfg["accept"].([]map[string]any)[0]["node_pool"] = "sysstem"
	})
	found := false
	for _, d := range diags {
		if d.Severity == "error" && d.Attribute == `AttributeName("accept").ElementKeyInt(0).AttributeName("node_pool")` &&
			strings.Contains(d.Detail, `accept[0].node_pool is "sysstem"`) && strings.Contains(d.Detail, "The node pools checked are: system, user") {
			found = true
		}
	}
	if !found {
		t.Errorf("no error on accept[0].node_pool naming the pool and the pools checked: %+v", diags)
	}
	// The right name is no error.
	for _, d := range readScenario(t, "accept_egress_appliance", func(cfg map[string]any) {
		cfg["accept"].([]map[string]any)[0]["node_pool"] = "System"
	}) {
		if d.Severity == "error" {
			t.Errorf("a pool of the verification is an error: %+v", d)
		}
	}
}
