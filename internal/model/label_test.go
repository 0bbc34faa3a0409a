package model

import "testing"

func TestLabel(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001"
	const rg = sub + "/resourceGroups/rg"
	for id, want := range map[ResourceID]string{
		rg + "/providers/Microsoft.ContainerService/ManagedClusters/aks-typo":                                        "AKS cluster aks-typo",
		rg + "/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools/sysstem":                         "node pool sysstem of AKS cluster aks1",
		rg + "/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools":                                 "the node pools of AKS cluster aks1",
		rg + "/providers/Microsoft.ContainerRegistry/registries/otherreg":                                            "container registry otherreg",
		rg + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke":                                               "virtual network vnet-spoke",
		rg + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks":                              "subnet vnet-spoke/snet-aks",
		rg + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io":                                   "private DNS zone privatelink.azurecr.io",
		rg + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/ALL":                               "the record sets of private DNS zone privatelink.azurecr.io",
		rg + "/providers/Microsoft.Network/networkInterfaces/nic-1/effectiveRouteTable":                              "the effective routes of network interface nic-1",
		rg + "/providers/Microsoft.Network/virtualNetworks":                                                          "the virtual networks of resource group rg",
		sub + "/providers/Microsoft.Network/privateDnsZones":                                                         "the private DNS zones of subscription 00000000-0000-0000-0000-000000000001",
		rg + "/providers/Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments": "the role assignments at container registry r",
		sub + "/providers/Microsoft.Network/locations/westeurope/serviceTags":                                        "the service tags of westeurope",
		"/providers/Microsoft.ResourceGraph/resources":                                                               "an Azure Resource Graph query",
		rg + "/providers/Microsoft.Contoso/widgets/w1":                                                               "widgets w1",
		// A virtual hub is a Virtual WAN hub or a Route Server: its
		// children say which; its own id does not.
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu":                                         "virtual hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu/hubVirtualNetworkConnections":            "the hub connections of Virtual WAN hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu/hubVirtualNetworkConnections/conn-spoke": "hub connection conn-spoke of Virtual WAN hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu/hubRouteTables/defaultRouteTable":        "hub route table defaultRouteTable of Virtual WAN hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu/routingIntent":                           "the routing intents of Virtual WAN hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/hub-weu/effectiveRoutes":                         "the effective routes of Virtual WAN hub hub-weu",
		rg + "/providers/Microsoft.Network/virtualHubs/rs-hub/bgpConnections":                           "the BGP peers of Route Server rs-hub",
		rg + "/providers/Microsoft.Network/virtualHubs/rs-hub/bgpConnections/nva1/learnedRoutes":        "the learned routes of BGP peer nva1 of Route Server rs-hub",
		"":          "an unnamed resource",
		"not-an-id": "not-an-id",
	} {
		if got := id.Label(); got != want {
			t.Errorf("Label(%s) = %q, want %q", id, got, want)
		}
	}
}

func TestKindOf(t *testing.T) {
	if k, ok := KindOf("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/AzureFirewalls/fw"); !ok || k != "Azure Firewall" {
		t.Errorf("known type: %q %v", k, ok)
	}
	if k, ok := KindOf("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Contoso/widgets/w"); ok || k != "widgets" {
		t.Errorf("unknown type: %q %v", k, ok)
	}
	if _, ok := KindOf("/subscriptions/s"); ok {
		t.Error("an id without a provider has no kind")
	}
}
