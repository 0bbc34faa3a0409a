// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// NodeRouteFacts is what pullpath_node_routes evaluates, as gather reads it
// for an AKS cluster (every node pool, or one), a subnet or a network
// interface: the route sets to report and the network their routes and
// traces depend on. Nothing in it is fetched later; a read that failed is a
// gap (in Network.Gaps, or on the route set it concerns).
type NodeRouteFacts struct {
	// Cluster is the AKS cluster asked for: its id and node resource group
	// name a pool whose subnet is unknown. Nil for a subnet or a network
	// interface.
	Cluster *Cluster
	// Sets are the route sets: one per node pool, pools by name, or the one
	// of the subnet or the network interface.
	Sets []*RouteSet
	// Network is the closure of the sets' subnets (VNets, peerings, route
	// tables, gateways, private endpoints, appliances), with the security
	// groups of the sets' NICs and the NICs that hold the destinations.
	// Network.Gaps are the failed reads of the whole run.
	Network *Network
}

// RouteSet is the routes of one node pool, subnet or network interface, as
// read: a network interface's real effective route table, or what is known
// to compute them from configuration.
type RouteSet struct {
	// Pool is the node pool's name; empty for a subnet or a network
	// interface.
	Pool string
	// SubnetID is the subnet the routes belong to; empty when a pool's
	// subnet could not be determined (SubnetGap then says why, if a read
	// failed): nothing about its routes is known.
	SubnetID ResourceID
	// NIC is the network interface asked for, or the node NIC whose
	// effective route table stands for a VirtualMachines pool; nil for
	// computed pool routes and for a subnet.
	NIC *NIC
	// Effective is NIC's real effective route table; nil means the routes
	// are computed from configuration, Computed says why.
	Effective []Route
	Computed  ComputedReason
	// Source is the node address flows start from; invalid means the first
	// address Azure hands out in the subnet (a pool at zero nodes, a subnet).
	Source netip.Addr
	// NodeNIC is a node's network interface in the subnet (its application
	// security groups, and its security group unless NICGroupID is set);
	// nil for a pool at zero nodes and for a subnet.
	NodeNIC *NIC
	// NICGroupID is the NIC-level security group of a scale-set pool: the
	// one of the scale set's NIC configuration, which every new instance
	// gets.
	NICGroupID ResourceID
	// NICGroupGap is set for a scale-set pool whose scale set was not read:
	// the group of its NIC configuration is unknown.
	NICGroupGap *Gap
	// EffectiveGaps are the effective route tables that were asked for and
	// could not be read, in the order asked.
	EffectiveGaps []EffectiveRoutesGap
	// SubnetGap is, for a pool whose subnet is unknown, the failed listing
	// of the virtual networks of the node resource group (where an
	// AKS-managed VNet would be); nil when they were listed and none was
	// found.
	SubnetGap *Gap
}

// EffectiveRoutesGap is an effective route table that could not be read:
// the network interface asked and why.
type EffectiveRoutesGap struct {
	NIC *NIC
	Gap Gap
}

// ComputedReason says why a route set's routes are computed from
// configuration instead of read from Azure.
type ComputedReason string

// Reasons for computed routes.
const (
	// Pools.
	ComputedSubnetUnknown   ComputedReason = "subnet_unknown"   // the pool's subnet is unknown: nothing is computed
	ComputedEffectiveUnread ComputedReason = "effective_unread" // the effective route table could not be read (EffectiveGaps)
	ComputedNoNICInSubnet   ComputedReason = "no_nic_in_subnet" // a VirtualMachines pool whose NICs are all in other subnets
	ComputedNICsUnread      ComputedReason = "nics_unread"      // a VirtualMachines pool whose VMs' NICs could not be read
	ComputedPlanned         ComputedReason = "planned"          // the planned changes alter the network the effective route table describes
	ComputedNoRunningNode   ComputedReason = "no_running_node"  // a VirtualMachines pool without a NIC to ask
	ComputedNoNodes         ComputedReason = "no_nodes"         // a scale-set pool at zero nodes
	ComputedScaleSetPool    ComputedReason = "scale_set_pool"   // scale-set instance NICs have no effective-route API
	// Network interfaces.
	ComputedScaleSetNIC     ComputedReason = "scale_set_nic"    // a scale-set instance's NIC
	ComputedPrivateEndpoint ComputedReason = "private_endpoint" // a private endpoint's NIC
	ComputedNoVM            ComputedReason = "no_vm"            // a NIC attached to no VM
	ComputedNoEffectiveAPI  ComputedReason = "no_effective_api" // Azure has no effective-route API for it
	// Subnets.
	ComputedSubnetGiven ComputedReason = "subnet_given" // a subnet was asked for, not a NIC
)
