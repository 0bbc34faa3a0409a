// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func roleDef(guid string) model.ResourceID {
	return id("/providers/Microsoft.Authorization/roleDefinitions/" + guid)
}

func TestPullIdentity(t *testing.T) {
	rg := id("/resourceGroups/rg-hub")
	subscription := model.ResourceID(sub)
	mg := model.ResourceID("/providers/Microsoft.Management/managementGroups/mg-platform")
	customID := roleDef("11111111-2222-3333-4444-555555555555")
	assign := func(scope, def model.ResourceID, principal string) func(f *model.Facts) {
		return func(f *model.Facts) {
			f.RoleAssignments = []model.RoleAssignment{roleAssignment("ra", scope, def, principal)}
		}
	}
	abac := func(f *model.Facts) { f.Registry.RoleAssignmentMode = "AbacRepositoryPermissions" }
	tests := []struct {
		name   string
		mutate []func(f *model.Facts)
		want   []model.Code
	}{
		{"AcrPull at the registry", nil, nil},
		{"AcrPull at the resource group", []func(*model.Facts){assign(rg, acrPullDefID, kubeletObjectID)}, nil},
		{"AcrPull at the subscription", []func(*model.Facts){assign(subscription, acrPullDefID, kubeletObjectID)}, nil},
		{"AcrPull at a management group above", []func(*model.Facts){assign(mg, acrPullDefID, kubeletObjectID)}, nil},
		{"AcrPull at the root scope", []func(*model.Facts){assign("/", acrPullDefID, kubeletObjectID)}, nil},
		{"an assignment without scope does not count", []func(*model.Facts){assign("", acrPullDefID, kubeletObjectID)}, []model.Code{model.IdentityPullRoleMissing}},
		{"AcrPush pulls too", []func(*model.Facts){assign(registryID, roleDef(model.RoleAcrPush), kubeletObjectID)}, nil},
		{"Owner pulls in legacy mode", []func(*model.Facts){assign(rg, roleDef(model.RoleOwner), kubeletObjectID)}, nil},
		{"Reader pulls in legacy mode (*/read)", []func(*model.Facts){assign(registryID, roleDef(model.RoleReader), kubeletObjectID)}, nil},
		{"object id compared case-insensitively", []func(*model.Facts){assign(registryID, acrPullDefID, "C97076E7-A42F-5DA7-B72A-14B385FE0C6B")}, nil},
		{"no assignment at all", []func(*model.Facts){func(f *model.Facts) { f.RoleAssignments = nil }}, []model.Code{model.IdentityPullRoleMissing}},
		{"AcrPull for the control-plane identity only", []func(*model.Facts){assign(registryID, acrPullDefID, controlPlaneObjectID)}, []model.Code{model.IdentityPullRoleMissing}},
		{"AcrPull below the registry does not count", []func(*model.Facts){assign(registryID+"/scopeMaps/team", acrPullDefID, kubeletObjectID)}, []model.Code{model.IdentityPullRoleMissing}},
		{"AcrPull on another registry does not count", []func(*model.Facts){assign(registryID+"2", acrPullDefID, kubeletObjectID)}, []model.Code{model.IdentityPullRoleMissing}},
		{"a role without pull (Contributor's exclusions do not matter, a data-less custom role does)",
			[]func(*model.Facts){assign(registryID, customID, kubeletObjectID), func(f *model.Facts) {
				f.RoleDefinitions = map[string]*model.RoleDefinition{customID.Name(): {RoleName: "Registry Lister",
					Permissions: []model.RolePermission{{Actions: []string{"Microsoft.ContainerRegistry/registries/read"}}}}}
			}}, []model.Code{model.IdentityPullRoleMissing}},
		{"a custom role whose definition grants pull",
			[]func(*model.Facts){assign(registryID, customID, kubeletObjectID), func(f *model.Facts) {
				f.RoleDefinitions = map[string]*model.RoleDefinition{customID.Name(): {RoleName: "Puller",
					Permissions: []model.RolePermission{{Actions: []string{"Microsoft.ContainerRegistry/registries/*/read"}}}}}
			}}, nil},
		{"a custom role whose notActions exclude pull",
			[]func(*model.Facts){assign(registryID, customID, kubeletObjectID), func(f *model.Facts) {
				f.RoleDefinitions = map[string]*model.RoleDefinition{customID.Name(): {RoleName: "Almost",
					Permissions: []model.RolePermission{{Actions: []string{"*"}, NotActions: []string{"Microsoft.ContainerRegistry/registries/pull/read"}}}}}
			}}, []model.Code{model.IdentityPullRoleMissing}},
		{"a custom role whose definition is unknown: unverified, not missing",
			[]func(*model.Facts){assign(registryID, customID, kubeletObjectID)}, []model.Code{model.EvidenceNotFound}},
		{"a pull role held by a group: membership unknown, unverified",
			[]func(*model.Facts){func(f *model.Facts) {
				a := roleAssignment("ra-group", registryID, acrPullDefID, "0f0f0f0f-0000-0000-0000-000000000000")
				a.PrincipalType = "Group"
				f.RoleAssignments = []model.RoleAssignment{a}
			}}, []model.Code{model.EvidenceUnavailable}},
		{"role assignments unreadable: EVIDENCE_PERMISSION_DENIED",
			[]func(*model.Facts){func(f *model.Facts) {
				f.RoleAssignments = nil
				f.RoleAssignmentsGap = &model.Gap{ResourceID: registryID + "/providers/Microsoft.Authorization/roleAssignments", Kind: model.GapPermissionDenied, Permission: "Microsoft.Authorization/roleAssignments/read"}
			}}, []model.Code{model.EvidencePermissionDenied}},
		{"anonymous pull needs no role", []func(*model.Facts){func(f *model.Facts) { f.RoleAssignments = nil; f.Registry.AnonymousPullEnabled = true }}, nil},
		{"nodes given as subnets have no identity to check", []func(*model.Facts){func(f *model.Facts) { f.RoleAssignments = nil; f.Cluster = nil }}, nil},
		{"ABAC registry with only AcrPull", []func(*model.Facts){abac}, []model.Code{model.IdentityABACRoleRequired}},
		{"ABAC registry with Owner only", []func(*model.Facts){abac, assign(rg, roleDef(model.RoleOwner), kubeletObjectID)}, []model.Code{model.IdentityABACRoleRequired}},
		{"ABAC registry with the repository reader", []func(*model.Facts){abac, assign(registryID, abacDefID, kubeletObjectID)}, nil},
		{"ABAC registry with nothing", []func(*model.Facts){abac, func(f *model.Facts) { f.RoleAssignments = nil }}, []model.Code{model.IdentityPullRoleMissing}},
		{"the repository reader also works in legacy mode", []func(*model.Facts){assign(registryID, abacDefID, kubeletObjectID)}, nil},
		{"cluster without kubelet identity", []func(*model.Facts){func(f *model.Facts) { f.Cluster.Kubelet = model.Identity{} }}, []model.Code{model.EvidenceNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			for _, m := range tt.mutate {
				m(&f)
			}
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			for _, c := range tt.want {
				for _, fd := range findingsWith(res, c) {
					if fd.Endpoint != loginHost {
						t.Errorf("%s on %q, want the login server", c, fd.Endpoint)
					}
				}
			}
		})
	}
}

func TestIdentityMessages(t *testing.T) {
	f := baselineFacts()
	f.RoleAssignments = []model.RoleAssignment{roleAssignment("ra-cp", registryID, acrPullDefID, controlPlaneObjectID)}
	res := verifyFake(t, f, nil)
	if res.Verdict != model.Unreachable {
		t.Fatalf("verdict %s", res.Verdict)
	}
	m := findingsWith(res, model.IdentityPullRoleMissing)[0]
	if !m.ResourceID.Equal(registryID) || m.Owner != model.OwnerIdentity {
		t.Errorf("finding %+v", m)
	}
	requireContains(t, m.Message, "aks1-agentpool", kubeletObjectID, controlPlaneObjectID, "403")
	requireContains(t, m.Remediation, model.RoleAcrPull, string(registryID), "check the identity's scope")

	f = baselineFacts()
	f.Registry.RoleAssignmentMode = "AbacRepositoryPermissions"
	a := findingsWith(verifyFake(t, f, nil), model.IdentityABACRoleRequired)[0]
	requireContains(t, a.Message, "AbacRepositoryPermissions", "AcrPull at contosoreg")
	requireContains(t, a.Remediation, model.RoleAcrRepositoryReader, "will not help")

	f = baselineFacts()
	f.RoleAssignmentsGap = &model.Gap{ResourceID: registryID + "/providers/Microsoft.Authorization/roleAssignments", Kind: model.GapPermissionDenied, Permission: "Microsoft.Authorization/roleAssignments/read"}
	res = verifyFake(t, f, nil)
	e := findingsWith(res, model.EvidencePermissionDenied)
	if len(e) != 2 || res.Verdict != model.Unverified {
		t.Fatalf("want one evidence finding per pool and verdict unverified, got %d, %s", len(e), res.Verdict)
	}
	requireContains(t, e[0].Message, "Microsoft.Authorization/roleAssignments/read")
	if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Unverified {
		t.Errorf("login path %s, want unverified", p.Verdict)
	}
}

// The pull identity is step 4: a login path broken before it is not
// checked, so an unlinked zone is not reported together with a missing role.
func TestIdentityAfterBrokenChain(t *testing.T) {
	f := baselineFacts()
	unlinkSpoke(&f)
	f.RoleAssignments = nil
	onlyCodes(t, verifyFake(t, f, nil), model.DNSZoneNotLinked)

	f = baselineFacts()
	f.RoleAssignments = nil
	onlyCodes(t, verifyFake(t, f, &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): blackhole("10.0.2.5")}}), model.RouteBlackhole)
}

func TestWildcardMatch(t *testing.T) {
	tests := []struct {
		pattern, op string
		want        bool
	}{
		{"*", model.ActionRegistryPull, true},
		{"*/read", model.ActionRegistryPull, true},
		{"Microsoft.ContainerRegistry/*", model.ActionRegistryPull, true},
		{"microsoft.containerregistry/registries/pull/read", model.ActionRegistryPull, true},
		{"Microsoft.ContainerRegistry/registries/*/read", model.ActionRegistryPull, true},
		{"Microsoft.ContainerRegistry/registries/push/write", model.ActionRegistryPull, false},
		{"*/write", model.ActionRegistryPull, false},
		{"Microsoft.Network/*", model.ActionRegistryPull, false},
		{"", model.ActionRegistryPull, false},
	}
	for _, tt := range tests {
		if got := matchesAny([]string{tt.pattern}, tt.op); got != tt.want {
			t.Errorf("matchesAny(%q, %q) = %v, want %v", tt.pattern, tt.op, got, tt.want)
		}
	}
}
