// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// diagramGoldenDir holds the `diagram` of pullpath_verification for a few
// scenarios as .mmd files, each readable (and renderable) on its own: a
// working landing zone, a name that does not resolve, a route that drops
// the packet, a path through an appliance that stays unverified, and a
// public path an Azure Firewall refuses. Regenerate on purpose with
//
//	go test ./internal/provider -run TestDiagramGolden -update
//
// (or PULLPATH_UPDATE_GOLDEN=1) and review the diff.
const diagramGoldenDir = "testdata/diagram"

var diagramGoldenScenarios = map[string][]string{
	// scenario: strings the diagram must hold (beyond the golden, so that
	// a regenerated golden that lost the point fails).
	"baseline_ok":             {"flowchart LR", "private endpoint pe-acr in vnet-hub/snet-pe", `[("10.0.2.6")]`},
	"dns_zone_not_linked":     {`"DNS_ZONE_NOT_LINKED"`, "no address", "linkStyle"},
	"udr_blackhole":           {"ROUTE_BLACKHOLE<br/>", "dropped", "linkStyle"},
	"nva_forwarded":           {"RETURN_ROUTE_UNVERIFIED", "-.->", "appliance nic-vm-nva"},
	"firewall_login_not_data": {"EGRESS_FIREWALL_DENIED", "Azure Firewall"},
	"plan_zone_link_deleted":  {"DNS_ZONE_NOT_LINKED<br/>after this plan: ", "no address", "linkStyle"},
}

func TestDiagramGolden(t *testing.T) {
	update := *updateGolden || os.Getenv("PULLPATH_UPDATE_GOLDEN") == "1"
	found := 0
	for _, sc := range discoverScenarios(t) {
		must, ok := diagramGoldenScenarios[sc.Name]
		if !ok {
			continue
		}
		found++
		t.Run(sc.Name, func(t *testing.T) {
			got := scenarioDiagram(t, sc)
			if sc.Name == "baseline_ok" && strings.Contains(got, "linkStyle") {
				t.Errorf("the working landing zone has a styled (broken or unverified) edge:\n%s", got)
			}
			for _, s := range must {
				if !strings.Contains(got, s) {
					t.Errorf("diagram of %s lacks %q:\n%s", sc.Name, s, got)
				}
			}
			file := filepath.Join(diagramGoldenDir, sc.Name+".mmd")
			if update {
				if err := os.MkdirAll(diagramGoldenDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v: create it with go test ./internal/provider -run 'TestDiagramGolden/%s$' -update", err, sc.Name)
			}
			if !bytes.Equal([]byte(got), want) {
				t.Errorf("diagram of %s differs from %s (if intended, rerun with -update and review the diff):\n%s",
					sc.Name, file, lineDiff(want, []byte(got)))
			}
		})
	}
	if found != len(diagramGoldenScenarios) {
		t.Errorf("found %d of the %d scenarios of diagramGoldenScenarios: a scenario folder was renamed", found, len(diagramGoldenScenarios))
	}
}

// scenarioDiagram is the diagram pullpath_verification returns for the
// scenario, read as TestGoldenScenarioOutputs reads it.
func scenarioDiagram(t *testing.T, sc scenario) string {
	t.Helper()
	var out struct {
		Reads []goldenRead `json:"reads"`
	}
	if err := json.Unmarshal(goldenOutputs(t, sc), &out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Reads {
		if r.DataSource != "pullpath_verification" {
			continue
		}
		state, _ := r.State.(map[string]any)
		d, ok := state["diagram"].(string)
		if !ok {
			t.Fatalf("pullpath_verification of %s has no diagram: %v", sc.Name, r.Diagnostics)
		}
		return d
	}
	t.Fatalf("no pullpath_verification read for %s", sc.Name)
	return ""
}
