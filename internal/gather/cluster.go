package gather

import (
	"context"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Cluster discovers an AKS cluster's node pools as far as image pulls go:
// the kubelet identity (identityProfile.kubeletidentity), every agent pool
// (System and User, Linux and Windows, at zero nodes too) with its subnet
// (vnetSubnetID, or the AKS-managed VNet's aks-subnet in the node resource
// group), its scale set (by the aks-managed-poolName tag) with the NIC
// configuration new instances get, and its NICs with addresses and DNS
// servers. Pools of type VirtualMachines get their VMs' NICs. A failed read
// of a pool's NICs leaves NICsKnown false; only an unreadable cluster is an
// error.
func (r *Reader) Cluster(ctx context.Context, id model.ResourceID) (*model.Cluster, error) {
	cl, err := r.clusterPools(ctx, id)
	if err != nil {
		return nil, err
	}
	r.clusterNodes(ctx, id, cl)
	return cl, nil
}

// clusterPools is the first half of Cluster: the cluster, its pools and
// their subnets (everything the network closure starts from), without the
// pools' scale sets, VMs and NICs (clusterNodes).
func (r *Reader) clusterPools(ctx context.Context, id model.ResourceID) (*model.Cluster, error) {
	return once(r, memoKey("cluster", id), func() (*model.Cluster, error) {
		a, err := parseTyped(id, "Microsoft.ContainerService", "managedClusters")
		if err != nil {
			return nil, r.fail(id, permClusterRead, err)
		}
		f, err := r.clients.ContainerService(a.SubscriptionID)
		if err != nil {
			return nil, r.fail(id, permClusterRead, err)
		}
		// The cluster ∥ its agent pools: the list needs only the cluster's
		// id. It is authoritative; the cluster's own agentPoolProfiles stand
		// in when it cannot be read. Its answer (and its failure) counts
		// only if the cluster itself was read.
		var (
			resp     armcontainerservice.ManagedClustersClientGetResponse
			getErr   error
			getGap   bool
			pools    []*armcontainerservice.AgentPool
			poolsErr error
		)
		all(ctx, r, func(ctx context.Context) {
			release, err := r.acquire(ctx)
			if err != nil {
				getErr = err
				return
			}
			resp, getErr = f.NewManagedClustersClient().Get(ctx, a.ResourceGroup, a.Names[0], nil)
			release()
			getGap = getErr != nil
		}, func(ctx context.Context) {
			pools, poolsErr = collect(ctx, r, f.NewAgentPoolsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
				func(p armcontainerservice.AgentPoolsClientListResponse) []*armcontainerservice.AgentPool {
					return p.Value
				})
		})
		if getErr != nil {
			if getGap {
				return nil, r.fail(id, permClusterRead, getErr)
			}
			return nil, getErr
		}
		cl, err := clusterFromSDK(&resp.ManagedCluster)
		if err != nil {
			return nil, r.fail(id, permClusterRead, err)
		}
		if poolsErr != nil {
			r.record(child(id, "agentPools"), permAgentPoolRead, poolsErr)
		} else {
			cl.Pools = nil
			for _, p := range pools {
				cl.Pools = append(cl.Pools, agentPoolFromSDK(p))
			}
		}
		if cl.NodeResourceGroup == "" {
			return cl, nil
		}

		needVNet := false
		for _, p := range cl.Pools {
			needVNet = needVNet || p.SubnetID.IsZero()
		}
		if needVNet {
			if subnet := r.managedSubnet(ctx, a.SubscriptionID, cl.NodeResourceGroup); !subnet.IsZero() {
				for _, p := range cl.Pools {
					if p.SubnetID.IsZero() {
						p.SubnetID = subnet
					}
				}
			}
		}
		return cl, nil
	})
}

// clusterNodes is the second half of Cluster (id is the cluster id it was
// read with), once per cluster: each
// pool's scale set (with the NIC configuration new instances get) or VMs,
// and their NICs. It sets the pools' node fields (ScaleSetID, NSGID,
// DNSServers, NICIDs, NICs, NICsKnown, VMIDs) and nothing else, so that
// the network closure of the pools' subnets can be read meanwhile.
func (r *Reader) clusterNodes(ctx context.Context, id model.ResourceID, cl *model.Cluster) {
	_, _ = once(r, memoKey("cluster-nodes", id), func() (struct{}, error) {
		if cl.NodeResourceGroup == "" {
			return struct{}{}, nil
		}
		var needVMSS, needVMs bool
		for _, p := range cl.Pools {
			if strings.EqualFold(p.Type, poolTypeVMs) {
				needVMs = true
			} else {
				needVMSS = true
			}
		}
		sub, nodeRG := id.Subscription(), cl.NodeResourceGroup
		var scaleSets []*armcompute.VirtualMachineScaleSet
		var vms []*armcompute.VirtualMachine
		var ssErr, vmErr error
		if needVMSS {
			scaleSets, ssErr = r.scaleSetsInGroup(ctx, sub, nodeRG)
		}
		if needVMs {
			vms, vmErr = r.vmsInGroup(ctx, sub, nodeRG)
		}

		each(ctx, r, cl.Pools, func(ctx context.Context, p *model.NodePool) {
			if strings.EqualFold(p.Type, poolTypeVMs) {
				if vmErr == nil {
					r.vmPoolNICs(ctx, p, vms)
				}
				return
			}
			if ssErr == nil {
				r.scaleSetPoolNICs(ctx, sub, nodeRG, p, scaleSets)
			}
		})
		return struct{}{}, nil
	})
}

// managedSubnet is the aks-subnet of the AKS-managed aks-vnet-* VNet in
// the node resource group, or "".
func (r *Reader) managedSubnet(ctx context.Context, sub, group string) model.ResourceID {
	coll := groupCollection(sub, group, "Microsoft.Network", "virtualNetworks")
	list, err := read(r, "list", coll, permVNetRead, func() ([]*armnetwork.VirtualNetwork, error) {
		f, err := r.clients.Network(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewVirtualNetworksClient().NewListPager(group, nil),
			func(p armnetwork.VirtualNetworksClientListResponse) []*armnetwork.VirtualNetwork { return p.Value })
	})
	if err != nil {
		return ""
	}
	for _, v := range list {
		if !strings.HasPrefix(strings.ToLower(str(v.Name)), managedVNetPrefix) || v.Properties == nil {
			continue
		}
		for _, s := range v.Properties.Subnets {
			if s != nil && strings.EqualFold(str(s.Name), managedSubnetName) {
				return rid(s.ID)
			}
		}
		// The subnet's id follows from the VNet's even if the answer
		// does not embed it.
		return child(rid(v.ID), "subnets/"+managedSubnetName)
	}
	return ""
}

// scaleSetsInGroup lists the scale sets of the node resource group.
func (r *Reader) scaleSetsInGroup(ctx context.Context, sub, group string) ([]*armcompute.VirtualMachineScaleSet, error) {
	coll := groupCollection(sub, group, "Microsoft.Compute", "virtualMachineScaleSets")
	return read(r, "list", coll, permVMSSRead, func() ([]*armcompute.VirtualMachineScaleSet, error) {
		f, err := r.clients.Compute(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewVirtualMachineScaleSetsClient().NewListPager(group, nil),
			func(p armcompute.VirtualMachineScaleSetsClientListResponse) []*armcompute.VirtualMachineScaleSet {
				return p.Value
			})
	})
}

// vmsInGroup lists the virtual machines of the node resource group.
func (r *Reader) vmsInGroup(ctx context.Context, sub, group string) ([]*armcompute.VirtualMachine, error) {
	coll := groupCollection(sub, group, "Microsoft.Compute", "virtualMachines")
	return read(r, "list", coll, permVMRead, func() ([]*armcompute.VirtualMachine, error) {
		f, err := r.clients.Compute(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewVirtualMachinesClient().NewListPager(group, nil),
			func(p armcompute.VirtualMachinesClientListResponse) []*armcompute.VirtualMachine { return p.Value })
	})
}

// scaleSetPoolNICs finds the pool's scale set and lists its instance NICs
// (one read for all instances). The NICs are primed into the Reader so
// that NIC(id) later costs no read.
func (r *Reader) scaleSetPoolNICs(ctx context.Context, sub, group string, pool *model.NodePool, scaleSets []*armcompute.VirtualMachineScaleSet) {
	var ss *armcompute.VirtualMachineScaleSet
	for _, s := range scaleSets {
		if strings.EqualFold(poolTag(s.Tags), pool.Name) {
			ss = s
			break
		}
	}
	if ss == nil {
		// No scale set (yet): nothing is known about instances.
		return
	}
	if err := scaleSetNICConfig(pool, ss); err != nil {
		r.record(pool.ScaleSetID, permVMSSRead, err)
	}
	coll := child(pool.ScaleSetID, "networkInterfaces")
	nics, err := read(r, "list", coll, permVMSSNICList, func() ([]*armnetwork.Interface, error) {
		f, err := r.clients.Network(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewInterfacesClient().NewListVirtualMachineScaleSetNetworkInterfacesPager(group, str(ss.Name), nil),
			func(p armnetwork.InterfacesClientListVirtualMachineScaleSetNetworkInterfacesResponse) []*armnetwork.Interface {
				return p.Value
			})
	})
	if err != nil {
		return
	}
	known := true
	for _, raw := range nics {
		nicID := rid(raw.ID)
		prime(r, memoKey("nic-get", nicID), raw)
		nic, err := r.NIC(ctx, nicID)
		if err != nil {
			known = false
			continue
		}
		pool.NICIDs = append(pool.NICIDs, nic.ID)
		pool.NICs = append(pool.NICs, nic)
	}
	pool.NICsKnown = known
}

// vmPoolNICs collects the NICs of a VirtualMachines pool's VMs (tagged with
// the pool's name) and reads them.
func (r *Reader) vmPoolNICs(ctx context.Context, pool *model.NodePool, vms []*armcompute.VirtualMachine) {
	var ids []model.ResourceID
	for _, vm := range vms {
		if !strings.EqualFold(poolTag(vm.Tags), pool.Name) {
			continue
		}
		pool.VMIDs = appendUniqueID(pool.VMIDs, rid(vm.ID))
		pool.Unmodelled = append(pool.Unmodelled, unmodelledOf(rid(vm.ID), vm)...)
		for _, n := range vmNICIDs(vm) {
			ids = appendUniqueID(ids, n)
		}
	}
	nics, _ := mapEach(ctx, r, ids, r.NIC)
	known := true
	for i, n := range nics {
		if n == nil {
			known = false
			continue
		}
		pool.NICIDs = append(pool.NICIDs, ids[i])
		pool.NICs = append(pool.NICs, n)
	}
	pool.NICsKnown = known
}
