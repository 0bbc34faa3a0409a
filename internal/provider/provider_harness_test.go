// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccProviderHarness proves that the acceptance-test harness runs a plan
// and an apply through the configured CLI (OpenTofu or Terraform) with the
// provider served in-process, without network access. The configuration has
// no terraform block: the harness adds required_providers with the address
// that matches the CLI (TF_ACC_PROVIDER_HOST / TF_ACC_PROVIDER_NAMESPACE).
// The provider block is empty: configuring it must not sign in (the Azure
// CLI default is lazy), since no data source is read.
func TestAccProviderHarness(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `
provider "pullpath" {}

output "harness" {
  value = "ok"
}
`,
				Check: resource.TestCheckOutput("harness", "ok"),
			},
		},
	})
}
