// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// DNS security policies (Microsoft.Network/dnsResolverPolicies): filters
// on the queries Azure DNS answers in the VNets linked to them
// (docs/design/azure-behaviour.md, "DNS security policies"). The rule that
// evaluates them is verify's (verify/dnspolicy.go); these are the facts.

// VNetDNSPolicies is what a VNet's listDnsResolverPolicies action answered:
// the DNS security policies linked to it (Azure allows one), each read
// with its rules.
type VNetDNSPolicies struct {
	VNetID   ResourceID
	Policies []*DNSSecurityPolicy
}

// DNSSecurityPolicy is a DNS security policy (DNS resolver policy) with
// its DNS traffic rules (dnsSecurityRules).
type DNSSecurityPolicy struct {
	ID   ResourceID
	Name string
	// Rules are the policy's DNS traffic rules; RulesKnown is false when
	// they could not be read (the gap is under RulesID).
	Rules      []DNSSecurityRule
	RulesKnown bool
}

// RulesID is the collection the policy's rules are read from.
func (p *DNSSecurityPolicy) RulesID() ResourceID {
	return ResourceID(string(p.ID) + "/dnsSecurityRules")
}

// DNSSecurityRule is one DNS traffic rule of a policy.
type DNSSecurityRule struct {
	ID   ResourceID
	Name string
	// Priority: lower numbers are evaluated first (100-65000).
	Priority int
	// Action is the action type as Azure stores it: Allow, Alert, Block
	// (an open set: another value is not understood).
	Action string
	// State is Enabled or Disabled as Azure stores it ("" when absent).
	State string
	// DomainLists are the DNS domain lists the rule applies to.
	DomainLists []ResourceID
}

// DNSDomainList is a DNS resolver domain list.
type DNSDomainList struct {
	ID   ResourceID
	Name string
	// Domains are the list's domains as Azure stores them (with a
	// trailing dot, "." for every name).
	Domains []string
	// Large is true when the resource gives only a URL to download the
	// domains from (a large domain list, domainsUrl): the domains were
	// not read.
	Large bool
}

// DNSPoliciesAction is the read action listing the DNS security policies
// linked to a VNet: the id its gap is recorded under.
func DNSPoliciesAction(vnetID ResourceID) ResourceID {
	return ResourceID(string(vnetID) + "/" + ActionListDNSPolicies.Name())
}

// DNSPoliciesOf returns the DNS security policies linked to a VNet and
// whether they were read; with a nil Policies map nothing was asked and
// no policy applies.
func (d *DNS) DNSPoliciesOf(vnetID ResourceID) (*VNetDNSPolicies, bool) {
	if d == nil || d.Policies == nil {
		return &VNetDNSPolicies{VNetID: vnetID}, true
	}
	p, ok := d.Policies[vnetID.Key()]
	return p, ok
}
