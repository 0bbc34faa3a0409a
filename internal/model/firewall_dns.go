// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"strings"
)

// FirewallDNS is what an Azure Firewall does with DNS queries sent to its
// private addresses (docs/design/azure-behaviour.md, "Azure Firewall DNS
// proxy"). The zero value is a firewall whose settings are not known.
type FirewallDNS struct {
	// Known is false when the settings could not be read: the firewall
	// has a policy that is not among what was read (pending, or its read
	// failed: a gap on the policy).
	Known bool
	// Proxy: the firewall answers DNS on port 53 (off by default: nothing
	// answers there).
	Proxy bool
	// Servers are where the proxy forwards; none means Azure DNS, asked
	// from the firewall's VNet.
	Servers []netip.Addr
	// From is the resource the settings are read from and changed on: the
	// firewall's policy, or, for classic rules, the firewall itself. When
	// the settings are not known, the resource that was not read.
	From ResourceID
	// Inheritance, when not empty, says why the settings are not settled:
	// the firewall's policy has a parent policy whose DNS settings differ
	// from its own, and Microsoft documents what a child policy inherits
	// (rule collections, threat intelligence mode and allowlist) without
	// DNS settings among it, so which of the two the firewall uses is
	// unknown. Proxy and Servers are then the policy's own.
	Inheritance string
}

// FirewallDNSOf returns the DNS settings of fw: its policy's dnsSettings
// when it has a policy (known only once the policy is read into n), else
// its classic additional properties Network.DNS.EnableProxy and
// Network.DNS.Servers.
//
// A policy with a parent (basePolicy): Microsoft documents that a child
// policy inherits the parent's rule collections and threat intelligence
// settings, not that it inherits DNS settings. Where the parent's DNS
// settings are the same as the policy's, the firewall does the same either
// way; where they differ, Inheritance says so and the outcome is not
// concluded; a parent that was not read leaves the settings unknown (From
// is the parent).
func (n *Network) FirewallDNSOf(fw *AzureFirewall) FirewallDNS {
	if fw == nil {
		return FirewallDNS{}
	}
	if fw.PolicyID.IsZero() {
		return FirewallDNS{Known: true, Proxy: fw.DNSProxyEnabled, Servers: fw.ClassicDNSServers, From: fw.ID}
	}
	p := n.FirewallPolicy(fw.PolicyID)
	if p == nil {
		return FirewallDNS{From: fw.PolicyID}
	}
	out := FirewallDNS{Known: true, Proxy: p.DNSProxyEnabled, Servers: p.DNSServers, From: p.ID}
	if p.BasePolicyID.IsZero() || p.BasePolicyID.Equal(p.ID) {
		return out
	}
	parent := n.FirewallPolicy(p.BasePolicyID)
	if parent == nil {
		return FirewallDNS{From: p.BasePolicyID}
	}
	if parent.DNSProxyEnabled != p.DNSProxyEnabled || (p.DNSProxyEnabled && !sameAddrSet(parent.DNSServers, p.DNSServers)) {
		out.Inheritance = "firewall policy " + p.Name + " has the parent policy " + parent.Name + ", whose DNS settings (" +
			dnsWords(parent.DNSProxyEnabled, parent.DNSServers) + ") differ from its own (" + dnsWords(p.DNSProxyEnabled, p.DNSServers) +
			"), and Microsoft does not document whether a child policy inherits DNS settings (only rule collections and threat intelligence settings)"
	}
	return out
}

// dnsWords are DNS proxy settings in words.
func dnsWords(proxy bool, servers []netip.Addr) string {
	if !proxy {
		return "DNS proxy off"
	}
	if len(servers) == 0 {
		return "DNS proxy on, forwarding to Azure DNS"
	}
	s := make([]string, len(servers))
	for i, a := range servers {
		s[i] = a.String()
	}
	return "DNS proxy on, forwarding to " + strings.Join(s, ", ")
}

// sameAddrSet reports whether two address lists hold the same addresses.
func sameAddrSet(a, b []netip.Addr) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[netip.Addr]bool{}
	for _, x := range a {
		in[x.Unmap()] = true
	}
	for _, x := range b {
		if !in[x.Unmap()] {
			return false
		}
	}
	return true
}

// FirewallVNet is the VNet of fw's AzureFirewallSubnet, whose linked
// private DNS zones Azure DNS answers the firewall from; zero for a
// firewall in a Virtual WAN hub (or one whose ip configurations name no
// subnet).
func FirewallVNet(fw *AzureFirewall) ResourceID {
	if fw == nil || len(fw.SubnetIDs) == 0 {
		return ""
	}
	return fw.SubnetIDs[0].Parent()
}
