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

func peeringsConfig(snapshot, vnet string) string {
	return providerConfig(snapshot) + fmt.Sprintf(`
data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, vnet)
}

const peeringsAddr = "data.pullpath_vnet_peerings.this"

func peeringAt(i int) tfjsonpath.Path { return tfjsonpath.New("peerings").AtSliceIndex(i) }

// Both sides exist and are Connected: the reverse side is read from the hub.
func TestAccVNetPeerings_baseline(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: peeringsConfig(fixture(t, "baseline_ok.json"), accSpoke),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("id"), knownvalue.StringExact(accSpoke)),
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name":                         knownvalue.StringExact("spoke-to-hub"),
					"id":                           knownvalue.StringExact(accSpoke + "/virtualNetworkPeerings/spoke-to-hub"),
					"remote_virtual_network_id":    knownvalue.StringExact(accHub),
					"state":                        knownvalue.StringExact("Connected"),
					"sync_level":                   knownvalue.StringExact("FullyInSync"),
					"global":                       knownvalue.Bool(false),
					"allow_virtual_network_access": knownvalue.Bool(true),
					"allow_forwarded_traffic":      knownvalue.Bool(true),
					"allow_gateway_transit":        knownvalue.Bool(false),
					"use_remote_gateways":          knownvalue.Bool(false),
					"remote_address_space":         knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("10.0.0.0/16")}),
					"remote_current_address_space": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("10.0.0.0/16")}),
					"reverse": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"status":                       knownvalue.StringExact("present"),
						"detail":                       knownvalue.Null(),
						"name":                         knownvalue.StringExact("hub-to-spoke"),
						"id":                           knownvalue.StringExact(accHub + "/virtualNetworkPeerings/hub-to-spoke"),
						"state":                        knownvalue.StringExact("Connected"),
						"sync_level":                   knownvalue.StringExact("FullyInSync"),
						"allow_virtual_network_access": knownvalue.Bool(true),
						"allow_forwarded_traffic":      knownvalue.Bool(true),
						"allow_gateway_transit":        knownvalue.Bool(true),
						"use_remote_gateways":          knownvalue.Bool(false),
					}),
				})),
			},
		}},
	})
}

// The hub side was deleted: the spoke side is Initiated and the hub, read
// fine, has no peering back.
func TestAccVNetPeerings_peeringInitiated(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: peeringsConfig(fixture(t, "peering_initiated.json"), accSpoke),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("state"), knownvalue.StringExact("Initiated")),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("status"), knownvalue.StringExact("missing")),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("name"), knownvalue.Null()),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("detail"),
					knownvalue.StringRegexp(regexp.MustCompile(`vnet-hub has no peering back to vnet-spoke`))),
			},
		}, {
			// The hub itself lists no peerings at all.
			Config: peeringsConfig(fixture(t, "peering_initiated.json"), accHub),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// The hub cannot be read (403): the spoke's own peering is reported, its
// reverse side is unreadable, never "missing".
func TestAccVNetPeerings_remoteUnreadable(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accHub, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client does not have authorization to perform action 'Microsoft.Network/virtualNetworks/read'.",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: peeringsConfig(snap, accSpoke),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("state"), knownvalue.StringExact("Connected")),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("status"), knownvalue.StringExact("unreadable")),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("detail"),
					knownvalue.StringRegexp(regexp.MustCompile(`needs Microsoft\.Network/virtualNetworks/read`))),
			},
		}},
	})
}

// The VNet is gone (404): the error is on virtual_network_id and says so.
func TestAccVNetPeerings_notFound(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accSpoke, map[string]any{
		"status": 404, "code": "ResourceNotFound",
		"message": "The Resource 'Microsoft.Network/virtualNetworks/vnet-spoke' under resource group 'rg-spoke' was not found.",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      peeringsConfig(snap, accSpoke),
			ExpectError: regexp.MustCompile(`(?s)The virtual network is not in the snapshot.*has no virtual network\s+vnet-spoke\s`),
		}, {
			// An id the snapshot never had: the same answer without a fault.
			Config:      peeringsConfig(fixture(t, "baseline_ok.json"), accSpoke+"-typo"),
			ExpectError: regexp.MustCompile(`(?s)The virtual network is not in the snapshot.*name \(vnet-spoke-typo\)`),
		}},
	})
}

// Throttled once (429 with Retry-After), then answered: the read succeeds.
func TestAccVNetPeerings_throttledThenOK(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accSpoke, map[string]any{
		"status": 429, "code": "TooManyRequests", "message": "The request is being throttled.",
		"retry_after_s": 1, "times": 1,
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: peeringsConfig(snap, accSpoke),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("name"), knownvalue.StringExact("spoke-to-hub")),
				statecheck.ExpectKnownValue(peeringsAddr, peeringAt(0).AtMapKey("reverse").AtMapKey("status"), knownvalue.StringExact("present")),
			},
		}},
	})
}
