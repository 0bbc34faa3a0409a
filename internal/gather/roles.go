package gather

import (
	"context"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// permRoleDefinitionRead is the action a GET of a role definition needs
// (custom roles held by the pull identity are judged by their definition).
const permRoleDefinitionRead = "Microsoft.Authorization/roleDefinitions/read"

// roleAssignmentsCollection is the id of the role assignment list of a
// scope, the resource id of its gap.
func roleAssignmentsCollection(scope model.ResourceID) model.ResourceID {
	return child(scope, "providers/Microsoft.Authorization/roleAssignments")
}

// pullRoles reads, when both a cluster and an ACR are verified, every role
// assignment that applies at the registry scope (not only the kubelet
// identity's: an assignment to a group the identity may be in, or the pull
// role given to the wrong identity, are part of the answer), and the
// definitions of the roles that the kubelet identity or a group holds there
// and that verification does not know by their built-in id. Nothing is
// read when the pull does not use the kubelet identity (anonymous pull, an
// imagePullSecret) or the registry allows anonymous pull.
func (r *Reader) pullRoles(ctx context.Context, f *model.Facts) {
	if f.Registry == nil || f.Cluster == nil || len(f.Pools) == 0 || f.Registry.AnonymousPullEnabled ||
		f.PullCredentials.OrDefault() != model.PullKubeletIdentity || strings.TrimSpace(f.Cluster.Kubelet.ObjectID) == "" {
		return
	}
	list, err := r.roleAssignmentsAt(ctx, f.Registry.ID)
	if err != nil {
		coll := roleAssignmentsCollection(f.Registry.ID)
		g, ok := r.Gaps().Lookup(coll)
		if !ok { // a failure before the read (a cancelled context)
			g = r.record(coll, permRoleAssignmentRead, err)
		}
		f.RoleAssignmentsGap = &g
		return
	}
	f.RoleAssignments = list
	var defs []model.ResourceID
	for _, a := range list {
		relevant := strings.EqualFold(a.PrincipalID, f.Cluster.Kubelet.ObjectID) || strings.EqualFold(a.PrincipalType, "Group")
		if relevant && !a.RoleDefinitionID.IsZero() && !model.KnownRole(a.RoleDefinitionID) {
			defs = appendUniqueID(defs, a.RoleDefinitionID)
		}
	}
	got, _ := mapEach(ctx, r, defs, r.roleDefinition)
	for _, def := range got {
		if def != nil {
			f.RoleDefinitions[strings.ToLower(def.ID.Name())] = def
		}
	}
}

// roleAssignmentsAt lists every role assignment ARM returns for a scope:
// at it, above it (inherited) and below it.
func (r *Reader) roleAssignmentsAt(ctx context.Context, scope model.ResourceID) ([]model.RoleAssignment, error) {
	coll := roleAssignmentsCollection(scope)
	return read(r, "roleassignments-all", coll, permRoleAssignmentRead, func() ([]model.RoleAssignment, error) {
		fac, err := r.clients.Authorization(scope.Subscription())
		if err != nil {
			return nil, err
		}
		list, err := collect(ctx, r, fac.NewRoleAssignmentsClient().NewListForScopePager(strings.TrimLeft(string(scope), "/"), nil),
			func(p armauthorization.RoleAssignmentsClientListForScopeResponse) []*armauthorization.RoleAssignment {
				return p.Value
			})
		if err != nil {
			return nil, err
		}
		out := make([]model.RoleAssignment, 0, len(list))
		for _, ra := range list {
			out = append(out, roleAssignmentFromSDK(ra))
		}
		return out, nil
	})
}

// roleDefinition reads a role definition by its id.
func (r *Reader) roleDefinition(ctx context.Context, id model.ResourceID) (*model.RoleDefinition, error) {
	return read(r, "roledefinition", id, permRoleDefinitionRead, func() (*model.RoleDefinition, error) {
		fac, err := r.clients.Authorization(id.Subscription())
		if err != nil {
			return nil, err
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := fac.NewRoleDefinitionsClient().GetByID(ctx, strings.TrimLeft(string(id), "/"), nil)
		release()
		if err != nil {
			return nil, err
		}
		return roleDefinitionFromSDK(id, &resp.RoleDefinition), nil
	})
}

// roleDefinitionFromSDK converts a role definition's permission blocks.
func roleDefinitionFromSDK(id model.ResourceID, d *armauthorization.RoleDefinition) *model.RoleDefinition {
	out := &model.RoleDefinition{ID: id}
	if d.ID != nil {
		out.ID = rid(d.ID)
	}
	strs := func(in []*string) []string {
		var s []string
		for _, p := range in {
			if v := str(p); v != "" {
				s = append(s, v)
			}
		}
		return s
	}
	if p := d.Properties; p != nil {
		out.RoleName, out.Type = str(p.RoleName), str(p.RoleType)
		for _, perm := range p.Permissions {
			if perm == nil {
				continue
			}
			out.Permissions = append(out.Permissions, model.RolePermission{
				Actions: strs(perm.Actions), NotActions: strs(perm.NotActions),
				DataActions: strs(perm.DataActions), NotDataActions: strs(perm.NotDataActions),
			})
		}
	}
	return out
}
