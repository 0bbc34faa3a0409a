// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

// translators are the translated types, by Terraform resource type: the
// one table of what planned_changes_file understands. Each entry builds the
// ARM id of the resource a change manages and its ops (in the file of its
// family: network.go, nic.go, dns.go, firewall*.go, vwan.go, netmanager.go,
// other.go, azapi.go).
// docs/guides/what-if.md lists exactly these types
// (TestGuideListsTranslatedTypes). Types whose ids references resolve to
// but whose changes are not translated are idOnlyTypes (idonly.go).
//
// It is filled in init, not in its declaration, because translating a
// change resolves references to other changes through this table.
var translators map[string]translator

func init() {
	translators = map[string]translator{
		// Networks (network.go).
		"azurerm_virtual_network":                           {id: idByName(typeVNet), put: putVNet, del: delWithChildren},
		"azurerm_subnet":                                    {id: subnetID, put: putSubnet},
		"azurerm_subnet_route_table_association":            subnetAssociation("routeTable", "route_table_id"),
		"azurerm_subnet_network_security_group_association": subnetAssociation("networkSecurityGroup", "network_security_group_id"),
		"azurerm_subnet_nat_gateway_association":            subnetAssociation("natGateway", "nat_gateway_id"),
		"azurerm_virtual_network_peering":                   {id: peeringID, put: putPeering},
		"azurerm_virtual_network_dns_servers":               {idFromArgs: true, id: idFromRef("virtual_network_id"), put: putVNetDNSServers, del: delVNetDNSServers},
		"azurerm_route_table":                               {id: idByName(typeRT), put: putRouteTable, del: delWithChildren},
		"azurerm_route":                                     {id: idInRG(typeRoute, "route_table_name", "name"), put: putRouteChange},
		"azurerm_network_security_group":                    {id: idByName(typeNSG), put: putNSG, del: delWithChildren},
		"azurerm_network_security_rule":                     {id: idInRG(typeNSGRule, "network_security_group_name", "name"), put: putNSGRuleChange},
		"azurerm_nat_gateway":                               {id: idByName(typeNAT), put: putNATGateway},
		"azurerm_nat_gateway_public_ip_association":         {idFromArgs: true, id: idFromRef("nat_gateway_id"), put: putNATAssociation, del: delNATAssociation},

		// Network interfaces and public IPs (nic.go).
		"azurerm_network_interface":                            {id: idByName(typeNIC), put: putNIC},
		"azurerm_network_interface_security_group_association": {idFromArgs: true, id: idFromRef("network_interface_id"), put: putNICNSGAssociation, del: delNICNSGAssociation},
		"azurerm_public_ip":                                    {id: idByName(typePublicIP), put: putPublicIP},

		// Private DNS, resolvers and private endpoints (dns.go).
		"azurerm_private_dns_zone":                                        {id: idByName(typeZone), put: putZone, del: delWithChildren},
		"azurerm_private_dns_zone_virtual_network_link":                   {id: zoneLinkID, put: putZoneLink},
		"azurerm_private_dns_a_record":                                    {id: recordID("A"), put: putRecord("A")},
		"azurerm_private_dns_aaaa_record":                                 {id: recordID("AAAA"), put: putRecord("AAAA")},
		"azurerm_private_dns_cname_record":                                {id: recordID("CNAME"), put: putRecord("CNAME")},
		"azurerm_private_dns_resolver":                                    {id: idByName(typeResolver), put: putResolver, del: delWithChildren},
		"azurerm_private_dns_resolver_inbound_endpoint":                   {id: childOf("private_dns_resolver_id", "inboundEndpoints"), put: putInbound, del: delWithChildren},
		"azurerm_private_dns_resolver_outbound_endpoint":                  {id: childOf("private_dns_resolver_id", "outboundEndpoints"), put: putOutbound, del: delWithChildren},
		"azurerm_private_dns_resolver_dns_forwarding_ruleset":             {id: idByName(typeRuleset), put: putRuleset, del: delWithChildren},
		"azurerm_private_dns_resolver_forwarding_rule":                    {id: childOf("dns_forwarding_ruleset_id", "forwardingRules"), put: putForwardingRule},
		"azurerm_private_dns_resolver_virtual_network_link":               {id: childOf("dns_forwarding_ruleset_id", "virtualNetworkLinks"), put: putRulesetLink},
		"azurerm_private_endpoint":                                        {id: idByName(typePE), put: putPrivateEndpoint, del: delPrivateEndpoint},
		"azurerm_private_endpoint_application_security_group_association": {idFromArgs: true, id: idFromRef("private_endpoint_id"), put: putPEASGAssociation, del: delPEASGAssociation},

		// Azure Firewall (firewall_resources.go, firewall.go, firewall_classic.go).
		"azurerm_firewall":                              {id: idByName(typeFirewall), put: putAzureFirewall},
		"azurerm_firewall_policy":                       {id: idByName(typeFirewallPolicy), put: putFirewallPolicy},
		"azurerm_firewall_policy_rule_collection_group": {id: childOf("firewall_policy_id", "ruleCollectionGroups"), put: putRuleCollectionGroup},
		"azurerm_firewall_network_rule_collection":      classicCollection(classicKind{"networkRuleCollections", "network"}),
		"azurerm_firewall_application_rule_collection":  classicCollection(classicKind{"applicationRuleCollections", "application"}),
		"azurerm_firewall_nat_rule_collection":          classicCollection(classicKind{"natRuleCollections", "nat"}),

		// Virtual WAN hubs, their connections, route tables and routing intent (vwan.go).
		"azurerm_virtual_hub":                   {id: idByName(typeVirtualHub), put: putVirtualHub, del: delWithChildren},
		"azurerm_virtual_hub_connection":        {id: childOf("virtual_hub_id", "hubVirtualNetworkConnections"), put: putHubConnection},
		"azurerm_virtual_hub_route_table":       {id: childOf("virtual_hub_id", "hubRouteTables"), put: putHubRouteTable},
		"azurerm_virtual_hub_route_table_route": {id: hubRouteTableRouteID, put: putHubRouteTableRoute},
		"azurerm_virtual_hub_routing_intent":    {id: childOf("virtual_hub_id", "routingIntent"), put: putRoutingIntent},

		// Azure Virtual Network Manager security admin rules (netmanager.go).
		"azurerm_network_manager_security_admin_configuration": {id: childOf("network_manager_id", "securityAdminConfigurations"), put: putSecurityAdminConfig, del: delWithChildren},
		"azurerm_network_manager_admin_rule_collection":        {id: childOf("security_admin_configuration_id", "ruleCollections"), put: putAdminRuleCollection, del: delWithChildren},
		"azurerm_network_manager_admin_rule":                   {id: childOf("admin_rule_collection_id", "rules"), put: putAdminRule},

		// The cluster, its registry and its roles (other.go).
		"azurerm_container_registry":             {id: idByName(typeRegistry), put: putRegistry, del: delWithChildren},
		"azurerm_container_registry_replication": {id: childOf("container_registry_id", "replications"), put: putReplication},
		"azurerm_kubernetes_cluster":             {id: idByName(typeCluster), put: putCluster, del: delWithChildren},
		"azurerm_kubernetes_cluster_node_pool":   {id: childOf("kubernetes_cluster_id", "agentPools"), put: putNodePool},
		"azurerm_role_assignment":                {id: roleAssignmentID, put: putRoleAssignment},

		// azapi (azapi.go): bodies are ARM's already.
		"azapi_resource":        {id: azapiID, put: putAzapi},
		"azapi_update_resource": {idFromArgs: true, id: azapiUpdateID, put: putAzapiUpdate, del: delNothing},
	}
}
