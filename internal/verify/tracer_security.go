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

// checkSecurity runs CheckSecurity for a route query of verification: the
// node NIC is the pool's first NIC in the subnet, the NIC-level group the
// one of the scale set's NIC configuration (else that NIC's). It adds
// nothing when the route already failed: a packet that is dropped meets no
// security rule.
func checkSecurity(n *model.Network, q RouteQuery, res routing.Result, nat routing.NATFunc, out *RouteResult, spaces func(model.ResourceID) security.Space) {
	for _, f := range out.Findings {
		if f.Severity == model.SeverityError {
			return
		}
	}
	sf := SecurityFlow{SubnetID: q.SubnetID, Dest: q.Dest, Public: q.Public, DestTags: q.DestTags, Protocol: q.Protocol, Port: q.Port, NAT: nat}
	if _, nic := poolSource(q, n); nic != nil {
		sf.NIC = nic
	}
	if q.Pool != nil {
		sf.NICGroupID = q.Pool.NSGID
	}
	sr := CheckSecurity(n, sf, res, spaces)
	out.Hops = append(out.Hops, sr.Hops...)
	out.Steps = append(out.Steps, sr.Steps...)
	out.Findings = append(out.Findings, sr.Findings...)
	out.Gaps = append(out.Gaps, sr.Gaps...)
	for _, ev := range sr.Needs {
		out.Needs = model.AddNeed(out.Needs, ev)
	}
}

// SecurityFlow is one flow from a node subnet whose network security groups
// are checked once the route engine has delivered it.
type SecurityFlow struct {
	// SubnetID is the node subnet; its prefixes are the flow's source (any
	// node of it).
	SubnetID model.ResourceID
	// NIC is a node NIC in the subnet, nil when none is known (a pool at
	// zero nodes, a bare subnet). Its application security groups are the
	// source's; its group applies at NIC level unless NICGroupID is set.
	NIC *model.NIC
	// NICGroupID is the NIC-level group when it is known apart from a NIC:
	// the one of a scale set's NIC configuration, which every new instance
	// gets.
	NICGroupID model.ResourceID
	// NICGroupGap, when set, says the NIC-level group cannot be known (a
	// scale-set pool whose scale set could not be read): the flow is then
	// unverified, never allowed without it.
	NICGroupGap *model.Gap
	// NAT says what each appliance on the way does to the flow's source
	// (the Azure Firewalls crossed: natOf); nil, or an answer other than
	// translated or not translated, means the appliance may put its own
	// address on the packet or not, so both sources go on.
	NAT routing.NATFunc
	// Dest is the destination address; Public marks an Internet address
	// Resource Manager does not name (Dest is then invalid).
	Dest   netip.Addr
	Public bool
	// DestTags name the service tags that hold a Public destination
	// (AzureContainerRegistry.WestEurope): when the service tags of the
	// node VNet's location list them all, the destination is any address
	// of their members, which decides rules naming other tags and
	// prefixes; otherwise its address is unknown.
	DestTags []string
	// Protocol (Tcp, Udp) and Port. Port 53 is DNS: UDP and TCP are both
	// evaluated, whatever Protocol says.
	Protocol string
	Port     uint16
}

// translatedSources are the addresses a flow an Azure Firewall translates
// comes from: one of its instances' private addresses, all in its
// AzureFirewallSubnet (the subnet's prefixes); the next hop address alone
// when that subnet is not known.
func translatedSources(sub *model.Subnet, nh netip.Addr) []netip.Prefix {
	if sub != nil && len(sub.Prefixes) > 0 {
		return append([]netip.Prefix(nil), sub.Prefixes...)
	}
	return []netip.Prefix{netip.PrefixFrom(nh, nh.BitLen())}
}

// SecurityResult is what the groups on a flow's path concluded: the groups
// passed as hops (in path order), a finding for the group that denies or
// cannot be decided, and the groups that could not be read.
type SecurityResult struct {
	Hops []string
	// Steps are the groups passed as data, labelled as Hops says them.
	Steps    []model.Hop
	Findings []model.Finding
	Gaps     []model.Gap
	// Needs is the pending evidence the flow reached (the security admin
	// rules of a VNet it enters): the result is unverified for this round.
	Needs []model.Evidence
}

// CheckSecurity evaluates the network security groups on a flow whose route
// delivers it, as Azure applies them:
//   - outbound at the node: the NIC's group (for a scale-set pool the one of
//     the scale set's NIC configuration), then the node subnet's;
//   - at every virtual appliance the path crosses: inbound at its subnet,
//     then its NIC, and outbound at its NIC, then its subnet. The packet
//     still carries the final destination; its source is the node's, or
//     the appliance's own when the appliance source-NATs (ARM does not say
//     which, so a rule must decide alike for both);
//   - inbound at the destination: the subnet's group (for a private
//     endpoint only when the subnet's private endpoint network policies
//     enable security groups), then the destination NIC's.
//
// Every group must allow. Groups are stateful, so replies need no rule. A
// route result that did not arrive, or that depends on missing evidence,
// is not evaluated (the route's own findings say why). The result is pure:
// the same network, flow and route give the same answer.
func CheckSecurity(n *model.Network, sf SecurityFlow, res routing.Result, spaces func(model.ResourceID) security.Space) SecurityResult {
	var out SecurityResult
	if res.Arrival.Kind == routing.ArrivalNone || len(res.Gaps) > 0 {
		return out
	}
	subnet := n.Subnet(sf.SubnetID)
	if subnet == nil {
		return out
	}
	flow := security.Flow{Protocol: sf.Protocol, Port: sf.Port, Source: security.Endpoint{Prefixes: subnet.Prefixes}}
	if sf.NIC != nil {
		flow.Source.ASGs, flow.Source.ASGsKnown = sf.NIC.ASGIDs, true
	}
	if sf.Public {
		flow.Dest = security.Endpoint{ASGsKnown: true}
		// Messages name the tags as the list spells them, and only when
		// they decided the destination.
		flow.Dest.Prefixes, sf.DestTags = publicDestPrefixes(sf.DestTags, spaces(subnet.VNetID).Tags)
	} else if sf.Dest.IsValid() {
		flow.Dest = security.Endpoint{Prefixes: []netip.Prefix{netip.PrefixFrom(sf.Dest, sf.Dest.BitLen())}}
	}

	ok := true
	// The VirtualNetwork tag's space of a VNet (thousands of prefixes
	// behind a hub gateway) is computed only for a group that applies.
	add := func(list *[]security.Applied, id model.ResourceID, level string, spaceOf model.ResourceID) {
		if id.IsZero() {
			return
		}
		g := n.SecurityGroup(id)
		if g == nil {
			gap, found := n.Gaps.Lookup(id)
			if !found {
				gap = model.UnreadGap(id, "its rules decide whether the flow passes")
			}
			out.Gaps = append(out.Gaps, gap)
			ok = false
			return
		}
		*list = append(*list, security.Applied{Group: g, Level: level, Space: spaces(spaceOf)})
	}

	// Security admin rules of the VNet at each point, evaluated before
	// the groups there. The node VNet's are read with the facts (every
	// flow leaves through them): a failed read leaves the flow unverified
	// up front, as an unread group does. Those of another VNet (an
	// appliance's, the destination's) are read only for a path that
	// reaches the point: the point says which, and is settled when the
	// evaluation gets there (tracer_admin.go, point).
	adminAt := func(vnetID model.ResourceID, sub *model.Subnet) adminPoint {
		if vnetID.IsZero() || (sub != nil && !sub.AdminRulesApply()) {
			return adminPoint{}
		}
		if !vnetID.Equal(subnet.VNetID) {
			return adminPoint{vnetID: vnetID, space: spaces(vnetID), deferred: true}
		}
		ar, gap := n.AdminRulesOf(vnetID)
		if gap != nil {
			out.Gaps = append(out.Gaps, *gap)
			ok = false
			return adminPoint{}
		}
		return adminPoint{rules: ar.Rules, vnetID: vnetID, space: spaces(vnetID)}
	}
	nodeAdmin := adminAt(subnet.VNetID, subnet)

	// Outbound at the node: NIC, then subnet.
	outGroups, outGaps := nodeOutboundGroups(n, sf, subnet, spaces)
	if len(outGaps) > 0 {
		out.Gaps = append(out.Gaps, outGaps...)
		ok = false
	}

	// Appliances on the way. Each source an appliance may put on the packet
	// joins the source prefixes from there on; ASG membership is then no
	// longer one NIC's.
	type stage struct {
		app     routing.Appliance
		admin   adminPoint
		in, out []security.Applied
		src     security.Endpoint // the possible sources arriving at it
		nicName string
	}
	var stages []stage
	src := flow.Source
	for _, app := range res.Appliances {
		st := stage{app: app}
		asub := n.Subnet(app.SubnetID)
		vnetID := app.VNetID
		if vnetID.IsZero() && asub != nil {
			vnetID = asub.VNetID
		}
		asp := vnetID
		var nic *model.NIC
		if !app.NICID.IsZero() {
			if nic = n.NIC(app.NICID); nic == nil {
				gap, found := n.Gaps.Lookup(app.NICID)
				if !found {
					gap = model.UnreadGap(app.NICID, "it holds the appliance's IP forwarding setting and security group")
				}
				out.Gaps = append(out.Gaps, gap)
				ok = false
			}
		}
		if asub != nil {
			add(&st.in, asub.NSGID, security.LevelSubnet, asp)
		}
		if nic != nil {
			add(&st.in, nic.NSGID, security.LevelNIC, asp)
			add(&st.out, nic.NSGID, security.LevelNIC, asp)
			st.nicName = nic.Name
		}
		if asub != nil {
			add(&st.out, asub.NSGID, security.LevelSubnet, asp)
		}
		st.src = src
		st.admin = adminAt(vnetID, asub)
		if app.IP.IsValid() {
			nat := routing.NATAssumedNone
			if sf.NAT != nil {
				nat, _ = sf.NAT(app)
			}
			switch nat {
			case routing.NATTranslated:
				// An Azure Firewall that translates the flow's source: from
				// here on the packet comes from one of the firewall's
				// instances, whose addresses are in its subnet; the node
				// addresses are gone.
				src.Prefixes = translatedSources(asub, app.IP)
				src.ASGs, src.ASGsKnown = nil, true
			case routing.NATNone:
				// It forwards the node addresses unchanged.
			default:
				src.Prefixes = append(append([]netip.Prefix{}, src.Prefixes...), netip.PrefixFrom(app.IP, app.IP.BitLen()))
				src.ASGs, src.ASGsKnown = nil, false
			}
		}
		stages = append(stages, st)
	}

	// Inbound at the destination: subnet, then NIC.
	var inGroups []security.Applied
	a := res.Arrival
	dsub := n.Subnet(a.SubnetID)
	vnetID := a.VNetID
	if vnetID.IsZero() && dsub != nil {
		vnetID = dsub.VNetID
	}
	dspace := vnetID
	inFlow := flow
	inFlow.Source = src
	var destAdmin adminPoint
	if a.Kind == routing.ArrivalNIC || a.Kind == routing.ArrivalSubnet {
		// Admin rules apply to resources in a VNet: a NIC or an address
		// of a subnet there. Private endpoints are not subject to them;
		// a flow that leaves Azure (on premises through a gateway, the
		// Internet, a service endpoint) has no destination in the VNet.
		destAdmin = adminAt(dspace, dsub)
	}
	switch a.Kind {
	case routing.ArrivalPrivateEndpoint:
		if dsub != nil {
			if g, unknown := dsub.Unknown.Of(model.FactPrivateEndpointNetworkPolicies); unknown && !dsub.NSGID.IsZero() {
				// Whether the subnet's security group applies to the
				// private endpoint is known only after apply.
				out.Gaps = append(out.Gaps, g)
				ok = false
			} else if dsub.SecurityGroupPoliciesApply() {
				add(&inGroups, dsub.NSGID, security.LevelSubnet, dspace)
			}
		}
		if pe := n.PrivateEndpoint(a.PrivateEndpointID); pe != nil {
			inFlow.Dest.ASGs, inFlow.Dest.ASGsKnown = n.PrivateEndpointASGs(pe)
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
		// No NIC is known at the address; when it could not be looked
		// for, a NIC with a group of its own may be there unseen.
		if g, found := n.AddressGaps[sf.Dest]; found && sf.Dest.IsValid() {
			out.Gaps = append(out.Gaps, g)
			ok = false
		}
	}
	if !ok {
		out.Gaps = uniqueGaps(out.Gaps)
		return out
	}

	// DNS needs both protocols: nodes ask over UDP first, and retry over TCP
	// when an answer is too long for UDP.
	protocols := []string{sf.Protocol}
	if sf.Port == 53 {
		protocols = []string{"Udp", "Tcp"}
	}
	for _, proto := range protocols {
		pf := sf
		pf.Protocol = proto
		f := flow
		f.Protocol = proto
		if !out.point(n, nodeAdmin, outGroups, f, pf, security.Outbound, "node") {
			return out
		}
		for _, st := range stages {
			af := f
			af.Source = st.src
			where := applianceLabel(st.app, st.nicName)
			if !out.point(n, st.admin, st.in, af, pf, security.Inbound, where) {
				return out
			}
			// Leaving the appliance, the source may be its own address.
			if st.app.IP.IsValid() {
				af.Source.Prefixes = append(append([]netip.Prefix{}, af.Source.Prefixes...), netip.PrefixFrom(st.app.IP, st.app.IP.BitLen()))
				af.Source.ASGs, af.Source.ASGsKnown = nil, false
			}
			if !out.point(n, st.admin, st.out, af, pf, security.Outbound, where) {
				return out
			}
		}
		inF := inFlow
		inF.Protocol = proto
		if !out.point(n, destAdmin, inGroups, inF, pf, security.Inbound, "destination") {
			return out
		}
	}
	return out
}

// nodeOutboundGroups are the groups that decide a flow as it leaves a node,
// in the order Azure applies them: the NIC's (for a scale-set pool the one
// of the scale set's NIC configuration), then the node subnet's. A group
// that could not be read, or a NIC-level group that cannot be known, is a
// gap: the flow is then unverified, never allowed without it.
func nodeOutboundGroups(n *model.Network, sf SecurityFlow, subnet *model.Subnet, spaces func(model.ResourceID) security.Space) ([]security.Applied, []model.Gap) {
	var groups []security.Applied
	var gaps []model.Gap
	nicNSG := sf.NICGroupID
	if nicNSG.IsZero() && sf.NIC != nil {
		nicNSG = sf.NIC.NSGID
	}
	if sf.NICGroupGap != nil && nicNSG.IsZero() {
		gaps = append(gaps, *sf.NICGroupGap)
	}
	for _, at := range []struct {
		id    model.ResourceID
		level string
	}{{nicNSG, security.LevelNIC}, {subnet.NSGID, security.LevelSubnet}} {
		if at.id.IsZero() {
			continue
		}
		g := n.SecurityGroup(at.id)
		if g == nil {
			gap, found := n.Gaps.Lookup(at.id)
			if !found {
				gap = model.UnreadGap(at.id, "its rules decide whether the flow passes")
			}
			gaps = append(gaps, gap)
			continue
		}
		groups = append(groups, security.Applied{Group: g, Level: at.level, Space: spaces(subnet.VNetID)})
	}
	return groups, gaps
}

// publicDestPrefixes are the addresses a public destination may have: the
// members of every tag that holds it, when the service tags list them all,
// with the tags' names as the list spells them; nil (unknown) otherwise.
func publicDestPrefixes(names []string, tags *model.ServiceTags) ([]netip.Prefix, []string) {
	if len(names) == 0 || tags == nil {
		return nil, nil
	}
	var out []netip.Prefix
	var spelled []string
	seen := map[netip.Prefix]bool{}
	for _, name := range names {
		t, ok := tags.Lookup(name)
		if !ok || len(t.Prefixes) == 0 {
			return nil, nil
		}
		spelled = append(spelled, t.Name)
		for _, p := range t.Prefixes {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out, spelled
}

// uniqueGaps keeps the first gap per resource (an appliance's group is
// asked for on the way in and on the way out).
func uniqueGaps(gs []model.Gap) []model.Gap {
	seen := map[string]bool{}
	out := gs[:0:0]
	for _, g := range gs {
		if !seen[g.ResourceID.Key()] {
			seen[g.ResourceID.Key()] = true
			out = append(out, g)
		}
	}
	return out
}

// applianceLabel is how messages call an appliance: "appliance 10.0.1.4
// (nic-vm-nva)".
func applianceLabel(app routing.Appliance, nicName string) string {
	s := "appliance " + app.IP.String()
	if nicName != "" {
		s += " (" + nicName + ")"
	}
	return s
}

// step records the groups passed as hops and turns a denial or an
// undecidable rule into a finding; it reports whether every group allowed.
// at is "node", "destination" or an appliance's label.
func (out *SecurityResult) step(ds []security.Decision, f security.Flow, sf SecurityFlow, dir, at string) bool {
	for _, d := range ds {
		h := d.Describe(f)
		if at != "node" && at != "destination" {
			h += " at " + at
		}
		out.Hops = append(out.Hops, h)
		out.Steps = append(out.Steps, model.Hop{Kind: model.HopSecurityGroup, Name: d.GroupName, ResourceID: d.GroupID, Label: h})
	}
	d := security.Verdict(ds)
	if d.Outcome == security.Allowed {
		return true
	}
	proto := strings.ToUpper(sf.Protocol)
	src := prefixList(f.Source.Prefixes)
	dst := "the registry's public address"
	if !sf.Public && sf.Dest.IsValid() {
		dst = sf.Dest.String()
	}
	short := fmt.Sprintf("%s %s -> %s:%d", proto, src, dst, sf.Port)
	if sf.Public && len(sf.DestTags) > 0 {
		dst += " (in service tag " + strings.Join(sf.DestTags, ", ") + ")"
	}
	var where string
	switch at {
	case "node":
		where = "the node subnet"
		if d.Level == security.LevelNIC {
			where = "the node NIC"
		}
	case "destination":
		where = "the destination subnet"
		if d.Level == security.LevelNIC {
			where = "the destination NIC"
		}
	default:
		where = "the subnet of " + at
		if d.Level == security.LevelNIC {
			where = "the NIC of " + at
		}
	}
	kind := "rule"
	if d.Default {
		kind = "default rule"
	}
	flow := fmt.Sprintf("%s from %s to %s port %d", proto, src, dst, sf.Port)
	why := flowConsequence(sf)
	switch d.Outcome {
	case security.Denied:
		code := model.SecurityOutboundDenied
		if dir == security.Inbound {
			code = model.SecurityInboundDenied
		}
		msg := fmt.Sprintf("Network security group %s on %s denies %s %s (flow %s): %s %s (priority %d, %s) decides it.%s",
			d.GroupName, where, strings.ToLower(dir), flow, short, kind, d.Rule, d.Priority, strings.ToLower(dir), why)
		fix := fmt.Sprintf("In %s, add an %s rule that allows %s with a priority number lower than %d, or narrow rule %s. Credentials and imagePullSecrets are irrelevant here.",
			d.GroupName, strings.ToLower(dir), flow, d.Priority, d.Rule)
		out.Findings = append(out.Findings, model.NewFinding(code, "", "", d.GroupID, msg, fix))
	case security.Unverified:
		msg := fmt.Sprintf("Network security group %s on %s: %s %s (priority %d, %s) could decide %s %s (flow %s), but it uses %s, whose members cannot be resolved offline; the flow is not assumed allowed.",
			d.GroupName, where, kind, d.Rule, d.Priority, strings.ToLower(dir), strings.ToLower(dir), flow, short, d.Tag)
		fix := fmt.Sprintf("Check whether %s covers the flow, or add an explicit rule for %s with a priority number lower than %d.", d.Tag, flow, d.Priority)
		out.Findings = append(out.Findings, model.NewFinding(model.SecurityUnverified, "", "", d.GroupID, msg, fix))
	}
	return false
}

// flowConsequence says what losing the flow means for DNS, where one of the
// two protocols may still pass.
func flowConsequence(sf SecurityFlow) string {
	if sf.Port != 53 {
		return ""
	}
	if strings.EqualFold(sf.Protocol, "Udp") {
		return " Nodes send DNS queries over UDP first, so name resolution through this server fails even where TCP 53 is allowed."
	}
	return " UDP 53 passes, but resolvers retry over TCP when an answer is too long for UDP (truncated), and those lookups fail."
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
