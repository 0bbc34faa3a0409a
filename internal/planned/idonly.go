package planned

// Ids of resources the plan creates whose changes are not translated.
//
// A translated change may reference a resource the same plan creates
// whose type is not translated: a rule collection group of a firewall
// policy created beside it, a role assignment on a new identity, a NIC's
// public IP. Its id is known only after apply, but it is built from the
// names as ARM builds it, so the reference resolves (idOfAddress). The
// change of such a resource itself is still reported as not translated.
//
// Each entry is the ARM resource type of a resource named by name in
// resource_group_name (learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules
// gives the types; the id shape is
// /subscriptions/{s}/resourceGroups/{rg}/providers/{namespace}/{type}/{name}).
var idOnlyTypes = map[string]string{
	"azurerm_public_ip":                          "Microsoft.Network/publicIPAddresses",
	"azurerm_public_ip_prefix":                   "Microsoft.Network/publicIPPrefixes",
	"azurerm_network_interface":                  "Microsoft.Network/networkInterfaces",
	"azurerm_ip_group":                           "Microsoft.Network/ipGroups",
	"azurerm_application_security_group":         "Microsoft.Network/applicationSecurityGroups",
	"azurerm_virtual_network_gateway":            "Microsoft.Network/virtualNetworkGateways",
	"azurerm_local_network_gateway":              "Microsoft.Network/localNetworkGateways",
	"azurerm_virtual_network_gateway_connection": "Microsoft.Network/connections",
	"azurerm_route_server":                       "Microsoft.Network/virtualHubs",
	"azurerm_virtual_wan":                        "Microsoft.Network/virtualWans",
	"azurerm_bastion_host":                       "Microsoft.Network/bastionHosts",
	"azurerm_network_watcher":                    "Microsoft.Network/networkWatchers",
	"azurerm_network_ddos_protection_plan":       "Microsoft.Network/ddosProtectionPlans",
	"azurerm_user_assigned_identity":             "Microsoft.ManagedIdentity/userAssignedIdentities",
	"azurerm_linux_virtual_machine":              "Microsoft.Compute/virtualMachines",
	"azurerm_windows_virtual_machine":            "Microsoft.Compute/virtualMachines",
	"azurerm_virtual_machine":                    "Microsoft.Compute/virtualMachines",
	"azurerm_key_vault":                          "Microsoft.KeyVault/vaults",
	"azurerm_log_analytics_workspace":            "Microsoft.OperationalInsights/workspaces",
	"azurerm_storage_account":                    "Microsoft.Storage/storageAccounts",
}

// idOnly is the translator of a type the plan may reference whose ARM id
// can be built but whose changes are not translated: it builds the id only.
func idOnly(typ string) (translator, bool) {
	if typ == "azurerm_resource_group" {
		return translator{id: resourceGroupID}, true
	}
	if armType, ok := idOnlyTypes[typ]; ok {
		return translator{id: idByName(armType)}, true
	}
	return translator{}, false
}

// resourceGroupID is /subscriptions/{s}/resourceGroups/{name}.
func resourceGroupID(t *changeTranslation) (string, error) {
	name, err := t.name("name")
	if err != nil {
		return "", err
	}
	sub, err := t.c.subscriptionFor(t.ch)
	if err != nil {
		return "", err
	}
	return "/subscriptions/" + sub + "/resourceGroups/" + name, nil
}
