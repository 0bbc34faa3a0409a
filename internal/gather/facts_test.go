package gather

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// acrRequest is the usual request of the scenarios: the cluster and the ACR.
var acrRequest = VerificationRequest{ClusterID: aks1, RegistryID: acr}

// harborRequest is gateway_transit_missing's: a declared registry.
var harborRequest = VerificationRequest{ClusterID: aks1, Declared: &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}}}

// verifyFacts gathers and verifies.
func verifyFacts(t *testing.T, r *Reader, q VerificationRequest) (model.Facts, verify.Result) {
	t.Helper()
	f, err := r.VerificationFacts(testCtx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	return f, verify.Run(f)
}

// codes returns the distinct codes of a result.
func codes(res verify.Result) map[model.Code]bool {
	out := map[model.Code]bool{}
	for _, f := range res.Findings {
		out[f.Code] = true
	}
	return out
}

func findingOf(res verify.Result, code model.Code) *model.Finding {
	for i := range res.Findings {
		if res.Findings[i].Code == code {
			return &res.Findings[i]
		}
	}
	return nil
}

// The public scenarios, gathered through the snapshot replay and the real
// SDK clients and verified: the verdict and the cause of each.
func TestVerificationFactsScenarios(t *testing.T) {
	tests := []struct {
		scenario string
		q        VerificationRequest
		verdict  model.Verdict
		cause    model.Code
	}{
		{"baseline_ok", acrRequest, model.Reachable, model.CoverageRoutesComputed},
		{"acrpull_missing", acrRequest, model.Unreachable, model.IdentityPullRoleMissing},
		{"custom_dns_vm", acrRequest, model.Unverified, model.DNSForwarderUnverified},
		{"data_record_missing", acrRequest, model.Unreachable, model.DNSRecordMissing},
		{"dns_zone_not_linked", acrRequest, model.Unreachable, model.DNSZoneNotLinked},
		{"gateway_transit_missing", harborRequest, model.Unreachable, model.RouteGatewayTransitMissing},
		{"peering_initiated", acrRequest, model.Unreachable, model.RoutePeeringNotConnected},
		{"udr_blackhole", acrRequest, model.Unreachable, model.RouteBlackhole},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			r, _ := newReader(t, tt.scenario)
			f, res := verifyFacts(t, r, tt.q)
			requireNoGaps(t, r)
			if res.Verdict != tt.verdict || !codes(res)[tt.cause] {
				t.Errorf("verdict %s, codes %v; want %s with %s\n%s", res.Verdict, codes(res), tt.verdict, tt.cause, res.Summary)
			}
			if len(f.Pools) != 2 || f.Cluster == nil || f.Cluster.Kubelet.ObjectID != kubeletID || !f.DNS.ZoneSearchComplete {
				t.Errorf("pools %d cluster %+v zone search complete %v", len(f.Pools), f.Cluster, f.DNS.ZoneSearchComplete)
			}
		})
	}
}

// Every resource is read once, the independent reads overlap, and what the
// chain needs is all there.
func TestVerificationFactsReadsOnceConcurrently(t *testing.T) {
	r, ct := withSnapshot(t, "custom_dns_vm", func(m map[string]any) {
		m["simulate"] = map[string]any{"latency_ms": 20}
	})
	f, res := verifyFacts(t, r, acrRequest)
	requireNoGaps(t, r)
	if res.Verdict != model.Unverified {
		t.Errorf("verdict %s", res.Verdict)
	}
	ct.mu.Lock()
	for k, n := range ct.n {
		if n > 1 {
			t.Errorf("%s: %d requests", k, n)
		}
	}
	ct.mu.Unlock()
	if ct.maxInFlight() < 3 {
		t.Errorf("at most %d requests in flight: the reads did not overlap", ct.maxInFlight())
	}
	// The DNS server VM, found by its address in the hub, with its NIC.
	if nic := f.Network.NIC(dnsNIC); nic == nil || nic.PrivateIPs[0] != ip("10.0.1.10") {
		t.Errorf("DNS server NIC = %+v", nic)
	}
	// The resolvers of the VNet holding the DNS server were asked; the
	// rulesets of the spoke were not (the nodes do not use Azure DNS there).
	if ct.count("POST", vnetHub+"/listDnsResolvers") != 1 || ct.count("POST", vnetSpoke+"/listDnsForwardingRulesets") != 0 {
		t.Errorf("resolver lists: hub %d, spoke rulesets %d", ct.count("POST", vnetHub+"/listDnsResolvers"),
			ct.count("POST", vnetSpoke+"/listDnsForwardingRulesets"))
	}
	if len(f.RoleAssignments) != 3 || f.Registry == nil || !f.Registry.ReplicasKnown || f.Network.PrivateEndpoint(peACR) == nil {
		t.Errorf("role assignments %d, registry %+v", len(f.RoleAssignments), f.Registry)
	}
	if z := f.DNS.Zones[zoneACR.Key()]; z == nil || !z.LinksKnown || !z.RecordsKnown {
		t.Errorf("zone = %+v", z)
	}
}

// An unreadable cluster or registry is evidence, not an error: the facts
// carry the gap and the verdict is unverified, naming the permission.
func TestVerificationFactsUnreadableInputs(t *testing.T) {
	tests := []struct {
		name, fault string
		status      int
		code        model.Code
		permission  string
	}{
		{"cluster not found", "GET " + string(aks1), 404, model.EvidenceNotFound, ""},
		{"cluster forbidden", "GET " + string(aks1), 403, model.EvidencePermissionDenied, "Microsoft.ContainerService/managedClusters/read"},
		{"registry forbidden", "GET " + string(acr), 403, model.EvidencePermissionDenied, "Microsoft.ContainerRegistry/registries/read"},
		{"registry unavailable", "GET " + string(acr), 503, model.EvidenceUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
				m["faults"] = map[string]any{tt.fault: map[string]any{"status": tt.status, "code": "Injected"}}
			})
			_, res := verifyFacts(t, r, acrRequest)
			f := findingOf(res, tt.code)
			if res.Verdict != model.Unverified || f == nil {
				t.Fatalf("verdict %s codes %v\n%s", res.Verdict, codes(res), res.Summary)
			}
			if !strings.Contains(f.Message, tt.permission) || !strings.Contains(tt.fault, string(f.ResourceID)) {
				t.Errorf("finding = %+v", f)
			}
		})
	}
}

// A 403 on the role assignment list: the pull identity is unverified, the
// finding names the permission.
func TestVerificationFactsRoleAssignmentsForbidden(t *testing.T) {
	r2, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		m["faults"] = map[string]any{"GET " + string(acr) + "/providers/Microsoft.Authorization/roleAssignments": map[string]any{"status": 403, "code": "AuthorizationFailed"}}
	})
	f2, res := verifyFacts(t, r2, acrRequest)
	if f2.RoleAssignmentsGap == nil || f2.RoleAssignmentsGap.Kind != model.GapPermissionDenied {
		t.Fatalf("gap = %+v", f2.RoleAssignmentsGap)
	}
	fd := findingOf(res, model.EvidencePermissionDenied)
	if res.Verdict != model.Unverified || fd == nil || !strings.Contains(fd.Message, "Microsoft.Authorization/roleAssignments/read") || codes(res)[model.IdentityPullRoleMissing] {
		t.Errorf("verdict %s finding %+v", res.Verdict, fd)
	}
}

// node_subnet_ids: one pool per subnet, no cluster, no identity; the
// node_pools filter; a filtered name the cluster lacks is a not_found gap.
func TestVerificationFactsNodesAndPools(t *testing.T) {
	r, _ := newReader(t, "acrpull_missing")
	f, res := verifyFacts(t, r, VerificationRequest{NodeSubnetIDs: idList(snetAKS, snetAKS), RegistryID: acr})
	if f.Cluster != nil || len(f.Pools) != 1 || f.Pools[0].Name != "snet-aks" || res.Verdict != model.Reachable {
		t.Errorf("cluster %v pools %+v verdict %s", f.Cluster, f.Pools, res.Verdict)
	}
	if len(f.RoleAssignments) != 0 {
		t.Errorf("role assignments read without a cluster: %d", len(f.RoleAssignments))
	}

	r, _ = newReader(t, "acrpull_missing")
	q := acrRequest
	q.NodePools = []string{"USER", "gpu"}
	f, res = verifyFacts(t, r, q)
	if len(f.Pools) != 1 || f.Pools[0].Name != "user" {
		t.Errorf("pools = %+v", f.Pools)
	}
	gap, ok := f.Gaps.Lookup(aks1 + "/agentPools/gpu")
	if !ok || gap.Kind != model.GapNotFound || !strings.Contains(gap.Detail, "its pools are system, user") {
		t.Errorf("gap = %+v", gap)
	}
	if res.Verdict != model.Unreachable || !codes(res)[model.EvidenceNotFound] || !codes(res)[model.IdentityPullRoleMissing] {
		t.Errorf("verdict %s codes %v", res.Verdict, codes(res))
	}
}

// withSnapshotText is withSnapshot for edits of the raw text (moving
// resources to another subscription).
func withSnapshotText(t *testing.T, scenario string, edit func(string) string) (*Reader, *countingTransport) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse([]byte(edit(string(b))))
	if err != nil {
		t.Fatal(err)
	}
	return newReaderFrom(t, s)
}

// The zone lives in a central DNS subscription: found through the private
// endpoint's zone group without searching that subscription, or by the
// search when zone_subscription_ids names it — read once either way.
func TestVerificationFactsZoneInOtherSubscription(t *testing.T) {
	const dnsSub = "00000000-0000-0000-0000-0000000000d5"
	moved := model.ResourceID("/subscriptions/" + dnsSub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io")
	move := func(s string) string { return strings.ReplaceAll(s, string(zoneACR), string(moved)) }

	r, ct := withSnapshotText(t, "baseline_ok", move)
	f, res := verifyFacts(t, r, acrRequest)
	requireNoGaps(t, r)
	if res.Verdict != model.Reachable || f.DNS.Zones[moved.Key()] == nil {
		t.Fatalf("verdict %s zones %v\n%s", res.Verdict, keys(f.DNS.Zones), res.Summary)
	}
	if ct.count("GET", moved) != 1 || ct.count("GET", "/subscriptions/"+dnsSub+"/providers/Microsoft.Network/privateDnsZones") != 0 {
		t.Errorf("zone GET %d, list %d", ct.count("GET", moved), ct.count("GET", "/subscriptions/"+dnsSub+"/providers/Microsoft.Network/privateDnsZones"))
	}

	r, ct = withSnapshotText(t, "baseline_ok", move)
	q := acrRequest
	q.ZoneSubscriptionIDs = []string{dnsSub}
	_, res = verifyFacts(t, r, q)
	if res.Verdict != model.Reachable || ct.count("GET", moved) != 0 ||
		ct.count("GET", "/subscriptions/"+dnsSub+"/providers/Microsoft.Network/privateDnsZones") != 1 {
		t.Errorf("verdict %s, zone GET %d", res.Verdict, ct.count("GET", moved))
	}
}

// setKubeletRole changes the kubelet identity's assignment at the registry
// to another role (and principal type).
func setKubeletRole(m map[string]any, roleDefinitionID, principalType string) {
	for _, res := range m["resources"].([]any) {
		obj := res.(map[string]any)
		if obj["type"] != "Microsoft.Authorization/roleAssignments" {
			continue
		}
		p := obj["properties"].(map[string]any)
		if p["principalId"] == kubeletID {
			p["roleDefinitionId"] = roleDefinitionID
			if principalType != "" {
				p["principalType"] = principalType
				p["principalId"] = "0b7a6e55-3c0f-4a52-9d5e-6c1f0f3f0001"
			}
		}
	}
}

// A custom role is judged by its definition, read once; a definition that
// cannot be read leaves the identity unverified; an assignment to a group
// (membership is not in Resource Manager) is unverified, not "missing".
func TestVerificationFactsRoles(t *testing.T) {
	const custom = "/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/roleDefinitions/5b0f3b5e-1f6a-4c37-9f3c-7f1d1d0c0a11"
	definition := map[string]any{"id": custom, "name": "5b0f3b5e-1f6a-4c37-9f3c-7f1d1d0c0a11", "type": "Microsoft.Authorization/roleDefinitions",
		"properties": map[string]any{"roleName": "Image puller", "type": "CustomRole",
			"permissions": []any{map[string]any{"actions": []any{"Microsoft.ContainerRegistry/registries/pull/read"}}}}}

	r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		setKubeletRole(m, custom, "")
		m["resources"] = append(m["resources"].([]any), definition)
	})
	f, res := verifyFacts(t, r, acrRequest)
	if res.Verdict != model.Reachable || f.RoleDefinitions["5b0f3b5e-1f6a-4c37-9f3c-7f1d1d0c0a11"] == nil || ct.count("GET", custom) != 1 {
		t.Errorf("custom role: verdict %s, definitions %v, reads %d\n%s", res.Verdict, f.RoleDefinitions, ct.count("GET", custom), res.Summary)
	}
	// Built-in roles are known by id: no definition read.
	for k := range ct.n {
		if strings.Contains(k, "roledefinitions/7f951dda") {
			t.Errorf("read the AcrPull definition: %s", k)
		}
	}

	r, _ = withSnapshot(t, "baseline_ok", func(m map[string]any) { setKubeletRole(m, custom, "") })
	_, res = verifyFacts(t, r, acrRequest)
	if res.Verdict != model.Unverified || !codes(res)[model.EvidenceNotFound] {
		t.Errorf("missing definition: verdict %s codes %v", res.Verdict, codes(res))
	}

	acrPull := "/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/roleDefinitions/" + model.RoleAcrPull
	r, _ = withSnapshot(t, "baseline_ok", func(m map[string]any) { setKubeletRole(m, acrPull, "Group") })
	_, res = verifyFacts(t, r, acrRequest)
	if res.Verdict != model.Unverified || codes(res)[model.IdentityPullRoleMissing] || !codes(res)[model.EvidenceUnavailable] {
		t.Errorf("group: verdict %s codes %v", res.Verdict, codes(res))
	}
}

// A request without nodes or registry is an error; the read timeout ends
// the gathering with the context's error.
func TestVerificationFactsErrors(t *testing.T) {
	r, _ := newReader(t, "baseline_ok")
	for _, q := range []VerificationRequest{
		{RegistryID: acr},
		{ClusterID: aks1},
		{ClusterID: aks1, NodeSubnetIDs: idList(snetAKS), RegistryID: acr},
		{ClusterID: aks1, Declared: &model.DeclaredRegistry{}},
	} {
		if _, err := r.VerificationFacts(testCtx(t), q); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}

	r, _ = withSnapshot(t, "baseline_ok", func(m map[string]any) {
		m["simulate"] = map[string]any{"latency_ms": 200}
	})
	ctx, cancel := context.WithTimeout(testCtx(t), 300*time.Millisecond)
	defer cancel()
	if _, err := r.VerificationFacts(ctx, acrRequest); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}

func TestDomainSuffixesAndNames(t *testing.T) {
	got := domainSuffixes("Contosoreg.WestEurope.Data.privatelink.azurecr.io.")
	want := "contosoreg.westeurope.data.privatelink.azurecr.io westeurope.data.privatelink.azurecr.io data.privatelink.azurecr.io privatelink.azurecr.io azurecr.io"
	if strings.Join(got, " ") != want {
		t.Errorf("suffixes = %v", got)
	}
	f := model.Facts{Registry: &model.Registry{LoginServer: "contosoreg.azurecr.us", Location: "usgovvirginia", DataEndpointEnabled: true}}
	names := strings.Join(dnsNames(&f), " ")
	for _, n := range []string{"contosoreg.azurecr.us", "privatelink.azurecr.us", "usgovvirginia.data.privatelink.azurecr.us", "contosoreg.usgovvirginia.data.azurecr.us"} {
		if !strings.Contains(" "+names+" ", " "+n+" ") {
			t.Errorf("names %q lack %s", names, n)
		}
	}
}
