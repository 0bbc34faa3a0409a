package planned

import (
	"fmt"
)

// Classic Azure Firewall rule collections (azurerm_firewall_network_rule_collection,
// azurerm_firewall_application_rule_collection, azurerm_firewall_nat_rule_collection):
// ARM embeds them in the firewall (properties.networkRuleCollections,
// applicationRuleCollections, natRuleCollections), each with the id
// …/azureFirewalls/{fw}/{collectionType}/{name}, in the shape of the
// Microsoft.Network azureFirewalls REST API that internal/gather
// (convert_firewall.go) reads. Each is a child op the overlay embeds in
// the firewall.

const typeFirewall = "Microsoft.Network/azureFirewalls"

type classicKind struct{ collection, rules string }

func putClassicCollection(t *changeTranslation, id string, k classicKind) error {
	b := map[string]any{"id": id, "name": lastName(id), "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	n, ok := t.get("priority").num()
	if !ok {
		return fmt.Errorf("its priority is %s", unknownOrMissing(t.get("priority")))
	}
	p["priority"] = n
	action := t.get("action").str()
	if action == "" {
		return fmt.Errorf("its action is %s", unknownOrMissing(t.get("action")))
	}
	p["action"] = map[string]any{"type": action}
	if t.get("rule").anyUnknown() || t.get("action").unknown() {
		// A rule whose addresses or ports are known only after apply
		// could allow or deny.
		op.Unknown = append(op.Unknown, "properties.rules")
	}
	rules := []any{}
	for _, r := range t.get("rule").list() {
		rule := map[string]any{"name": r.at("name").str()}
		if d := r.at("description").str(); d != "" {
			rule["description"] = d
		}
		rule["sourceAddresses"] = anyList(r.at("source_addresses").strs())
		rule["sourceIpGroups"] = anyList(r.at("source_ip_groups").strs())
		switch k.rules {
		case "network":
			rule["protocols"] = anyList(protocols(r.at("protocols").strs()))
			rule["destinationAddresses"] = anyList(r.at("destination_addresses").strs())
			rule["destinationIpGroups"] = anyList(r.at("destination_ip_groups").strs())
			rule["destinationFqdns"] = anyList(r.at("destination_fqdns").strs())
			rule["destinationPorts"] = anyList(r.at("destination_ports").strs())
		case "application":
			ps := []any{}
			for _, pr := range r.at("protocol").list() {
				e := map[string]any{"protocolType": pr.at("type").str()}
				if n, ok := pr.at("port").num(); ok {
					e["port"] = n
				}
				ps = append(ps, e)
			}
			rule["protocols"] = ps
			rule["targetFqdns"] = anyList(r.at("target_fqdns").strs())
			rule["fqdnTags"] = anyList(r.at("fqdn_tags").strs())
		case "nat":
			rule["protocols"] = anyList(protocols(r.at("protocols").strs()))
			rule["destinationAddresses"] = anyList(r.at("destination_addresses").strs())
			rule["destinationPorts"] = anyList(r.at("destination_ports").strs())
			if s := r.at("translated_address").str(); s != "" {
				rule["translatedAddress"] = s
			}
			if s := r.at("translated_port").str(); s != "" {
				rule["translatedPort"] = s
			}
		}
		rules = append(rules, rule)
	}
	p["rules"] = rules
	p["provisioningState"] = "Succeeded"
	return nil
}

// classicCollection is the translator of a classic rule collection type.
func classicCollection(k classicKind) translator {
	return translator{
		id:  idInRG(typeFirewall+"/"+k.collection, "azure_firewall_name", "name"),
		put: func(t *changeTranslation, id string) error { return putClassicCollection(t, id, k) },
	}
}
