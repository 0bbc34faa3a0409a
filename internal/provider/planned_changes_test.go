// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// A planned_changes_file that is not the JSON of a saved plan fails the
// configuration on that argument, naming the file and how to produce one.
func TestAccProvider_plannedChangesFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	config := func(plan string) string {
		return providerConfigWithPlan(fixture(t, "baseline_ok.json"), plan) + fmt.Sprintf(`
data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, accSpoke)
	}
	show := `run\s+` + "`" + `terraform\s+show\s+-json\s+tfplan\s+>\s+plan\.json` + "`"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      config(write("not-json.json", "Terraform will perform the following actions:\n")),
			ExpectError: regexp.MustCompile(`(?s)planned_changes_file.*not-json\.json.*not\s+a\s+plan\s+JSON.*` + show),
		}, {
			Config:      config(write("state.json", `{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{}}}`)),
			ExpectError: regexp.MustCompile(`(?s)planned_changes_file.*state\.json.*looks\s+like\s+the\s+JSON\s+of\s+a\s+state.*` + show),
		}, {
			Config:      config(write("future.json", `{"format_version":"9.0","resource_changes":[]}`)),
			ExpectError: regexp.MustCompile(`(?s)planned_changes_file.*future\.json.*format_version\s+9\.0\s+is\s+newer\s+than\s+the\s+formats`),
		}, {
			Config:      config(write("errored.json", `{"format_version":"1.2","terraform_version":"1.10.2","resource_changes":[],"errored":true}`)),
			ExpectError: regexp.MustCompile(`(?s)planned_changes_file.*errored\.json.*the\s+plan\s+is\s+incomplete.*"errored":\s+true.*plan\s+again`),
		}, {
			Config:      config(filepath.Join(dir, "missing.json")),
			ExpectError: regexp.MustCompile(`(?s)planned_changes_file.*missing\.json\s+cannot\s+be\s+read.*` + show),
		}},
	})
}

// The other data sources read through the plan too: after a plan that
// turns off the spoke peering's VNet access, pullpath_vnet_peerings shows
// it off, and without the plan on.
func TestAccVerification_plannedChangesOtherDataSources(t *testing.T) {
	sc := scenarioByName(t, "plan_peering_access_disabled")
	snap, plan := sc.snapshotPath(t), sc.planPath(t)
	peerings := fmt.Sprintf(`
data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, accSpoke)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerConfigWithPlan(snap, plan) + peerings,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("allow_virtual_network_access"), knownvalue.Bool(false)),
			},
		}, {
			Config: providerConfig(snap) + peerings,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("allow_virtual_network_access"), knownvalue.Bool(true)),
			},
		}},
	})
}

// scenarioByName is one scenario folder.
func scenarioByName(t *testing.T, name string) scenario {
	t.Helper()
	for _, sc := range discoverScenarios(t) {
		if sc.Name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %s", name)
	return scenario{}
}
