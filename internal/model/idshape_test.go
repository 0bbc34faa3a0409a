package model

import (
	"slices"
	"testing"
)

// idShapes are the shapes of id the provider reads: resources, listings,
// read actions, extension resources, the Resource Graph, odd casing and
// slashes, and ids with no provider. Every reading of an id's type, names,
// subscription and resource group is held to this one table.
var idShapes = []struct {
	id         ResourceID
	full       string // typeOf: namespace and types as written
	names      []string
	ok         bool
	typeLower  string // TypeOf
	sub, rg    string
	label      string
	kind       string
	known      bool
	crossCheck bool
}{
	{"/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.ContainerService/ManagedClusters/aks-typo", "Microsoft.ContainerService/ManagedClusters", []string{"aks-typo"}, true, "microsoft.containerservice/managedclusters", "00000000-0000-0000-0000-000000000001", "rg", "AKS cluster aks-typo", "AKS cluster", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools/system", "Microsoft.ContainerService/managedClusters/agentPools", []string{"aks1", "system"}, true, "microsoft.containerservice/managedclusters/agentpools", "s", "rg", "node pool system of AKS cluster aks1", "node pool", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools", "Microsoft.ContainerService/managedClusters/agentPools", []string{"aks1"}, true, "microsoft.containerservice/managedclusters/agentpools", "s", "rg", "the node pools of AKS cluster aks1", "node pool", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/reg", "Microsoft.ContainerRegistry/registries", []string{"reg"}, true, "microsoft.containerregistry/registries", "s", "rg", "container registry reg", "container registry", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", "Microsoft.Network/virtualNetworks", []string{"v"}, true, "microsoft.network/virtualnetworks", "s", "rg", "virtual network v", "virtual network", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/sn", "Microsoft.Network/virtualNetworks/subnets", []string{"v", "sn"}, true, "microsoft.network/virtualnetworks/subnets", "s", "rg", "subnet v/sn", "subnet", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets", "Microsoft.Network/virtualNetworks/subnets", []string{"v"}, true, "microsoft.network/virtualnetworks/subnets", "s", "rg", "the subnets of virtual network v", "subnet", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/virtualNetworkPeerings/p", "Microsoft.Network/virtualNetworks/virtualNetworkPeerings", []string{"v", "p"}, true, "microsoft.network/virtualnetworks/virtualnetworkpeerings", "s", "rg", "peering p", "peering", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/listDnsResolverPolicies", "Microsoft.Network/virtualNetworks/listDnsResolverPolicies", []string{"v"}, true, "microsoft.network/virtualnetworks/listdnsresolverpolicies", "s", "rg", "the DNS security policies of virtual network v", "listDnsResolverPolicies", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/listDnsResolvers", "Microsoft.Network/virtualNetworks/listDnsResolvers", []string{"v"}, true, "microsoft.network/virtualnetworks/listdnsresolvers", "s", "rg", "the DNS private resolvers of virtual network v", "listDnsResolvers", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/listDnsForwardingRulesets", "Microsoft.Network/virtualNetworks/listDnsForwardingRulesets", []string{"v"}, true, "microsoft.network/virtualnetworks/listdnsforwardingrulesets", "s", "rg", "the DNS forwarding rulesets of virtual network v", "listDnsForwardingRulesets", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/listNetworkManagerEffectiveSecurityAdminRules", "Microsoft.Network/virtualNetworks/listNetworkManagerEffectiveSecurityAdminRules", []string{"v"}, true, "microsoft.network/virtualnetworks/listnetworkmanagereffectivesecurityadminrules", "s", "rg", "the effective security admin rules of virtual network v", "listNetworkManagerEffectiveSecurityAdminRules", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io", "Microsoft.Network/privateDnsZones", []string{"privatelink.azurecr.io"}, true, "microsoft.network/privatednszones", "s", "rg", "private DNS zone privatelink.azurecr.io", "private DNS zone", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/ALL", "Microsoft.Network/privateDnsZones/ALL", []string{"z"}, true, "microsoft.network/privatednszones/all", "s", "rg", "the record sets of private DNS zone z", "record set", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/A/rec", "Microsoft.Network/privateDnsZones/A", []string{"z", "rec"}, true, "microsoft.network/privatednszones/a", "s", "rg", "A record rec", "A record", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/virtualNetworkLinks/l", "Microsoft.Network/privateDnsZones/virtualNetworkLinks", []string{"z", "l"}, true, "microsoft.network/privatednszones/virtualnetworklinks", "s", "rg", "virtual network link l", "virtual network link", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/virtualNetworkLinks", "Microsoft.Network/privateDnsZones/virtualNetworkLinks", []string{"z"}, true, "microsoft.network/privatednszones/virtualnetworklinks", "s", "rg", "the virtual network links of private DNS zone z", "virtual network link", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic-1/effectiveRouteTable", "Microsoft.Network/networkInterfaces/effectiveRouteTable", []string{"nic-1"}, true, "microsoft.network/networkinterfaces/effectiveroutetable", "s", "rg", "the effective routes of network interface nic-1", "effectiveRouteTable", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic-1/effectiveNetworkSecurityGroups", "Microsoft.Network/networkInterfaces/effectiveNetworkSecurityGroups", []string{"nic-1"}, true, "microsoft.network/networkinterfaces/effectivenetworksecuritygroups", "s", "rg", "the effectiveNetworkSecurityGroups of network interface nic-1", "effectiveNetworkSecurityGroups", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/g/getLearnedRoutes", "Microsoft.Network/virtualNetworkGateways/getLearnedRoutes", []string{"g"}, true, "microsoft.network/virtualnetworkgateways/getlearnedroutes", "s", "rg", "the learned routes of virtual network gateway g", "getLearnedRoutes", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/g/getAdvertisedRoutes", "Microsoft.Network/virtualNetworkGateways/getAdvertisedRoutes", []string{"g"}, true, "microsoft.network/virtualnetworkgateways/getadvertisedroutes", "s", "rg", "the advertised routes of virtual network gateway g", "getAdvertisedRoutes", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/g/getBgpPeerStatus", "Microsoft.Network/virtualNetworkGateways/getBgpPeerStatus", []string{"g"}, true, "microsoft.network/virtualnetworkgateways/getbgppeerstatus", "s", "rg", "the BGP peer status of virtual network gateway g", "getBgpPeerStatus", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkWatchers/nw/nextHop", "Microsoft.Network/networkWatchers/nextHop", []string{"nw"}, true, "microsoft.network/networkwatchers/nexthop", "s", "rg", "the nextHop of networkWatchers nw", "nextHop", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks", "Microsoft.Network/virtualNetworks", []string(nil), true, "microsoft.network/virtualnetworks", "s", "rg", "the virtual networks of resource group rg", "virtual network", true, false},
	{"/subscriptions/s/providers/Microsoft.Network/privateDnsZones", "Microsoft.Network/privateDnsZones", []string(nil), true, "microsoft.network/privatednszones", "s", "", "the private DNS zones of subscription s", "private DNS zone", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments", "Microsoft.Authorization/roleAssignments", []string(nil), true, "microsoft.authorization/roleassignments", "s", "rg", "the role assignments at container registry r", "role assignment", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments/ra", "Microsoft.Authorization/roleAssignments", []string{"ra"}, true, "microsoft.authorization/roleassignments", "s", "rg", "role assignment ra", "role assignment", true, false},
	{"/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/rd", "Microsoft.Authorization/roleDefinitions", []string{"rd"}, true, "microsoft.authorization/roledefinitions", "s", "", "role definition rd", "role definition", true, false},
	{"/subscriptions/s/providers/Microsoft.Network/locations/westeurope/serviceTags", "Microsoft.Network/locations/serviceTags", []string{"westeurope"}, true, "microsoft.network/locations/servicetags", "s", "", "the service tags of westeurope", "serviceTags", false, false},
	{"/providers/Microsoft.ResourceGraph/resources", "Microsoft.ResourceGraph/resources", []string(nil), true, "microsoft.resourcegraph/resources", "", "", "an Azure Resource Graph query", "Azure Resource Graph query", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Contoso/widgets/w1", "Microsoft.Contoso/widgets", []string{"w1"}, true, "microsoft.contoso/widgets", "s", "rg", "widgets w1", "widgets", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu", "Microsoft.Network/virtualHubs", []string{"hub-weu"}, true, "microsoft.network/virtualhubs", "s", "rg", "virtual hub hub-weu", "virtual hub", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/hubVirtualNetworkConnections", "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections", []string{"hub-weu"}, true, "microsoft.network/virtualhubs/hubvirtualnetworkconnections", "s", "rg", "the hub connections of Virtual WAN hub hub-weu", "hub connection", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/hubVirtualNetworkConnections/conn-spoke", "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections", []string{"hub-weu", "conn-spoke"}, true, "microsoft.network/virtualhubs/hubvirtualnetworkconnections", "s", "rg", "hub connection conn-spoke of Virtual WAN hub hub-weu", "hub connection", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/hubRouteTables/defaultRouteTable", "Microsoft.Network/virtualHubs/hubRouteTables", []string{"hub-weu", "defaultRouteTable"}, true, "microsoft.network/virtualhubs/hubroutetables", "s", "rg", "hub route table defaultRouteTable of Virtual WAN hub hub-weu", "hub route table", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/routingIntent", "Microsoft.Network/virtualHubs/routingIntent", []string{"hub-weu"}, true, "microsoft.network/virtualhubs/routingintent", "s", "rg", "the routing intents of Virtual WAN hub hub-weu", "routing intent", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/routingIntent/ri", "Microsoft.Network/virtualHubs/routingIntent", []string{"hub-weu", "ri"}, true, "microsoft.network/virtualhubs/routingintent", "s", "rg", "routing intent ri of Virtual WAN hub hub-weu", "routing intent", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/effectiveRoutes", "Microsoft.Network/virtualHubs/effectiveRoutes", []string{"hub-weu"}, true, "microsoft.network/virtualhubs/effectiveroutes", "s", "rg", "the effective routes of Virtual WAN hub hub-weu", "effectiveRoutes", false, true},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/rs-hub/bgpConnections", "Microsoft.Network/virtualHubs/bgpConnections", []string{"rs-hub"}, true, "microsoft.network/virtualhubs/bgpconnections", "s", "rg", "the BGP peers of Route Server rs-hub", "BGP peer", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/rs-hub/bgpConnections/nva1", "Microsoft.Network/virtualHubs/bgpConnections", []string{"rs-hub", "nva1"}, true, "microsoft.network/virtualhubs/bgpconnections", "s", "rg", "BGP peer nva1 of Route Server rs-hub", "BGP peer", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/rs-hub/bgpConnections/nva1/learnedRoutes", "Microsoft.Network/virtualHubs/bgpConnections/learnedRoutes", []string{"rs-hub", "nva1"}, true, "microsoft.network/virtualhubs/bgpconnections/learnedroutes", "s", "rg", "the learned routes of BGP peer nva1 of Route Server rs-hub", "learnedRoutes", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in1", "Microsoft.Network/dnsResolvers/inboundEndpoints", []string{"r", "in1"}, true, "microsoft.network/dnsresolvers/inboundendpoints", "s", "rg", "resolver inbound endpoint in1", "resolver inbound endpoint", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsForwardingRulesets/rs/forwardingRules/fr", "Microsoft.Network/dnsForwardingRulesets/forwardingRules", []string{"rs", "fr"}, true, "microsoft.network/dnsforwardingrulesets/forwardingrules", "s", "rg", "forwarding rule fr", "forwarding rule", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/azureFirewalls/fw", "Microsoft.Network/azureFirewalls", []string{"fw"}, true, "microsoft.network/azurefirewalls", "s", "rg", "Azure Firewall fw", "Azure Firewall", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/firewallPolicies/p/ruleCollectionGroups/g", "Microsoft.Network/firewallPolicies/ruleCollectionGroups", []string{"p", "g"}, true, "microsoft.network/firewallpolicies/rulecollectiongroups", "s", "rg", "rule collection group g", "rule collection group", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkManagers/m/securityAdminConfigurations/c/ruleCollections/rc/rules/r", "Microsoft.Network/networkManagers/securityAdminConfigurations/ruleCollections/rules", []string{"m", "c", "rc", "r"}, true, "microsoft.network/networkmanagers/securityadminconfigurations/rulecollections/rules", "s", "rg", "rules r", "rules", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateEndpoints/pe", "Microsoft.Network/privateEndpoints", []string{"pe"}, true, "microsoft.network/privateendpoints", "s", "rg", "private endpoint pe", "private endpoint", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/vmss/virtualMachines/0/networkInterfaces/nic", "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces", []string{"vmss", "0", "nic"}, true, "microsoft.compute/virtualmachinescalesets/virtualmachines/networkinterfaces", "s", "rg", "network interface nic", "network interface", true, false},
	{"/SUBSCRIPTIONS/s/RESOURCEGROUPS/RG/PROVIDERS/MICROSOFT.NETWORK/VIRTUALNETWORKS/V", "MICROSOFT.NETWORK/VIRTUALNETWORKS", []string{"V"}, true, "microsoft.network/virtualnetworks", "s", "RG", "virtual network V", "virtual network", true, false},
	{"/subscriptions/s/resourcegroups/rg/providers/microsoft.network/virtualnetworks/v/subnets/sn/", "microsoft.network/virtualnetworks/subnets", []string{"v", "sn"}, true, "microsoft.network/virtualnetworks/subnets", "s", "rg", "subnet v/sn", "subnet", true, false},
	{"subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", "Microsoft.Network/virtualNetworks", []string{"v"}, true, "microsoft.network/virtualnetworks", "s", "rg", "virtual network v", "virtual network", true, false},
	{"/subscriptions/s/providers/Microsoft.Authorization/roleAssignments", "Microsoft.Authorization/roleAssignments", nil, true, "microsoft.authorization/roleassignments", "s", "", "the role assignments of subscription s", "role assignment", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Authorization/roleAssignments", "Microsoft.Authorization/roleAssignments", nil, true, "microsoft.authorization/roleassignments", "s", "rg", "the role assignments of resource group rg", "role assignment", true, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/sn/providers/Microsoft.Authorization/roleAssignments", "Microsoft.Authorization/roleAssignments", nil, true, "microsoft.authorization/roleassignments", "s", "rg", "the role assignments at subnet v/sn", "role assignment", true, false},
	{"/subscriptions/s/providers/Microsoft.Network/locations/westeurope/serviceTags/", "Microsoft.Network/locations/serviceTags", []string{"westeurope"}, true, "microsoft.network/locations/servicetags", "s", "", "the service tags of westeurope", "serviceTags", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic-1/effectiveRouteTable/", "Microsoft.Network/networkInterfaces/effectiveRouteTable", []string{"nic-1"}, true, "microsoft.network/networkinterfaces/effectiveroutetable", "s", "rg", "the effective routes of network interface nic-1", "effectiveRouteTable", false, false},
	{"/subscriptions/s/resourceGroups/rg", "", []string(nil), false, "", "s", "rg", "/subscriptions/s/resourceGroups/rg", "", false, false},
	{"/subscriptions/s", "", []string(nil), false, "", "s", "", "/subscriptions/s", "", false, false},
	{"/subscriptions/s/resourceGroups", "", []string(nil), false, "", "s", "", "/subscriptions/s/resourceGroups", "", false, false},
	{"/subscriptions/s/providers/Microsoft.Network", "", []string(nil), false, "", // a namespace alone is no type
		"s", "", "/subscriptions/s/providers/Microsoft.Network", "", false, false},
	{"/subscriptions/s/resourceGroups/rg/providers", "", []string(nil), false, "", "s", "rg", "/subscriptions/s/resourceGroups/rg/providers", "", false, false},
	{"not-an-id", "", []string(nil), false, "", "", "", "not-an-id", "", false, false},
	{"", "", []string(nil), false, "", "", "", "an unnamed resource", "", false, false},
}

func TestIDShapes(t *testing.T) {
	for _, c := range idShapes {
		full, names, ok := typeOf(c.id)
		if full != c.full || !slices.Equal(names, c.names) || ok != c.ok {
			t.Errorf("typeOf(%s) = %q %q %v, want %q %q %v", c.id, full, names, ok, c.full, c.names, c.ok)
		}
		if got := TypeOf(string(c.id)); got != c.typeLower {
			t.Errorf("TypeOf(%s) = %q, want %q", c.id, got, c.typeLower)
		}
		if got := c.id.Subscription(); got != c.sub {
			t.Errorf("Subscription(%s) = %q, want %q", c.id, got, c.sub)
		}
		if got := c.id.ResourceGroup(); got != c.rg {
			t.Errorf("ResourceGroup(%s) = %q, want %q", c.id, got, c.rg)
		}
		if got := c.id.Label(); got != c.label {
			t.Errorf("Label(%s) = %q, want %q", c.id, got, c.label)
		}
		if kind, known := KindOf(c.id); kind != c.kind || known != c.known {
			t.Errorf("KindOf(%s) = %q %v, want %q %v", c.id, kind, known, c.kind, c.known)
		}
		if got := IsCrossCheckRead(c.id); got != c.crossCheck {
			t.Errorf("IsCrossCheckRead(%s) = %v, want %v", c.id, got, c.crossCheck)
		}
	}
}
