// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// FirewallSNAT is how an Azure Firewall translates the source address of
// the flows it allows (docs/design/azure-behaviour.md, "Azure Firewall
// SNAT"): application rules always translate to one of its private
// addresses; network rules translate only flows to destinations outside
// its SNAT private ranges. It comes from the firewall policy's
// snat.privateRanges and snat.autoLearnPrivateRanges, or, for a firewall
// with classic rules, from its additional properties
// Network.SNAT.PrivateRanges and Network.SNAT.AutoLearnPrivateRanges.
type FirewallSNAT struct {
	// PrivateRanges are the ranges as Azure gives them: CIDRs or
	// addresses, and the keyword IANAPrivateRanges (the default ranges).
	// Empty means the default: IANA RFC 1918 and RFC 6598
	// (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10).
	// 0.0.0.0/0 means the firewall never translates network-rule flows;
	// 255.255.255.255/32 means it always does.
	PrivateRanges []string
	// AutoLearn is autoLearnPrivateRanges Enabled: the firewall adds
	// ranges it learns (Route Server, on-premises) that Resource Manager
	// does not list.
	AutoLearn bool
}

// SNATPrivateRangesKeyword stands for the default private ranges in a
// list of SNAT private ranges.
const SNATPrivateRangesKeyword = "IANAPrivateRanges"

// ForcedTunnelling reports whether the firewall has a management ip
// configuration (managementIpConfiguration, in its
// AzureFirewallManagementSubnet): the forced tunnelling mode, in which
// it may send Internet-bound traffic to on-premises and translates it to
// its own private address.
func (fw *AzureFirewall) ForcedTunnelling() bool {
	return fw != nil && !fw.ManagementSubnetID.IsZero()
}

// FirewallSNATOf returns the SNAT settings that apply to fw: its
// policy's (known only once the policy is read) or, for classic rules,
// its own. known is false when the policy could not be read (or is not
// read yet).
func (n *Network) FirewallSNATOf(fw *AzureFirewall) (snat FirewallSNAT, known bool) {
	if fw == nil {
		return FirewallSNAT{}, false
	}
	if fw.PolicyID.IsZero() {
		return fw.SNAT, true
	}
	p := n.FirewallPolicy(fw.PolicyID)
	if p == nil {
		return FirewallSNAT{}, false
	}
	return p.SNAT, true
}
