package gather

import "github.com/pullpath/terraform-provider-pullpath/internal/model"

// The RBAC actions of the read actions (POST) gather sends, from their
// rows of model.ReadActions.
var (
	permEffectiveRoutes          = model.ActionNICEffectiveRoutes.Action
	permGatewayLearnedRoutes     = model.ActionGatewayLearnedRoutes.Action
	permGatewayAdvertised        = model.ActionGatewayAdvertisedRoutes.Action
	permGatewayBGPPeerStatus     = model.ActionGatewayBGPPeerStatus.Action
	permHubEffectiveRoutes       = model.ActionHubEffectiveRoutes.Action
	permListAdminRules           = model.ActionAdminRules.Action
	permRouteServerLearnedRoutes = model.ActionRouteServerLearnedRoutes.Action
	permListDNSResolvers         = model.ActionListDNSResolvers.Action
	permListDNSRulesets          = model.ActionListDNSRulesets.Action
	permListDNSPolicies          = model.ActionListDNSPolicies.Action
	permResourceGraphRead        = model.ActionResourceGraph.Action
)

// RBAC actions of the GET reads this package issues. Azure compares
// action strings case-insensitively; they are written the way Azure's
// operation list spells them.
const (
	permVNetRead       = "Microsoft.Network/virtualNetworks/read"
	permRouteTableRead = "Microsoft.Network/routeTables/read"
	permNSGRead        = "Microsoft.Network/networkSecurityGroups/read"
	permNICRead        = "Microsoft.Network/networkInterfaces/read"
	permVMSSNICRead    = "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces/read"
	permVMSSNICList    = "Microsoft.Compute/virtualMachineScaleSets/networkInterfaces/read"
	// The instance-level public IPs of a scale set's instances.
	permVMSSPublicIPList = "Microsoft.Compute/virtualMachineScaleSets/publicIPAddresses/read"
	permGatewayRead      = "Microsoft.Network/virtualNetworkGateways/read"
	// Azure Route Server (a virtualHubs resource in RouteServerSubnet).
	permVirtualHubRead      = "Microsoft.Network/virtualHubs/read"
	permHubConnectionRead   = "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections/read"
	permHubRouteTableRead   = "Microsoft.Network/virtualHubs/hubRouteTables/read"
	permRoutingIntentRead   = "Microsoft.Network/virtualHubs/routingIntent/read"
	permRouteServerPeerRead = "Microsoft.Network/virtualHubs/bgpConnections/read"
	permConnectionRead      = "Microsoft.Network/connections/read"
	permLocalGatewayRead    = "Microsoft.Network/localnetworkgateways/read"
	permPrivateEndpointRead = "Microsoft.Network/privateEndpoints/read"
	permZoneGroupRead       = "Microsoft.Network/privateEndpoints/privateDnsZoneGroups/read"
	permPrivateZoneRead     = "Microsoft.Network/privateDnsZones/read"
	permZoneLinkRead        = "Microsoft.Network/privateDnsZones/virtualNetworkLinks/read"
	permZoneRecordsRead     = "Microsoft.Network/privateDnsZones/ALL/read"
	permDNSResolverRead     = "Microsoft.Network/dnsResolvers/read"
	permInboundEndpointRead = "Microsoft.Network/dnsResolvers/inboundEndpoints/read"
	permForwardingRuleRead  = "Microsoft.Network/dnsForwardingRulesets/forwardingRules/read"
	permRulesetLinkRead     = "Microsoft.Network/dnsForwardingRulesets/virtualNetworkLinks/read"
	permDNSSecurityRuleRead = "Microsoft.Network/dnsResolverPolicies/dnsSecurityRules/read"
	permDNSDomainListRead   = "Microsoft.Network/dnsResolverDomainLists/read"
	permClusterRead         = "Microsoft.ContainerService/managedClusters/read"
	permAgentPoolRead       = "Microsoft.ContainerService/managedClusters/agentPools/read"
	permVMSSRead            = "Microsoft.Compute/virtualMachineScaleSets/read"
	permVMRead              = "Microsoft.Compute/virtualMachines/read"
	permRegistryRead        = "Microsoft.ContainerRegistry/registries/read"
	permReplicationRead     = "Microsoft.ContainerRegistry/registries/replications/read"
	permRoleAssignmentRead  = "Microsoft.Authorization/roleAssignments/read"
	permNATGatewayRead      = "Microsoft.Network/natGateways/read"
	permLoadBalancerRead    = "Microsoft.Network/loadBalancers/read"
	permPublicIPRead        = "Microsoft.Network/publicIPAddresses/read"
	permPublicIPPrefixRead  = "Microsoft.Network/publicIPPrefixes/read"
	permServiceTagsRead     = "Microsoft.Network/locations/serviceTags/read"

	permFirewallRead            = "Microsoft.Network/azurefirewalls/read"
	permFirewallPolicyRead      = "Microsoft.Network/firewallPolicies/read"
	permRuleCollectionGroupRead = "Microsoft.Network/firewallPolicies/ruleCollectionGroups/read"
	permIPGroupRead             = "Microsoft.Network/ipGroups/read"
)

// Permissions lists every read this package can issue: the SDK operation
// (client.method, with the HTTP method and path shape it sends) and the RBAC
// action it needs. It is the single source for the custom role definition
// the provider documents. Its POST rows are the read actions of
// model.ReadActions that gather sends (their Operation column): nothing
// else in this package sends a POST, PUT, PATCH or DELETE.
var Permissions = withReadActions(map[string]string{
	// Microsoft.Network, virtual networks and routing.
	"VirtualNetworksClient.Get (GET …/virtualNetworks/{v})":                                                                             permVNetRead,
	"VirtualNetworksClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Network/virtualNetworks)":                        permVNetRead,
	"RouteTablesClient.Get (GET …/routeTables/{rt})":                                                                                    permRouteTableRead,
	"SecurityGroupsClient.Get (GET …/networkSecurityGroups/{nsg})":                                                                      permNSGRead,
	"InterfacesClient.Get (GET …/networkInterfaces/{nic})":                                                                              permNICRead,
	"InterfacesClient.GetVirtualMachineScaleSetNetworkInterface (GET …/virtualMachines/{i}/networkInterfaces/{n})":                      permVMSSNICRead,
	"InterfacesClient.NewListVirtualMachineScaleSetNetworkInterfacesPager (GET …/virtualMachineScaleSets/{v}/networkInterfaces)":        permVMSSNICList,
	"PublicIPAddressesClient.NewListVirtualMachineScaleSetPublicIPAddressesPager (GET …/virtualMachineScaleSets/{v}/publicipaddresses)": permVMSSPublicIPList,
	"VirtualNetworkGatewaysClient.Get (GET …/virtualNetworkGateways/{gw})":                                                              permGatewayRead,
	"VirtualNetworkGatewaysClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Network/virtualNetworkGateways)":          permGatewayRead,
	"VirtualNetworkGatewayConnectionsClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Network/connections)":           permConnectionRead,
	"LocalNetworkGatewaysClient.Get (GET …/localNetworkGateways/{lgw})":                                                                 permLocalGatewayRead,
	"VirtualHubsClient.Get (GET …/virtualHubs/{rs}), an Azure Route Server":                                                             permVirtualHubRead,
	"VirtualHubBgpConnectionsClient.NewListPager (GET …/virtualHubs/{rs}/bgpConnections)":                                               permRouteServerPeerRead,
	"VirtualHubsClient.Get (GET …/virtualHubs/{h}), a Virtual WAN hub":                                                                  permVirtualHubRead,
	"HubVirtualNetworkConnectionsClient.NewListPager (GET …/virtualHubs/{h}/hubVirtualNetworkConnections)":                              permHubConnectionRead,
	"HubRouteTablesClient.NewListPager (GET …/virtualHubs/{h}/hubRouteTables)":                                                          permHubRouteTableRead,
	"RoutingIntentClient.NewListPager (GET …/virtualHubs/{h}/routingIntent)":                                                            permRoutingIntentRead,
	"PrivateEndpointsClient.Get (GET …/privateEndpoints/{pe})":                                                                          permPrivateEndpointRead,
	"PrivateDNSZoneGroupsClient.NewListPager (GET …/privateEndpoints/{pe}/privateDnsZoneGroups)":                                        permZoneGroupRead,
	"ServiceTagsClient.List (GET /subscriptions/{s}/providers/Microsoft.Network/locations/{l}/serviceTags)":                             permServiceTagsRead,

	// Microsoft.Network, Azure Firewall (the firewalls routes send traffic
	// to, their policies with the parent chain, and IP groups; a firewall
	// that is a DNS server of the nodes, with its policy's DNS settings).
	"AzureFirewallsClient.Get (GET …/azureFirewalls/{fw})":                                                     permFirewallRead,
	"AzureFirewallsClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Network/azureFirewalls)": permFirewallRead,
	"FirewallPoliciesClient.Get (GET …/firewallPolicies/{p})":                                                  permFirewallPolicyRead,
	"FirewallPolicyRuleCollectionGroupsClient.NewListPager (GET …/firewallPolicies/{p}/ruleCollectionGroups)":  permRuleCollectionGroupRead,
	"IPGroupsClient.Get (GET …/ipGroups/{g})":                                                                  permIPGroupRead,

	// Microsoft.Network, the public addresses the nodes leave through.
	"NatGatewaysClient.Get (GET …/natGateways/{ng})":               permNATGatewayRead,
	"PublicIPAddressesClient.Get (GET …/publicIPAddresses/{pip})":  permPublicIPRead,
	"PublicIPPrefixesClient.Get (GET …/publicIPPrefixes/{prefix})": permPublicIPPrefixRead,

	// Microsoft.Network, the internal load balancer whose frontend is the
	// cluster's HTTPS proxy.
	"LoadBalancersClient.Get (GET …/loadBalancers/{lb})": permLoadBalancerRead,

	// Microsoft.Network, private DNS zones.
	"PrivateZonesClient.NewListPager (GET /subscriptions/{s}/providers/Microsoft.Network/privateDnsZones)": permPrivateZoneRead,
	"PrivateZonesClient.Get (GET …/privateDnsZones/{z})":                                                   permPrivateZoneRead,
	"VirtualNetworkLinksClient.NewListPager (GET …/privateDnsZones/{z}/virtualNetworkLinks)":               permZoneLinkRead,
	"RecordSetsClient.NewListPager (GET …/privateDnsZones/{z}/ALL)":                                        permZoneRecordsRead,

	// Microsoft.Network, DNS private resolver.
	"DNSResolversClient.Get (GET …/dnsResolvers/{r})":                                               permDNSResolverRead,
	"InboundEndpointsClient.NewListPager (GET …/dnsResolvers/{r}/inboundEndpoints)":                 permInboundEndpointRead,
	"ForwardingRulesClient.NewListPager (GET …/dnsForwardingRulesets/{rs}/forwardingRules)":         permForwardingRuleRead,
	"VirtualNetworkLinksClient.NewListPager (GET …/dnsForwardingRulesets/{rs}/virtualNetworkLinks)": permRulesetLinkRead,

	// Microsoft.Network, DNS security policies (DNS resolver policies).
	"DNSSecurityRulesClient.NewListPager (GET …/dnsResolverPolicies/{p}/dnsSecurityRules)": permDNSSecurityRuleRead,
	"DomainListsClient.Get (GET …/dnsResolverDomainLists/{l})":                             permDNSDomainListRead,

	// Microsoft.ContainerService and Microsoft.Compute, AKS discovery.
	"ManagedClustersClient.Get (GET …/managedClusters/{c})":                                                                      permClusterRead,
	"AgentPoolsClient.NewListPager (GET …/managedClusters/{c}/agentPools)":                                                       permAgentPoolRead,
	"VirtualMachineScaleSetsClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Compute/virtualMachineScaleSets)": permVMSSRead,
	"VirtualMachinesClient.NewListPager (GET …/resourceGroups/{rg}/providers/Microsoft.Compute/virtualMachines)":                 permVMRead,

	// Microsoft.ContainerRegistry.
	"RegistriesClient.Get (GET …/registries/{r})":                         permRegistryRead,
	"ReplicationsClient.NewListPager (GET …/registries/{r}/replications)": permReplicationRead,

	// Microsoft.Authorization.
	"RoleAssignmentsClient.NewListForScopePager (GET {scope}/providers/Microsoft.Authorization/roleAssignments)": permRoleAssignmentRead,
	"RoleDefinitionsClient.GetByID (GET {roleDefinitionId})":                                                     permRoleDefinitionRead,
})

// withReadActions adds to gets the read actions gather sends.
func withReadActions(gets map[string]string) map[string]string {
	for _, a := range model.ReadActions() {
		if a.Operation != "" {
			gets[a.Operation] = a.Action
		}
	}
	return gets
}
