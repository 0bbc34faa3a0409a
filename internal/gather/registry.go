package gather

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Registry reads an Azure Container Registry: login server, data
// endpoints, replicas (ReplicasKnown false when they cannot be listed),
// public network access and the network rule set's default action, its
// private endpoint connections, role assignment mode and anonymous pull.
//
// The pinned SDK models roleAssignmentMode but not regional endpoints; the
// raw answer of the same GET (captured, no second read) supplies those.
func (r *Reader) Registry(ctx context.Context, id model.ResourceID) (*model.Registry, error) {
	return once(r, memoKey("registry", id), func() (*model.Registry, error) {
		a, err := parseTyped(id, "Microsoft.ContainerRegistry", "registries")
		if err != nil {
			return nil, r.fail(id, permRegistryRead, err)
		}
		f, err := r.clients.ContainerRegistry(a.SubscriptionID)
		if err != nil {
			return nil, r.fail(id, permRegistryRead, err)
		}
		var rawResp *http.Response
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := f.NewRegistriesClient().Get(policy.WithCaptureResponse(ctx, &rawResp), a.ResourceGroup, a.Names[0], nil)
		release()
		if err != nil {
			return nil, r.fail(id, permRegistryRead, err)
		}
		reg, err := registryFromSDK(&resp.Registry)
		if err != nil {
			return nil, r.fail(id, permRegistryRead, err)
		}
		var raw registryRawFields
		if rawResp != nil {
			if body, err := runtime.Payload(rawResp); err == nil {
				// Best effort: these fields are optional extras.
				_ = json.Unmarshal(body, &raw)
			}
		}

		reps, err := collect(ctx, r, f.NewReplicationsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armcontainerregistry.ReplicationsClientListResponse) []*armcontainerregistry.Replication {
				return p.Value
			})
		if err != nil {
			r.record(child(id, "replications"), permReplicationRead, err)
		} else {
			for _, rep := range reps {
				reg.Replicas = append(reg.Replicas, replicaFromSDK(rep))
			}
			reg.ReplicasKnown = true
		}
		completeRegistryHosts(reg, raw)
		return reg, nil
	})
}

// ReplicationsGap is why the replicas of a registry Registry returned are
// not known (its ReplicasKnown is false), when the list was read and
// failed.
func (r *Reader) ReplicationsGap(registryID model.ResourceID) (model.Gap, bool) {
	return r.Gaps().Lookup(child(registryID, "replications"))
}

// RoleAssignments returns the role assignments of a principal at the
// scope, above it (inherited) and below it. The list is asked with
// $filter=principalId eq '…' and filtered again here: not every source of
// answers (the snapshot replay) applies the filter.
func (r *Reader) RoleAssignments(ctx context.Context, scope model.ResourceID, principalID string) ([]model.RoleAssignment, error) {
	principalID = strings.TrimSpace(principalID)
	if principalID == "" {
		return nil, fmt.Errorf("no principal id to list role assignments for (the cluster's kubelet identity has no object id)")
	}
	if strings.Trim(strings.ToLower(principalID), "0123456789abcdef-") != "" {
		return nil, fmt.Errorf("principal id %q is not an object id (GUID)", principalID)
	}
	coll := child(scope, "providers/Microsoft.Authorization/roleAssignments")
	return once(r, memoKey("roleassignments", coll)+" "+strings.ToLower(principalID), func() ([]model.RoleAssignment, error) {
		sub := scope.Subscription()
		f, err := r.clients.Authorization(sub)
		if err != nil {
			return nil, r.fail(coll, permRoleAssignmentRead, err)
		}
		filter := url.PathEscape(fmt.Sprintf("principalId eq '%s'", principalID))
		list, err := collect(ctx, r, f.NewRoleAssignmentsClient().NewListForScopePager(strings.TrimLeft(string(scope), "/"),
			&armauthorization.RoleAssignmentsClientListForScopeOptions{Filter: &filter}),
			func(p armauthorization.RoleAssignmentsClientListForScopeResponse) []*armauthorization.RoleAssignment {
				return p.Value
			})
		if err != nil {
			return nil, r.fail(coll, permRoleAssignmentRead, err)
		}
		return filterAssignments(list, principalID), nil
	})
}

// filterAssignments converts the assignments of one principal.
func filterAssignments(list []*armauthorization.RoleAssignment, principalID string) []model.RoleAssignment {
	out := []model.RoleAssignment{}
	for _, ra := range list {
		m := roleAssignmentFromSDK(ra)
		if strings.EqualFold(m.PrincipalID, principalID) {
			out = append(out, m)
		}
	}
	return out
}
