// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const linksAddr = "data.pullpath_private_dns_links.this"

func linksConfig(snapshot, vnet, extra string) string {
	return providerConfig(snapshot) + fmt.Sprintf(`
data "pullpath_private_dns_links" "this" {
  virtual_network_id = %q
  %s
}
`, vnet, extra)
}

// The registry's zone is linked to the spoke; the default search is the
// VNet's own subscription.
func TestAccPrivateDNSLinks_baseline(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: linksConfig(fixture(t, "baseline_ok.json"), accSpoke, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("zone_subscription_ids"), strList(accSub)),
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("complete"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("zones"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":                   knownvalue.StringExact(accZone),
						"name":                 knownvalue.StringExact("privatelink.azurecr.io"),
						"link_id":              knownvalue.StringExact(accZone + "/virtualNetworkLinks/link-spoke"),
						"link_name":            knownvalue.StringExact("link-spoke"),
						"link_state":           knownvalue.StringExact("Completed"),
						"registration_enabled": knownvalue.Bool(false),
						"resolution_policy":    knownvalue.StringExact("Default"),
					}),
				})),
			},
		}, {
			Config: linksConfig(fixture(t, "baseline_ok.json"), accHub, fmt.Sprintf("zone_subscription_ids = [%q]", accSub)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("zones").AtSliceIndex(0).AtMapKey("link_name"), knownvalue.StringExact("link-hub")),
			},
		}},
	})
}

// The zone is linked only to the hub: nothing is linked to the spoke.
func TestAccPrivateDNSLinks_notLinked(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: linksConfig(fixture(t, "dns_zone_not_linked.json"), accSpoke, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("zones"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("complete"), knownvalue.Bool(true)),
			},
		}},
	})
}

// A zone subscription that cannot be listed makes the answer incomplete,
// with a warning rather than an error.
func TestAccPrivateDNSLinks_subscriptionUnreadable(t *testing.T) {
	other := "00000000-0000-0000-0000-0000000000ff"
	snap := variant(t, "baseline_ok.json", withFault("GET /subscriptions/"+other+"/providers/Microsoft.Network/privateDnsZones", map[string]any{
		"status": 403, "code": "AuthorizationFailed", "message": "no access",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: linksConfig(snap, accSpoke, fmt.Sprintf("zone_subscription_ids = [%q, %q]", accSub, other)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("complete"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(linksAddr, tfjsonpath.New("zones").AtSliceIndex(0).AtMapKey("link_name"), knownvalue.StringExact("link-spoke")),
			},
		}},
	})
}

func TestAccPrivateDNSLinks_invalidSubscription(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      linksConfig(fixture(t, "baseline_ok.json"), accSpoke, `zone_subscription_ids = ["connectivity"]`),
			ExpectError: regexp.MustCompile(`must be a subscription id \(a GUID\)`),
		}},
	})
}
