package gather

import (
	"errors"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// VerificationTargets is nil exactly when every resource the request names
// was read and there is a path to check; otherwise one error per problem,
// naming the argument's resource.
func TestVerificationTargets(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001"
	cluster := model.ResourceID(sub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1")
	registry := model.ResourceID(sub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg")
	vnet := model.ResourceID(sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	subnet := vnet + "/subnets/snet-aks"
	pools := []*model.NodePool{{Name: "system", SubnetID: subnet}, {Name: "user", SubnetID: subnet}}
	good := func() model.Facts {
		n := model.NewNetwork()
		n.Subnets[subnet.Key()] = &model.Subnet{ID: subnet}
		return model.Facts{
			Cluster:  &model.Cluster{ID: cluster, Name: "aks1", Pools: pools},
			Pools:    pools,
			Registry: &model.Registry{ID: registry, Name: "contosoreg", LoginServer: "contosoreg.azurecr.io"},
			Network:  n,
			Gaps:     model.Gaps{},
		}
	}
	q := VerificationRequest{ClusterID: cluster, RegistryID: registry}
	if err := VerificationTargets(q, good()); err != nil {
		t.Fatalf("everything read: %v", err)
	}
	if err := VerificationTargets(VerificationRequest{ClusterID: cluster, RegistryID: registry, NodePools: []string{"SYSTEM"}}, good()); err != nil {
		t.Fatalf("a pool named in another casing: %v", err)
	}
	if err := VerificationTargets(VerificationRequest{NodeSubnetIDs: []model.ResourceID{subnet}, RegistryID: registry}, good()); err != nil {
		t.Fatalf("node subnets read: %v", err)
	}

	var target *TargetError
	var pool *PoolNotFoundError
	var nothing *NothingToCheckError

	f := good()
	f.Gaps.Add(model.Gap{ResourceID: cluster, Kind: model.GapPermissionDenied, Permission: permClusterRead})
	f.Cluster, f.Pools = &model.Cluster{ID: cluster, Name: "aks1"}, nil
	if err := VerificationTargets(q, f); !errors.As(err, &target) || !target.Named.Equal(cluster) || target.Gap.Kind != model.GapPermissionDenied ||
		errors.As(err, &nothing) {
		t.Errorf("cluster refused: %v (and no second error about its pools)", err)
	}

	f = good()
	f.Registry = nil
	if err := VerificationTargets(q, f); !errors.As(err, &target) || !target.Named.Equal(registry) || target.Gap.Kind != model.GapNotFound {
		t.Errorf("registry missing: %v", err)
	}

	err := VerificationTargets(VerificationRequest{ClusterID: cluster, RegistryID: registry, NodePools: []string{"sysstem", "user", "gpu"}}, good())
	var names []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if errors.As(e, &pool) {
			names = append(names, pool.Name)
			if len(pool.Pools) != 2 || pool.Pools[0] != "system" {
				t.Errorf("the pools it has: %v", pool.Pools)
			}
		}
	}
	if len(names) != 2 || names[0] != "sysstem" || names[1] != "gpu" {
		t.Errorf("pool typos: %v (%v)", names, err)
	}

	f = good()
	f.Cluster.Pools, f.Pools = nil, nil
	if err := VerificationTargets(q, f); !errors.As(err, &nothing) || !nothing.NoPools {
		t.Errorf("no pools: %v", err)
	}

	f = good()
	f.Registry.LoginServer = ""
	if err := VerificationTargets(q, f); !errors.As(err, &nothing) || !nothing.NoHosts {
		t.Errorf("no hostnames: %v", err)
	}

	typo := vnet + "/subnets/snet-typo"
	err = VerificationTargets(VerificationRequest{NodeSubnetIDs: []model.ResourceID{subnet, typo}, RegistryID: registry}, good())
	if !errors.As(err, &target) || !target.Named.Equal(typo) || target.Gap.Kind != model.GapNotFound {
		t.Errorf("a subnet its VNet lacks: %v", err)
	}
	f = good()
	delete(f.Network.Subnets, subnet.Key())
	f.Gaps.Add(model.Gap{ResourceID: vnet, Kind: model.GapUnreachable, Detail: "cannot reach management.azure.com"})
	err = VerificationTargets(VerificationRequest{NodeSubnetIDs: []model.ResourceID{subnet}, RegistryID: registry}, f)
	if !errors.As(err, &target) || !target.Named.Equal(subnet) || !target.ID.Equal(vnet) || target.Gap.Kind != model.GapUnreachable {
		t.Errorf("the subnet's VNet unreachable: %v", err)
	}
}
