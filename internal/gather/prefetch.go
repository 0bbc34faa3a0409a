// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// prefetchPoolDNS asks, as soon as the cluster names the node subnets and
// beside the reads of the scale sets and the network closure, for the
// forwarding rulesets (listDnsForwardingRulesets) and the DNS security
// policies (listDnsResolverPolicies), two read actions that can take
// seconds each, of the node VNets that use Azure DNS by their own settings
// (no custom DNS servers on the VNet, which the closure reads anyway):
// discoverDNS asks for exactly those unless the scale sets or NICs of
// every pool in the VNet name DNS servers of their own, which only their
// reads show. Then the reads were speculative (unneededPrefetches). Reads
// are memoised, so nothing is requested twice.
func (r *Reader) prefetchPoolDNS(ctx context.Context, subnets []model.ResourceID) {
	each(ctx, r, vnetsOf(subnets), func(ctx context.Context, id model.ResourceID) {
		v, err := r.vnetGet(ctx, id)
		if err != nil || v == nil || len(v.DNSServers) > 0 {
			return
		}
		r.azureDNSOf(ctx, v.ID)
	})
}

// azureDNSOf asks for what shapes the answers Azure DNS gives in a VNet:
// its forwarding rulesets and its DNS security policies, side by side
// (both memoised: the caller takes their answers from the same reads).
func (r *Reader) azureDNSOf(ctx context.Context, vnetID model.ResourceID) {
	all(ctx, r,
		func(ctx context.Context) { _, _ = r.Rulesets(ctx, vnetID) },
		func(ctx context.Context) { _, _ = r.DNSPolicies(ctx, vnetID) },
	)
}

// prefetchAdminRules asks, as soon as the cluster names the node subnets,
// for the security admin rules in effect on their VNets
// (listNetworkManagerEffectiveSecurityAdminRules, a read action that can
// take seconds): every flow leaves through those VNets, so
// IncludeAdminRules reads them anyway once the network is in; the subnet
// ids name the VNets without waiting for the VNets' answers. Reads are
// memoised, so nothing is requested twice.
func (r *Reader) prefetchAdminRules(ctx context.Context, subnets []model.ResourceID) {
	each(ctx, r, vnetsOf(subnets), func(ctx context.Context, id model.ResourceID) {
		_, _ = r.AdminRules(ctx, id)
	})
}

// unneededPrefetches are the reads prefetchPoolDNS made that discoverDNS
// did not need (a node VNet whose Azure DNS answers no node): the rulesets
// action and the rulesets it listed, unless a VNet the nodes resolve from
// is linked to them too, and the DNS security policies action with the
// policies and domain lists it led to. Their failure changes no
// conclusion.
func (r *Reader) unneededPrefetches(ctx context.Context, subnets []model.ResourceID, disc *dnsDiscovery) []model.ResourceID {
	used := map[string]bool{}
	for _, v := range disc.azureVNets {
		used[v.Key()] = true
	}
	usedPolicies := map[string]bool{}
	for _, vp := range disc.policies {
		for _, p := range vp.Policies {
			if p != nil {
				usedPolicies[p.ID.Key()] = true
			}
		}
	}
	var out []model.ResourceID
	for _, id := range vnetsOf(subnets) {
		if used[id.Key()] {
			continue
		}
		v, err := r.vnetGet(ctx, id) // memoised: answered from memory
		if err != nil || v == nil || len(v.DNSServers) > 0 {
			continue
		}
		out = append(out, child(v.ID, "listDnsForwardingRulesets"), model.DNSPoliciesAction(v.ID))
		list, _ := r.Rulesets(ctx, v.ID) // memoised likewise
		for _, rs := range list {
			if disc.rulesets[rs.ID.Key()] == nil {
				out = append(out, rs.ID)
			}
		}
		pol, _ := r.DNSPolicies(ctx, v.ID) // memoised likewise
		if pol.Linked != nil {
			for _, p := range pol.Linked.Policies {
				if p != nil && !usedPolicies[p.ID.Key()] {
					out = append(out, p.ID)
				}
			}
		}
		for _, l := range pol.Lists {
			if disc.lists[l.ID.Key()] == nil {
				out = append(out, l.ID)
			}
		}
	}
	return out
}
