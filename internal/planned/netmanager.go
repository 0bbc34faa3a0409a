package planned

// Azure Virtual Network Manager security admin configurations, their rule
// collections and admin rules, in the shape of the Microsoft.Network REST
// API. The provider reads their effect only through the effective security
// admin rules of a VNet (the read action of model.ActionAdminRules), whose
// what-if treatment makes the answer unknown when a change touches a type
// under Microsoft.Network/networkManagers: these translations are what a
// plan's azurerm changes of them are met by.

const (
	typeSecurityAdminConfig = "Microsoft.Network/networkManagers/securityAdminConfigurations"
	typeAdminRuleCollection = "Microsoft.Network/networkManagers/securityAdminConfigurations/ruleCollections"
	typeAdminRule           = "Microsoft.Network/networkManagers/securityAdminConfigurations/ruleCollections/rules"
)

func putSecurityAdminConfig(t *changeTranslation, id string) error {
	b := base(id, typeSecurityAdminConfig, t, false)
	t.op(OpPut, id, b)
	p := props(b)
	p["description"] = t.get("description").str()
	p["applyOnNetworkIntentPolicyBasedServices"] = anyList(t.get("apply_on_network_intent_policy_based_services").strs())
	return nil
}

func putAdminRuleCollection(t *changeTranslation, id string) error {
	b := base(id, typeAdminRuleCollection, t, false)
	op := t.op(OpPut, id, b)
	p := props(b)
	p["description"] = t.get("description").str()
	groups, all := t.refIDs("network_group_ids")
	l := []any{}
	for _, g := range groups {
		l = append(l, map[string]any{"networkGroupId": g})
	}
	p["appliesToGroups"] = l
	if !all {
		op.Unknown = append(op.Unknown, "properties.appliesToGroups")
	}
	return nil
}

func putAdminRule(t *changeTranslation, id string) error {
	b := base(id, typeAdminRule, t, false)
	b["kind"] = "Custom"
	op := t.op(OpPut, id, b)
	p := props(b)
	p["description"] = t.get("description").str()
	for _, am := range [][2]string{{"action", "access"}, {"direction", "direction"}, {"protocol", "protocol"}} {
		attr, member := am[0], am[1]
		if s := t.get(attr).str(); s != "" {
			p[member] = s
		} else {
			op.Unknown = append(op.Unknown, "properties."+member)
		}
	}
	if n, ok := t.get("priority").num(); ok {
		p["priority"] = n
	} else {
		op.Unknown = append(op.Unknown, "properties.priority")
	}
	for _, am := range [][2]string{{"source_port_ranges", "sourcePortRanges"}, {"destination_port_ranges", "destinationPortRanges"}} {
		attr, member := am[0], am[1]
		p[member] = anyList(t.get(attr).strs())
		if t.get(attr).anyUnknown() {
			op.Unknown = append(op.Unknown, "properties."+member)
		}
	}
	for _, am := range [][2]string{{"source", "sources"}, {"destination", "destinations"}} {
		attr, member := am[0], am[1]
		l := []any{}
		for _, a := range t.get(attr).list() {
			l = append(l, map[string]any{"addressPrefix": a.at("address_prefix").str(), "addressPrefixType": a.at("address_prefix_type").str()})
		}
		p[member] = l
		if t.get(attr).anyUnknown() {
			op.Unknown = append(op.Unknown, "properties."+member)
		}
	}
	return nil
}
