package planned

import "testing"

// TestNICsAndPublicIPs: a NIC's forwarding flag (v3 and v4 names), DNS
// servers and IP configurations; an address Azure assigns at apply is
// unknown, a static one is known; a public IP's address is unknown until
// apply unless the plan shows it.
func TestNICsAndPublicIPs(t *testing.T) {
	nicID := rgHub + "/providers/Microsoft.Network/networkInterfaces/nic-nva"
	for _, tc := range []struct {
		name        string
		fwdAttr     string
		ip          string
		wantUnknown bool
	}{
		{"v4, static address", "ip_forwarding_enabled", "10.0.4.4", false},
		{"v3, static address", "enable_ip_forwarding", "10.0.4.4", false},
		{"dynamic address", "ip_forwarding_enabled", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ipc := map[string]any{"name": "ipconfig1", "subnet_id": peSn, "private_ip_address_allocation": "Static", "private_ip_address": tc.ip}
			unknown := map[string]any{"id": true}
			if tc.ip == "" {
				ipc["private_ip_address_allocation"] = "Dynamic"
				delete(ipc, "private_ip_address")
				unknown["ip_configuration"] = []any{map[string]any{"private_ip_address": true}}
			}
			p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_network_interface.nva", actions: create,
				after: map[string]any{"name": "nic-nva", "resource_group_name": "rg-hub", "location": "westeurope", tc.fwdAttr: true,
					"dns_servers": []any{"10.0.3.4"}, "ip_configuration": []any{ipc}},
				unknown: unknown, expr: map[string]any{"name": constExpr("nic-nva")}}}}, Options{})
			checkOps(t, p)
			op := opFor(t, p, OpPut, nicID)
			want(t, op, map[string]any{"properties.enableIPForwarding": true, "properties.dnsSettings.dnsServers": []any{"10.0.3.4"},
				"properties.ipConfigurations.#0.properties.subnet.id": peSn, "properties.ipConfigurations.#0.id": nicID + "/ipConfigurations/ipconfig1"})
			if got := hasUnknown(op, "properties.ipConfigurations.privateIPAddress"); got != tc.wantUnknown {
				t.Errorf("address unknown = %v, want %v", got, tc.wantUnknown)
			}
		})
	}
	pipID := rgHub + "/providers/Microsoft.Network/publicIPAddresses/pip-egress"
	p := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_public_ip.egress", actions: create,
		after:   map[string]any{"name": "pip-egress", "resource_group_name": "rg-hub", "location": "westeurope", "allocation_method": "Static", "sku": "Standard"},
		unknown: map[string]any{"id": true, "ip_address": true}, expr: map[string]any{}}}}, Options{})
	if op := opFor(t, p, OpPut, pipID); !hasUnknown(op, "properties.ipAddress") {
		t.Errorf("a new public IP's address is known: %+v", op)
	}
	p = mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_public_ip.egress", actions: update,
		before: map[string]any{"id": pipID}, after: map[string]any{"id": pipID, "name": "pip-egress", "resource_group_name": "rg-hub", "ip_address": "20.1.2.3", "tags": map[string]any{"a": "b"}},
		expr: map[string]any{}}}}, Options{})
	if op := opFor(t, p, OpPut, pipID); len(op.Unknown) != 0 {
		t.Errorf("an existing public IP's address is unknown: %v", op.Unknown)
	} else {
		want(t, op, map[string]any{"properties.ipAddress": "20.1.2.3", "sku.name": "Standard"})
	}
}
