// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The additional properties of a firewall with classic rules that set its
// SNAT private ranges ("IANAPrivateRanges", a comma-separated list, or
// both) and whether it learns more.
const (
	classicSNATRangesProperty    = "Network.SNAT.PrivateRanges"
	classicSNATAutoLearnProperty = "Network.SNAT.AutoLearnPrivateRanges"
)

// firewallSNATFromSDK adds to a converted firewall what decides its source
// translation that is on the firewall itself: the classic SNAT additional
// properties and the management ip configuration of forced tunnelling.
func firewallSNATFromSDK(out *model.AzureFirewall, p *armnetwork.AzureFirewallPropertiesFormat) {
	if p == nil {
		return
	}
	if v := p.AdditionalProperties[classicSNATRangesProperty]; v != nil {
		out.SNAT.PrivateRanges = splitRanges(*v)
	}
	if v := p.AdditionalProperties[classicSNATAutoLearnProperty]; v != nil {
		out.SNAT.AutoLearn = strings.EqualFold(strings.TrimSpace(*v), "Enabled")
	}
	if c := p.ManagementIPConfiguration; c != nil && c.Properties != nil && c.Properties.Subnet != nil {
		out.ManagementSubnetID = rid(c.Properties.Subnet.ID)
	}
}

// policySNATFromSDK converts a firewall policy's snat settings.
func policySNATFromSDK(out *model.FirewallPolicy, p *armnetwork.FirewallPolicyPropertiesFormat) {
	if p == nil || p.Snat == nil {
		return
	}
	out.SNAT.PrivateRanges = strs(p.Snat.PrivateRanges)
	if m := p.Snat.AutoLearnPrivateRanges; m != nil {
		out.SNAT.AutoLearn = strings.EqualFold(string(*m), string(armnetwork.AutoLearnPrivateRangesModeEnabled))
	}
}

// splitRanges splits a classic property's list ("10.0.0.0/8,
// IANAPrivateRanges") into its entries.
func splitRanges(v string) []string {
	var out []string
	for _, e := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}
