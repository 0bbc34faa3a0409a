// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// DNS security policies (docs/design/azure-behaviour.md, "DNS security
// policies"): a policy linked to a VNet filters the queries Azure DNS
// answers there. Its DNS traffic rules are processed by priority (lower
// number first); a rule applies to a query when one of its domain lists
// holds the queried name or a parent of it (rules follow the DNS
// hierarchy; "." is every name), or such a name anywhere in the query's
// CNAME chain; disabled rules do not apply; the first rule that applies
// decides: Block fails the query, Allow and Alert let it through. What
// the provider cannot decide from what it read (a large domain list whose
// domains are behind a download link, a CNAME chain public DNS continues,
// an action or state it does not know, a wildcard entry at the name
// itself, a read that failed) leaves the outcome undecided: unverified,
// never reachable.

// tri is a match that may be unknown.
type tri int

const (
	triNo tri = iota
	triMaybe
	triYes
)

// triAnd is both: no if either is no, yes if both are yes.
func triAnd(a, b tri) tri { return min(a, b) }

// triOr is either: yes if either is yes, no if both are no.
func triOr(a, b tri) tri { return max(a, b) }

// domainCovers reports whether the domain list entry covers name by the
// DNS hierarchy: the entry itself and every name below it ("contoso.com."
// covers "sub.contoso.com"); "." covers every name. Names compare without
// case and without the trailing dot. A wildcard entry ("*.contoso.com")
// covers the names below its base; whether it covers the base itself is
// not documented (maybe), and a wildcard anywhere else is not understood
// (maybe for every name).
func domainCovers(entry, name string) tri {
	e := strings.ToLower(strings.TrimSpace(entry))
	if e == "." {
		return triYes
	}
	e = strings.TrimSuffix(e, ".")
	name = model.NormalizeHost(name)
	if e == "" || name == "" {
		return triNo
	}
	if base, ok := strings.CutPrefix(e, "*."); ok && !strings.Contains(base, "*") {
		switch {
		case strings.HasSuffix(name, "."+base):
			return triYes
		case name == base:
			return triMaybe
		}
		return triNo
	}
	if strings.Contains(e, "*") {
		return triMaybe
	}
	if name == e || strings.HasSuffix(name, "."+e) {
		return triYes
	}
	return triNo
}

// policyOutcome is what a policy does with a query.
type policyOutcome int

const (
	policyPasses policyOutcome = iota
	policyBlocks
	policyUndecided
)

// policyDecision is a policy's decision on one query, with what decided
// it and what left it open.
type policyDecision struct {
	Outcome policyOutcome
	Policy  *model.DNSSecurityPolicy
	// Rule is the rule that decided (the first that surely applies), nil
	// when none did.
	Rule *model.DNSSecurityRule
	// Name, List and Entry: the name of the chain the deciding rule
	// matched, the domain list and its entry.
	Name  string
	List  *model.DNSDomainList
	Entry string
	// Open says, for an undecided outcome, why: rules that may apply and
	// would change the outcome, in words, with the resource of each.
	Open []openRule
	// Missing are reads the decision needed that failed or were not made
	// (the policy's rules, a domain list).
	Missing []model.ResourceID
}

// openRule is a rule whose application could not be decided.
type openRule struct {
	Rule     *model.DNSSecurityRule
	Resource model.ResourceID
	Property string
	Value    string
	Why      string
}

// decideDNSPolicy evaluates a policy for a query whose CNAME chain is
// chain (the queried name first). openTail: the chain continues in public
// DNS beyond the last name, with names the provider does not read.
func decideDNSPolicy(p *model.DNSSecurityPolicy, lists map[string]*model.DNSDomainList, chain []string, openTail bool) policyDecision {
	d := policyDecision{Policy: p}
	if !p.RulesKnown {
		d.Outcome = policyUndecided
		d.Missing = append(d.Missing, p.RulesID())
		return d
	}
	rules := make([]*model.DNSSecurityRule, len(p.Rules))
	for i := range p.Rules {
		rules[i] = &p.Rules[i]
	}
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Priority < rules[j].Priority })
	var maybePass, maybeBlock, maybeUnknown bool
	decided := false
	for _, rule := range rules {
		state := triMaybe
		switch {
		case strings.EqualFold(rule.State, "Disabled"):
			state = triNo
		case strings.EqualFold(rule.State, "Enabled"):
			state = triYes
		}
		if state == triNo {
			continue
		}
		match, name, list, entry, open, missing := ruleMatch(rule, lists, chain, openTail)
		applies := triAnd(state, match)
		if applies == triNo {
			continue
		}
		outcome := actionOutcome(rule.Action)
		if applies == triYes {
			d.Rule, d.Name, d.List, d.Entry = rule, name, list, entry
			switch outcome {
			case policyBlocks:
				maybeBlock = true
			case policyPasses:
				maybePass = true
			default:
				maybeUnknown = true
				d.Open = append(d.Open, openRule{Rule: rule, Resource: rule.ID, Property: "properties.action.actionType", Value: rule.Action,
					Why: "an action the provider does not know: what Azure does with the query is not evaluated"})
			}
			decided = true
			break
		}
		// The rule may apply: it matters only if it would change the
		// outcome.
		switch outcome {
		case policyPasses:
			maybePass = true
		case policyBlocks:
			maybeBlock = true
		default:
			maybeUnknown = true
		}
		if state == triMaybe {
			open = append(open, openRule{Rule: rule, Resource: rule.ID, Property: "properties.dnsSecurityRuleState", Value: fmt.Sprintf("%q", rule.State),
				Why: "a rule state that is neither Enabled nor Disabled: whether the rule applies is not evaluated"})
		}
		if outcome == policyUndecided {
			open = append(open, openRule{Rule: rule, Resource: rule.ID, Property: "properties.action.actionType", Value: rule.Action,
				Why: "an action the provider does not know: what Azure does with the query is not evaluated"})
		}
		d.Open = append(d.Open, open...)
		d.Missing = append(d.Missing, missing...)
	}
	if !decided {
		maybePass = true
	}
	switch {
	case maybeBlock && !maybePass && !maybeUnknown:
		d.Outcome = policyBlocks
	case maybePass && !maybeBlock && !maybeUnknown:
		d.Outcome = policyPasses
	default:
		d.Outcome = policyUndecided
		return d
	}
	// Decided: the rules that might have applied change nothing.
	d.Open, d.Missing = nil, nil
	return d
}

// actionOutcome is what a rule's action does with a query it applies to.
func actionOutcome(action string) policyOutcome {
	switch {
	case strings.EqualFold(action, "Block"):
		return policyBlocks
	case strings.EqualFold(action, "Allow"), strings.EqualFold(action, "Alert"):
		return policyPasses
	}
	return policyUndecided
}

// ruleMatch is whether a rule's domain lists hold a name of the chain:
// yes with the first name, list and entry that match; maybe with why
// (the rule's open settings, and the lists that were not read).
func ruleMatch(rule *model.DNSSecurityRule, lists map[string]*model.DNSDomainList, chain []string, openTail bool) (tri, string, *model.DNSDomainList, string, []openRule, []model.ResourceID) {
	best := triNo
	var open []openRule
	var missing []model.ResourceID
	for _, id := range rule.DomainLists {
		l := lists[id.Key()]
		switch {
		case l == nil:
			best = triOr(best, triMaybe)
			missing = append(missing, id)
			continue
		case l.Large:
			best = triOr(best, triMaybe)
			open = append(open, openRule{Rule: rule, Resource: l.ID, Property: "properties.domainsUrl", Value: "(a large domain list)",
				Why: "its domains are only behind a download link, which the provider does not follow: whether they hold a registry name is not evaluated"})
			continue
		}
		for _, name := range chain {
			for _, e := range l.Domains {
				switch domainCovers(e, name) {
				case triYes:
					return triYes, name, l, e, nil, nil
				case triMaybe:
					best = triOr(best, triMaybe)
					open = append(open, openRule{Rule: rule, Resource: l.ID, Property: "properties.domains", Value: fmt.Sprintf("%q", e),
						Why: "a wildcard entry whose match with " + model.NormalizeHost(name) + " Microsoft does not document"})
				}
			}
		}
	}
	if openTail && len(rule.DomainLists) > 0 {
		best = triOr(best, triMaybe)
		open = append(open, openRule{Rule: rule, Resource: rule.ID, Property: "properties.action.actionType", Value: rule.Action,
			Why: "Azure applies a rule to every name of the query's CNAME chain, and the chain public DNS returns for " + model.NormalizeHost(chain[len(chain)-1]) + " is not read"})
	}
	return best, "", nil, "", open, missing
}

// checkDNSPolicies evaluates the DNS security policies linked to the
// VNets whose Azure DNS answered the lookup a of h: a policy that blocks
// it is DNS_POLICY_BLOCKED (the chain stops at name resolution); one the
// provider cannot decide is COVERAGE_FEATURE_UNMODELLED or the evidence
// that is missing, and the path goes on unverified.
func (r *run) checkDNSPolicies(pc *poolCtx, h model.PullHost, a dnsAnswer) (findings []model.Finding, blocked bool) {
	if a.Outcome == answerUnknown || len(a.VNets) == 0 {
		return nil, false
	}
	chain := a.Names
	openTail := a.Outcome == answerPublic
	for _, vnetID := range a.VNets {
		linked, ok := r.f.DNS.DNSPoliciesOf(vnetID)
		if !ok {
			findings = append(findings, r.evidence(pc.pool.Name, h.Name, model.DNSPoliciesAction(vnetID),
				fmt.Sprintf("the DNS security policies linked to %s, which filter the queries its Azure DNS answers for %s", r.vnetName(vnetID), h.Name)))
			continue
		}
		for _, p := range linked.Policies {
			d := decideDNSPolicy(p, r.f.DNS.DomainLists, chain, openTail)
			switch d.Outcome {
			case policyBlocks:
				return append(findings, r.policyBlockedFinding(pc, h, vnetID, d)), true
			case policyUndecided:
				findings = append(findings, r.policyUndecidedFindings(pc, h, vnetID, d)...)
			}
		}
	}
	return findings, false
}

// policyBlockedFinding is DNS_POLICY_BLOCKED.
func (r *run) policyBlockedFinding(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, d policyDecision) model.Finding {
	via := ""
	if !strings.EqualFold(d.Name, h.Name) {
		via = fmt.Sprintf(" (through its CNAME chain: %s)", d.Name)
	}
	msg := fmt.Sprintf("%s resolves %s through Azure DNS in %s, and DNS security policy %s, linked to %s, blocks it: rule %s (priority %d, action Block) is the first enabled rule whose domain lists match%s — domain list %s holds %s. Azure fails a blocked query, so the node cannot resolve %s and the pull fails there.",
		pc.label, h.Name, r.vnetName(vnetID), d.Policy.Name, r.vnetName(vnetID), d.Rule.Name, d.Rule.Priority, via, d.List.Name, entryWords(d.Entry), h.Name)
	fix := fmt.Sprintf("In DNS security policy %s, add a rule with action Allow and a priority below %d (lower numbers go first) whose domain list holds %s, or remove %s from domain list %s, or disable rule %s. Routes, security groups and firewalls do not help: the name never resolves. A pod dnsConfig does not change the node's resolver.",
		d.Policy.Name, d.Rule.Priority, model.NormalizeHost(d.Name), entryWords(d.Entry), d.List.Name, d.Rule.Name)
	return model.NewFinding(model.DNSPolicyBlocked, pc.pool.Name, h.Name, d.Rule.ID, msg, fix)
}

// entryWords is a domain list entry in messages: the domain without its
// trailing dot, or "." with what it means.
func entryWords(e string) string {
	if strings.TrimSpace(e) == "." {
		return `"." (every name)`
	}
	return model.NormalizeHost(e)
}

// policyUndecidedFindings are the findings of a policy whose decision is
// open: the evidence of each missing read and COVERAGE_FEATURE_UNMODELLED
// for each setting not evaluated.
func (r *run) policyUndecidedFindings(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, d policyDecision) []model.Finding {
	var out []model.Finding
	seen := map[string]bool{}
	for _, id := range d.Missing {
		if seen[id.Key()] {
			continue
		}
		seen[id.Key()] = true
		out = append(out, r.evidence(pc.pool.Name, h.Name, id,
			fmt.Sprintf("DNS security policy %s, linked to %s, which filters the queries for %s", d.Policy.Name, r.vnetName(vnetID), h.Name)))
	}
	for _, o := range d.Open {
		key := o.Resource.Key() + "|" + o.Property + "|" + o.Value
		if seen[key] {
			continue
		}
		seen[key] = true
		msg := fmt.Sprintf("%s → %s: DNS security policy %s, linked to %s, has rule %s (priority %d, action %s); %s has %s = %s, which can change the pull: %s. Whether the policy blocks %s is therefore not evaluated, so the path is unverified, never reachable.",
			pc.label, h.Name, d.Policy.Name, r.vnetName(vnetID), o.Rule.Name, o.Rule.Priority, o.Rule.Action, capitalize(o.Resource.Label()), o.Property, o.Value, o.Why, h.Name)
		fix := fmt.Sprintf("Add a rule with action Allow at a higher priority (a lower number than %d) to policy %s whose domain list holds %s (or a parent domain of it), so that the name is decided before rule %s; or check by hand what the rule does to pulls from node pool %s and accept this finding with an accept block for COVERAGE_FEATURE_UNMODELLED on %s.",
			o.Rule.Priority, d.Policy.Name, model.NormalizeHost(h.Name), o.Rule.Name, pc.pool.Name, o.Resource)
		out = append(out, model.NewFinding(model.CoverageFeatureUnmodelled, pc.pool.Name, h.Name, o.Resource, msg, fix))
	}
	return out
}
