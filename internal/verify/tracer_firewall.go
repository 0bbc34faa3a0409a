// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// Azure Firewall is a stateful device on every path it crosses
// (docs/design/azure-behaviour.md, "Azure Firewall: a stateful device on
// every path"): wherever a flow's forward path has a next hop at one of an
// Azure Firewall's private addresses, the firewall's rules decide the
// flow (package firewall), and what it does to the source address decides
// the return path (routing.ReturnWithNAT). A firewall in a VNet and one in
// a Virtual WAN hub are both found by that address
// (model.Network.FirewallByPrivateIP).
//
// On a private path (a private endpoint, a VM in another spoke, an
// on-premises registry, a DNS server) a deny is ROUTE_FIREWALL_DENIED; on
// a public path the way out reports it (firewallDecision,
// EGRESS_FIREWALL_DENIED), and the return path of a flow the firewall
// denies is not judged at all.

// fwCrossing is one firewall a flow's forward path crossed, and what it
// does with the flow.
type fwCrossing struct {
	app routing.Appliance
	// fw is the firewall; nil when its address is in an AzureFirewallSubnet
	// but no firewall read holds it.
	fw       *model.AzureFirewall
	flow     firewall.Flow
	pending  bool
	decision firewall.Decision
	snat     firewall.SNAT
	// via says where flow.Sources come from when they are not the node
	// addresses (a firewall earlier on the path translated them); empty
	// for the node subnet.
	via string
}

// firewallCrossings evaluates every Azure Firewall the forward path of res
// crossed for the query's flow. For a public flow only a path that leaves
// through on-premises (forced tunnelling) needs it here: replies to an
// Internet exit need no route check.
//
// Each firewall's rules are matched against the source it receives: the
// node addresses until a firewall on the way translates the source (SNAT),
// that firewall's addresses from there on (azure-behaviour.md F6: a flow
// SNATed by a first firewall reaches a second one from the first one's
// private address). Where a firewall's translation is not known, the next
// one may receive either source, and must allow both.
func firewallCrossings(n *model.Network, q RouteQuery, res routing.Result) []fwCrossing {
	if q.Public && res.Arrival.Kind != routing.ArrivalOnPremises {
		return nil
	}
	var nodes []netip.Prefix
	if s := n.Subnet(q.SubnetID); s != nil {
		nodes = s.Prefixes
	}
	// The sources the next firewall may receive: one set while every
	// translation on the way is known, more after one that is not.
	alts := []srcAlt{{sources: nodes}}
	var out []fwCrossing
	for _, a := range res.Appliances {
		if !q.Public && a.IP == q.Dest.Unmap() {
			continue // the firewall is the destination (its DNS proxy), not a crossing
		}
		fw := n.FirewallByPrivateIP(a.IP)
		if fw == nil && !(a.NICID.IsZero() && strings.EqualFold(a.SubnetID.Name(), "AzureFirewallSubnet")) {
			continue
		}
		name := a.IP.String()
		if fw != nil {
			name = fw.Name
		}
		own := srcAlt{sources: translatedSources(n.Subnet(a.SubnetID), a.IP), via: "the addresses of Azure Firewall " + name + ", which translated the source"}
		pending := fw != nil && n.Pending.Has(model.FirewallRulesOf(fw.ID))
		var next []srcAlt
		var cs []fwCrossing
		for _, alt := range alts {
			c := fwCrossing{app: a, fw: fw, via: alt.via, pending: pending,
				flow: firewall.Flow{Sources: alt.sources, Host: q.Host, Port: int(q.Port), Protocol: q.Protocol}}
			if q.Public {
				c.flow.ServiceTag = firewallServiceTag(q.DestTags)
			} else {
				c.flow.Dest = q.Dest
			}
			translation := firewall.TranslationUnknown
			if fw != nil && !pending {
				c.decision = firewall.Evaluate(fw, firewall.RulesOf(n), c.flow)
				settings, known := n.FirewallSNATOf(fw)
				c.snat = firewall.SourceNAT(settings, known, c.decision, c.flow)
				translation = c.snat.Translation
			}
			cs = append(cs, c)
			switch translation {
			case firewall.Translated:
				next = appendAlt(next, own)
			case firewall.NotTranslated:
				next = appendAlt(next, alt)
			default:
				next = appendAlt(appendAlt(next, alt), own)
			}
		}
		out = append(out, combineCrossings(cs))
		alts = next
	}
	return out
}

// srcAlt is one source a firewall may receive, and where it comes from
// (empty: the node addresses).
type srcAlt struct {
	sources []netip.Prefix
	via     string
}

func appendAlt(alts []srcAlt, a srcAlt) []srcAlt {
	for _, have := range alts {
		if prefixWords(have.sources) == prefixWords(a.sources) {
			return alts
		}
	}
	return append(alts, a)
}

// combineCrossings is one firewall's answer when it may receive more than
// one source (a firewall before it translated the source or not, which is
// not known): allowed or denied only when it decides alike for each, and
// translating only when it does for each; otherwise unverified.
func combineCrossings(cs []fwCrossing) fwCrossing {
	if len(cs) == 1 {
		return cs[0]
	}
	c := cs[0]
	same := true
	for _, o := range cs[1:] {
		same = same && o.decision.Verdict == c.decision.Verdict
		if o.snat.Translation != c.snat.Translation {
			c.snat = firewall.SNAT{Translation: firewall.TranslationUnknown, Why: "it translates the source for one of the sources it may receive and not for another"}
		}
	}
	var all []netip.Prefix
	for _, o := range cs {
		all = append(all, o.flow.Sources...)
	}
	c.flow.Sources = all
	c.via = "the node addresses or those of a firewall before it, whose translation of the source is not known"
	if !same && !c.pending && c.fw != nil {
		d := c.decision
		c.decision = firewall.Decision{Verdict: firewall.Unverified, Policies: d.Policies, Allow: d.Allow,
			Undecided: []firewall.Undecided{{Why: "its rules allow one of the sources it may receive and not another, and which one it receives depends on whether a firewall before it translates the source, which is not known"}}}
	}
	return c
}

// natOf answers the route engine: what each firewall crossed does to the
// flow's source. Appliances that are not firewalls keep the engine's
// assumption.
func natOf(cs []fwCrossing) routing.NATFunc {
	return func(a routing.Appliance) (routing.SourceNAT, string) {
		for _, c := range cs {
			if c.app.IP != a.IP || !c.app.VNetID.Equal(a.VNetID) {
				continue
			}
			switch {
			case c.fw == nil:
				return routing.NATUnknown, "the Azure Firewall at " + a.IP.String() + " was not read"
			case c.pending:
				return routing.NATUnknown, "the rules of Azure Firewall " + c.fw.Name + " are not read yet"
			}
			switch c.snat.Translation {
			case firewall.Translated:
				return routing.NATTranslated, c.snat.Why
			case firewall.NotTranslated:
				return routing.NATNone, c.snat.Why
			}
			return routing.NATUnknown, c.snat.Why
		}
		return routing.NATAssumedNone, ""
	}
}

// denied reports whether a firewall on the path denies the flow.
func denied(cs []fwCrossing) bool {
	for _, c := range cs {
		if c.fw != nil && !c.pending && c.decision.Verdict == firewall.Denied {
			return true
		}
	}
	return false
}

// applyFirewalls folds the firewalls a flow crosses into the route
// engine's answer: the return path judged again with their translation,
// and, on a private path, their decision as findings, evidence and needs,
// and the firewalls that allow it with TLS inspection (fwApplied.inspected;
// none for a flow a firewall on the way denies: it never gets to TLS).
// A flow a firewall denies has no return path to judge.
func applyFirewalls(n *model.Network, engine *routing.Engine, q RouteQuery, res routing.Result) (routing.Result, fwApplied) {
	cs := firewallCrossings(n, q, res)
	if len(cs) == 0 {
		return res, fwApplied{}
	}
	nat := natOf(cs)
	res = engine.ReturnWithNAT(res, nat)
	if denied(cs) {
		kept := res.Findings[:0:0]
		for _, f := range res.Findings {
			if model.Catalogue[f.Code].Condition != model.ConditionReturnRoute {
				kept = append(kept, f)
			}
		}
		res.Findings = kept
	}
	if q.Public {
		return res, fwApplied{nat: nat}
	}
	out := fwApplied{nat: nat}
	for _, c := range cs {
		switch {
		case c.fw == nil:
			out.gaps = append(out.gaps, unreadFirewallGap(n, c.app, q))
			continue
		case c.pending:
			ev := model.FirewallRulesOf(c.fw.ID)
			out.needs = model.AddNeed(out.needs, ev)
			out.gaps = append(out.gaps, model.Gap{ResourceID: c.fw.ID, Kind: model.GapUnavailable,
				Detail: fmt.Sprintf("the rules of Azure Firewall %s are not read yet: whether it lets %s through is unknown", c.fw.Name, flowWords(c.flow))})
			continue
		}
		for _, id := range firewallRuleReads(n, c.fw) {
			if g, ok := gapAtOrBelowIn(n.Gaps, id); ok {
				out.gaps = append(out.gaps, g)
			}
		}
		switch c.decision.Verdict {
		case firewall.Allowed:
			if len(c.decision.Inspecting) > 0 {
				out.inspected = append(out.inspected, Inspection{Firewall: c.fw, Decision: c.decision})
			}
		case firewall.Denied:
			out.findings = append(out.findings, routeFirewallDenied(q, c))
			out.inspected = nil
		case firewall.Unverified:
			out.findings = append(out.findings, routeFirewallUnverified(q, c))
			for _, id := range c.decision.Missing {
				g, ok := n.Gaps.Lookup(id)
				if !ok {
					g = model.UnreadGap(id, "the firewall's decision depends on it")
				}
				out.gaps = append(out.gaps, g)
			}
		}
		if c.decision.Verdict != firewall.Allowed {
			break // the first firewall that stops the flow is the cause
		}
	}
	return res, out
}

// fwApplied is what the firewalls on a private path add to its route
// result: findings, evidence gaps, pending needs, and the firewalls that
// allow the flow with TLS inspection.
type fwApplied struct {
	findings  []model.Finding
	gaps      []model.Gap
	needs     []model.Evidence
	inspected []Inspection
	// nat is what each firewall crossed does to the flow's source, for
	// the security groups at the destination (SecurityFlow.NAT); nil when
	// the flow crosses none.
	nat routing.NATFunc
}

// gapAtOrBelowIn finds a gap on id or beneath it.
func gapAtOrBelowIn(gaps model.Gaps, id model.ResourceID) (model.Gap, bool) {
	if g, ok := gaps.Lookup(id); ok {
		return g, true
	}
	prefix := id.Key() + "/"
	for _, g := range gaps.Sorted() {
		if strings.HasPrefix(g.ResourceID.Key(), prefix) {
			return g, true
		}
	}
	return model.Gap{}, false
}

// unreadFirewallGap: the next hop is in an AzureFirewallSubnet, but the
// firewall holding it was not read; what its rules decide is unknown.
func unreadFirewallGap(n *model.Network, a routing.Appliance, q RouteQuery) model.Gap {
	if g, ok := n.AddressGaps[a.IP.Unmap()]; ok {
		return g // the firewalls of the subnet's resource group could not be listed
	}
	if s := n.Subnet(a.SubnetID); s != nil {
		for _, id := range s.IPConfigurationOwners("azureFirewallIpConfigurations") {
			if g, ok := n.Gaps.Lookup(id); ok {
				return g
			}
		}
	}
	return model.Gap{ResourceID: a.SubnetID, Kind: model.GapNotFound,
		Detail: fmt.Sprintf("no Azure Firewall read holds %s in %s, so whether its rules let the flow to %s through is unknown", a.IP, routing.SubnetLabel(a.SubnetID), q.Dest)}
}

// flowWords names a flow through a firewall: "TCP 443 to 10.2.2.5
// (contosoreg.azurecr.io)".
func flowWords(f firewall.Flow) string {
	proto := "TCP"
	if strings.EqualFold(f.Protocol, "udp") {
		proto = "UDP"
	}
	port := f.Port
	if port == 0 {
		port = 443
	}
	dest := f.Dest.String()
	if !f.Dest.IsValid() {
		dest = "the public address of " + f.Host
	} else if f.Host != "" {
		dest += " (" + f.Host + ")"
	}
	return fmt.Sprintf("%s %d to %s", proto, port, dest)
}

// routeFirewallDenied is ROUTE_FIREWALL_DENIED: a private path crosses a
// firewall whose rules do not allow the flow.
func routeFirewallDenied(q RouteQuery, c fwCrossing) model.Finding {
	fw, d := c.fw, c.decision
	from := prefixWords(d.DeniedSources)
	switch {
	case c.via != "":
		from += " (" + c.via + ")"
	case from != prefixWords(c.flow.Sources):
		from += " (part of the node subnet " + prefixWords(c.flow.Sources) + ")"
	}
	why := "no rule allows it, and a firewall denies every flow no rule allows, east-west included"
	if d.Rule != nil {
		why = d.Rule.String() + " denies it first"
	}
	msg := fmt.Sprintf("The route to %s sends the flow through Azure Firewall %s (%s), whose %s allow no %s from %s: %s. The firewall drops the flow.",
		q.Dest, fw.Name, addrWords(fw.PrivateIPs), rulesWords(fw, d), flowWords(c.flow), from, why)
	fix := fmt.Sprintf("Add %s. Network security groups, DNS, peerings and the registry are not the cause: the firewall drops the flow, and changing them will not help.", d.Allow)
	return model.NewFinding(model.RouteFirewallDenied, "", "", changeTarget(fw, d), msg, fix)
}

// routeFirewallUnverified: whether the firewall's rules allow a private
// flow cannot be decided (a rule with a web category, a service tag or an
// FQDN the firewall resolves itself, or rules that could not be read).
func routeFirewallUnverified(q RouteQuery, c fwCrossing) model.Finding {
	fw, d := c.fw, c.decision
	var undecided []string
	for _, u := range d.Undecided {
		if u.Rule.Rule == "" {
			undecided = append(undecided, u.Why)
			continue
		}
		undecided = append(undecided, u.Rule.String()+": "+u.Why)
	}
	msg := fmt.Sprintf("The route to %s sends the flow through Azure Firewall %s (%s), and whether its %s allow %s from %s cannot be determined: %s. Until that is shown, the path is unverified, never reachable.",
		q.Dest, fw.Name, addrWords(fw.PrivateIPs), rulesWords(fw, d), flowWords(c.flow), sourceWords(c), strings.Join(undecided, "; "))
	fix := "Add " + d.Allow + ", processed before the rules named here, or make those rules exact (addresses, FQDNs) so that they can be checked; the firewall's logs show whether the flow is denied."
	return model.NewFinding(model.SecurityUnverified, "", "", changeTarget(fw, d), msg, fix)
}

// sourceWords names the source a firewall receives: the node subnet's
// prefixes, or where they come from when a firewall before it translated
// them.
func sourceWords(c fwCrossing) string {
	if c.via == "" {
		return prefixWords(c.flow.Sources)
	}
	return prefixWords(c.flow.Sources) + " (" + c.via + ")"
}
