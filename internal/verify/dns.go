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

// maxDNSSteps bounds CNAME chains and forwarding hops (a loop is a
// misconfiguration the lookup must survive, not follow forever).
const maxDNSSteps = 12

// dnsOutcome is how a lookup ended.
type dnsOutcome int

const (
	// answerPrivate: a private zone record gave addresses.
	answerPrivate dnsOutcome = iota
	// answerNXDomain: the most specific linked zone holding the name has no
	// record for it, and the link does not fall back to public resolution.
	answerNXDomain
	// answerPublic: no private zone answered; the node gets whatever
	// public DNS says (an address Resource Manager does not know).
	answerPublic
	// answerUnknown: the answer cannot be read (forwarded elsewhere, or
	// missing evidence); the cause is in Findings.
	answerUnknown
)

// dnsAnswer is what Azure DNS in a VNet answers for a name, with the way it
// got there.
type dnsAnswer struct {
	Outcome dnsOutcome
	Addrs   []netip.Addr
	// Zone and Record are the zone that answered (or was authoritative for
	// a missing record) and the relative name looked up in it.
	Zone   *model.PrivateZone
	Record string
	// VNetID is the VNet whose zone links decided (the node VNet, or the
	// VNet of a resolver a forwarding rule sent the query to).
	VNetID model.ResourceID
	// Alias is the private link name public DNS sent the name to (the
	// registry has a private endpoint for it), or "".
	Alias string
	// Fallback is true when a linked zone lacked the record but its link's
	// resolution policy NxDomainRedirect fell back to public resolution.
	Fallback bool
	// Trail is the lookup in words.
	Trail    []string
	Findings []model.Finding
	// Unmodelled are the unmodelled settings of what the lookup went
	// through: the links of the zones it consulted to the asking VNet,
	// the resolvers a forwarding rule sent it to (verify/unmodelled.go).
	Unmodelled []model.UnmodelledSetting
	// Names are the names queried, the host first, then each CNAME
	// target in order: the query's CNAME chain as far as it was read.
	Names []string
	// VNets are the VNets whose Azure DNS the query went through: the
	// resolving VNet first, then each VNet a forwarding rule sent it to.
	VNets []model.ResourceID
}

// lookup resolves host the way Azure DNS does for a query from vnetID:
// forwarding rulesets linked to the VNet first, then the most specific
// private zone linked to the VNet whose name is a suffix of the queried
// name, then public DNS — which, for a registry name served by a private
// endpoint, answers with a CNAME to the private link name
// (contosoreg.azurecr.io → contosoreg.privatelink.azurecr.io), resolved the
// same way again.
func (r *run) lookup(pc *poolCtx, h model.PullHost, vnetID model.ResourceID) dnsAnswer {
	a := dnsAnswer{VNetID: vnetID, Names: []string{model.NormalizeHost(h.Name)}, VNets: []model.ResourceID{vnetID}}
	name := h.Name
	visited := map[string]bool{vnetID.Key(): true}
	// viaUnknown: the alias came from a private endpoint whose served names
	// could not be read, for a host other than the login server (which
	// every registry private endpoint serves). Whether that endpoint serves
	// the host, and so which finding a missing record or zone is, rests on
	// what was not read: such a lookup ends unknown, never in an error.
	viaUnknown := false
	for step := 0; step < maxDNSSteps; step++ {
		if rule, rs := r.forwardingRule(a.VNetID, name); rule != nil {
			target := r.inboundTarget(rule)
			if target == nil || visited[target.VNetID.Key()] {
				a.Outcome = answerUnknown
				a.Findings = append(a.Findings, r.divertsFinding(pc, h, a.VNetID, name, rs, rule))
				return a
			}
			visited[target.VNetID.Key()] = true
			a.Unmodelled = append(a.Unmodelled, target.Unmodelled...)
			a.Trail = append(a.Trail, fmt.Sprintf("ruleset %s forwards %s to resolver %s in %s", rs.Name, ruleDomain(rule), target.Name, r.vnetName(target.VNetID)))
			a.VNetID = target.VNetID
			a.VNets = append(a.VNets, target.VNetID)
			continue
		}
		zone, known := r.linkedZone(pc, h, a.VNetID, name, &a)
		if !known {
			a.Outcome = answerUnknown
			return a
		}
		if zone != nil {
			if l := linkOf(zone, a.VNetID); l != nil {
				a.Unmodelled = append(a.Unmodelled, l.Unmodelled...)
			}
			if !zone.RecordsKnown {
				a.Outcome = answerUnknown
				a.Findings = append(a.Findings, r.evidence(pc.pool.Name, h.Name, zone.ID,
					fmt.Sprintf("the records of zone %s, which answers %s for %s", zone.Name, name, r.vnetName(a.VNetID))))
				return a
			}
			rel := relativeName(name, zone.Name)
			rec := findRecord(zone, rel)
			switch {
			case rec != nil && strings.EqualFold(rec.Type, "CNAME") && rec.CNAME != "":
				a.Trail = append(a.Trail, fmt.Sprintf("%s CNAME %s (zone %s)", name, model.NormalizeHost(rec.CNAME), zone.Name))
				name = model.NormalizeHost(rec.CNAME)
				a.Names = append(a.Names, name)
				continue
			case rec != nil:
				a.Outcome, a.Zone, a.Record = answerPrivate, zone, rel
				a.Addrs = sortedAddrs(rec.Addrs)
				a.Trail = append(a.Trail, fmt.Sprintf("%s A %s (zone %s, linked to %s)", name, joinAddrs(a.Addrs), zone.Name, r.vnetName(a.VNetID)))
				return a
			case !nxDomainRedirect(zone, a.VNetID):
				a.Outcome, a.Zone, a.Record = answerNXDomain, zone, rel
				a.Trail = append(a.Trail, fmt.Sprintf("%s NXDOMAIN (zone %s has no record %s)", name, zone.Name, rel))
				if viaUnknown {
					a.Outcome = answerUnknown
				}
				return a
			}
			a.Fallback, a.Zone, a.Record = true, zone, rel
			a.Trail = append(a.Trail, fmt.Sprintf("zone %s has no record %s; NxDomainRedirect falls back to public DNS", zone.Name, rel))
		}
		if alias := r.privateLinkAlias(name); alias != "" {
			a.Alias = alias
			a.Trail = append(a.Trail, fmt.Sprintf("%s CNAME %s (public DNS)", name, alias))
			name = alias
			a.Names = append(a.Names, name)
			continue
		}
		if alias, via := r.unknownEndpointAlias(name); alias != "" {
			// Public DNS gives every name of a resource with an approved
			// private endpoint a CNAME to its private link name; which names
			// and addresses the endpoint serves is what could not be read,
			// and the path stays unverified by that evidence.
			for _, u := range via {
				a.Findings = append(a.Findings, r.evidence(pc.pool.Name, h.Name, u.Missing,
					fmt.Sprintf("which registry names private endpoint %s serves, and at which addresses (its customDnsConfigs are empty, and the network interface that lists them could not be read)", u.Name)))
			}
			a.Alias = alias
			a.Trail = append(a.Trail, fmt.Sprintf("%s CNAME %s (public DNS: the registry's private endpoint connection is approved; the names it serves were not read)", name, alias))
			name = alias
			a.Names = append(a.Names, name)
			viaUnknown = viaUnknown || h.Kind != model.HostLogin
			continue
		}
		if unread := r.aliasUnread(name); len(unread) > 0 {
			// A private endpoint the registry names could not be read: it
			// may serve name, and then public DNS sends name to its private
			// link alias. Which answer the node gets is unknown.
			a.Outcome = answerUnknown
			for _, id := range unread {
				a.Findings = append(a.Findings, r.evidence(pc.pool.Name, h.Name, id,
					"private endpoint "+id.Name()+" of registry "+r.f.Registry.Name+" (whether it serves "+name+", which decides what public DNS answers)"))
			}
			return a
		}
		if _, declared := r.declaredAddress(h.Name); !a.Fallback && (a.Alias != "" || (h.Kind == model.HostDeclared && !declared)) {
			// A private zone was expected to answer, and none linked to
			// the VNet holds the name: known only if every subscription
			// was searched for zones linked to it.
			if fs, unknown := r.zoneSearchUnknown(pc, h, a.VNetID, name); unknown {
				a.Outcome = answerUnknown
				a.Findings = append(a.Findings, fs...)
				a.Trail = append(a.Trail, fmt.Sprintf("no zone found holding %s linked to %s; zones in subscriptions not searched are unknown", name, r.vnetName(a.VNetID)))
				return a
			}
		}
		if viaUnknown {
			a.Outcome = answerUnknown
			a.Trail = append(a.Trail, "no private zone linked to "+r.vnetName(a.VNetID)+" answers "+name+"; whether public DNS aliases it rests on the endpoint that was not read")
			return a
		}
		a.Outcome = answerPublic
		a.Trail = append(a.Trail, name+" resolves publicly")
		return a
	}
	a.Outcome = answerUnknown
	a.Findings = append(a.Findings, r.loopFinding(pc, h))
	return a
}

// privateLinkAlias is the private link name public DNS gives a registry
// name that a private endpoint serves (<x>.azurecr.io →
// <x>.privatelink.azurecr.io), or "".
func (r *run) privateLinkAlias(name string) string {
	if r.f.Registry == nil || len(r.ep.servedBy(name)) == 0 {
		return ""
	}
	suffix := "." + r.cloud.RegistrySuffix
	if !strings.HasSuffix(name, suffix) || strings.HasSuffix(name, "."+r.cloud.PrivateLinkZone) {
		return ""
	}
	return strings.TrimSuffix(name, suffix) + "." + r.cloud.PrivateLinkZone
}

// unknownEndpointAlias is the private link alias of a registry name that no
// read private endpoint serves while an approved private endpoint of the
// registry has FQDNs that could not be read (endpoints.unknown), with those
// endpoints; "" otherwise. Azure gives the public name of a resource with
// a private endpoint a CNAME to its privatelink name ("Azure Private
// Endpoint private DNS zone values", docs/design/azure-behaviour.md D4), and
// the registry reports the connection approved, so the lookup continues
// with the alias instead of concluding a public answer from evidence that
// is missing.
func (r *run) unknownEndpointAlias(name string) (string, []unknownEndpoint) {
	if r.f.Registry == nil || len(r.ep.unknown) == 0 || len(r.ep.servedBy(name)) > 0 {
		return "", nil
	}
	suffix := "." + r.cloud.RegistrySuffix
	if !strings.HasSuffix(name, suffix) || strings.HasSuffix(name, "."+r.cloud.PrivateLinkZone) {
		return "", nil
	}
	return strings.TrimSuffix(name, suffix) + "." + r.cloud.PrivateLinkZone, r.ep.unknown
}

// aliasUnread returns the registry's private endpoints that could not be
// read when name is a registry name no read endpoint serves: any of them
// may serve it, so whether public DNS aliases it is unknown.
func (r *run) aliasUnread(name string) []model.ResourceID {
	if r.f.Registry == nil || len(r.ep.unread) == 0 {
		return nil
	}
	suffix := "." + r.cloud.RegistrySuffix
	if !strings.HasSuffix(name, suffix) || strings.HasSuffix(name, "."+r.cloud.PrivateLinkZone) {
		return nil
	}
	return r.ep.unread
}

// linkedZone returns the most specific private zone linked to vnetID whose
// name is the queried name or a suffix of it (Azure DNS answers from that
// zone alone). known is false when the zone links or the zone list could
// not be fully read, so that the answer is unknown; the evidence findings
// are added to a.
func (r *run) linkedZone(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, name string, a *dnsAnswer) (zone *model.PrivateZone, known bool) {
	if fs := r.unnamedLinkedZones(pc, h, name); len(fs) > 0 {
		a.Findings = append(a.Findings, fs...)
		return nil, false
	}
	for _, z := range r.zonesFor(name) {
		if !z.LinksKnown {
			a.Findings = append(a.Findings, r.evidence(pc.pool.Name, h.Name, z.ID,
				fmt.Sprintf("the virtual network links of zone %s, which holds %s", z.Name, name)))
			return nil, false
		}
		if linkOf(z, vnetID) != nil {
			if !r.f.DNS.ZoneSearchComplete {
				a.Findings = append(a.Findings, r.zoneSearchEvidence(pc, h)...)
			}
			return z, true
		}
	}
	if !r.f.DNS.ZoneSearchComplete {
		a.Findings = append(a.Findings, r.zoneSearchEvidence(pc, h)...)
		return nil, false
	}
	return nil, true
}

// zonesFor returns the zones whose name is name or a suffix of it, most
// specific first.
func (r *run) zonesFor(name string) []*model.PrivateZone {
	var out []*model.PrivateZone
	for _, z := range r.f.DNS.Zones {
		zn := model.NormalizeHost(z.Name)
		if name == zn || strings.HasSuffix(name, "."+zn) {
			out = append(out, z)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Name) != len(out[j].Name) {
			return len(out[i].Name) > len(out[j].Name)
		}
		return out[i].ID.Key() < out[j].ID.Key()
	})
	return out
}

// zoneHolding returns a zone (linked anywhere or nowhere) that has a record
// for name, or else the most specific zone for name; nil when none exists.
func (r *run) zoneHolding(name string) *model.PrivateZone {
	zones := r.zonesFor(name)
	for _, z := range zones {
		if findRecord(z, relativeName(name, z.Name)) != nil {
			return z
		}
	}
	if len(zones) > 0 {
		return zones[0]
	}
	return nil
}

func linkOf(z *model.PrivateZone, vnetID model.ResourceID) *model.ZoneLink {
	for i := range z.Links {
		if z.Links[i].VNetID.Equal(vnetID) {
			return &z.Links[i]
		}
	}
	return nil
}

// nxDomainRedirect reports whether the zone's link to vnetID falls back to
// public resolution when a record is missing.
func nxDomainRedirect(z *model.PrivateZone, vnetID model.ResourceID) bool {
	l := linkOf(z, vnetID)
	return l != nil && strings.EqualFold(l.ResolutionPolicy, "NxDomainRedirect")
}

// relativeName is name relative to zone ("@" for the apex).
func relativeName(name, zone string) string {
	zone = model.NormalizeHost(zone)
	if name == zone {
		return "@"
	}
	return strings.TrimSuffix(name, "."+zone)
}

// findRecord returns the A or CNAME record set for rel, or the wildcard
// that covers it; a record set without addresses answers nothing.
func findRecord(z *model.PrivateZone, rel string) *model.RecordSet {
	candidates := []string{rel}
	labels := strings.Split(rel, ".")
	for i := 1; i <= len(labels) && rel != "@"; i++ {
		candidates = append(candidates, strings.Join(append([]string{"*"}, labels[i:]...), "."))
	}
	for _, c := range candidates {
		rec := z.Records[strings.TrimSuffix(c, ".")]
		if rec == nil {
			continue
		}
		switch {
		case strings.EqualFold(rec.Type, "CNAME") && rec.CNAME != "":
			return rec
		case strings.EqualFold(rec.Type, "A") && len(rec.Addrs) > 0:
			return rec
		}
	}
	return nil
}

// forwardingRule returns the enabled rule with the longest domain that
// covers name among the rulesets linked to vnetID. The wildcard rule "."
// covers every name and is chosen only when no other rule covers it.
func (r *run) forwardingRule(vnetID model.ResourceID, name string) (*model.ForwardingRule, *model.Ruleset) {
	var best *model.ForwardingRule
	var bestSet *model.Ruleset
	for _, rs := range sortedRulesets(r.f.DNS) {
		if !containsID(rs.LinkedVNets, vnetID) {
			continue
		}
		for i := range rs.Rules {
			rule := &rs.Rules[i]
			if !rule.Enabled || !rule.Covers(name) {
				continue
			}
			if best == nil || rule.Specificity() > best.Specificity() {
				best, bestSet = rule, rs
			}
		}
	}
	return best, bestSet
}

// ruleDomain names a rule's domain in messages.
func ruleDomain(rule *model.ForwardingRule) string {
	if d := rule.Domain(); d != "." {
		return d
	}
	return `"." (every name)`
}

// inboundTarget returns the resolver whose inbound endpoints are every
// target of the rule (the query then continues as Azure DNS in that
// resolver's VNet), or nil.
func (r *run) inboundTarget(rule *model.ForwardingRule) *model.Resolver {
	var target *model.Resolver
	for _, t := range rule.Targets {
		s := ClassifyDNSServer(t.Addr(), r.dnsEvidence())
		if s.Kind != DNSServerResolverInbound || (target != nil && !s.Resolver.VNetID.Equal(target.VNetID)) {
			return nil
		}
		target = s.Resolver
	}
	return target
}

func (r *run) divertsFinding(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, name string, rs *model.Ruleset, rule *model.ForwardingRule) model.Finding {
	targets := make([]string, len(rule.Targets))
	for i, t := range rule.Targets {
		targets[i] = r.describeAddr(t.Addr())
	}
	msg := fmt.Sprintf("%s resolves %s through Azure DNS in %s, but forwarding ruleset %s, linked to %s, sends %s (rule %s) to %s. The answer comes from there, not from the private zones Azure can read, so the address the nodes get is unverified.",
		pc.label, h.Name, r.vnetName(vnetID), rs.Name, r.vnetName(vnetID), ruleDomain(rule), rule.Name, strings.Join(targets, ", "))
	fix := fmt.Sprintf("Make sure the target servers answer %s with the registry's private endpoint address (forward %s to a DNS private resolver inbound endpoint whose VNet is linked to the zone), or narrow rule %s so that the registry names stay with Azure DNS.",
		name, r.cloud.PrivateLinkZone, rule.Name)
	if rule.Domain() == "." {
		// The wildcard rule cannot be narrowed: a more specific rule wins
		// over it (the longest matching domain is used).
		fix = fmt.Sprintf("Add a rule for %s. to ruleset %s (a more specific rule wins over the wildcard rule %s) that targets a DNS private resolver inbound endpoint whose VNet is linked to zone %s, or make sure the target servers answer %s with the registry's private endpoint address. Linking the zone to %s does not help while the wildcard rule sends the query away; credentials are irrelevant here.",
			r.cloud.RegistrySuffix, rs.Name, rule.Name, r.cloud.PrivateLinkZone, name, r.vnetName(vnetID))
	}
	return model.NewFinding(model.DNSForwardingRuleDiverts, pc.pool.Name, h.Name, rs.ID, msg, fix)
}

func (r *run) loopFinding(pc *poolCtx, h model.PullHost) model.Finding {
	msg := fmt.Sprintf("%s: resolving %s did not end after %d CNAME or forwarding steps; the private zones or forwarding rules loop, so its address is unverified.", pc.label, h.Name, maxDNSSteps)
	fix := "Check the CNAME records and forwarding rules for the registry names for a loop."
	return model.NewFinding(model.EvidenceUnavailable, pc.pool.Name, h.Name, "", msg, fix)
}

// describeAddr names what is at an address (ClassifyDNSServer): a resolver
// inbound endpoint, a VM, a VNet host or an outside server.
func (r *run) describeAddr(addr netip.Addr) string {
	s := ClassifyDNSServer(addr, r.dnsEvidence())
	switch {
	case s.Kind == DNSServerAzure:
		return fmt.Sprintf("%s (Azure DNS)", addr)
	case s.Kind == DNSServerResolverInbound:
		return fmt.Sprintf("%s (dns private resolver %s in %s)", addr, s.Resolver.Name, r.vnetName(s.Resolver.VNetID))
	case s.Kind == DNSServerNIC && !s.NIC.VMID.IsZero():
		return fmt.Sprintf("%s (vm %s)", addr, s.NIC.VMID.Name())
	case s.InVNet:
		return fmt.Sprintf("%s (in %s)", addr, s.VNet.Name)
	case s.Gap != nil:
		return fmt.Sprintf("%s (unknown: in no VNet that was read, and the search for DNS private resolvers failed)", addr)
	}
	return fmt.Sprintf("%s (outside Azure)", addr)
}

func sortedResolvers(d *model.DNS) []*model.Resolver {
	out := make([]*model.Resolver, 0, len(d.Resolvers))
	for _, rs := range d.Resolvers {
		out = append(out, rs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}

func sortedRulesets(d *model.DNS) []*model.Ruleset {
	out := make([]*model.Ruleset, 0, len(d.Rulesets))
	for _, rs := range d.Rulesets {
		out = append(out, rs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}

func containsID(ids []model.ResourceID, id model.ResourceID) bool {
	for _, x := range ids {
		if x.Equal(id) {
			return true
		}
	}
	return false
}
