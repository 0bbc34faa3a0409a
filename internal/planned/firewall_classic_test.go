package planned

import "testing"

// TestClassicFirewallCollections: the classic rule collections are puts of
// the firewall's embedded collections, in the REST shape gather reads; a
// rule known only after apply makes the collection's rules unknown.
func TestClassicFirewallCollections(t *testing.T) {
	fw := rgHub + "/providers/Microsoft.Network/azureFirewalls/fw-hub"
	netc := rc{addr: "azurerm_firewall_network_rule_collection.aks", actions: create,
		after: map[string]any{"name": "aks-egress", "azure_firewall_name": "fw-hub", "resource_group_name": "rg-hub", "priority": 200.0, "action": "Allow",
			"rule": []any{map[string]any{"name": "ntp", "source_addresses": []any{"10.1.0.0/22"}, "destination_addresses": []any{"*"}, "destination_ports": []any{"123"},
				"protocols": []any{"UDP"}, "destination_fqdns": []any{}, "source_ip_groups": []any{}, "destination_ip_groups": []any{}}}},
		unknown: map[string]any{"id": true}, expr: map[string]any{"name": constExpr("aks-egress")}}
	appc := rc{addr: "azurerm_firewall_application_rule_collection.acr", actions: update,
		before: map[string]any{"id": fw + "/applicationRuleCollections/acr"},
		after: map[string]any{"id": fw + "/applicationRuleCollections/acr", "name": "acr", "azure_firewall_name": "fw-hub", "resource_group_name": "rg-hub", "priority": 300.0, "action": "Allow",
			"rule": []any{map[string]any{"name": "registry", "source_addresses": []any{"10.1.0.0/22"}, "target_fqdns": []any{"contosoreg.azurecr.io"},
				"fqdn_tags": []any{}, "protocol": []any{map[string]any{"type": "Https", "port": 443.0}}}}},
		unknown: map[string]any{}, expr: map[string]any{}}
	p := mustParse(t, planSpec{changes: []rc{netc, appc}, providerSub: sub1}, Options{})
	checkOps(t, p)
	n := opFor(t, p, OpPut, fw+"/networkRuleCollections/aks-egress")
	want(t, n, map[string]any{"name": "aks-egress", "properties.priority": 200, "properties.action.type": "Allow",
		"properties.rules.#0.protocols": []any{"UDP"}, "properties.rules.#0.destinationPorts": []any{"123"}})
	a := opFor(t, p, OpPut, fw+"/applicationRuleCollections/acr")
	want(t, a, map[string]any{"properties.rules.#0.targetFqdns": []any{"contosoreg.azurecr.io"},
		"properties.rules.#0.protocols": []any{map[string]any{"protocolType": "Https", "port": 443}}})
	if len(n.Unknown)+len(a.Unknown) != 0 {
		t.Errorf("unknowns: %v %v", n.Unknown, a.Unknown)
	}
	// A destination known only after apply (a new private endpoint's
	// address) leaves the rules unknown.
	netc.unknown = map[string]any{"id": true, "rule": []any{map[string]any{"destination_addresses": true}}}
	p = mustParse(t, planSpec{changes: []rc{netc}, providerSub: sub1}, Options{})
	if n := opFor(t, p, OpPut, fw+"/networkRuleCollections/aks-egress"); !hasUnknown(n, "properties.rules") {
		t.Errorf("rules with an unknown destination are known: %v", n.Unknown)
	}
	// No priority: untranslatable, with the reason.
	delete(netc.after, "priority")
	p = mustParse(t, planSpec{changes: []rc{netc}, providerSub: sub1}, Options{})
	if pr, ok := problemFor(p, netc.addr); !ok || pr.Reason != "its priority is missing" {
		t.Errorf("problem = %+v, %v", pr, ok)
	}
}
