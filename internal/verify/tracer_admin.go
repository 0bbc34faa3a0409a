// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// adminPoint is where Azure Virtual Network Manager security admin rules
// apply to a flow: the rules in effect on the VNet of a point of the path
// (the node, an appliance, the destination). The zero value applies no
// rule: the point is exempt (a private endpoint, a subnet of a service
// Microsoft exempts) or outside a VNet. A deferred point is in a VNet
// other than the node's, whose rules are looked up only when the flow
// gets there: read, pending (a need), or a gap.
type adminPoint struct {
	vnetID   model.ResourceID
	rules    []model.SecurityAdminRule
	space    security.Space
	deferred bool
}

// settle looks up the rules of a deferred point: the rules when they were
// read; otherwise the pending evidence to read (the flow then stops,
// unverified for this round) or the gap of the failed read.
func (ap adminPoint) settle(n *model.Network) (adminPoint, *model.Evidence, *model.Gap) {
	if !ap.deferred {
		return ap, nil, nil
	}
	ap.deferred = false
	if ev := model.AdminRulesEvidenceOf(ap.vnetID); n.Pending.Has(ev) {
		return ap, &ev, &model.Gap{ResourceID: model.AdminRulesAction(ap.vnetID), Kind: model.GapUnavailable,
			Detail: fmt.Sprintf("the security admin rules in effect on virtual network %s are not read yet: whether they let the flow in is unknown", ap.vnetID.Name())}
	}
	ar, gap := n.AdminRulesOf(ap.vnetID)
	if gap != nil {
		return ap, nil, gap
	}
	ap.rules = ar.Rules
	return ap, nil, nil
}

// point evaluates one point of a flow's path: the security admin rules of
// its VNet first, then, unless they decided, its network security groups.
// It reports whether the flow goes on; a point whose admin rules are
// pending or could not be read stops it, with the need or the gap.
func (out *SecurityResult) point(n *model.Network, ap adminPoint, groups []security.Applied, f security.Flow, sf SecurityFlow, dir, at string) bool {
	ap, need, gap := ap.settle(n)
	if need != nil {
		out.Needs = model.AddNeed(out.Needs, *need)
	}
	if gap != nil {
		out.Gaps = uniqueGaps(append(out.Gaps, *gap))
		return false
	}
	if len(ap.rules) > 0 {
		d := security.EvaluateAdmin(ap.rules, dir, f, ap.space)
		switch d.Outcome {
		case security.AlwaysAllowed:
			h := fmt.Sprintf("security admin rule %s (%s) always allows %s", d.Rule.Rule(), adminRuleOrigin(d.Rule), strings.ToLower(dir))
			if at != "node" && at != "destination" {
				h += " at " + at
			}
			out.Hops = append(out.Hops, h)
			out.Steps = append(out.Steps, model.Hop{Kind: model.HopSecurityGroup, Name: d.Rule.Rule(), ResourceID: d.Rule.ID, Label: h})
			return true
		case security.Denied, security.Unverified:
			out.adminFinding(d, ap, f, sf, dir, at)
			return false
		}
	}
	return out.step(security.Chain(dir, f, groups), f, sf, dir, at)
}

// adminRuleOrigin names where an admin rule comes from, in the words of the
// Azure portal.
func adminRuleOrigin(r model.SecurityAdminRule) string {
	return fmt.Sprintf("rule collection %s of security admin configuration %s, network manager %s", r.Collection(), r.Configuration(), r.Manager())
}

func (out *SecurityResult) adminFinding(d security.AdminDecision, ap adminPoint, f security.Flow, sf SecurityFlow, dir, at string) {
	proto := strings.ToUpper(sf.Protocol)
	dst := "the registry's public address"
	if !sf.Public && sf.Dest.IsValid() {
		dst = sf.Dest.String()
	}
	flow := fmt.Sprintf("%s from %s to %s port %d", proto, prefixList(f.Source.Prefixes), dst, sf.Port)
	where := "at the nodes"
	switch at {
	case "node":
	case "destination":
		where = "at the destination"
	default:
		where = "at " + at
	}
	r := d.Rule
	vnet := ap.vnetID.Name()
	why := flowConsequence(sf)
	if d.Outcome == security.Denied {
		msg := fmt.Sprintf("Security admin rule %s (priority %d, %s) in %s, in effect on virtual network %s, denies %s %s %s. Admin rules are evaluated before network security groups: no group can allow it.%s",
			r.Rule(), r.Priority, strings.ToLower(dir), adminRuleOrigin(r), vnet, strings.ToLower(dir), flow, where, why)
		fix := fmt.Sprintf("Ask the owners of network manager %s to allow %s in security admin configuration %s (an Allow or AlwaysAllow rule with a priority number lower than %d, or a narrower rule %s) and deploy it; changing network security groups will not help.",
			r.Manager(), flow, r.Configuration(), r.Priority, r.Rule())
		out.Findings = append(out.Findings, model.NewFinding(model.SecurityAdminRuleDenied, "", "", r.ID, msg, fix))
		return
	}
	name, res := "a security admin rule", ap.vnetID
	if !r.ID.IsZero() {
		name, res = fmt.Sprintf("security admin rule %s (priority %d, %s) in %s", r.Rule(), r.Priority, strings.ToLower(dir), adminRuleOrigin(r)), r.ID
	}
	msg := fmt.Sprintf("On virtual network %s, %s could decide %s %s %s, but it uses %s, which cannot be resolved offline; the flow is not assumed allowed.",
		vnet, name, strings.ToLower(dir), flow, where, d.Tag)
	fix := fmt.Sprintf("Check whether %s covers the flow, or ask the owners of the network manager for an explicit rule for %s.", d.Tag, flow)
	out.Findings = append(out.Findings, model.NewFinding(model.SecurityUnverified, "", "", res, msg, fix))
}
