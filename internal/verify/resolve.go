// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// resolution is a host's name resolution as the path needs it.
type resolution struct {
	// Addrs are the addresses the node may connect to, sorted: every
	// address of the record set that answered (a node gets any of them, so
	// each is traced); empty when Public or when the chain broke.
	Addrs []netip.Addr
	// Public: an Internet address Resource Manager does not know.
	Public bool
	// Assumed: the answer could not be read and Addr or Public is the
	// address the path continues with (the findings say why).
	Assumed bool
	// Story is the lookup in words, for the paths table.
	Story    string
	Findings []model.Finding
	// Broken: the chain stops at name resolution.
	Broken bool
	// Intended is set when a private endpoint serves the host but the
	// nodes resolve it publicly: its DNS finding depends on whether the
	// public path works.
	Intended *intendedPrivate
	// Unmodelled are the unmodelled settings of the resolver that
	// answered and of what its lookup went through (dnsAnswer).
	Unmodelled []model.UnmodelledSetting
}

// intendedPrivate is the DNS finding of a host a private endpoint serves
// that the nodes resolve publicly (the zone is not linked to the resolving
// VNet, or a link's NxDomainRedirect fell back to public DNS), built once
// the public path is known: fails is the DNS error, given why the public
// path fails as well; works is DNS_RESOLVES_PUBLIC, given what carries the
// public path.
type intendedPrivate struct {
	fails func(why string) model.Finding
	works func(via string) model.Finding
}

// resolve decides what the pool's answering resolver gives for h, and
// turns a wrong answer into its finding: DNS_RECORD_MISSING,
// DNS_RECORD_MISMATCH, DNS_ZONE_NOT_LINKED or ENDPOINT_UNRESOLVED.
func (r *run) resolve(pc *poolCtx, h model.PullHost) (out resolution) {
	srv := pc.answering
	if srv == nil {
		return resolution{Broken: true, Story: "no DNS server the nodes use is reachable"}
	}
	var used []model.UnmodelledSetting
	if srv.Kind == resolverInbound {
		if res := r.f.DNS.Resolvers[srv.Resource.Key()]; res != nil {
			used = append(used, res.Unmodelled...)
		}
	}
	defer func() { out.Unmodelled = append(used, out.Unmodelled...) }()
	if srv.Kind == resolverOpaque {
		assumed := r.assumedAnswer(h, fmt.Sprintf("answer of %s not readable", srv.Label))
		assumed.Assumed = true
		return assumed
	}
	a := r.lookup(pc, h, srv.VNetID)
	used = append(used, a.Unmodelled...)
	res := resolution{Findings: a.Findings, Story: strings.Join(a.Trail, "; ")}
	policy, blocked := r.checkDNSPolicies(pc, h, a)
	res.Findings = append(res.Findings, policy...)
	if blocked {
		res.Broken = true
		res.Story += "; blocked by a DNS security policy"
		return res
	}
	switch a.Outcome {
	case answerUnknown:
		assumed := r.assumedAnswer(h, "answer not readable")
		assumed.Assumed = true
		assumed.Findings = append(res.Findings, assumed.Findings...)
		if res.Story != "" {
			assumed.Story = res.Story + "; " + assumed.Story
		}
		return assumed
	case answerNXDomain:
		res.Findings = append(res.Findings, r.recordMissingFinding(pc, h, srv, a, ""))
		res.Broken = true
	case answerPrivate:
		// A node may get any address of the record set: one that the
		// registry's private endpoints do not serve for the name fails
		// the host, even beside a right one.
		if exp := r.ep.expected(h.Name); len(exp) > 0 {
			if stray := notIn(a.Addrs, exp); len(stray) > 0 {
				res.Findings = append(res.Findings, r.recordMismatchFinding(pc, h, srv, a, exp, stray))
				res.Broken = true
				return res
			}
		}
		res.Addrs = a.Addrs
	case answerPublic:
		served := a.Alias != "" || len(r.ep.servedBy(h.Name)) > 0
		switch {
		case a.Fallback && served:
			res.Public = true
			res.Intended = &intendedPrivate{
				fails: func(why string) model.Finding { return r.recordMissingFinding(pc, h, srv, a, why) },
				works: func(via string) model.Finding { return r.resolvesPublicFinding(pc, h, srv, a, a.Alias, via) },
			}
		case a.Fallback:
			res.Findings = append(res.Findings, r.recordMissingFinding(pc, h, srv, a, ""))
			res.Broken = true
		case a.Alias != "":
			res.Public = true
			res.Intended = &intendedPrivate{
				fails: func(why string) model.Finding { return r.zoneNotLinkedFinding(pc, h, srv, a, a.Alias, why) },
				works: func(via string) model.Finding { return r.resolvesPublicFinding(pc, h, srv, a, a.Alias, via) },
			}
		case h.Kind == model.HostDeclared:
			return r.declaredAnswer(pc, h, srv, a, res)
		case h.Kind == model.HostBlob:
			res.Public = true
			res.Story = "the registry's storage account is not named in Resource Manager; its address is public"
		default:
			res.Public = true
		}
	}
	return res
}

// declaredAnswer resolves a declared host that no linked zone answers: the
// declared address; or, if a private zone holds the name but the resolving
// VNet is not linked to it, DNS_ZONE_NOT_LINKED; else, for a name in the
// public DNS namespace, its public address (mcr.microsoft.com); else
// ENDPOINT_UNRESOLVED.
func (r *run) declaredAnswer(pc *poolCtx, h model.PullHost, srv *resolver, a dnsAnswer, res resolution) resolution {
	if addr, ok := r.declaredAddress(h.Name); ok {
		res.Addrs = []netip.Addr{addr}
		res.Story = "declared address " + addr.String() + " (no private zone answers " + h.Name + ")"
		return res
	}
	switch z := r.zoneHolding(h.Name); {
	case z != nil && findRecord(z, relativeName(h.Name, z.Name)) != nil:
		res.Findings = append(res.Findings, r.zoneNotLinkedFinding(pc, h, srv, a, h.Name, ""))
	case publicName(h.Name):
		res.Public = true
		res.Story = h.Name + " resolves publicly (no private zone the resolver answers from holds it)"
		return res
	default:
		res.Findings = append(res.Findings, r.unresolvedFinding(pc, h, srv.name()))
	}
	res.Broken = true
	return res
}

// nonPublicSuffixes are domains public DNS never answers: reserved for
// documentation and testing (RFC 2606), special-use names (RFC 6761,
// RFC 6762 .local, RFC 8375 home.arpa, RFC 7686 .onion), the top-level
// domain ICANN reserved for private use (.internal, 2024), and top-level
// domains ICANN will not delegate because private networks use them
// (.corp, .home, .mail), as well as the common private .lan.
var nonPublicSuffixes = []string{
	"example", "test", "invalid", "localhost", "local", "home.arpa", "onion",
	"internal", "corp", "home", "mail", "lan",
}

// publicName reports whether a host belongs to the public DNS namespace:
// more than one label, under none of nonPublicSuffixes. Such a name that
// no private zone holds resolves to a public address; any other one has no
// address the provider could know.
func publicName(host string) bool {
	host = model.NormalizeHost(host)
	if !strings.Contains(host, ".") {
		return false
	}
	for _, s := range nonPublicSuffixes {
		if host == s || strings.HasSuffix(host, "."+s) {
			return false
		}
	}
	return true
}

// assumedAnswer is the address the path continues with when the resolver's
// answer cannot be read: the private endpoint's address for the name, the
// declared address, or a public address for names nothing private serves.
// The finding that made the answer unreadable keeps the path unverified.
func (r *run) assumedAnswer(h model.PullHost, why string) resolution {
	if exp := r.ep.expected(h.Name); len(exp) > 0 {
		return resolution{Addrs: exp[:1], Story: why + "; assuming the private endpoint address " + exp[0].String()}
	}
	if addr, ok := r.declaredAddress(h.Name); ok {
		return resolution{Addrs: []netip.Addr{addr}, Story: why + "; assuming the declared address " + addr.String()}
	}
	if h.Kind == model.HostDeclared && !publicName(h.Name) {
		return resolution{Broken: true, Story: why + "; address unknown"}
	}
	return resolution{Public: true, Story: why + "; assuming the public address"}
}

func (r *run) declaredAddress(host string) (netip.Addr, bool) {
	if r.f.Declared == nil {
		return netip.Addr{}, false
	}
	keys := make([]string, 0, len(r.f.Declared.Addresses))
	for h := range r.f.Declared.Addresses {
		keys = append(keys, h)
	}
	sort.Strings(keys) // two spellings of one host: the first in order wins, every time
	for _, h := range keys {
		if addr := r.f.Declared.Addresses[h]; model.NormalizeHost(h) == host && addr.IsValid() {
			return addr, true
		}
	}
	return netip.Addr{}, false
}

// consequence says what a failed lookup of h breaks.
func consequence(h model.PullHost) string {
	switch h.Kind {
	case model.HostData, model.HostBlob:
		return "the layer download fails after the manifest succeeded"
	case model.HostLogin:
		return "the pull fails before authentication"
	default:
		return "the pull fails at this host"
	}
}

// recordMissingFinding: the zone that answers lacks the record. For an
// NxDomainRedirect fallback, publicFails says why the public address the
// node then gets does not work either.
func (r *run) recordMissingFinding(pc *poolCtx, h model.PullHost, srv *resolver, a dnsAnswer, publicFails string) model.Finding {
	z := a.Zone
	outcome := "so the name does not resolve (NXDOMAIN)"
	if a.Fallback {
		outcome = "so the link's NxDomainRedirect policy falls back to public DNS and the node gets the public address"
		if publicFails != "" {
			outcome += ", " + publicFails
		}
	}
	msg := fmt.Sprintf("%s resolves %s through %s; zone %s is linked to %s but has no record %s, %s, and %s.",
		pc.label, h.Name, srv.name(), z.Name, r.vnetName(a.VNetID), a.Record, outcome, consequence(h))
	target := "the private endpoint's address for " + h.Name
	if exp := r.ep.expected(h.Name); len(exp) > 0 {
		target = joinAddrs(exp)
		if pe := r.ep.servedBy(h.Name); len(pe) > 0 {
			target += " (private endpoint " + pe[0].PE.Name + ")"
		}
	}
	fix := fmt.Sprintf("Add the A record %s → %s to zone %s, best by adding the zone to the private endpoint's DNS zone group so Azure keeps the record in step with the endpoint. A hosts entry on a node disappears with the node, and credentials or an imagePullSecret are irrelevant here.",
		a.Record, target, z.Name)
	return model.NewFinding(model.DNSRecordMissing, pc.pool.Name, h.Name, z.ID, msg, fix)
}

func (r *run) recordMismatchFinding(pc *poolCtx, h model.PullHost, srv *resolver, a dnsAnswer, expected, stray []netip.Addr) model.Finding {
	pe := r.ep.servedBy(h.Name)[0].PE
	msg := fmt.Sprintf("%s resolves %s through %s to %s (record %s in zone %s, linked to %s), but private endpoint %s serves %s at %s; the node connects to an address that is not the registry's endpoint.",
		pc.label, h.Name, srv.name(), joinAddrs(a.Addrs), a.Record, a.Zone.Name, r.vnetName(a.VNetID), pe.Name, h.Name, joinAddrs(expected))
	if len(stray) < len(a.Addrs) {
		msg = fmt.Sprintf("%s resolves %s through %s to %s (record %s in zone %s, linked to %s), but private endpoint %s serves %s at %s only: a node may get %s, which is not the registry's endpoint, and then fails (the record's addresses are handed out in turn, so some nodes fail and others do not).",
			pc.label, h.Name, srv.name(), joinAddrs(a.Addrs), a.Record, a.Zone.Name, r.vnetName(a.VNetID), pe.Name, h.Name, joinAddrs(expected), joinAddrs(stray))
	}
	fix := fmt.Sprintf("Set record %s in zone %s to %s, best through the private endpoint's DNS zone group, which keeps it current (a stale record typically survives a re-created private endpoint). Routes and credentials are not the problem.",
		a.Record, a.Zone.Name, joinAddrs(expected))
	return model.NewFinding(model.DNSRecordMismatch, pc.pool.Name, h.Name, a.Zone.ID, msg, fix)
}

// zoneNotLinkedFinding: the resolver answers from no private zone that
// holds name (the host or its private link alias), so the node resolves
// publicly. publicFails says why the public address then fails too; empty
// for a declared host, whose public answer is not known.
func (r *run) zoneNotLinkedFinding(pc *poolCtx, h model.PullHost, srv *resolver, a dnsAnswer, name, publicFails string) model.Finding {
	cause, fix, resource := r.notLinkedCause(h, srv, a, name)
	after := "the node gets the registry's public address"
	switch {
	case publicFails != "":
		after += ", " + publicFails
	case r.f.Registry != nil:
		after += " and bypasses the private endpoint"
	}
	msg := fmt.Sprintf("%s resolves %s through %s. %s; so %s, and %s.%s", pc.label, h.Name, srv.name(), cause, after, consequence(h), r.searchNote(a.VNetID))
	return model.NewFinding(model.DNSZoneNotLinked, pc.pool.Name, h.Name, resource, msg, fix)
}

// notLinkedCause says why the resolver answers name from no private zone
// ("Azure DNS answers the nodes from the private zones linked to X, and
// zone Z, which holds N, is linked only to Y"), with the fix and the
// resource to change: the zone that holds name, or the resolving VNet when
// no zone does.
func (r *run) notLinkedCause(h model.PullHost, srv *resolver, a dnsAnswer, name string) (cause, fix string, resource model.ResourceID) {
	vnet := r.vnetName(a.VNetID)
	where := fmt.Sprintf("Azure DNS answers the nodes from the private zones linked to %s", vnet)
	if srv.Kind == resolverInbound {
		where = fmt.Sprintf("The resolver answers from the private zones linked to its VNet %s", vnet)
	}
	if z := r.zoneHolding(name); z != nil {
		cause = fmt.Sprintf("%s, and zone %s, which holds %s, is %s", where, z.Name, relativeName(name, z.Name), linkedList(r, z))
		fix = fmt.Sprintf("Link zone %s to %s (a virtual network link without auto-registration). Linking it to another VNet does not help: Azure DNS answers from the zones linked to the VNet that asks. A hosts entry disappears with the node, and credentials or an imagePullSecret are irrelevant here.",
			z.Name, vnet)
		return cause, fix, z.ID
	}
	zone := r.cloud.PrivateLinkZone
	if h.Kind == model.HostDeclared {
		zone = "a zone for " + name
	}
	cause = fmt.Sprintf("%s, and no private DNS zone holds %s", where, name)
	fix = fmt.Sprintf("Create the private DNS zone %s with the private endpoint's records (add it to the endpoint's DNS zone group) and link it to %s. A hosts entry disappears with the node, and credentials are irrelevant here.", zone, vnet)
	return cause, fix, a.VNetID
}

// resolvesPublicFinding is DNS_RESOLVES_PUBLIC: a private endpoint serves
// h, the nodes resolve it publicly (name is its private link alias, which
// no zone linked to the resolving VNet holds; or a link's NxDomainRedirect
// fell back), and the public path works (via says what carries it). Pulls
// work, off the private path the private endpoint was made for.
func (r *run) resolvesPublicFinding(pc *poolCtx, h model.PullHost, srv *resolver, a dnsAnswer, name, via string) model.Finding {
	var cause, fix, note string
	var resource model.ResourceID
	if a.Fallback {
		cause = fmt.Sprintf("Zone %s is linked to %s but has no record %s, and the link's NxDomainRedirect policy falls back to public DNS", a.Zone.Name, r.vnetName(a.VNetID), a.Record)
		fix = fmt.Sprintf("Add the A record %s for the private endpoint's address to zone %s, best by adding the zone to the private endpoint's DNS zone group.", a.Record, a.Zone.Name)
		resource = a.Zone.ID
	} else {
		cause, fix, resource = r.notLinkedCause(h, srv, a, name)
		note = r.searchNote(a.VNetID)
	}
	pe := ""
	if s := r.ep.servedBy(h.Name); len(s) > 0 {
		pe = " (private endpoint " + s[0].PE.Name + ")"
	}
	works := "the public path works"
	if via != "" {
		works += ": " + via
	}
	msg := fmt.Sprintf("%s resolves %s through %s. %s; so the node gets the registry's public address instead of its private address%s. %s, so pulls work, but off the private path, and they stop working when public access is turned off.%s",
		pc.label, h.Name, srv.name(), cause, pe, capitalize(works), note)
	fix += " Until then the pull depends on the registry's public access and the nodes' way out to the internet; disabling public network access before fixing DNS breaks it."
	return model.NewFinding(model.DNSResolvesPublic, pc.pool.Name, h.Name, resource, msg, fix)
}

// linkedList says which VNets a zone is linked to.
func linkedList(r *run, z *model.PrivateZone) string {
	if len(z.Links) == 0 {
		return "linked to no VNet"
	}
	names := make([]string, len(z.Links))
	for i, l := range z.Links {
		names[i] = r.vnetName(l.VNetID)
	}
	sort.Strings(names)
	return "linked only to " + strings.Join(names, ", ")
}

// notIn returns the addresses of addrs that are not in set.
func notIn(addrs, set []netip.Addr) []netip.Addr {
	var out []netip.Addr
	for _, a := range addrs {
		if !containsAddr(set, a) {
			out = append(out, a)
		}
	}
	return out
}
