// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package whatif

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

const (
	scenarios = "../provider/testdata/scenarios"
	cluster   = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
	registry  = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
)

// run verifies baseline_ok with the plan made of the resource changes of
// the given scenario folders' plan.json files ("" for no plan).
func run(t *testing.T, folders ...string) verify.Result {
	t.Helper()
	return runWith(t, nil, folders...)
}

// runWith is run with baseline_ok's snapshot changed by edit (nil: as it
// is).
func runWith(t *testing.T, edit func(snap map[string]any), folders ...string) verify.Result {
	t.Helper()
	cfg := azure.Config{SnapshotFile: filepath.Join(scenarios, "baseline_ok", "snapshot.json")}
	if edit != nil {
		raw, err := os.ReadFile(cfg.SnapshotFile)
		if err != nil {
			t.Fatal(err)
		}
		var snap map[string]any
		if err := json.Unmarshal(raw, &snap); err != nil {
			t.Fatal(err)
		}
		edit(snap)
		out, err := json.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		cfg.SnapshotFile = filepath.Join(t.TempDir(), "snapshot.json")
		if err := os.WriteFile(cfg.SnapshotFile, out, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var o *overlay.Overlay
	var opts []azure.SessionOption
	if len(folders) > 0 {
		var merged map[string]any
		var changes []any
		for _, f := range folders {
			raw, err := os.ReadFile(filepath.Join(scenarios, f, "plan.json"))
			if err != nil {
				t.Fatal(err)
			}
			var p map[string]any
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			if merged == nil {
				merged = p
			}
			changes = append(changes, p["resource_changes"].([]any)...)
		}
		merged["resource_changes"] = changes
		out, _ := json.Marshal(merged)
		plan, err := planned.Parse(out, planned.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o = overlay.New(plan)
		opts = append(opts, azure.WithPlannedChanges(o))
	}
	s, err := azure.NewSession(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	q := gather.VerificationRequest{ClusterID: model.ResourceID(cluster), RegistryID: model.ResourceID(registry)}
	res, _, err := Verify(context.Background(), o, ReaderCheck(func() *gather.Reader { return gather.New(s.Clients) }, q))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// blame is code → the planned changes of its findings (all alike).
func blame(t *testing.T, res verify.Result) map[model.Code]string {
	t.Helper()
	out := map[model.Code]string{}
	for _, f := range res.Findings {
		if prev, ok := out[f.Code]; ok && prev != f.PlannedChange {
			t.Errorf("%s: findings blame %q and %q", f.Code, prev, f.PlannedChange)
		}
		out[f.Code] = f.PlannedChange
	}
	return out
}

func TestNoPlanBlamesNothing(t *testing.T) {
	res := run(t)
	if res.Verdict != model.Reachable {
		t.Fatalf("baseline_ok: %s", res.Verdict)
	}
	for c, b := range blame(t, res) {
		if b != "" {
			t.Errorf("%s blamed on %q without a plan", c, b)
		}
	}
	if strings.Contains(strings.ToLower(res.Summary), "after this plan") {
		t.Errorf("summary mentions a plan:\n%s", res.Summary)
	}
}

func TestOneChangeIsNamed(t *testing.T) {
	res := run(t, "plan_zone_link_deleted")
	got := blame(t, res)
	if got[model.DNSZoneNotLinked] != "azurerm_private_dns_zone_virtual_network_link.spoke" {
		t.Errorf("DNS_ZONE_NOT_LINKED blamed on %q", got[model.DNSZoneNotLinked])
	}
	// A finding the network has before the plan too is not the plan's.
	if got[model.CoverageRoutesComputed] != "" {
		t.Errorf("COVERAGE_ROUTES_COMPUTED blamed on %q; baseline_ok has it already", got[model.CoverageRoutesComputed])
	}
	if !strings.Contains(res.Summary, "After this plan: azurerm_private_dns_zone_virtual_network_link.spoke") {
		t.Errorf("summary does not mark the finding:\n%s", res.Summary)
	}
}

// Two independent changes: leave-one-out names each finding's own cause.
func TestLeaveOneOutSeparatesIndependentChanges(t *testing.T) {
	res := run(t, "plan_peering_access_disabled", "plan_record_repointed")
	got := blame(t, res)
	if got[model.DNSRecordMismatch] != "azurerm_private_dns_a_record.registry" {
		t.Errorf("DNS_RECORD_MISMATCH blamed on %q, want only the record change", got[model.DNSRecordMismatch])
	}
	if got[model.RoutePeeringAccessDisabled] != "azurerm_virtual_network_peering.spoke_to_hub" {
		t.Errorf("ROUTE_PEERING_ACCESS_DISABLED blamed on %q, want only the peering change", got[model.RoutePeeringAccessDisabled])
	}
}

// Changes that are each needed are all named, sorted.
func TestEveryNeededChangeIsNamed(t *testing.T) {
	res := run(t, "plan_udr_endpoint_blackhole")
	want := "azurerm_route_table.aks, azurerm_subnet.pe, azurerm_subnet_route_table_association.aks"
	if got := blame(t, res)[model.RouteBlackhole]; got != want {
		t.Errorf("ROUTE_BLACKHOLE blamed on %q, want %q", got, want)
	}
}

// A plan that does not touch the pull path causes nothing.
func TestUnrelatedPlanBlamesNothing(t *testing.T) {
	res := run(t, "plan_unrelated")
	if res.Verdict != model.Reachable {
		t.Errorf("verdict %s", res.Verdict)
	}
	for c, b := range blame(t, res) {
		if b != "" {
			t.Errorf("%s blamed on %q by an unrelated plan", c, b)
		}
	}
}

// fault makes a snapshot refuse a read (403).
func fault(read string) func(map[string]any) {
	return func(snap map[string]any) {
		faults, _ := snap["faults"].(map[string]any)
		if faults == nil {
			faults = map[string]any{}
			snap["faults"] = faults
		}
		faults[read] = map[string]any{"status": 403}
	}
}

// A read that fails only while verifying the network without the plan is
// reported in the result, on the node pools and hosts whose comparison it
// left incomplete, and the findings of those pools are blamed on no
// change: whether the plan causes them is not concluded.
func TestFailedComparisonReadIsEvidence(t *testing.T) {
	const records = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/ALL"
	res := runWith(t, fault("GET "+records), "plan_zone_link_deleted")
	if res.Verdict != model.Unreachable {
		t.Errorf("verdict %s: the plan still breaks the pull", res.Verdict)
	}
	compared := map[string]bool{}
	for _, f := range res.Findings {
		switch {
		case f.Code == model.DNSZoneNotLinked && f.PlannedChange != "":
			t.Errorf("%s on %s blamed on %q, though the network without the plan could not be verified there", f.Code, f.NodePool, f.PlannedChange)
		case f.Code == model.EvidencePermissionDenied && strings.EqualFold(string(f.ResourceID), records) &&
			strings.Contains(f.Message, "verified as it is now, without the plan") && strings.Contains(f.Message, "is therefore not concluded"):
			compared[f.NodePool+" "+f.Endpoint] = true
		}
	}
	for _, want := range []string{"system contosoreg.azurecr.io", "user contosoreg.westeurope.data.azurecr.io"} {
		if !compared[want] {
			t.Errorf("no evidence finding names the failed read of the comparison on %s; findings: %+v", want, res.Findings)
		}
	}

	// The same read refused to nothing: the change is named (the control).
	if got := blame(t, run(t, "plan_zone_link_deleted"))[model.DNSZoneNotLinked]; got != "azurerm_private_dns_zone_virtual_network_link.spoke" {
		t.Errorf("DNS_ZONE_NOT_LINKED blamed on %q", got)
	}
}

// A resource the plan creates is absent when its change is left out: that
// is no failed read, and the blame is concluded as without it.
func TestLeftOutCreateIsNoEvidence(t *testing.T) {
	res := run(t, "plan_udr_endpoint_blackhole")
	for _, f := range res.Findings {
		if f.Condition == model.ConditionEvidence {
			t.Errorf("%s on %s: %s", f.Code, f.ResourceID, f.Message)
		}
	}
}
