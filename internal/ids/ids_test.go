// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package ids

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const sub = "00000000-0000-0000-0000-000000000001"

func TestParse(t *testing.T) {
	vnet := "/subscriptions/" + sub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
	tests := []struct {
		name string
		in   string
		want ResourceID
	}{
		{
			name: "virtual network",
			in:   vnet,
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "rg-hub", Provider: "Microsoft.Network",
				Types: []string{"virtualNetworks"}, Names: []string{"vnet-hub"}},
		},
		{
			name: "subnet",
			in:   vnet + "/subnets/snet-aks",
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "rg-hub", Provider: "Microsoft.Network",
				Types: []string{"virtualNetworks", "subnets"}, Names: []string{"vnet-hub", "snet-aks"}},
		},
		{
			name: "keywords in any casing, names kept",
			in:   "/SUBSCRIPTIONS/" + sub + "/resourcegroups/MC_RG_aks1/PROVIDERS/microsoft.network/VirtualNetworks/Vnet",
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "MC_RG_aks1", Provider: "microsoft.network",
				Types: []string{"VirtualNetworks"}, Names: []string{"Vnet"}},
		},
		{
			name: "subscription",
			in:   "/subscriptions/" + sub,
			want: ResourceID{SubscriptionID: sub},
		},
		{
			name: "resource group",
			in:   "/subscriptions/" + sub + "/resourceGroups/rg",
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "rg"},
		},
		{
			name: "subscription-level resource",
			in:   "/subscriptions/" + sub + "/providers/Microsoft.Authorization/roleDefinitions/7f951dda-4ed3-4680-a7ca-43fe172d538d",
			want: ResourceID{SubscriptionID: sub, Provider: "Microsoft.Authorization",
				Types: []string{"roleDefinitions"}, Names: []string{"7f951dda-4ed3-4680-a7ca-43fe172d538d"}},
		},
		{
			name: "extension resource keeps its scope",
			in:   "/subscriptions/" + sub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg/providers/Microsoft.Authorization/roleAssignments/ra1",
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "rg-hub", Provider: "Microsoft.Authorization",
				Types: []string{"roleAssignments"}, Names: []string{"ra1"},
				Scope: "/subscriptions/" + sub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"},
		},
		{
			name: "private DNS zone name with dots",
			in:   "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke",
			want: ResourceID{SubscriptionID: sub, ResourceGroup: "rg", Provider: "Microsoft.Network",
				Types: []string{"privateDnsZones", "virtualNetworkLinks"}, Names: []string{"privatelink.azurecr.io", "link-spoke"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			tt.want.raw = tt.in
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q)\n got %#v\nwant %#v", tt.in, got, tt.want)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want the input", got.String())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	vnet := "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v"
	tests := []struct {
		name, in, reason string
	}{
		{"empty", "", "is empty"},
		{"whitespace", " " + vnet, "leading or trailing whitespace"},
		{"url", "https://management.azure.com" + vnet, "is a URL"},
		{"relative", vnet[1:], "does not start with /subscriptions/"},
		{"resource group only path", "/resourceGroups/rg", "does not start with /subscriptions/"},
		{"trailing slash", vnet + "/", "trailing slash"},
		{"doubled slash", "/subscriptions/" + sub + "//resourceGroups/rg", "empty segment"},
		{"subscription name", "/subscriptions/my-sub/resourceGroups/rg", "not a GUID"},
		{"resource group without name", "/subscriptions/" + sub + "/resourceGroups", "no resource group name"},
		{"unknown keyword", "/subscriptions/" + sub + "/resourcegroup/rg", `"resourcegroup" where /providers/`},
		{"providers without namespace", "/subscriptions/" + sub + "/resourceGroups/rg/providers", "no resource provider namespace"},
		{"namespace without dot", "/subscriptions/" + sub + "/resourceGroups/rg/providers/virtualNetworks/v", "has no dot"},
		{"namespace without type", "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network", "no resource type"},
		{"type without name", vnet + "/subnets", `"subnets" without a name`},
		{"query", vnet + "?api-version=2024-05-01", "contains the character '?'"},
		{"space", "/subscriptions/" + sub + "/resourceGroups/my rg", "contains the character ' '"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want an error containing %q", tt.in, tt.reason)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", pe.Reason, tt.reason)
			}
		})
	}
}

func TestTypeNameParent(t *testing.T) {
	id := MustParse("/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s")
	if got, want := id.Type(), "Microsoft.Network/virtualNetworks/subnets"; got != want {
		t.Errorf("Type() = %q, want %q", got, want)
	}
	if !id.IsType("microsoft.network/VIRTUALNETWORKS/Subnets") {
		t.Error("IsType must compare case-insensitively")
	}
	if id.IsType("Microsoft.Network/virtualNetworks") {
		t.Error("a subnet is not a virtual network")
	}
	if id.Name() != "s" {
		t.Errorf("Name() = %q", id.Name())
	}
	p, ok := id.Parent()
	if !ok || p.String() != "/subscriptions/"+sub+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v" || !p.IsType("Microsoft.Network/virtualNetworks") {
		t.Errorf("Parent() = %q, %v", p.String(), ok)
	}
	if _, ok := p.Parent(); ok {
		t.Error("a top-level resource has no parent")
	}
	rg := MustParse("/subscriptions/" + sub + "/resourceGroups/rg")
	if rg.Type() != "" || rg.Name() != "rg" || rg.IsType("") {
		t.Errorf("resource group id: Type %q Name %q", rg.Type(), rg.Name())
	}
}

func TestCanonical(t *testing.T) {
	in := "/SUBSCRIPTIONS/" + sub + "/RESOURCEGROUPS/Rg/Providers/Microsoft.Network/virtualNetworks/V"
	want := "/subscriptions/" + sub + "/resourceGroups/Rg/providers/Microsoft.Network/virtualNetworks/V"
	if got := MustParse(in).Canonical(); got != want {
		t.Errorf("Canonical() = %q, want %q", got, want)
	}
	ext := "/subscriptions/" + sub + "/resourcegroups/rg/providers/A.B/t/n/PROVIDERS/Microsoft.Authorization/roleAssignments/x"
	wantExt := "/subscriptions/" + sub + "/resourceGroups/rg/providers/A.B/t/n/providers/Microsoft.Authorization/roleAssignments/x"
	if got := MustParse(ext).Canonical(); got != wantExt {
		t.Errorf("Canonical() = %q, want %q", got, wantExt)
	}
}

// FuzzParseResourceID checks the parser's invariants on arbitrary input: it
// never panics; an accepted id has consistent parts, round-trips through
// Canonical, and keeps every name as written.
func FuzzParseResourceID(f *testing.F) {
	for _, seed := range []string{
		"",
		"/",
		"/subscriptions/",
		"/subscriptions/" + sub,
		"/subscriptions/" + sub + "/resourceGroups/rg",
		"/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v",
		"/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s",
		"/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/",
		"/subscriptions/" + sub + "/resourceGroups/rg/providers/A.B/t/n/providers/Microsoft.Authorization/roleAssignments/x",
		"/SUBSCRIPTIONS/" + sub + "/RESOURCEGROUPS/rg/PROVIDERS/a.b/t/n",
		"/subscriptions/" + sub + "//x",
		"/subscriptions/" + sub + "/providers/Microsoft.Authorization/roleDefinitions/7f951dda",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.ID != s {
				t.Fatalf("Parse(%q) error %v is not a complete *ParseError", s, err)
			}
			return
		}
		if id.String() != s {
			t.Fatalf("String() = %q, want %q", id.String(), s)
		}
		if len(id.Types) != len(id.Names) {
			t.Fatalf("%d types but %d names", len(id.Types), len(id.Names))
		}
		if (id.Provider == "") != (len(id.Types) == 0) {
			t.Fatalf("provider %q with %d types", id.Provider, len(id.Types))
		}
		for i := range id.Names {
			if id.Names[i] == "" || id.Types[i] == "" {
				t.Fatalf("empty type or name in %#v", id)
			}
		}
		if !IsGUID(id.SubscriptionID) {
			t.Fatalf("subscription %q accepted", id.SubscriptionID)
		}
		c := id.Canonical()
		again, err := Parse(c)
		if err != nil {
			t.Fatalf("Canonical() %q of %q does not parse: %v", c, s, err)
		}
		if !strings.EqualFold(c, s) {
			t.Fatalf("Canonical() %q differs from %q in more than case", c, s)
		}
		if again.Canonical() != c || again.Type() != id.Type() || again.Name() != id.Name() {
			t.Fatalf("round trip changed the id: %#v vs %#v", again, id)
		}
		if p, ok := id.Parent(); ok {
			if _, err := Parse(p.String()); err != nil {
				t.Fatalf("Parent() %q does not parse: %v", p.String(), err)
			}
		}
	})
}

func TestReadPermission(t *testing.T) {
	rg := "/subscriptions/" + sub + "/resourceGroups/rg"
	for id, want := range map[string]string{
		rg + "/providers/Microsoft.Network/virtualNetworks/v":                                               "Microsoft.Network/virtualNetworks/read",
		rg + "/providers/Microsoft.Network/virtualNetworks/v/subnets/s":                                     "Microsoft.Network/virtualNetworks/subnets/read",
		rg + "/providers/Microsoft.Compute/virtualMachineScaleSets/v/virtualMachines/0/networkInterfaces/n": "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces/read",
		rg:          "",
		"not-an-id": "",
	} {
		if got := ReadPermission(id); got != want {
			t.Errorf("ReadPermission(%s) = %q, want %q", id, got, want)
		}
	}
}

func TestIsGUID(t *testing.T) {
	for s, want := range map[string]bool{
		"00000000-0000-0000-0000-000000000001":  true,
		"ABCDEF01-abcd-4BCD-8bcd-0123456789AB":  true,
		"00000000-0000-0000-0000-00000000000":   false,
		"00000000-0000-0000-0000-0000000000001": false,
		"00000000_0000-0000-0000-000000000001":  false,
		"g0000000-0000-0000-0000-000000000001":  false,
		"my-subscription":                       false,
		"":                                      false,
	} {
		if got := IsGUID(s); got != want {
			t.Errorf("IsGUID(%q) = %v, want %v", s, got, want)
		}
	}
}
