package planned

import (
	"fmt"
	"strings"
)

// Firewall policy rule collection groups, in the shape of
// Microsoft.Network/firewallPolicies/ruleCollectionGroups (internal/gather
// convert_firewall.go reads the filter collections).

const typeRCG = "Microsoft.Network/firewallPolicies/ruleCollectionGroups"

func putRuleCollectionGroup(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRCG, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	if n, ok := t.get("priority").num(); ok {
		p["priority"] = n
	} else {
		return fmt.Errorf("its priority is %s", unknownOrMissing(t.get("priority")))
	}
	cols := []any{}
	for _, kind := range []string{"network_rule_collection", "application_rule_collection", "nat_rule_collection"} {
		v := t.get(kind)
		if v.anyUnknown() {
			// A rule whose addresses or ports are known only after apply
			// could allow or deny: the whole group is unknown.
			op.Unknown = append(op.Unknown, "properties.ruleCollections")
		}
		for i, c := range v.list() {
			col, err := ruleCollection(kind, c)
			if err != nil {
				return fmt.Errorf("%s %d: %w", kind, i, err)
			}
			cols = append(cols, col)
		}
	}
	p["ruleCollections"] = cols
	p["provisioningState"] = "Succeeded"
	return nil
}

func unknownOrMissing(v val) string {
	if v.unknown() {
		return "known only after apply"
	}
	return "missing"
}

// ruleCollection is one ARM rule collection from an azurerm collection
// block.
func ruleCollection(kind string, c val) (map[string]any, error) {
	name := c.at("name").str()
	if name == "" {
		return nil, fmt.Errorf("it has no name")
	}
	col := map[string]any{"name": name, "ruleCollectionType": "FirewallPolicyFilterRuleCollection"}
	if n, ok := c.at("priority").num(); ok {
		col["priority"] = n
	}
	action := c.at("action").str()
	if kind == "nat_rule_collection" {
		col["ruleCollectionType"] = "FirewallPolicyNatRuleCollection"
		action = "DNAT"
	}
	col["action"] = map[string]any{"type": action}
	rules := []any{}
	for _, r := range c.at("rule").list() {
		rule := map[string]any{"name": r.at("name").str()}
		if d := r.at("description").str(); d != "" {
			rule["description"] = d
		}
		rule["sourceAddresses"] = anyList(r.at("source_addresses").strs())
		rule["sourceIpGroups"] = anyList(r.at("source_ip_groups").strs())
		switch kind {
		case "network_rule_collection":
			rule["ruleType"] = "NetworkRule"
			rule["ipProtocols"] = anyList(protocols(r.at("protocols").strs()))
			rule["destinationAddresses"] = anyList(r.at("destination_addresses").strs())
			rule["destinationIpGroups"] = anyList(r.at("destination_ip_groups").strs())
			rule["destinationFqdns"] = anyList(r.at("destination_fqdns").strs())
			rule["destinationPorts"] = anyList(r.at("destination_ports").strs())
		case "application_rule_collection":
			rule["ruleType"] = "ApplicationRule"
			ps := []any{}
			for _, pr := range r.at("protocols").list() {
				e := map[string]any{"protocolType": pr.at("type").str()}
				if n, ok := pr.at("port").num(); ok {
					e["port"] = n
				}
				ps = append(ps, e)
			}
			rule["protocols"] = ps
			rule["targetFqdns"] = anyList(r.at("destination_fqdns").strs())
			rule["targetUrls"] = anyList(r.at("destination_urls").strs())
			rule["fqdnTags"] = anyList(r.at("destination_fqdn_tags").strs())
			rule["webCategories"] = anyList(r.at("web_categories").strs())
			rule["destinationAddresses"] = anyList(r.at("destination_addresses").strs())
			tls, _ := r.at("terminate_tls").boolp()
			rule["terminateTLS"] = tls
		case "nat_rule_collection":
			rule["ruleType"] = "NatRule"
			rule["ipProtocols"] = anyList(protocols(r.at("protocols").strs()))
			var dst []string
			if d := r.at("destination_address").str(); d != "" {
				dst = append(dst, d)
			}
			rule["destinationAddresses"] = anyList(dst)
			rule["destinationPorts"] = anyList(r.at("destination_ports").strs())
			if s := r.at("translated_address").str(); s != "" {
				rule["translatedAddress"] = s
			}
			if s := r.at("translated_fqdn").str(); s != "" {
				rule["translatedFqdn"] = s
			}
			if n, ok := r.at("translated_port").num(); ok {
				rule["translatedPort"] = fmt.Sprint(n)
			}
		}
		rules = append(rules, rule)
	}
	col["rules"] = rules
	return col, nil
}

// protocols are azurerm's network rule protocols as ARM spells them (TCP,
// UDP, ICMP, Any).
func protocols(in []string) []string {
	out := make([]string, 0, len(in))
	for _, p := range in {
		switch strings.ToUpper(p) {
		case "ANY":
			out = append(out, "Any")
		default:
			out = append(out, strings.ToUpper(p))
		}
	}
	return out
}
