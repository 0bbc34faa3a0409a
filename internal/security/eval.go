// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package security evaluates network security groups statically, as Azure
// does, for the flows an image pull needs. It is pure: no I/O, no SDK.
//
// A group's rules for one direction, with Azure's default rules added, are
// taken by ascending priority and the first rule that matches the flow
// decides. A fact that cannot be known offline (the members of a service
// tag such as AzureCloud, an application security group of a NIC that was
// not read, a prefix that covers only part of the node subnet, a source
// port range other than any) does not stop the evaluation: both answers are
// followed, and when they lead to the same outcome that outcome stands;
// otherwise the verdict is Unverified, naming the rule and the fact. A flow
// is never allowed by guess.
package security

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Directions.
const (
	Inbound  = "Inbound"
	Outbound = "Outbound"
)

// Levels a group is associated at.
const (
	LevelNIC    = "nic"
	LevelSubnet = "subnet"
)

// Outcome of an evaluation.
type Outcome string

// Outcomes.
const (
	Allowed    Outcome = "allowed"
	Denied     Outcome = "denied"
	Unverified Outcome = "unverified"
)

// Endpoint is one end of a flow as security rules see it.
type Endpoint struct {
	// Prefixes are the addresses the end may have (a single address is a
	// /32; a node pool is its subnet's prefixes: any node). Empty means the
	// address is unknown (a public address Resource Manager does not name).
	Prefixes []netip.Prefix
	// ASGs are the application security groups the end is known to belong
	// to (its NIC ip configurations', and a private endpoint's own);
	// ASGsKnown is false when the list may be incomplete (membership could
	// not be read): a group in ASGs still matches, any other is undecided.
	ASGs      []model.ResourceID
	ASGsKnown bool
}

// Flow is one connection: protocol (Tcp, Udp), the two ends and the
// destination port. The source port is ephemeral (any).
type Flow struct {
	Protocol string
	Source   Endpoint
	Dest     Endpoint
	Port     uint16
}

// Space is what service tags mean for the VNet a group is applied in: the
// VirtualNetwork tag (see VirtualNetworkSpace) and the service tags of the
// VNet's location as the Service Tag Discovery API lists them.
type Space struct {
	// VirtualNetwork are the prefixes certainly in the tag.
	VirtualNetwork []netip.Prefix
	// MaybeVirtualNetwork are prefixes Azure may add to the tag (address
	// prefixes of user-defined routes, gateway routes that could not be
	// read): an address only in these is undecided.
	MaybeVirtualNetwork []netip.Prefix
	// Tags are the service tags read for the VNet's location; nil when
	// none were read (a rule naming a tag is then undecided). TagsGap,
	// when set, says why they are missing (the read failed or its answer
	// was malformed).
	Tags    *model.ServiceTags
	TagsGap *model.Gap
}

// Decision is the verdict of one group (or, from Chain, of all groups).
type Decision struct {
	Outcome   Outcome
	GroupID   model.ResourceID
	GroupName string
	Level     string
	Direction string
	// Rule and Priority name the rule that decided (or, for Unverified,
	// the rule that could decide); Default is true for Azure's default
	// rules.
	Rule     string
	Priority int32
	Default  bool
	// Tag is, for Unverified, what cannot be resolved: a service tag, an
	// application security group, a prefix or the source port range.
	Tag string
}

// DefaultRules are Azure's default security rules.
var DefaultRules = []model.SecurityRule{
	{Name: "AllowVnetInBound", Priority: 65000, Direction: Inbound, Access: "Allow", Protocol: "*", SourcePrefixes: []string{"VirtualNetwork"}, DestinationPrefixes: []string{"VirtualNetwork"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
	{Name: "AllowAzureLoadBalancerInBound", Priority: 65001, Direction: Inbound, Access: "Allow", Protocol: "*", SourcePrefixes: []string{"AzureLoadBalancer"}, DestinationPrefixes: []string{"*"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
	{Name: "DenyAllInBound", Priority: 65500, Direction: Inbound, Access: "Deny", Protocol: "*", SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"*"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
	{Name: "AllowVnetOutBound", Priority: 65000, Direction: Outbound, Access: "Allow", Protocol: "*", SourcePrefixes: []string{"VirtualNetwork"}, DestinationPrefixes: []string{"VirtualNetwork"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
	{Name: "AllowInternetOutBound", Priority: 65001, Direction: Outbound, Access: "Allow", Protocol: "*", SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"Internet"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
	{Name: "DenyAllOutBound", Priority: 65500, Direction: Outbound, Access: "Deny", Protocol: "*", SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"*"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}},
}

// Evaluate decides a flow against one group in one direction.
func Evaluate(g *model.SecurityGroup, direction string, f Flow, s Space) Decision {
	type ranked struct {
		rule model.SecurityRule
		def  bool
	}
	var rules []ranked
	for _, r := range g.Rules {
		if strings.EqualFold(r.Direction, direction) {
			rules = append(rules, ranked{rule: r})
		}
	}
	for _, r := range DefaultRules {
		if r.Direction == direction {
			rules = append(rules, ranked{rule: r, def: true})
		}
	}
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].rule.Priority < rules[j].rule.Priority })
	list := make([]model.SecurityRule, len(rules))
	defs := make([]bool, len(rules))
	for i, r := range rules {
		list[i], defs[i] = r.rule, r.def
	}
	e := &evaluator{f: f, s: s}
	d := e.eval(list, defs, map[string]bool{})
	d.GroupID, d.GroupName, d.Direction = g.ID, g.Name, direction
	if d.GroupName == "" {
		d.GroupName = g.ID.Name()
	}
	return d
}

// Applied is a group where it applies: its level and the VirtualNetwork
// space of the VNet it is applied in.
type Applied struct {
	Group *model.SecurityGroup
	Level string
	Space Space
}

// Chain evaluates groups in the order given (outbound: NIC then subnet;
// inbound: subnet then NIC): every group must allow. It returns the
// decisions of the groups passed, the last one deciding the chain when it
// is not Allowed.
func Chain(direction string, f Flow, groups []Applied) []Decision {
	var out []Decision
	for _, a := range groups {
		if a.Group == nil {
			continue
		}
		d := Evaluate(a.Group, direction, f, a.Space)
		d.Level = a.Level
		out = append(out, d)
		if d.Outcome != Allowed {
			break
		}
	}
	return out
}

// Verdict is the outcome of a chain's decisions (Allowed when empty).
func Verdict(ds []Decision) Decision {
	for _, d := range ds {
		if d.Outcome != Allowed {
			return d
		}
	}
	return Decision{Outcome: Allowed}
}

type evaluator struct {
	f Flow
	s Space
	// admin: the rules are security admin rules (admin.go), decided by
	// decideAdmin.
	admin bool
}

// eval returns the decision of the first matching rule, splitting on
// undecidable facts (assume holds the facts assumed so far).
func (e *evaluator) eval(rules []model.SecurityRule, defs []bool, assume map[string]bool) Decision {
	for i, r := range rules {
		m, key, tag := e.match(r, assume)
		switch m {
		case no:
			continue
		case yes:
			if e.admin {
				return decideAdmin(r)
			}
			return decide(r, defs[i])
		}
		a := e.eval(rules[i:], defs[i:], with(assume, key, true))
		b := e.eval(rules[i:], defs[i:], with(assume, key, false))
		if a.Outcome == b.Outcome && a.Outcome != Unverified {
			return a
		}
		return Decision{Outcome: Unverified, Rule: r.Name, Priority: r.Priority, Default: defs[i], Tag: tag}
	}
	// Unreachable: the default rules end with a deny of everything.
	return Decision{Outcome: Denied}
}

func with(m map[string]bool, key string, v bool) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	out[key] = v
	return out
}

func decide(r model.SecurityRule, def bool) Decision {
	o := Denied
	if strings.EqualFold(r.Access, "Allow") {
		o = Allowed
	}
	return Decision{Outcome: o, Rule: r.Name, Priority: r.Priority, Default: def}
}

type tri int

const (
	no tri = iota
	yes
	unknown
)

// fact is a tri-state answer; key identifies an undecidable fact (so that
// the same fact is assumed the same way everywhere) and tag names it.
type fact struct {
	t        tri
	key, tag string
	// neg: the fact is the complement of the keyed one (Internet of
	// VirtualNetwork).
	neg bool
}

func known(b bool) fact {
	if b {
		return fact{t: yes}
	}
	return fact{t: no}
}

// and combines facts: any no is no; all yes is yes; else the first unknown.
func and(fs ...fact) fact {
	var first *fact
	for i := range fs {
		switch fs[i].t {
		case no:
			return fs[i]
		case unknown:
			if first == nil {
				first = &fs[i]
			}
		}
	}
	if first != nil {
		return *first
	}
	return fact{t: yes}
}

// or combines facts: any yes is yes; all no is no; else the first unknown.
func or(fs ...fact) fact {
	var first *fact
	for i := range fs {
		switch fs[i].t {
		case yes:
			return fs[i]
		case unknown:
			if first == nil {
				first = &fs[i]
			}
		}
	}
	if first != nil {
		return *first
	}
	return fact{t: no}
}

// resolve applies an assumption made about an undecidable fact.
func (f fact) resolve(assume map[string]bool) fact {
	if f.t == unknown {
		if v, ok := assume[f.key]; ok {
			return known(v != f.neg)
		}
	}
	return f
}

func (e *evaluator) match(r model.SecurityRule, assume map[string]bool) (tri, string, string) {
	f := and(
		known(protocolMatches(r.Protocol, e.f.Protocol)),
		portsMatch(r.DestinationPorts, e.f.Port).resolve(assume),
		sourcePortsMatch(r.SourcePorts).resolve(assume),
		e.side("source", r.SourcePrefixes, r.SourceASGIDs, e.f.Source, assume),
		e.side("destination", r.DestinationPrefixes, r.DestinationASGIDs, e.f.Dest, assume),
	)
	return f.t, f.key, f.tag
}

// protocolMatches: "*" (or Any) matches every protocol; otherwise the
// names must agree (Tcp, Udp, Icmp, Esp, Ah).
func protocolMatches(rule, flow string) bool {
	rule = strings.TrimSpace(rule)
	return rule == "*" || strings.EqualFold(rule, "Any") || strings.EqualFold(rule, flow)
}

// portsMatch: "*", a port, a range "lo-hi"; any item of the list.
func portsMatch(items []string, port uint16) fact {
	if len(items) == 0 {
		return fact{t: unknown, key: "port:empty", tag: "an empty destination port range"}
	}
	var fs []fact
	for _, it := range items {
		lo, hi, ok := parsePorts(it)
		if !ok {
			fs = append(fs, fact{t: unknown, key: "port:" + it, tag: "port range " + it})
			continue
		}
		fs = append(fs, known(lo <= int(port) && int(port) <= hi))
	}
	return or(fs...)
}

// sourcePortsMatch: the client's source port is ephemeral; only a range
// that covers every ephemeral port (1024-65535) surely matches.
func sourcePortsMatch(items []string) fact {
	if len(items) == 0 {
		return fact{t: unknown, key: "srcport:empty", tag: "an empty source port range"}
	}
	var fs []fact
	for _, it := range items {
		lo, hi, ok := parsePorts(it)
		switch {
		case !ok:
			fs = append(fs, fact{t: unknown, key: "srcport:" + it, tag: "source port range " + it})
		case lo <= 1024 && hi >= 65535:
			fs = append(fs, fact{t: yes})
		default:
			fs = append(fs, fact{t: unknown, key: "srcport:" + it, tag: "source port range " + it + " (the client's source port is ephemeral)"})
		}
	}
	return or(fs...)
}

func parsePorts(s string) (int, int, bool) {
	s = strings.TrimSpace(s)
	if s == "*" {
		return 0, 65535, true
	}
	lo, hi, isRange := strings.Cut(s, "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return 0, 0, false
	}
	b := a
	if isRange {
		if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
			return 0, 0, false
		}
	}
	if a < 0 || b > 65535 || a > b {
		return 0, 0, false
	}
	return a, b, true
}

// side matches one end of the flow against a rule's prefixes or
// application security groups.
func (e *evaluator) side(name string, prefixes []string, asgs []model.ResourceID, ep Endpoint, assume map[string]bool) fact {
	if len(asgs) > 0 {
		var fs []fact
		for _, id := range asgs {
			in := false
			for _, m := range ep.ASGs {
				in = in || m.Equal(id)
			}
			if !in && !ep.ASGsKnown {
				fs = append(fs, fact{t: unknown, key: name + ":asg:" + id.Key(), tag: "application security group " + id.Name()}.resolve(assume))
				continue
			}
			fs = append(fs, known(in))
		}
		return or(fs...)
	}
	if len(prefixes) == 0 {
		return fact{t: unknown, key: name + ":empty", tag: "empty " + name + " address"}.resolve(assume)
	}
	// The rule's addresses (CIDRs and single addresses) are one set: an
	// end that may have several addresses (nodes, or an appliance that may
	// source-NAT) matches when each lies in some of them. Judged one by
	// one, each would cover only part of the end and leave the rule
	// undecided.
	var fs []fact
	var set []netip.Prefix
	var labels []string
	for _, p := range prefixes {
		p = strings.TrimSpace(p)
		if pfx, ok := parsePrefix(p); ok && len(ep.Prefixes) > 0 {
			set = append(set, pfx)
			labels = append(labels, pfx.String())
			continue
		}
		fs = append(fs, e.prefix(name, p, ep).resolve(assume))
	}
	if len(set) > 0 {
		fs = append(fs, contained(name, strings.Join(labels, ", "), ep.Prefixes, set).resolve(assume))
	}
	return or(fs...)
}

// AzureLoadBalancer is the address the AzureLoadBalancer tag stands for
// (the host's virtual IP, from which health probes come).
var AzureLoadBalancer = netip.MustParseAddr("168.63.129.16")

func (e *evaluator) prefix(name, p string, ep Endpoint) fact {
	switch {
	case p == "*" || strings.EqualFold(p, "Any"):
		return fact{t: yes}
	case strings.EqualFold(p, "VirtualNetwork"):
		return e.virtualNetwork(name, ep)
	case strings.EqualFold(p, "Internet"):
		return e.internet(name, ep)
	case strings.EqualFold(p, "AzureLoadBalancer"):
		if len(ep.Prefixes) == 0 {
			return fact{t: no} // a public address ARM does not name is not the host's virtual IP
		}
		return contained(name, "AzureLoadBalancer", ep.Prefixes, []netip.Prefix{netip.PrefixFrom(AzureLoadBalancer, 32)})
	case strings.EqualFold(p, AzurePlatformDNSTag):
		// Azure-provided DNS, the host's virtual IP (platform_dns.go).
		if len(ep.Prefixes) == 0 {
			return fact{t: no}
		}
		return contained(name, AzurePlatformDNSTag, ep.Prefixes, []netip.Prefix{netip.PrefixFrom(model.AzureDNS, 32)})
	}
	if pfx, ok := parsePrefix(p); ok {
		if len(ep.Prefixes) == 0 {
			if pfx.Bits() == 0 {
				return fact{t: yes}
			}
			return fact{t: unknown, key: name + ":" + pfx.String(), tag: "prefix " + pfx.String() + " (the " + name + " address is not known)"}
		}
		return contained(name, pfx.String(), ep.Prefixes, []netip.Prefix{pfx})
	}
	return e.serviceTag(name, p, ep)
}

// serviceTag decides a service tag other than VirtualNetwork, Internet and
// AzureLoadBalancer by its members as the Service Tag Discovery API lists
// them: yes when every address the end may have is in the tag, no when none
// is. Without the list, with a tag the list does not hold, or for an end
// whose address is unknown (a public address Resource Manager does not
// name), the fact is undecided, named with why.
func (e *evaluator) serviceTag(name, p string, ep Endpoint) fact {
	key := name + ":tag:" + strings.ToLower(p)
	t, ok := e.s.Tags.Lookup(p)
	switch {
	case e.s.Tags == nil && e.s.TagsGap != nil:
		return fact{t: unknown, key: key, tag: p + " (the service tag list could not be read: " + gapReason(*e.s.TagsGap) + ")"}
	case e.s.Tags == nil:
		return fact{t: unknown, key: key, tag: p}
	case !ok:
		return fact{t: unknown, key: key, tag: p + " (not in " + e.s.Tags.Label() + ")"}
	case len(ep.Prefixes) == 0:
		return fact{t: unknown, key: key, tag: p + " (the " + name + " address is not known)"}
	}
	f := contained(name, t.Name, ep.Prefixes, t.Prefixes)
	if f.t == unknown {
		f.tag = t.Name + " (covers only part of the " + name + " prefixes, by " + e.s.Tags.Label() + ")"
	}
	return f
}

// gapReason is a failed read in a few words for a rule's undecided fact
// (the evidence finding of the read says the rest).
func gapReason(g model.Gap) string {
	switch {
	case g.Kind == model.GapPermissionDenied && g.Permission != "":
		return "the identity lacks " + g.Permission
	case g.Detail != "":
		return g.Detail
	}
	return string(g.Kind)
}

// contained: yes when every endpoint prefix lies in the set, no when none
// overlaps it, unknown (keyed by label) otherwise.
func contained(name, label string, ep, set []netip.Prefix) fact {
	all, anyIn := true, false
	for _, e := range ep {
		in, over := false, false
		for _, s := range set {
			if s.Bits() <= e.Bits() && s.Contains(e.Addr()) {
				in = true
			}
			if s.Overlaps(e) {
				over = true
			}
		}
		all = all && in
		anyIn = anyIn || over
	}
	switch {
	case all:
		return fact{t: yes}
	case !anyIn:
		return fact{t: no}
	}
	return fact{t: unknown, key: name + ":" + label, tag: label + " (covers only part of the " + name + " prefixes)"}
}

// virtualNetwork decides the VirtualNetwork tag.
func (e *evaluator) virtualNetwork(name string, ep Endpoint) fact {
	undecided := fact{t: unknown, key: name + ":VirtualNetwork", tag: "VirtualNetwork"}
	if len(ep.Prefixes) == 0 {
		// A public address: in the tag only if the space holds public
		// ranges (or a maybe-prefix could cover it).
		for _, p := range append(append([]netip.Prefix{}, e.s.VirtualNetwork...), e.s.MaybeVirtualNetwork...) {
			if !isPrivate(p) && p.Addr() != AzureLoadBalancer {
				return undecided
			}
		}
		return fact{t: no}
	}
	f := contained(name, "VirtualNetwork", ep.Prefixes, e.s.VirtualNetwork)
	if f.t == no && overlapsAny(ep.Prefixes, e.s.MaybeVirtualNetwork) {
		return undecided
	}
	if f.t == unknown {
		return undecided
	}
	return f
}

// internet decides the Internet tag: addresses outside the VirtualNetwork
// space that are reachable from the public Internet. A public address not
// in VirtualNetwork is in it; a private address outside the space (on
// premises without a gateway route, say) is undecided.
func (e *evaluator) internet(name string, ep Endpoint) fact {
	v := e.virtualNetwork(name, ep)
	switch v.t {
	case yes:
		return fact{t: no}
	case unknown:
		// Internet is the complement: the same fact, assumed the other way.
		return fact{t: unknown, key: v.key, tag: v.tag, neg: true}
	}
	if len(ep.Prefixes) == 0 {
		return fact{t: yes}
	}
	pub := true
	for _, p := range ep.Prefixes {
		pub = pub && !isPrivate(p)
	}
	if pub {
		return fact{t: yes}
	}
	return fact{t: unknown, key: name + ":Internet", tag: "Internet (a private address outside the VirtualNetwork space)"}
}

var privateRanges = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("100.64.0.0/10"),
}

func isPrivate(p netip.Prefix) bool {
	for _, r := range privateRanges {
		if r.Bits() <= p.Bits() && r.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

func overlapsAny(a, b []netip.Prefix) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Overlaps(y) {
				return true
			}
		}
	}
	return false
}

// parsePrefix reads a CIDR or a single address.
func parsePrefix(s string) (netip.Prefix, bool) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), true
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	return netip.Prefix{}, false
}

// Describe says what a decision means, for hops and messages.
func (d Decision) Describe(f Flow) string {
	where := ""
	if d.Level != "" {
		where = " (" + d.Level + ")"
	}
	flow := fmt.Sprintf("%s %d", strings.ToUpper(f.Protocol), f.Port)
	switch d.Outcome {
	case Allowed:
		return fmt.Sprintf("nsg %s%s allows %s by rule %s (%d)", d.GroupName, where, flow, d.Rule, d.Priority)
	case Denied:
		return fmt.Sprintf("nsg %s%s denies %s by rule %s (%d, %s)", d.GroupName, where, flow, d.Rule, d.Priority, strings.ToLower(d.Direction))
	}
	return fmt.Sprintf("nsg %s%s: rule %s (%d, %s) could decide %s but uses %s, which cannot be resolved offline", d.GroupName, where, d.Rule, d.Priority, strings.ToLower(d.Direction), flow, d.Tag)
}
