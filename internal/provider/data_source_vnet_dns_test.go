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

const dnsAddr = "data.pullpath_vnet_dns.this"

func dnsConfig(snapshot, vnet, extra string) string {
	return providerConfig(snapshot) + fmt.Sprintf(`
data "pullpath_vnet_dns" "this" {
  virtual_network_id = %q
  %s
}
`, vnet, extra)
}

func strList(values ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = knownvalue.StringExact(v)
	}
	return knownvalue.ListExact(checks)
}

func serverAt(i int) tfjsonpath.Path { return tfjsonpath.New("servers").AtSliceIndex(i) }

// An empty dnsServers list means Azure-provided DNS.
func TestAccVNetDNS_azureDefault(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: dnsConfig(fixture(t, "baseline_ok.json"), accSpoke, `timeouts { read = "2m" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("dns_servers"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("network_interface_dns_servers"), knownvalue.Null()),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_servers"), strList("168.63.129.16")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_source"), knownvalue.StringExact("azure_default")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("uses_azure_dns"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0).AtMapKey("kind"), knownvalue.StringExact("azure_dns")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0).AtMapKey("resource_id"), knownvalue.Null()),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("forwarding_rulesets"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// The spoke's DNS server 10.0.1.10 is a NIC of a VM in the peered hub.
func TestAccVNetDNS_vmServer(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: dnsConfig(fixture(t, "custom_dns_vm.json"), accSpoke, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("dns_servers"), strList("10.0.1.10")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_source"), knownvalue.StringExact("virtual_network")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("uses_azure_dns"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"address":              knownvalue.StringExact("10.0.1.10"),
					"kind":                 knownvalue.StringExact("vm"),
					"resource_id":          knownvalue.StringExact("/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-dns"),
					"network_interface_id": knownvalue.StringExact("/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-dns"),
					"virtual_network_id":   knownvalue.StringExact(accHub),
					"note":                 knownvalue.StringRegexp(regexp.MustCompile(`cannot show how it forwards`)),
				})),
			},
		}},
	})
}

// A resolver inbound endpoint in the hub, an address in the hub that
// nothing holds, an on-premises server, and a forwarding ruleset.
func TestAccVNetDNS_resolverAndRulesets(t *testing.T) {
	resolver := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/dnsr-hub"
	ruleset := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/dnsForwardingRulesets/frs-onprem"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: dnsConfig(fixture(t, "custom_dns_resolver.json"), accSpoke, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_servers"), strList("10.0.3.4", "10.0.1.99", "192.168.1.10")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0).AtMapKey("kind"), knownvalue.StringExact("private_resolver_inbound")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0).AtMapKey("resource_id"), knownvalue.StringExact(resolver+"/inboundEndpoints/in-hub")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(0).AtMapKey("virtual_network_id"), knownvalue.StringExact(accHub)),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(1).AtMapKey("kind"), knownvalue.StringExact("unknown")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(1).AtMapKey("virtual_network_id"), knownvalue.StringExact(accHub)),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(2).AtMapKey("kind"), knownvalue.StringExact("external")),
				statecheck.ExpectKnownValue(dnsAddr, serverAt(2).AtMapKey("virtual_network_id"), knownvalue.Null()),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("forwarding_rulesets"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":   knownvalue.StringExact(ruleset),
						"name": knownvalue.StringExact("frs-onprem"),
						"rules": knownvalue.ListExact([]knownvalue.Check{
							knownvalue.ObjectExact(map[string]knownvalue.Check{
								"name": knownvalue.StringExact("corp"), "domain": knownvalue.StringExact("corp.example."),
								"targets": strList("192.168.1.10:53", "192.168.1.11:5353"), "state": knownvalue.StringExact("Enabled"),
							}),
							knownvalue.ObjectExact(map[string]knownvalue.Check{
								"name": knownvalue.StringExact("legacy"), "domain": knownvalue.StringExact("legacy.example."),
								"targets": strList("192.168.1.10:53"), "state": knownvalue.StringExact("Disabled"),
							}),
						}),
					}),
				})),
			},
		}},
	})
}

// The spoke's DNS server 10.0.4.4 is the private address of Azure Firewall
// fw-hub: with its DNS proxy on, it forwards to Azure DNS from the hub; with
// it off, nothing answers there.
func TestAccVNetDNS_azureFirewall(t *testing.T) {
	firewall := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-hub"
	for scenario, note := range map[string]string{
		"firewall_dns_proxy_on":  `DNS proxy on: forwards to Azure DNS from virtual network vnet-hub`,
		"firewall_dns_proxy_off": `DNS proxy is off .*nothing answers DNS at this address`,
	} {
		t.Run(scenario, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				Steps: []resource.TestStep{{
					Config: dnsConfig(scenarioSnapshot(t, scenario), accSpoke, ""),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_servers"), strList("10.0.4.4")),
						statecheck.ExpectKnownValue(dnsAddr, serverAt(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
							"address":              knownvalue.StringExact("10.0.4.4"),
							"kind":                 knownvalue.StringExact("azure_firewall"),
							"resource_id":          knownvalue.StringExact(firewall),
							"network_interface_id": knownvalue.Null(),
							"virtual_network_id":   knownvalue.StringExact(accHub),
							"note":                 knownvalue.StringRegexp(regexp.MustCompile(note)),
						})),
					},
				}},
			})
		})
	}
}

// A NIC's own DNS servers override the VNet's.
func TestAccVNetDNS_networkInterfaceOverride(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: dnsConfig(fixture(t, "custom_dns_resolver.json"), accSpoke, fmt.Sprintf("network_interface_id = %q", accNodeNIC1)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("dns_servers"), strList("10.0.3.4", "10.0.1.99", "192.168.1.10")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("network_interface_dns_servers"), strList("168.63.129.16")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_servers"), strList("168.63.129.16")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("effective_dns_source"), knownvalue.StringExact("network_interface")),
				statecheck.ExpectKnownValue(dnsAddr, tfjsonpath.New("uses_azure_dns"), knownvalue.Bool(true)),
			},
		}},
	})
}

// A refused read names the RBAC action and points at the argument.
func TestAccVNetDNS_permissionDenied(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accSpoke, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client '11111111-1111-1111-1111-111111111111' does not have authorization to perform action " +
			"'Microsoft.Network/virtualNetworks/read' over scope '" + accSpoke + "'.",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: dnsConfig(snap, accSpoke, ""),
			ExpectError: regexp.MustCompile(`(?s)Permission denied reading the virtual network.*vnet-spoke.*HTTP 403 AuthorizationFailed.*` +
				`lacks\s+Microsoft\.Network/virtualNetworks/read`),
		}},
	})
}

// Wrong id types are rejected at validate time, before any read.
func TestAccVNetDNS_wrongIDType(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      dnsConfig(fixture(t, "baseline_ok.json"), accSpoke+"/subnets/snet-aks", ""),
			ExpectError: regexp.MustCompile(`(?s)expected a Microsoft\.Network/virtualNetworks id, got a\s+Microsoft\.Network/virtualNetworks/subnets id`),
		}, {
			Config:      dnsConfig(fixture(t, "baseline_ok.json"), accSpoke, fmt.Sprintf("network_interface_id = %q", accSpoke)),
			ExpectError: regexp.MustCompile(`(?s)expected a Microsoft\.Network/networkInterfaces or\s+Microsoft\.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces\s+id`),
		}, {
			Config:      dnsConfig(fixture(t, "baseline_ok.json"), accSpoke+"/", ""),
			ExpectError: regexp.MustCompile(`trailing slash`),
		}},
	})
}
