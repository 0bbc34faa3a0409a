// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
)

// pendingScenariosDir holds scenario folders whose expectations need the
// public path (resolution, routes to public addresses, egress) to be
// evaluated end to end; they move into testdata/scenarios, where
// TestAccVerificationScenarios and the golden outputs take them up, once it
// is. Their bases are resolved here first, then among the scenarios.
const pendingScenariosDir = "testdata/pending-scenarios"

// TestPendingFirewallScenariosRead builds every pending scenario and
// verifies it in process: the snapshot builds, every read it needs
// succeeds (no evidence finding) and is one the documented role grants,
// and the Azure Firewall the nodes' default route points to is read with
// its policy chain, rule collection groups and IP groups.
func TestPendingFirewallScenariosRead(t *testing.T) {
	entries, err := os.ReadDir(pendingScenariosDir)
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, action := range gather.Permissions {
		documented[strings.ToLower(action)] = true
	}
	const hub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourcegroups/rg-hub/providers/microsoft.network/"
	wantReads := []string{
		"GET " + hub + "azurefirewalls/fw-hub",
		"GET " + hub + "firewallpolicies/fwpol-hub",
		"GET " + hub + "firewallpolicies/fwpol-hub/rulecollectiongroups",
		"GET " + hub + "ipgroups/ipg-aks-nodes",
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(pendingScenariosDir, e.Name())
			body, err := os.ReadFile(filepath.Join(dir, "verify.tf"))
			if err != nil {
				t.Fatal(err)
			}
			var expect scenarioExpect
			raw, err := os.ReadFile(filepath.Join(dir, "expect.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &expect); err != nil || expect.Verdict == "" || expect.Note == "" {
				t.Fatalf("expect.json: %v (verdict %q, note %q)", err, expect.Verdict, expect.Note)
			}
			snap, err := derivePending(e.Name(), 0)
			if err != nil {
				t.Fatal(err)
			}
			built := t.TempDir()
			out, err := json.Marshal(snap)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(built, "snapshot.json"), out, 0o600); err != nil {
				t.Fatal(err)
			}
			res := runInProcess(t, context.Background(), scenarioInput(t, scenario{Name: e.Name(), Dir: built, Body: string(body)}))
			if res.Verdict == "" {
				t.Fatalf("no verdict: %v", res.Diagnostics)
			}
			for _, f := range res.Findings {
				if strings.HasPrefix(f.Code, "EVIDENCE_") {
					t.Errorf("a read failed: %s %s", f.Code, f.Message)
				}
			}
			requested := map[string]bool{}
			for _, req := range res.Requested {
				requested[req] = true
				method, path, _ := strings.Cut(req, " ")
				action, err := azure.RequiredAction(method, path)
				if err != nil || !documented[strings.ToLower(action)] {
					t.Errorf("%s needs %s (%v), which the documented role does not grant", req, action, err)
				}
			}
			for _, want := range wantReads {
				if !requested[want] {
					t.Errorf("%s was not read; requests: %v", want, res.Requested)
				}
			}
		})
	}
	if n < 5 {
		t.Errorf("%d pending scenarios, want the five firewall scenarios", n)
	}
}

// derivePending builds a pending scenario's snapshot like deriveSnapshot,
// its base looked up among the pending folders first.
func derivePending(name string, depth int) (map[string]any, error) {
	dir := filepath.Join(pendingScenariosDir, name)
	if !fileExists(filepath.Join(dir, "derive.json")) {
		return deriveSnapshot(name, depth)
	}
	if depth > 4 {
		return nil, fmt.Errorf("derive.json bases nest too deep at %s", name)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "derive.json"))
	if err != nil {
		return nil, err
	}
	var spec deriveSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s/derive.json: %w", name, err)
	}
	if spec.Base == "" || strings.ContainsAny(spec.Base, `/\`) {
		return nil, fmt.Errorf("%s/derive.json: base must name a sibling scenario folder, got %q", name, spec.Base)
	}
	snap, err := derivePending(spec.Base, depth+1)
	if err != nil {
		return nil, err
	}
	for i, e := range spec.Edits {
		if err := applyEdit(snap, e); err != nil {
			return nil, fmt.Errorf("%s/derive.json edit %d (%s %s%s): %w", name, i, e.Op, e.ID, e.Key, err)
		}
	}
	return snap, nil
}
