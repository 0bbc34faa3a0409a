// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package ids

import (
	"slices"
	"testing"
)

func TestReadPath(t *testing.T) {
	const rg = "/subscriptions/s/resourceGroups/rg"
	for _, c := range []struct {
		in       string
		ok       bool
		scope    string
		typ      string
		names    []string
		trailing string
	}{
		// Resources, any depth, any casing, with or without outer slashes.
		{rg + "/providers/Microsoft.Network/virtualNetworks/v", true, rg, "Microsoft.Network/virtualNetworks", []string{"v"}, ""},
		{rg + "/providers/Microsoft.Network/virtualNetworks/v/subnets/sn", true, rg, "Microsoft.Network/virtualNetworks/subnets", []string{"v", "sn"}, ""},
		{"/SUBSCRIPTIONS/s/RESOURCEGROUPS/RG/PROVIDERS/MICROSOFT.NETWORK/VIRTUALNETWORKS/V", true, "/SUBSCRIPTIONS/s/RESOURCEGROUPS/RG", "MICROSOFT.NETWORK/VIRTUALNETWORKS", []string{"V"}, ""},
		{"subscriptions/s/resourcegroups/rg/providers/microsoft.network/virtualnetworks/v/", true, "/subscriptions/s/resourcegroups/rg", "microsoft.network/virtualnetworks", []string{"v"}, ""},
		{"/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/roleDefinitions/rd", true, "/subscriptions/00000000-0000-0000-0000-000000000001", "Microsoft.Authorization/roleDefinitions", []string{"rd"}, ""},
		// Listings: at a resource group, a subscription, a resource, the tenant.
		{rg + "/providers/Microsoft.Network/virtualNetworks", true, rg, "Microsoft.Network/virtualNetworks", nil, "virtualNetworks"},
		{"/subscriptions/s/providers/Microsoft.Network/privateDnsZones", true, "/subscriptions/s", "Microsoft.Network/privateDnsZones", nil, "privateDnsZones"},
		{rg + "/providers/Microsoft.Network/privateDnsZones/z/ALL", true, rg, "Microsoft.Network/privateDnsZones/ALL", []string{"z"}, "ALL"},
		{rg + "/providers/Microsoft.Network/virtualHubs/h/hubVirtualNetworkConnections", true, rg, "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections", []string{"h"}, "hubVirtualNetworkConnections"},
		{"/providers/Microsoft.ResourceGraph/resources", true, "", "Microsoft.ResourceGraph/resources", nil, "resources"},
		// Read actions.
		{rg + "/providers/Microsoft.Network/virtualNetworks/v/listDnsResolverPolicies", true, rg, "Microsoft.Network/virtualNetworks/listDnsResolverPolicies", []string{"v"}, "listDnsResolverPolicies"},
		{rg + "/providers/Microsoft.Network/virtualHubs/h/effectiveRoutes", true, rg, "Microsoft.Network/virtualHubs/effectiveRoutes", []string{"h"}, "effectiveRoutes"},
		{rg + "/providers/Microsoft.Network/virtualHubs/h/bgpConnections/p/learnedRoutes", true, rg, "Microsoft.Network/virtualHubs/bgpConnections/learnedRoutes", []string{"h", "p"}, "learnedRoutes"},
		{"/subscriptions/s/providers/Microsoft.Network/locations/westeurope/serviceTags", true, "/subscriptions/s", "Microsoft.Network/locations/serviceTags", []string{"westeurope"}, "serviceTags"},
		// Extension resources are typed by their own namespace; the id they
		// extend is the scope.
		{rg + "/providers/Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments/a", true, rg + "/providers/Microsoft.ContainerRegistry/registries/r", "Microsoft.Authorization/roleAssignments", []string{"a"}, ""},
		{rg + "/providers/Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments", true, rg + "/providers/Microsoft.ContainerRegistry/registries/r", "Microsoft.Authorization/roleAssignments", nil, "roleAssignments"},
		// A trailing "providers" is not a namespace: the one before it counts.
		{rg + "/providers/Microsoft.Network/virtualNetworks/v/providers", true, rg, "Microsoft.Network/virtualNetworks/providers", []string{"v"}, "providers"},
		// No type: no path.
		{"/subscriptions/s/providers/Microsoft.Network", false, "", "", nil, ""},
		{rg + "/providers", false, "", "", nil, ""},
		{rg, false, "", "", nil, ""},
		{"/subscriptions/s", false, "", "", nil, ""},
		{"not-an-id", false, "", "", nil, ""},
		{"", false, "", "", nil, ""},
	} {
		p, ok := ReadPath(c.in)
		if ok != c.ok {
			t.Errorf("ReadPath(%q) ok = %v, want %v", c.in, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if p.Scope != c.scope || p.Type() != c.typ || !slices.Equal(p.Names, c.names) || p.Trailing() != c.trailing {
			t.Errorf("ReadPath(%q) = scope %q type %q names %q trailing %q, want %q %q %q %q",
				c.in, p.Scope, p.Type(), p.Names, p.Trailing(), c.scope, c.typ, c.names, c.trailing)
		}
	}
}

func TestLeading(t *testing.T) {
	for _, c := range []struct{ in, sub, rg string }{
		{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", "s", "rg"},
		{"/SUBSCRIPTIONS/s/RESOURCEGROUPS/RG/providers/x.y/t/n", "s", "RG"},
		{"subscriptions/s/resourcegroups/rg/", "s", "rg"},
		{"/subscriptions/s/resourceGroups/rg", "s", "rg"},
		{"/subscriptions/s/resourceGroups", "s", ""},
		{"/subscriptions/s/providers/Microsoft.Network/privateDnsZones", "s", ""},
		{"/subscriptions/s", "s", ""},
		{"/subscriptions", "", ""},
		{"/providers/Microsoft.ResourceGraph/resources", "", ""},
		{"not-an-id", "", ""},
		{"", "", ""},
	} {
		if sub, rg := Leading(c.in); sub != c.sub || rg != c.rg {
			t.Errorf("Leading(%q) = %q %q, want %q %q", c.in, sub, rg, c.sub, c.rg)
		}
	}
}

func TestPathNameOf(t *testing.T) {
	const rule = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkManagers/nm/securityAdminConfigurations/cfg/ruleCollections/rules/rules/r"
	p, ok := ReadPath(rule)
	if !ok {
		t.Fatal("a rule id reads")
	}
	for typ, want := range map[string]string{
		"networkManagers":             "nm",
		"SECURITYADMINCONFIGURATIONS": "cfg",
		"ruleCollections":             "rules", // a collection named like a type
		"rules":                       "r",
		"resourceGroups":              "", // the scope is not a type
		"subnets":                     "",
	} {
		if got := p.NameOf(typ); got != want {
			t.Errorf("NameOf(%q) = %q, want %q", typ, got, want)
		}
	}
	if l, _ := ReadPath("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkManagers/nm/securityAdminConfigurations"); l.NameOf("securityAdminConfigurations") != "" {
		t.Error("a listing's last type has no name")
	}
}
