// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// AzureFirewall is an Azure Firewall (Microsoft.Network/azureFirewalls) as
// far as the pull path goes: the addresses user-defined routes send traffic
// to, and the public addresses its own egress leaves through. Its rules
// (PolicyID, or classic rule collections) decide what it lets out.
type AzureFirewall struct {
	ID   ResourceID
	Name string
	// PrivateIPs are the private addresses of its ip configurations
	// (ipConfigurations[].privateIPAddress), and for a firewall in a virtual
	// hub hubIPAddresses.privateIPAddress: the next hop routes name.
	PrivateIPs []netip.Addr
	// SubnetIDs are the subnets of its ip configurations (its
	// AzureFirewallSubnet).
	SubnetIDs []ResourceID
	// PublicIPAddressIDs are the public IP address resources of its ip
	// configurations, the addresses its own egress leaves through (the
	// management ip configuration's address carries no customer traffic
	// and is not among them).
	PublicIPAddressIDs []ResourceID
	// PublicIPs are the addresses hubIPAddresses.publicIPs lists (a
	// firewall in a virtual hub has no public IP resources).
	PublicIPs []netip.Addr
	// PolicyID is properties.firewallPolicy; zero for a firewall with
	// classic rules.
	PolicyID ResourceID
}

// Firewall returns the Azure Firewall with that id, or nil.
func (n *Network) Firewall(id ResourceID) *AzureFirewall { return n.Firewalls[id.Key()] }

// FirewallByPrivateIP returns the Azure Firewall that has ip among its
// private addresses (the next hop of a route), or nil.
func (n *Network) FirewallByPrivateIP(ip netip.Addr) *AzureFirewall {
	ip = ip.Unmap()
	var found *AzureFirewall
	for _, fw := range n.Firewalls {
		for _, a := range fw.PrivateIPs {
			if a.Unmap() == ip && (found == nil || fw.ID.Key() < found.ID.Key()) {
				found = fw
			}
		}
	}
	return found
}

// AddFirewall stores a firewall.
func (n *Network) AddFirewall(fw *AzureFirewall) {
	if n.Firewalls == nil {
		n.Firewalls = map[string]*AzureFirewall{}
	}
	n.Firewalls[fw.ID.Key()] = fw
}
