package planned

import (
	"testing"
)

// TestAzurermV3DefaultsAreNotUnknown: azurerm 3.x leaves Optional+Computed
// attributes unknown on a create when the configuration does not set them.
// Those with a documented default take it; the same attribute set in the
// configuration, set by another change, unknown on an update, or in a plan
// without configuration stays unknown.
func TestAzurermV3DefaultsAreNotUnknown(t *testing.T) {
	newVNet := func(expr map[string]any, actions []string) rc {
		return rc{addr: "azurerm_virtual_network.spoke2", actions: actions,
			after: map[string]any{"name": "vnet-spoke2", "resource_group_name": "rg-spoke", "location": "westeurope",
				"address_space": []any{"10.5.0.0/16"}, "tags": map[string]any{}},
			unknown: map[string]any{"id": true, "guid": true, "dns_servers": true, "subnet": true},
			expr:    expr}
	}
	vnetExpr := map[string]any{"name": constExpr("vnet-spoke2"), "address_space": constExpr([]any{"10.5.0.0/16"})}
	vnet2 := rgSpk + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke2"
	dnsSetter := func(refs ...string) rc {
		return rc{addr: "azurerm_virtual_network_dns_servers.x", actions: create,
			after:   map[string]any{"dns_servers": []any{"10.0.3.4"}},
			unknown: map[string]any{"id": true, "virtual_network_id": true},
			expr:    map[string]any{"virtual_network_id": refExpr(refs...)}}
	}
	otherVNet := rc{addr: "azurerm_virtual_network.other", actions: create,
		after:   map[string]any{"name": "vnet-other", "resource_group_name": "rg-spoke", "location": "westeurope", "address_space": []any{"10.6.0.0/16"}},
		unknown: map[string]any{"id": true, "dns_servers": true},
		expr:    map[string]any{"name": constExpr("vnet-other")}}

	for _, tc := range []struct {
		name        string
		changes     []rc
		wantUnknown bool
	}{
		{"v3 create, dns_servers unset: Azure DNS", []rc{newVNet(vnetExpr, create)}, false},
		{"replace, dns_servers unset: Azure DNS", []rc{newVNet(vnetExpr, replace)}, false},
		{"dns_servers set from a value known after apply", []rc{newVNet(map[string]any{"name": constExpr("vnet-spoke2"), "dns_servers": refExpr("azurerm_firewall.hub.ip_configuration")}, create)}, true},
		{"an azurerm_virtual_network_dns_servers of the plan sets it", []rc{newVNet(vnetExpr, create), dnsSetter("azurerm_virtual_network.spoke2.id", "azurerm_virtual_network.spoke2")}, true},
		{"a dns_servers resource whose target is not known", []rc{newVNet(vnetExpr, create), dnsSetter()}, true},
		{"a dns_servers resource of another VNet", []rc{newVNet(vnetExpr, create), otherVNet, dnsSetter("azurerm_virtual_network.other.id", "azurerm_virtual_network.other")}, false},
		{"no configuration in the plan", []rc{newVNet(nil, create)}, true},
		{"an update keeps what it does not know", []rc{newVNet(vnetExpr, update)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, planSpec{changes: tc.changes, providerSub: sub1}, Options{})
			checkOps(t, p)
			kind := OpPut
			op := opFor(t, p, kind, vnet2)
			if got := hasUnknown(op, "properties.dhcpOptions.dnsServers"); got != tc.wantUnknown {
				t.Errorf("dnsServers unknown = %v, want %v (ops:\n%s)", got, tc.wantUnknown, opsString(p))
			}
			if !tc.wantUnknown {
				want(t, op, map[string]any{"properties.dhcpOptions.dnsServers": []any{}})
			}
		})
	}
}

// TestAzurermV3SubnetPolicyDefaults: a new v3 subnet whose private
// endpoint network policy attributes are unknown and unset has policies
// Enabled (the provider's default); set in the configuration, they stay
// unknown.
func TestAzurermV3SubnetPolicyDefaults(t *testing.T) {
	sn := func(expr map[string]any) rc {
		return rc{addr: "azurerm_subnet.batch", actions: create,
			after: map[string]any{"name": "snet-batch", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke",
				"address_prefixes": []any{"10.1.16.0/24"}, "service_endpoints": nil, "delegation": []any{}},
			unknown: map[string]any{"id": true, "private_endpoint_network_policies_enabled": true, "enforce_private_link_endpoint_network_policies": true,
				"private_link_service_network_policies_enabled": true, "enforce_private_link_service_network_policies": true},
			expr: expr}
	}
	batch := spkNet + "/subnets/snet-batch"
	p := mustParse(t, planSpec{changes: []rc{sn(map[string]any{"name": constExpr("snet-batch")})}, providerSub: sub1}, Options{})
	op := opFor(t, p, OpPut, batch)
	if len(op.Unknown) != 0 {
		t.Errorf("unknown = %v, want none", op.Unknown)
	}
	want(t, op, map[string]any{"properties.privateEndpointNetworkPolicies": "Enabled", "properties.privateLinkServiceNetworkPolicies": "Enabled"})

	p = mustParse(t, planSpec{changes: []rc{sn(map[string]any{"name": constExpr("snet-batch"), "private_endpoint_network_policies_enabled": refExpr("var.policies")})}, providerSub: sub1}, Options{})
	op = opFor(t, p, OpPut, batch)
	if !hasUnknown(op, "properties.privateEndpointNetworkPolicies") {
		t.Errorf("a configured value known after apply lost its unknown mark: %v", op.Unknown)
	}
}

// TestDefaultsTableHasSources: every default names where it is
// documented.
func TestDefaultsTableHasSources(t *testing.T) {
	for typ, defs := range attrDefaults {
		if _, ok := translators[typ]; !ok {
			t.Errorf("%s has defaults but is not translated", typ)
		}
		for _, d := range defs {
			if d.attr == "" || d.source == "" {
				t.Errorf("%s: default %+v without attribute or source", typ, d)
			}
		}
	}
}
