// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// maxAdminRulePages bounds the pages of one VNet's effective security admin
// rules (skipToken): an answer that never ends is a failed read.
const maxAdminRulePages = 100

// IncludeAdminRules reads the Azure Virtual Network Manager security admin
// rules in effect on the VNets of the given subnets (the node subnets:
// every flow leaves through them) not read yet (the VNet's
// listNetworkManagerEffectiveSecurityAdminRules action, every page), into
// n.AdminRules, and marks those of every other VNet of n pending
// (model.EvidenceAdminRules): only a path that reaches a point in such a
// VNet where they apply (an appliance, a destination) needs them. A failed
// read is a gap under model.AdminRulesAction: the flows from those nodes
// are then unverified. n.Gaps is refreshed.
func (r *Reader) IncludeAdminRules(ctx context.Context, n *model.Network, subnets []model.ResourceID) {
	if n == nil {
		return
	}
	if n.AdminRules == nil {
		n.AdminRules = map[string]*model.AdminRules{}
	}
	var todo []model.ResourceID
	for _, id := range subnets {
		vnet := id.Parent()
		if sub := n.Subnet(id); sub != nil && !sub.VNetID.IsZero() {
			vnet = sub.VNetID
		}
		if _, done := n.AdminRules[vnet.Key()]; done || vnet.IsZero() || slices.ContainsFunc(todo, vnet.Equal) {
			continue
		}
		todo = append(todo, vnet)
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].Key() < todo[j].Key() })
	got, _ := mapEach(ctx, r, todo, r.AdminRules)
	for i, id := range todo {
		n.Pending.Done(model.AdminRulesEvidenceOf(id))
		if got[i] != nil {
			n.AdminRules[id.Key()] = got[i]
		}
	}
	n.Gaps = r.Gaps()
	var others []model.ResourceID
	for _, v := range n.VNets {
		others = append(others, v.ID)
	}
	markAdminRulesPending(n, others)
}

// markAdminRulesPending marks the security admin rules of the given VNets
// pending, except those read already, whose read failed (a gap) or that
// are pending. A network that carries no admin rules at all (AdminRules
// nil) is left alone.
func markAdminRulesPending(n *model.Network, vnets []model.ResourceID) {
	if n.AdminRules == nil {
		return
	}
	for _, id := range vnets {
		if id.IsZero() {
			continue
		}
		if _, read := n.AdminRules[id.Key()]; read {
			continue
		}
		if _, failed := n.Gaps.Lookup(model.AdminRulesAction(id)); failed {
			continue
		}
		n.Pending.Add(model.AdminRulesEvidenceOf(id))
	}
}

// readAdminRules reads the security admin rules in effect on a VNet a path
// reached (model.EvidenceAdminRules) into n.AdminRules; a failed read is a
// gap under model.AdminRulesAction, like the node VNets'.
func (r *Reader) readAdminRules(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	got, err := r.AdminRules(ctx, ev.ID)
	if err != nil || got == nil {
		return
	}
	mu.Lock()
	if n.AdminRules == nil {
		n.AdminRules = map[string]*model.AdminRules{}
	}
	n.AdminRules[ev.ID.Key()] = got
	mu.Unlock()
}

// AdminRules reads the security admin rules in effect on a VNet.
func (r *Reader) AdminRules(ctx context.Context, vnetID model.ResourceID) (*model.AdminRules, error) {
	return read(r, "admin rules", model.AdminRulesAction(vnetID), permListAdminRules, func() (*model.AdminRules, error) {
		a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		release, err := r.acquireAction(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		out := &model.AdminRules{VNetID: vnetID}
		var token *string
		for range maxAdminRulePages {
			resp, err := f.NewManagementClient().ListNetworkManagerEffectiveSecurityAdminRules(ctx, a.ResourceGroup, a.Names[0], armnetwork.QueryRequestOptions{SkipToken: token}, nil)
			if err != nil {
				return nil, err
			}
			for _, v := range resp.Value {
				rule, err := adminRuleFromSDK(v)
				if err != nil {
					return nil, err
				}
				out.Rules = append(out.Rules, rule)
			}
			if resp.SkipToken == nil || *resp.SkipToken == "" {
				return out, nil
			}
			token = resp.SkipToken
		}
		return nil, fmt.Errorf("the effective security admin rules of %s did not end after %d pages", vnetID.Name(), maxAdminRulePages)
	})
}
