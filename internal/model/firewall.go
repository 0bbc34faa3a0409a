// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// AzureFirewall is an Azure Firewall (Microsoft.Network/azureFirewalls) as
// far as the pull path goes: the addresses user-defined routes send traffic
// to, and the rules that decide what it lets out. Its rules are either its
// firewall policy's (PolicyID, with the parent chain in
// Network.FirewallPolicies) or, without a policy, its classic rule
// collections.
type AzureFirewall struct {
	ID   ResourceID
	Name string
	// SKUTier is sku.tier: Basic, Standard or Premium.
	SKUTier string
	// PrivateIPs are the private addresses of its ip configurations
	// (ipConfigurations[].privateIPAddress): the next hop routes name.
	PrivateIPs []netip.Addr
	// SubnetIDs are the subnets of its ip configurations (its
	// AzureFirewallSubnet).
	SubnetIDs []ResourceID
	// PublicIPAddressIDs are the public IP address resources of its ip
	// configurations, the addresses its own egress leaves through (the
	// management ip configuration's address is not among them: it carries
	// no customer traffic).
	PublicIPAddressIDs []ResourceID
	// PublicIPs are the addresses hubIPAddresses.publicIPs lists (a
	// firewall in a virtual hub has no public IP resources).
	PublicIPs []netip.Addr
	// VirtualHubID is set for a firewall in a Virtual WAN hub.
	VirtualHubID ResourceID
	// PolicyID is properties.firewallPolicy; zero for a firewall with
	// classic rules.
	PolicyID ResourceID
	// SNAT and ManagementSubnetID: see firewall_snat.go.
	SNAT               FirewallSNAT
	ManagementSubnetID ResourceID
	// NetworkRuleCollections and ApplicationRuleCollections are the
	// classic rule collections (used when PolicyID is zero).
	NetworkRuleCollections     []FirewallRuleCollection
	ApplicationRuleCollections []FirewallRuleCollection
	// DNSProxyEnabled: the firewall answers DNS for the clients and
	// resolves the FQDNs of network rules the same way. From the policy's
	// dnsSettings.enableProxy, or, for classic rules, the additional
	// property Network.DNS.EnableProxy.
	DNSProxyEnabled bool

	// DNS proxy and TLS inspection (firewall_dns.go, firewall_tls.go).

	// ClassicDNSServers are the classic additional property
	// Network.DNS.Servers: where the DNS proxy of a firewall without a
	// policy forwards (none: Azure DNS). A firewall with a policy takes
	// the policy's (FirewallDNSOf).
	ClassicDNSServers []netip.Addr
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// FirewallPolicy is a firewall policy (Microsoft.Network/firewallPolicies)
// with its rule collection groups.
type FirewallPolicy struct {
	ID   ResourceID
	Name string
	// BasePolicyID is the parent policy whose rules come first.
	BasePolicyID ResourceID
	// SNAT is the policy's snat settings (firewall_snat.go).
	SNAT FirewallSNAT
	// DNSProxyEnabled is dnsSettings.enableProxy.
	DNSProxyEnabled bool
	// RuleCollectionGroups as listed (…/ruleCollectionGroups); evaluation
	// orders them by priority.
	RuleCollectionGroups []FirewallRuleCollectionGroup
	// RuleCollectionGroupsKnown is false when the groups could not be
	// listed (a gap on FirewallRuleCollectionGroupsID(ID)).
	RuleCollectionGroupsKnown bool

	// DNS proxy and TLS inspection (firewall_dns.go, firewall_tls.go).

	// DNSServers are dnsSettings.servers: where the DNS proxy forwards
	// (none: Azure DNS, from the firewall's VNet).
	DNSServers []netip.Addr
	// TLSInspectionCA is transportSecurity.certificateAuthority: the
	// intermediate CA that re-signs what rules with TerminateTLS inspect;
	// zero when the policy has none.
	TLSInspectionCA FirewallCA
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// FirewallRuleCollectionGroupsID is the collection of a policy's rule
// collection groups, the resource a failed list is recorded on.
func FirewallRuleCollectionGroupsID(policy ResourceID) ResourceID {
	return policy + "/ruleCollectionGroups"
}

// FirewallRuleCollectionGroup is one rule collection group of a policy.
type FirewallRuleCollectionGroup struct {
	ID       ResourceID
	Name     string
	Priority int32
	// Collections are its filter rule collections (DNAT collections,
	// which only translate inbound traffic, are not kept).
	Collections []FirewallRuleCollection
	// Unmodelled are settings of its rules and collections the provider
	// does not evaluate that can change a pull (open-world table).
	Unmodelled []UnmodelledSetting
}

// FirewallRuleKind is the kind of a rule or a rule collection.
type FirewallRuleKind string

// Rule kinds. A policy's filter collection holds rules of one kind; a
// classic firewall keeps network and application collections apart.
const (
	FirewallNetworkRule     FirewallRuleKind = "NetworkRule"
	FirewallApplicationRule FirewallRuleKind = "ApplicationRule"
)

// FirewallRuleCollection is a rule collection: rules of one kind that share
// an action and a priority.
type FirewallRuleCollection struct {
	Name     string
	Priority int32
	// Action is Allow or Deny.
	Action string
	Rules  []FirewallRule
}

// FirewallRule is one network or application rule. Addresses, ports and
// tags are kept as Azure gives them ("*", an address, a CIDR, a range
// a-b, a service tag): the evaluation says which of them it cannot decide
// instead of guessing.
type FirewallRule struct {
	Name string
	Kind FirewallRuleKind

	// SourceAddresses and SourceIPGroupIDs: where the traffic comes from.
	SourceAddresses  []string
	SourceIPGroupIDs []ResourceID

	// Application rules.
	Protocols     []FirewallAppProtocol
	TargetFQDNs   []string
	FQDNTags      []string
	TargetURLs    []string
	WebCategories []string
	// TerminateTLS is an application rule's terminateTLS (Premium TLS
	// inspection): the firewall re-signs the server certificate of what
	// the rule allows with the policy's TLSInspectionCA.
	TerminateTLS bool

	// Network rules. DestinationAddresses may hold service tags.
	IPProtocols           []string
	DestinationAddresses  []string
	DestinationIPGroupIDs []ResourceID
	DestinationFQDNs      []string
	DestinationPorts      []string
}

// FirewallAppProtocol is an application rule's protocol and port, e.g.
// Https:443.
type FirewallAppProtocol struct {
	Type string
	Port int32
}

// IPGroup is an IP group (Microsoft.Network/ipGroups) that rules reference.
type IPGroup struct {
	ID   ResourceID
	Name string
	// Addresses are ipAddresses: addresses, CIDRs and ranges.
	Addresses []string
}

// Firewall returns the Azure Firewall with that id, or nil.
func (n *Network) Firewall(id ResourceID) *AzureFirewall { return n.Firewalls[id.Key()] }

// FirewallPolicy returns the firewall policy with that id, or nil.
func (n *Network) FirewallPolicy(id ResourceID) *FirewallPolicy {
	return n.FirewallPolicies[id.Key()]
}

// IPGroup returns the IP group with that id, or nil.
func (n *Network) IPGroup(id ResourceID) *IPGroup { return n.IPGroups[id.Key()] }

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

// AddFirewallPolicy stores a firewall policy.
func (n *Network) AddFirewallPolicy(p *FirewallPolicy) {
	if n.FirewallPolicies == nil {
		n.FirewallPolicies = map[string]*FirewallPolicy{}
	}
	n.FirewallPolicies[p.ID.Key()] = p
}

// AddIPGroup stores an IP group.
func (n *Network) AddIPGroup(g *IPGroup) {
	if n.IPGroups == nil {
		n.IPGroups = map[string]*IPGroup{}
	}
	n.IPGroups[g.ID.Key()] = g
}
