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

// words matches a diagnostic's text however the CLI wraps it: the words of
// s in order, any white space between them.
func words(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = regexp.QuoteMeta(f)
	}
	return strings.Join(fields, `\s+`)
}

// failClosed is the error a fail-closed read must end with: the summary,
// then (in the CLI's rendering of an attribute error) the configuration
// line of the argument, then the detail's words.
func failClosed(summary, argument string, detail ...string) *regexp.Regexp {
	re := `(?s)Error: ` + regexp.QuoteMeta(summary) + `.*\n\s*\d+:\s+` + regexp.QuoteMeta(argument) + `\s+=`
	for _, d := range detail {
		re += `.*` + words(d)
	}
	return regexp.MustCompile(re + `.*` + words("whatever enforce and fail_on_unverified say"))
}

// A verification that cannot read what its arguments name, or that has no
// path to check, fails with an error on that argument, with enforce = false
// too: it never passes a pipeline with "unverified" and zero paths.
func TestAccVerification_failsClosed(t *testing.T) {
	snap := scenarioSnapshot(t, "baseline_ok")
	clusterID := accCluster
	typoCluster := strings.Replace(accCluster, "/aks1", "/aks-typo", 1)
	otherRegistry := strings.Replace(accRegistry, "/contosoreg", "/otherreg", 1)
	denied := variant(t, "baseline_ok.json", withFault("GET "+clusterID, map[string]any{
		"status": 403, "code": "AuthorizationFailed",
		"message": "The client does not have authorization to perform action 'Microsoft.ContainerService/managedClusters/read'.",
	}))
	noPools := variant(t, "baseline_ok.json", func(s map[string]any) {
		var kept []any
		for _, r := range s["resources"].([]any) {
			m := r.(map[string]any)
			id := m["id"].(string)
			if strings.Contains(strings.ToLower(id), "/agentpools/") {
				continue
			}
			if strings.EqualFold(id, clusterID) {
				m["properties"].(map[string]any)["agentPoolProfiles"] = []any{}
			}
			kept = append(kept, m)
		}
		s["resources"] = kept
	})
	body := func(cluster, registry, extra string) string {
		return fmt.Sprintf("  cluster_id  = %q\n  registry_id = %q\n%s", cluster, registry, extra)
	}
	const off = "  enforce     = false\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: verificationWith(snap, body(typoCluster, accRegistry, off)),
			ExpectError: failClosed("The AKS cluster is not in the snapshot", "cluster_id",
				"The snapshot (snapshot_file) has no AKS cluster aks-typo", "record the snapshot again"),
		}, {
			// The default enforce fails the same way.
			Config:      verificationWith(snap, body(typoCluster, accRegistry, "")),
			ExpectError: failClosed("The AKS cluster is not in the snapshot", "cluster_id", "has no AKS cluster aks-typo"),
		}, {
			Config: verificationWith(denied, body(clusterID, accRegistry, off)),
			ExpectError: failClosed("Permission denied reading the AKS cluster", "cluster_id",
				"reading the AKS cluster aks1", "Microsoft.ContainerService/managedClusters/read", "built-in Reader role"),
		}, {
			Config: verificationWith(snap, body(clusterID, otherRegistry, off)),
			ExpectError: failClosed("The container registry is not in the snapshot", "registry_id",
				"has no container registry otherreg"),
		}, {
			Config: verificationWith(snap, body(clusterID, accRegistry, off+"  node_pools  = [\"sysstem\"]\n")),
			ExpectError: failClosed("Node pool not found", "node_pools",
				`The AKS cluster aks1 has no node pool named "sysstem".`, "Its node pools are: system, user"),
		}, {
			Config: verificationWith(noPools, body(clusterID, accRegistry, off)),
			ExpectError: failClosed("The cluster has no node pool to check", "cluster_id",
				"The AKS cluster aks1", "lists no node pools, so there is not one path to check"),
		}, {
			Config: verificationWith(snap, fmt.Sprintf("  node_subnet_ids = [%q, %q]\n  registry_id     = %q\n%s",
				accNodeSnet, accSpoke+"/subnets/snet-typo", accRegistry, off)),
			ExpectError: failClosed("The subnet is not in the snapshot", "node_subnet_ids",
				"has no subnet vnet-spoke/snet-typo"),
		}, {
			// The control: what the arguments name is there, so the same
			// configuration reads, with paths to check.
			Config: verificationWith(snap, body(clusterID, accRegistry, off+"  node_pools  = [\"system\"]\n")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(0).AtMapKey("node_pool"), knownvalue.StringExact("system")),
			},
		}},
	})
}
