// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"strings"
	"unicode"
)

// hostSet is the name a flow goes to: one hostname, or, for a name
// Resource Manager does not reveal (the storage account behind
// *.blob.core.windows.net), every name under a domain.
type hostSet struct {
	// name is the hostname, lower case, without a trailing dot; for a
	// wildcard, the domain below the "*.".
	name string
	// wildcard: any name that ends in "."+name (at least one more label).
	wildcard bool
}

func parseHost(h string) hostSet {
	h = normalizeName(h)
	if rest, ok := strings.CutPrefix(h, "*."); ok {
		return hostSet{name: rest, wildcard: true}
	}
	return hostSet{name: h}
}

func (h hostSet) String() string {
	if h.wildcard {
		return "*." + h.name
	}
	return h.name
}

// normalizeName is a name as the matcher compares it: lower case, without
// surrounding space or trailing dots (the root label). It is idempotent, so
// a name normalised twice compares as once.
func normalizeName(s string) string {
	s = strings.TrimLeftFunc(strings.ToLower(s), unicode.IsSpace)
	return strings.TrimRightFunc(s, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
}

// matchTargetFQDN matches an application rule's target FQDN against the
// flow's host as Azure Firewall does (Azure Firewall FAQ, "How do wildcards
// work in target URLs and target FQDNs in application rules?"): an
// asterisk works only as the left-most character and means anything to its
// left, so "*.contoso.com" matches any.contoso.com and a.b.contoso.com but
// not contoso.com, and "*contoso.com" matches contoso.com and
// anycontoso.com too; "*" matches every name. Names compare
// case-insensitively. A pattern Azure does not accept (an asterisk
// anywhere else) is undecided, not a miss.
//
// For a wildcard host set the answer is yes when the pattern covers every
// name of the set, no when it covers none, and unknown when it covers some.
func matchTargetFQDN(pattern string, h hostSet) match {
	p := normalizeName(pattern)
	stars := strings.Count(p, "*")
	switch {
	case p == "":
		return unknown
	case h.wildcard && h.name == "":
		// "*." stands for every name: only "*" is known to match them all.
		if p == "*" {
			return yes
		}
		return unknown
	case stars == 0:
		if !h.wildcard {
			return boolMatch(p == h.name)
		}
		// One name, which may be a member of the set.
		if strings.HasSuffix(p, "."+h.name) {
			return unknown
		}
		return no
	case stars > 1 || p[0] != '*':
		return unknown
	case p == "*":
		return yes
	case strings.HasPrefix(p, "*."):
		// Names ending in "."+s.
		s := p[2:]
		if !h.wildcard {
			return boolMatch(strings.HasSuffix(h.name, "."+s))
		}
		if h.name == s || strings.HasSuffix(h.name, "."+s) {
			return yes
		}
		if strings.HasSuffix(s, "."+h.name) {
			return unknown
		}
		return no
	default:
		// "*s": names ending in the string s.
		s := p[1:]
		if !h.wildcard {
			return boolMatch(strings.HasSuffix(h.name, s))
		}
		if strings.HasSuffix("."+h.name, s) {
			return yes
		}
		if strings.HasSuffix(s, "."+h.name) {
			return unknown
		}
		return no
	}
}

// matchNetworkFQDN matches a network rule's destination FQDN. Azure
// Firewall resolves it and matches the addresses; it supports no
// wildcards there ("FQDN filtering in network rules doesn't support
// wildcards"), so only the exact name matches.
func matchNetworkFQDN(fqdn string, h hostSet) match {
	p := normalizeName(fqdn)
	if p == "" || strings.Contains(p, "*") {
		return unknown
	}
	return matchTargetFQDN(p, h)
}

// matchTargetURL matches an application rule's target URL (Premium, with
// TLS inspection): its host part decides whether it can match at all, and
// its path, which ARM cannot tell about a pull, leaves a matching host
// undecided.
func matchTargetURL(url string, h hostSet) match {
	u := strings.TrimSpace(url)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	host, _, _ := strings.Cut(u, "/")
	if host == "" {
		return unknown
	}
	if matchTargetFQDN(host, h) == no {
		return no
	}
	return unknown
}
