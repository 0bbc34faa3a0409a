package planned

import "fmt"

// Network interfaces and public IP addresses, in the shape of the
// Microsoft.Network REST API that internal/gather reads (convert_network.go:
// a NIC's IP forwarding, DNS servers, IP configurations and security
// group; convert_egress.go: a public IP's address).

const (
	typeNIC      = "Microsoft.Network/networkInterfaces"
	typePublicIP = "Microsoft.Network/publicIPAddresses"
)

// putNIC: a new NIC is put; an update patches what azurerm_network_interface
// manages and keeps the security group an association resource sets.
func putNIC(t *changeTranslation, id string) error {
	b := base(id, typeNIC, t, true)
	kind := OpPut
	if t.ch.rc.Change.Actions.Update() {
		kind = OpPatch
	}
	op := t.op(kind, id, b)
	p := props(b)
	// v4 ip_forwarding_enabled, v3 enable_ip_forwarding (default false;
	// azurerm 3.x plans both, and keeps them equal): one known form gives
	// the setting, whatever the other one is.
	fwd, known, unknown := false, false, false
	for _, a := range []string{"ip_forwarding_enabled", "enable_ip_forwarding"} {
		if v, ok := t.get(a).boolp(); ok {
			fwd, known = fwd || v, true
		} else if t.get(a).unknown() {
			unknown = true
		}
	}
	if unknown && !known {
		op.Unknown = append(op.Unknown, "properties.enableIPForwarding")
	}
	p["enableIPForwarding"] = fwd
	dns := t.get("dns_servers")
	p["dnsSettings"] = map[string]any{"dnsServers": anyList(dns.strs())}
	if dns.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.dnsSettings.dnsServers")
	}
	cfgs := []any{}
	for i, c := range t.get("ip_configuration").list() {
		name := c.at("name").str()
		if name == "" {
			return fmt.Errorf("ip_configuration block %d has no name", i)
		}
		cp := map[string]any{"privateIPAllocationMethod": firstNonEmpty(c.at("private_ip_address_allocation").str(), "Dynamic")}
		ct := t.sub("ip_configuration", i)
		if sid, ok := ct.refID("subnet_id"); ok {
			cp["subnet"] = ref(sid)
		} else if c.at("subnet_id").unknown() {
			op.Unknown = append(op.Unknown, "properties.ipConfigurations.subnet.id")
		}
		if ip := c.at("private_ip_address").str(); ip != "" {
			cp["privateIPAddress"] = ip
		} else {
			// Dynamic: Azure assigns it at apply.
			op.Unknown = append(op.Unknown, "properties.ipConfigurations.privateIPAddress")
		}
		if pip, ok := ct.refID("public_ip_address_id"); ok {
			cp["publicIPAddress"] = ref(pip)
		} else if c.at("public_ip_address_id").unknown() {
			op.Unknown = append(op.Unknown, "properties.ipConfigurations.publicIPAddress.id")
		}
		if pr, ok := c.at("primary").boolp(); ok {
			cp["primary"] = pr
		} else {
			cp["primary"] = i == 0
		}
		cfgs = append(cfgs, map[string]any{"id": id + "/ipConfigurations/" + name, "name": name, "properties": cp})
	}
	if t.get("ip_configuration").anyUnknown() && len(cfgs) == 0 {
		op.Unknown = append(op.Unknown, "properties.ipConfigurations")
	}
	p["ipConfigurations"] = cfgs
	return nil
}

func putPublicIP(t *changeTranslation, id string) error {
	b := base(id, typePublicIP, t, true)
	op := t.op(OpPut, id, b)
	sku := firstNonEmpty(t.get("sku").str(), "Standard")
	b["sku"] = map[string]any{"name": sku, "tier": firstNonEmpty(t.get("sku_tier").str(), "Regional")}
	if z := t.get("zones").strs(); len(z) > 0 {
		b["zones"] = anyList(z)
	}
	p := props(b)
	p["publicIPAllocationMethod"] = firstNonEmpty(t.get("allocation_method").str(), "Static")
	p["publicIPAddressVersion"] = firstNonEmpty(t.get("ip_version").str(), "IPv4")
	if ip := t.get("ip_address").str(); ip != "" {
		p["ipAddress"] = ip
	} else {
		// Azure allocates the address at apply.
		op.Unknown = append(op.Unknown, "properties.ipAddress")
	}
	if pfx, ok := t.refID("public_ip_prefix_id"); ok {
		p["publicIPPrefix"] = ref(pfx)
	}
	return nil
}

func putNICNSGAssociation(t *changeTranslation, id string) error {
	props := map[string]any{}
	op := t.op(OpPatch, id, map[string]any{"properties": props})
	if nsg, ok := t.refID("network_security_group_id"); ok {
		props["networkSecurityGroup"] = ref(nsg)
	} else {
		props["networkSecurityGroup"] = map[string]any{}
		op.Unknown = append(op.Unknown, "properties.networkSecurityGroup.id")
	}
	return nil
}

func delNICNSGAssociation(t *changeTranslation, id string) error {
	t.op(OpPatch, id, map[string]any{"properties": map[string]any{"networkSecurityGroup": nil}})
	return nil
}
