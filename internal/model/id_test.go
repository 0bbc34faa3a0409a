package model

import "testing"

// Equal and the network's lookups compare ids as Key does: case-insensitive,
// a trailing slash ignored, whatever the casing ARM answered with.
func TestResourceIDEqualMatchesKey(t *testing.T) {
	ids := []ResourceID{
		"/subscriptions/s/resourceGroups/MC_rg_aks/providers/Microsoft.Network/virtualNetworks/vnet",
		"/subscriptions/s/resourcegroups/mc_rg_aks/providers/microsoft.network/virtualnetworks/VNET/",
		"/subscriptions/s/resourceGroups/MC_rg_aks/providers/Microsoft.Network/virtualNetworks/vnet2",
		"/subscriptions/s/resourceGroups/MC_rg_aks/providers/Microsoft.Network/virtualNetworks/vne",
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/\u212Aube", // Kelvin sign lowers to k
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/kube",
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/Kube//",
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/kub\u00e9",
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/KUB\u00c9",
		"/subscriptions/s/resourceGroups/MC_rg_aks/providers/Microsoft.Network/virtualNetworks/vnet\u00c9",
		"",
		"/",
	}
	for _, a := range ids {
		for _, b := range ids {
			if got, want := a.Equal(b), a.Key() == b.Key(); got != want {
				t.Errorf("%q.Equal(%q) = %v, keys say %v", a, b, got, want)
			}
		}
	}
	if !ids[0].Equal(ids[1]) || ids[0].Equal(ids[2]) || !ids[4].Equal(ids[5]) || !ids[7].Equal(ids[8]) {
		t.Fatal("the cases above lost their point")
	}
}

func TestNetworkLookupIgnoresCaseAndTrailingSlash(t *testing.T) {
	n := NewNetwork()
	sub := &Subnet{ID: "/subscriptions/s/resourceGroups/RG/providers/Microsoft.Network/virtualNetworks/v/subnets/Nodes"}
	n.AddVNet(&VNet{ID: "/subscriptions/s/resourceGroups/RG/providers/Microsoft.Network/virtualNetworks/v", Subnets: []*Subnet{sub}})
	for _, id := range []ResourceID{sub.ID, "/SUBSCRIPTIONS/s/resourcegroups/rg/providers/microsoft.network/virtualnetworks/V/subnets/nodes/"} {
		if got := n.Subnet(id); got != sub {
			t.Errorf("Subnet(%q) = %v, want the subnet", id, got)
		}
	}
	if got := n.Subnet(sub.ID + "x"); got != nil {
		t.Errorf("Subnet of another id = %v, want nil", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { n.Subnet(sub.ID) }); allocs != 0 {
		t.Errorf("Subnet lookup allocates %v times, want 0", allocs)
	}
	n.Gaps.Add(Gap{ResourceID: sub.ID, Kind: GapNotFound})
	if _, ok := n.Gaps.Lookup("/subscriptions/s/resourcegroups/rg/providers/microsoft.network/virtualnetworks/v/subnets/NODES"); !ok {
		t.Error("the gap of the subnet is not found under another casing")
	}
	if _, ok := n.Gaps.Lookup(sub.ID.Parent()); ok {
		t.Error("the subnet's gap is found for its VNet")
	}
}
