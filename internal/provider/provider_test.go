// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// snapshot_file and record_file exclude each other; caught at validate time.
func TestAccProvider_snapshotAndRecordConflict(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "pullpath" {
  snapshot_file = %q
  record_file   = %q
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, fixture(t, "baseline_ok.json"), filepath.Join(t.TempDir(), "rec.json"), accSpoke),
			ExpectError: regexp.MustCompile(`(?s)snapshot_file and record_file are both set.*Set\s+only\s+one\s+of\s+them`),
		}},
	})
}

// Arguments the provider checks when configured: a missing snapshot and an
// unknown cloud name, each reported on its argument.
func TestAccProvider_invalidArguments(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerConfig(filepath.Join(t.TempDir(), "missing.json")) + fmt.Sprintf(`
data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, accSpoke),
			ExpectError: regexp.MustCompile(`(?s)Invalid provider configuration: snapshot_file.*does\s+not\s+exist`),
		}, {
			Config: fmt.Sprintf(`
provider "pullpath" {
  snapshot_file = %q
  environment   = "mars"
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, fixture(t, "baseline_ok.json"), accSpoke),
			ExpectError: regexp.MustCompile(`(?s)environment.*value must be one of`),
		}, {
			// Case-insensitive: "Public" is the public cloud.
			Config: fmt.Sprintf(`
provider "pullpath" {
  snapshot_file = %q
  environment   = "Public"
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, fixture(t, "baseline_ok.json"), accSpoke),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("state"), knownvalue.StringExact("Connected")),
			},
		}},
	})
}

// A provider argument that is unknown at plan time (it comes from a resource
// not created yet) must not break the plan; a data source that is read in
// that plan says why it cannot be.
func TestAccProvider_unknownConfiguration(t *testing.T) {
	snap := fixture(t, "baseline_ok.json")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			// No data source: plan and apply succeed although snapshot_file
			// is unknown during the plan.
			Config: fmt.Sprintf(`
resource "terraform_data" "snapshot" {
  input = %q
}

provider "pullpath" {
  snapshot_file = terraform_data.snapshot.output
}

output "ok" {
  value = "ok"
}
`, snap),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("ok", knownvalue.StringExact("ok"))},
		}, {
			// A new resource makes the argument unknown again, now with a
			// data source that must be read during the plan.
			Config: fmt.Sprintf(`
resource "terraform_data" "snapshot2" {
  input = %q
}

provider "pullpath" {
  snapshot_file = terraform_data.snapshot2.output
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, snap, accSpoke),
			ExpectError: regexp.MustCompile(`(?s)Provider configuration not known yet.*snapshot_file`),
		}},
	})
}

// max_concurrent_reads is validated at plan time on the argument, and a
// valid bound serves several data sources reading the same network.
func TestAccProvider_maxConcurrentReads(t *testing.T) {
	block := func(n string) string {
		return fmt.Sprintf(`
provider "pullpath" {
  snapshot_file        = %q
  max_concurrent_reads = %s
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}

data "pullpath_vnet_dns" "this" {
  virtual_network_id = %q
}
`, fixture(t, "baseline_ok.json"), n, accSpoke, accSpoke)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      block("0"),
			ExpectError: regexp.MustCompile(`(?s)Invalid max_concurrent_reads.*max_concurrent_reads must be a whole number from 1 to\s+64, got 0`),
		}, {
			// Not a framework conversion error that blames the provider.
			Config:      block("2.5"),
			ExpectError: regexp.MustCompile(`(?s)Invalid max_concurrent_reads.*max_concurrent_reads must be a whole number from 1 to\s+64, got 2\.5`),
		}, {
			Config: block("1"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("state"), knownvalue.StringExact("Connected")),
			},
		}},
	})
}
