// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Outcomes of security admin rules besides Denied and Unverified.
const (
	// AlwaysAllowed: an AlwaysAllow admin rule matched; the flow is
	// delivered and network security groups are not consulted.
	AlwaysAllowed Outcome = "always_allowed"
	// Passed: no admin rule decided the flow (none matched, or an Allow
	// rule matched); network security groups decide it.
	Passed Outcome = "passed"
)

// AdminDecision is what the security admin rules in effect on a VNet decide
// for a flow in one direction.
type AdminDecision struct {
	// Outcome is Denied, AlwaysAllowed, Passed or Unverified.
	Outcome Outcome
	// Rule is the rule that decided (Denied, AlwaysAllowed), or for
	// Unverified the rule that could decide; zero for Passed.
	Rule model.SecurityAdminRule
	// Tag is, for Unverified, what cannot be resolved (a service tag, a
	// prefix covering part of the end, an access value, rules of several
	// configurations that disagree).
	Tag string
}

// passRule closes a configuration's rules: a flow no admin rule matches
// goes on to the network security groups.
var passRule = model.SecurityRule{Name: "", Priority: 1 << 30, Access: "", Protocol: "*",
	SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"*"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}}

// EvaluateAdmin decides a flow against the security admin rules in effect
// on a VNet, in one direction, as Azure Virtual Network Manager applies
// them before network security groups: within a security admin
// configuration, rules by ascending priority, the first match decides —
// Deny drops the flow, AlwaysAllow delivers it without consulting the
// groups, Allow leaves it to the groups; no match leaves it to the groups.
// When several configurations (of one or several network managers) apply
// and decide differently, Azure does not document which wins: the flow is
// Unverified. Facts that cannot be known offline are followed both ways,
// as for groups (Evaluate). Pure.
func EvaluateAdmin(rules []model.SecurityAdminRule, direction string, f Flow, s Space) AdminDecision {
	byConfig := map[string][]model.SecurityAdminRule{}
	var keys []string
	for _, r := range rules {
		if !strings.EqualFold(r.Direction, direction) {
			continue
		}
		k := r.ConfigurationKey()
		if _, ok := byConfig[k]; !ok {
			keys = append(keys, k)
		}
		byConfig[k] = append(byConfig[k], r)
	}
	sort.Strings(keys)
	var decided []AdminDecision
	for _, k := range keys {
		decided = append(decided, evaluateConfiguration(byConfig[k], f, s))
	}
	out := AdminDecision{Outcome: Passed}
	for _, d := range decided {
		switch {
		case d.Outcome == Unverified:
			return d
		case d.Outcome == Passed:
		case out.Outcome == Passed:
			out = d
		case out.Outcome != d.Outcome:
			return AdminDecision{Outcome: Unverified, Rule: d.Rule,
				Tag: "security admin rules of several configurations that decide differently (" + out.Rule.Configuration() + ", " + d.Rule.Configuration() + ")"}
		}
	}
	// A configuration that passes while another denies or always allows:
	// the rule that matched decides (configurations do not override one
	// another's Deny or AlwaysAllow with a mere absence of a match).
	return out
}

// evaluateConfiguration decides a flow against one configuration's rules.
func evaluateConfiguration(rules []model.SecurityAdminRule, f Flow, s Space) AdminDecision {
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Priority < rules[j].Priority })
	list := make([]model.SecurityRule, 0, len(rules)+1)
	byName := map[string]model.SecurityAdminRule{}
	for _, r := range rules {
		name := string(r.ID)
		byName[name] = r
		list = append(list, model.SecurityRule{Name: name, Priority: r.Priority, Direction: r.Direction, Access: r.Access, Protocol: r.Protocol,
			SourcePrefixes: r.Sources, DestinationPrefixes: r.Destinations, SourcePorts: r.SourcePorts, DestinationPorts: r.DestinationPorts})
	}
	list = append(list, passRule)
	e := &evaluator{f: f, s: s, admin: true}
	d := e.eval(list, make([]bool, len(list)), map[string]bool{})
	return AdminDecision{Outcome: d.Outcome, Rule: byName[d.Rule], Tag: d.Tag}
}

// decideAdmin is the outcome of a matching admin rule.
func decideAdmin(r model.SecurityRule) Decision {
	d := Decision{Rule: r.Name, Priority: r.Priority}
	switch {
	case r.Name == "" && r.Access == "":
		d.Outcome = Passed
	case strings.EqualFold(r.Access, "Deny"):
		d.Outcome = Denied
	case strings.EqualFold(r.Access, "AlwaysAllow"):
		d.Outcome = AlwaysAllowed
	case strings.EqualFold(r.Access, "Allow"):
		d.Outcome = Passed
	default:
		d.Outcome, d.Tag = Unverified, "access "+r.Access
	}
	return d
}
