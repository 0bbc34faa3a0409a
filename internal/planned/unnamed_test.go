package planned

import (
	"strings"
	"testing"
)

// TestUnnamedCreates: a resource the plan creates whose name is known only
// after apply (random_string) is an OpCreateUnnamed at its place, not an
// untranslatable change; a create with known names is a put.
func TestUnnamedCreates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change rc
		wantID string
	}{
		{"subnet named from random_string", rc{addr: "azurerm_subnet.batch", actions: create,
			after:   map[string]any{"resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.16.0/24"}},
			unknown: map[string]any{"id": true, "name": true},
			expr:    map[string]any{"name": refExpr("random_string.suffix.result", "random_string.suffix")}},
			spkNet + "/subnets/" + NameUnknown},
		{"zone link named from random_string", rc{addr: "azurerm_private_dns_zone_virtual_network_link.x", actions: create,
			after:   map[string]any{"resource_group_name": "rg-hub", "private_dns_zone_name": "privatelink.azurecr.io", "virtual_network_id": spkNet},
			unknown: map[string]any{"id": true, "name": true},
			expr:    map[string]any{"name": refExpr("random_pet.p.id", "random_pet.p")}},
			zoneID + "/virtualNetworkLinks/" + NameUnknown},
		{"resource group unknown too", rc{addr: "azurerm_route_table.rt", actions: create,
			after:   map[string]any{"name": "rt-new", "location": "westeurope"},
			unknown: map[string]any{"id": true, "resource_group_name": true},
			expr:    map[string]any{"name": constExpr("rt-new")}},
			"/subscriptions/" + sub1 + "/resourceGroups/" + NameUnknown + "/providers/Microsoft.Network/routeTables/rt-new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, planSpec{changes: []rc{tc.change}, providerSub: sub1}, Options{})
			checkOps(t, p)
			op := opFor(t, p, OpCreateUnnamed, tc.wantID)
			if op.Address != tc.change.addr || len(op.Unknown) != 1 || !strings.Contains(op.Unknown[0], "known only after apply") {
				t.Errorf("op = %+v", op)
			}
			if len(p.Ops) != 1 || len(p.Untranslatable) != 0 || len(p.Unsupported) != 0 {
				t.Errorf("want exactly the unnamed create:\n%s", opsString(p))
			}
		})
	}
	// An update or delete never becomes an unnamed create, and a create
	// whose names are known is a put.
	known := rc{addr: "azurerm_subnet.batch", actions: create,
		after:   map[string]any{"name": "snet-batch", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.16.0/24"}},
		unknown: map[string]any{"id": true}, expr: map[string]any{"name": constExpr("snet-batch")}}
	p := mustParse(t, planSpec{changes: []rc{known}, providerSub: sub1}, Options{})
	opFor(t, p, OpPut, spkNet+"/subnets/snet-batch")
	upd := rc{addr: "azurerm_subnet.batch", actions: update,
		before:  map[string]any{"name": "snet-batch"},
		after:   map[string]any{"resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke"},
		unknown: map[string]any{"name": true}, expr: map[string]any{}}
	p = mustParse(t, planSpec{changes: []rc{upd}, providerSub: sub1}, Options{})
	if len(p.Ops) != 0 || len(p.Untranslatable) != 1 {
		t.Errorf("an update with an unknown name:\n%s", opsString(p))
	}
}

// TestReferencesToNewResourcesOfUntranslatedTypes: a rule collection group
// of a firewall policy the plan creates resolves the policy's id from its
// names; the policy itself is reported as not translated.
func TestReferencesToNewResourcesOfUntranslatedTypes(t *testing.T) {
	policy := rc{addr: "azurerm_firewall_policy.hub", actions: create,
		after:   map[string]any{"name": "fwp-new", "resource_group_name": "rg-hub", "location": "westeurope"},
		unknown: map[string]any{"id": true}, expr: map[string]any{"name": constExpr("fwp-new")}}
	rcg := rc{addr: "azurerm_firewall_policy_rule_collection_group.aks", actions: create,
		after: map[string]any{"name": "rcg-aks", "priority": 200.0, "network_rule_collection": []any{}, "application_rule_collection": []any{},
			"nat_rule_collection": []any{}},
		unknown: map[string]any{"id": true, "firewall_policy_id": true},
		expr:    map[string]any{"firewall_policy_id": refExpr("azurerm_firewall_policy.hub.id", "azurerm_firewall_policy.hub")}}
	p := mustParse(t, planSpec{changes: []rc{policy, rcg}, providerSub: sub1}, Options{})
	checkOps(t, p)
	opFor(t, p, OpPut, rgHub+"/providers/Microsoft.Network/firewallPolicies/fwp-new/ruleCollectionGroups/rcg-aks")
	if _, bad := problemFor(p, rcg.addr); bad {
		t.Errorf("the group is untranslatable:\n%s", opsString(p))
	}
	// Without the policy in the plan the reference cannot resolve.
	p = mustParse(t, planSpec{changes: []rc{rcg}, providerSub: sub1}, Options{})
	if _, bad := problemFor(p, rcg.addr); !bad {
		t.Errorf("a reference to nothing resolved:\n%s", opsString(p))
	}
	for typ := range idOnlyTypes {
		if _, translated := translators[typ]; translated {
			continue
		}
		if !strings.HasPrefix(typ, "azurerm_") {
			t.Errorf("%s is not an azurerm type", typ)
		}
	}
}
