// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallFlow is one flow an Azure Firewall judges: Protocol to Port of
// Host, whose public address lies in ServiceTag ("" when unknown), from the
// node addresses Sources.
type firewallFlow struct {
	Sources    []netip.Prefix
	Host       string
	ServiceTag string
	Protocol   string
	Port       uint16
}

// firewallOutcome is what a firewall does with a flow.
type firewallOutcome int

// Outcomes. The zero value is unverified, so that nothing is allowed by
// default.
const (
	firewallUnverified firewallOutcome = iota
	firewallAllowed
	firewallDenied
)

// firewallVerdict is a firewall's answer for a flow.
type firewallVerdict struct {
	Outcome firewallOutcome
	// Rule names the rule that decided (rule collection group, collection
	// and rule), when one did.
	Rule string
	// Reason says why, in words: what was missing to decide, or, for a
	// denial, what rule would allow the flow.
	Reason string
}

// firewallDecision is the one place verification asks whether Azure
// Firewall fw lets flow out. Its rules (the firewall policy with its parent
// chain, or classic rule collections) are not evaluated, so it answers
// unverified — never allowed.
func firewallDecision(_ *model.Network, fw *model.AzureFirewall, flow firewallFlow) firewallVerdict {
	rules := "its classic rule collections"
	if !fw.PolicyID.IsZero() {
		rules = "the rules of firewall policy " + fw.PolicyID.Name()
	}
	return firewallVerdict{Outcome: firewallUnverified,
		Reason: fmt.Sprintf("firewall rules not evaluated: whether %s allow %s %d to %s from the node subnet is unverified", rules, flow.Protocol, flow.Port, flow.Host)}
}

// firewallFlow is the flow of the pool's nodes to the public address of h
// as fw sees it.
func (r *run) firewallFlow(pc *poolCtx, h model.PullHost) firewallFlow {
	return firewallFlow{Sources: append([]netip.Prefix(nil), pc.subnet.Prefixes...), Host: h.Name,
		ServiceTag: r.f.PublicServiceTag(h), Protocol: "TCP", Port: 443}
}

// firewallVerdictEgress turns a firewall's refusal or uncertainty into its
// finding: EGRESS_FIREWALL_DENIED naming the rule that would allow the
// flow, or EGRESS_UNVERIFIED naming what could not be decided.
func (r *run) firewallVerdictEgress(pc *poolCtx, h model.PullHost, fw *model.AzureFirewall, v firewallVerdict) egressResult {
	where := "Azure Firewall " + fw.Name
	if !fw.PolicyID.IsZero() {
		where += " (policy " + fw.PolicyID.Name() + ")"
	}
	if v.Outcome == firewallDenied {
		msg := fmt.Sprintf("%s → the public address of %s: the node subnet sends it through %s, which denies TCP 443 to %s from the node addresses", pc.label, h.Name, where, h.Name)
		if v.Rule != "" {
			msg += " (" + v.Rule + ")"
		}
		msg += fmt.Sprintf(": a firewall denies what no rule allows. %s, and %s.", v.Reason, consequence(h))
		fix := fmt.Sprintf("Allow TCP 443 (Https:443) to %s from the node subnet in %s: an application rule for the FQDN, or a network rule for its service tag; the hosts a pull reaches through it are %s. Credentials and imagePullSecrets are irrelevant: the firewall drops the connection before TLS.",
			h.Name, where, pc.mustAllow())
		f := model.NewFinding(model.EgressFirewallDenied, pc.pool.Name, h.Name, fw.ID, msg, fix)
		return egressResult{findings: []model.Finding{f}, reported: true, hops: []string{"denied by " + where}}
	}
	msg := fmt.Sprintf("the node subnet sends it through %s; %s. The firewall must allow TCP 443 to %s.", where, v.Reason, pc.mustAllow())
	if reg := r.f.Registry; reg != nil && reg.IPRulesApply() {
		msg += fmt.Sprintf(" Registry %s admits public clients only from %s, so the firewall's public addresses must be among them.", reg.Name, prefixWords(reg.IPRules))
	}
	show := fmt.Sprintf("`az network firewall show --name %s --resource-group %s` (its classic rule collections)", fw.Name, fw.ID.ResourceGroup())
	if !fw.PolicyID.IsZero() {
		show = fmt.Sprintf("`az network firewall policy rule-collection-group list --policy-name %s --resource-group %s` (and the rules of its parent policy, if it has one)", fw.PolicyID.Name(), fw.PolicyID.ResourceGroup())
	}
	fix := fmt.Sprintf("Check that %s allows TCP 443 (Https:443) from the node subnet to %s: %s lists its rules. Then confirm with a pull on a fresh node. Credentials and imagePullSecrets are irrelevant until the connection exists.", where, pc.mustAllow(), show)
	res := r.egressUnverified(pc, h, fw.ID, msg, fix)
	res.hops = []string{"through Azure Firewall " + fw.Name + " (rules not evaluated)"}
	return res
}
