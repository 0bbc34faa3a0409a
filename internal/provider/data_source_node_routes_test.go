// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Ids of the scenario snapshots used by the pullpath_node_routes tests.
const (
	nrAddr    = "data.pullpath_node_routes.this"
	nrCluster = "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
	nrNodeRG  = "/subscriptions/" + accSub + "/resourceGroups/MC_rg-spoke_aks1_westeurope"
	nrSnetAKS = accSpoke + "/subnets/snet-aks"
	nrSnetNVA = accHub + "/subnets/snet-nva"
	nrNVANIC  = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva"
	nrRTAKS   = "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks"
	// The VM and NIC of the VirtualMachines pool added in nrVMPool.
	nrVM    = nrNodeRG + "/providers/Microsoft.Compute/virtualMachines/aks-user-vm0"
	nrVMNIC = nrNodeRG + "/providers/Microsoft.Network/networkInterfaces/aks-user-vm0-nic"
)

// nrScenario is a public scenario's snapshot (testdata/scenarios, copies of
// testdata/scenarios).
func nrScenario(t *testing.T, name string) string {
	t.Helper()
	return fixture(t, "scenarios/"+name+"/snapshot.json")
}

// nrConfig is a provider block on the snapshot and the data source with body.
func nrConfig(snapshot, body string) string {
	return providerConfig(snapshot) + "\ndata \"pullpath_node_routes\" \"this\" {\n" + body + "\n}\n"
}

func nrSet(i int) tfjsonpath.Path   { return tfjsonpath.New("route_sets").AtSliceIndex(i) }
func nrTrace(i int) tfjsonpath.Path { return tfjsonpath.New("traces").AtSliceIndex(i) }
func nrFinding(i int) tfjsonpath.Path {
	return tfjsonpath.New("findings").AtSliceIndex(i)
}

func nrCheck(p tfjsonpath.Path, c knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(nrAddr, p, c)
}

func nrStr(s string) knownvalue.Check { return knownvalue.StringExact(s) }

// nrRoute is a route object; "" is null.
func nrRoute(prefix, hopType, hopIP, source, state, origin string) knownvalue.Check {
	v := func(s string) knownvalue.Check {
		if s == "" {
			return knownvalue.Null()
		}
		return knownvalue.StringExact(s)
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"address_prefix": v(prefix), "next_hop_type": v(hopType), "next_hop_ip": v(hopIP),
		"source": v(source), "state": v(state), "origin": v(origin),
	})
}

// nrCodes checks a findings list's codes, in order.
func nrCodes(codes ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(codes))
	for i, c := range codes {
		checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"code": knownvalue.StringExact(c)})
	}
	return knownvalue.ListExact(checks)
}

// nrNone is a default None route as the engine computes it.
func nrNone(prefix string) knownvalue.Check {
	return nrRoute(prefix, "None", "", "Default", "Active", "default")
}

// nrSpokeComputed is the routes computed for vnet-spoke/snet-aks in
// baseline_ok: its own space, the peering to the hub, the defaults, and
// the private endpoint /32s of the peered hub.
var nrSpokeComputed = knownvalue.ListExact([]knownvalue.Check{
	nrRoute("10.1.0.0/16", "VnetLocal", "", "Default", "Active", "address space of vnet-spoke"),
	nrRoute("10.0.0.0/16", "VNetPeering", "", "Default", "Active", "peering spoke-to-hub"),
	nrRoute("0.0.0.0/0", "Internet", "", "Default", "Active", "default"),
	nrNone("10.0.0.0/8"), nrNone("172.16.0.0/12"), nrNone("192.168.0.0/16"), nrNone("100.64.0.0/10"),
	nrNone("25.4.0.0/14"), nrNone("198.18.0.0/15"), nrNone("157.59.0.0/16"), nrNone("40.109.0.0/16"),
	nrNone("104.147.0.0/16"), nrNone("104.146.0.0/17"), nrNone("40.108.0.0/17"), nrNone("23.103.0.0/18"),
	nrNone("20.35.252.0/22"),
	nrRoute("10.0.2.5/32", "InterfaceEndpoint", "", "Default", "Active", "private endpoint pe-acr"),
	nrRoute("10.0.2.6/32", "InterfaceEndpoint", "", "Default", "Active", "private endpoint pe-acr"),
})

// include_routes = false keeps the routes out of the state (a hub with
// thousands of learned routes would put them there once per pool) and
// changes nothing else: the count, the traces and their verdicts stay.
func TestAccNodeRoutes_withoutRoutes(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "baseline_ok"), fmt.Sprintf(`
  cluster_id     = %q
  destinations   = ["10.0.2.5", "10.0.1.4"]
  include_routes = false`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(tfjsonpath.New("route_sets"), knownvalue.ListSizeExact(2)),
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListSizeExact(0)),
				nrCheck(nrSet(0).AtMapKey("route_count"), knownvalue.Int64Exact(18)),
				nrCheck(nrSet(1).AtMapKey("routes"), knownvalue.ListSizeExact(0)),
				nrCheck(nrSet(1).AtMapKey("route_count"), knownvalue.Int64Exact(18)),
				nrCheck(tfjsonpath.New("traces"), knownvalue.ListSizeExact(4)),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(0).AtMapKey("selected_route").AtMapKey("next_hop_type"), nrStr("InterfaceEndpoint")),
				nrCheck(nrTrace(3).AtMapKey("verdict"), nrStr("reachable")),
			},
		}},
	})
}

// Hops of the baseline from the spoke's nodes.
const (
	nrHopPE  = "subnet vnet-spoke/snet-aks → route 10.0.2.5/32 InterfaceEndpoint (private endpoint pe-acr) → vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)"
	nrHopNVA = "subnet vnet-spoke/snet-aks → route 10.0.0.0/16 VNetPeering (peering spoke-to-hub) → vnet-hub/snet-nva (nic-vm-nva 10.0.1.4)"
)

// Baseline: every pool (a scale-set pool and one at zero nodes, on the same
// subnet) gets the subnet's computed routes; the private endpoint is
// reachable over the peering through its InterfaceEndpoint /32, and so is
// an address in the hub through the peering route.
func TestAccNodeRoutes_baseline(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "baseline_ok"), fmt.Sprintf(`
  cluster_id   = %q
  destinations = ["10.0.2.5", "10.0.1.4"]
  timeouts {
    read = "2m"
  }`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(tfjsonpath.New("id"), nrStr(nrCluster)),
				nrCheck(tfjsonpath.New("route_sets"), knownvalue.ListSizeExact(2)),
				nrCheck(nrSet(0).AtMapKey("node_pool"), nrStr("system")),
				nrCheck(nrSet(0).AtMapKey("subnet_id"), nrStr(nrSnetAKS)),
				nrCheck(nrSet(0).AtMapKey("network_interface_id"), knownvalue.Null()),
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("computed")),
				nrCheck(nrSet(0).AtMapKey("routes"), nrSpokeComputed),
				nrCheck(nrSet(0).AtMapKey("route_count"), knownvalue.Int64Exact(18)),
				nrCheck(nrSet(1).AtMapKey("node_pool"), nrStr("user")),
				nrCheck(nrSet(1).AtMapKey("source"), nrStr("computed")),
				nrCheck(nrSet(1).AtMapKey("routes"), nrSpokeComputed),

				nrCheck(tfjsonpath.New("traces"), knownvalue.ListSizeExact(4)),
				nrCheck(nrTrace(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"node_pool":            nrStr("system"),
					"subnet_id":            nrStr(nrSnetAKS),
					"network_interface_id": knownvalue.Null(),
					"route_source":         nrStr("computed"),
					"destination":          nrStr("10.0.2.5"),
					"source_address":       nrStr("10.1.0.4"),
					"selected_route":       nrRoute("10.0.2.5/32", "InterfaceEndpoint", "", "Default", "Active", "private endpoint pe-acr"),
					"hops":                 strList(nrHopPE),
					"verdict":              nrStr("reachable"),
					"return_verdict":       nrStr("reachable"),
					"return_note":          nrStr("replies from private endpoint pe-acr bypass route tables and return straight to 10.1.0.4"),
					"findings":             knownvalue.ListSizeExact(0),
					"suspected":            knownvalue.ListSizeExact(0),
				})),
				nrCheck(nrTrace(1).AtMapKey("destination"), nrStr("10.0.1.4")),
				nrCheck(nrTrace(1).AtMapKey("selected_route"), nrRoute("10.0.0.0/16", "VNetPeering", "", "Default", "Active", "peering spoke-to-hub")),
				nrCheck(nrTrace(1).AtMapKey("hops"), strList(nrHopNVA)),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("return_verdict"), nrStr("reachable")),
				// The pool at zero nodes starts from the subnet's first host address.
				nrCheck(nrTrace(2).AtMapKey("node_pool"), nrStr("user")),
				nrCheck(nrTrace(2).AtMapKey("source_address"), nrStr("10.1.0.4")),
				nrCheck(nrTrace(2).AtMapKey("hops"), strList(nrHopPE)),
				nrCheck(nrTrace(2).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(3).AtMapKey("verdict"), nrStr("reachable")),

				// Only the coverage notes: one per computed route set.
				nrCheck(tfjsonpath.New("findings"), nrCodes("COVERAGE_ROUTES_COMPUTED", "COVERAGE_ROUTES_COMPUTED")),
				nrCheck(nrFinding(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"code": nrStr("COVERAGE_ROUTES_COMPUTED"), "severity": nrStr("info"), "condition": nrStr("coverage"),
					"owner": nrStr("operator"), "node_pool": nrStr("system"), "destination": knownvalue.Null(),
					"resource_id": nrStr(nrSnetAKS),
					"message":     knownvalue.StringRegexp(regexp.MustCompile(`^Routes for node pool system were computed from configuration .*subnet vnet-spoke/snet-aks.* scale-set pool`)),
					"remediation": knownvalue.StringRegexp(regexp.MustCompile(`^Nothing to fix\.`)),
				})),
				nrCheck(nrFinding(1).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(`node pool user .* it has no nodes`))),
				nrCheck(tfjsonpath.New("stats").AtMapKey("arm_requests"), knownvalue.Int64Func(func(v int64) error {
					if v <= 0 {
						return fmt.Errorf("arm_requests = %d, want > 0", v)
					}
					return nil
				})),
				nrCheck(tfjsonpath.New("stats").AtMapKey("duration_ms"), knownvalue.NotNull()),
			},
		}, {
			// Without destinations: only the route sets, for one pool.
			Config: nrConfig(nrScenario(t, "baseline_ok"), fmt.Sprintf(`
  cluster_id = %q
  node_pool  = "user"`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(tfjsonpath.New("id"), nrStr(nrCluster+"/agentPools/user")),
				nrCheck(tfjsonpath.New("route_sets"), knownvalue.ListSizeExact(1)),
				nrCheck(nrSet(0).AtMapKey("node_pool"), nrStr("user")),
				nrCheck(nrSet(0).AtMapKey("routes"), nrSpokeComputed),
				nrCheck(tfjsonpath.New("traces"), knownvalue.ListSizeExact(0)),
				nrCheck(tfjsonpath.New("findings"), nrCodes("COVERAGE_ROUTES_COMPUTED")),
			},
		}},
	})
}

// udr_blackhole: rt-aks sends the hub's range to None, and route-table
// policies on snet-pe let it invalidate the private endpoint /32s.
func TestAccNodeRoutes_udrBlackhole(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "udr_blackhole"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListPartial(map[int]knownvalue.Check{
					1: nrRoute("10.0.0.0/16", "VNetPeering", "", "Default", "Invalid", "peering spoke-to-hub"),
					16: nrRoute("10.0.2.5/32", "InterfaceEndpoint", "", "Default", "Invalid",
						"private endpoint pe-acr (invalidated by route table rt-aks route quarantine-hub: snet-pe applies route-table policies)"),
					18: nrRoute("10.0.0.0/16", "None", "", "User", "Active", "route table rt-aks route quarantine-hub"),
				})),
				nrCheck(nrTrace(0).AtMapKey("selected_route"), nrRoute("10.0.0.0/16", "None", "", "User", "Active", "route table rt-aks route quarantine-hub")),
				nrCheck(nrTrace(0).AtMapKey("hops"), strList("subnet vnet-spoke/snet-aks → route 10.0.0.0/16 None (route table rt-aks route quarantine-hub) → dropped")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(0).AtMapKey("return_verdict"), knownvalue.Null()),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("ROUTE_BLACKHOLE")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"code": nrStr("ROUTE_BLACKHOLE"), "severity": nrStr("error"), "condition": nrStr("route"), "owner": nrStr("network"),
					"node_pool": nrStr("system"), "destination": nrStr("10.0.2.5"), "resource_id": nrStr(nrRTAKS),
					"message":     knownvalue.StringRegexp(regexp.MustCompile(`route 10\.0\.0\.0/16 None .*quarantine-hub.* drops traffic to 10\.0\.2\.5.*invalidates it`)),
					"remediation": knownvalue.StringRegexp(regexp.MustCompile(`credentials and imagePullSecrets are irrelevant`)),
				})),
				nrCheck(tfjsonpath.New("findings"), nrCodes("ROUTE_BLACKHOLE", "COVERAGE_ROUTES_COMPUTED")),
			},
		}},
	})
}

// peering_initiated: the hub side of the peering was deleted, so the spoke
// has no route to the hub at all and 10.0.2.5 falls to the 10.0.0.0/8 None
// default; the cause is the peering.
func TestAccNodeRoutes_peeringInitiated(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "peering_initiated"), fmt.Sprintf(`
  cluster_id   = %q
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListSizeExact(15)), // no peering, no private endpoint routes
				nrCheck(nrTrace(0).AtMapKey("selected_route"), nrNone("10.0.0.0/8")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("ROUTE_PEERING_NOT_CONNECTED")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("resource_id"), nrStr(accSpoke+"/virtualNetworkPeerings/spoke-to-hub")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("message"),
					knownvalue.StringRegexp(regexp.MustCompile(`peering spoke-to-hub .* Initiated`))),
				nrCheck(nrTrace(1).AtMapKey("node_pool"), nrStr("user")),
				nrCheck(nrTrace(1).AtMapKey("findings"), nrCodes("ROUTE_PEERING_NOT_CONNECTED")),
				nrCheck(tfjsonpath.New("findings"), nrCodes("ROUTE_PEERING_NOT_CONNECTED", "ROUTE_PEERING_NOT_CONNECTED",
					"COVERAGE_ROUTES_COMPUTED", "COVERAGE_ROUTES_COMPUTED")),
			},
		}},
	})
}

// gateway_transit_missing: harbor.corp.example (192.168.10.20, its A record
// in corp.example) is on-premises behind the hub's VPN gateway, which
// learned 192.168.0.0/16 over BGP; the spoke peering lacks
// useRemoteGateways, so the address falls to the 192.168.0.0/16 None
// default. One cause, one code: not also ROUTE_BLACKHOLE.
func TestAccNodeRoutes_gatewayTransitMissing(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "gateway_transit_missing"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["192.168.10.20"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrTrace(0).AtMapKey("selected_route"), nrNone("192.168.0.0/16")),
				nrCheck(nrTrace(0).AtMapKey("hops"), strList("subnet vnet-spoke/snet-aks → route 192.168.0.0/16 None (default) → dropped")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("ROUTE_GATEWAY_TRANSIT_MISSING")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("message"),
					knownvalue.StringRegexp(regexp.MustCompile(`192\.168\.10\.20 is behind gateway vpngw in vnet-hub.*spoke-to-hub does not use remote gateways`))),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("resource_id"), nrStr(accSpoke+"/virtualNetworkPeerings/spoke-to-hub")),
				nrCheck(tfjsonpath.New("findings"), nrCodes("ROUTE_GATEWAY_TRANSIT_MISSING", "COVERAGE_ROUTES_COMPUTED")),
			},
		}},
	})
}

// A standalone NIC of a running VM (the hub's NVA) has a real effective
// route table: it is the route set, and where it agrees with the computed
// routes the engine follows the path (the private endpoint, the gateway to
// on-premises and back: the hub gateway advertises the hub's range).
func TestAccNodeRoutes_networkInterfaceEffective(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "baseline_ok"), fmt.Sprintf(`
  network_interface_id = %q
  destinations         = ["10.0.2.5", "192.168.10.20", "25.48.0.1"]`, nrNVANIC)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(tfjsonpath.New("id"), nrStr(nrNVANIC)),
				nrCheck(tfjsonpath.New("route_sets"), knownvalue.ListSizeExact(1)),
				nrCheck(nrSet(0).AtMapKey("node_pool"), knownvalue.Null()),
				nrCheck(nrSet(0).AtMapKey("subnet_id"), nrStr(nrSnetNVA)),
				nrCheck(nrSet(0).AtMapKey("network_interface_id"), nrStr(nrNVANIC)),
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("effective")),
				// Azure's list, as read (the region's reserved ranges included).
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListPartial(map[int]knownvalue.Check{
					0:  nrRoute("10.0.0.0/16", "VnetLocal", "", "Default", "Active", "effective route (Default)"),
					2:  nrRoute("192.168.0.0/16", "VirtualNetworkGateway", "10.0.0.30", "VirtualNetworkGateway", "Active", "effective route (VirtualNetworkGateway)"),
					6:  nrRoute("192.168.0.0/16", "None", "", "Default", "Invalid", "effective route (Default)"),
					8:  nrRoute("25.48.0.0/12", "None", "", "Default", "Active", "effective route (Default)"),
					21: nrRoute("10.0.2.6/32", "InterfaceEndpoint", "", "Default", "Active", "effective route (Default)"),
				})),
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListSizeExact(22)),

				nrCheck(nrTrace(0).AtMapKey("route_source"), nrStr("effective")),
				nrCheck(nrTrace(0).AtMapKey("network_interface_id"), nrStr(nrNVANIC)),
				nrCheck(nrTrace(0).AtMapKey("source_address"), nrStr("10.0.1.4")),
				nrCheck(nrTrace(0).AtMapKey("selected_route"), nrRoute("10.0.2.5/32", "InterfaceEndpoint", "", "Default", "Active", "effective route (Default)")),
				nrCheck(nrTrace(0).AtMapKey("hops"), strList("subnet vnet-hub/snet-nva → route 10.0.2.5/32 InterfaceEndpoint (private endpoint pe-acr) → vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("selected_route"), nrRoute("192.168.0.0/16", "VirtualNetworkGateway", "10.0.0.30", "VirtualNetworkGateway", "Active", "effective route (VirtualNetworkGateway)")),
				nrCheck(nrTrace(1).AtMapKey("hops"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringRegexp(regexp.MustCompile(`^subnet vnet-hub/snet-nva → route 192\.168\.0\.0/16 VirtualNetworkGateway 10\.0\.0\.30 .* → on-premises via gateway vpngw`)),
				})),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("return_verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("return_note"), nrStr("gateway vpngw advertises a prefix covering 10.0.1.0/24 to its BGP peers")),
				// A reserved range of this region's real table: computed with
				// the same reserved set, so no drift; Azure drops it.
				nrCheck(nrTrace(2).AtMapKey("selected_route"), nrRoute("25.48.0.0/12", "None", "", "Default", "Active", "effective route (Default)")),
				nrCheck(nrTrace(2).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(2).AtMapKey("findings"), nrCodes("ROUTE_BLACKHOLE")),
				// Real routes: no COVERAGE_ROUTES_COMPUTED, no drift.
				nrCheck(tfjsonpath.New("findings"), nrCodes("ROUTE_BLACKHOLE")),
			},
		}},
	})
}

// The NVA's effective routes hold what configuration does not show (a UDR
// sending the spoke's node range to another appliance, a route dropping an
// on-premises /24): COVERAGE_MODEL_DRIFT for those destinations, and the
// real route decides: unverified where the model cannot follow it,
// unreachable where it drops. Where both agree the path is followed.
func TestAccNodeRoutes_modelDrift(t *testing.T) {
	snap := variant(t, "baseline_ok.json", func(snap map[string]any) {
		action := snap["actions"].(map[string]any)["POST "+nrNVANIC+"/effectiveRouteTable"].(map[string]any)
		action["value"] = append(action["value"].([]any),
			nrJSON(t, `{"source": "User", "state": "Active", "addressPrefix": ["10.1.0.0/22"], "nextHopType": "VirtualAppliance", "nextHopIpAddress": ["10.0.1.10"]}`),
			nrJSON(t, `{"source": "User", "state": "Active", "addressPrefix": ["192.168.10.0/24"], "nextHopType": "None", "nextHopIpAddress": []}`))
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(snap, fmt.Sprintf(`
  network_interface_id = %q
  destinations         = ["10.0.2.5", "10.1.0.4", "192.168.10.20"]`, nrNVANIC)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("effective")),
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListSizeExact(24)),

				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(0).AtMapKey("findings"), knownvalue.ListSizeExact(0)),

				nrCheck(nrTrace(1).AtMapKey("selected_route"), nrRoute("10.1.0.0/22", "VirtualAppliance", "10.0.1.10", "User", "Active", "effective route (User)")),
				// The real route is followed: to the appliance it names (no
				// NIC read at 10.0.1.10), then on from its subnet; the replies
				// bypass it.
				nrCheck(nrTrace(1).AtMapKey("hops"), strList(
					"subnet vnet-hub/snet-nva → route 10.1.0.0/22 VirtualAppliance 10.0.1.10 (effective route (User)) → appliance 10.0.1.10 in vnet-hub/snet-nva",
					"subnet vnet-hub/snet-nva → route 10.1.0.0/16 VNetPeering (peering hub-to-spoke) → vnet-spoke/snet-aks (aks-system-12345678-vmss 10.1.0.4)")),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(1).AtMapKey("return_verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(1).AtMapKey("findings"), nrCodes("COVERAGE_MODEL_DRIFT", "RETURN_ROUTE_ASYMMETRIC", "EVIDENCE_NOT_FOUND")),
				nrCheck(nrTrace(1).AtMapKey("findings").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"code": nrStr("COVERAGE_MODEL_DRIFT"), "severity": nrStr("warning"), "condition": nrStr("coverage"),
					"owner": nrStr("operator"), "node_pool": knownvalue.Null(), "destination": nrStr("10.1.0.4"),
					"resource_id": nrStr(nrNVANIC),
					"message": knownvalue.StringRegexp(regexp.MustCompile(`for 10\.1\.0\.4 the effective routes of nic-vm-nva select route 10\.1\.0\.0/22 VirtualAppliance 10\.0\.1\.10 .*` +
						`computed from configuration select route 10\.1\.0\.0/16 VNetPeering`)),
					"remediation": knownvalue.StringRegexp(regexp.MustCompile(`show-effective-route-table`)),
				})),

				nrCheck(nrTrace(2).AtMapKey("selected_route"), nrRoute("192.168.10.0/24", "None", "", "User", "Active", "effective route (User)")),
				nrCheck(nrTrace(2).AtMapKey("hops"), strList("subnet vnet-hub/snet-nva → route 192.168.10.0/24 None (effective route (User)) → dropped")),
				nrCheck(nrTrace(2).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(2).AtMapKey("findings"), nrCodes("ROUTE_BLACKHOLE", "COVERAGE_MODEL_DRIFT")),
				nrCheck(nrTrace(2).AtMapKey("findings").AtSliceIndex(0).AtMapKey("message"),
					knownvalue.StringRegexp(regexp.MustCompile(`effective routes of network interface nic-vm-nva .*: route 192\.168\.10\.0/24 None .* is selected for 192\.168\.10\.20, so Azure drops the packet\. `+
						`The configuration would select route 192\.168\.0\.0/16 VirtualNetworkGateway`))),

				nrCheck(tfjsonpath.New("findings"), nrCodes("RETURN_ROUTE_ASYMMETRIC", "ROUTE_BLACKHOLE", "COVERAGE_MODEL_DRIFT", "EVIDENCE_NOT_FOUND", "COVERAGE_MODEL_DRIFT")),
			},
		}},
	})
}

// nrVMPool turns pool "user" into a VirtualMachines pool with one running
// VM (aks-user-vm0, 10.1.0.10 in snet-aks) whose NIC has an effective route
// table: the spoke's routes as Azure lists them.
func nrVMPool(t *testing.T) func(map[string]any) {
	return func(snap map[string]any) {
		props := resourceProps(t, snap, nrCluster+"/agentPools/user")
		props["type"], props["count"] = "VirtualMachines", 1
		snap["resources"] = append(snap["resources"].([]any),
			nrJSON(t, `{"id": "`+nrVM+`", "name": "aks-user-vm0", "type": "Microsoft.Compute/virtualMachines", "location": "westeurope",
				"tags": {"aks-managed-poolName": "user"},
				"properties": {"networkProfile": {"networkInterfaces": [{"id": "`+nrVMNIC+`"}]}}}`),
			nrJSON(t, `{"id": "`+nrVMNIC+`", "name": "aks-user-vm0-nic", "type": "Microsoft.Network/networkInterfaces", "location": "westeurope",
				"properties": {"ipConfigurations": [{"name": "ipconfig1", "id": "`+nrVMNIC+`/ipConfigurations/ipconfig1",
					"properties": {"privateIPAddress": "10.1.0.10", "primary": true, "subnet": {"id": "`+nrSnetAKS+`"}}}],
					"virtualMachine": {"id": "`+nrVM+`"}}}`))
		var routes []any
		add := func(source, prefix, hop string) {
			routes = append(routes, map[string]any{"source": source, "state": "Active", "addressPrefix": []any{prefix},
				"nextHopType": hop, "nextHopIpAddress": []any{}})
		}
		add("Default", "10.1.0.0/16", "VnetLocal")
		add("Default", "10.0.0.0/16", "VNetPeering")
		add("Default", "0.0.0.0/0", "Internet")
		for _, p := range []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "25.48.0.0/12", "25.4.0.0/14",
			"198.18.0.0/15", "157.59.0.0/16", "25.33.0.0/16", "40.109.0.0/16", "104.147.0.0/16", "104.146.0.0/17", "40.108.0.0/17",
			"23.103.0.0/18", "25.41.0.0/20", "20.35.252.0/22"} {
			add("Default", p, "None")
		}
		add("Default", "10.0.2.5/32", "InterfaceEndpoint")
		add("Default", "10.0.2.6/32", "InterfaceEndpoint")
		snap["actions"].(map[string]any)["POST "+nrVMNIC+"/effectiveRouteTable"] = map[string]any{"value": routes}
	}
}

// A VirtualMachines pool has real effective routes: its route set is its
// node's NIC's table; the scale-set pool beside it stays computed.
func TestAccNodeRoutes_virtualMachinesPool(t *testing.T) {
	snap := variant(t, "baseline_ok.json", nrVMPool(t))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(snap, fmt.Sprintf(`
  cluster_id   = %q
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("node_pool"), nrStr("system")),
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("computed")),
				nrCheck(nrSet(1).AtMapKey("node_pool"), nrStr("user")),
				nrCheck(nrSet(1).AtMapKey("source"), nrStr("effective")),
				nrCheck(nrSet(1).AtMapKey("network_interface_id"), nrStr(nrVMNIC)),
				nrCheck(nrSet(1).AtMapKey("routes"), knownvalue.ListSizeExact(21)),
				nrCheck(nrTrace(1).AtMapKey("route_source"), nrStr("effective")),
				nrCheck(nrTrace(1).AtMapKey("source_address"), nrStr("10.1.0.10")),
				nrCheck(nrTrace(1).AtMapKey("selected_route"), nrRoute("10.0.2.5/32", "InterfaceEndpoint", "", "Default", "Active", "effective route (Default)")),
				nrCheck(nrTrace(1).AtMapKey("hops"), strList(nrHopPE)),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("return_note"), nrStr("replies from private endpoint pe-acr bypass route tables and return straight to 10.1.0.10")),
				nrCheck(tfjsonpath.New("findings"), nrCodes("COVERAGE_ROUTES_COMPUTED")),
				nrCheck(nrFinding(0).AtMapKey("node_pool"), nrStr("system")),
			},
		}},
	})
}

// The effective route table of the VirtualMachines pool's NIC is refused:
// the pool's routes are computed instead, and the refusal is evidence that
// names the action the read needs.
func TestAccNodeRoutes_effectiveRoutesDenied(t *testing.T) {
	snap := variant(t, "baseline_ok.json", func(snap map[string]any) {
		nrVMPool(t)(snap)
		withFault("POST "+nrVMNIC+"/effectiveRouteTable", map[string]any{
			"status": 403, "code": "AuthorizationFailed",
			"message": "The client does not have authorization to perform action 'Microsoft.Network/networkInterfaces/effectiveRouteTable/action'.",
		})(snap)
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(snap, fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "user"
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("computed")),
				nrCheck(nrSet(0).AtMapKey("network_interface_id"), knownvalue.Null()),
				nrCheck(nrSet(0).AtMapKey("routes"), nrSpokeComputed),
				nrCheck(nrTrace(0).AtMapKey("source_address"), nrStr("10.1.0.10")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(tfjsonpath.New("findings"), nrCodes("EVIDENCE_PERMISSION_DENIED", "COVERAGE_ROUTES_COMPUTED")),
				nrCheck(nrFinding(0).AtMapKey("resource_id"), nrStr(nrVMNIC+"/effectiveRouteTable")),
				nrCheck(nrFinding(0).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(
					`^The snapshot records that reading the effective routes of network interface aks-user-vm0-nic \(.*\) was refused \(HTTP 403 AuthorizationFailed\): the identity that recorded it lacks `+
						`Microsoft\.Network/networkInterfaces/effectiveRouteTable/action\..*computed from configuration instead`))),
				nrCheck(nrFinding(1).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(`could not be read`))),
			},
		}},
	})
}

// A 403 on the node subnet's VNet: with cluster_id the routes are unknown,
// and every trace is unverified with the evidence naming the permission;
// never reachable. With subnet_id, the subnet the argument names cannot be
// read: an error on subnet_id.
func TestAccNodeRoutes_vnetPermissionDenied(t *testing.T) {
	snap := variant(t, "baseline_ok.json", withFault("GET "+accSpoke, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client '11111111-1111-1111-1111-111111111111' does not have authorization to perform action " +
			"'Microsoft.Network/virtualNetworks/read' over scope '" + accSpoke + "'.",
	}))
	evidence := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"code": nrStr("EVIDENCE_PERMISSION_DENIED"), "severity": nrStr("warning"), "condition": nrStr("evidence"),
		"owner": nrStr("operator"), "node_pool": nrStr("system"), "destination": nrStr("10.0.2.5"),
		"resource_id": nrStr(accSpoke),
		"message": knownvalue.StringRegexp(regexp.MustCompile(`^The snapshot records that reading virtual network vnet-spoke \(` + regexp.QuoteMeta(accSpoke) +
			`\) was refused \(HTTP 403 AuthorizationFailed\): the identity that recorded it lacks Microsoft\.Network/virtualNetworks/read\. .*unverified, never reachable`)),
		"remediation": knownvalue.StringRegexp(regexp.MustCompile(`^Record the snapshot again \(record_file\) with an identity that holds Microsoft\.Network/virtualNetworks/read on`)),
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(snap, fmt.Sprintf(`
  cluster_id   = %q
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrSet(0).AtMapKey("subnet_id"), nrStr(nrSnetAKS)),
				nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListSizeExact(0)),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unverified")),
				nrCheck(nrTrace(0).AtMapKey("selected_route"), knownvalue.Null()),
				nrCheck(nrTrace(0).AtMapKey("hops"), strList("subnet vnet-spoke/snet-aks → routes unknown")),
				nrCheck(nrTrace(0).AtMapKey("findings"), knownvalue.ListExact([]knownvalue.Check{evidence})),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("unverified")),
				// Once per pool, about the whole route set, then the coverage notes.
				nrCheck(tfjsonpath.New("findings"), nrCodes("EVIDENCE_PERMISSION_DENIED", "EVIDENCE_PERMISSION_DENIED",
					"COVERAGE_ROUTES_COMPUTED", "COVERAGE_ROUTES_COMPUTED")),
				nrCheck(nrFinding(0).AtMapKey("destination"), knownvalue.Null()),
				nrCheck(nrFinding(0).AtMapKey("resource_id"), nrStr(accSpoke)),
			},
		}, {
			// Through subnet_id the subnet is what the argument names: it
			// cannot be read, so the read fails on subnet_id (fails closed).
			Config: nrConfig(snap, fmt.Sprintf(`
  subnet_id    = %q
  destinations = ["10.0.2.5"]`, nrSnetAKS)),
			ExpectError: regexp.MustCompile(`(?s)Error: Permission denied reading the virtual network.*\n\s*\d+:\s+subnet_id\s+=.*` +
				`To\s+read\s+the\s+subnet\s+vnet-spoke/snet-aks,.*lacks\s+Microsoft\.Network/virtualNetworks/read`),
		}},
	})
}

// subnet_id: the routes computed for the subnet, whatever uses it.
func TestAccNodeRoutes_subnet(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrScenario(t, "udr_blackhole"), fmt.Sprintf(`
  subnet_id    = %q
  destinations = ["10.0.2.6", "10.1.3.200"]`, nrSnetAKS)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(tfjsonpath.New("id"), nrStr(nrSnetAKS)),
				nrCheck(nrSet(0).AtMapKey("node_pool"), knownvalue.Null()),
				nrCheck(nrSet(0).AtMapKey("network_interface_id"), knownvalue.Null()),
				nrCheck(nrSet(0).AtMapKey("source"), nrStr("computed")),
				nrCheck(nrTrace(0).AtMapKey("source_address"), nrStr("10.1.0.4")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("ROUTE_BLACKHOLE")),
				// Inside the node subnet itself: delivered locally.
				nrCheck(nrTrace(1).AtMapKey("selected_route"), nrRoute("10.1.0.0/16", "VnetLocal", "", "Default", "Active", "address space of vnet-spoke")),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(tfjsonpath.New("findings"), nrCodes("ROUTE_BLACKHOLE", "COVERAGE_ROUTES_COMPUTED")),
				nrCheck(nrFinding(1).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(`^Routes were computed .* a subnet was given`))),
			},
		}},
	})
}

// Wrong or contradictory arguments fail validate, before any read; a node
// pool the cluster does not have and a subnet that does not exist fail the
// read on their argument, saying what exists.
func TestAccNodeRoutes_invalidArguments(t *testing.T) {
	snap := fixture(t, "baseline_ok.json")
	step := func(body, pattern string) resource.TestStep {
		return resource.TestStep{Config: nrConfig(snap, body), ExpectError: regexp.MustCompile(pattern)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(fmt.Sprintf(`cluster_id = %q`, nrSnetAKS),
				`(?s)expected a Microsoft\.ContainerService/managedClusters id, got a\s+Microsoft\.Network/virtualNetworks/subnets id`),
			step(fmt.Sprintf(`subnet_id = %q`, accSpoke),
				`(?s)expected a Microsoft\.Network/virtualNetworks/subnets id, got a\s+Microsoft\.Network/virtualNetworks id.*append\s+/subnets/\{name\}`),
			step(fmt.Sprintf(`network_interface_id = %q`, nrSnetAKS),
				`(?s)expected a Microsoft\.Network/networkInterfaces or\s+Microsoft\.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces\s+id`),
			step(fmt.Sprintf("cluster_id = %q\nsubnet_id = %q", nrCluster, nrSnetAKS),
				`(?s)Invalid Attribute Combination.*cluster_id.*subnet_id.*network_interface_id`),
			step(`destinations = ["10.0.2.5"]`,
				`(?s)Exactly one of these attributes must be configured:\s+\[cluster_id,subnet_id,network_interface_id\]`),
			step(fmt.Sprintf("subnet_id = %q\nnode_pool = \"system\"", nrSnetAKS),
				`(?s)node_pool needs cluster_id.*but\s+subnet_id\s+is\s+set\s+instead.*remove\s+node_pool`),
			step(fmt.Sprintf("cluster_id = %q\ndestinations = [\"10.0.2.0/24\", \"contosoreg.azurecr.io\"]", nrCluster),
				`(?s)"10\.0\.2\.0/24" is a prefix, not an address.*"contosoreg\.azurecr\.io" is\s+not\s+an\s+IP\s+address.*registry_endpoints`),
			step(fmt.Sprintf("cluster_id = %q\ndestinations = [\"10.0.2.5\", \"10.0.2.5\"]", nrCluster),
				`(?s)duplicate`),
			step(fmt.Sprintf("cluster_id = %q\nnode_pool = \"gpu\"", nrCluster),
				`(?s)Node pool not found.*aks1 has no node pool named "gpu"\.\s+Its\s+node\s+pools\s+are:\s+system,\s+user\..*Set\s+node_pool`),
			step(fmt.Sprintf("subnet_id = %q", accSpoke+"/subnets/snet-typo"),
				`(?s)The subnet does not exist.*snet-typo`),
			step(fmt.Sprintf("network_interface_id = %q", nrNVANIC+"-typo"),
				`(?s)The network interface is not in the snapshot.*nic-vm-nva-typo`),
		},
	})
}

// nrJSON parses a JSON literal for a snapshot edit.
func nrJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &v); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	return v
}

// nrDerived is a derived scenario's snapshot (derive.json), built into a
// temporary file.
func nrDerived(t *testing.T, name string) string {
	t.Helper()
	return scenario{Name: name, Dir: filepath.Join(scenariosDir, name), Derived: true}.snapshotPath(t)
}

// nsg_outbound_deny: nsg-aks on the node subnet denies TCP 443 to the
// private endpoint subnet (DenyAcrHttps, 100) and allows it to the rest of
// the hub (AllowHubHttps, 200). The trace to the private endpoint is
// unreachable with the rule named; the one to the hub VM passes the group,
// which shows in its hops.
func TestAccNodeRoutes_securityOutboundDeny(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrDerived(t, "nsg_outbound_deny"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5", "10.0.1.4"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrTrace(0).AtMapKey("hops"), strList(nrHopPE, "nsg nsg-aks (subnet) denies TCP 443 by rule DenyAcrHttps (100, outbound)")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("SECURITY_RULE_OUTBOUND_DENIED")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"code": nrStr("SECURITY_RULE_OUTBOUND_DENIED"), "severity": nrStr("error"), "condition": nrStr("route"), "owner": nrStr("network"),
					"node_pool": nrStr("system"), "destination": nrStr("10.0.2.5"),
					"resource_id": nrStr("/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks"),
					"message": knownvalue.StringRegexp(regexp.MustCompile(
						`nsg-aks on the node subnet denies outbound TCP .*\(flow TCP 10\.1\.0\.0/22 -> 10\.0\.2\.5:443\): rule DenyAcrHttps \(priority 100, outbound\)`)),
					"remediation": knownvalue.StringRegexp(regexp.MustCompile(`priority number lower than 100`)),
				})),
				nrCheck(nrTrace(1).AtMapKey("hops"), strList(nrHopNVA, "nsg nsg-aks (subnet) allows TCP 443 by rule AllowHubHttps (200)")),
				nrCheck(nrTrace(1).AtMapKey("verdict"), nrStr("reachable")),
				nrCheck(nrTrace(1).AtMapKey("findings"), knownvalue.ListExact([]knownvalue.Check{})),
				nrCheck(tfjsonpath.New("findings"), nrCodes("SECURITY_RULE_OUTBOUND_DENIED", "COVERAGE_ROUTES_COMPUTED")),
			},
		}},
	})
}

// nsg_inbound_deny: snet-pe enables network policies for private
// endpoints, so its group nsg-pe applies to pe-acr and denies TCP 443 from
// the spoke (DenySpokeHttps, 100).
func TestAccNodeRoutes_securityInboundDeny(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrDerived(t, "nsg_inbound_deny"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrTrace(0).AtMapKey("hops"), strList(nrHopPE, "nsg nsg-pe (subnet) denies TCP 443 by rule DenySpokeHttps (100, inbound)")),
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("SECURITY_RULE_INBOUND_DENIED")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(
					`nsg-pe on the destination subnet denies inbound TCP .*rule DenySpokeHttps \(priority 100, inbound\)`))),
			},
		}},
	})
}

// nsg_unverified_tag: a deny to the service tag AzureCloud comes before the
// allow; whether the private endpoint is in AzureCloud cannot be known
// offline, so the trace is unverified, never reachable.
func TestAccNodeRoutes_securityUnverifiedTag(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: nrConfig(nrDerived(t, "nsg_unverified_tag"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5"]`, nrCluster)),
			ConfigStateChecks: []statecheck.StateCheck{
				nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unverified")),
				nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("SECURITY_RULE_UNVERIFIED")),
				nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(0).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(
					`DenyAzureCloud \(priority 100, outbound\).*uses AzureCloud`))),
			},
		}},
	})
}

// nsg_appliance_deny: rt-aks sends the hub range through the appliance
// 10.0.1.4, whose NIC group nsg-nva denies TCP 443 from the spoke. The
// trace names the appliance's group; nva_forwarded, without the group,
// passes the appliance (the return path stays unverified: its source NAT
// is not in ARM).
func TestAccNodeRoutes_securityAppliance(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: nrConfig(nrDerived(t, "nsg_appliance_deny"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5"]`, nrCluster)),
				ConfigStateChecks: []statecheck.StateCheck{
					nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unreachable")),
					nrCheck(nrTrace(0).AtMapKey("hops"), knownvalue.ListPartial(map[int]knownvalue.Check{
						2: nrStr("nsg nsg-nva (nic) denies TCP 443 by rule DenySpokeHttpsIn (100, inbound) at appliance 10.0.1.4 (nic-vm-nva)"),
					})),
					nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("RETURN_ROUTE_UNVERIFIED", "SECURITY_RULE_INBOUND_DENIED")),
					nrCheck(nrTrace(0).AtMapKey("findings").AtSliceIndex(1).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(
						`nsg-nva on the NIC of appliance 10\.0\.1\.4 \(nic-vm-nva\) denies inbound TCP .*rule DenySpokeHttpsIn \(priority 100, inbound\)`))),
				},
			},
			{
				Config: nrConfig(nrDerived(t, "nva_forwarded"), fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["10.0.2.5"]`, nrCluster)),
				ConfigStateChecks: []statecheck.StateCheck{
					nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("unverified")),
					nrCheck(nrTrace(0).AtMapKey("findings"), nrCodes("RETURN_ROUTE_UNVERIFIED")),
				},
			},
		},
	})
}

// nrDerivedVariant is a derived scenario's snapshot changed by edit, in a
// temporary file.
func nrDerivedVariant(t *testing.T, name string, edit func(snap map[string]any)) string {
	t.Helper()
	snap := loadSnapshot(t, nrDerived(t, name))
	edit(snap)
	return writeSnapshot(t, snap)
}

// nrServiceTags is the service tag read of westeurope in the scenarios.
const nrServiceTags = "/subscriptions/" + accSub + "/providers/Microsoft.Network/locations/westeurope/serviceTags"

// service_endpoint_routes: snet-aks has service endpoints for Storage
// (westeurope and northeurope) and Container Registry (westeurope). With
// the service tags read, the computed table lists a
// VirtualNetworkServiceEndpoint route per prefix of Storage.WestEurope,
// Storage.NorthEurope and AzureContainerRegistry.WestEurope (IPv4 only: the
// VNet has no IPv6 space), after the private endpoint routes, as Azure
// lists them; a storage address takes one, an address outside the tags the
// default route. When the service tags cannot be read, the table lists no
// such route, says which read is missing, and the storage address is not
// concluded from a guess of the prefixes (it is reachable either way: the
// default route also goes to the Internet).
func TestAccNodeRoutes_serviceEndpointRoutes(t *testing.T) {
	se := func(prefix, tag string) knownvalue.Check {
		service := "Microsoft.Storage"
		if strings.HasPrefix(tag, "AzureContainerRegistry") {
			service = "Microsoft.ContainerRegistry"
		}
		return nrRoute(prefix, "VirtualNetworkServiceEndpoint", "", "Default", "Active", "service endpoint "+service+", service tag "+tag)
	}
	body := fmt.Sprintf(`
  cluster_id   = %q
  node_pool    = "system"
  destinations = ["20.60.40.10", "52.239.136.7", "20.61.97.200", "20.62.0.1"]`, nrCluster)
	denied := nrDerivedVariant(t, "service_endpoint_routes", withFault("GET "+nrServiceTags, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client does not have authorization to perform action 'Microsoft.Network/locations/serviceTags/read'.",
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: nrConfig(nrDerived(t, "service_endpoint_routes"), body),
				ConfigStateChecks: []statecheck.StateCheck{
					nrCheck(nrSet(0).AtMapKey("route_count"), knownvalue.Int64Exact(18+14)),
					nrCheck(nrSet(0).AtMapKey("routes"), knownvalue.ListPartial(map[int]knownvalue.Check{
						17: nrRoute("10.0.2.6/32", "InterfaceEndpoint", "", "Default", "Active", "private endpoint pe-acr"),
						18: se("20.38.108.0/23", "Storage.WestEurope"),
						19: se("20.60.40.0/23", "Storage.WestEurope"),
						23: se("52.239.212.0/23", "Storage.WestEurope"),
						24: se("20.38.102.0/23", "Storage.NorthEurope"),
						27: se("52.239.136.0/22", "Storage.NorthEurope"),
						28: se("13.69.64.88/29", "AzureContainerRegistry.WestEurope"),
						31: se("20.61.97.128/25", "AzureContainerRegistry.WestEurope"),
					})),
					nrCheck(tfjsonpath.New("findings"), nrCodes("COVERAGE_ROUTES_COMPUTED")),
					nrCheck(nrTrace(0).AtMapKey("selected_route"), se("20.60.40.0/23", "Storage.WestEurope")),
					nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
					nrCheck(nrTrace(0).AtMapKey("hops"), strList(
						"subnet vnet-spoke/snet-aks → route 20.60.40.0/23 VirtualNetworkServiceEndpoint (service endpoint Microsoft.Storage, service tag Storage.WestEurope) → Azure service over the backbone (service endpoint Microsoft.Storage, service tag Storage.WestEurope)")),
					nrCheck(nrTrace(1).AtMapKey("selected_route"), se("52.239.136.0/22", "Storage.NorthEurope")),
					nrCheck(nrTrace(2).AtMapKey("selected_route"), se("20.61.97.128/25", "AzureContainerRegistry.WestEurope")),
					nrCheck(nrTrace(3).AtMapKey("selected_route").AtMapKey("next_hop_type"), nrStr("Internet")),
					nrCheck(nrTrace(3).AtMapKey("verdict"), nrStr("reachable")),
				},
			},
			{
				Config: nrConfig(denied, body),
				ConfigStateChecks: []statecheck.StateCheck{
					nrCheck(nrSet(0).AtMapKey("route_count"), knownvalue.Int64Exact(18)),
					nrCheck(tfjsonpath.New("findings"), nrCodes("EVIDENCE_PERMISSION_DENIED", "COVERAGE_ROUTES_COMPUTED")),
					nrCheck(nrFinding(0).AtMapKey("resource_id"), nrStr(nrServiceTags)),
					nrCheck(nrFinding(0).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(
						`^The snapshot records that reading the service tags of westeurope \(.*\) was refused \(HTTP 403 AuthorizationFailed\): the identity that recorded it lacks Microsoft\.Network/locations/serviceTags/read\.`))),
					nrCheck(nrTrace(0).AtMapKey("selected_route").AtMapKey("next_hop_type"), nrStr("Internet")),
					nrCheck(nrTrace(0).AtMapKey("verdict"), nrStr("reachable")),
				},
			},
		},
	})
}
