// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// dnsServerModel is one element of pullpath_vnet_dns.servers.
type dnsServerModel struct {
	Address            types.String `tfsdk:"address"`
	Kind               types.String `tfsdk:"kind"`
	ResourceID         types.String `tfsdk:"resource_id"`
	NetworkInterfaceID types.String `tfsdk:"network_interface_id"`
	VirtualNetworkID   types.String `tfsdk:"virtual_network_id"`
	Note               types.String `tfsdk:"note"`
}

func dnsServerToModel(s dnsServer) dnsServerModel {
	return dnsServerModel{
		Address:            types.StringValue(s.Address.String()),
		Kind:               types.StringValue(s.Kind),
		ResourceID:         idOrNull(s.ResourceID),
		NetworkInterfaceID: idOrNull(s.NetworkInterfaceID),
		VirtualNetworkID:   idOrNull(s.VirtualNetworkID),
		Note:               stringOrNull(s.Note),
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

// knownVNetsOf is the address space classification can place a server in:
// the VNet itself and each peered VNet. A peered VNet's space is what the
// remote VNet says when it was read, else what the peering last saw of it
// (remoteVirtualNetworkAddressSpace, then the synced remoteAddressSpace).
func knownVNetsOf(vnet *model.VNet, remotes map[string]*model.VNet) []knownVNet {
	out := []knownVNet{{ID: vnet.ID, Space: vnet.AddressSpace}}
	seen := map[string]bool{vnet.ID.Key(): true}
	for _, p := range vnet.Peerings {
		if p == nil || seen[p.RemoteVNetID.Key()] {
			continue
		}
		seen[p.RemoteVNetID.Key()] = true
		space := p.RemoteCurrentAddressSpace
		if len(space) == 0 {
			space = p.RemoteAddressSpace
		}
		if r := remotes[p.RemoteVNetID.Key()]; r != nil && len(r.AddressSpace) > 0 {
			space = r.AddressSpace
		}
		out = append(out, knownVNet{ID: p.RemoteVNetID, Space: space, Peered: true})
	}
	return out
}

// inboundByAddress indexes resolver inbound endpoints by address.
func inboundByAddress(resolvers []*model.Resolver) map[netip.Addr]model.ResolverEndpoint {
	out := map[netip.Addr]model.ResolverEndpoint{}
	for _, r := range resolvers {
		if r == nil {
			continue
		}
		for _, ep := range r.Inbound {
			if ep.Address.IsValid() {
				out[ep.Address] = ep
			}
		}
	}
	return out
}
