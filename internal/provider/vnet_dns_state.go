// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Kinds of DNS server, as reported in pullpath_vnet_dns.servers[*].kind:
// the classification of verify.ClassifyDNSServer in the data source's
// words. They answer the question docs/design/azure-behaviour.md (D1, D5)
// asks about a node's resolver: can Azure describe what it does with the
// registry's names?
const (
	// dnsKindAzure is Azure-provided DNS (168.63.129.16): it answers from
	// the private DNS zones linked to the asking VNet.
	dnsKindAzure = "azure_dns"
	// dnsKindResolverInbound is an inbound endpoint of a DNS private
	// resolver: Azure DNS of the resolver's VNet, plus its rulesets.
	dnsKindResolverInbound = "private_resolver_inbound"
	// dnsKindVM is a NIC's address in a known VNet: a DNS server on a VM,
	// whose forwarding ARM cannot show.
	dnsKindVM = "vm"
	// dnsKindExternal is outside every known VNet: on-premises or public.
	dnsKindExternal = "external"
	// dnsKindUnknown is inside a known VNet but no NIC or resolver was found
	// for it (or the lookup failed), or it is a private endpoint's address.
	dnsKindUnknown = "unknown"
	// dnsKindFirewall is an Azure Firewall's private address (a VNet's
	// firewall, or a secured Virtual WAN hub's): what answers there is
	// decided by its DNS proxy settings (verify.ClassifyFirewallDNS).
	dnsKindFirewall = "azure_firewall"
)

// dnsServerKinds lists the kinds, for tests.
var dnsServerKinds = []string{dnsKindAzure, dnsKindResolverInbound, dnsKindVM, dnsKindExternal, dnsKindUnknown, dnsKindFirewall}

// dnsSourceName is effective_dns_source for where the servers come from.
// The data source takes one network interface and no scale set, so a scale
// set's NIC configuration, should it apply, is NIC-level too.
func dnsSourceName(s model.DNSSource) string {
	switch s {
	case model.DNSFromNIC, model.DNSFromScaleSet:
		return "network_interface"
	case model.DNSFromVNet:
		return "virtual_network"
	default:
		return "azure_default"
	}
}

// dnsServerModel is one element of pullpath_vnet_dns.servers.
type dnsServerModel struct {
	Address            types.String `tfsdk:"address"`
	Kind               types.String `tfsdk:"kind"`
	ResourceID         types.String `tfsdk:"resource_id"`
	NetworkInterfaceID types.String `tfsdk:"network_interface_id"`
	VirtualNetworkID   types.String `tfsdk:"virtual_network_id"`
	Note               types.String `tfsdk:"note"`
}

// dnsServerToModel describes a classified DNS server: its kind, what serves
// it (the resolver's inbound endpoint, or the VM, else the NIC), the known
// VNet holding it and what that means, in words.
func dnsServerToModel(s verify.DNSServer) dnsServerModel {
	var kind, note string
	var resource, nicID, vnetID model.ResourceID
	if s.InVNet {
		vnetID = s.VNet.ID
	}
	switch s.Kind {
	case verify.DNSServerAzure:
		kind = dnsKindAzure
		note = "Azure-provided DNS: answers from the private DNS zones linked to the virtual network the query comes from."
	case verify.DNSServerResolverInbound:
		kind, resource = dnsKindResolverInbound, s.Endpoint.ID
		if !s.InVNet {
			// Found by the resolver search, outside every known VNet.
			vnetID = s.Resolver.VNetID
		}
		note = fmt.Sprintf("Inbound endpoint %s of a DNS private resolver: answers like Azure DNS from the zones linked to the resolver's virtual network, after its forwarding rulesets.", s.Endpoint.ID.Name())
	case verify.DNSServerNIC:
		nicID = s.NIC.ID
		if s.NIC.PrivateEndpointID != "" {
			// Not a VM: say what the address is rather than calling it one.
			kind, resource = dnsKindUnknown, s.NIC.PrivateEndpointID
			note = fmt.Sprintf("The address belongs to private endpoint %s: only a service behind it (through Private Link) could answer DNS there, and Azure cannot show how it resolves the registry's names.", s.NIC.PrivateEndpointID.Name())
			break
		}
		kind, resource = dnsKindVM, s.NIC.VMID
		if resource == "" {
			resource = s.NIC.ID
		}
		note = fmt.Sprintf("A DNS server on a virtual machine (NIC %s): Azure cannot show how it forwards the registry's names; check that it forwards privatelink zones to Azure DNS from a linked virtual network or to a private resolver inbound endpoint.", s.NIC.ID.Name())
	case verify.DNSServerUnidentified:
		kind = dnsKindUnknown
		switch {
		case !s.InVNet && s.Gap != nil:
			note = fmt.Sprintf("The address is outside every known virtual network, and the search for DNS private resolver inbound endpoints holding it failed (%s): what it is stays unknown.", gapSummary(*s.Gap))
		case s.Gap != nil:
			note = fmt.Sprintf("The address is in virtual network %s, but the lookup of what holds it failed (%s).", s.VNet.ID.Name(), gapSummary(*s.Gap))
		default:
			note = fmt.Sprintf("The address is in virtual network %s, but no network interface or resolver endpoint there holds it.", s.VNet.ID.Name())
		}
	default:
		kind = dnsKindExternal
		note = "The address is outside every known virtual network (on-premises or public): Azure cannot show how it resolves the registry's names."
	}
	return dnsServerModel{
		Address:            types.StringValue(s.Addr.String()),
		Kind:               types.StringValue(kind),
		ResourceID:         idOrNull(resource),
		NetworkInterfaceID: idOrNull(nicID),
		VirtualNetworkID:   idOrNull(vnetID),
		Note:               stringOrNull(note),
	}
}

// firewallServerToModel describes the private address of an Azure Firewall
// used as a DNS server: the firewall, the known VNet holding the address,
// and what its DNS proxy does (verify.ClassifyFirewallDNS), in words.
func firewallServerToModel(s verify.DNSServer, fw verify.FirewallDNSServer) dnsServerModel {
	var vnetID model.ResourceID
	if s.InVNet {
		vnetID = s.VNet.ID
	}
	name := "Azure Firewall " + fw.Firewall.Name
	where := "its firewall policy " + fw.Settings.From.Name()
	if fw.Firewall.PolicyID.IsZero() {
		where = "its classic setting Network.DNS.EnableProxy"
	}
	var note string
	switch fw.Kind {
	case verify.FirewallDNSProxyOff:
		note = fmt.Sprintf("%s: DNS proxy is off (%s; off by default): nothing answers DNS at this address, so the registry's names do not resolve. Turn the DNS proxy on, or use another DNS server.", name, where)
	case verify.FirewallDNSToAzure:
		note = fmt.Sprintf("%s with its DNS proxy on: forwards to Azure DNS from virtual network %s, which answers from the private DNS zones linked to it, after its forwarding rulesets.", name, fw.VNetID.Name())
	case verify.FirewallDNSToResolvers:
		note = fmt.Sprintf("%s with its DNS proxy on: forwards to %s, DNS private resolver inbound endpoints that answer from the private DNS zones linked to virtual network %s, after its forwarding rulesets.", name, fw.Via, fw.VNetID.Name())
	case verify.FirewallDNSUnverified:
		note = fmt.Sprintf("%s with its DNS proxy set, but %s: whether it answers the registry's names with their private addresses is unverified.", name, fw.Why())
	default:
		note = fmt.Sprintf("%s: its DNS settings could not be read (%s, see the warning): whether its DNS proxy answers at this address, and from where, is unknown.", name, fw.Settings.From.Name())
	}
	return dnsServerModel{
		Address:            types.StringValue(s.Addr.String()),
		Kind:               types.StringValue(dnsKindFirewall),
		ResourceID:         idOrNull(fw.Firewall.ID),
		NetworkInterfaceID: idOrNull(""),
		VirtualNetworkID:   idOrNull(vnetID),
		Note:               stringOrNull(note),
	}
}

// rulesetModel is one element of pullpath_vnet_dns.forwarding_rulesets.
type rulesetModel struct {
	ID    types.String          `tfsdk:"id"`
	Name  types.String          `tfsdk:"name"`
	Rules []forwardingRuleModel `tfsdk:"rules"`
}

type forwardingRuleModel struct {
	Name    types.String `tfsdk:"name"`
	Domain  types.String `tfsdk:"domain"`
	Targets []string     `tfsdk:"targets"`
	State   types.String `tfsdk:"state"`
}

// rulesetsToModel maps forwarding rulesets, ordered by name and with rules
// ordered by domain, so that the state does not change with ARM's order.
func rulesetsToModel(in []*model.Ruleset) []rulesetModel {
	out := make([]rulesetModel, 0, len(in))
	for _, rs := range in {
		if rs == nil {
			continue
		}
		m := rulesetModel{ID: types.StringValue(string(rs.ID)), Name: types.StringValue(rs.Name), Rules: []forwardingRuleModel{}}
		rules := append([]model.ForwardingRule(nil), rs.Rules...)
		sort.SliceStable(rules, func(i, j int) bool {
			if rules[i].DomainName != rules[j].DomainName {
				return rules[i].DomainName < rules[j].DomainName
			}
			return rules[i].Name < rules[j].Name
		})
		for _, r := range rules {
			targets := make([]string, len(r.Targets))
			for i, t := range r.Targets {
				targets[i] = t.String()
			}
			state := "Disabled"
			if r.Enabled {
				state = "Enabled"
			}
			m.Rules = append(m.Rules, forwardingRuleModel{
				Name: types.StringValue(r.Name), Domain: types.StringValue(r.DomainName),
				Targets: targets, State: types.StringValue(state),
			})
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.ToLower(out[i].Name.ValueString()) < strings.ToLower(out[j].Name.ValueString())
	})
	return out
}

// dnsPolicyModel is one element of pullpath_vnet_dns.dns_security_policies.
type dnsPolicyModel struct {
	ID    types.String         `tfsdk:"id"`
	Name  types.String         `tfsdk:"name"`
	Rules []dnsPolicyRuleModel `tfsdk:"rules"`
}

type dnsPolicyRuleModel struct {
	Name            types.String `tfsdk:"name"`
	Priority        types.Int64  `tfsdk:"priority"`
	Action          types.String `tfsdk:"action"`
	State           types.String `tfsdk:"state"`
	DomainLists     []string     `tfsdk:"domain_lists"`
	Domains         []string     `tfsdk:"domains"`
	DomainsComplete types.Bool   `tfsdk:"domains_complete"`
}

// dnsPoliciesToModel maps DNS security policies, ordered by name, with
// their rules by priority (then name) and each rule's domains as read
// from its lists; a policy whose rules were not read has null rules.
func dnsPoliciesToModel(in []*model.DNSSecurityPolicy, lists []*model.DNSDomainList) []dnsPolicyModel {
	byID := map[string]*model.DNSDomainList{}
	for _, l := range lists {
		if l != nil {
			byID[l.ID.Key()] = l
		}
	}
	out := make([]dnsPolicyModel, 0, len(in))
	for _, p := range in {
		if p == nil {
			continue
		}
		m := dnsPolicyModel{ID: types.StringValue(string(p.ID)), Name: types.StringValue(p.Name)}
		if p.RulesKnown {
			rules := append([]model.DNSSecurityRule(nil), p.Rules...)
			sort.SliceStable(rules, func(i, j int) bool {
				if rules[i].Priority != rules[j].Priority {
					return rules[i].Priority < rules[j].Priority
				}
				return rules[i].Name < rules[j].Name
			})
			m.Rules = []dnsPolicyRuleModel{}
			for _, r := range rules {
				rm := dnsPolicyRuleModel{Name: types.StringValue(r.Name), Priority: types.Int64Value(int64(r.Priority)),
					Action: types.StringValue(r.Action), State: types.StringValue(r.State), DomainLists: []string{}, Domains: []string{}}
				complete := true
				seen := map[string]bool{}
				for _, id := range r.DomainLists {
					rm.DomainLists = append(rm.DomainLists, string(id))
					l := byID[id.Key()]
					if l == nil || l.Large {
						complete = false
						continue
					}
					for _, d := range l.Domains {
						if !seen[strings.ToLower(d)] {
							seen[strings.ToLower(d)] = true
							rm.Domains = append(rm.Domains, d)
						}
					}
				}
				sort.Strings(rm.Domains)
				rm.DomainsComplete = types.BoolValue(complete)
				m.Rules = append(m.Rules, rm)
			}
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.ToLower(out[i].Name.ValueString()) < strings.ToLower(out[j].Name.ValueString())
	})
	return out
}
