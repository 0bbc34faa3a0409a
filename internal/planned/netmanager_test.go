package planned

import "testing"

// TestNetworkManagerAdminRules: a security admin configuration, its rule
// collection (its configuration a reference to the new one) and its admin
// rules are put under the network manager, in ARM's shape; a rule whose
// priority or ports are known only after apply has them unknown.
func TestNetworkManagerAdminRules(t *testing.T) {
	p := parseFixture(t, "testdata/plan_network_manager.json")
	checkOps(t, p)
	if len(p.Unsupported) != 0 || len(p.Untranslatable) != 0 {
		t.Fatalf("unsupported %v, untranslatable %v", p.Unsupported, p.Untranslatable)
	}
	nm := "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm-platform"
	cfg := nm + "/securityAdminConfigurations/cfg-baseline"
	col := cfg + "/ruleCollections/rc-registry"
	want(t, opFor(t, p, OpPut, cfg), map[string]any{"type": typeSecurityAdminConfig, "properties.description": "platform baseline"})
	want(t, opFor(t, p, OpPut, col), map[string]any{"type": typeAdminRuleCollection, "properties.appliesToGroups.#0.networkGroupId": nm + "/networkGroups/ng-spokes"})
	deny := opFor(t, p, OpPut, col+"/rules/DenyLateralHttps")
	want(t, deny, map[string]any{"kind": "Custom", "properties.access": "Deny", "properties.direction": "Outbound", "properties.priority": float64(10),
		"properties.destinationPortRanges": []any{"443"}, "properties.destinations.#0.addressPrefix": "10.0.0.0/8"})
	if len(deny.Unknown) != 0 {
		t.Errorf("a known rule has unknown members: %v", deny.Unknown)
	}
	later := opFor(t, p, OpPut, col+"/rules/AllowLater")
	for _, u := range []string{"properties.priority", "properties.destinationPortRanges"} {
		if !hasUnknown(later, u) {
			t.Errorf("%s not unknown: %v", u, later.Unknown)
		}
	}
	if hasUnknown(later, "properties.access") {
		t.Errorf("a known action is unknown: %v", later.Unknown)
	}
}
