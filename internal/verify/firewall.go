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

// evaluateFirewallEgress decides whether the Azure Firewall fw, which a
// pool's route for a public address points to, lets the pool's nodes
// (sources, the node subnet's prefixes) reach host on TCP 443 (package
// firewall processes the rules as Azure does). tag is the service tag
// whose prefixes hold the host's public address
// (AzureContainerRegistry.WestEurope for an ACR endpoint, Storage.WestEurope
// for blob storage), or "" when none is known.
//
// It returns the path's findings and whether the firewall allows the flow:
//
//   - allowed: true, with TLS_INSPECTION_CA_UNTRUSTED or
//     TLS_INSPECTION_UNVERIFIED when a rule that allows it terminates TLS
//     (tlsInspectionFindings), else no finding;
//   - denied: EGRESS_FIREWALL_DENIED naming the firewall, the policy, the
//     hostname, the rule that denies (or the default deny) and the rule
//     that would allow it;
//   - not decidable: EGRESS_UNVERIFIED naming the hostname and port the
//     firewall must allow and the rules it could not decide, with an
//     evidence finding for every read the decision lacks (a policy, its
//     rule collection groups, an IP group); never allowed.
func (r *run) evaluateFirewallEgress(pool string, fw *model.AzureFirewall, sources []netip.Prefix, host, tag string) ([]model.Finding, bool) {
	flow := firewall.Flow{Sources: sources, Host: host, ServiceTag: tag}
	if fw == nil {
		msg := fmt.Sprintf("Node pool %s sends %s (TCP 443) to an Azure Firewall that could not be read, so whether its rules allow the flow is unknown; the path is unverified, never reachable.", pool, host)
		fix := fmt.Sprintf("Let the identity that runs the plan read the firewall (Microsoft.Network/azurefirewalls/read), its policies and IP groups; the firewall must allow HTTPS (TCP 443) to %s from %s.", host, prefixWords(sources))
		return []model.Finding{model.NewFinding(model.EgressUnverified, pool, host, "", msg, fix)}, false
	}
	d := firewall.Evaluate(fw, firewall.RulesOf(r.f.Network), flow)
	switch d.Verdict {
	case firewall.Allowed:
		return r.tlsInspectionFindings(pool, fw, flow.Host, d), true
	case firewall.Denied:
		return []model.Finding{r.firewallDeniedFinding(pool, fw, flow, d)}, false
	default:
		return r.firewallUnverifiedFindings(pool, fw, flow, d), false
	}
}

// firewallDeniedFinding is EGRESS_FIREWALL_DENIED for a decided denial.
func (r *run) firewallDeniedFinding(pool string, fw *model.AzureFirewall, flow firewall.Flow, d firewall.Decision) model.Finding {
	from := prefixWords(d.DeniedSources)
	if from != prefixWords(flow.Sources) {
		from += " (part of the node subnet " + prefixWords(flow.Sources) + ")"
	}
	why := "no rule allows it, and a firewall denies what no rule allows"
	if d.Rule != nil {
		why = d.Rule.String() + " denies it first"
	}
	msg := fmt.Sprintf("Node pool %s reaches %s (HTTPS, TCP 443) through Azure Firewall %s (%s), whose %s allow no TCP 443 to %s from %s: %s. Image pulls from that host fail.",
		pool, flow.Host, fw.Name, addrWords(fw.PrivateIPs), rulesWords(fw, d), flow.Host, from, why)
	fix := fmt.Sprintf("Add %s. Network security groups, DNS, the registry's network rules and the pull identity are not the cause: the firewall drops the flow, and changing them will not help.", d.Allow)
	return model.NewFinding(model.EgressFirewallDenied, pool, flow.Host, changeTarget(fw, d), msg, fix)
}

// firewallUnverifiedFindings is EGRESS_UNVERIFIED, with the evidence of
// every read the decision lacks.
func (r *run) firewallUnverifiedFindings(pool string, fw *model.AzureFirewall, flow firewall.Flow, d firewall.Decision) []model.Finding {
	var undecided []string
	for _, u := range d.Undecided {
		if u.Rule.Rule == "" {
			undecided = append(undecided, u.Why)
			continue
		}
		undecided = append(undecided, u.Rule.String()+": "+u.Why)
	}
	decides := ""
	if d.Rule != nil {
		decides = fmt.Sprintf(" (%s would decide if none of them matches)", d.Rule)
	}
	msg := fmt.Sprintf("Node pool %s reaches %s through Azure Firewall %s (%s), and whether its %s allow TCP 443 to %s from %s cannot be determined: %s%s. The firewall must allow HTTPS (TCP 443) to %s from %s; until that is shown, the path is unverified, never reachable.",
		pool, flow.Host, fw.Name, addrWords(fw.PrivateIPs), rulesWords(fw, d), flow.Host, prefixWords(flow.Sources),
		strings.Join(undecided, "; "), decides, flow.Host, prefixWords(flow.Sources))
	var fix string
	if len(d.Missing) > 0 {
		fix = "Let the identity that runs the plan read the firewall's policies and IP groups (see the evidence findings), so that every rule can be checked; for the pull, the firewall needs " + d.Allow + "."
	} else {
		fix = "Add " + d.Allow + ", processed before the rules named here (a parent policy's rules come first, network rules before application rules, then lower priority numbers), or make those rules exact (addresses, FQDNs) so that they can be checked."
	}
	fix += " Until then, the firewall's logs show whether flows to " + flow.Host + " are denied."
	out := []model.Finding{model.NewFinding(model.EgressUnverified, pool, flow.Host, changeTarget(fw, d), msg, fix)}
	for _, id := range d.Missing {
		out = append(out, r.evidence(pool, flow.Host, id, "the rules of Azure Firewall "+fw.Name+" (whether it lets TCP 443 to "+flow.Host+" through)"))
	}
	return out
}

// changeTarget is the resource to change: the policy that holds the deny
// rule, else the firewall's own policy, else (classic rules) the firewall.
func changeTarget(fw *model.AzureFirewall, d firewall.Decision) model.ResourceID {
	if d.Rule != nil && !d.Rule.PolicyID.IsZero() && d.Verdict == firewall.Denied {
		return d.Rule.PolicyID
	}
	if !fw.PolicyID.IsZero() {
		return fw.PolicyID
	}
	return fw.ID
}

// rulesWords names where the firewall's rules come from: "rules (policy
// fwpol-hub, with parent policy fwpol-base)" or "classic rules".
func rulesWords(fw *model.AzureFirewall, d firewall.Decision) string {
	if fw.PolicyID.IsZero() {
		return "classic rules"
	}
	if len(d.Policies) <= 1 {
		return "rules (firewall policy " + fw.PolicyID.Name() + ")"
	}
	parents := make([]string, 0, len(d.Policies)-1)
	for _, p := range d.Policies[:len(d.Policies)-1] {
		parents = append(parents, p.Name())
	}
	return "rules (firewall policy " + fw.PolicyID.Name() + ", with parent policy " + strings.Join(parents, " and ") + ", whose rules come first)"
}

func prefixWords(ps []netip.Prefix) string { return joinWords(ps, netip.Prefix.String) }

func addrWords(as []netip.Addr) string {
	if len(as) == 0 {
		return "no private address read"
	}
	return joinAddrs(as)
}
