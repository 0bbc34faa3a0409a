package planned

import (
	"fmt"
	"slices"
	"strings"
)

// Network resources: virtual networks and their subnets and peerings,
// route tables, security groups, NAT gateways. Members are those
// internal/gather reads (convert_network.go, convert_egress.go), in the
// shape of the Microsoft.Network REST API.

const (
	typeVNet    = "Microsoft.Network/virtualNetworks"
	typeSubnet  = "Microsoft.Network/virtualNetworks/subnets"
	typePeering = "Microsoft.Network/virtualNetworks/virtualNetworkPeerings"
	typeRT      = "Microsoft.Network/routeTables"
	typeRoute   = "Microsoft.Network/routeTables/routes"
	typeNSG     = "Microsoft.Network/networkSecurityGroups"
	typeNSGRule = "Microsoft.Network/networkSecurityGroups/securityRules"
	typeNAT     = "Microsoft.Network/natGateways"
)

// idByName is the id of a resource named by name and resource_group_name.
func idByName(typ string) func(t *changeTranslation) (string, error) {
	return func(t *changeTranslation) (string, error) { return t.rgID(typ, "name") }
}

// requiredRef is an *_id argument that the op cannot do without.
func (t *changeTranslation) requiredRef(attr string) (string, error) {
	id, ok := t.refID(attr)
	if !ok {
		if t.get(attr).unknown() {
			for _, r := range t.refs(attr) {
				if addr, why, found := t.c.unbuildableRef(t.ch, r); found {
					return "", fmt.Errorf("its %s refers to %s, a resource of this plan whose ARM id cannot be built before apply: %s", attr, addr, why)
				}
			}
			return "", fmt.Errorf("its %s is known only after apply and refers to no resource of this plan whose id can be built", attr)
		}
		return "", fmt.Errorf("it has no %s", attr)
	}
	if !validID(id) {
		return "", fmt.Errorf("its %s %q is not an ARM resource id", attr, id)
	}
	return id, nil
}

// delWithChildren deletes a resource; ARM deletes its embedded children
// (subnets, routes, rules) with it.
func delWithChildren(t *changeTranslation, id string) error {
	t.op(OpDelete, id, nil)
	return nil
}

// base is the envelope of an ARM resource body.
func base(id, typ string, t *changeTranslation, tracked bool) map[string]any {
	b := map[string]any{"id": id, "name": lastName(id), "type": typ, "properties": map[string]any{}}
	if tracked {
		if loc := t.get("location"); loc.str() != "" {
			b["location"] = normLocation(loc.str())
		}
		tags := map[string]any{}
		if m, ok := t.get("tags").v.(map[string]any); ok {
			for k, v := range m {
				tags[k] = v
			}
		}
		b["tags"] = tags
	}
	return b
}

// props is the properties object of a body the translators built (always
// present); a body without one gets an empty one.
func props(b map[string]any) map[string]any {
	if p, ok := b["properties"].(map[string]any); ok {
		return p
	}
	p := map[string]any{}
	b["properties"] = p
	return p
}

// normLocation is a location as ARM writes it: "West Europe" → westeurope.
func normLocation(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", ""))
}

func putVNet(t *changeTranslation, id string) error {
	b := base(id, typeVNet, t, true)
	op := t.op(OpPut, id, b)
	p := props(b)
	as := t.get("address_space")
	p["addressSpace"] = map[string]any{"addressPrefixes": anyList(as.strs())}
	if as.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.addressSpace.addressPrefixes")
	}
	dns := t.get("dns_servers")
	p["dhcpOptions"] = map[string]any{"dnsServers": anyList(dns.strs())}
	if dns.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.dhcpOptions.dnsServers")
	}
	if !t.argSet("subnet") || t.ch.managedElsewhere("subnet") {
		// Subnets are not set in the configuration: they stay what they
		// are (azurerm_subnet resources and Azure own them).
		return nil
	}
	if t.get("subnet").unknown() {
		// Subnets known only after apply (a dynamic block over unknown
		// values): which subnets the VNet has is unknown.
		op.Unknown = append(op.Unknown, "properties.subnets")
		return nil
	}
	names := map[string]bool{}
	existed := map[string]bool{}
	for _, s := range t.ch.before.at("subnet").list() {
		existed[strings.ToLower(s.at("name").str())] = true
	}
	for i, s := range t.get("subnet").list() {
		name := s.at("name").str()
		if name == "" {
			return fmt.Errorf("subnet block %d has no name", i)
		}
		names[strings.ToLower(name)] = true
		sid := s.at("id").str()
		if sid == "" || !validID(sid) {
			sid = id + "/subnets/" + name
		}
		op := subnetOp(t, sid, s, true)
		if existed[strings.ToLower(name)] {
			// azurerm reads the subnet and sets what the block manages,
			// leaving the rest (associations made by other resources,
			// for arguments the block does not have) as Azure has it.
			op.Kind = OpPatch
		} else {
			// A new subnet has no member the block leaves out.
			dropNulls(props(op.Body))
		}
	}
	// Inline subnets the configuration removed are deleted.
	for _, s := range t.ch.before.at("subnet").list() {
		name := s.at("name").str()
		if name != "" && !names[strings.ToLower(name)] {
			t.op(OpDelete, id+"/subnets/"+name, nil)
		}
	}
	return nil
}

// managedElsewhere reports whether an inline block list is not set in
// the configuration (azurerm then reports what Azure has).
func (ch *change) managedElsewhere(attr string) bool {
	if ch.expr == nil {
		return false
	}
	_, ok := ch.expr[attr]
	return !ok
}

func subnetID(t *changeTranslation) (string, error) {
	return t.rgID(typeSubnet, "virtual_network_name", "name")
}

// putSubnet: a new subnet is put; an update patches what azurerm_subnet
// manages and keeps what association resources set (route table, NSG, NAT
// gateway), as the provider does.
func putSubnet(t *changeTranslation, id string) error {
	kind := OpPut
	if t.ch.rc.Change.Actions.Update() {
		kind = OpPatch
	}
	op := subnetOp(t, id, t.cur, false)
	op.Kind = kind
	if kind == OpPatch {
		delete(op.Body, "id")
		delete(op.Body, "name")
		delete(op.Body, "type")
	}
	return nil
}

// subnetOp puts a subnet from an azurerm_subnet resource or an inline
// subnet block (v3: address_prefix, security_group; v4: address_prefixes,
// route_table_id, …).
func subnetOp(t *changeTranslation, id string, s val, inline bool) *Op {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeSubnet, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	// azurerm 2.x plans both address_prefix (deprecated, Optional+Computed:
	// the first of address_prefixes, unknown on a create that sets only
	// address_prefixes) and address_prefixes; either known form gives the
	// prefixes.
	prefixes := s.at("address_prefixes").strs()
	unknownPrefix := s.at("address_prefixes").anyUnknown() || s.at("address_prefix").unknown() && len(prefixes) == 0
	if one := s.at("address_prefix").str(); one != "" && !slices.Contains(prefixes, one) {
		prefixes = append([]string{one}, prefixes...)
	}
	if len(prefixes) == 1 {
		p["addressPrefix"] = prefixes[0]
	} else {
		p["addressPrefixes"] = anyList(prefixes)
	}
	if unknownPrefix {
		op.Unknown = append(op.Unknown, "properties.addressPrefix", "properties.addressPrefixes")
	}
	// Private endpoint network policies: v4 string, v3 bool, older v3 the
	// inverted enforce_private_link_endpoint_network_policies.
	pen := s.at("private_endpoint_network_policies")
	if v := pen.str(); v != "" {
		p["privateEndpointNetworkPolicies"] = v
	} else if b, ok := s.at("private_endpoint_network_policies_enabled").boolp(); ok {
		p["privateEndpointNetworkPolicies"] = enabled(b)
	} else if b, ok := s.at("enforce_private_link_endpoint_network_policies").boolp(); ok {
		p["privateEndpointNetworkPolicies"] = enabled(!b)
	} else if pen.unknown() || s.at("private_endpoint_network_policies_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.privateEndpointNetworkPolicies")
	} else if !inline {
		p["privateEndpointNetworkPolicies"] = "Disabled"
	}
	if b, ok := s.at("private_link_service_network_policies_enabled").boolp(); ok {
		p["privateLinkServiceNetworkPolicies"] = enabled(b)
	}
	if b, ok := s.at("default_outbound_access_enabled").boolp(); ok {
		p["defaultOutboundAccess"] = b
	} else if s.at("default_outbound_access_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.defaultOutboundAccess")
	}
	block, _ := s.v.(map[string]any)
	has := func(attr string) bool {
		_, ok := block[attr]
		return ok || !inline || s.at(attr).unknown()
	}
	se := []any{}
	for _, svc := range s.at("service_endpoints").strs() {
		se = append(se, map[string]any{"service": svc, "locations": []any{"*"}})
	}
	if has("service_endpoints") {
		p["serviceEndpoints"] = se
	}
	if s.at("service_endpoints").anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.serviceEndpoints")
	}
	dl := []any{}
	for _, d := range s.at("delegation").list() {
		sd := d.at("service_delegation").first()
		dl = append(dl, map[string]any{"name": d.at("name").str(), "properties": map[string]any{
			"serviceName": sd.at("name").str(), "actions": anyList(sd.at("actions").strs())}})
	}
	if has("delegation") {
		p["delegations"] = dl
	}
	if inline {
		// Inline blocks set the subnet's associations too (v3:
		// security_group; v4: security_group and route_table_id); an
		// empty value removes the association. A v3 block has no
		// route_table_id: the route table stays as it is.
		m, _ := s.v.(map[string]any)
		for _, a := range []struct{ attr, member string }{{"security_group", "networkSecurityGroup"}, {"route_table_id", "routeTable"}} {
			if _, present := m[a.attr]; !present && !s.at(a.attr).unknown() {
				continue
			}
			v := s.at(a.attr)
			switch {
			case v.str() != "":
				p[a.member] = ref(v.str())
			case v.unknown():
				p[a.member] = map[string]any{}
				op.Unknown = append(op.Unknown, "properties."+a.member+".id")
			default:
				p[a.member] = nil
			}
		}
	}
	return op
}

func enabled(b bool) string {
	if b {
		return "Enabled"
	}
	return "Disabled"
}

func peeringID(t *changeTranslation) (string, error) {
	return t.rgID(typePeering, "virtual_network_name", "name")
}

// putPeering puts one side of a peering. peeringState, peeringSyncLevel
// and the remote address spaces are Azure's report of both sides: when
// the plan also puts or deletes the other side, they are set by
// settlePeerings; otherwise the body leaves them out and the overlay
// derives them from the remote VNet (docs/design/what-if.md).
func putPeering(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typePeering, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	if remote, ok := t.refID("remote_virtual_network_id"); ok {
		p["remoteVirtualNetwork"] = ref(remote)
	} else {
		p["remoteVirtualNetwork"] = map[string]any{}
		op.Unknown = append(op.Unknown, "properties.remoteVirtualNetwork.id")
	}
	for _, f := range []struct {
		attr, member string
		def          bool
	}{
		{"allow_virtual_network_access", "allowVirtualNetworkAccess", true},
		{"allow_forwarded_traffic", "allowForwardedTraffic", false},
		{"allow_gateway_transit", "allowGatewayTransit", false},
		{"use_remote_gateways", "useRemoteGateways", false},
		{"peer_complete_virtual_networks_enabled", "peerCompleteVnets", true},
		{"only_ipv6_peering_enabled", "enableOnlyIPv6Peering", false},
	} {
		v := t.get(f.attr)
		if bv, ok := v.boolp(); ok {
			p[f.member] = bv
		} else if v.unknown() {
			op.Unknown = append(op.Unknown, "properties."+f.member)
		} else {
			p[f.member] = f.def
		}
	}
	if l := t.get("local_subnet_names").strs(); len(l) > 0 {
		p["localSubnetNames"] = anyList(l)
	}
	if l := t.get("remote_subnet_names").strs(); len(l) > 0 {
		p["remoteSubnetNames"] = anyList(l)
	}
	for _, a := range []struct{ attr, member string }{{"local_subnet_names", "localSubnetNames"}, {"remote_subnet_names", "remoteSubnetNames"}} {
		if t.get(a.attr).anyUnknown() {
			op.Unknown = append(op.Unknown, "properties."+a.member)
		}
	}
	return nil
}

func putRouteTable(t *changeTranslation, id string) error {
	b := base(id, typeRT, t, true)
	op := t.op(OpPut, id, b)
	p := props(b)
	if v, ok := t.get("bgp_route_propagation_enabled").boolp(); ok {
		p["disableBgpRoutePropagation"] = !v
	} else if v, ok := t.get("disable_bgp_route_propagation").boolp(); ok {
		p["disableBgpRoutePropagation"] = v
	} else {
		p["disableBgpRoutePropagation"] = false
	}
	return putInline(t, op, id, "route", "routes", putRoute)
}

// putInline puts the child resources an inline block list gives (attr:
// "route" blocks → routes of a route table, "security_rule" blocks →
// securityRules of a security group), each named by its block's name, and
// deletes the children the blocks no longer list. An unset list leaves the
// children alone (they may be stand-alone resources); a list known only
// after apply makes the parent's collection unknown.
func putInline(t *changeTranslation, op *Op, id, attr, collection string, put func(*changeTranslation, string, val)) error {
	if !t.argSet(attr) {
		return nil
	}
	if t.get(attr).unknown() {
		op.Unknown = append(op.Unknown, "properties."+collection)
		return nil
	}
	names := map[string]bool{}
	for i, r := range t.get(attr).list() {
		name := r.at("name").str()
		if name == "" {
			return fmt.Errorf("%s block %d has no name", attr, i)
		}
		names[strings.ToLower(name)] = true
		put(t, id+"/"+collection+"/"+name, r)
	}
	for _, r := range t.ch.before.at(attr).list() {
		if name := r.at("name").str(); name != "" && !names[strings.ToLower(name)] {
			t.op(OpDelete, id+"/"+collection+"/"+name, nil)
		}
	}
	return nil
}

// putRoute puts a user-defined route from an azurerm_route or an inline
// route block.
func putRoute(t *changeTranslation, id string, r val) {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRoute, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	p["addressPrefix"] = r.at("address_prefix").str()
	if r.at("address_prefix").unknown() {
		op.Unknown = append(op.Unknown, "properties.addressPrefix")
	}
	p["nextHopType"] = r.at("next_hop_type").str()
	if r.at("next_hop_type").unknown() {
		op.Unknown = append(op.Unknown, "properties.nextHopType")
	}
	if ip := r.at("next_hop_in_ip_address").str(); ip != "" {
		p["nextHopIpAddress"] = ip
	} else if r.at("next_hop_in_ip_address").unknown() {
		op.Unknown = append(op.Unknown, "properties.nextHopIpAddress")
	}
	p["hasBgpOverride"] = false
}

func putNSG(t *changeTranslation, id string) error {
	b := base(id, typeNSG, t, true)
	op := t.op(OpPut, id, b)
	return putInline(t, op, id, "security_rule", "securityRules", putNSGRule)
}

// putNSGRule puts a security rule from an azurerm_network_security_rule or
// an inline security_rule block.
func putNSGRule(t *changeTranslation, id string, r val) {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeNSGRule, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	for _, f := range []struct{ attr, member string }{
		{"protocol", "protocol"}, {"access", "access"}, {"direction", "direction"}, {"description", "description"},
	} {
		if s := r.at(f.attr).str(); s != "" {
			p[f.member] = s
		} else if r.at(f.attr).unknown() {
			op.Unknown = append(op.Unknown, "properties."+f.member)
		}
	}
	if n, ok := r.at("priority").num(); ok {
		p["priority"] = n
	} else if r.at("priority").unknown() {
		op.Unknown = append(op.Unknown, "properties.priority")
	}
	// One value or a list: ARM has both members; azurerm sets one.
	for _, f := range []struct{ one, many, m1, mN string }{
		{"source_port_range", "source_port_ranges", "sourcePortRange", "sourcePortRanges"},
		{"destination_port_range", "destination_port_ranges", "destinationPortRange", "destinationPortRanges"},
		{"source_address_prefix", "source_address_prefixes", "sourceAddressPrefix", "sourceAddressPrefixes"},
		{"destination_address_prefix", "destination_address_prefixes", "destinationAddressPrefix", "destinationAddressPrefixes"},
	} {
		if s := r.at(f.one).str(); s != "" {
			p[f.m1] = s
		}
		p[f.mN] = anyList(r.at(f.many).strs())
		if r.at(f.one).unknown() {
			op.Unknown = append(op.Unknown, "properties."+f.m1)
		}
		if r.at(f.many).anyUnknown() {
			op.Unknown = append(op.Unknown, "properties."+f.mN)
		}
	}
	for _, f := range []struct{ attr, member string }{
		{"source_application_security_group_ids", "sourceApplicationSecurityGroups"},
		{"destination_application_security_group_ids", "destinationApplicationSecurityGroups"},
	} {
		var l []any
		for _, s := range r.at(f.attr).strs() {
			l = append(l, ref(s))
		}
		if len(l) > 0 {
			p[f.member] = l
		}
		if r.at(f.attr).anyUnknown() {
			op.Unknown = append(op.Unknown, "properties."+f.member)
		}
	}
}

func putNATGateway(t *changeTranslation, id string) error {
	b := base(id, typeNAT, t, true)
	op := t.op(OpPut, id, b)
	b["sku"] = map[string]any{"name": firstNonEmpty(t.get("sku_name").str(), "Standard")}
	p := props(b)
	if n, ok := t.get("idle_timeout_in_minutes").num(); ok {
		p["idleTimeoutInMinutes"] = n
	}
	if z := t.get("zones").strs(); len(z) > 0 {
		b["zones"] = anyList(z)
	}
	// The gateway's addresses are set by association resources: keep what
	// Azure has unless the plan associates them (patchNATAddresses).
	_ = op
	return nil
}

// patchNATAddresses sets a NAT gateway's public IP addresses to those the
// plan's azurerm_nat_gateway_public_ip_association resources give it after
// apply (all of them: Terraform's state lists every association it
// manages), leaving out the association being deleted.
func patchNATAddresses(t *changeTranslation, natID, deleting string) error {
	var list []any
	unknown := false
	for _, addr := range sortedAddrs(t.c.byAddr) {
		ch := t.c.byAddr[addr]
		if ch.rc.Type != "azurerm_nat_gateway_public_ip_association" || addr == deleting || ch.rc.Change.Actions.Delete() {
			continue
		}
		at := t.c.newT(ch, ch.after)
		gw, ok := at.refID("nat_gateway_id")
		if !ok || !strings.EqualFold(gw, natID) {
			continue
		}
		if ip, ok := at.refID("public_ip_address_id"); ok {
			list = append(list, ref(ip))
		} else {
			unknown = true
		}
	}
	if list == nil {
		list = []any{}
	}
	op := t.op(OpPatch, natID, map[string]any{"properties": map[string]any{"publicIpAddresses": list}})
	if unknown {
		op.Unknown = append(op.Unknown, "properties.publicIpAddresses")
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// dropNulls removes null members (a put has nothing to remove).
func dropNulls(m map[string]any) {
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
}

// subnetAssociation is the translator of an association that sets the
// subnet's member (routeTable, networkSecurityGroup, natGateway) to the
// resource attr names.
func subnetAssociation(member, attr string) translator {
	return translator{
		idFromArgs: true,
		id:         idFromRef("subnet_id"),
		put: func(t *changeTranslation, id string) error {
			props := map[string]any{}
			op := t.op(OpPatch, id, map[string]any{"properties": props})
			if target, ok := t.refID(attr); ok {
				props[member] = ref(target)
			} else {
				props[member] = map[string]any{}
				op.Unknown = append(op.Unknown, "properties."+member+".id")
			}
			return nil
		},
		del: func(t *changeTranslation, id string) error {
			t.op(OpPatch, id, map[string]any{"properties": map[string]any{member: nil}})
			return nil
		},
	}
}

// idFromRef is the id the reference attr holds (an association's target).
func idFromRef(attr string) func(t *changeTranslation) (string, error) {
	return func(t *changeTranslation) (string, error) { return t.requiredRef(attr) }
}

// idInRG is the id of a child resource named by the parent's name
// attribute and its own, in resource_group_name.
func idInRG(typ, parentAttr, nameAttr string) func(t *changeTranslation) (string, error) {
	return func(t *changeTranslation) (string, error) { return t.rgID(typ, parentAttr, nameAttr) }
}

func putVNetDNSServers(t *changeTranslation, id string) error {
	op := t.op(OpPatch, id, map[string]any{"properties": map[string]any{"dhcpOptions": map[string]any{"dnsServers": anyList(t.get("dns_servers").strs())}}})
	if t.get("dns_servers").anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.dhcpOptions.dnsServers")
	}
	return nil
}

// delVNetDNSServers: deleting the resource clears the VNet's DNS servers
// (Azure DNS).
func delVNetDNSServers(t *changeTranslation, id string) error {
	t.op(OpPatch, id, map[string]any{"properties": map[string]any{"dhcpOptions": map[string]any{"dnsServers": []any{}}}})
	return nil
}

func putRouteChange(t *changeTranslation, id string) error {
	putRoute(t, id, t.cur)
	return nil
}

func putNSGRuleChange(t *changeTranslation, id string) error {
	putNSGRule(t, id, t.cur)
	return nil
}

func putNATAssociation(t *changeTranslation, id string) error { return patchNATAddresses(t, id, "") }

func delNATAssociation(t *changeTranslation, id string) error {
	return patchNATAddresses(t, id, t.ch.rc.Address)
}
