package planned

import (
	"strings"
)

// Defaults of Optional+Computed attributes.
//
// An attribute that is Optional and Computed is unknown in the plan of a
// create whenever the configuration does not set it: the provider learns
// it from Azure after apply. For the attributes below, what Azure (or the
// provider, on create) sets then is documented, so "unknown" in such a
// plan means that default, not a value that could be anything: azurerm 3.x
// leaves `dns_servers` unknown on nearly every new VNet and the private
// endpoint network policy attributes on nearly every new subnet. Treating
// them as unknown would make every such pull request unverified.
//
// A default is used only when all of these hold (applyDefaults):
//   - the change creates the resource (a create, or the create of a
//     replace);
//   - the attribute is unknown in after, and the plan has the resource's
//     configuration and it does not set the attribute;
//   - no other change of the plan sets the attribute (setBy: a resource
//     type that writes it into the same ARM resource, such as
//     azurerm_virtual_network_dns_servers for a VNet's DNS servers)
//     unless it provably targets another resource.
//
// The table is data; each entry gives its source.
type attrDefault struct {
	attr  string
	value any
	// setBy are the resource types, and their argument naming the target,
	// that set the same member of the ARM resource from outside.
	setBy []setter
	// source is where the default is documented.
	source string
	// group names attributes that are forms of one setting (azurerm 3.x
	// kept deprecated and new names side by side): when the
	// configuration sets one of them, none of the group takes a default.
	group string
}

type setter struct{ typ, attr string }

var attrDefaults = map[string][]attrDefault{
	"azurerm_virtual_network": {
		{attr: "dns_servers", value: []any{},
			setBy:  []setter{{"azurerm_virtual_network_dns_servers", "virtual_network_id"}},
			source: "azurerm 3.x virtual_network: dns_servers Optional+Computed, unset means none; a VNet without DNS servers uses Azure-provided DNS (learn.microsoft.com/azure/virtual-network/virtual-networks-name-resolution-for-vms-and-role-instances)"},
	},
	"azurerm_network_interface": {
		// azurerm 3.x: dns_servers and both forms of IP forwarding are
		// Optional+Computed; unset, the NIC is created without DNS servers
		// of its own (it uses its VNet's) and without IP forwarding.
		{attr: "dns_servers", value: []any{},
			source: "learn.microsoft.com/azure/virtual-network/virtual-network-network-interface: a network interface's DNS servers default to 'Inherit from virtual network' (none of its own)"},
		{attr: "enable_ip_forwarding", group: "fwd", value: false,
			source: "learn.microsoft.com/azure/virtual-network/virtual-network-network-interface: IP forwarding is disabled unless enabled on the network interface (registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/network_interface: enable_ip_forwarding defaults to false)"},
		{attr: "ip_forwarding_enabled", group: "fwd", value: false,
			source: "learn.microsoft.com/azure/virtual-network/virtual-network-network-interface: IP forwarding is disabled unless enabled on the network interface (registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/network_interface: ip_forwarding_enabled defaults to false)"},
	},
	"azurerm_kubernetes_cluster": {
		// azurerm 3.x plans the whole network_profile block unknown on a
		// create that does not set it (Optional+Computed). The pull path
		// reads its outbound type only: Azure's default is loadBalancer.
		{attr: "network_profile", value: []any{map[string]any{"outbound_type": "loadBalancer"}},
			source: "learn.microsoft.com/azure/aks/egress-outboundtype: an AKS cluster's outbound type defaults to loadBalancer"},
	},
	"azurerm_container_registry": {
		// azurerm 3.x plans network_rule_set unknown on a create that does
		// not set it; unset, the registry has no network rules and admits
		// every network (defaultAction Allow).
		{attr: "network_rule_set", value: []any{},
			source: "learn.microsoft.com/azure/container-registry/container-registry-access-selected-networks: by default a registry accepts connections over the internet from hosts on any network (network rule set default action Allow)"},
	},
	"azurerm_subnet": {
		// azurerm 3.x: the two (three from 3.9x) conflicting forms are all
		// Optional+Computed; unset, the provider creates the subnet with
		// network policies for private endpoints enabled
		// (private_endpoint_network_policies_enabled "Defaults to true",
		// enforce_private_link_endpoint_network_policies "Defaults to
		// false"). azurerm 4.x has a plain default ("Disabled") and is
		// never unknown.
		{attr: "private_endpoint_network_policies_enabled", group: "pe", value: true,
			source: "registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/subnet: private_endpoint_network_policies_enabled defaults to true"},
		{attr: "enforce_private_link_endpoint_network_policies", group: "pe", value: false,
			source: "registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/subnet: enforce_private_link_endpoint_network_policies defaults to false"},
		{attr: "private_endpoint_network_policies", group: "pe", value: "Enabled",
			source: "azurerm 3.x subnet: private_endpoint_network_policies follows private_endpoint_network_policies_enabled (default true: Enabled)"},
		{attr: "private_link_service_network_policies_enabled", group: "pls", value: true,
			source: "registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/subnet: private_link_service_network_policies_enabled defaults to true"},
		{attr: "enforce_private_link_service_network_policies", group: "pls", value: false,
			source: "registry.terraform.io/providers/hashicorp/azurerm/3.116.0/docs/resources/subnet: enforce_private_link_service_network_policies defaults to false"},
	},
}

// applyDefaults replaces, in the after values of a create, the unknown
// attributes of attrDefaults that the configuration leaves unset and no
// other change sets, by their defaults. It runs once all changes are
// indexed (setters are other changes).
func (c *planTranslation) applyDefaults() {
	for _, ch := range c.changes {
		defs := attrDefaults[ch.rc.Type]
		if len(defs) == 0 || !ch.rc.Change.Actions.Create() && !ch.rc.Change.Actions.Replace() || ch.rc.DeposedKey != "" || ch.expr == nil {
			continue
		}
		after, ok := ch.after.v.(map[string]any)
		if !ok {
			continue
		}
		unknown, ok := ch.after.u.(map[string]any)
		if !ok {
			continue
		}
		configured := map[string]bool{}
		for _, d := range defs {
			if _, set := ch.expr[d.attr]; set && d.group != "" {
				configured[d.group] = true
			}
		}
		var nv, nu map[string]any
		for _, d := range defs {
			if configured[d.group] {
				continue
			}
			if u, _ := unknown[d.attr].(bool); !u {
				continue
			}
			if _, set := ch.expr[d.attr]; set {
				continue
			}
			if c.setElsewhere(ch, d.setBy) {
				continue
			}
			if nv == nil {
				nv, nu = copyTop(after), copyTop(unknown)
			}
			nv[d.attr] = d.value
			delete(nu, d.attr)
		}
		if nv != nil {
			ch.after = val{v: nv, u: nu}
		}
	}
}

// setElsewhere reports whether a change of the plan of one of the setter
// types may set the attribute of ch's resource: one whose target argument
// references ch, or whose target is not provably another resource.
func (c *planTranslation) setElsewhere(ch *change, setters []setter) bool {
	for _, s := range setters {
		for _, o := range c.changes {
			if o == ch || o.rc.Type != s.typ || o.rc.Change.Actions.Delete() || o.rc.Change.Actions.NoOp() {
				continue
			}
			target := o.after.at(s.attr)
			if id := target.str(); id != "" {
				if own, ok := c.idOfAddress(ch.rc.Address); ok && !strings.EqualFold(own, id) {
					continue // provably another resource
				}
				return true
			}
			// Unknown target: only references to another resource of the
			// plan prove it is not this one.
			t := c.newT(o, o.after)
			refs := t.refs(s.attr)
			if len(refs) == 0 {
				return true
			}
			for _, r := range refs {
				addr := r
				if o.rc.ModuleAddress != "" {
					addr = o.rc.ModuleAddress + "." + r
				}
				if addr == ch.rc.Address || strings.HasPrefix(ch.rc.Address, addr+"[") {
					return true
				}
			}
		}
	}
	return false
}

func copyTop(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
