// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

import (
	"fmt"
	"strings"
)

// Azure Firewalls and firewall policies, in the shape of the
// Microsoft.Network REST API that internal/gather reads
// (convert_firewall.go, convert_firewall_snat.go, convert_firewall_tls.go):
// the firewall's private addresses, subnets, public IPs, policy, SKU tier,
// forced tunnelling (management ip configuration) and the classic DNS and
// SNAT settings (additionalProperties); the policy's DNS proxy and servers,
// SNAT ranges, TLS inspection certificate, parent policy and tier. The
// attribute names are azurerm's, the same in v3 and v4
// (internal/services/firewall/firewall_resource.go and
// firewall_policy_resource.go of terraform-provider-azurerm).

const typeFirewallPolicy = "Microsoft.Network/firewallPolicies"

// The classic settings azurerm_firewall writes as additional properties
// (the names Azure documents: "Azure Firewall SNAT private IP address
// ranges", learn.microsoft.com/azure/firewall/snat-private-range, and
// "Azure Firewall DNS settings", learn.microsoft.com/azure/firewall/dns-settings).
const (
	classicDNSProxy   = "Network.DNS.EnableProxy"
	classicDNSServers = "Network.DNS.Servers"
	classicSNATRanges = "Network.SNAT.PrivateRanges"
)

// putAzureFirewall is the firewall after apply. Its classic rule
// collections are their own changes (firewall_classic.go); the overlay keeps
// those Azure has when the body names none.
func putAzureFirewall(t *changeTranslation, id string) error {
	b := base(id, typeFirewall, t, true)
	op := t.op(OpPut, id, b)
	p := props(b)
	sku := map[string]any{}
	if s := t.get("sku_name").str(); s != "" {
		sku["name"] = s
	}
	if s := t.get("sku_tier").str(); s != "" {
		sku["tier"] = s
	} else if t.get("sku_tier").unknown() {
		op.Unknown = append(op.Unknown, "properties.sku.tier")
	}
	p["sku"] = sku
	if s := t.get("threat_intel_mode").str(); s != "" {
		p["threatIntelMode"] = s
	}
	cfgs := []any{}
	for i := range t.get("ip_configuration").list() {
		c, err := firewallIPConfiguration(t, op, id, "ip_configuration", i, "properties.ipConfigurations")
		if err != nil {
			return err
		}
		cfgs = append(cfgs, c)
	}
	if t.get("ip_configuration").anyUnknown() && len(cfgs) == 0 {
		op.Unknown = append(op.Unknown, "properties.ipConfigurations")
	}
	p["ipConfigurations"] = cfgs
	if len(t.get("management_ip_configuration").list()) > 0 {
		c, err := firewallIPConfiguration(t, op, id, "management_ip_configuration", 0, "properties.managementIpConfiguration")
		if err != nil {
			return err
		}
		p["managementIpConfiguration"] = c
	} else if t.get("management_ip_configuration").unknown() {
		op.Unknown = append(op.Unknown, "properties.managementIpConfiguration")
	}
	setRef(t, op, "firewall_policy_id", "firewallPolicy")
	if hub := t.get("virtual_hub").first(); !hub.null() {
		ht := t.sub("virtual_hub", 0)
		if hid, ok := ht.refID("virtual_hub_id"); ok {
			p["virtualHub"] = ref(hid)
		}
		if ip := hub.at("private_ip_address").str(); ip != "" {
			p["hubIPAddresses"] = map[string]any{"privateIPAddress": ip}
		} else {
			op.Unknown = append(op.Unknown, "properties.hubIPAddresses.privateIPAddress")
		}
	}
	extra := map[string]any{}
	servers := t.get("dns_servers")
	if s := servers.strs(); len(s) > 0 {
		extra[classicDNSServers] = strings.Join(s, ",")
		// azurerm turns the proxy on with the servers.
		extra[classicDNSProxy] = "true"
	}
	if servers.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.additionalProperties."+classicDNSServers)
	}
	if v, ok := t.get("dns_proxy_enabled").boolp(); ok {
		extra[classicDNSProxy] = fmt.Sprint(v)
	} else if t.get("dns_proxy_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.additionalProperties."+classicDNSProxy)
	}
	ranges := t.get("private_ip_ranges")
	if s := ranges.strs(); len(s) > 0 {
		extra[classicSNATRanges] = strings.Join(s, ",")
	}
	if ranges.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.additionalProperties."+classicSNATRanges)
	}
	p["additionalProperties"] = extra
	return nil
}

// firewallIPConfiguration is block i of attr (ip_configuration or
// management_ip_configuration): its subnet, public IP and private address
// (Azure's, known after apply for a new firewall).
func firewallIPConfiguration(t *changeTranslation, op *Op, id, attr string, i int, path string) (map[string]any, error) {
	c := t.get(attr, i)
	name := c.at("name").str()
	if name == "" {
		return nil, fmt.Errorf("%s block %d has no name", attr, i)
	}
	cp := map[string]any{}
	ct := t.sub(attr, i)
	if sid, ok := ct.refID("subnet_id"); ok {
		cp["subnet"] = ref(sid)
	} else if c.at("subnet_id").unknown() {
		op.Unknown = append(op.Unknown, path+".subnet.id")
	}
	if pip, ok := ct.refID("public_ip_address_id"); ok {
		cp["publicIPAddress"] = ref(pip)
	} else if c.at("public_ip_address_id").unknown() {
		op.Unknown = append(op.Unknown, path+".publicIPAddress.id")
	}
	if ip := c.at("private_ip_address").str(); ip != "" {
		cp["privateIPAddress"] = ip
	} else if c.at("subnet_id").str() != "" || c.at("subnet_id").unknown() {
		// Azure gives the firewall the fourth address of its subnet at
		// apply; what it is is known then.
		op.Unknown = append(op.Unknown, path+".privateIPAddress")
	}
	return map[string]any{"id": id + "/azureFirewallIpConfigurations/" + name, "name": name, "properties": cp}, nil
}

// putFirewallPolicy is the policy after apply, without its rule collection
// groups (their own resources).
func putFirewallPolicy(t *changeTranslation, id string) error {
	b := base(id, typeFirewallPolicy, t, true)
	op := t.op(OpPut, id, b)
	p := props(b)
	if s := t.get("sku").str(); s != "" {
		p["sku"] = map[string]any{"tier": s}
	} else if t.get("sku").unknown() {
		op.Unknown = append(op.Unknown, "properties.sku.tier")
	}
	setRef(t, op, "base_policy_id", "basePolicy")
	// v3 threat_intelligence_mode (v4 the same), default Alert.
	if s := t.get("threat_intelligence_mode").str(); s != "" {
		p["threatIntelMode"] = s
	}
	if dns := t.get("dns").first(); !dns.null() {
		d := map[string]any{}
		if v, ok := dns.at("proxy_enabled").boolp(); ok {
			d["enableProxy"] = v
		} else if dns.at("proxy_enabled").unknown() {
			op.Unknown = append(op.Unknown, "properties.dnsSettings.enableProxy")
		} else {
			d["enableProxy"] = false
		}
		d["servers"] = anyList(dns.at("servers").strs())
		if dns.at("servers").anyUnknown() {
			op.Unknown = append(op.Unknown, "properties.dnsSettings.servers")
		}
		p["dnsSettings"] = d
	} else if t.get("dns").unknown() {
		op.Unknown = append(op.Unknown, "properties.dnsSettings")
	}
	snat := map[string]any{}
	if r := t.get("private_ip_ranges"); len(r.strs()) > 0 {
		snat["privateRanges"] = anyList(r.strs())
	} else if r.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.snat.privateRanges")
	}
	if v, ok := t.get("auto_learn_private_ranges_enabled").boolp(); ok {
		snat["autoLearnPrivateRanges"] = map[bool]string{true: "Enabled", false: "Disabled"}[v]
	} else if t.get("auto_learn_private_ranges_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.snat.autoLearnPrivateRanges")
	}
	if len(snat) > 0 {
		p["snat"] = snat
	}
	if tls := t.get("tls_certificate").first(); !tls.null() {
		ca := map[string]any{"name": tls.at("name").str()}
		if s := tls.at("key_vault_secret_id").str(); s != "" {
			ca["keyVaultSecretId"] = s
		} else if tls.at("key_vault_secret_id").unknown() {
			op.Unknown = append(op.Unknown, "properties.transportSecurity.certificateAuthority.keyVaultSecretId")
		}
		p["transportSecurity"] = map[string]any{"certificateAuthority": ca}
	} else if t.get("tls_certificate").unknown() {
		op.Unknown = append(op.Unknown, "properties.transportSecurity")
	}
	return nil
}
