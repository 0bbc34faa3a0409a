// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Each target error of a verification is one error on the argument that
// names the resource, in words, saying what was wrong and what to do, and
// that enforce does not change it; no error, no diagnostic.
func TestVerificationTargetDiagnostics(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001"
	cluster := model.ResourceID(sub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/ManagedClusters/aks-typo")
	registry := model.ResourceID(sub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/Registries/otherreg")
	vnet := model.ResourceID(sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	subnets := []model.ResourceID{vnet + "/subnets/a", vnet + "/subnets/b"}
	gap := func(id model.ResourceID, kind model.GapKind, snapshot bool) *model.Gap {
		return &model.Gap{ResourceID: id, Kind: kind, Permission: "Microsoft.ContainerRegistry/registries/read", Detail: "HTTP 4xx", Snapshot: snapshot}
	}
	byCluster := gather.VerificationRequest{ClusterID: cluster, RegistryID: registry}
	bySubnets := gather.VerificationRequest{NodeSubnetIDs: subnets, RegistryID: registry}
	tests := []struct {
		name    string
		q       gather.VerificationRequest
		offline bool
		err     error
		attr    path.Path
		summary string
		detail  []string
		not     []string
	}{
		{"cluster not in Azure", byCluster, false, &gather.TargetError{ID: cluster, Named: cluster, Gap: gap(cluster, model.GapNotFound, false)},
			path.Root("cluster_id"), "The AKS cluster does not exist",
			[]string{"Azure has no AKS cluster aks-typo", "resource group (rg-spoke)"}, []string{"ManagedClusters aks-typo", "snapshot"}},
		{"cluster not in the snapshot", byCluster, true, &gather.TargetError{ID: cluster, Named: cluster, Gap: gap(cluster, model.GapNotFound, false)},
			path.Root("cluster_id"), "The AKS cluster is not in the snapshot",
			[]string{"The snapshot (snapshot_file) has no AKS cluster aks-typo", "record the snapshot again"}, []string{"identity", "permission"}},
		{"registry refused", byCluster, false, &gather.TargetError{ID: registry, Named: registry, Gap: gap(registry, model.GapPermissionDenied, false)},
			path.Root("registry_id"), "Permission denied reading the container registry",
			[]string{"container registry otherreg", "needs Microsoft.ContainerRegistry/registries/read", "built-in Reader role"}, []string{"Registries otherreg"}},
		{"registry unreachable", byCluster, false, &gather.TargetError{ID: registry, Named: registry,
			Gap: &model.Gap{ResourceID: registry, Kind: model.GapUnreachable, Detail: "cannot reach management.azure.com: no network route or proxy (dial tcp: lookup management.azure.com: no such host)"}},
			path.Root("registry_id"), "Cannot reach Azure Resource Manager",
			[]string{"container registry otherreg", "no such host", "HTTPS_PROXY", "firewall"}, []string{"credential", "retries"}},
		{"second node subnet's VNet refused", bySubnets, false, &gather.TargetError{ID: vnet, Named: subnets[1], Gap: &model.Gap{ResourceID: vnet, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403"}},
			path.Root("node_subnet_ids").AtListIndex(1), "Permission denied reading the virtual network",
			[]string{"To read the subnet vnet-spoke/b, the provider reads its virtual network.", "Microsoft.Network/virtualNetworks/read"}, nil},
		{"pool typo", byCluster, false, &gather.PoolNotFoundError{Cluster: &model.Cluster{ID: cluster, Name: "aks1"}, Name: "sysstem", Pools: []string{"system", "user"}},
			path.Root("node_pools"), "Node pool not found", []string{`no node pool named "sysstem"`, "Its node pools are: system, user", "Set node_pools"}, nil},
		{"no pools", byCluster, false, &gather.NothingToCheckError{Cluster: &model.Cluster{ID: cluster}, NoPools: true},
			path.Root("cluster_id"), "The cluster has no node pool to check", []string{"AKS cluster aks-typo", "not one path to check"}, nil},
		{"no pools, not listed", byCluster, false, &gather.NothingToCheckError{Cluster: &model.Cluster{ID: cluster}, NoPools: true,
			ListGap: &model.Gap{Kind: model.GapPermissionDenied, Permission: "Microsoft.ContainerService/managedClusters/agentPools/read"}},
			path.Root("cluster_id"), "The cluster has no node pool to check", []string{"could not be listed", "agentPools/read"}, nil},
		{"no hostname", byCluster, false, &gather.NothingToCheckError{Registry: &model.Registry{ID: registry}, NoHosts: true},
			path.Root("registry_id"), "The registry has no hostname to check", []string{"container registry otherreg", "no login server"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diags := targetDiagnostics(errors.Join(tc.err), verificationTargetArgs(tc.q, tc.offline), model.Gaps{}, time.Minute, failsClosed)
			if len(diags) != 1 {
				t.Fatalf("%d diagnostics: %v", len(diags), diags)
			}
			d := diags[0]
			wp, ok := d.(diag.DiagnosticWithPath)
			if !ok || !wp.Path().Equal(tc.attr) || d.Severity() != diag.SeverityError || d.Summary() != tc.summary {
				t.Fatalf("got %s on %v: %s", d.Summary(), d, d.Detail())
			}
			for _, w := range append(tc.detail, "whatever enforce and fail_on_unverified say") {
				if !strings.Contains(d.Detail(), w) {
					t.Errorf("detail %q lacks %q", d.Detail(), w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(d.Detail(), w) {
					t.Errorf("detail %q has %q", d.Detail(), w)
				}
			}
		})
	}
	// Several problems: one error each, in order.
	both := errors.Join(&gather.TargetError{ID: cluster, Named: cluster, Gap: gap(cluster, model.GapNotFound, true)},
		&gather.TargetError{ID: registry, Named: registry, Gap: gap(registry, model.GapNotFound, true)})
	diags := targetDiagnostics(both, verificationTargetArgs(byCluster, true), model.Gaps{}, time.Minute, failsClosed)
	if len(diags) != 2 || diags[0].(diag.DiagnosticWithPath).Path().String() != "cluster_id" || diags[1].(diag.DiagnosticWithPath).Path().String() != "registry_id" {
		t.Errorf("two targets: %v", diags)
	}
	for _, err := range []error{nil, errors.New("something else"), &azure.SignInError{Method: "x", Err: errors.New("AADSTS7000215")}} {
		if diags := targetDiagnostics(err, verificationTargetArgs(byCluster, false), model.Gaps{}, time.Minute, failsClosed); len(diags) != 0 {
			t.Errorf("%v is no target error: %v", err, diags)
		}
	}
}

// A network failure is never a credential problem, and a credential that
// Entra ID refused stays one.
func TestSignInTextTellsNetworkFromCredentials(t *testing.T) {
	u := &azure.UnreachableError{Host: "login.microsoftonline.com", Err: errors.New("dial tcp: lookup login.microsoftonline.com: no such host")}
	summary, detail := signInText(u)
	if summary != "Cannot reach login.microsoftonline.com" || !strings.Contains(detail, "no network route or proxy") ||
		!strings.Contains(detail, "HTTPS_PROXY") || strings.Contains(detail, "client secret") || strings.Contains(detail, "expired") {
		t.Errorf("unreachable: %q / %q", summary, detail)
	}
	summary, detail = signInText(&azure.SignInError{Method: "a service principal with a client secret", Err: errors.New("AADSTS7000215: Invalid client secret provided")})
	if summary != "Could not sign in to Azure" || !strings.Contains(detail, "AADSTS7000215") || !strings.Contains(detail, "client secret") {
		t.Errorf("refused credential: %q / %q", summary, detail)
	}
}
