// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The findings catalogue (model.Catalogue, docs/design/findings.md) is a
// public contract: users match on its codes in check blocks,
// postconditions and CI. Every code in it must fire in at least one
// scenario folder, so that each is shown to come out of a real topology
// with the most specific cause. Codes the catalogue reserves for features
// that are not built yet are not in model.Catalogue (see findings.md,
// "Codes reserved in the catalogue, not yet emitted"), so they are not
// required; nothing in model.Catalogue is exempt.

// catalogueCodesNotFired lists, sorted, the codes of model.Catalogue that
// are not in fired.
func catalogueCodesNotFired(fired map[model.Code]bool) []string {
	var missing []string
	for code := range model.Catalogue {
		if !fired[code] {
			missing = append(missing, string(code))
		}
	}
	sort.Strings(missing)
	return missing
}

// goldenVerificationCodes reads every golden file and returns, per
// scenario, the codes of the findings of its pullpath_verification read.
// TestGoldenScenarioOutputs proves the golden files equal to what the
// provider returns for each scenario today.
func goldenVerificationCodes(t *testing.T) map[string]map[model.Code]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden files in %s", goldenDir)
	}
	out := map[string]map[model.Code]bool{}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var golden struct {
			Scenario string `json:"scenario"`
			Reads    []struct {
				DataSource string `json:"data_source"`
				State      *struct {
					Findings []struct {
						Code string `json:"code"`
					} `json:"findings"`
				} `json:"state"`
			} `json:"reads"`
		}
		if err := json.Unmarshal(raw, &golden); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		codes := map[model.Code]bool{}
		verifications := 0
		for _, read := range golden.Reads {
			if read.DataSource != "pullpath_verification" {
				continue
			}
			verifications++
			if read.State == nil {
				continue // the read failed; its diagnostics are in the golden file
			}
			for _, f := range read.State.Findings {
				codes[model.Code(f.Code)] = true
			}
		}
		if verifications == 0 {
			t.Errorf("%s holds no pullpath_verification read", file)
		}
		out[golden.Scenario] = codes
	}
	return out
}

// TestEveryCatalogueCodeFiresInAScenario fails, naming them, for the codes
// of model.Catalogue that no scenario's verification produces, and for
// codes a scenario produces that are not in the catalogue.
func TestEveryCatalogueCodeFiresInAScenario(t *testing.T) {
	perScenario := goldenVerificationCodes(t)
	fired := map[model.Code]bool{}
	var unknown []string
	for name, codes := range perScenario {
		for code := range codes {
			fired[code] = true
			if _, ok := model.Catalogue[code]; !ok {
				unknown = append(unknown, string(code)+" (in "+name+")")
			}
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("codes outside model.Catalogue: %s", strings.Join(unknown, ", "))
	}
	if missing := catalogueCodesNotFired(fired); len(missing) > 0 {
		t.Errorf("%d of the %d codes of model.Catalogue fire in no scenario (testdata/scenarios, as recorded in %s): %s\n"+
			"add a scenario folder whose topology produces each (see testdata/scenarios/README.md) and create its golden file",
			len(missing), len(model.Catalogue), goldenDir, strings.Join(missing, ", "))
	}
}

// TestCatalogueCodesNotFired checks the rule itself: every catalogue code
// is required, and one that fired is not listed.
func TestCatalogueCodesNotFired(t *testing.T) {
	if got := catalogueCodesNotFired(nil); len(got) != len(model.Catalogue) {
		t.Errorf("nothing fired: %d codes missing, want all %d", len(got), len(model.Catalogue))
	}
	all := map[model.Code]bool{}
	for code := range model.Catalogue {
		all[code] = true
	}
	if got := catalogueCodesNotFired(all); len(got) != 0 {
		t.Errorf("everything fired: missing %v", got)
	}
	delete(all, model.RouteInvalid)
	if got := catalogueCodesNotFired(all); len(got) != 1 || got[0] != string(model.RouteInvalid) {
		t.Errorf("all but ROUTE_INVALID fired: missing %v", got)
	}
}
