package planned

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseRefusesWhatIsNotAPlan: every kind of wrong file gets a message
// that says what it looks like and how to make a plan JSON.
func TestParseRefusesWhatIsNotAPlan(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"empty", "", []string{"the file is empty", "terraform show -json tfplan > plan.json"}},
		{"blank", " \n\t\n", []string{"the file is empty"}},
		{"plan binary", "PK\x03\x04\x14\x00\x08\x00tfplan", []string{"saved plan file", "binary of `terraform plan -out`", "terraform show -json"}},
		{"other binary", "\x00\x01\x02\x03\x89PNG\r\n", []string{"binary, not JSON text"}},
		{"state file", `{"version":4,"terraform_version":"1.9.8","serial":12,"lineage":"0a1b","outputs":{},"resources":[]}`,
			[]string{"state file", "lineage/serial", "terraform show -json tfplan"}},
		{"state JSON", `{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{}}}`,
			[]string{"JSON of a state", "without a plan file"}},
		{"HCL", "resource \"azurerm_subnet\" \"aks\" {\n  name = \"snet-aks\"\n}\n", []string{"Terraform configuration (HCL)"}},
		{"HCL comment", "# network\nterraform {\n}\n", []string{"Terraform configuration (HCL)"}},
		{"human plan", "Terraform used the selected providers to generate the following execution plan.\n  # azurerm_subnet.aks will be created\nPlan: 1 to add, 0 to change, 0 to destroy.\n",
			[]string{"text output of `terraform plan`"}},
		{"array", `[{"format_version":"1.2"}]`, []string{"JSON array"}},
		{"syntax error", "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [\n    {\"address\": \"a\",}\n  ]\n}",
			[]string{"JSON syntax error at line 4, column 21", "invalid character '}'"}},
		{"truncated", "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [", []string{"ends early at line 3", "truncated"}},
		{"machine log", `{"@level":"info","@message":"Terraform 1.9.8","type":"version"}` + "\n" + `{"@level":"info","@message":"Plan: 1 to add","type":"change_summary"}`,
			[]string{"machine-readable log of `terraform plan -json`"}},
		{"no version", `{"resource_changes":[]}`, []string{"format_version is missing"}},
		{"neither", `{"hello":"world"}`, []string{"neither format_version nor resource_changes"}},
		{"schemas", `{"format_version":"1.0","provider_schemas":{}}`, []string{"terraform providers schema -json"}},
		{"version not a string", `{"format_version":1.2,"resource_changes":[]}`, []string{"format_version is 1.2, not a version string"}},
		{"version garbage", `{"format_version":"one","resource_changes":[]}`, []string{`format_version "one" is not a version`}},
		{"too old", `{"format_version":"0.1","terraform_version":"0.13.7","resource_changes":[]}`,
			[]string{"format_version 0.1 is the JSON plan format of Terraform 0.12 to 0.15.3", "written by Terraform 0.13.7", "plan with Terraform 1.0 or later"}},
		{"too old, no CLI version", `{"format_version":"0.1","resource_changes":[]}`,
			[]string{"format_version 0.1", "Terraform 1.0 or later"}},
		{"too new", `{"format_version":"2.0","terraform_version":"2.0.0","resource_changes":[]}`,
			[]string{"format_version 2.0 is newer than the formats", "written by Terraform 2.0.0", "1.x"}},
		{"wrong types", `{"format_version":"1.2","resource_changes":{"a":1}}`, []string{"not a valid plan JSON"}},
		{"two values", `{"format_version":"1.2"} {"format_version":"1.2"}`, []string{"more than one JSON value"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse([]byte(tc.input), Options{})
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", p)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestParseAcceptsPlans: a plan without changes, of format 0.2 (Terraform
// 1.0) and every 1.x format version, and one with a UTF-8 byte order mark,
// is a plan.
func TestParseAcceptsPlans(t *testing.T) {
	for _, in := range []string{
		`{"format_version":"0.2","terraform_version":"1.0.11","planned_values":{"root_module":{}},"resource_changes":[]}`,
		`{"format_version":"1.0","terraform_version":"1.0.11","planned_values":{"root_module":{}}}`,
		`{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[]}`,
		"\xef\xbb\xbf" + `{"format_version":"1.1","terraform_version":"1.6.0","resource_changes":[]}`,
		`{"format_version":"1.2","terraform_version":"1.8.5","planned_values":{},"configuration":{}}`,
	} {
		p, err := Parse([]byte(in), Options{})
		if err != nil {
			t.Errorf("Parse(%s): %v", in, err)
			continue
		}
		if len(p.Ops) != 0 || len(p.Unsupported) != 0 || len(p.Untranslatable) != 0 {
			t.Errorf("Parse(%s) = %+v, want no changes", in, p)
		}
		if p.FormatVersion == "" || p.TerraformVersion == "" {
			t.Errorf("Parse(%s) lost the versions: %+v", in, p)
		}
	}
}

func TestParseFileNamesTheFile(t *testing.T) {
	_, err := ParseFile("ci/plan.json", []byte("resource \"x\" \"y\" {}"), Options{})
	if err == nil || !strings.Contains(err.Error(), "planned changes file ci/plan.json:") || !strings.Contains(err.Error(), "HCL") {
		t.Errorf("ParseFile error = %v", err)
	}
	if err := ReadError("ci/plan.json", os.ErrNotExist); !strings.Contains(err.Error(), "ci/plan.json cannot be read") {
		t.Errorf("ReadError = %v", err)
	}
	big := make([]byte, MaxPlanSize+1)
	if _, err := ParseFile("big.json", big, Options{}); err == nil || !strings.Contains(err.Error(), "larger than any plan JSON") {
		t.Errorf("ParseFile(big) = %v", err)
	}
}

// TestFixtures: the complete plans of testdata (each scenario plan is a
// change to the baseline_ok topology of the provider's scenarios) give
// exactly these ops, and nothing is left untranslated.
func TestFixtures(t *testing.T) {
	const s = "/subscriptions/00000000-0000-0000-0000-000000000001"
	want := map[string]struct {
		ops         []string // "address kind id [unknown…]", the id without its subscription
		unsupported string
	}{
		"scenario_zone_link_deleted.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke delete /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []"}},
		// The same change as Terraform 1.0 (format 0.2), Windows PowerShell
		// `>` (UTF-16 LE, BOM, CRLF) and `Out-File -Encoding UTF8` (UTF-8
		// with BOM) write it.
		"plan_format_0_2.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke delete /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []"}},
		"plan_utf16le_bom.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke delete /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []"}},
		"plan_utf8_bom.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke delete /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []"}},
		"scenario_peering_access_disabled.json": {ops: []string{
			"azurerm_virtual_network_peering.spoke_to_hub put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/virtualNetworkPeerings/spoke-to-hub []"}},
		"scenario_record_repointed.json": {ops: []string{
			"azurerm_private_dns_a_record.registry put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/A/contosoreg []"}},
		"scenario_udr_blackhole_pe.json": {ops: []string{
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks []",
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks/routes/quarantine-pe []",
			"azurerm_subnet_route_table_association.aks patch /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks []",
			"azurerm_subnet.pe patch /resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub/subnets/snet-pe []"}},
		"scenario_firewall_rule_changed.json": {ops: []string{
			"azurerm_firewall_policy_rule_collection_group.aks put /resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-hub/ruleCollectionGroups/DefaultApplicationRuleCollectionGroup []"}},
		"scenario_value_unknown.json": {ops: []string{
			"azurerm_private_dns_a_record.registry put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/A/contosoreg [properties.aRecords]",
			"azurerm_network_interface.probe put /resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-probe [properties.ipConfigurations.privateIPAddress]"}},
		"scenario_unrelated.json": {},
		"plan_v4_network.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke delete /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []",
			"azurerm_virtual_network_peering.spoke_to_hub put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/virtualNetworkPeerings/spoke-to-hub []",
			"azurerm_private_dns_a_record.registry put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/A/contosoreg []",
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks []",
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks/routes/to-hub []",
			"azurerm_subnet_route_table_association.aks patch /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks []",
			"azurerm_firewall_policy_rule_collection_group.aks put /resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwp-hub/ruleCollectionGroups/rcg-aks []",
			"azapi_resource.link_spoke2 put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke2 []",
			"azapi_update_resource.pe_policies patch /resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub/subnets/snet-pe []"}},
		// A replacement in place (replace_paths address_prefixes) and one
		// under a new name (replace_paths name): the old name is deleted.
		"plan_replace_paths.json": {ops: []string{
			"azurerm_subnet.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks []",
			"azurerm_route_table.aks delete /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks []",
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks-v2 []",
			"azurerm_route_table.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks-v2/routes/to-hub []"}},
		// resource_drift is Azure as it is: only the recreated link.
		"plan_resource_drift.json": {ops: []string{
			"azurerm_private_dns_zone_virtual_network_link.spoke put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []"}},
		// Memberships: each association edits its endpoint's groups.
		"plan_pe_asg_association.json": {ops: []string{
			"azurerm_private_endpoint_application_security_group_association.add patch /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr []",
			"azurerm_private_endpoint_application_security_group_association.gone patch /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-kv []",
			"azurerm_private_endpoint_application_security_group_association.moved patch /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-blob []",
			"azurerm_private_endpoint_application_security_group_association.moved patch /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-blob []",
			"azurerm_private_endpoint_application_security_group_association.later patch /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-kv [properties.applicationSecurityGroups]"}},
		"plan_network_manager.json": {ops: []string{
			"azurerm_network_manager_security_admin_configuration.cfg put /resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm-platform/securityAdminConfigurations/cfg-baseline []",
			"azurerm_network_manager_admin_rule_collection.rc put /resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm-platform/securityAdminConfigurations/cfg-baseline/ruleCollections/rc-registry []",
			"azurerm_network_manager_admin_rule.deny put /resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm-platform/securityAdminConfigurations/cfg-baseline/ruleCollections/rc-registry/rules/DenyLateralHttps []",
			"azurerm_network_manager_admin_rule.later put /resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm-platform/securityAdminConfigurations/cfg-baseline/ruleCollections/rc-registry/rules/AllowLater [properties.destinationPortRanges properties.priority]"}},
		"plan_v3_landing_zone.json": {ops: []string{
			"module.lz.azurerm_virtual_network.spoke put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke []",
			"module.lz.azurerm_virtual_network.spoke put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks []",
			"module.lz.azurerm_network_security_group.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks []",
			"module.lz.azurerm_network_security_group.aks put /resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks/securityRules/allow-acr-pe []",
			"module.lz.azurerm_virtual_network_peering.spoke_to_hub put /resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/virtualNetworkPeerings/spoke-to-hub []",
			"module.lz.azurerm_virtual_network_peering.hub_to_spoke put /resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub/virtualNetworkPeerings/hub-to-spoke []",
			"module.lz.azurerm_private_dns_zone_virtual_network_link.spoke put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke []",
			"module.lz.azurerm_private_endpoint.acr put /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr [properties.customDnsConfigs properties.networkInterfaces]",
			"module.lz.azurerm_private_endpoint.acr put /resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr/privateDnsZoneGroups/default [properties.privateDnsZoneConfigs.properties.recordSets]",
			"module.lz.azurerm_private_endpoint.acr put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/A/contosoreg [properties.aRecords]",
			"module.lz.azurerm_private_endpoint.acr put /resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/A/contosoreg.westeurope.data [properties.aRecords]",
			"module.lz.azurerm_kubernetes_cluster.aks put /resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1 []",
			"module.lz.azurerm_kubernetes_cluster.aks put /resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools/system []",
			"module.lz.azurerm_role_assignment.acrpull put /resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg/providers/Microsoft.Authorization/roleAssignments/705ed1f0-e606-e7a6-1740-ef6ba739745e []"}},
	}
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) != len(want) {
		t.Errorf("testdata has %d plans, the test knows %d: add the new one's expectation", len(files), len(want))
	}
	for _, f := range files {
		w, ok := want[filepath.Base(f)]
		if !ok {
			t.Errorf("%s: no expectation", f)
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(data, Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkOps(t, p)
		var got []string
		for _, op := range p.Ops {
			got = append(got, fmt.Sprintf("%s %s %s %v", op.Address, op.Kind, strings.TrimPrefix(op.ID, s), op.Unknown))
		}
		if strings.Join(got, "\n") != strings.Join(w.ops, "\n") {
			t.Errorf("%s ops:\n%s\nwant:\n%s", f, strings.Join(got, "\n"), strings.Join(w.ops, "\n"))
		}
		if u := strings.Join(p.Unsupported, ","); u != w.unsupported {
			t.Errorf("%s unsupported = %q, want %q", f, u, w.unsupported)
		}
		if len(p.Untranslatable) != 0 {
			t.Errorf("%s untranslatable: %v", f, p.Untranslatable)
		}
	}
}
