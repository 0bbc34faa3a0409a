// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

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
	// firewall's policy, or, for classic rules, the firewall itself.
	From ResourceID
}

// FirewallDNSOf returns the DNS settings of fw: its policy's dnsSettings
// when it has a policy (known only once the policy is read into n), else
// its classic additional properties Network.DNS.EnableProxy and
// Network.DNS.Servers.
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
	return FirewallDNS{Known: true, Proxy: p.DNSProxyEnabled, Servers: p.DNSServers, From: p.ID}
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
