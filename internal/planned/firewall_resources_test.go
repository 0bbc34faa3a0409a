// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

import "testing"

// TestAzureFirewall: an azurerm_firewall update is the firewall with its
// private address, forced tunnelling, policy, tier and the classic DNS and
// SNAT settings as Azure keeps them (additional properties); a new
// firewall's private address is known only after apply.
func TestAzureFirewall(t *testing.T) {
	fw := rgHub + "/providers/Microsoft.Network/azureFirewalls/fw-hub"
	pol := rgHub + "/providers/Microsoft.Network/firewallPolicies/fwpol-hub"
	fwSn, mgmtSn := hubNet+"/subnets/AzureFirewallSubnet", hubNet+"/subnets/AzureFirewallManagementSubnet"
	pip := rgHub + "/providers/Microsoft.Network/publicIPAddresses/pip-fw"
	vals := map[string]any{"id": fw, "name": "fw-hub", "resource_group_name": "rg-hub", "location": "westeurope", "sku_name": "AZFW_VNet", "sku_tier": "Standard",
		"firewall_policy_id": pol, "threat_intel_mode": "Alert", "dns_servers": []any{"10.0.5.4"}, "dns_proxy_enabled": false, "private_ip_ranges": []any{"0.0.0.0/0"},
		"ip_configuration":            []any{map[string]any{"name": "ipc", "subnet_id": fwSn, "public_ip_address_id": pip, "private_ip_address": "10.0.1.4"}},
		"management_ip_configuration": []any{map[string]any{"name": "mgmt", "subnet_id": mgmtSn, "public_ip_address_id": pip, "private_ip_address": "10.0.2.4"}},
		"virtual_hub":                 []any{}, "zones": []any{}, "tags": map[string]any{}}
	upd := rc{addr: "azurerm_firewall.hub", actions: update, before: vals, after: vals, unknown: map[string]any{}, expr: map[string]any{}}
	p := mustParse(t, planSpec{changes: []rc{upd}, providerSub: sub1}, Options{})
	checkOps(t, p)
	op := opFor(t, p, OpPut, fw)
	want(t, op, map[string]any{
		"properties.sku.tier": "Standard", "properties.threatIntelMode": "Alert", "properties.firewallPolicy.id": pol,
		"properties.ipConfigurations.#0.properties.privateIPAddress": "10.0.1.4",
		"properties.ipConfigurations.#0.properties.subnet.id":        fwSn,
		"properties.managementIpConfiguration.properties.subnet.id":  mgmtSn,
		"properties.additionalProperties":                            map[string]any{"Network.DNS.EnableProxy": "false", "Network.DNS.Servers": "10.0.5.4", "Network.SNAT.PrivateRanges": "0.0.0.0/0"},
	})
	if len(op.Unknown) != 0 {
		t.Errorf("unknowns of a known firewall: %v", op.Unknown)
	}

	// A new firewall without the classic settings: Azure's defaults (no
	// additional properties), no forced tunnelling, its address unknown.
	created := map[string]any{"name": "fw-new", "resource_group_name": "rg-hub", "location": "westeurope", "sku_name": "AZFW_VNet", "sku_tier": "Premium",
		"dns_servers": nil, "private_ip_ranges": nil, "firewall_policy_id": nil,
		"ip_configuration":            []any{map[string]any{"name": "ipc", "subnet_id": fwSn, "public_ip_address_id": pip}},
		"management_ip_configuration": []any{}, "virtual_hub": []any{}, "tags": map[string]any{}}
	add := rc{addr: "azurerm_firewall.new", actions: create, after: created,
		unknown: map[string]any{"id": true, "threat_intel_mode": true, "dns_proxy_enabled": true, "ip_configuration": []any{map[string]any{"private_ip_address": true}}},
		expr:    map[string]any{"name": constExpr("fw-new")}}
	p = mustParse(t, planSpec{changes: []rc{add}, providerSub: sub1}, Options{})
	checkOps(t, p)
	op = opFor(t, p, OpPut, rgHub+"/providers/Microsoft.Network/azureFirewalls/fw-new")
	want(t, op, map[string]any{"properties.sku.tier": "Premium", "properties.managementIpConfiguration": nil, "properties.firewallPolicy": nil})
	if !hasUnknown(op, "properties.ipConfigurations.privateIPAddress") || !hasUnknown(op, "properties.additionalProperties.Network.DNS.EnableProxy") {
		t.Errorf("a new firewall's address and proxy flag are known: %v", op.Unknown)
	}
	if hasUnknown(op, "properties.additionalProperties.Network.SNAT.PrivateRanges") {
		t.Errorf("SNAT ranges the configuration does not set are unknown: %v", op.Unknown)
	}
}

// TestFirewallPolicy: an azurerm_firewall_policy change is the policy's DNS
// proxy and servers, SNAT ranges, TLS certificate, parent and tier; a
// policy without a dns block has the proxy off (Azure's default) only when
// the block is absent, not when it is unknown.
func TestFirewallPolicy(t *testing.T) {
	pol := rgHub + "/providers/Microsoft.Network/firewallPolicies/fwpol-hub"
	parent := rgHub + "/providers/Microsoft.Network/firewallPolicies/fwpol-base"
	before := map[string]any{"id": pol, "name": "fwpol-hub", "resource_group_name": "rg-hub", "location": "westeurope", "sku": "Premium",
		"base_policy_id": parent, "threat_intelligence_mode": "Alert", "private_ip_ranges": []any{}, "auto_learn_private_ranges_enabled": false,
		"dns":             []any{map[string]any{"proxy_enabled": true, "servers": []any{"10.0.5.4"}}},
		"tls_certificate": []any{map[string]any{"name": "ca", "key_vault_secret_id": "https://kv.vault.azure.net/secrets/ca"}}, "tags": map[string]any{}}
	after := map[string]any{}
	for k, v := range before {
		after[k] = v
	}
	after["dns"] = []any{map[string]any{"proxy_enabled": false, "servers": []any{}}}
	after["private_ip_ranges"] = []any{"0.0.0.0/0"}
	upd := rc{addr: "azurerm_firewall_policy.hub", actions: update, before: before, after: after, unknown: map[string]any{}, expr: map[string]any{}}
	p := mustParse(t, planSpec{changes: []rc{upd}, providerSub: sub1}, Options{})
	checkOps(t, p)
	op := opFor(t, p, OpPut, pol)
	want(t, op, map[string]any{
		"properties.dnsSettings":   map[string]any{"enableProxy": false, "servers": []any{}},
		"properties.snat":          map[string]any{"privateRanges": []any{"0.0.0.0/0"}, "autoLearnPrivateRanges": "Disabled"},
		"properties.basePolicy.id": parent, "properties.sku.tier": "Premium",
		"properties.transportSecurity.certificateAuthority.keyVaultSecretId": "https://kv.vault.azure.net/secrets/ca",
	})
	if len(op.Unknown) != 0 {
		t.Errorf("unknowns: %v", op.Unknown)
	}
	// The proxy set from a value known after apply: unknown, not off.
	upd.unknown = map[string]any{"dns": []any{map[string]any{"proxy_enabled": true}}}
	after["dns"] = []any{map[string]any{"proxy_enabled": nil, "servers": []any{}}}
	p = mustParse(t, planSpec{changes: []rc{upd}, providerSub: sub1}, Options{})
	op = opFor(t, p, OpPut, pol)
	if !hasUnknown(op, "properties.dnsSettings.enableProxy") {
		t.Errorf("an unknown proxy flag is known: %v %v", op.Unknown, at(op.Body, "properties.dnsSettings"))
	}
	// No dns block, no SNAT settings: none in the body (Azure's defaults).
	delete(after, "dns")
	after["private_ip_ranges"] = []any{}
	delete(after, "auto_learn_private_ranges_enabled")
	upd.unknown = map[string]any{}
	p = mustParse(t, planSpec{changes: []rc{upd}, providerSub: sub1}, Options{})
	want(t, opFor(t, p, OpPut, pol), map[string]any{"properties.dnsSettings": nil, "properties.snat": nil})
}
