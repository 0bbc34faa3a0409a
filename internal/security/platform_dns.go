// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// AzurePlatformDNSTag is the service tag of Azure-provided DNS, the host's
// virtual IP 168.63.129.16 on port 53 (docs/design/azure-behaviour.md,
// "Azure DNS under network security groups").
const AzurePlatformDNSTag = "AzurePlatformDNS"

// PlatformDNSRule names the platform's own allowance in a Decision: no
// rule of the group names the AzurePlatformDNS tag for the flow, so Azure's
// platform rule, which effective security rules do not show, lets it pass.
const PlatformDNSRule = "platform DNS (no rule on AzurePlatformDNS)"

// PlatformDNSChain decides a flow from the nodes to Azure-provided DNS
// (model.AzureDNS, port 53) against the node's groups in outbound order
// (NIC, then subnet), as Azure applies them to its platform traffic: only
// outbound rules whose destination names the AzurePlatformDNS service tag
// can decide it, by priority, first match wins; a group without such a rule
// for the flow allows it (Decision.Rule is PlatformDNSRule, Default true).
// The default rules, and rules on other destinations ("*", Internet, the
// address itself), do not apply to platform traffic. Every group must
// allow; like Chain, it returns the decisions up to the first that is not
// Allowed. f.Dest is set to 168.63.129.16 whatever it held.
func PlatformDNSChain(f Flow, groups []Applied) []Decision {
	f.Dest = Endpoint{Prefixes: []netip.Prefix{netip.PrefixFrom(model.AzureDNS, 32)}, ASGsKnown: true}
	var out []Decision
	for _, a := range groups {
		if a.Group == nil {
			continue
		}
		d := platformDNS(a.Group, f, a.Space)
		d.Level = a.Level
		out = append(out, d)
		if d.Outcome != Allowed {
			break
		}
	}
	return out
}

// platformDNS decides the flow against one group's rules on the tag.
func platformDNS(g *model.SecurityGroup, f Flow, s Space) Decision {
	var rules []model.SecurityRule
	for _, r := range g.Rules {
		if strings.EqualFold(r.Direction, Outbound) && namesPlatformDNS(r) {
			rules = append(rules, r)
		}
	}
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Priority < rules[j].Priority })
	// The platform's allowance closes the list, as the default rules close
	// an ordinary evaluation.
	rules = append(rules, model.SecurityRule{Name: PlatformDNSRule, Direction: Outbound, Access: "Allow", Protocol: "*",
		SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"*"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}})
	defs := make([]bool, len(rules))
	defs[len(defs)-1] = true
	e := &evaluator{f: f, s: s}
	d := e.eval(rules, defs, map[string]bool{})
	d.GroupID, d.GroupName, d.Direction = g.ID, g.Name, Outbound
	if d.GroupName == "" {
		d.GroupName = g.ID.Name()
	}
	return d
}

// namesPlatformDNS reports whether a rule's destination names the
// AzurePlatformDNS tag.
func namesPlatformDNS(r model.SecurityRule) bool {
	for _, p := range r.DestinationPrefixes {
		if strings.EqualFold(strings.TrimSpace(p), AzurePlatformDNSTag) {
			return true
		}
	}
	return false
}
