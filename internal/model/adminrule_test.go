// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "testing"

func TestSecurityAdminRuleNames(t *testing.T) {
	r := SecurityAdminRule{ID: "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkManagers/nm/securityAdminConfigurations/cfg/ruleCollections/rc/rules/deny-https"}
	if r.Manager() != "nm" || r.Configuration() != "cfg" || r.Collection() != "rc" || r.Rule() != "deny-https" {
		t.Errorf("names %q %q %q %q", r.Manager(), r.Configuration(), r.Collection(), r.Rule())
	}
	if r.ConfigurationKey() != "nm/cfg" {
		t.Errorf("key %q", r.ConfigurationKey())
	}
	// Names are read by type, not by the first segment that looks like one.
	odd := SecurityAdminRule{ID: "/subscriptions/s/resourceGroups/rules/providers/Microsoft.Network/networkManagers/ruleCollections/securityAdminConfigurations/c/ruleCollections/rules/rules/r"}
	if odd.Manager() != "ruleCollections" || odd.Configuration() != "c" || odd.Collection() != "rules" || odd.Rule() != "r" {
		t.Errorf("names %q %q %q %q", odd.Manager(), odd.Configuration(), odd.Collection(), odd.Rule())
	}
}

func TestAdminRulesApply(t *testing.T) {
	const net = "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/"
	for _, tc := range []struct {
		s    Subnet
		want bool
	}{
		{Subnet{Name: "snet-aks"}, true},
		{Subnet{Name: "AzureFirewallSubnet"}, false},
		{Subnet{Name: "gatewaysubnet"}, false},
		{Subnet{Name: "AzureBastionSubnet"}, false},
		{Subnet{Name: "RouteServerSubnet"}, false},
		{Subnet{Name: "snet-appgw", IPConfigurationIDs: []ResourceID{net + "applicationGateways/agw/applicationGatewayIPConfigurations/ip"}}, false},
		{Subnet{Name: "snet-vm", IPConfigurationIDs: []ResourceID{net + "networkInterfaces/nic/ipConfigurations/ip"}}, true},
	} {
		if got := tc.s.AdminRulesApply(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.s.Name, got, tc.want)
		}
	}
}

func TestAdminRulesOf(t *testing.T) {
	vnet := ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v")
	if a, g := (&Network{}).AdminRulesOf(vnet); g != nil || len(a.Rules) != 0 {
		t.Errorf("a network built without admin rule reads: %v %v", a, g)
	}
	n := &Network{AdminRules: map[string]*AdminRules{}, Gaps: Gaps{}}
	if _, g := n.AdminRulesOf(vnet); g == nil {
		t.Error("a VNet gather did not read has no gap")
	}
	n.Gaps.Add(Gap{ResourceID: AdminRulesAction(vnet), Kind: GapPermissionDenied, Permission: "p"})
	if _, g := n.AdminRulesOf(vnet); g == nil || g.Kind != GapPermissionDenied {
		t.Errorf("the read's gap: %v", g)
	}
	n.AdminRules[vnet.Key()] = &AdminRules{VNetID: vnet}
	if a, g := n.AdminRulesOf(vnet); g != nil || a == nil {
		t.Errorf("read rules: %v %v", a, g)
	}
}
