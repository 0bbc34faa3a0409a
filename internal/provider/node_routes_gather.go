// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// nodeRoutesQuery is what pullpath_node_routes was asked for: exactly one
// of a cluster (optionally one pool), a subnet, a network interface.
type nodeRoutesQuery struct {
	ClusterID model.ResourceID
	NodePool  string
	SubnetID  model.ResourceID
	NICID     model.ResourceID
}

// maxEffectiveTries bounds the NICs of a VirtualMachines pool asked for an
// effective route table: a stopped VM has none, the next one may.
const maxEffectiveTries = 3

// Pool types (agentPoolProfiles.type).
const (
	nodePoolTypeVMs = "VirtualMachines"
)

// gatherNodeRouteSets discovers the route sets to report and reads the
// network they need: for a cluster, each pool → its subnet → its scale set
// or VMs → their NICs; for a NIC, the NIC and its subnet; for a subnet, the
// subnet. Pools of type VirtualMachines and standalone NICs of running VMs
// get their real effective route table. Failures of the resource an
// argument names are attribute errors; everything the routes merely depend
// on becomes evidence in the result.
func gatherNodeRouteSets(ctx context.Context, r *gather.Reader, q nodeRoutesQuery, timeout time.Duration) ([]*nodeRouteSet, *model.Network, diag.Diagnostics) {
	switch {
	case !q.ClusterID.IsZero():
		return clusterRouteSets(ctx, r, q, timeout)
	case !q.NICID.IsZero():
		return nicRouteSet(ctx, r, q.NICID, timeout)
	default:
		return subnetRouteSet(ctx, r, q.SubnetID, timeout)
	}
}

// clusterRouteSets: one set per node pool (or the one named), pools by name.
func clusterRouteSets(ctx context.Context, r *gather.Reader, q nodeRoutesQuery, timeout time.Duration) ([]*nodeRouteSet, *model.Network, diag.Diagnostics) {
	var diags diag.Diagnostics
	cl, err := r.Cluster(ctx, q.ClusterID)
	if err != nil {
		diags.Append(readFailure(path.Root("cluster_id"), "AKS cluster", q.ClusterID, err, r.Gaps(), timeout))
		return nil, nil, diags
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
			diags.AddAttributeError(path.Root("node_pool"), "Node pool not found", unknownPoolMessage(cl, q.NodePool, pools, r.Gaps()))
			return nil, nil, diags
		}
		pools = picked
	}
	if len(pools) == 0 {
		diags.AddAttributeWarning(path.Root("cluster_id"), "The cluster has no node pools",
			fmt.Sprintf("The AKS cluster %s lists no node pools, so there are no routes to report. Add a node pool, or check that "+
				"the identity running the plan can read its agent pools (%s).", cl.ID, "Microsoft.ContainerService/managedClusters/agentPools/read"))
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
	sets := make([]*nodeRouteSet, 0, len(pools))
	for _, p := range pools {
		sets = append(sets, poolRouteSet(ctx, r, cl, p))
	}
	n.Gaps = r.Gaps()
	return sets, n, diags
}

// unknownPoolMessage says which pools the cluster has.
func unknownPoolMessage(cl *model.Cluster, name string, pools []*model.NodePool, gaps model.Gaps) string {
	names := make([]string, 0, len(pools))
	for _, p := range pools {
		names = append(names, p.Name)
	}
	have := "It has no node pools"
	if len(names) > 0 {
		have = "Its node pools are: " + strings.Join(names, ", ")
	}
	msg := fmt.Sprintf("The AKS cluster %s has no node pool named %q. %s. Set node_pool to one of them, or remove node_pool to get the routes of every pool.",
		cl.Name, name, have)
	if g, ok := gaps.Lookup(model.ResourceID(strings.TrimRight(string(cl.ID), "/") + "/agentPools")); ok {
		msg += fmt.Sprintf(" (The agent pools could not be listed (%s), so this is the cluster's own list, which can lag behind.)", g.Detail)
	}
	return msg
}

// poolRouteSet decides how a pool's routes are known.
func poolRouteSet(ctx context.Context, r *gather.Reader, cl *model.Cluster, p *model.NodePool) *nodeRouteSet {
	set := &nodeRouteSet{Pool: p.Name, SubnetID: p.SubnetID}
	if p.SubnetID.IsZero() {
		set.Blocked = true
		set.ComputedWhy = "its subnet is unknown"
		set.Notes = append(set.Notes, poolWithoutSubnetFinding(cl, p, r.Gaps()))
		return set
	}
	set.NICGroupID = p.NSGID
	if !strings.EqualFold(p.Type, nodePoolTypeVMs) && p.ScaleSetID.IsZero() {
		set.NICGroupGap = scaleSetGap(cl, p, r.Gaps())
	}
	nics := poolNICsIn(p, p.SubnetID)
	if len(nics) > 0 && nics[0].SubnetID.Equal(p.SubnetID) {
		set.Source = nics[0].PrivateIPs[0]
		set.NodeNIC = nics[0]
	}
	switch {
	case strings.EqualFold(p.Type, nodePoolTypeVMs) && len(nics) > 0 && nics[0].SubnetID.Equal(p.SubnetID):
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
			gap := gapOf(effectiveRouteTableID(nic.ID), err, r.Gaps())
			set.Notes = append(set.Notes, nodeRoutesGapFinding(gap, p.Name, "",
				"the effective route table of network interface "+nic.Name+" (the routes were computed from configuration instead)"))
		}
		set.ComputedWhy = "the effective route table of its nodes' network interfaces could not be read (see the EVIDENCE finding)"
	case strings.EqualFold(p.Type, nodePoolTypeVMs) && len(nics) > 0:
		set.ComputedWhy = "none of its nodes' network interfaces is in the pool's subnet"
	case strings.EqualFold(p.Type, nodePoolTypeVMs) && !p.NICsKnown:
		set.ComputedWhy = "its virtual machines' network interfaces could not be read"
	case strings.EqualFold(p.Type, nodePoolTypeVMs):
		set.ComputedWhy = "it has no running node, so there is no network interface to ask"
	case len(p.NICIDs) == 0 && p.NICsKnown && p.Count == 0:
		set.ComputedWhy = "it has no nodes, so there is no network interface to ask (and scale-set instances have no effective-route API anyway)"
	default:
		set.ComputedWhy = "it is a scale-set pool, and scale-set instance network interfaces have no effective-route API"
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

// poolWithoutSubnetFinding: the pool has no vnetSubnetID and the
// AKS-managed VNet of the node resource group was not found.
func poolWithoutSubnetFinding(cl *model.Cluster, p *model.NodePool, gaps model.Gaps) model.Finding {
	what := "the subnet of node pool " + p.Name
	if cl.NodeResourceGroup != "" {
		list := model.ResourceID(fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/virtualNetworks",
			cl.ID.Subscription(), cl.NodeResourceGroup))
		if g, ok := gaps.Lookup(list); ok {
			return nodeRoutesGapFinding(g, p.Name, "", what+" (the AKS-managed virtual network in "+cl.NodeResourceGroup+")")
		}
	}
	msg := fmt.Sprintf("Node pool %s reports no subnet (vnetSubnetID is empty) and no AKS-managed virtual network (aks-vnet-*) was found in "+
		"its node resource group %s, so its routes cannot be determined; every trace from it is unverified, never reachable.", p.Name, cl.NodeResourceGroup)
	fix := "Give the pool a subnet of your own virtual network (vnetSubnetID), or let the identity that runs the plan read the " +
		"cluster's node resource group (Microsoft.Network/virtualNetworks/read)."
	return model.NewFinding(model.EvidenceNotFound, p.Name, "", cl.ID+model.ResourceID("/agentPools/"+p.Name), msg, fix)
}

// effectiveRouteTableID is the id the reader records an effective route
// table read under.
func effectiveRouteTableID(nicID model.ResourceID) model.ResourceID {
	return model.ResourceID(strings.TrimRight(string(nicID), "/") + "/effectiveRouteTable")
}

// nicRouteSet: the routes of one network interface; effective when Azure
// has them (a standalone NIC of a running VM), computed otherwise.
func nicRouteSet(ctx context.Context, r *gather.Reader, nicID model.ResourceID, timeout time.Duration) ([]*nodeRouteSet, *model.Network, diag.Diagnostics) {
	var diags diag.Diagnostics
	attr := path.Root("network_interface_id")
	nic, err := r.NIC(ctx, nicID)
	if err != nil {
		diags.Append(readFailure(attr, "network interface", nicID, err, r.Gaps(), timeout))
		return nil, nil, diags
	}
	if nic.SubnetID.IsZero() {
		diags.AddAttributeError(attr, "Network interface without a subnet",
			fmt.Sprintf("The network interface %s has no ip configuration in a subnet, so it has no routes. Give the id of a network "+
				"interface attached to a subnet, or the subnet's id in subnet_id.", nic.ID))
		return nil, nil, diags
	}
	n, _ := r.Network(ctx, []model.ResourceID{nic.SubnetID})
	set := &nodeRouteSet{SubnetID: nic.SubnetID, NIC: nic, NodeNIC: nic}
	if len(nic.PrivateIPs) > 0 {
		set.Source = nic.PrivateIPs[0]
	}
	switch {
	case isScaleSetNIC(nic.ID):
		set.ComputedWhy = "it is a scale-set instance's network interface, and those have no effective-route API"
	case !nic.PrivateEndpointID.IsZero():
		set.ComputedWhy = "it is the network interface of private endpoint " + nic.PrivateEndpointID.Name() + ", which has no effective route table"
	case nic.VMID.IsZero():
		set.ComputedWhy = "it is attached to no virtual machine, and Azure shows effective routes only for the network interface of a running VM"
	default:
		routes, err := r.EffectiveRoutes(ctx, nic.ID)
		if err == nil {
			set.Effective = routes
			break
		}
		if errors.Is(err, gather.ErrNoEffectiveRouteAPI) {
			set.ComputedWhy = "Azure has no effective-route API for it"
			break
		}
		gap := gapOf(effectiveRouteTableID(nic.ID), err, r.Gaps())
		set.Notes = append(set.Notes, nodeRoutesGapFinding(gap, "", "",
			"the effective route table of network interface "+nic.Name+" (the routes were computed from configuration instead)"))
		set.ComputedWhy = "its effective route table could not be read (see the EVIDENCE finding; a deallocated VM has none)"
	}
	n.Gaps = r.Gaps()
	return []*nodeRouteSet{set}, n, diags
}

// isScaleSetNIC reports the NIC of a scale-set instance
// (…/virtualMachineScaleSets/{v}/virtualMachines/{i}/networkInterfaces/{n}).
func isScaleSetNIC(id model.ResourceID) bool {
	p, err := ids.Parse(string(id))
	return err == nil && p.IsType(vmssNICType)
}

// subnetRouteSet: the routes computed for a subnet. A subnet (or VNet) that
// does not exist is an error on subnet_id; one that cannot be read (403,
// throttling) is evidence: the route set is reported, unverified.
func subnetRouteSet(ctx context.Context, r *gather.Reader, subnetID model.ResourceID, timeout time.Duration) ([]*nodeRouteSet, *model.Network, diag.Diagnostics) {
	var diags diag.Diagnostics
	n, _ := r.Network(ctx, []model.ResourceID{subnetID})
	if n.Subnet(subnetID) == nil {
		gaps := r.Gaps()
		id, what := subnetID, "subnet"
		gap, ok := gaps.Lookup(subnetID)
		if !ok {
			if g, vok := gaps.Lookup(subnetID.Parent()); vok {
				id, what, gap, ok = subnetID.Parent(), "virtual network of the subnet", g, true
			}
		}
		if !ok || gap.Kind == model.GapNotFound || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			if !ok {
				gap = model.Gap{ResourceID: subnetID, Kind: model.GapNotFound, Detail: "not in its virtual network"}
			}
			summary, detail := describeReadFailure(what, id, ctx.Err(), gap, timeout)
			diags.AddAttributeError(path.Root("subnet_id"), summary, detail)
			return nil, nil, diags
		}
	}
	set := &nodeRouteSet{SubnetID: subnetID,
		ComputedWhy: "a subnet was given: its routes are what Azure would program for any network interface in it " +
			"(for a VM's real effective routes, give its network interface in network_interface_id)"}
	n.Gaps = r.Gaps()
	return []*nodeRouteSet{set}, n, diags
}

// nodeDestinations parses destinations (already validated; checked again
// because values unknown at validate time are only known now).
func nodeDestinations(values []string) ([]nodeDestination, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]nodeDestination, 0, len(values))
	for i, s := range values {
		if msg := checkDestination(s); msg != "" {
			diags.AddAttributeError(path.Root("destinations").AtListIndex(i), "Invalid destination", msg)
			continue
		}
		out = append(out, nodeDestination{Text: s, Addr: netip.MustParseAddr(s).Unmap()})
	}
	return out, diags
}

// includeSecurityEvidence reads what the security rules on the traced
// paths need beyond the network closure (which already holds the groups of
// every subnet, of the private endpoints' and the appliances' NICs): the
// NIC-level groups of the route sets (a scale set's NIC configuration's, a
// node NIC's), and, for each destination in a VNet of the closure, the NIC
// that holds the address with its group (a registry VM, a DNS server). A
// destination whose NIC could not be determined is in n.AddressGaps (its
// trace is then unverified). n.Gaps is refreshed.
func includeSecurityEvidence(ctx context.Context, r *gather.Reader, n *model.Network, sets []*nodeRouteSet, dests []nodeDestination) {
	var groups []model.ResourceID
	for _, set := range sets {
		if !set.NICGroupID.IsZero() {
			groups = append(groups, set.NICGroupID)
		}
		if set.NodeNIC != nil && !set.NodeNIC.NSGID.IsZero() {
			groups = append(groups, set.NodeNIC.NSGID)
		}
	}
	addrs := make([]netip.Addr, len(dests))
	for i, d := range dests {
		addrs[i] = d.Addr
	}
	r.IncludeNICsAt(ctx, n, addrs)
	r.IncludeSecurityGroups(ctx, n, groups)
}

// scaleSetGap is why the NIC configuration of a scale-set pool is unknown:
// the node resource group's scale sets could not be listed, or none is
// tagged for the pool. Its security group then cannot be evaluated.
func scaleSetGap(cl *model.Cluster, p *model.NodePool, gaps model.Gaps) *model.Gap {
	list := model.ResourceID(fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/virtualMachineScaleSets",
		cl.ID.Subscription(), cl.NodeResourceGroup))
	if g, ok := gaps.Lookup(list); ok {
		return &g
	}
	return &model.Gap{ResourceID: list, Kind: model.GapNotFound,
		Detail: "no scale set tagged for node pool " + p.Name + " was found, so the security group of its NIC configuration is unknown"}
}
