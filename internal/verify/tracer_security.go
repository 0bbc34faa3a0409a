// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// checkSecurity evaluates the network security groups on a flow whose
// route delivers it: outbound at the node (the NIC's group — for a
// scale-set pool the one of the scale set's NIC configuration — then the
// node subnet's), inbound at the destination (the subnet's group, for a
// private endpoint only when the subnet's private endpoint network
// policies enable security groups, then the destination NIC's). The groups
// passed become hops; a denial or an undecidable rule becomes a finding; a
// group that could not be read becomes a gap.
func checkSecurity(n *model.Network, q RouteQuery, res routing.Result, out *RouteResult, spaces func(model.ResourceID) security.Space) {
	for _, f := range out.Findings {
		if f.Severity == model.SeverityError {
			return
		}
	}
	if res.Arrival.Kind == routing.ArrivalNone || len(res.Gaps) > 0 {
		return
	}
	subnet := n.Subnet(q.SubnetID)
	if subnet == nil {
		return
	}
	flow := security.Flow{Protocol: q.Protocol, Port: q.Port, Source: security.Endpoint{Prefixes: subnet.Prefixes}}
	var nodeNIC *model.NIC
	if _, nic := poolSource(q, n); nic != nil {
		nodeNIC = nic
	}
	if nodeNIC != nil {
		flow.Source.ASGs, flow.Source.ASGsKnown = nodeNIC.ASGIDs, true
	}
	if q.Public {
		flow.Dest = security.Endpoint{ASGsKnown: true}
	} else if q.Dest.IsValid() {
		flow.Dest = security.Endpoint{Prefixes: []netip.Prefix{netip.PrefixFrom(q.Dest, q.Dest.BitLen())}}
	}

	// Outbound at the node: NIC, then subnet.
	space := spaces(subnet.VNetID)
	var outGroups []security.Applied
	nicNSG := model.ResourceID("")
	if q.Pool != nil {
		nicNSG = q.Pool.NSGID
	}
	if nicNSG.IsZero() && nodeNIC != nil {
		nicNSG = nodeNIC.NSGID
	}
	ok := true
	add := func(list *[]security.Applied, id model.ResourceID, level string, sp security.Space) {
		if id.IsZero() {
			return
		}
		g := n.SecurityGroup(id)
		if g == nil {
			gap, found := n.Gaps.Lookup(id)
			if !found {
				gap = model.Gap{ResourceID: id, Kind: model.GapNotFound, Detail: "the network security group was not read"}
			}
			out.Gaps = append(out.Gaps, gap)
			ok = false
			return
		}
		*list = append(*list, security.Applied{Group: g, Level: level, Space: sp})
	}
	add(&outGroups, nicNSG, security.LevelNIC, space)
	add(&outGroups, subnet.NSGID, security.LevelSubnet, space)
	if !ok {
		return
	}

	// Inbound at the destination: subnet, then NIC.
	var inGroups []security.Applied
	a := res.Arrival
	dsub := n.Subnet(a.SubnetID)
	vnetID := a.VNetID
	if vnetID.IsZero() && dsub != nil {
		vnetID = dsub.VNetID
	}
	dspace := spaces(vnetID)
	inFlow := flow
	for _, app := range res.Appliances {
		// An appliance may source-NAT the flow: the destination then sees
		// its address instead of the node's.
		if app.IP.IsValid() {
			inFlow.Source.Prefixes = append(append([]netip.Prefix{}, inFlow.Source.Prefixes...), netip.PrefixFrom(app.IP, app.IP.BitLen()))
			inFlow.Source.ASGsKnown = false
		}
	}
	switch a.Kind {
	case routing.ArrivalPrivateEndpoint:
		if dsub != nil && dsub.SecurityGroupPoliciesApply() {
			add(&inGroups, dsub.NSGID, security.LevelSubnet, dspace)
		}
		if pe := n.PrivateEndpoint(a.PrivateEndpointID); pe != nil {
			for _, id := range pe.NICIDs {
				if nic := n.NIC(id); nic != nil {
					inFlow.Dest.ASGs, inFlow.Dest.ASGsKnown = nic.ASGIDs, true
				}
			}
		}
	case routing.ArrivalNIC:
		if dsub != nil {
			add(&inGroups, dsub.NSGID, security.LevelSubnet, dspace)
		}
		if nic := n.NIC(a.NICID); nic != nil {
			inFlow.Dest.ASGs, inFlow.Dest.ASGsKnown = nic.ASGIDs, true
			add(&inGroups, nic.NSGID, security.LevelNIC, dspace)
		}
	case routing.ArrivalSubnet:
		if dsub != nil {
			add(&inGroups, dsub.NSGID, security.LevelSubnet, dspace)
		}
	}
	if !ok {
		return
	}
	// DNS needs both protocols: UDP, and TCP for answers too long for UDP.
	protocols := []string{q.Protocol}
	if q.Port == 53 {
		protocols = []string{"Udp", "Tcp"}
	}
	for _, proto := range protocols {
		pq := q
		pq.Protocol = proto
		flow.Protocol, inFlow.Protocol = proto, proto
		if !securityHops(security.Chain(security.Outbound, flow, outGroups), flow, pq, out, security.Outbound) {
			return
		}
		if !securityHops(security.Chain(security.Inbound, inFlow, inGroups), inFlow, pq, out, security.Inbound) {
			return
		}
	}
}

// securityHops records the groups passed as hops and turns a denial or an
// undecidable rule into a finding; it reports whether every group allowed.
func securityHops(ds []security.Decision, f security.Flow, q RouteQuery, out *RouteResult, dir string) bool {
	for _, d := range ds {
		out.Hops = append(out.Hops, d.Describe(f))
	}
	d := security.Verdict(ds)
	if d.Outcome == security.Allowed {
		return true
	}
	proto := strings.ToUpper(q.Protocol)
	src := prefixList(f.Source.Prefixes)
	dst := "the registry's public address"
	if !q.Public && q.Dest.IsValid() {
		dst = q.Dest.String()
	}
	where := "the node subnet"
	if d.Level == security.LevelNIC {
		where = "the node NIC"
	}
	if dir == security.Inbound {
		where = "the destination subnet"
		if d.Level == security.LevelNIC {
			where = "the destination NIC"
		}
	}
	kind := "rule"
	if d.Default {
		kind = "default rule"
	}
	flow := fmt.Sprintf("%s from %s to %s port %d", proto, src, dst, q.Port)
	switch d.Outcome {
	case security.Denied:
		code := model.SecurityOutboundDenied
		if dir == security.Inbound {
			code = model.SecurityInboundDenied
		}
		msg := fmt.Sprintf("Network security group %s on %s denies %s %s: %s %s (priority %d, %s) decides it.",
			d.GroupName, where, strings.ToLower(dir), flow, kind, d.Rule, d.Priority, strings.ToLower(dir))
		fix := fmt.Sprintf("In %s, add an %s rule that allows %s with a priority number lower than %d, or narrow rule %s.",
			d.GroupName, strings.ToLower(dir), flow, d.Priority, d.Rule)
		out.Findings = append(out.Findings, model.NewFinding(code, "", "", d.GroupID, msg, fix))
	case security.Unverified:
		msg := fmt.Sprintf("Network security group %s on %s: %s %s (priority %d, %s) could decide %s %s, but it uses %s, whose members cannot be resolved offline; the flow is not assumed allowed.",
			d.GroupName, where, kind, d.Rule, d.Priority, strings.ToLower(dir), strings.ToLower(dir), flow, d.Tag)
		fix := fmt.Sprintf("Check whether %s covers the flow, or add an explicit rule for %s with a priority number lower than %d.", d.Tag, flow, d.Priority)
		out.Findings = append(out.Findings, model.NewFinding(model.SecurityUnverified, "", "", d.GroupID, msg, fix))
	}
	return false
}

func prefixList(ps []netip.Prefix) string {
	if len(ps) == 0 {
		return "an unknown address"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}
