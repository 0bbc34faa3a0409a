// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Translation is what the firewall does to the source address of a flow
// it allows.
type Translation string

// Translations.
const (
	// Translated: the firewall replaces the node address with one of its
	// private addresses (or, to the internet, its public address), so
	// replies come back to it.
	Translated Translation = "translated"
	// NotTranslated: the destination sees the node address, and replies
	// follow the destination's route back to the nodes.
	NotTranslated Translation = "not_translated"
	// TranslationUnknown: what the firewall does cannot be determined.
	TranslationUnknown Translation = "unknown"
)

// SNAT is the translation of one allowed flow and why.
type SNAT struct {
	Translation Translation
	// Why says, in words, what decided it (the rule kind and the SNAT
	// private ranges).
	Why string
}

// defaultPrivateRanges are the SNAT private ranges of a firewall that
// names none: IANA RFC 1918 and RFC 6598 (Microsoft Learn, "Azure Firewall
// SNAT private IP address ranges").
var defaultPrivateRanges = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("100.64.0.0/10"),
}

// SourceNAT says what fw does to the source of a flow its rules allowed
// (d, from Evaluate for the same flow), with the SNAT settings that apply
// to it (model.Network.FirewallSNATOf; known false when they could not be
// read):
//
//   - allowed by an application rule: always translated to one of the
//     firewall's private addresses;
//   - allowed by a network rule: translated only when the destination is
//     outside the SNAT private ranges (the default ranges, the listed
//     ones, IANAPrivateRanges for the defaults; 0.0.0.0/0 never
//     translates, 255.255.255.255/32 always does). With auto-learned
//     ranges, a destination outside the listed ones may be inside a
//     learned one, which Resource Manager does not show: unknown.
//
// A flow that is not allowed, or whose deciding rule is not known, has an
// unknown translation.
func SourceNAT(settings model.FirewallSNAT, known bool, d Decision, flow Flow) SNAT {
	if d.Verdict != Allowed || d.Rule == nil {
		return SNAT{Translation: TranslationUnknown, Why: "the firewall's rules do not show which rule allows the flow"}
	}
	if d.Rule.Kind == model.FirewallApplicationRule {
		return SNAT{Translation: Translated, Why: d.Rule.String() + " allows it, and application rules always translate the source to a private address of the firewall"}
	}
	if !known {
		return SNAT{Translation: TranslationUnknown, Why: d.Rule.String() + " allows it, and whether network rules translate the source depends on the SNAT private ranges of the firewall's policy, which were not read"}
	}
	ranges, words, ok := privateRanges(settings)
	if !ok {
		return SNAT{Translation: TranslationUnknown, Why: fmt.Sprintf("%s allows it, and the SNAT private ranges (%s) could not be read as addresses", d.Rule, strings.Join(settings.PrivateRanges, ", "))}
	}
	v4, v6 := false, false
	for _, s := range flow.Sources {
		v4 = v4 || s.Addr().Unmap().Is4()
		v6 = v6 || !s.Addr().Unmap().Is4()
	}
	var inside match
	dest := "the public address of " + flow.Host
	if flow.private() {
		dest = flow.Dest.String()
		inside = no
		d := flow.Dest.Unmap()
		for _, p := range ranges {
			if p.Addr().Is4() == d.Is4() && p.Contains(d) {
				inside = yes
			}
		}
	} else {
		inside = publicAddressIn(ranges, v4, v6)
	}
	switch {
	case inside == yes:
		return SNAT{Translation: NotTranslated, Why: fmt.Sprintf("%s allows it, and network rules do not translate the source of flows to %s, which is inside the firewall's SNAT private ranges (%s)", d.Rule, dest, words)}
	case inside == no && settings.AutoLearn:
		return SNAT{Translation: TranslationUnknown, Why: fmt.Sprintf("%s allows it; %s is outside the listed SNAT private ranges (%s), but the firewall also learns private ranges (autoLearnPrivateRanges), which Resource Manager does not list", d.Rule, dest, words)}
	case inside == no:
		return SNAT{Translation: Translated, Why: fmt.Sprintf("%s allows it, and network rules translate the source of flows to %s, which is outside the firewall's SNAT private ranges (%s)", d.Rule, dest, words)}
	default:
		return SNAT{Translation: TranslationUnknown, Why: fmt.Sprintf("%s allows it, and whether %s is inside the firewall's SNAT private ranges (%s) cannot be told from Resource Manager", d.Rule, dest, words)}
	}
}

// privateRanges are the SNAT private ranges of the settings, and in words.
func privateRanges(s model.FirewallSNAT) ([]netip.Prefix, string, bool) {
	if len(s.PrivateRanges) == 0 {
		return defaultPrivateRanges, "the default IANA ranges " + prefixList(defaultPrivateRanges), true
	}
	var out []netip.Prefix
	for _, e := range s.PrivateRanges {
		if strings.EqualFold(strings.TrimSpace(e), model.SNATPrivateRangesKeyword) {
			out = append(out, defaultPrivateRanges...)
			continue
		}
		ps, ok := parseAddress(e)
		if !ok || strings.TrimSpace(e) == "*" {
			return nil, "", false
		}
		out = append(out, ps...)
	}
	return out, strings.Join(s.PrivateRanges, ", "), true
}
