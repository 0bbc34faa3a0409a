// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// SecurityAdminRule is one Azure Virtual Network Manager security admin
// rule in effect on a virtual network, as the VNet's
// listNetworkManagerEffectiveSecurityAdminRules action reports it.
type SecurityAdminRule struct {
	// ID is the rule's id:
	// …/networkManagers/{m}/securityAdminConfigurations/{c}/ruleCollections/{rc}/rules/{r}.
	ID ResourceID
	// Access is Allow, AlwaysAllow or Deny (an open set: another value is
	// undecided, never allowed).
	Access    string
	Direction string // Inbound or Outbound
	Priority  int32
	// Protocol is Tcp, Udp, Icmp, Esp, Ah or Any.
	Protocol string
	// Sources and Destinations are address prefixes or service tag names
	// (addressPrefixType IPPrefix or ServiceTag); ports as NSG rules
	// write them.
	Sources, Destinations         []string
	SourcePorts, DestinationPorts []string
	// Default marks a rule of a default rule set (kind Default).
	Default bool
}

// Manager, Configuration, Collection and Rule name the rule's network
// manager, security admin configuration, rule collection and the rule
// itself, from its id ("" when the id lacks the segment).
func (r SecurityAdminRule) Manager() string { return r.segment("networkManagers") }

// Configuration is the security admin configuration's name.
func (r SecurityAdminRule) Configuration() string {
	return r.segment("securityAdminConfigurations")
}

// Collection is the rule collection's name.
func (r SecurityAdminRule) Collection() string { return r.segment("ruleCollections") }

// Rule is the rule's name.
func (r SecurityAdminRule) Rule() string {
	if n := r.segment("rules"); n != "" {
		return n
	}
	return r.ID.Name()
}

func (r SecurityAdminRule) segment(kind string) string {
	p, _ := ids.ReadPath(string(r.ID))
	return p.NameOf(kind)
}

// ConfigurationKey identifies the rule's network manager and security admin
// configuration (case-insensitive).
func (r SecurityAdminRule) ConfigurationKey() string {
	return strings.ToLower(r.Manager() + "/" + r.Configuration())
}

// AdminRules are the security admin rules in effect on one VNet.
type AdminRules struct {
	VNetID ResourceID
	Rules  []SecurityAdminRule
}

// AdminRulesAction is the id of a VNet's effective security admin rules
// read (the gap of a failed read is recorded under it).
func AdminRulesAction(vnetID ResourceID) ResourceID {
	return ResourceID(string(vnetID) + "/listNetworkManagerEffectiveSecurityAdminRules")
}

// AdminRulesOf returns the security admin rules in effect on a VNet, and
// whether they were read; when they were not, the gap says why.
//
// A network whose AdminRules map is nil carries no read of admin rules at
// all (a network built by hand); gather always sets the map, so a VNet it
// has not read is a gap there.
func (n *Network) AdminRulesOf(vnetID ResourceID) (*AdminRules, *Gap) {
	if n.AdminRules == nil {
		return &AdminRules{VNetID: vnetID}, nil
	}
	if a, ok := n.AdminRules[vnetID.Key()]; ok && a != nil {
		return a, nil
	}
	action := AdminRulesAction(vnetID)
	if g, ok := n.Gaps.Lookup(action); ok {
		return nil, &g
	}
	return nil, &Gap{ResourceID: action, Kind: GapNotFound, Detail: "the security admin rules in effect on the virtual network were not read"}
}

// adminRuleExemptSubnets are the subnets whose resources Azure Virtual
// Network Manager security admin rules do not apply to, by the name Azure
// requires for them (Azure Firewall, VPN and ExpressRoute gateways, Azure
// Bastion, Azure Route Server).
var adminRuleExemptSubnets = []string{
	"AzureFirewallSubnet", "AzureFirewallManagementSubnet", "GatewaySubnet",
	"AzureBastionSubnet", "RouteServerSubnet",
}

// AdminRulesApply reports whether security admin rules apply to resources
// in the subnet: not in the subnets of the services Microsoft exempts
// (Azure Firewall, Azure Bastion, Azure Route Server, VPN and ExpressRoute
// gateways, Application Gateway). Private endpoints are never subject to
// them; the caller knows when the destination is one.
func (s *Subnet) AdminRulesApply() bool {
	for _, name := range adminRuleExemptSubnets {
		if strings.EqualFold(s.Name, name) {
			return false
		}
	}
	return len(s.IPConfigurationOwners("applicationGatewayIPConfigurations")) == 0
}
