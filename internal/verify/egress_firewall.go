// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallDecision is the one place the public path asks whether Azure
// Firewall fw, which a pool's route for a public address points to, lets
// the pool's nodes (sources, the node subnet's prefixes) reach host on TCP
// 443; tag is the service tag whose prefixes hold the host's public address
// (AzureContainerRegistry.<region> for a registry endpoint, Storage.<region>
// for its storage, "" when none is known; firewall rules compare tags
// case-insensitively). The firewall's rules decide (evaluateFirewallEgress):
// allowed, EGRESS_FIREWALL_DENIED, or EGRESS_UNVERIFIED with evidence for
// every read the decision lacks, never allowed when undecided.
//
// The flow crosses the firewall, so every read of its rules counts: a part
// that could not be read (a policy of the chain, rule collection groups,
// an IP group) adds its evidence finding even where the rules that were
// read decide alone (a parent policy's allow, processed first), so that a
// failed read never leaves the path reachable. The findings come back with
// allowed true in that case: the way out is still followed.
//
// The rules are read only for paths that cross the firewall: while they
// are pending (model.EvidenceFirewallRules), the decision records the need
// and is EGRESS_UNVERIFIED for this round of evaluation, never allowed.
func (r *run) firewallDecision(pool string, fw *model.AzureFirewall, sources []netip.Prefix, host, tag string) ([]model.Finding, bool) {
	if fw != nil {
		if ev := model.FirewallRulesOf(fw.ID); r.f.Network.Pending.Has(ev) {
			r.needs = model.AddNeed(r.needs, ev)
			msg := fmt.Sprintf("Node pool %s reaches %s through Azure Firewall %s (%s), whose rules are not read yet, so whether it lets TCP 443 to %s through is unknown; the path is unverified, never reachable.",
				pool, host, fw.Name, addrWords(fw.PrivateIPs), host)
			fix := fmt.Sprintf("Plan again: the firewall's policies and IP groups are read for the paths that cross it. The firewall must allow HTTPS (TCP 443) to %s from %s.", host, prefixWords(sources))
			return []model.Finding{model.NewFinding(model.EgressUnverified, pool, host, fw.ID, msg, fix)}, false
		}
	}
	fs, allowed := r.evaluateFirewallEgress(pool, fw, sources, host, tag)
	if fw == nil {
		return fs, allowed
	}
	for _, id := range firewallRuleReads(r.f.Network, fw) {
		if r.gapAtOrBelow(id) {
			fs = append(fs, r.evidence(pool, host, id, "the rules of Azure Firewall "+fw.Name+" (whether it lets TCP 443 to "+host+" through)"))
		}
	}
	return fs, allowed
}

// firewallServiceTag is the one service tag a firewall rule is matched
// against for a public host (model.Facts.PublicServiceTags): the host's tag
// when its address lies in one region's (AzureContainerRegistry.westeurope),
// the service's tag without region when it may lie in any of several (the
// login server of a replicated registry: a rule for one region then
// decides nothing), "" when unknown.
func firewallServiceTag(tags []string) string {
	if len(tags) <= 1 {
		return strings.Join(tags, "")
	}
	service := func(tag string) string {
		if i := strings.LastIndexByte(tag, '.'); i > 0 {
			return tag[:i]
		}
		return tag
	}
	for _, t := range tags[1:] {
		if !strings.EqualFold(service(t), service(tags[0])) {
			return ""
		}
	}
	return service(tags[0])
}

// firewallRuleReads are the resources the rules of fw were read from: the
// policy chain from fw's own policy up (a policy's rule collection groups
// lie beneath its id), and the IP groups the rules that were read name.
func firewallRuleReads(n *model.Network, fw *model.AzureFirewall) []model.ResourceID {
	var out []model.ResourceID
	add := func(id model.ResourceID) {
		for _, x := range out {
			if x.Equal(id) {
				return
			}
		}
		out = append(out, id)
	}
	groups := func(cs []model.FirewallRuleCollection) {
		for _, c := range cs {
			for _, rule := range c.Rules {
				for _, id := range append(append([]model.ResourceID(nil), rule.SourceIPGroupIDs...), rule.DestinationIPGroupIDs...) {
					add(id)
				}
			}
		}
	}
	groups(fw.NetworkRuleCollections)
	groups(fw.ApplicationRuleCollections)
	for id, depth := fw.PolicyID, 0; !id.IsZero() && depth < maxFirewallPolicyChain; depth++ {
		before := len(out)
		add(id)
		if len(out) == before {
			break // a loop: the decision reports it
		}
		p := n.FirewallPolicy(id)
		if p == nil {
			break
		}
		for _, g := range p.RuleCollectionGroups {
			groups(g.Collections)
		}
		id = p.BasePolicyID
	}
	return out
}

// maxFirewallPolicyChain bounds the parent chain followed (as gather does).
const maxFirewallPolicyChain = 16

// gapAtOrBelow reports whether a read of id, or of something beneath it,
// failed.
func (r *run) gapAtOrBelow(id model.ResourceID) bool {
	if _, ok := r.gaps.Lookup(id); ok {
		return true
	}
	prefix := id.Key() + "/"
	for _, gap := range r.gaps.Sorted() {
		if strings.HasPrefix(gap.ResourceID.Key(), prefix) {
			return true
		}
	}
	return false
}
