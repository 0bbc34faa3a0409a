package planned

import (
	"slices"
	"strings"
	"testing"
)

// TestPrivateEndpointASGAssociation: an association adds its group to the
// endpoint's applicationSecurityGroups, keeping the groups Azure has; a
// deleted one removes only its group; a replaced one (another group)
// removes the old group and adds the new one; a group known only after
// apply leaves the endpoint's groups unknown.
func TestPrivateEndpointASGAssociation(t *testing.T) {
	p := parseFixture(t, "testdata/plan_pe_asg_association.json")
	checkOps(t, p)
	if len(p.Unsupported) != 0 || len(p.Untranslatable) != 0 {
		t.Fatalf("unsupported %v, untranslatable %v", p.Unsupported, p.Untranslatable)
	}
	net := "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/"
	asg := func(n string) string { return net + "applicationSecurityGroups/" + n }
	const path = "properties.applicationSecurityGroups"
	type edit struct {
		add, remove []string
		unknown     bool
	}
	for _, tc := range []struct {
		addr string
		pe   string
		want []edit
	}{
		{"add", "pe-acr", []edit{{add: []string{asg("asg-registry")}}}},
		{"gone", "pe-kv", []edit{{remove: []string{asg("asg-old")}}}},
		{"moved", "pe-blob", []edit{{remove: []string{asg("asg-old")}}, {add: []string{asg("asg-new")}}}},
		{"later", "pe-kv", []edit{{unknown: true}}},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			var got []Op
			for _, op := range p.Ops {
				if op.Address == "azurerm_private_endpoint_application_security_group_association."+tc.addr {
					got = append(got, op)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("want %d ops:\n%s", len(tc.want), opsString(p))
			}
			for i, w := range tc.want {
				op := got[i]
				if op.Kind != OpPatch || !strings.EqualFold(op.ID, net+"privateEndpoints/"+tc.pe) || op.Members == nil || op.Members.Path != path {
					t.Fatalf("op %d: %+v", i, op)
				}
				if !slices.Equal(op.Members.Add, w.add) || !slices.Equal(op.Members.Remove, w.remove) {
					t.Errorf("op %d: add %v remove %v, want add %v remove %v", i, op.Members.Add, op.Members.Remove, w.add, w.remove)
				}
				if hasUnknown(op, path) != w.unknown {
					t.Errorf("op %d: unknown %v, want %v", i, op.Unknown, w.unknown)
				}
				if len(op.Body) != 0 {
					t.Errorf("op %d: a membership edit replaces members: %v", i, op.Body)
				}
			}
		})
	}
}

// TestPrivateEndpointUpdateKeepsItsGroups: azurerm puts an updated private
// endpoint back with the application security groups it has, so an update
// patches the endpoint (the groups are not in the patch: Azure's stay);
// a new endpoint is put whole.
func TestPrivateEndpointUpdateKeepsItsGroups(t *testing.T) {
	peID := rgHub + "/providers/Microsoft.Network/privateEndpoints/pe-acr"
	vals := map[string]any{"name": "pe-acr", "resource_group_name": "rg-hub", "location": "westeurope", "subnet_id": peSn,
		"private_service_connection": []any{map[string]any{"name": "pe-acr", "is_manual_connection": false, "private_connection_resource_id": acrID, "subresource_names": []any{"registry"}}},
		"tags":                       map[string]any{"team": "b"}}
	for _, tc := range []struct {
		name    string
		actions []string
		kind    OpKind
	}{
		{"updated: patched", update, OpPatch},
		{"created: put", create, OpPut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after := map[string]any{}
			for k, v := range vals {
				after[k] = v
			}
			var before map[string]any
			if tc.kind == OpPatch {
				after["id"] = peID
				after["network_interface"] = []any{map[string]any{"id": rgHub + "/providers/Microsoft.Network/networkInterfaces/pe-acr.nic"}}
				before = map[string]any{"id": peID}
			}
			p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_private_endpoint.acr", actions: tc.actions, before: before, after: after,
				unknown: map[string]any{"custom_dns_configs": true}}}}, Options{})
			op := opFor(t, p, tc.kind, peID)
			want(t, op, map[string]any{"properties.subnet.id": peSn, "properties.privateLinkServiceConnections.#0.properties.privateLinkServiceId": acrID})
			if props, _ := op.Body["properties"].(map[string]any); props["applicationSecurityGroups"] != nil {
				t.Errorf("the endpoint's change sets its groups: %v", props["applicationSecurityGroups"])
			}
		})
	}
}
