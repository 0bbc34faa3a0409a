package planned

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf16"
)

// gapsFixture parses a plan of testdata/gaps (see the README there).
func gapsFixture(t *testing.T, name string) *Plan {
	t.Helper()
	data, err := os.ReadFile("testdata/gaps/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data, Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkOps(t, p)
	return p
}

const gapsSub = "/subscriptions/00000000-0000-0000-0000-000000000001"

// TestV3NICCreateDefaults: an azurerm 3.x NIC create leaves dns_servers and
// both forms of IP forwarding unknown when the configuration does not set
// them; they are Azure's defaults (no DNS servers of its own, forwarding
// off). One known form of forwarding decides, the other one unknown; DNS
// servers the configuration sets are kept.
func TestV3NICCreateDefaults(t *testing.T) {
	p := gapsFixture(t, "plan_v3_nic_create.json")
	nic := func(name string) Op {
		return opFor(t, p, OpPut, gapsSub+"/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/"+name)
	}
	for _, tc := range []struct {
		name string
		fwd  bool
		dns  []any
	}{
		{"nic-nva2", false, []any{}},
		{"nic-nva3", true, []any{}},
		{"nic-dns", false, []any{"10.0.3.4"}},
	} {
		op := nic(tc.name)
		if len(op.Unknown) != 0 {
			t.Errorf("%s: unknown %v, want none", tc.name, op.Unknown)
		}
		want(t, op, map[string]any{"properties.enableIPForwarding": tc.fwd, "properties.dnsSettings.dnsServers": tc.dns,
			"properties.ipConfigurations.#0.properties.privateIPAddress": "10.0.1." + map[string]string{"nic-nva2": "10", "nic-nva3": "11", "nic-dns": "12"}[tc.name]})
	}
	// Both forms unknown and set in the configuration from a value known
	// after apply: unknown.
	p2 := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_network_interface.x", actions: create,
		after:   map[string]any{"name": "nic-x", "resource_group_name": "rg-hub", "ip_configuration": []any{map[string]any{"name": "c", "subnet_id": peSn, "private_ip_address": "10.0.2.9"}}},
		unknown: map[string]any{"id": true, "enable_ip_forwarding": true, "ip_forwarding_enabled": true, "dns_servers": true},
		expr:    map[string]any{"name": constExpr("nic-x"), "enable_ip_forwarding": refExpr("var.forward"), "dns_servers": refExpr("azurerm_firewall.hub")}}}}, Options{})
	op := opFor(t, p2, OpPut, rgHub+"/providers/Microsoft.Network/networkInterfaces/nic-x")
	if !hasUnknown(op, "properties.enableIPForwarding") || !hasUnknown(op, "properties.dnsSettings.dnsServers") {
		t.Errorf("configured values known after apply lost their unknown mark: %v", op.Unknown)
	}
}

// TestAssociationToUnbuildableSubnet: an association to a subnet of this
// plan whose resource group's name is known only after apply says that
// the subnet's id cannot be built, naming the subnet, not that it refers
// to nothing of the plan.
func TestAssociationToUnbuildableSubnet(t *testing.T) {
	p := gapsFixture(t, "plan_association_unknown_rg.json")
	for _, addr := range []string{"azurerm_subnet_route_table_association.app", "azurerm_subnet_network_security_group_association.app"} {
		pr, ok := problemFor(p, addr)
		if !ok {
			t.Fatalf("%s translated:\n%s", addr, opsString(p))
		}
		if !strings.Contains(pr.Reason, "azurerm_subnet.app") || !strings.Contains(pr.Reason, "cannot be built before apply") ||
			!strings.Contains(pr.Reason, "resource_group_name is known only after apply") || strings.Contains(pr.Reason, "no resource of this plan") {
			t.Errorf("%s: reason %q", addr, pr.Reason)
		}
	}
	// A reference to nothing of the plan keeps the other wording.
	p2 := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_subnet_route_table_association.x", actions: create,
		after: map[string]any{"route_table_id": rgHub + "/providers/Microsoft.Network/routeTables/rt"}, unknown: map[string]any{"id": true, "subnet_id": true},
		expr: map[string]any{"subnet_id": refExpr("data.azurerm_subnet.x.id", "data.azurerm_subnet.x")}}}}, Options{})
	if pr, ok := problemFor(p2, "azurerm_subnet_route_table_association.x"); !ok || !strings.Contains(pr.Reason, "refers to no resource of this plan") {
		t.Errorf("reason = %+v", pr)
	}
}

// TestV3ClusterAndRegistryCreateDefaults: azurerm 3.x plans a new
// cluster's network_profile and a new registry's network_rule_set unknown
// when unset; Azure's defaults are an outbound type of loadBalancer and a
// registry open to every network. Set from a value known after apply,
// they stay unknown.
func TestV3ClusterAndRegistryCreateDefaults(t *testing.T) {
	p := gapsFixture(t, "plan_v3_cluster_registry_create.json")
	aks := opFor(t, p, OpPut, gapsSub+"/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks2")
	if hasUnknown(aks, "properties.networkProfile.outboundType") {
		t.Errorf("cluster outbound type unknown: %v", aks.Unknown)
	}
	want(t, aks, map[string]any{"properties.networkProfile.outboundType": "loadBalancer"})
	acr := opFor(t, p, OpPut, gapsSub+"/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg2")
	if hasUnknown(acr, "properties.networkRuleSet") {
		t.Errorf("registry network rules unknown: %v", acr.Unknown)
	}
	want(t, acr, map[string]any{"properties.networkRuleSet.defaultAction": "Allow", "properties.publicNetworkAccess": "Disabled"})

	p2 := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_kubernetes_cluster.x", actions: create,
		after:   map[string]any{"name": "aks-x", "resource_group_name": "rg-spoke", "location": "westeurope", "default_node_pool": []any{map[string]any{"name": "system"}}},
		unknown: map[string]any{"id": true, "network_profile": true},
		expr:    map[string]any{"name": constExpr("aks-x"), "network_profile": []any{map[string]any{"outbound_type": refExpr("var.outbound")}}}}}}, Options{})
	if op := opFor(t, p2, OpPut, rgSpk+"/providers/Microsoft.ContainerService/managedClusters/aks-x"); !hasUnknown(op, "properties.networkProfile.outboundType") {
		t.Errorf("a configured network_profile known after apply lost its unknown mark: %v", op.Unknown)
	}
}

// TestNewHubOfNewVirtualWAN: a hub created with a Virtual WAN of the same
// plan names the WAN's id, built from its names.
func TestNewHubOfNewVirtualWAN(t *testing.T) {
	p := gapsFixture(t, "plan_vwan_new_hub.json")
	hub := opFor(t, p, OpPut, gapsSub+"/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu")
	if hasUnknown(hub, "properties.virtualWan.id") {
		t.Errorf("virtualWan.id unknown: %v", hub.Unknown)
	}
	want(t, hub, map[string]any{"properties.virtualWan.id": gapsSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualWans/vwan-core"})
	if strings.Join(p.Unsupported, ",") != "azurerm_virtual_wan.core" {
		t.Errorf("unsupported = %v: the WAN's own change is still not translated", p.Unsupported)
	}
}

// TestV2SubnetPrefixes: azurerm 2.x plans address_prefix unknown beside a
// known address_prefixes on a create: the prefixes are known; both known
// and equal (an update), the prefix is listed once.
func TestV2SubnetPrefixes(t *testing.T) {
	p := gapsFixture(t, "plan_v2_subnets.json")
	batch := opFor(t, p, OpPut, gapsSub+"/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-batch")
	if hasUnknown(batch, "properties.addressPrefix") || hasUnknown(batch, "properties.addressPrefixes") {
		t.Errorf("prefixes unknown: %v", batch.Unknown)
	}
	want(t, batch, map[string]any{"properties.addressPrefix": "10.1.16.0/24"})
	aks := opFor(t, p, OpPatch, gapsSub+"/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks")
	want(t, aks, map[string]any{"properties.addressPrefix": "10.1.0.0/22", "properties.addressPrefixes": nil})
	// Neither form known: unknown.
	p2 := mustParse(t, planSpec{providerSub: sub1, changes: []rc{{addr: "azurerm_subnet.x", actions: create,
		after:   map[string]any{"name": "snet-x", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke"},
		unknown: map[string]any{"id": true, "address_prefix": true, "address_prefixes": true}, expr: map[string]any{"name": constExpr("snet-x")}}}}, Options{})
	if op := opFor(t, p2, OpPut, spkNet+"/subnets/snet-x"); !hasUnknown(op, "properties.addressPrefix") {
		t.Errorf("unknown prefixes became known: %+v", op)
	}
}

// TestDamagedUTF16HintWritesUTF8: a UTF-16 plan that is damaged (cut
// short) is refused with the command that writes UTF-8 in each shell,
// never with the `>` of Windows PowerShell 5.1 alone, which wrote it.
func TestDamagedUTF16HintWritesUTF8(t *testing.T) {
	src, err := os.ReadFile("testdata/gaps/plan_v3_nic_create.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		enc  func([]byte) []byte
	}{
		{"UTF-16 LE with BOM, cut short", func(b []byte) []byte { return utf16LE(b[:len(b)/2], true) }},
		{"UTF-16 LE without BOM, not JSON", func(b []byte) []byte { return utf16LE(append([]byte("{\"format_version\": 1.2,"), b[1:]...), false) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.enc(src), Options{})
			if err == nil {
				t.Fatal("a damaged plan was read")
			}
			msg := err.Error()
			if !strings.Contains(msg, "Out-File -Encoding utf8") || !strings.Contains(msg, "PowerShell 7") || strings.Contains(msg, showHint) || !strings.Contains(msg, "UTF-16 LE") {
				t.Errorf("hint: %s", msg)
			}
		})
	}
	// A damaged UTF-8 file keeps the plain hint.
	if _, err := Parse(src[:len(src)/2], Options{}); err == nil || !strings.Contains(err.Error(), showHint) {
		t.Errorf("UTF-8 hint: %v", err)
	}
}

func utf16LE(b []byte, bom bool) []byte {
	var out bytes.Buffer
	if bom {
		out.Write([]byte{0xff, 0xfe})
	}
	for _, u := range utf16.Encode([]rune(string(b))) {
		out.WriteByte(byte(u))
		out.WriteByte(byte(u >> 8))
	}
	return out.Bytes()
}

// TestErroredEmptyAndRefreshOnlyPlans: a plan Terraform or OpenTofu
// marked "errored" is refused, naming the cause; a plan without changes
// and a refresh-only plan are read and say so (Mode); a plan with changes
// has ModeChanges.
func TestErroredEmptyAndRefreshOnlyPlans(t *testing.T) {
	data, err := os.ReadFile("testdata/gaps/plan_errored.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(data, Options{})
	if err == nil || !strings.Contains(err.Error(), `"errored": true`) || !strings.Contains(err.Error(), "Terraform or OpenTofu 1.10.2") || !strings.Contains(err.Error(), "plan again") {
		t.Errorf("errored plan: %v", err)
	}
	// The same plan without the mark is read.
	if p, err := Parse(bytes.Replace(data, []byte(`"errored": true`), []byte(`"errored": false`), 1), Options{}); err != nil || p.Mode != ModeChanges {
		t.Errorf("plan not errored: %v, mode %q", err, p.Mode)
	}
	for file, mode := range map[string]Mode{"plan_empty.json": ModeEmpty, "plan_refresh_only.json": ModeRefreshOnly, "plan_v3_nic_create.json": ModeChanges} {
		if p := gapsFixture(t, file); p.Mode != mode {
			t.Errorf("%s: mode %q, want %q", file, p.Mode, mode)
		}
	}
	// plan_mode, when the file has it, says refresh-only too.
	ro := bytes.Replace(mustRead(t, "testdata/gaps/plan_empty.json"), []byte(`"format_version": "1.2",`), []byte(`"format_version": "1.2", "plan_mode": "refresh-only",`), 1)
	if p, err := Parse(ro, Options{}); err != nil || p.Mode != ModeRefreshOnly {
		t.Errorf("plan_mode refresh-only: %v, %q", err, p.Mode)
	}
}

func mustRead(t *testing.T, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUnnamedZoneCarriesItsLinkVNet: a zone named from another new
// resource's output is an unnamed create, and so is its link; the link
// says which VNet it links (a new VNet of the plan, its id built from its
// names), so that what the zone can answer is known.
func TestUnnamedZoneCarriesItsLinkVNet(t *testing.T) {
	p := gapsFixture(t, "plan_unnamed_zone.json")
	zone := gapsSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/privateDnsZones/" + NameUnknown
	opFor(t, p, OpCreateUnnamed, zone)
	link := opFor(t, p, OpCreateUnnamed, zone+"/virtualNetworkLinks/link-apps")
	want(t, link, map[string]any{"properties.virtualNetwork.id": gapsSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-apps"})
}
