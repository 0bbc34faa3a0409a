// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// pull_credentials takes one of three values; the one given is kept in
// state, and an image pull secret spares the kubelet identity's check.
func TestAccVerification_pullCredentials(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests run with %s=1 (scripts/acc-env.sh)", resource.EnvTfAcc)
	}
	snap := scenarioSnapshot(t, "acrpull_missing")
	body := func(creds string) string {
		return fmt.Sprintf("  cluster_id = %q\n  registry_id = %q\n  enforce = false\n  pull_credentials = %q", accCluster, accRegistry, creds)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: verificationWith(snap, body("service_principal")), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)pull_credentials.*value must be one of.*kubelet_identity.*image_pull_secret.*anonymous`),
			},
			{
				Config: verificationWith(snap, body("image_pull_secret")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("pull_credentials"), knownvalue.StringExact("image_pull_secret")),
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				},
			},
			{
				Config: verificationWith(snap, body("kubelet_identity")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("unreachable")),
				},
			},
		},
	})
}
