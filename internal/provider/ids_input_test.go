// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// ARM ids are case-insensitive, and ids copied from the portal, the CLI or
// another provider come in every casing (azurerm writes "resourcegroups",
// some APIs return "microsoft.network"). An id in all lower case reads the
// same resources as the documented casing, in every data source.
func TestAccIDs_lowerCaseReadsSameResource(t *testing.T) {
	lower := strings.ToLower
	snap := scenarioSnapshot(t, "baseline_ok")
	config := providerConfig(snap) + fmt.Sprintf(`
data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}

data "pullpath_registry_endpoints" "this" {
  registry_id = %q
}

data "pullpath_vnet_dns" "this" {
  virtual_network_id = %q
}

data "pullpath_private_dns_links" "this" {
  virtual_network_id = %q
}

data "pullpath_node_routes" "this" {
  cluster_id   = %q
  destinations = ["10.0.2.5"]
}

data "pullpath_verification" "this" {
  cluster_id  = %q
  registry_id = %q
}
`, lower(accSpoke), lower(accRegistry), lower(accSpoke), lower(accSpoke), lower(accCluster), lower(accCluster), lower(accRegistry))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("spoke-to-hub")),
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings").AtSliceIndex(0).AtMapKey("reverse").AtMapKey("status"), knownvalue.StringExact("present")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("login_server"), knownvalue.StringExact("contosoreg.azurecr.io")),
				statecheck.ExpectKnownValue(registryAddr, tfjsonpath.New("endpoints"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.pullpath_private_dns_links.this", tfjsonpath.New("zones").AtSliceIndex(0).AtMapKey("name"),
					knownvalue.StringExact("privatelink.azurecr.io")),
				statecheck.ExpectKnownValue("data.pullpath_node_routes.this", tfjsonpath.New("route_sets"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.pullpath_node_routes.this",
					tfjsonpath.New("traces").AtSliceIndex(0).AtMapKey("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(4)),
			},
		}},
	})
}

// Clients are per subscription, taken from each id: resources in another
// subscription than the provider's subscription_id are read from their own.
func TestAccIDs_otherSubscriptionThanProvider(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	config := fmt.Sprintf(`
provider "pullpath" {
  snapshot_file   = %q
  subscription_id = "99999999-9999-9999-9999-999999999999"
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}

data "pullpath_verification" "this" {
  cluster_id  = %q
  registry_id = %q
}
`, snap, accSpoke, accCluster, accRegistry)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("spoke-to-hub")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
			},
		}},
	})
}

// Hostnames are case-insensitive and may end in a dot, as in DNS: a host
// written in upper case with a trailing dot, and an addresses key written
// in yet another casing, are one host, reported in lower case.
func TestAccHosts_caseAndTrailingDotAreTheSameHost(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, fmt.Sprintf(`
  cluster_id = %q
  node_pools = ["system"]
  enforce    = false
  registry {
    hosts     = ["Harbor.Corp.Example."]
    addresses = { "HARBOR.corp.example" = "10.0.2.5" }
  }`, accCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(0).AtMapKey("host"), knownvalue.StringExact("harbor.corp.example")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(0).AtMapKey("address"), knownvalue.StringExact("10.0.2.5")),
			},
		}},
	})
}

// Bad ids fail the plan before anything is read, as an error on the
// argument: the CLI shows the configuration line of the argument, which it
// does only for attribute errors.
func TestAccIDs_badInputFailsOnTheArgument(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	step := func(ds, arg, value, want string) resource.TestStep {
		return resource.TestStep{
			Config:      providerConfig(snap) + fmt.Sprintf("\ndata %q \"this\" {\n  %s = %q\n}\n", ds, arg, value),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Error: Invalid resource id.*with data\.` + ds + `\.this,.*` + arg + `\s+=.*` + want),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step("pullpath_vnet_peerings", "virtual_network_id", accSpoke+"/",
				`trailing\s+slash;\s+remove\s+it.*Expected\s+a\s+Microsoft\.Network/virtualNetworks\s+id\s+such\s+as`),
			step("pullpath_registry_endpoints", "registry_id", "", `is\s+empty`),
			step("pullpath_vnet_dns", "virtual_network_id", " "+accSpoke, `leading\s+or\s+trailing\s+whitespace`),
			step("pullpath_private_dns_links", "virtual_network_id", accSpoke+"/subnets",
				`resource\s+type\s+"subnets"\s+without\s+a\s+name`),
			step("pullpath_registry_endpoints", "registry_id", accCluster,
				`got\s+a\s+Microsoft\.ContainerService/managedClusters\s+id.*shaped\s+like\s+/subscriptions/\{subscription-id\}/resourceGroups/\{group\}/providers/Microsoft\.ContainerRegistry/registries/\{name\}`),
		},
	})
}

// A node pool name AKS cannot have fails validate, on the argument, with
// the value; a valid name the cluster does not have is a read error that
// lists the pools (TestAccNodeRoutes_invalidArguments).
func TestAccNodeRoutes_nodePoolName(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerConfig(snap) + fmt.Sprintf("\ndata \"pullpath_node_routes\" \"this\" {\n  cluster_id = %q\n  node_pool  = \"System-1\"\n}\n", accCluster),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)node_pool\s+=.*must be an AKS node pool name.*got:\s+System-1`),
		}},
	})
}
