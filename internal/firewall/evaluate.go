// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Flow is one connection through the firewall: from the node addresses to
// a registry host on TCP (HTTPS when the rule is an application rule).
type Flow struct {
	// Sources are the node addresses (the node subnet's prefixes); the
	// flow is allowed only when every one of them is.
	Sources []netip.Prefix
	// Host is the hostname the nodes connect to (the TLS server name),
	// or "*.<domain>" for a name Resource Manager does not reveal, such as
	// a registry's storage account under *.blob.core.windows.net.
	Host string
	// Port is the TCP port; 443 when zero.
	Port int
	// ServiceTag is the service tag whose prefixes hold the host's public
	// address (AzureContainerRegistry.WestEurope for an ACR endpoint in
	// West Europe, Storage.WestEurope for blob storage); empty when no tag
	// is known to hold it.
	ServiceTag string
	// Dest is the destination address when it is known (a private
	// endpoint, a VM in another spoke, an on-premises registry, a DNS
	// server): network rules then match it by address. Invalid for a
	// public address Resource Manager does not show.
	Dest netip.Addr
	// Protocol is Tcp (the default) or Udp (DNS); application rules
	// match TCP only.
	Protocol string
}

func (f Flow) port() int {
	if f.Port == 0 {
		return 443
	}
	return f.Port
}

// udp reports whether the flow is UDP.
func (f Flow) udp() bool { return strings.EqualFold(strings.TrimSpace(f.Protocol), "udp") }

// private reports whether the flow goes to a known (private) address.
func (f Flow) private() bool { return f.Dest.IsValid() }

// Verdict is what the firewall does with the flow.
type Verdict string

// Verdicts.
const (
	Allowed    Verdict = "allowed"
	Denied     Verdict = "denied"
	Unverified Verdict = "unverified"
)

// RuleRef names one rule and where it sits.
type RuleRef struct {
	// PolicyID is the firewall policy that holds the rule; zero for a
	// classic rule of the firewall itself.
	PolicyID           model.ResourceID
	Group              string
	GroupPriority      int32
	Collection         string
	CollectionPriority int32
	Rule               string
	Kind               model.FirewallRuleKind
	// Action is the collection's action, Allow or Deny.
	Action string
	// TerminateTLS: an application rule that inspects TLS (tls.go).
	TerminateTLS bool
}

// String names the rule and its place, e.g. "application rule allow-mcr
// (collection aks-egress, priority 200, Allow; group
// DefaultApplicationRuleCollectionGroup, priority 300; policy fwpol-hub)".
func (r RuleRef) String() string {
	kind := "network rule"
	if r.Kind == model.FirewallApplicationRule {
		kind = "application rule"
	}
	where := fmt.Sprintf("collection %s, priority %d, %s", r.Collection, r.CollectionPriority, r.Action)
	if r.PolicyID.IsZero() {
		return fmt.Sprintf("classic %s %s (%s)", kind, r.Rule, where)
	}
	return fmt.Sprintf("%s %s (%s; group %s, priority %d; policy %s)", kind, r.Rule, where, r.Group, r.GroupPriority, r.PolicyID.Name())
}

// Undecided is a rule (or a part of the rules) whose match could not be
// determined, and why.
type Undecided struct {
	// Rule is the rule; zero Rule name with Missing set stands for rules
	// that could not be read at all.
	Rule RuleRef
	// Missing is the resource whose read failed (a policy, its rule
	// collection groups, an IP group); zero when the rule was read.
	Missing model.ResourceID
	Why     string
}

// Decision is the firewall's answer for a flow.
type Decision struct {
	Verdict Verdict
	// Rule decided: the allow rule (Allowed) or the deny rule (Denied); nil
	// when Denied by default (no rule allows the flow). When Unverified,
	// the rule that would decide unless an undecided rule before it does
	// (nil when none would).
	Rule *RuleRef
	// DeniedSources are the node addresses the firewall denies (Denied):
	// all the sources, or the part a rule or the default deny decides.
	DeniedSources []netip.Prefix
	// Undecided are the rules the outcome depends on but whose match could
	// not be determined (Unverified).
	Undecided []Undecided
	// Missing are the resources that could not be read and that the
	// outcome depends on (Unverified), ordered by id.
	Missing []model.ResourceID
	// Policies is the policy chain evaluated, the root parent first (empty
	// for classic rules).
	Policies []model.ResourceID
	// Allow describes a rule that would allow the flow, and where it must
	// sit (Denied and Unverified).
	Allow string
	// Inspecting are the rules that allow the flow (Allowed) and terminate
	// TLS for it (tls.go), in processing order.
	Inspecting []RuleRef
}

// Rules is what a firewall's rules come from: its policies (the firewall's
// and every parent) and the IP groups rules reference, keyed by
// model.ResourceID.Key(). A policy or IP group that is missing could not
// be read.
type Rules struct {
	Policies map[string]*model.FirewallPolicy
	IPGroups map[string]*model.IPGroup
}

// RulesOf returns the policies and IP groups of a network.
func RulesOf(n *model.Network) Rules {
	if n == nil {
		return Rules{}
	}
	return Rules{Policies: n.FirewallPolicies, IPGroups: n.IPGroups}
}

// maxPolicyDepth bounds the parent chain (Azure allows a short hierarchy;
// anything longer is a malformed answer).
const maxPolicyDepth = 16

// maxPieces bounds how finely the node addresses are split by partially
// overlapping rules.
const maxPieces = 4096

// step is one rule in processing order, or a block of rules that could
// not be read (rule nil).
type step struct {
	ref     RuleRef
	rule    *model.FirewallRule
	missing model.ResourceID
	why     string
}

// Evaluate decides what fw does with the flow, processing the rules as
// Azure does (see the package documentation).
func Evaluate(fw *model.AzureFirewall, rules Rules, flow Flow) Decision {
	if fw == nil {
		return Decision{Verdict: Unverified, Undecided: []Undecided{{Why: "the firewall was not read"}}}
	}
	ev := &evaluator{fw: fw, rules: rules, flow: flow, host: parseHost(flow.Host)}
	for _, s := range flow.Sources {
		ev.v4 = ev.v4 || s.Addr().Unmap().Is4()
		ev.v6 = ev.v6 || !s.Addr().Unmap().Is4()
	}
	network, application, chain := ev.order()
	ev.policies = chain

	var pieces []*piece
	for _, s := range flow.Sources {
		pieces = append(pieces, &piece{p: normPrefix(s)})
	}
	if len(pieces) == 0 {
		return Decision{Verdict: Unverified, Policies: chain, Undecided: []Undecided{{Why: "the node addresses are not known"}}}
	}
	for _, st := range append(network, application...) {
		var ok bool
		if pieces, ok = ev.apply(st, pieces); !ok {
			return Decision{Verdict: Unverified, Policies: chain, Allow: ev.allowHint(nil),
				Undecided: []Undecided{{Rule: st.ref, Why: "the rules split the node addresses into too many ranges to follow"}}}
		}
	}
	return ev.decide(pieces)
}

type evaluator struct {
	fw       *model.AzureFirewall
	rules    Rules
	flow     Flow
	host     hostSet
	v4, v6   bool
	policies []model.ResourceID
}

// piece is a part of the node addresses and what the rules processed so
// far concluded for it.
type piece struct {
	p netip.Prefix
	// decided with verdict and rule.
	decided bool
	verdict Verdict
	rule    *RuleRef
	// unknownAllow / unknownDeny: an undecided rule with that action came
	// before, so a later decision with the other action is unverified.
	unknownAllow, unknownDeny bool
	undecided                 []Undecided
}

func (p *piece) clone(prefix netip.Prefix) *piece {
	c := *p
	c.p = prefix
	c.undecided = append([]Undecided(nil), p.undecided...)
	return &c
}

// order lists the rules in processing order: network rules, then
// application rules; within each, the policy chain root first, groups and
// collections by priority. It returns the policy chain, root first.
func (ev *evaluator) order() (network, application []step, chain []model.ResourceID) {
	if ev.fw.PolicyID.IsZero() {
		network = classicSteps(ev.fw.NetworkRuleCollections, model.FirewallNetworkRule)
		application = classicSteps(ev.fw.ApplicationRuleCollections, model.FirewallApplicationRule)
		return network, application, nil
	}
	// The chain from the firewall's policy up, then reversed.
	type link struct {
		id     model.ResourceID
		policy *model.FirewallPolicy
		why    string
	}
	var links []link
	seen := map[string]bool{}
	for id := ev.fw.PolicyID; !id.IsZero(); {
		if seen[id.Key()] {
			links = append(links, link{id: id, why: "the parent chain of policy " + ev.fw.PolicyID.Name() + " returns to policy " + id.Name() + " (a loop Azure does not allow), so the order of its rules is unknown"})
			break
		}
		if len(links) >= maxPolicyDepth {
			links = append(links, link{id: id, why: "the parent chain of policy " + ev.fw.PolicyID.Name() + " is longer than any Azure allows"})
			break
		}
		seen[id.Key()] = true
		p := ev.rules.Policies[id.Key()]
		links = append(links, link{id: id, policy: p})
		if p == nil {
			break
		}
		id = p.BasePolicyID
	}
	for i := len(links) - 1; i >= 0; i-- {
		l := links[i]
		chain = append(chain, l.id)
		switch {
		case l.why != "":
			block := step{ref: RuleRef{PolicyID: l.id}, missing: "", why: l.why}
			network, application = append(network, block), append(application, block)
		case l.policy == nil:
			block := step{ref: RuleRef{PolicyID: l.id}, missing: l.id, why: "firewall policy " + l.id.Name() + " could not be read, so its rules are unknown"}
			network, application = append(network, block), append(application, block)
		case !l.policy.RuleCollectionGroupsKnown:
			groups := model.FirewallRuleCollectionGroupsID(l.id)
			block := step{ref: RuleRef{PolicyID: l.id}, missing: groups, why: "the rule collection groups of firewall policy " + l.id.Name() + " could not be read, so its rules are unknown"}
			network, application = append(network, block), append(application, block)
		default:
			n, a := policySteps(l.policy)
			network, application = append(network, n...), append(application, a...)
		}
	}
	return network, application, chain
}

func classicSteps(cols []model.FirewallRuleCollection, kind model.FirewallRuleKind) []step {
	sorted := sortedCollections(cols)
	var out []step
	for _, c := range sorted {
		for i := range c.Rules {
			r := &c.Rules[i]
			out = append(out, step{rule: r, ref: RuleRef{Collection: c.Name, CollectionPriority: c.Priority, Rule: r.Name, Kind: kind, Action: c.Action}})
		}
	}
	return out
}

func policySteps(p *model.FirewallPolicy) (network, application []step) {
	groups := append([]model.FirewallRuleCollectionGroup(nil), p.RuleCollectionGroups...)
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i].Priority != groups[j].Priority {
			return groups[i].Priority < groups[j].Priority
		}
		return groups[i].Name < groups[j].Name
	})
	for _, g := range groups {
		for _, c := range sortedCollections(g.Collections) {
			for i := range c.Rules {
				r := &c.Rules[i]
				st := step{rule: r, ref: RuleRef{PolicyID: p.ID, Group: g.Name, GroupPriority: g.Priority,
					Collection: c.Name, CollectionPriority: c.Priority, Rule: r.Name, Kind: r.Kind, Action: c.Action,
					TerminateTLS: terminatesTLS(r)}}
				switch r.Kind {
				case model.FirewallNetworkRule:
					network = append(network, st)
				case model.FirewallApplicationRule:
					application = append(application, st)
				}
			}
		}
	}
	return network, application
}

func sortedCollections(cols []model.FirewallRuleCollection) []model.FirewallRuleCollection {
	out := append([]model.FirewallRuleCollection(nil), cols...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Priority != out[j].Priority {
			return out[i].Priority < out[j].Priority
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// apply processes one step over the undecided pieces; false when the
// pieces grew beyond maxPieces.
func (ev *evaluator) apply(st step, pieces []*piece) ([]*piece, bool) {
	if st.rule == nil {
		for _, p := range pieces {
			if !p.decided {
				p.unknownAllow, p.unknownDeny = true, true
				p.undecided = append(p.undecided, Undecided{Rule: st.ref, Missing: st.missing, Why: st.why})
			}
		}
		return pieces, true
	}
	m, why, missing := ev.matchTarget(st.rule)
	if m == no {
		return pieces, true
	}
	src, srcWhy, srcMissing := ev.sourceSet(st.rule)
	allow, deny := actionOf(st.ref.Action)
	// An action that is neither Allow nor Deny could be either.
	mayAllow, mayDeny := allow || !deny, deny || !allow
	var out []*piece
	for _, p := range pieces {
		if p.decided {
			out = append(out, p)
			continue
		}
		var inside []*piece
		if src == nil {
			// The rule's sources are unknown: undecided for all of p.
			mark(p, st.ref, mayAllow, mayDeny, joinWhy(srcWhy, why), firstID(srcMissing, missing))
			out = append(out, p)
			continue
		}
		in, outside := split(p.p, src)
		for _, q := range outside {
			out = append(out, p.clone(q))
		}
		for _, q := range in {
			inside = append(inside, p.clone(q))
		}
		for _, q := range inside {
			switch {
			case m == unknown || (!allow && !deny):
				mark(q, st.ref, mayAllow, mayDeny, joinWhy(actionWhy(st.ref.Action, allow, deny), why), missing)
			case allow && q.unknownDeny, deny && q.unknownAllow:
				ref := st.ref
				q.decided, q.verdict, q.rule = true, Unverified, &ref
			default:
				ref := st.ref
				q.decided, q.rule = true, &ref
				q.verdict = Allowed
				if deny {
					q.verdict = Denied
				}
			}
			out = append(out, q)
		}
	}
	return out, len(out) <= maxPieces
}

func mark(p *piece, ref RuleRef, allow, deny bool, why string, missing model.ResourceID) {
	p.unknownAllow = p.unknownAllow || allow
	p.unknownDeny = p.unknownDeny || deny
	p.undecided = append(p.undecided, Undecided{Rule: ref, Missing: missing, Why: why})
}

func actionOf(a string) (allow, deny bool) {
	switch strings.ToLower(strings.TrimSpace(a)) {
	case "allow":
		return true, false
	case "deny":
		return false, true
	default:
		return false, false
	}
}

func actionWhy(action string, allow, deny bool) string {
	if allow || deny {
		return ""
	}
	return fmt.Sprintf("the collection's action %q is neither Allow nor Deny", action)
}

func joinWhy(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	default:
		return a + "; " + b
	}
}

func firstID(ids ...model.ResourceID) model.ResourceID {
	for _, id := range ids {
		if !id.IsZero() {
			return id
		}
	}
	return ""
}

// decide combines the pieces: denied wins (some node addresses cannot
// pass), then unverified, then allowed.
func (ev *evaluator) decide(pieces []*piece) Decision {
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].p.Addr().Less(pieces[j].p.Addr()) })
	d := Decision{Policies: ev.policies}
	var denied, unverified []*piece
	var allowRule *RuleRef
	for _, p := range pieces {
		switch {
		case !p.decided && p.unknownAllow:
			unverified = append(unverified, p)
		case !p.decided:
			denied = append(denied, p) // the default deny
		case p.verdict == Denied:
			denied = append(denied, p)
		case p.verdict == Unverified:
			unverified = append(unverified, p)
		case allowRule == nil:
			allowRule = p.rule
		}
	}
	switch {
	case len(denied) > 0:
		d.Verdict = Denied
		d.Rule = denied[0].rule
		var ps []netip.Prefix
		for _, p := range denied {
			ps = append(ps, p.p)
		}
		d.DeniedSources = merge(ps)
		d.Allow = ev.allowHint(d.Rule)
	case len(unverified) > 0:
		d.Verdict = Unverified
		seen := map[string]bool{}
		missing := map[string]model.ResourceID{}
		for _, p := range unverified {
			for _, u := range p.undecided {
				k := u.Rule.String() + "\x00" + u.Missing.Key() + "\x00" + u.Why
				if !seen[k] {
					seen[k] = true
					d.Undecided = append(d.Undecided, u)
				}
				if !u.Missing.IsZero() {
					missing[u.Missing.Key()] = u.Missing
				}
			}
			if p.rule != nil {
				// A rule decided, but an undecided rule before it could
				// have decided otherwise.
				k := "decided " + p.rule.String()
				if !seen[k] {
					seen[k] = true
					d.Rule = p.rule
				}
			}
		}
		for _, id := range missing {
			d.Missing = append(d.Missing, id)
		}
		sort.Slice(d.Missing, func(i, j int) bool { return d.Missing[i].Key() < d.Missing[j].Key() })
		d.Allow = ev.allowHint(nil)
	default:
		d.Verdict = Allowed
		d.Rule = allowRule
		d.Inspecting = inspecting(pieces)
	}
	return d
}

// merge joins adjacent sibling prefixes back together, for messages.
func merge(ps []netip.Prefix) []netip.Prefix {
	ps = dedupe(ps)
	for changed := true; changed; {
		changed = false
		for i := 0; i+1 < len(ps); i++ {
			a, b := ps[i], ps[i+1]
			if a.Bits() == b.Bits() && a.Bits() > 0 && a.Addr().Is4() == b.Addr().Is4() {
				parent := netip.PrefixFrom(a.Addr(), a.Bits()-1).Masked()
				if lo, hi := halves(parent); lo == a && hi == b {
					ps = append(ps[:i], append([]netip.Prefix{parent}, ps[i+2:]...)...)
					changed = true
					break
				}
			}
		}
	}
	return ps
}

// sourceSet is the set of addresses a rule's sources cover, nil when it
// cannot be determined (with why, and the IP group that could not be read).
func (ev *evaluator) sourceSet(r *model.FirewallRule) ([]netip.Prefix, string, model.ResourceID) {
	if len(r.SourceAddresses) == 0 && len(r.SourceIPGroupIDs) == 0 {
		return nil, "the rule names no source", ""
	}
	var set []netip.Prefix
	for _, a := range r.SourceAddresses {
		ps, ok := parseAddress(a)
		if !ok {
			return nil, fmt.Sprintf("source %q is not an address, range or CIDR", a), ""
		}
		set = append(set, ps...)
	}
	for _, id := range r.SourceIPGroupIDs {
		g := ev.rules.IPGroups[id.Key()]
		if g == nil {
			return nil, "IP group " + id.Name() + " (its sources) could not be read", id
		}
		for _, a := range g.Addresses {
			ps, ok := parseAddress(a)
			if !ok {
				return nil, fmt.Sprintf("IP group %s holds %q, which is not an address, range or CIDR", g.Name, a), ""
			}
			set = append(set, ps...)
		}
	}
	if set == nil {
		set = []netip.Prefix{}
	}
	return set, "", ""
}

// matchTarget matches everything of a rule but its sources: protocol,
// port and destination.
func (ev *evaluator) matchTarget(r *model.FirewallRule) (match, string, model.ResourceID) {
	switch r.Kind {
	case model.FirewallNetworkRule:
		return ev.matchNetwork(r)
	case model.FirewallApplicationRule:
		return ev.matchApplication(r)
	default:
		return unknown, "rule type " + string(r.Kind) + " is not one this provider evaluates", ""
	}
}

func (ev *evaluator) matchNetwork(r *model.FirewallRule) (match, string, model.ResourceID) {
	proto := no
	want := "tcp"
	if ev.flow.udp() {
		want = "udp"
	}
	for _, p := range r.IPProtocols {
		switch q := strings.ToLower(strings.TrimSpace(p)); q {
		case want, "any":
			proto = yes
		case "tcp", "udp", "icmp":
		default:
			proto = or(proto, unknown)
		}
	}
	if len(r.IPProtocols) == 0 {
		proto = unknown
	}
	port := no
	for _, p := range r.DestinationPorts {
		port = or(port, portMatch(p, ev.flow.port()))
	}
	if len(r.DestinationPorts) == 0 {
		port = unknown
	}
	if and(proto, port) == no {
		return no, "", ""
	}

	dest := no
	var whys []string
	var missing model.ResourceID
	for _, a := range r.DestinationAddresses {
		m, why := ev.destAddress(a)
		dest = or(dest, m)
		if m == unknown {
			whys = append(whys, why)
		}
	}
	for _, id := range r.DestinationIPGroupIDs {
		g := ev.rules.IPGroups[id.Key()]
		if g == nil {
			dest = or(dest, unknown)
			whys = append(whys, "IP group "+id.Name()+" (its destinations) could not be read")
			missing = firstID(missing, id)
			continue
		}
		for _, a := range g.Addresses {
			ps, ok := parseAddress(a)
			if !ok {
				dest = or(dest, unknown)
				whys = append(whys, fmt.Sprintf("IP group %s holds %q, which is not an address, range or CIDR", g.Name, a))
				continue
			}
			m := ev.addressIn(ps)
			dest = or(dest, m)
			if m == unknown {
				whys = append(whys, fmt.Sprintf("IP group %s names addresses (%s), and the public address of %s is not in Resource Manager", g.Name, a, ev.host))
			}
		}
	}
	for _, f := range r.DestinationFQDNs {
		m := matchNetworkFQDN(f, ev.host)
		if m == yes && ev.flow.private() && ev.fw.DNSProxyEnabled {
			m = unknown
			whys = append(whys, "destination FQDN "+f+" is resolved by the firewall itself, and whether its DNS answers "+ev.flow.Dest.String()+" (the address the nodes use) depends on the private zones its resolver sees")
		} else if m == yes && !ev.fw.DNSProxyEnabled {
			m = unknown
			whys = append(whys, "destination FQDN "+f+" needs the firewall's DNS proxy, which is off: the firewall may resolve it to other addresses than the nodes do")
		} else if m == unknown {
			whys = append(whys, "destination FQDN "+f+" may or may not be the address of "+ev.host.String())
		}
		dest = or(dest, m)
	}
	if len(r.DestinationAddresses)+len(r.DestinationIPGroupIDs)+len(r.DestinationFQDNs) == 0 {
		dest = unknown
		whys = append(whys, "the rule names no destination")
	}
	m := and(proto, port, dest)
	if m != unknown {
		return m, "", ""
	}
	var why []string
	if proto == unknown {
		why = append(why, fmt.Sprintf("protocols %s are not ones this provider knows", strings.Join(r.IPProtocols, ", ")))
	}
	if port == unknown {
		why = append(why, fmt.Sprintf("destination ports %s could not be read as ports", strings.Join(r.DestinationPorts, ", ")))
	}
	if dest == unknown {
		why = append(why, whys...)
	}
	return unknown, strings.Join(why, "; "), missing
}

// destAddress matches one destination address entry of a network rule:
// an address, range or CIDR, "*", or a service tag.
func (ev *evaluator) destAddress(a string) (match, string) {
	if ps, ok := parseAddress(a); ok {
		m := ev.addressIn(ps)
		if m == unknown {
			return m, fmt.Sprintf("destination %s names addresses, and the public address of %s is not in Resource Manager", a, ev.host)
		}
		return m, ""
	}
	if ev.flow.private() {
		return privateInServiceTag(a, ev.flow.Dest)
	}
	return matchServiceTag(a, ev.flow.ServiceTag)
}

// addressIn matches the flow's destination against an address set: by
// containment for a known address, else as a public address Resource
// Manager does not show (publicAddressIn).
func (ev *evaluator) addressIn(set []netip.Prefix) match {
	if ev.flow.private() {
		d := ev.flow.Dest.Unmap()
		for _, p := range set {
			if p.Addr().Is4() == d.Is4() && p.Contains(d) {
				return yes
			}
		}
		return no
	}
	return publicAddressIn(set, ev.v4, ev.v6)
}

func (ev *evaluator) matchApplication(r *model.FirewallRule) (match, string, model.ResourceID) {
	if ev.flow.udp() {
		return no, "", "" // application rules filter HTTP(S) and MSSQL over TCP
	}
	proto := no
	for _, p := range r.Protocols {
		port := int(p.Port)
		switch strings.ToLower(p.Type) {
		case "https":
			if port == 0 {
				port = 443
			}
			proto = or(proto, boolMatch(port == ev.flow.port()))
		case "http", "mssql":
		default:
			proto = or(proto, unknown)
		}
	}
	if len(r.Protocols) == 0 {
		proto = unknown
	}
	if proto == no {
		return no, "", ""
	}
	dest := no
	var whys []string
	for _, f := range r.TargetFQDNs {
		m := matchTargetFQDN(f, ev.host)
		if m == unknown {
			whys = append(whys, "target FQDN "+f+" may cover some but not all of "+ev.host.String())
		}
		dest = or(dest, m)
	}
	for _, t := range r.FQDNTags {
		m, why := matchFQDNTag(t, ev.host)
		if m == unknown {
			whys = append(whys, why)
		}
		dest = or(dest, m)
	}
	for _, u := range r.TargetURLs {
		m := matchTargetURL(u, ev.host)
		if m == unknown {
			whys = append(whys, "target URL "+u+" matches on a path, which a pull's requests are not checked against")
		}
		dest = or(dest, m)
	}
	for _, c := range r.WebCategories {
		dest = or(dest, unknown)
		whys = append(whys, "web category "+c+" is Microsoft's classification of "+ev.host.String()+", which Resource Manager does not show")
	}
	if len(r.TargetFQDNs)+len(r.FQDNTags)+len(r.TargetURLs)+len(r.WebCategories) == 0 {
		dest = unknown
		whys = append(whys, "the rule names no target")
	}
	m := and(proto, dest)
	if m != unknown {
		return m, "", ""
	}
	var why []string
	if proto == unknown {
		why = append(why, "its protocols could not be read")
	}
	if dest == unknown {
		why = append(why, whys...)
	}
	return unknown, strings.Join(why, "; "), ""
}

// portMatch matches a destination port entry: "*", a port, or a range
// "a-b".
func portMatch(entry string, port int) match {
	e := strings.TrimSpace(entry)
	if e == "*" {
		return yes
	}
	from, to, isRange := strings.Cut(e, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(from))
	hi := lo
	var err2 error
	if isRange {
		hi, err2 = strconv.Atoi(strings.TrimSpace(to))
	}
	if err1 != nil || err2 != nil || lo < 0 || hi > 65535 || hi < lo {
		return unknown
	}
	return boolMatch(lo <= port && port <= hi)
}

// allowHint says which rule would allow the flow and where it must sit.
func (ev *evaluator) allowHint(denyRule *RuleRef) string {
	sources := prefixList(ev.flow.Sources)
	host := ev.host.String()
	var b strings.Builder
	switch {
	case ev.flow.private() && (ev.flow.udp() || ev.flow.port() != 443 || ev.flow.Host == ""):
		fmt.Fprintf(&b, "a network rule in a rule collection with action Allow: source addresses %s (or an IP group holding them), protocols TCP and UDP, destination address %s, destination port %d", sources, ev.flow.Dest, ev.flow.port())
	case ev.flow.private():
		fmt.Fprintf(&b, "an application rule in a rule collection with action Allow: source addresses %s (or an IP group holding them), protocol Https:443, target FQDN %s (application rules always translate the source to the firewall's address, so replies come back through it); or a network rule TCP 443 from the same sources to destination address %s, which keeps the node address when the destination is inside the firewall's SNAT private ranges", sources, host, ev.flow.Dest)
	default:
		fmt.Fprintf(&b, "an application rule in a rule collection with action Allow: source addresses %s (or an IP group holding them), protocol Https:443, target FQDN %s", sources, host)
		if InFQDNTag(AKSFQDNTag, host) {
			fmt.Fprintf(&b, " (or the FQDN tag %s, which covers it)", AKSFQDNTag)
		}
		if ev.flow.ServiceTag != "" {
			fmt.Fprintf(&b, "; or a network rule TCP 443 from the same sources to the service tag %s", ev.flow.ServiceTag)
		}
	}
	switch {
	case ev.fw.PolicyID.IsZero():
		fmt.Fprintf(&b, ", in a classic rule collection of firewall %s", ev.fw.Name)
	default:
		fmt.Fprintf(&b, ", in firewall policy %s", ev.fw.PolicyID.Name())
	}
	if denyRule != nil {
		fmt.Fprintf(&b, ", processed before %s (network rules come before application rules, a parent policy's before its child's, then lower priority numbers first), or narrow that rule", denyRule)
	}
	return b.String()
}

func prefixList(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}
