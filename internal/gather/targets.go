// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The resources a data source's arguments name are its targets. A target
// that cannot be read, or a request that leaves nothing to check, is an
// error of the read, never a finding: a check that could check nothing
// must fail, whatever enforce says (docs/design/findings.md, "Fails
// closed"). This file is the one home of that rule: NodeRouteFacts returns
// these errors for its targets, and VerificationTargets finds them in the
// facts of a verification. Resources on the path that no argument names
// stay gaps (EVIDENCE_* findings).

// TargetError: a resource the request names could not be read (404, 403,
// unavailable, unreachable), so there is nothing to report about it.
// Named is the id the request names; ID is the resource whose read failed:
// Named itself, or the virtual network of a named subnet. Gap, when set,
// is the failed read as classified here; else Err is classified from the
// Reader's gaps.
type TargetError struct {
	ID    model.ResourceID
	Named model.ResourceID
	Err   error
	Gap   *model.Gap
}

func (e *TargetError) Error() string {
	if e.Err == nil && e.Gap != nil {
		return fmt.Sprintf("reading %s: %s", e.ID.Label(), e.Gap.Kind)
	}
	return fmt.Sprintf("reading %s: %v", e.ID.Label(), e.Err)
}

func (e *TargetError) Unwrap() error { return e.Err }

// PoolNotFoundError: the cluster has no node pool of the requested name.
// Pools are the names it has, sorted; ListGap is set when its agent pools
// could not be listed (the names are then the cluster's own list, which
// can lag behind).
type PoolNotFoundError struct {
	Cluster *model.Cluster
	Name    string
	Pools   []string
	ListGap *model.Gap
}

func (e *PoolNotFoundError) Error() string {
	return fmt.Sprintf("AKS cluster %s has no node pool named %q", e.Cluster.Name, e.Name)
}

// NothingToCheckError: the targets were read, but they leave no path to
// check: the cluster has no node pool (NoPools; ListGap set when its agent
// pools could not be listed), or the registry hands out no hostname
// (NoHosts).
type NothingToCheckError struct {
	Cluster  *model.Cluster
	NoPools  bool
	ListGap  *model.Gap
	Registry *model.Registry
	NoHosts  bool
}

func (e *NothingToCheckError) Error() string {
	if e.NoPools {
		return fmt.Sprintf("%s has no node pool to check", e.Cluster.ID.Label())
	}
	return "the registry has no hostname to check"
}

// VerificationTargets is nil when every target of q could be read from f
// (the facts VerificationFacts gathered for q) and there is at least one
// node pool × hostname to check. Otherwise it joins one error per problem,
// each a *TargetError (the cluster, a node subnet or its virtual network,
// the registry), a *PoolNotFoundError (a name of q.NodePools) or a
// *NothingToCheckError, in the order of the arguments.
func VerificationTargets(q VerificationRequest, f model.Facts) error {
	var errs []error
	gaps := f.Gaps
	clusterRead := false
	if !q.ClusterID.IsZero() {
		if g, ok := gaps.Lookup(q.ClusterID); ok || f.Cluster == nil {
			if !ok {
				g = model.Gap{ResourceID: q.ClusterID, Kind: model.GapNotFound}
			}
			errs = append(errs, &TargetError{ID: q.ClusterID, Named: q.ClusterID, Gap: &g})
		} else {
			clusterRead = true
		}
	}
	for _, s := range q.NodeSubnetIDs {
		if te := subnetTarget(f.Network, gaps, s); te != nil {
			errs = append(errs, te)
		}
	}
	if clusterRead {
		errs = append(errs, poolTargets(q, f)...)
	}
	if !q.RegistryID.IsZero() && f.Registry == nil {
		g, ok := gaps.Lookup(q.RegistryID)
		if !ok {
			g = model.Gap{ResourceID: q.RegistryID, Kind: model.GapNotFound}
		}
		errs = append(errs, &TargetError{ID: q.RegistryID, Named: q.RegistryID, Gap: &g})
	} else if (f.Registry != nil && strings.TrimSpace(f.Registry.LoginServer) == "") || len(f.HostNames()) == 0 {
		// A registry without a login server hands out no name to pull from.
		errs = append(errs, &NothingToCheckError{Registry: f.Registry, NoHosts: true})
	}
	return errors.Join(errs...)
}

// poolTargets are the errors of a readable cluster's pools: a name of
// q.NodePools it does not have, or no pool at all.
func poolTargets(q VerificationRequest, f model.Facts) []error {
	var have []string
	for _, p := range f.Cluster.Pools {
		have = append(have, p.Name)
	}
	sort.Strings(have)
	var listGap *model.Gap
	if g, ok := f.Gaps.Lookup(child(f.Cluster.ID, "agentPools")); ok {
		listGap = &g
	}
	var errs []error
	for _, name := range uniqueFold(q.NodePools) {
		found := false
		for _, p := range f.Cluster.Pools {
			found = found || strings.EqualFold(p.Name, name)
		}
		if !found {
			errs = append(errs, &PoolNotFoundError{Cluster: f.Cluster, Name: name, Pools: have, ListGap: listGap})
		}
	}
	if len(errs) == 0 && len(f.Pools) == 0 {
		errs = append(errs, &NothingToCheckError{Cluster: f.Cluster, NoPools: true, ListGap: listGap})
	}
	return errs
}

// subnetTarget is the error of a named subnet that is not in n: the failed
// read of the subnet, else of its virtual network, else a subnet its
// (readable) virtual network does not have. Nil when the subnet was read.
func subnetTarget(n *model.Network, gaps model.Gaps, subnetID model.ResourceID) *TargetError {
	if n != nil && n.Subnet(subnetID) != nil {
		return nil
	}
	if g, ok := gaps.Lookup(subnetID); ok {
		return &TargetError{ID: subnetID, Named: subnetID, Gap: &g}
	}
	if g, ok := gaps.Lookup(subnetID.Parent()); ok {
		return &TargetError{ID: subnetID.Parent(), Named: subnetID, Gap: &g}
	}
	g := model.Gap{ResourceID: subnetID, Kind: model.GapNotFound, Detail: "not in its virtual network"}
	return &TargetError{ID: subnetID, Named: subnetID, Gap: &g}
}
