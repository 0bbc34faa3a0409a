// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"net/netip"
	"strings"
)

// locationLabel stands for the cluster's region in an FQDN tag member.
const locationLabel = "{location}"

// fqdnTagMembers are the FQDN tags whose members Microsoft documents, with
// those members as target FQDN patterns. Microsoft maintains the tags and
// does not publish their full contents ("You can't create your own FQDN
// tags, nor can you specify which FQDNs are included within a tag"), so a
// tag that is not listed here is undecided for every host, and a host a
// listed tag does not name is taken as not covered by it.
//
// AzureKubernetesService ("Allows outbound access to AKS", Microsoft Learn
// "FQDN tags overview", https://learn.microsoft.com/azure/firewall/fqdn-tags)
// covers the required FQDN / application rules of an AKS cluster in Azure
// global, Microsoft Learn "Outbound network and FQDN rules for Azure
// Kubernetes Service (AKS) clusters",
// https://learn.microsoft.com/azure/aks/outbound-rules-control-egress#azure-global-required-fqdn--application-rules
// — among them everything a new node pulls from Microsoft Container
// Registry: mcr.microsoft.com and its CDN-backed storage
// *.data.mcr.microsoft.com and mcr-0001.mcr-msedge.net.
var fqdnTagMembers = map[string][]string{
	"azurekubernetesservice": {
		"*.hcp." + locationLabel + ".azmk8s.io",
		"mcr.microsoft.com",
		"*.data.mcr.microsoft.com",
		"mcr-0001.mcr-msedge.net",
		"management.azure.com",
		"login.microsoftonline.com",
		"packages.microsoft.com",
		"acs-mirror.azureedge.net",
		"packages.aks.azure.com",
	},
}

// AKSFQDNTag is the FQDN tag that covers what AKS nodes need, MCR included.
const AKSFQDNTag = "AzureKubernetesService"

// matchFQDNTag matches an application rule's FQDN tag against the host.
func matchFQDNTag(tag string, h hostSet) (match, string) {
	members, ok := fqdnTagMembers[strings.ToLower(strings.TrimSpace(tag))]
	if !ok {
		return unknown, "FQDN tag " + tag + " is maintained by Microsoft and its members are not documented, so whether it covers " + h.String() + " is unknown"
	}
	out := no
	for _, m := range members {
		out = or(out, matchTagMember(m, h))
	}
	return out, ""
}

// InFQDNTag reports whether the documented members of an FQDN tag cover
// host (false for a tag whose members are not documented).
func InFQDNTag(tag, host string) bool {
	m, _ := matchFQDNTag(tag, parseHost(host))
	return m == yes
}

// matchTagMember matches one tag member, whose {location} label stands for
// any one region name.
func matchTagMember(member string, h hostSet) match {
	if !strings.Contains(member, locationLabel) {
		return matchTargetFQDN(member, h)
	}
	labels := strings.Split(member, ".")
	at := -1 // position of the region label, counted from the right
	for i, l := range labels {
		if l == locationLabel {
			at = len(labels) - 1 - i
		}
	}
	hl := strings.Split(h.name, ".")
	if at < len(hl) {
		region := hl[len(hl)-1-at]
		if !isRegionLabel(region) {
			return no
		}
		return matchTargetFQDN(strings.Replace(member, locationLabel, region, 1), h)
	}
	if !h.wildcard {
		return no
	}
	// A wildcard set whose domain stops short of the region label: some
	// of its names may be members.
	if matchTargetFQDN(strings.Replace(member, locationLabel, "region", 1), h) != no {
		return unknown
	}
	return no
}

func isRegionLabel(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// matchServiceTag matches a network rule's destination service tag against
// the service tag whose prefixes hold the flow's public address (tag, e.g.
// AzureContainerRegistry.WestEurope; empty when unknown). The same tag, or
// its service without a region, covers the address; the same service in
// another region does not (regional tags of a service are disjoint); any
// other tag may or may not, which only the service tag discovery API could
// tell.
func matchServiceTag(rule, tag string) (match, string) {
	r := strings.ToLower(strings.TrimSpace(rule))
	t := strings.ToLower(strings.TrimSpace(tag))
	if t == "" {
		return unknown, "service tag " + rule + " may include the public address, which Resource Manager does not show"
	}
	if r == t {
		return yes, ""
	}
	tService, tRegional := splitRegion(t)
	rService, rRegional := splitRegion(r)
	switch {
	case rService == tService && !rRegional && tRegional:
		return yes, ""
	case rService == tService && rRegional && tRegional:
		return no, ""
	}
	return unknown, "service tag " + rule + " may or may not include the addresses of " + tag + " (the service tag discovery API was not read)"
}

// nonRegionalSuffixes are the dotted parts of service tags that name a part
// of a service, not a region (AzureFrontDoor.FirstParty, …).
var nonRegionalSuffixes = map[string]bool{"frontend": true, "backend": true, "firstparty": true}

// splitRegion splits a lower-case service tag into its service and whether
// it is the regional form (Service.Region).
func splitRegion(tag string) (service string, regional bool) {
	i := strings.LastIndexByte(tag, '.')
	if i < 0 || nonRegionalSuffixes[tag[i+1:]] || !isRegionLabel(tag[i+1:]) {
		return tag, false
	}
	return tag[:i], true
}

// privateInServiceTag matches a network rule's destination service tag
// against a known private destination (a private endpoint, a VM, an
// on-premises address). The service tags Azure Firewall accepts stand for
// the public prefixes of Azure services, so a private address (RFC 1918,
// RFC 6598) lies in none of them; a tag that stands for address space of
// the customer's own (VirtualNetwork) or an address that is not private
// cannot be decided.
func privateInServiceTag(rule string, dest netip.Addr) (match, string) {
	service, _ := splitRegion(strings.ToLower(strings.TrimSpace(rule)))
	if service != "virtualnetwork" && isNonPublic(dest) {
		return no, ""
	}
	return unknown, "service tag " + rule + " may or may not hold " + dest.String() + " (the service tag discovery API was not read)"
}

// isNonPublic reports whether a lies in a range that holds no public
// Internet address.
func isNonPublic(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range nonPublic {
		if p.Addr().Is4() == a.Is4() && p.Contains(a) {
			return true
		}
	}
	return false
}
