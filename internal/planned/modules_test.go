package planned

import (
	"encoding/json"
	"testing"
)

// modulesPlan: module.network creates subnet snet-aks2 (its id unknown)
// and outputs its id; module.aks["prod west"] and module.aks["dev"]
// (for_each keys with a space) each create a node pool whose
// vnet_subnet_id is var.subnet_id, which the root feeds from
// module.network.subnet_id; module.links["a b"] creates a zone link whose
// virtual_network_id is its input vnet_id, fed from the output of the
// instance module.spokes["a b"] (the same key).
func modulesPlan(t *testing.T, outputExpr map[string]any) []byte {
	t.Helper()
	az := azurerm
	subnet := map[string]any{"address": "module.network.azurerm_subnet.aks", "module_address": "module.network", "mode": "managed", "type": "azurerm_subnet", "name": "aks", "provider_name": az,
		"change": map[string]any{"actions": []any{"create"}, "before": nil,
			"after":         map[string]any{"name": "snet-aks2", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.20.0/22"}},
			"after_unknown": map[string]any{"id": true}}}
	pool := func(key string) map[string]any {
		return map[string]any{"address": `module.aks["` + key + `"].azurerm_kubernetes_cluster_node_pool.user`, "module_address": `module.aks["` + key + `"]`, "mode": "managed",
			"type": "azurerm_kubernetes_cluster_node_pool", "name": "user", "provider_name": az,
			"change": map[string]any{"actions": []any{"create"}, "before": nil,
				"after":         map[string]any{"name": "user", "kubernetes_cluster_id": rgSpk + "/providers/Microsoft.ContainerService/managedClusters/aks1", "node_count": 2},
				"after_unknown": map[string]any{"id": true, "vnet_subnet_id": true}}}
	}
	spokeVNet := map[string]any{"address": `module.spokes["a b"].azurerm_virtual_network.this`, "module_address": `module.spokes["a b"]`, "mode": "managed",
		"type": "azurerm_virtual_network", "name": "this", "provider_name": az,
		"change": map[string]any{"actions": []any{"create"}, "before": nil,
			"after":         map[string]any{"name": "vnet-ab", "resource_group_name": "rg-spoke", "location": "westeurope", "address_space": []any{"10.9.0.0/16"}, "dns_servers": []any{}},
			"after_unknown": map[string]any{"id": true}}}
	link := map[string]any{"address": `module.links["a b"].azurerm_private_dns_zone_virtual_network_link.this`, "module_address": `module.links["a b"]`, "mode": "managed",
		"type": "azurerm_private_dns_zone_virtual_network_link", "name": "this", "provider_name": az, "index": nil,
		"change": map[string]any{"actions": []any{"create"}, "before": nil,
			"after":         map[string]any{"name": "link-ab", "resource_group_name": "rg-hub", "private_dns_zone_name": "privatelink.azurecr.io", "registration_enabled": false},
			"after_unknown": map[string]any{"id": true, "virtual_network_id": true}}}
	res := func(typ, name string, expr map[string]any) map[string]any {
		return map[string]any{"address": typ + "." + name, "mode": "managed", "type": typ, "name": name, "provider_config_key": "azurerm", "expressions": expr}
	}
	cfg := map[string]any{
		"provider_config": map[string]any{"azurerm": map[string]any{"name": "azurerm", "full_name": az,
			"expressions": map[string]any{"subscription_id": map[string]any{"constant_value": sub1}}}},
		"root_module": map[string]any{"module_calls": map[string]any{
			"network": map[string]any{"source": "./network", "module": map[string]any{
				"resources": []any{res("azurerm_subnet", "aks", map[string]any{"name": constExpr("snet-aks2")})},
				"outputs":   map[string]any{"subnet_id": map[string]any{"expression": outputExpr}}}},
			"aks": map[string]any{"source": "./aks", "for_each_expression": refExpr("var.pools"),
				"expressions": map[string]any{"subnet_id": refExpr("module.network.subnet_id", "module.network")},
				"module": map[string]any{
					"resources": []any{res("azurerm_kubernetes_cluster_node_pool", "user", map[string]any{"vnet_subnet_id": refExpr("var.subnet_id")})},
					"variables": map[string]any{"subnet_id": map[string]any{}}}},
			"spokes": map[string]any{"source": "./spoke", "for_each_expression": refExpr("var.spokes"),
				"module": map[string]any{
					"resources": []any{res("azurerm_virtual_network", "this", map[string]any{"name": refExpr("each.key")})},
					"outputs":   map[string]any{"vnet_id": map[string]any{"expression": refExpr("azurerm_virtual_network.this.id", "azurerm_virtual_network.this")}}}},
			"links": map[string]any{"source": "./link", "for_each_expression": refExpr("var.spokes"),
				"expressions": map[string]any{"vnet_id": refExpr("module.spokes", "each.key")},
				"module": map[string]any{
					"resources": []any{res("azurerm_private_dns_zone_virtual_network_link", "this", map[string]any{"virtual_network_id": refExpr("var.vnet_id")})}}},
		}}}
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.9.8",
		"resource_changes": []any{subnet, pool("prod west"), pool("dev"), spokeVNet, link}, "configuration": cfg}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReferencesThroughModules: ids known only after apply are followed
// through module inputs and outputs to the resource that has them, in
// every instance of a for_each module whose keys hold spaces; an output
// that does not lead to a resource stays unknown.
func TestReferencesThroughModules(t *testing.T) {
	sn := spkNet + "/subnets/snet-aks2"
	p, err := Parse(modulesPlan(t, refExpr("azurerm_subnet.aks.id", "azurerm_subnet.aks")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkOps(t, p)
	for _, key := range []string{"prod west", "dev"} {
		var found bool
		for _, o := range p.Ops {
			if o.Address == `module.aks["`+key+`"].azurerm_kubernetes_cluster_node_pool.user` {
				found = true
				want(t, o, map[string]any{"properties.vnetSubnetID": sn})
				if hasUnknown(o, "properties.vnetSubnetID") {
					t.Errorf("%s: subnet id still unknown", o.Address)
				}
			}
		}
		if !found {
			t.Errorf("no op of module.aks[%q]:\n%s", key, opsString(p))
		}
	}
	// The link's input is fed by a whole module object (module.spokes
	// with each.key): not a reference to one id, so it stays unknown.
	for _, o := range p.Ops {
		if o.Type == "azurerm_private_dns_zone_virtual_network_link" && !hasUnknown(o, "properties.virtualNetwork.id") {
			t.Errorf("a link fed by a whole module object resolved: %+v", o)
		}
	}

	// An output that is not a resource's id leaves the pools' subnet
	// unknown.
	p, err = Parse(modulesPlan(t, refExpr("var.cidr")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range p.Ops {
		if o.Type == "azurerm_kubernetes_cluster_node_pool" && !hasUnknown(o, "properties.vnetSubnetID") {
			t.Errorf("%s: subnet id resolved from an output that names no resource", o.Address)
		}
	}
}

func TestSplitModuleAddr(t *testing.T) {
	for in, want := range map[string]string{
		`module.a`:                         `a||`,
		`module.a["x y"].module.b[0]`:      `a|"x y"|b|0|`,
		`module.a["k.with]dots"].module.b`: `a|"k.with]dots"|b||`,
		`module.a["q\"uote"]`:              `a|"q\"uote"|`,
	} {
		segs, ok := splitModuleAddr(in)
		got := ""
		for _, s := range segs {
			got += s.name + "|" + s.key + "|"
		}
		if !ok || got != want {
			t.Errorf("splitModuleAddr(%s) = %q, %v; want %q", in, got, ok, want)
		}
		if joinModuleAddr(segs) != in {
			t.Errorf("joinModuleAddr(splitModuleAddr(%s)) = %s", in, joinModuleAddr(segs))
		}
	}
	for _, bad := range []string{`module.`, `module.a[`, `module.a["x]`, `mod.a`, `module.a.b`} {
		if _, ok := splitModuleAddr(bad); ok {
			t.Errorf("splitModuleAddr(%s) accepted", bad)
		}
	}
}
