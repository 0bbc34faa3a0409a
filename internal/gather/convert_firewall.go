// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// classicDNSProxyProperty is the additional property that turns on the DNS
// proxy of a firewall with classic rules (a policy has dnsSettings).
const classicDNSProxyProperty = "Network.DNS.EnableProxy"

// firewallFromSDK converts an Azure Firewall: its addresses, its policy or
// its classic network and application rule collections (DNAT collections
// only translate inbound traffic and are not kept). A collection without a
// priority or an action, or a rule without a name, is a malformed answer.
func firewallFromSDK(fw *armnetwork.AzureFirewall) (*model.AzureFirewall, error) {
	if fw == nil || fw.ID == nil {
		return nil, fmt.Errorf("the Azure Firewall answer has no id")
	}
	out := &model.AzureFirewall{ID: rid(fw.ID), Name: str(fw.Name)}
	out.Unmodelled = unmodelledOf(out.ID, fw)
	p := fw.Properties
	if p == nil {
		return out, nil
	}
	if p.SKU != nil {
		out.SKUTier = str(p.SKU.Tier)
	}
	for i, c := range p.IPConfigurations {
		if c == nil || c.Properties == nil {
			continue
		}
		field := fmt.Sprintf("properties.ipConfigurations[%d].properties", i)
		a, err := addr(out.ID, field+".privateIPAddress", c.Properties.PrivateIPAddress)
		if err != nil {
			return nil, err
		}
		if a.IsValid() {
			out.PrivateIPs = appendUniqueAddr(out.PrivateIPs, a)
		}
		if c.Properties.Subnet != nil {
			out.SubnetIDs = appendUniqueID(out.SubnetIDs, rid(c.Properties.Subnet.ID))
		}
		if c.Properties.PublicIPAddress != nil {
			out.PublicIPAddressIDs = appendUniqueID(out.PublicIPAddressIDs, rid(c.Properties.PublicIPAddress.ID))
		}
	}
	if h := p.HubIPAddresses; h != nil {
		a, err := addr(out.ID, "properties.hubIPAddresses.privateIPAddress", h.PrivateIPAddress)
		if err != nil {
			return nil, err
		}
		if a.IsValid() {
			out.PrivateIPs = appendUniqueAddr(out.PrivateIPs, a)
		}
		if h.PublicIPs != nil {
			for i, pip := range h.PublicIPs.Addresses {
				if pip == nil {
					continue
				}
				a, err := addr(out.ID, fmt.Sprintf("properties.hubIPAddresses.publicIPs.addresses[%d].address", i), pip.Address)
				if err != nil {
					return nil, err
				}
				if a.IsValid() {
					out.PublicIPs = appendUniqueAddr(out.PublicIPs, a)
				}
			}
		}
	}
	if p.VirtualHub != nil {
		out.VirtualHubID = rid(p.VirtualHub.ID)
	}
	if p.FirewallPolicy != nil {
		out.PolicyID = rid(p.FirewallPolicy.ID)
	}
	firewallSNATFromSDK(out, p)
	if v := p.AdditionalProperties[classicDNSProxyProperty]; v != nil {
		out.DNSProxyEnabled = strings.EqualFold(strings.TrimSpace(*v), "true")
	}
	servers, err := classicDNSServers(out.ID, p.AdditionalProperties)
	if err != nil {
		return nil, err
	}
	out.ClassicDNSServers = servers
	for i, c := range p.NetworkRuleCollections {
		col, err := classicNetworkCollection(out.ID, i, c)
		if err != nil {
			return nil, err
		}
		out.NetworkRuleCollections = append(out.NetworkRuleCollections, col)
	}
	for i, c := range p.ApplicationRuleCollections {
		col, err := classicApplicationCollection(out.ID, i, c)
		if err != nil {
			return nil, err
		}
		out.ApplicationRuleCollections = append(out.ApplicationRuleCollections, col)
	}
	return out, nil
}

func classicNetworkCollection(id model.ResourceID, i int, c *armnetwork.AzureFirewallNetworkRuleCollection) (model.FirewallRuleCollection, error) {
	field := fmt.Sprintf("properties.networkRuleCollections[%d]", i)
	if c == nil || c.Properties == nil {
		return model.FirewallRuleCollection{}, fmt.Errorf("%s: %s has no properties", string(id), field)
	}
	var action string
	if c.Properties.Action != nil {
		action = str(c.Properties.Action.Type)
	}
	col, err := collectionHead(id, field, str(c.Name), c.Properties.Priority, action)
	if err != nil {
		return col, err
	}
	for j, r := range c.Properties.Rules {
		if r == nil || r.Name == nil {
			return col, fmt.Errorf("%s: %s.properties.rules[%d] has no name", string(id), field, j)
		}
		rule := model.FirewallRule{Name: *r.Name, Kind: model.FirewallNetworkRule,
			SourceAddresses: strs(r.SourceAddresses), SourceIPGroupIDs: ridList(r.SourceIPGroups),
			DestinationAddresses: strs(r.DestinationAddresses), DestinationIPGroupIDs: ridList(r.DestinationIPGroups),
			DestinationFQDNs: strs(r.DestinationFqdns), DestinationPorts: strs(r.DestinationPorts)}
		for _, p := range r.Protocols {
			if p != nil {
				rule.IPProtocols = append(rule.IPProtocols, string(*p))
			}
		}
		col.Rules = append(col.Rules, rule)
	}
	return col, nil
}

func classicApplicationCollection(id model.ResourceID, i int, c *armnetwork.AzureFirewallApplicationRuleCollection) (model.FirewallRuleCollection, error) {
	field := fmt.Sprintf("properties.applicationRuleCollections[%d]", i)
	if c == nil || c.Properties == nil {
		return model.FirewallRuleCollection{}, fmt.Errorf("%s: %s has no properties", string(id), field)
	}
	var action string
	if c.Properties.Action != nil {
		action = str(c.Properties.Action.Type)
	}
	col, err := collectionHead(id, field, str(c.Name), c.Properties.Priority, action)
	if err != nil {
		return col, err
	}
	for j, r := range c.Properties.Rules {
		if r == nil || r.Name == nil {
			return col, fmt.Errorf("%s: %s.properties.rules[%d] has no name", string(id), field, j)
		}
		rule := model.FirewallRule{Name: *r.Name, Kind: model.FirewallApplicationRule,
			SourceAddresses: strs(r.SourceAddresses), SourceIPGroupIDs: ridList(r.SourceIPGroups),
			TargetFQDNs: strs(r.TargetFqdns), FQDNTags: strs(r.FqdnTags)}
		for _, p := range r.Protocols {
			if p != nil {
				rule.Protocols = append(rule.Protocols, model.FirewallAppProtocol{Type: str(p.ProtocolType), Port: i32(p.Port)})
			}
		}
		col.Rules = append(col.Rules, rule)
	}
	return col, nil
}

// collectionHead checks and keeps what every rule collection must have: a
// name, a priority and an action.
func collectionHead(id model.ResourceID, field, name string, priority *int32, action string) (model.FirewallRuleCollection, error) {
	col := model.FirewallRuleCollection{Name: name, Action: action}
	switch {
	case name == "":
		return col, fmt.Errorf("%s: %s has no name", string(id), field)
	case priority == nil:
		return col, fmt.Errorf("%s: rule collection %s (%s) has no priority", string(id), name, field)
	case action == "":
		return col, fmt.Errorf("%s: rule collection %s (%s) has no action", string(id), name, field)
	}
	col.Priority = *priority
	return col, nil
}

// firewallPolicyFromSDK converts a firewall policy without its rule
// collection groups (listed separately).
func firewallPolicyFromSDK(p *armnetwork.FirewallPolicy) (*model.FirewallPolicy, error) {
	if p == nil || p.ID == nil {
		return nil, fmt.Errorf("firewall policy without id")
	}
	out := &model.FirewallPolicy{ID: rid(p.ID), Name: str(p.Name)}
	out.Unmodelled = unmodelledOf(out.ID, p)
	if p.Properties == nil {
		return out, nil
	}
	if p.Properties.BasePolicy != nil {
		out.BasePolicyID = rid(p.Properties.BasePolicy.ID)
	}
	policySNATFromSDK(out, p.Properties)
	if p.Properties.DNSSettings != nil {
		out.DNSProxyEnabled = boolv(p.Properties.DNSSettings.EnableProxy)
	}
	if err := policyDNSAndTLS(out, p.Properties); err != nil {
		return nil, err
	}
	return out, nil
}

// ruleCollectionGroupFromSDK converts a rule collection group with its
// filter collections. A rule of a type this provider does not know, in a
// filter collection, is a malformed answer: it could allow or deny.
func ruleCollectionGroupFromSDK(g *armnetwork.FirewallPolicyRuleCollectionGroup) (model.FirewallRuleCollectionGroup, error) {
	if g == nil || g.ID == nil {
		return model.FirewallRuleCollectionGroup{}, fmt.Errorf("rule collection group without id")
	}
	id := rid(g.ID)
	out := model.FirewallRuleCollectionGroup{ID: id, Name: str(g.Name)}
	out.Unmodelled = unmodelledOf(id, g)
	if g.Properties == nil || g.Properties.Priority == nil {
		return out, fmt.Errorf("%s: rule collection group %s has no priority", string(id), out.Name)
	}
	out.Priority = *g.Properties.Priority
	for i, c := range g.Properties.RuleCollections {
		field := fmt.Sprintf("properties.ruleCollections[%d]", i)
		out.Unmodelled = append(out.Unmodelled, unmodelledAt(id, field, c)...)
		switch c := c.(type) {
		case *armnetwork.FirewallPolicyNatRuleCollection:
			// DNAT: inbound translation, no outbound decision.
		case *armnetwork.FirewallPolicyFilterRuleCollection:
			var action string
			if c.Action != nil {
				action = str(c.Action.Type)
			}
			col, err := collectionHead(id, field, str(c.Name), c.Priority, action)
			if err != nil {
				return out, err
			}
			for j, r := range c.Rules {
				out.Unmodelled = append(out.Unmodelled, unmodelledAt(id, fmt.Sprintf("%s.rules[%d]", field, j), r)...)
				rule, err := policyRuleFromSDK(id, fmt.Sprintf("%s.rules[%d]", field, j), r)
				if err != nil {
					return out, err
				}
				col.Rules = append(col.Rules, rule)
			}
			out.Collections = append(out.Collections, col)
		default:
			return out, fmt.Errorf("%s: %s is a rule collection of a type this provider does not know", string(id), field)
		}
	}
	return out, nil
}

func policyRuleFromSDK(id model.ResourceID, field string, r armnetwork.FirewallPolicyRuleClassification) (model.FirewallRule, error) {
	switch r := r.(type) {
	case *armnetwork.ApplicationRule:
		if r.Name == nil {
			return model.FirewallRule{}, fmt.Errorf("%s: %s has no name", string(id), field)
		}
		out := model.FirewallRule{Name: *r.Name, Kind: model.FirewallApplicationRule,
			SourceAddresses: strs(r.SourceAddresses), SourceIPGroupIDs: ridList(r.SourceIPGroups),
			TargetFQDNs: strs(r.TargetFqdns), FQDNTags: strs(r.FqdnTags), TargetURLs: strs(r.TargetUrls),
			WebCategories: strs(r.WebCategories), TerminateTLS: boolv(r.TerminateTLS)}
		for _, p := range r.Protocols {
			if p != nil {
				out.Protocols = append(out.Protocols, model.FirewallAppProtocol{Type: str(p.ProtocolType), Port: i32(p.Port)})
			}
		}
		return out, nil
	case *armnetwork.Rule:
		if r.Name == nil {
			return model.FirewallRule{}, fmt.Errorf("%s: %s has no name", string(id), field)
		}
		out := model.FirewallRule{Name: *r.Name, Kind: model.FirewallNetworkRule,
			SourceAddresses: strs(r.SourceAddresses), SourceIPGroupIDs: ridList(r.SourceIPGroups),
			DestinationAddresses: strs(r.DestinationAddresses), DestinationIPGroupIDs: ridList(r.DestinationIPGroups),
			DestinationFQDNs: strs(r.DestinationFqdns), DestinationPorts: strs(r.DestinationPorts)}
		for _, p := range r.IPProtocols {
			if p != nil {
				out.IPProtocols = append(out.IPProtocols, string(*p))
			}
		}
		return out, nil
	case nil:
		return model.FirewallRule{}, fmt.Errorf("%s: %s is empty", string(id), field)
	default:
		return model.FirewallRule{}, fmt.Errorf("%s: %s is a rule of a type a filter rule collection cannot hold", string(id), field)
	}
}

// ipGroupFromSDK converts an IP group.
func ipGroupFromSDK(g *armnetwork.IPGroup) (*model.IPGroup, error) {
	if g == nil || g.ID == nil {
		return nil, fmt.Errorf("the IP group answer has no id")
	}
	out := &model.IPGroup{ID: rid(g.ID), Name: str(g.Name)}
	if g.Properties != nil {
		out.Addresses = strs(g.Properties.IPAddresses)
	}
	return out, nil
}

// strs keeps the non-empty strings of a list.
func strs(in []*string) []string {
	var out []string
	for _, s := range in {
		if s != nil && strings.TrimSpace(*s) != "" {
			out = append(out, strings.TrimSpace(*s))
		}
	}
	return out
}

// ridList keeps the non-empty ids of a list.
func ridList(in []*string) []model.ResourceID {
	var out []model.ResourceID
	for _, s := range in {
		if id := rid(s); !id.IsZero() {
			out = append(out, id)
		}
	}
	return out
}
