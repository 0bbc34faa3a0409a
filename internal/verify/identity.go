// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// identityFindings checks step 4 of the chain for a pool's login path: the
// kubelet identity must hold a role that lets it pull, assigned at the
// registry or above it (resource group, subscription, management group),
// never below. A registry with anonymous pull enabled needs no role,
// whatever pull_credentials says; anonymous pulls need it enabled
// (IDENTITY_ANONYMOUS_PULL_DISABLED); pulls with an imagePullSecret use
// credentials Azure does not show, so the kubelet identity is not checked
// (COVERAGE_IDENTITY_NOT_CHECKED, a note). A registry other than ACR and
// nodes given as subnets have no identity Azure can check.
func (r *run) identityFindings(pc *poolCtx, h model.PullHost) []model.Finding {
	reg := r.f.Registry
	if reg == nil || reg.AnonymousPullEnabled {
		return nil
	}
	switch r.f.PullCredentials.OrDefault() {
	case model.PullAnonymous:
		return []model.Finding{r.anonymousDisabledFinding(pc, h)}
	case model.PullImagePullSecret:
		if r.f.Cluster == nil {
			return nil
		}
		return []model.Finding{r.identityNotCheckedFinding(pc, h)}
	}
	if r.f.Cluster == nil {
		return nil
	}
	kubelet := r.f.Cluster.Kubelet
	who := kubeletName(kubelet)
	if kubelet.ObjectID == "" {
		msg := fmt.Sprintf("%s pulls with the kubelet identity of cluster %s, but the cluster reports none (identityProfile.kubeletidentity is empty, as on clusters running with a service principal), so whether the nodes may pull from registry %s is unverified.",
			pc.label, r.f.Cluster.Name, reg.Name)
		fix := "Give the cluster a managed kubelet identity (or check the service principal's role on the registry yourself) and plan again; routes and DNS are not involved."
		return []model.Finding{model.NewFinding(model.EvidenceNotFound, pc.pool.Name, h.Name, r.f.Cluster.ID, msg, fix)}
	}
	if gap := r.f.RoleAssignmentsGap; gap != nil {
		g := *gap
		r.used[g.ResourceID.Key()] = true
		return []model.Finding{gapFinding(g, pc.pool.Name, h.Name, "the role assignments of registry "+reg.Name+", which decide whether "+who+" may pull")}
	}

	var legacy, others, groups []string
	var unknown []model.ResourceID
	var conditioned []heldRole
	for _, a := range sortedAssignments(r.f.RoleAssignments) {
		if !scopeCovers(a.Scope, reg.ID) {
			continue
		}
		def, ok := r.roleDefinition(a.RoleDefinitionID)
		mine := strings.EqualFold(a.PrincipalID, kubelet.ObjectID)
		group := strings.EqualFold(a.PrincipalType, "Group")
		if !ok {
			if mine || group {
				unknown = append(unknown, a.RoleDefinitionID)
			}
			continue
		}
		honored, legacyOnly := pullPermission(def, reg.ABAC())
		switch {
		case mine && honored && strings.TrimSpace(a.Condition) == "":
			return nil
		case mine && honored:
			// An ABAC condition (typically limiting repositories) leaves
			// the role in force only for what it allows.
			conditioned = append(conditioned, heldRole{a, def})
		case mine && legacyOnly:
			legacy = append(legacy, fmt.Sprintf("%s at %s", def.RoleName, scopeName(a.Scope)))
		case group && honored:
			groups = append(groups, fmt.Sprintf("group %s (%s)", a.PrincipalID, def.RoleName))
		case honored:
			others = append(others, fmt.Sprintf("%s (%s)", a.PrincipalID, def.RoleName))
		}
	}

	switch {
	case len(conditioned) > 0:
		var out []model.Finding
		for _, c := range conditioned {
			out = append(out, r.roleConditionFinding(pc, h, who, c))
		}
		for _, id := range unknown {
			out = append(out, r.evidence(pc.pool.Name, h.Name, id, "the definition of role "+id.Name()+", assigned to "+who+" at or above registry "+reg.Name))
		}
		return out
	case len(unknown) > 0:
		var out []model.Finding
		for _, id := range unknown {
			out = append(out, r.evidence(pc.pool.Name, h.Name, id, "the definition of role "+id.Name()+", assigned to "+who+" at or above registry "+reg.Name))
		}
		return out
	case len(groups) > 0:
		msg := fmt.Sprintf("%s pulls as %s, which holds no pull role on registry %s itself, but %s may grant it through group membership, which Resource Manager does not show; the pull identity is unverified.",
			pc.label, who, reg.Name, strings.Join(groups, ", "))
		fix := fmt.Sprintf("Assign the pull role to %s directly at the registry scope, or confirm that it is a member of the group (Microsoft Graph). Routes and DNS are not involved.", who)
		return []model.Finding{model.NewFinding(model.EvidenceUnavailable, pc.pool.Name, h.Name, reg.ID, msg, fix)}
	case reg.ABAC() && len(legacy) > 0:
		msg := fmt.Sprintf("%s pulls as %s. Registry %s uses ABAC repository permissions (roleAssignmentMode AbacRepositoryPermissions), where AcrPull, AcrPush, Owner, Contributor and Reader do not let anyone pull; the identity holds only %s, so the token exchange ends in 401/403 unauthorized.",
			pc.label, who, reg.Name, strings.Join(legacy, ", "))
		fix := fmt.Sprintf("Assign Container Registry Repository Reader (%s) to %s at registry %s, optionally with an ABAC condition for the repositories it pulls. Keeping or re-assigning AcrPull will not help in this mode; routes and DNS are not involved: check the identity's scope.",
			model.RoleAcrRepositoryReader, who, reg.Name)
		return []model.Finding{model.NewFinding(model.IdentityABACRoleRequired, pc.pool.Name, h.Name, reg.ID, msg, fix)}
	}
	role, roleID := "AcrPull", model.RoleAcrPull
	if reg.ABAC() {
		role, roleID = "Container Registry Repository Reader", model.RoleAcrRepositoryReader
	}
	msg := fmt.Sprintf("%s pulls as %s, which holds no role at or above registry %s that allows pulling, so the node reaches the registry and is refused with 401/403 unauthorized.", pc.label, who, reg.Name)
	if len(others) > 0 {
		msg += " Pull roles at this scope belong to other principals: " + strings.Join(others, ", ") + " (for example the cluster's control-plane identity, which never pulls images)."
	}
	fix := fmt.Sprintf("Assign %s (%s) to %s at scope %s (`az aks update --attach-acr` does this for AcrPull). An assignment below the registry or to another identity does not count. Routes and DNS are not the problem, and an imagePullSecret only works around the node identity: check the identity's scope.",
		role, roleID, who, reg.ID)
	return []model.Finding{model.NewFinding(model.IdentityPullRoleMissing, pc.pool.Name, h.Name, reg.ID, msg, fix)}
}

// anonymousDisabledFinding: the nodes pull without credentials, and the
// registry does not allow anonymous pull.
func (r *run) anonymousDisabledFinding(pc *poolCtx, h model.PullHost) model.Finding {
	reg := r.f.Registry
	msg := fmt.Sprintf("%s pulls anonymously (pull_credentials = anonymous), but registry %s does not allow anonymous pull (anonymousPullEnabled is false): the token exchange at %s is refused with 401 unauthorized, after routes and DNS worked.",
		pc.label, reg.Name, h.Name)
	fix := fmt.Sprintf("Enable anonymous pull on registry %s (`az acr update -n %s --anonymous-pull-enabled true`, Standard or Premium tier; anyone who reaches the registry can then pull every repository), or pull with credentials: the kubelet identity with a pull role on the registry (pull_credentials = kubelet_identity) or an imagePullSecret (pull_credentials = image_pull_secret). Routes and DNS are not involved.",
		reg.Name, reg.Name)
	return model.NewFinding(model.IdentityAnonymousPull, pc.pool.Name, h.Name, reg.ID, msg, fix)
}

// identityNotCheckedFinding: the pull uses an imagePullSecret, not the
// kubelet identity, so the identity's roles are not checked.
func (r *run) identityNotCheckedFinding(pc *poolCtx, h model.PullHost) model.Finding {
	reg := r.f.Registry
	msg := fmt.Sprintf("%s pulls with credentials the workloads bring (pull_credentials = image_pull_secret), which Azure Resource Manager does not show. The kubelet identity's role assignments on registry %s are not what the pull uses, so they were not checked; a wrong or expired secret still ends in 401/403 after routes and DNS work.",
		pc.label, reg.Name)
	fix := fmt.Sprintf("Nothing to fix here. Check the secret yourself (it must hold a token for %s whose identity may pull from %s, in every namespace that uses it); with pull_credentials = kubelet_identity the provider checks the kubelet identity's pull role instead.",
		model.NormalizeHost(reg.LoginServer), reg.Name)
	return model.NewFinding(model.CoverageIdentityNotChecked, pc.pool.Name, h.Name, reg.ID, msg, fix)
}

// heldRole is a role assignment of the pull identity with its definition.
type heldRole struct {
	a   model.RoleAssignment
	def model.RoleDefinition
}

// roleConditionFinding: the identity's pull role carries an ABAC condition.
// Azure refuses every pull the condition does not allow; which
// repositories the nodes pull is not in Azure, so the pull identity is
// unverified (IDENTITY_ROLE_CONDITION), never counted as full pull rights.
func (r *run) roleConditionFinding(pc *poolCtx, h model.PullHost, who string, c heldRole) model.Finding {
	reg := r.f.Registry
	cond := strings.Join(strings.Fields(c.a.Condition), " ")
	msg := fmt.Sprintf("%s pulls as %s, which holds %s at %s (role assignment %s) only under the ABAC condition `%s`. Registry %s refuses with 401/403 unauthorized every pull the condition does not allow (typically repositories outside the ones it names); which repositories the node pools pull is not in Azure, so the pull identity is unverified.",
		pc.label, who, c.def.RoleName, scopeName(c.a.Scope), c.a.ID.Name(), cond, reg.Name)
	fix := fmt.Sprintf("Check that every repository the workloads on this node pool pull from %s is allowed by the condition (`az role assignment list --assignee %s --scope %s --query \"[].condition\"`); if not, widen the condition or assign the role without one. Routes and DNS are not involved, and an imagePullSecret only works around the node identity.",
		reg.Name, r.f.Cluster.Kubelet.ObjectID, c.a.Scope)
	return model.NewFinding(model.IdentityRoleCondition, pc.pool.Name, h.Name, c.a.ID, msg, fix)
}

// roleDefinition returns the definition of a role: from the facts, or the
// well-known built-in one.
func (r *run) roleDefinition(id model.ResourceID) (model.RoleDefinition, bool) {
	key := strings.ToLower(id.Name())
	if def := r.f.RoleDefinitions[key]; def != nil {
		d := *def
		if d.RoleName == "" {
			d.RoleName = key
		}
		return d, true
	}
	def, ok := model.BuiltinRoles[key]
	return def, ok
}

// pullPermission says whether a role lets its holder pull: honored in the
// registry's mode, or granting only the legacy pull action that an ABAC
// registry ignores.
func pullPermission(def model.RoleDefinition, abac bool) (honored, legacyOnly bool) {
	actions, data := false, false
	for _, p := range def.Permissions {
		actions = actions || (matchesAny(p.Actions, model.ActionRegistryPull) && !matchesAny(p.NotActions, model.ActionRegistryPull))
		data = data || (matchesAny(p.DataActions, model.DataActionRepositoryRead) && !matchesAny(p.NotDataActions, model.DataActionRepositoryRead))
	}
	if abac {
		return data, actions && !data
	}
	return actions || data, false
}

// scopeCovers reports whether an assignment at scope applies to target: at
// the target or above it. A management group scope counts as above,
// because role assignments are listed for the registry's scope, which
// returns only the management groups above it; a scope below the registry
// never counts.
func scopeCovers(scope, target model.ResourceID) bool {
	if strings.TrimSpace(string(scope)) == "/" { // the root scope holds everything
		return true
	}
	s, t := scope.Key(), target.Key()
	switch {
	case s == "":
		return false
	case s == t || strings.HasPrefix(t, s+"/"):
		return true
	default:
		return strings.HasPrefix(s, "/providers/microsoft.management/managementgroups/")
	}
}

// matchesAny reports whether an operation matches any of the patterns
// (Azure operation strings, case-insensitive, * matching any run).
func matchesAny(patterns []string, op string) bool {
	for _, p := range patterns {
		if wildcardMatch(strings.ToLower(p), strings.ToLower(op)) {
			return true
		}
	}
	return false
}

func wildcardMatch(pattern, s string) bool {
	star, match := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(pattern) && pattern[i] == '*':
			star, match = i, j
			i++
		case i < len(pattern) && pattern[i] == s[j]:
			i++
			j++
		case star >= 0:
			i = star + 1
			match++
			j = match
		default:
			return false
		}
	}
	for i < len(pattern) && pattern[i] == '*' {
		i++
	}
	return i == len(pattern)
}

func kubeletName(id model.Identity) string {
	name := "the kubelet identity"
	if !id.ResourceID.IsZero() {
		name += " " + id.ResourceID.Name()
	}
	if id.ObjectID != "" {
		name += " (object id " + id.ObjectID + ")"
	}
	return name
}

// scopeName is a scope for a message: the last name in it.
func scopeName(scope model.ResourceID) string {
	if scope.ResourceGroup() == "" && scope.Subscription() != "" && strings.Count(strings.Trim(string(scope), "/"), "/") == 1 {
		return "subscription " + scope.Subscription()
	}
	return scope.Name()
}

func sortedAssignments(in []model.RoleAssignment) []model.RoleAssignment {
	out := append([]model.RoleAssignment(nil), in...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}
