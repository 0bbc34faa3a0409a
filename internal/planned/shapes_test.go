package planned

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestDriftAndReplacePaths: resource_drift (what changed outside
// Terraform, already true in Azure) is not a planned change; a replace
// with replace_paths and action_reason is the resource after apply.
func TestDriftAndReplacePaths(t *testing.T) {
	link := zoneID + "/virtualNetworkLinks/link-spoke"
	linkVals := map[string]any{"id": link, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub",
		"virtual_network_id": spkNet, "registration_enabled": false}
	snBefore := map[string]any{"id": aksSn, "name": "snet-aks", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.0.0/22"}}
	snAfter := map[string]any{"name": "snet-aks", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.0.0/21"},
		"private_endpoint_network_policies": "Disabled"}
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.14.0",
		"resource_drift": []any{map[string]any{"address": "azurerm_private_dns_zone_virtual_network_link.spoke", "mode": "managed",
			"type": "azurerm_private_dns_zone_virtual_network_link", "name": "spoke", "provider_name": azurerm,
			"change": map[string]any{"actions": []any{"delete"}, "before": linkVals, "after": nil}}},
		"resource_changes": []any{map[string]any{"address": "azurerm_subnet.aks", "mode": "managed", "type": "azurerm_subnet", "name": "aks", "provider_name": azurerm,
			"action_reason": "replace_because_cannot_update",
			"change": map[string]any{"actions": []any{"delete", "create"}, "before": snBefore, "after": snAfter,
				"after_unknown": map[string]any{"id": true}, "replace_paths": []any{[]any{"address_prefixes"}}}}}}
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data, Options{DefaultSubscriptionID: sub1})
	if err != nil {
		t.Fatal(err)
	}
	checkOps(t, p)
	if len(p.Ops) != 1 {
		t.Fatalf("want only the subnet's put:\n%s", opsString(p))
	}
	want(t, opFor(t, p, OpPut, aksSn), map[string]any{"properties.addressPrefix": "10.1.0.0/21"})
}

// TestReplacePathsFixture: plan_replace_paths.json replaces a subnet in
// place (replace_paths address_prefixes: same id, the new prefix) and a
// route table under a new name (replace_paths name, create before destroy):
// the old table is deleted and the new one put with its inline route.
func TestReplacePathsFixture(t *testing.T) {
	p := parseFixture(t, "testdata/plan_replace_paths.json")
	checkOps(t, p)
	want(t, opFor(t, p, OpPut, aksSn), map[string]any{"properties.addressPrefix": "10.1.0.0/21"})
	rtOld := rgSpk + "/providers/Microsoft.Network/routeTables/rt-aks"
	rtNew := rgSpk + "/providers/Microsoft.Network/routeTables/rt-aks-v2"
	opFor(t, p, OpDelete, rtOld)
	opFor(t, p, OpPut, rtNew)
	want(t, opFor(t, p, OpPut, rtNew+"/routes/to-hub"), map[string]any{"properties.nextHopType": "VirtualAppliance", "properties.nextHopIpAddress": "10.0.1.4"})
	for _, op := range p.Ops {
		if op.Kind == OpDelete && strings.EqualFold(op.ID, aksSn) {
			t.Errorf("a replacement under the same id deletes it:\n%s", opsString(p))
		}
	}
}

// TestResourceDriftFixture: plan_resource_drift.json reports, as
// resource_drift, a zone link deleted and DNS servers set outside
// Terraform; the plan recreates the link and leaves the VNet as it now
// is. Drift is already true in Azure: only the link's creation is an op.
func TestResourceDriftFixture(t *testing.T) {
	p := parseFixture(t, "testdata/plan_resource_drift.json")
	checkOps(t, p)
	if len(p.Ops) != 1 {
		t.Fatalf("want only the link's put:\n%s", opsString(p))
	}
	want(t, opFor(t, p, OpPut, zoneID+"/virtualNetworkLinks/link-spoke"), map[string]any{"properties.virtualNetwork.id": spkNet})
	if len(p.Unsupported) != 0 || len(p.Untranslatable) != 0 {
		t.Errorf("unsupported %v, untranslatable %v", p.Unsupported, p.Untranslatable)
	}
}

func parseFixture(t *testing.T, file string) *Plan {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
