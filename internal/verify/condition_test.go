// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// teamACondition limits a repository role to repositories under team-a/.
const teamACondition = `((!(ActionMatches{'Microsoft.ContainerRegistry/registries/repositories/content/read'}))
 OR (@Request[Microsoft.ContainerRegistry/registries/repositories:name] StringStartsWithIgnoreCase 'team-a/'))`

// A pull role with an ABAC condition is not full pull rights: it is
// IDENTITY_ROLE_CONDITION (unverified), quoting the condition. The same
// role without condition, or another unconditioned pull role beside it,
// still counts fully.
func TestPullRoleCondition(t *testing.T) {
	abac := func(f *model.Facts) { f.Registry.RoleAssignmentMode = "AbacRepositoryPermissions" }
	conditioned := func(def model.ResourceID) func(f *model.Facts) {
		return func(f *model.Facts) {
			a := roleAssignment("ra-team-a", registryID, def, kubeletObjectID)
			a.Condition = teamACondition
			f.RoleAssignments = []model.RoleAssignment{a}
		}
	}
	plus := func(def model.ResourceID) func(f *model.Facts) {
		return func(f *model.Facts) {
			f.RoleAssignments = append(f.RoleAssignments, roleAssignment("ra-full", registryID, def, kubeletObjectID))
		}
	}
	tests := []struct {
		name    string
		mutate  []func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
	}{
		{"repository reader limited to team-a/*", []func(*model.Facts){abac, conditioned(abacDefID)}, []model.Code{model.IdentityRoleCondition}, model.Unverified},
		{"repository reader without condition", []func(*model.Facts){abac, func(f *model.Facts) {
			f.RoleAssignments = []model.RoleAssignment{roleAssignment("ra", registryID, abacDefID, kubeletObjectID)}
		}}, nil, model.Reachable},
		{"a conditioned role beside an unconditioned one counts fully", []func(*model.Facts){abac, conditioned(abacDefID), plus(abacDefID)}, nil, model.Reachable},
		{"a condition on AcrPull in legacy mode", []func(*model.Facts){conditioned(acrPullDefID)}, []model.Code{model.IdentityRoleCondition}, model.Unverified},
		{"a whitespace-only condition is no condition", []func(*model.Facts){func(f *model.Facts) { f.RoleAssignments[0].Condition = " \n " }}, nil, model.Reachable},
		{"a condition on a role that does not pull changes nothing", []func(*model.Facts){abac, conditioned(acrPullDefID)}, []model.Code{model.IdentityABACRoleRequired}, model.Unreachable},
		{"a condition on another principal's role changes nothing", []func(*model.Facts){func(f *model.Facts) {
			a := roleAssignment("ra-cp", registryID, acrPullDefID, controlPlaneObjectID)
			a.Condition = teamACondition
			f.RoleAssignments = append(f.RoleAssignments, a)
		}}, nil, model.Reachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			for _, m := range tt.mutate {
				m(&f)
			}
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
		})
	}

	f := baselineFacts()
	abac(&f)
	conditioned(abacDefID)(&f)
	res := verifyFake(t, f, nil)
	fs := findingsWith(res, model.IdentityRoleCondition)
	if len(fs) != 2 {
		t.Fatalf("want one finding per pool, got %+v", fs)
	}
	c := fs[0]
	if c.Endpoint != loginHost || !c.ResourceID.Equal(f.RoleAssignments[0].ID) || c.Owner != model.OwnerIdentity || c.Severity != model.SeverityWarning {
		t.Errorf("finding %+v", c)
	}
	requireContains(t, c.Message, "Container Registry Repository Reader", "ra-team-a",
		"`((!(ActionMatches{'Microsoft.ContainerRegistry/registries/repositories/content/read'})) OR (@Request[Microsoft.ContainerRegistry/registries/repositories:name] StringStartsWithIgnoreCase 'team-a/'))`",
		"401/403", "unverified")
	requireContains(t, c.Remediation, "az role assignment list --assignee "+kubeletObjectID, "widen the condition")
	if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Unverified {
		t.Errorf("login path %s, want unverified", p.Verdict)
	}
	if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Reachable {
		t.Errorf("data path %s: the identity is judged on the login server only", p.Verdict)
	}
}
