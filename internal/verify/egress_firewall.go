// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
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

// firewallsBeforeTunnel: a flow to a public address that leaves through
// on-premises (forced tunnelling) crosses the Azure Firewalls on its way
// to the gateway first; their rules decide it (firewallDecision), so a
// denied host is EGRESS_FIREWALL_DENIED, not a routing problem. ok is
// false when a firewall stops the flow (res then holds its findings).
// What the firewalls allow goes on to on-premises, whose egress cannot be
// read (forcedTunnel, EGRESS_UNVERIFIED); the firewall translates it to
// its private address, so the replies come back through it.
func (r *run) firewallsBeforeTunnel(pc *poolCtx, h model.PullHost, e Exit) (egressResult, bool) {
	res := egressResult{}
	for _, a := range e.Appliances {
		fw := r.f.Network.FirewallByPrivateIP(a.IP)
		if fw == nil && unreadFirewallAt(a) {
			// A firewall on the way whose resource was not read: what it
			// lets through to on-premises is unknown.
			id, evidence := r.unreadFirewallEvidence(pc, h, a)
			if id.IsZero() {
				id = a.SubnetID
			}
			msg := fmt.Sprintf("the route for public addresses sends them through %s, an Azure Firewall whose resource was not read, toward on-premises (forced tunnelling): whether its rules let TCP 443 to %s through, and then whether the on-premises network lets the flow out, cannot be decided.",
				a.Label, h.Name)
			fix := fmt.Sprintf("Let the identity that runs the plan read the firewall (see the evidence finding), then plan again. The firewall must allow HTTPS (TCP 443) to %s from %s.", pc.mustAllow(), prefixWords(pc.subnet.Prefixes))
			out := r.egressUnverified(pc, h, id, msg, fix)
			out.findings = append(append(res.findings, out.findings...), evidence...)
			out.steps = append(res.steps, egressStep(model.HopStop, id, a.Label+" (not read)"))
			return out, false
		}
		if fw == nil {
			continue
		}
		fwStep := model.FirewallHop(fw.ID, a.IP.String(), a.SubnetID)
		fwStep.Label = "Azure Firewall " + fw.Name + " (" + a.IP.String() + ")"
		res.steps = append(res.steps, fwStep)
		fs, allowed := r.firewallDecision(pc.pool.Name, fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(r.f.PublicServiceTags(h)))
		res.findings = append(res.findings, fs...)
		if !allowed {
			return egressResult{findings: res.findings, reported: true, steps: append(res.steps, egressStep(model.HopStop, fw.ID, "rules of Azure Firewall "+fw.Name+" not shown to allow it"))}, false
		}
	}
	return res, true
}

// firewallSNATFinding: Azure Firewall fw allows the flow to the public
// address of h and sends it to the Internet itself; a network rule that
// allowed it translates the source only outside the firewall's SNAT
// private ranges. Ranges that cover the public address (0.0.0.0/0, "never
// SNAT") send the packet out with the node's private address:
// EGRESS_FIREWALL_NO_SNAT. Ranges that may or may not cover it (listed
// public ranges, auto-learned ranges, settings not read) are
// EGRESS_UNVERIFIED. Application rules always translate.
func (r *run) firewallSNATFinding(pc *poolCtx, h model.PullHost, fw *model.AzureFirewall) (model.Finding, bool) {
	flow := firewall.Flow{Sources: pc.subnet.Prefixes, Host: h.Name, ServiceTag: firewallServiceTag(r.f.PublicServiceTags(h))}
	d := firewall.Evaluate(fw, firewall.RulesOf(r.f.Network), flow)
	if d.Verdict != firewall.Allowed || d.Rule == nil {
		return model.Finding{}, false
	}
	settings, known := r.f.Network.FirewallSNATOf(fw)
	snat := firewall.SourceNAT(settings, known, d, flow)
	target := fw.ID
	if !fw.PolicyID.IsZero() {
		target = fw.PolicyID
	}
	switch snat.Translation {
	case firewall.NotTranslated:
		msg := fmt.Sprintf("Node pool %s reaches %s through Azure Firewall %s (%s): %s. The packet leaves for the internet with the node's private address, to which nothing on the internet can answer, so the connection to %s fails.",
			pc.pool.Name, h.Name, fw.Name, addrWords(fw.PrivateIPs), snat.Why, h.Name)
		fix := fmt.Sprintf("Take the public registry addresses out of the firewall's SNAT private ranges (for example the IANA defaults instead of 0.0.0.0/0: `az network firewall policy update --private-ranges IANAPrivateRanges`, or Network.SNAT.PrivateRanges for classic rules), or allow %s by an application rule (protocol Https:443, target FQDN %s), which always translates. Opening more network rules will not help: they do not translate either.", h.Name, h.Name)
		return model.NewFinding(model.EgressFirewallNoSNAT, pc.pool.Name, h.Name, target, msg, fix), true
	case firewall.TranslationUnknown:
		msg := fmt.Sprintf("Node pool %s reaches %s through Azure Firewall %s (%s), whose rules allow it, but whether the firewall translates the source to its public address is unknown: %s. Without translation the packet leaves with the node's private address and gets no answer.",
			pc.pool.Name, h.Name, fw.Name, addrWords(fw.PrivateIPs), snat.Why)
		fix := fmt.Sprintf("Make sure the firewall's SNAT private ranges do not cover the public addresses of %s, or allow it by an application rule (protocol Https:443, target FQDN %s), which always translates.", h.Name, h.Name)
		return model.NewFinding(model.EgressUnverified, pc.pool.Name, h.Name, target, msg, fix), true
	}
	return model.Finding{}, false
}
