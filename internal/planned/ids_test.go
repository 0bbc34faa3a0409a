package planned

import (
	"strings"
	"testing"
)

// TestSubscriptionOfBuiltIDs: an id built from names takes its
// subscription from the provider block, else the one subscription of the
// ids the plan knows, else Options, else the change is untranslatable
// with what to do.
func TestSubscriptionOfBuiltIDs(t *testing.T) {
	newLink := rc{addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: create,
		after:   map[string]any{"name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet},
		unknown: map[string]any{"id": true}}
	// A link without ids: only the new link's own name is known.
	bare := rc{addr: newLink.addr, actions: create,
		after:   map[string]any{"name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub"},
		unknown: map[string]any{"id": true, "virtual_network_id": true}}
	other := func(sub string) rc {
		id := "/subscriptions/" + sub + "/resourceGroups/rg-x/providers/Microsoft.Network/routeTables/rt"
		return rc{addr: "azurerm_route_table.x_" + sub[len(sub)-1:], actions: noop, before: map[string]any{"id": id, "name": "rt"}, after: map[string]any{"id": id, "name": "rt"}}
	}
	link := func(sub string) string {
		return "/subscriptions/" + sub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke"
	}
	tests := []struct {
		name    string
		spec    planSpec
		opts    Options
		wantID  string
		problem string
	}{
		{"from the ids the plan knows", planSpec{changes: []rc{newLink}}, Options{}, link(sub1), ""},
		{"provider block before the plan's ids", planSpec{changes: []rc{newLink}, providerSub: sub2}, Options{}, link(sub2), ""},
		{"plan's ids before the option", planSpec{changes: []rc{newLink}}, Options{DefaultSubscriptionID: sub2}, link(sub1), ""},
		{"option when the plan shows none", planSpec{changes: []rc{bare}}, Options{DefaultSubscriptionID: sub2}, link(sub2), ""},
		{"option when the plan's ids disagree", planSpec{changes: []rc{bare, other(sub1), other(sub2)}}, Options{DefaultSubscriptionID: sub2}, link(sub2), ""},
		{"none", planSpec{changes: []rc{bare}}, Options{}, "", "the plan shows no subscription: set the provider's subscription_id"},
		{"disagreeing ids", planSpec{changes: []rc{bare, other(sub1), other(sub2)}}, Options{}, "",
			"several subscriptions (" + sub1 + ", " + sub2 + "): set the provider's subscription_id"},
		{"an option that is not a subscription id is not used", planSpec{changes: []rc{bare}}, Options{DefaultSubscriptionID: "my-sub"}, "", "set the provider's subscription_id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.spec, tc.opts)
			checkOps(t, p)
			if tc.problem != "" {
				pr, ok := problemFor(p, newLink.addr)
				if !ok || !strings.Contains(pr.Reason, tc.problem) {
					t.Errorf("problem = %+v, want %q; ops:\n%s", pr, tc.problem, opsString(p))
				}
				return
			}
			opFor(t, p, OpPut, tc.wantID)
		})
	}
}

// TestKnownIDsAreKept: a known id is used as it is, whatever the
// subscription rules would build.
func TestKnownIDsAreKept(t *testing.T) {
	id := "/subscriptions/" + sub2 + "/resourceGroups/RG-Hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke"
	p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: update,
		before: map[string]any{"id": id, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "RG-Hub", "virtual_network_id": hubNet},
		after:  map[string]any{"id": id, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "RG-Hub", "virtual_network_id": spkNet}}}}, Options{})
	if len(p.Ops) != 1 || p.Ops[0].ID != id {
		t.Errorf("ops:\n%s", opsString(p))
	}
}

// TestNamesThatCannotBeInAnID are untranslatable, not a wrong id.
func TestNamesThatCannotBeInAnID(t *testing.T) {
	for _, name := range []string{"", "a/b", "x?y"} {
		p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_route_table.rt", actions: create,
			after: map[string]any{"name": name, "resource_group_name": "rg-spoke"}, unknown: map[string]any{"id": true}}}}, Options{})
		if pr, ok := problemFor(p, "azurerm_route_table.rt"); !ok || !strings.Contains(pr.Reason, "name") {
			t.Errorf("name %q: problem %+v, ops:\n%s", name, pr, opsString(p))
		}
	}
	p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_route_table.rt", actions: create,
		after: map[string]any{"resource_group_name": "rg-spoke"}, unknown: map[string]any{"id": true, "name": true}}}}, Options{})
	// A name known only after apply is not a bad name: the resource is
	// created where the plan says, under a name not known yet.
	if _, bad := problemFor(p, "azurerm_route_table.rt"); bad || len(p.Ops) != 1 || p.Ops[0].Kind != OpCreateUnnamed {
		t.Errorf("unknown name:\n%s", opsString(p))
	}
}

func TestPlanSubscriptionsAndAddresses(t *testing.T) {
	other := "/subscriptions/" + sub2 + "/resourceGroups/rg-x/providers/Microsoft.Network/routeTables/rt"
	p := mustParse(t, planSpec{changes: []rc{
		{addr: "azurerm_route_table.a", actions: del, before: map[string]any{"id": other, "name": "rt"}},
		{addr: "azurerm_subnet_route_table_association.b", actions: create, after: map[string]any{"id": aksSn, "subnet_id": aksSn, "route_table_id": other}},
		{addr: "azurerm_subnet_network_security_group_association.c", actions: create, after: map[string]any{"id": aksSn, "subnet_id": aksSn, "network_security_group_id": other}},
	}}, Options{})
	if got := strings.Join(p.Subscriptions(), ","); got != sub1+","+sub2 {
		t.Errorf("Subscriptions() = %s", got)
	}
	if got := strings.Join(p.Addresses(strings.ToUpper(aksSn)), ","); got != "azurerm_subnet_route_table_association.b,azurerm_subnet_network_security_group_association.c" {
		t.Errorf("Addresses() = %s", got)
	}
	if got := p.Addresses(hubNet); len(got) != 0 {
		t.Errorf("Addresses(unchanged) = %v", got)
	}
}
