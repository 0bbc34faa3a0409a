package overlay

import (
	"reflect"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// TestMemberEditsKeepAzuresMembers: a membership edit (a private
// endpoint's application security group association) adds its group to
// the groups Azure has, removes only its own, adds nothing twice, and
// changes nothing on an endpoint the plan deletes.
func TestMemberEditsKeepAzuresMembers(t *testing.T) {
	pe := ovRG + "/providers/Microsoft.Network/privateEndpoints/pe-acr"
	asg := func(n string) string { return ovRG + "/providers/Microsoft.Network/applicationSecurityGroups/" + n }
	edit := func(add, remove []string) planned.Op {
		return planned.Op{Address: "azurerm_private_endpoint_application_security_group_association.a", Kind: planned.OpPatch, ID: pe, Body: map[string]any{},
			Members: &planned.MemberEdit{Path: "properties.applicationSecurityGroups", Add: add, Remove: remove}}
	}
	azureHas := func(ids ...string) map[string]any {
		l := []any{}
		for _, id := range ids {
			l = append(l, map[string]any{"id": id})
		}
		return map[string]any{"id": pe, "name": "pe-acr", "properties": map[string]any{"applicationSecurityGroups": l, "subnet": map[string]any{"id": ovVNet + "/subnets/pe"}}}
	}
	for _, tc := range []struct {
		name string
		base map[string]any
		ops  []planned.Op
		want []string // nil: absent
	}{
		{"added beside Azure's group", azureHas(asg("other")), []planned.Op{edit([]string{asg("registry")}, nil)}, []string{asg("other"), asg("registry")}},
		{"added to an endpoint without groups", map[string]any{"id": pe, "properties": map[string]any{"subnet": map[string]any{"id": ovVNet + "/subnets/pe"}}}, []planned.Op{edit([]string{asg("registry")}, nil)}, []string{asg("registry")}},
		{"already a member: once", azureHas(asg("REGISTRY")), []planned.Op{edit([]string{asg("registry")}, nil)}, []string{asg("REGISTRY")}},
		{"removed: the other group stays", azureHas(asg("other"), asg("registry")), []planned.Op{edit(nil, []string{asg("Registry")})}, []string{asg("other")}},
		{"removing a group it is not in changes nothing", azureHas(asg("other")), []planned.Op{edit(nil, []string{asg("registry")})}, []string{asg("other")}},
		{"moved to another group", azureHas(asg("old")), []planned.Op{edit(nil, []string{asg("old")}), edit([]string{asg("new")}, nil)}, []string{asg("new")}},
		{"the endpoint is deleted", azureHas(asg("other")), []planned.Op{{Kind: planned.OpDelete, ID: pe}, edit([]string{asg("registry")}, nil)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := parseARMPath(pe)
			before := cloneMap(tc.base)
			r := resolve(p, tc.base, tc.ops, nil, nil)
			if tc.want == nil {
				if r.body != nil {
					t.Fatalf("a deleted endpoint is %v", r.body)
				}
				return
			}
			props, _ := r.body["properties"].(map[string]any)
			var got []string
			for _, g := range props["applicationSecurityGroups"].([]any) {
				got = append(got, refID(g))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("groups %v, want %v", got, tc.want)
			}
			if !reflect.DeepEqual(tc.base, before) || props["subnet"] == nil {
				t.Errorf("the edit changed other members or Azure's answer: %v", r.body)
			}
		})
	}
}
