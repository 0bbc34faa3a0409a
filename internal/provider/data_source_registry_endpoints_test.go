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

const registryAddr = "data.pullpath_registry_endpoints.this"

func registryConfig(snapshot, id string) string {
	return providerConfig(snapshot) + fmt.Sprintf(`
data "pullpath_registry_endpoints" "this" {
  registry_id = %q
}

output "data_hosts" {
  value = [for e in data.pullpath_registry_endpoints.this.endpoints : e.host if e.kind == "data"]
}
`, id)
}

// Login server and the westeurope data endpoint, each with the address the
// private endpoint serves for it.
func TestAccRegistryEndpoints_baseline(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: registryConfig(fixture(t, "baseline_ok.json"), accRegistry),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("login_server"), knownvalue.StringExact("contosoreg.azurecr.io")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("location"), knownvalue.StringExact("westeurope")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("public_network_access"), knownvalue.StringExact("Disabled")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("data_endpoint_enabled"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("endpoints"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("contosoreg.azurecr.io"), "kind": knownvalue.StringExact("login"),
						"region": knownvalue.StringExact("westeurope"), "private_addresses": strList("10.0.2.5"),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("contosoreg.westeurope.data.azurecr.io"), "kind": knownvalue.StringExact("data"),
						"region": knownvalue.StringExact("westeurope"), "private_addresses": strList("10.0.2.6"),
					}),
				})),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("private_endpoints"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":                knownvalue.StringExact(accPE),
						"name":              knownvalue.StringExact("pe-acr"),
						"connection_status": knownvalue.StringExact("Approved"),
						"subnet_id":         knownvalue.StringExact(accHub + "/subnets/snet-pe"),
						"fqdns":             strList("contosoreg.azurecr.io", "contosoreg.westeurope.data.azurecr.io"),
					}),
				})),
				statecheck.ExpectKnownOutputValue("data_hosts", strList("contosoreg.westeurope.data.azurecr.io")),
			},
		}},
	})
}

// Without data endpoints and private endpoints, layers come from blob
// storage: the storage endpoint appears, and nothing has a private address.
func TestAccRegistryEndpoints_publicStorage(t *testing.T) {
	snap := variant(t, "baseline_ok.json", func(s map[string]any) {
		p := resourceProps(t, s, accRegistry)
		p["dataEndpointEnabled"] = false
		p["dataEndpointHostNames"] = []any{}
		p["privateEndpointConnections"] = []any{}
		p["publicNetworkAccess"] = "Enabled"
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: registryConfig(snap, accRegistry),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("endpoints"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("contosoreg.azurecr.io"), "kind": knownvalue.StringExact("login"),
						"private_addresses": knownvalue.ListSizeExact(0),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("*.blob.core.windows.net"), "kind": knownvalue.StringExact("storage"),
						"region": knownvalue.StringExact("westeurope"), "private_addresses": knownvalue.ListSizeExact(0),
						"note": knownvalue.StringRegexp(regexp.MustCompile(`does not name`)),
					}),
				})),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("private_endpoints"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("data_hosts", knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// The private endpoint cannot be read: the registry is still described,
// with the endpoint's subnet and FQDNs null.
func TestAccRegistryEndpoints_privateEndpointUnreadable(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accPE, map[string]any{
		"status": 403, "code": "AuthorizationFailed", "message": "no access to the private endpoint",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: registryConfig(snap, accRegistry),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("private_endpoints").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":                knownvalue.StringExact(accPE),
					"name":              knownvalue.StringExact("pe-acr"),
					"connection_status": knownvalue.StringExact("Approved"),
					"subnet_id":         knownvalue.Null(),
					"fqdns":             knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("endpoints").AtSliceIndex(1).AtMapKey("host"),
					knownvalue.StringExact("contosoreg.westeurope.data.azurecr.io")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("endpoints").AtSliceIndex(1).AtMapKey("private_addresses"),
					knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

func TestAccRegistryEndpoints_errors(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accRegistry, map[string]any{
		"status": 403, "code": "AuthorizationFailed", "message": "no access",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      registryConfig(snap, accRegistry),
			ExpectError: regexp.MustCompile(`(?s)Permission denied reading the container registry.*lacks\s+Microsoft\.ContainerRegistry/registries/read`),
		}, {
			Config:      registryConfig(fixture(t, "baseline_ok.json"), accSpoke),
			ExpectError: regexp.MustCompile(`(?s)expected a Microsoft\.ContainerRegistry/registries id, got a\s+Microsoft\.Network/virtualNetworks id`),
		}},
	})
}
