// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// NodeRoutesRequest is what pullpath_node_routes asks for: exactly one of a
// cluster (optionally one pool), a subnet, a network interface, and the
// destinations its traces go to.
type NodeRoutesRequest struct {
	ClusterID model.ResourceID
	// NodePool names one pool of ClusterID (compared case-insensitively);
	// empty means every pool.
	NodePool string
	SubnetID model.ResourceID
	NICID    model.ResourceID
	// Destinations are the addresses traced: the NIC that holds one in a
	// VNet of the network is read with its security group.
	Destinations []netip.Addr
}

// maxEffectiveTries bounds the NICs of a VirtualMachines pool asked for an
// effective route table: a stopped VM has none, the next one may.
const maxEffectiveTries = 3

// NICWithoutSubnetError: the requested network interface has no ip
// configuration in a subnet, so it has no routes.
type NICWithoutSubnetError struct{ NIC *model.NIC }

func (e *NICWithoutSubnetError) Error() string {
	return fmt.Sprintf("network interface %s has no ip configuration in a subnet", e.NIC.ID)
}

// NodeRouteFacts reads the route sets of the request and the network they
// need: for a cluster, each pool → its subnet → its scale set or VMs →
// their NICs; for a NIC, the NIC and its subnet; for a subnet, the subnet.
// Pools of type VirtualMachines and standalone NICs of running VMs get their
// real effective route table. Then the network closure of the subnets, the
// security groups of the sets' NICs and the NICs holding the destinations.
//
// The resource the request names must be usable: when it is not, the error
// is a *TargetError, *PoolNotFoundError or *NICWithoutSubnetError and the
// facts are empty. Everything the routes merely depend on is a gap in the
// facts. When the read timeout ends the reading of the route sets, the
// error is ctx's (the facts hold what was read, the cluster with them).
func (r *Reader) NodeRouteFacts(ctx context.Context, q NodeRoutesRequest) (model.NodeRouteFacts, error) {
	var f model.NodeRouteFacts
	var err error
	switch {
	case !q.ClusterID.IsZero():
		f, err = r.clusterRouteSets(ctx, q)
	case !q.NICID.IsZero():
		f, err = r.nicRouteSet(ctx, q.NICID)
	default:
		f, err = r.subnetRouteSet(ctx, q.SubnetID)
	}
	if err != nil {
		return model.NodeRouteFacts{}, err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return f, ctx.Err()
	}
	r.includeSecurityEvidence(ctx, f.Network, f.Sets, q.Destinations)
	return f, nil
}

// clusterRouteSets: one set per node pool (or the one named), pools by name.
func (r *Reader) clusterRouteSets(ctx context.Context, q NodeRoutesRequest) (model.NodeRouteFacts, error) {
	cl, err := r.Cluster(ctx, q.ClusterID)
	if err != nil {
		return model.NodeRouteFacts{}, &TargetError{ID: q.ClusterID, Named: q.ClusterID, Err: err}
	}
	pools := append([]*model.NodePool(nil), cl.Pools...)
	sort.SliceStable(pools, func(i, j int) bool { return pools[i].Name < pools[j].Name })
	if q.NodePool != "" {
		var picked []*model.NodePool
		for _, p := range pools {
			if strings.EqualFold(p.Name, q.NodePool) {
				picked = append(picked, p)
			}
		}
		if len(picked) == 0 {
			return model.NodeRouteFacts{}, r.poolNotFound(cl, q.NodePool, pools)
		}
		pools = picked
	}

	var seeds []model.ResourceID
	seen := map[string]bool{}
	for _, p := range pools {
		if !p.SubnetID.IsZero() && !seen[p.SubnetID.Key()] {
			seen[p.SubnetID.Key()] = true
			seeds = append(seeds, p.SubnetID)
		}
	}
	n := model.NewNetwork()
	if len(seeds) > 0 {
		// A seed that cannot be read is a gap; its pools report it.
		n, _ = r.Network(ctx, seeds)
	}
	sets := make([]*model.RouteSet, 0, len(pools))
	for _, p := range pools {
		sets = append(sets, r.poolRouteSet(ctx, cl, p))
	}
	n.Gaps = r.Gaps()
	return model.NodeRouteFacts{Cluster: cl, Sets: sets, Network: n}, nil
}

// poolNotFound is the error for a pool name the cluster does not have.
func (r *Reader) poolNotFound(cl *model.Cluster, name string, pools []*model.NodePool) *PoolNotFoundError {
	e := &PoolNotFoundError{Cluster: cl, Name: name, Pools: make([]string, 0, len(pools))}
	for _, p := range pools {
		e.Pools = append(e.Pools, p.Name)
	}
	if g, ok := r.Gaps().Lookup(child(cl.ID, "agentPools")); ok {
		e.ListGap = &g
	}
	return e
}

// poolRouteSet decides how a pool's routes are known.
func (r *Reader) poolRouteSet(ctx context.Context, cl *model.Cluster, p *model.NodePool) *model.RouteSet {
	set := &model.RouteSet{Pool: p.Name, SubnetID: p.SubnetID}
	if p.SubnetID.IsZero() {
		set.Computed = model.ComputedSubnetUnknown
		if cl.NodeResourceGroup != "" {
			list := groupCollection(cl.ID.Subscription(), cl.NodeResourceGroup, "Microsoft.Network", "virtualNetworks")
			if g, ok := r.Gaps().Lookup(list); ok {
				set.SubnetGap = &g
			}
		}
		return set
	}
	vmPool := strings.EqualFold(p.Type, poolTypeVMs)
	set.NICGroupID = p.NSGID
	if !vmPool && p.ScaleSetID.IsZero() {
		set.NICGroupGap = r.scaleSetGap(cl, p)
	}
	nics := poolNICsIn(p, p.SubnetID)
	inSubnet := len(nics) > 0 && nics[0].SubnetID.Equal(p.SubnetID)
	if inSubnet {
		set.Source = nics[0].PrivateIPs[0]
		set.NodeNIC = nics[0]
	}
	switch {
	case vmPool && inSubnet:
		tries := 0
		for _, nic := range nics {
			// Only a NIC in the pool's subnet stands for the pool.
			if tries == maxEffectiveTries || !nic.SubnetID.Equal(p.SubnetID) {
				break
			}
			tries++
			routes, err := r.EffectiveRoutes(ctx, nic.ID)
			if err == nil {
				set.NIC, set.Effective, set.Source, set.NodeNIC = nic, routes, nic.PrivateIPs[0], nic
				return set
			}
			if errors.Is(err, ErrEffectiveRoutesPlanned) {
				set.Computed = model.ComputedPlanned
				return set
			}
			set.EffectiveGaps = append(set.EffectiveGaps, model.EffectiveRoutesGap{NIC: nic, Gap: r.effectiveRoutesGap(nic.ID, err)})
		}
		set.Computed = model.ComputedEffectiveUnread
	case vmPool && len(nics) > 0:
		set.Computed = model.ComputedNoNICInSubnet
	case vmPool && !p.NICsKnown:
		set.Computed = model.ComputedNICsUnread
	case vmPool:
		set.Computed = model.ComputedNoRunningNode
	case len(p.NICIDs) == 0 && p.NICsKnown && p.Count == 0:
		set.Computed = model.ComputedNoNodes
	default:
		set.Computed = model.ComputedScaleSetPool
	}
	return set
}

// poolNICsIn are the pool's NICs with an address, those in subnet first.
func poolNICsIn(p *model.NodePool, subnet model.ResourceID) []*model.NIC {
	var in, other []*model.NIC
	for _, nic := range p.NICs {
		if nic == nil || len(nic.PrivateIPs) == 0 {
			continue
		}
		if nic.SubnetID.Equal(subnet) {
			in = append(in, nic)
		} else {
			other = append(other, nic)
		}
	}
	return append(in, other...)
}

// scaleSetGap is why the NIC configuration of a scale-set pool is unknown:
// the node resource group's scale sets could not be listed, or none is
// tagged for the pool. Its security group then cannot be evaluated.
func (r *Reader) scaleSetGap(cl *model.Cluster, p *model.NodePool) *model.Gap {
	list := groupCollection(cl.ID.Subscription(), cl.NodeResourceGroup, "Microsoft.Compute", "virtualMachineScaleSets")
	if g, ok := r.Gaps().Lookup(list); ok {
		return &g
	}
	return &model.Gap{ResourceID: list, Kind: model.GapNotFound,
		Detail: "no scale set tagged for node pool " + p.Name + " was found, so the security group of its NIC configuration is unknown"}
}

// effectiveRoutesGap is the failed read of a NIC's effective route table,
// as recorded under its action id (…/effectiveRouteTable).
func (r *Reader) effectiveRoutesGap(nicID model.ResourceID, err error) model.Gap {
	action := child(nicID, "effectiveRouteTable")
	if g, ok := r.Gaps().Lookup(action); ok {
		return g
	}
	return azure.Gap(action, permEffectiveRoutes, err)
}

// nicRouteSet: the routes of one network interface; effective when Azure
// has them (a standalone NIC of a running VM), computed otherwise.
func (r *Reader) nicRouteSet(ctx context.Context, nicID model.ResourceID) (model.NodeRouteFacts, error) {
	nic, err := r.NIC(ctx, nicID)
	if err != nil {
		return model.NodeRouteFacts{}, &TargetError{ID: nicID, Named: nicID, Err: err}
	}
	if nic.SubnetID.IsZero() {
		return model.NodeRouteFacts{}, &NICWithoutSubnetError{NIC: nic}
	}
	n, _ := r.Network(ctx, []model.ResourceID{nic.SubnetID})
	set := &model.RouteSet{SubnetID: nic.SubnetID, NIC: nic, NodeNIC: nic}
	if len(nic.PrivateIPs) > 0 {
		set.Source = nic.PrivateIPs[0]
	}
	switch {
	case isScaleSetNIC(nic.ID):
		set.Computed = model.ComputedScaleSetNIC
	case !nic.PrivateEndpointID.IsZero():
		set.Computed = model.ComputedPrivateEndpoint
	case nic.VMID.IsZero():
		set.Computed = model.ComputedNoVM
	default:
		routes, err := r.EffectiveRoutes(ctx, nic.ID)
		switch {
		case err == nil:
			set.Effective = routes
		case errors.Is(err, ErrNoEffectiveRouteAPI):
			set.Computed = model.ComputedNoEffectiveAPI
		case errors.Is(err, ErrEffectiveRoutesPlanned):
			set.Computed = model.ComputedPlanned
		default:
			set.EffectiveGaps = []model.EffectiveRoutesGap{{NIC: nic, Gap: r.effectiveRoutesGap(nic.ID, err)}}
			set.Computed = model.ComputedEffectiveUnread
		}
	}
	n.Gaps = r.Gaps()
	return model.NodeRouteFacts{Sets: []*model.RouteSet{set}, Network: n}, nil
}

// isScaleSetNIC reports the NIC of a scale-set instance
// (…/virtualMachineScaleSets/{v}/virtualMachines/{i}/networkInterfaces/{n}).
func isScaleSetNIC(id model.ResourceID) bool {
	a, err := parseID(id)
	return err == nil && isType(a, "Microsoft.Compute", "virtualMachineScaleSets", "virtualMachines", "networkInterfaces")
}

// subnetRouteSet: the routes computed for a subnet. A subnet (or VNet) that
// cannot be read (404, 403, unavailable) is a *TargetError (subnetTarget).
func (r *Reader) subnetRouteSet(ctx context.Context, subnetID model.ResourceID) (model.NodeRouteFacts, error) {
	n, _ := r.Network(ctx, []model.ResourceID{subnetID})
	if te := subnetTarget(n, r.Gaps(), subnetID); te != nil {
		te.Err = ctx.Err()
		return model.NodeRouteFacts{}, te
	}
	set := &model.RouteSet{SubnetID: subnetID, Computed: model.ComputedSubnetGiven}
	n.Gaps = r.Gaps()
	return model.NodeRouteFacts{Sets: []*model.RouteSet{set}, Network: n}, nil
}

// includeSecurityEvidence reads what the security rules on the traced
// paths need beyond the network closure (which already holds the groups of
// every subnet, of the private endpoints' and the appliances' NICs): the
// NIC-level groups of the route sets (a scale set's NIC configuration's, a
// node NIC's), and, for each destination in a VNet of the closure, the NIC
// that holds the address with its group (a registry VM, a DNS server). A
// destination whose NIC could not be determined is in n.AddressGaps (its
// trace is then unverified). Then the service tags the routes, rules and
// service endpoints name (IncludeServiceTags). n.Gaps is refreshed.
func (r *Reader) includeSecurityEvidence(ctx context.Context, n *model.Network, sets []*model.RouteSet, dests []netip.Addr) {
	var groups []model.ResourceID
	for _, set := range sets {
		if !set.NICGroupID.IsZero() {
			groups = append(groups, set.NICGroupID)
		}
		if set.NodeNIC != nil && !set.NodeNIC.NSGID.IsZero() {
			groups = append(groups, set.NodeNIC.NSGID)
		}
	}
	r.IncludeNICsAt(ctx, n, dests)
	r.IncludeSecurityGroups(ctx, n, groups)
	// Last: every security group and route table of the paths is in n now;
	// the members of the service tags they name, and the security admin
	// rules in effect on its VNets.
	r.IncludeServiceTags(ctx, n)
	var subnets []model.ResourceID
	for _, set := range sets {
		if !set.SubnetID.IsZero() {
			subnets = append(subnets, set.SubnetID)
		}
	}
	r.IncludeAdminRules(ctx, n, subnets)
}
