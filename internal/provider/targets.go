// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// targetArgs says which argument names what, for the diagnostics of a
// data source whose targets could not be used (gather's target errors).
type targetArgs struct {
	// of is the argument that names id (a resource the request names).
	of func(id model.ResourceID) path.Path
	// pools is the argument naming node pools (node_pools, node_pool).
	pools path.Path
	// registry is the argument of the registry (registry_id, registry).
	registry path.Path
	// offline: the provider answers from snapshot_file.
	offline bool
}

// failsClosed is what every target diagnostic of pullpath_verification
// ends with: why enforce does not change it.
const failsClosed = "This fails the plan whatever enforce and fail_on_unverified say: a verification that could not read " +
	"what it was asked to check has checked nothing, and must not pass."

// targetDiagnostics are the error diagnostics of gather's target errors in
// err (one per *gather.TargetError, *gather.PoolNotFoundError,
// *gather.NothingToCheckError or *gather.NICWithoutSubnetError, joined or
// not), each on the argument that names the resource; empty when err holds
// none. tail, when not empty, ends every detail.
func targetDiagnostics(err error, args targetArgs, gaps model.Gaps, timeout time.Duration, tail string) diag.Diagnostics {
	var diags diag.Diagnostics
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok { //nolint:errorlint // the joined errors, one level
		errs = joined.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	end := func(detail string) string {
		if tail == "" {
			return detail
		}
		return detail + "\n\n" + tail
	}
	for _, e := range errs {
		var target *gather.TargetError
		var pool *gather.PoolNotFoundError
		var nothing *gather.NothingToCheckError
		var noSubnet *gather.NICWithoutSubnetError
		switch {
		case errors.As(e, &target):
			gap := gapOf(target.ID, target.Err, gaps)
			if target.Gap != nil {
				gap = *target.Gap
			}
			// Offline, every answer is the snapshot's (a subnet its
			// virtual network lacks included).
			gap.Snapshot = gap.Snapshot || args.offline
			summary, detail := describeReadFailure(target.ID, target.Err, gap, timeout)
			if !target.ID.Equal(target.Named) {
				detail = fmt.Sprintf("To read the %s, the provider reads its %s. %s", target.Named.Label(), kindWords(target.ID), detail)
			}
			diags.AddAttributeError(args.of(target.Named), summary, end(detail))
		case errors.As(e, &pool):
			diags.AddAttributeError(args.pools, "Node pool not found", end(unknownPoolMessage(pool, args.pools)))
		case errors.As(e, &nothing) && nothing.NoPools:
			diags.AddAttributeError(args.of(nothing.Cluster.ID), "The cluster has no node pool to check", end(noPoolsMessage(nothing, args.offline)))
		case errors.As(e, &nothing):
			diags.AddAttributeError(args.registry, "The registry has no hostname to check",
				end(fmt.Sprintf("The %s (%s) hands out no hostname (it has no login server), so there is not one path to check. "+
					"Check that registry_id names a container registry that is provisioned; for a registry that is not an Azure "+
					"Container Registry, use a registry block with its hosts.", nothing.Registry.ID.Label(), nothing.Registry.ID)))
		case errors.As(e, &noSubnet):
			diags.AddAttributeError(args.of(noSubnet.NIC.ID), "Network interface without a subnet",
				fmt.Sprintf("The %s (%s) has no ip configuration in a subnet, so it has no routes. Give the id of a network "+
					"interface attached to a subnet, or the subnet's id in subnet_id.", noSubnet.NIC.ID.Label(), noSubnet.NIC.ID))
		}
	}
	return diags
}

// unknownPoolMessage says which pools the cluster has.
func unknownPoolMessage(e *gather.PoolNotFoundError, arg path.Path) string {
	have := "It has no node pools"
	if len(e.Pools) > 0 {
		have = "Its node pools are: " + strings.Join(e.Pools, ", ")
	}
	msg := fmt.Sprintf("The AKS cluster %s has no node pool named %q. %s. Set %s to one of them, or remove it to check every pool.",
		e.Cluster.Name, e.Name, have, arg)
	if e.ListGap != nil {
		msg += fmt.Sprintf(" (The agent pools could not be listed (%s), so this is the cluster's own list, which can lag behind.)", e.ListGap.Detail)
	}
	return msg
}

// noPoolsMessage: a readable cluster without a pool to check.
func noPoolsMessage(e *gather.NothingToCheckError, offline bool) string {
	id := e.Cluster.ID
	msg := fmt.Sprintf("The %s (%s) lists no node pools, so there is not one path to check.", id.Label(), id)
	switch {
	case e.ListGap != nil && e.ListGap.Snapshot:
		msg += " The snapshot (snapshot_file) has no list of its agent pools: record it again (record_file)."
	case e.ListGap != nil:
		msg += fmt.Sprintf(" Its agent pools could not be listed (%s): the identity the provider signs in as needs "+
			"Microsoft.ContainerService/managedClusters/agentPools/read on it (the built-in Reader role includes it).", gapSummary(*e.ListGap))
	case offline:
		msg += " The snapshot (snapshot_file) has no agent pools for it: add a node pool, or record the snapshot again (record_file)."
	default:
		msg += " Add a node pool to the cluster, or check the cluster id."
	}
	return msg
}
