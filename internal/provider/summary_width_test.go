// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// The summary and the diagnostics fit a terminal: no line is wider than
// verify.SummaryWidth (summary) or verify.DiagnosticWidth (diagnostics),
// and a line that starts at column 0 is at most verify.ParagraphWidth, so
// that the CLIs, which re-wrap such lines of a diagnostic (a check block
// shows the summary as one), leave it alone. Every scenario of the corpus
// and both demo snapshots are read with enforce and fail_on_unverified, so
// that every failing verdict produces its diagnostic.
func TestSummaryAndDiagnosticsFitATerminal(t *testing.T) {
	type reading struct {
		name     string
		snapshot string
		config   map[string]any
	}
	var readings []reading
	for _, sc := range discoverScenarios(t) {
		in := scenarioInput(t, sc)
		if in.PlannedChangesFile != "" {
			goldenPlans.Store(in.Snapshot, in.PlannedChangesFile)
		}
		cfg := scenarioConfig(in)
		cfg["enforce"], cfg["fail_on_unverified"] = true, true
		readings = append(readings, reading{sc.Name, in.Snapshot, cfg})
	}
	for _, demo := range []string{"broken", "fixed"} {
		snap, err := filepath.Abs(filepath.Join("..", "..", "examples", "demo", demo+".json"))
		if err != nil {
			t.Fatal(err)
		}
		readings = append(readings, reading{"demo " + demo, snap, map[string]any{
			"cluster_id":         demoSubscription + "/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod",
			"registry_id":        demoSubscription + "/resourceGroups/rg-acr-prod/providers/Microsoft.ContainerRegistry/registries/contosoprod",
			"enforce":            true,
			"fail_on_unverified": true,
		}})
	}
	var summaries, diagnostics int
	for _, r := range readings {
		read := readDataSource(t, r.snapshot, "pullpath_verification", r.config)
		state, _ := read.State.(map[string]any)
		summary, _ := state["summary"].(string)
		if summary == "" {
			t.Errorf("%s: no summary (diagnostics %v)", r.name, read.Diagnostics)
		}
		summaries++
		for _, problem := range overWide(summary, verify.SummaryWidth) {
			t.Errorf("%s: summary: %s", r.name, problem)
		}
		for _, d := range read.Diagnostics {
			diagnostics++
			for _, problem := range overWide(d.Detail, verify.DiagnosticWidth) {
				t.Errorf("%s: diagnostic %q: %s", r.name, d.Summary, problem)
			}
		}
	}
	// The corpus has failing scenarios: diagnostics were measured.
	if summaries != len(readings) || diagnostics < len(readings)/2 {
		t.Errorf("%d summaries and %d diagnostics measured over %d readings", summaries, diagnostics, len(readings))
	}
}

// demoSubscription is the subscription of examples/demo.
const demoSubscription = "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c"

// overWide describes the lines of text wider than width, and the lines
// starting at column 0 wider than verify.ParagraphWidth.
func overWide(text string, width int) []string {
	var out []string
	for i, line := range strings.Split(text, "\n") {
		n := utf8.RuneCountInString(line)
		limit := width
		if !strings.HasPrefix(line, " ") {
			limit = verify.ParagraphWidth
		}
		if n > limit {
			out = append(out, fmt.Sprintf("line %d is %d columns (at most %d): %s", i+1, n, limit, line))
		}
	}
	return out
}
