// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gentopo

// virtualWAN writes the secured Virtual WAN hub of Options.VirtualWAN:
// hub-bench (10.100.0.0/23, router 10.100.0.68/69) in vwan-bench, one
// connection per VNet (associated with and propagating to
// defaultRouteTable, enableInternetSecurity), defaultRouteTable and
// noneRouteTable, routing intent sending private and Internet traffic to
// the hub's Azure Firewall, whose policy allows HTTPS from the spokes to
// the registry's hosts (an application rule), and the effective routes of
// defaultRouteTable as Azure reports them under that intent.
func (g *gen) virtualWAN(vnets []string, prefixes map[string]string) {
	hub := vwanRG + "/providers/Microsoft.Network/virtualHubs/hub-bench"
	fw := vwanRG + "/providers/Microsoft.Network/azureFirewalls/fw-hub-bench"
	pol := vwanRG + "/providers/Microsoft.Network/firewallPolicies/fwpol-hub-bench"
	def := hub + "/hubRouteTables/defaultRouteTable"
	g.add(obj{"name": "hub-bench", "id": hub, "etag": g.etag(), "type": "Microsoft.Network/virtualHubs", "location": location,
		"tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "addressPrefix": hubPrefix,
			"virtualWan":       ref(vwanRG + "/providers/Microsoft.Network/virtualWans/vwan-bench"),
			"virtualRouterIps": arr{"10.100.0.68", "10.100.0.69"}, "virtualRouterAsn": 65515, "sku": "Standard",
			"routingState": "Provisioned", "hubRoutingPreference": "ExpressRoute", "allowBranchToBranchTraffic": false,
			"azureFirewall": ref(fw), "virtualHubRouteTableV2s": arr{}, "routeTable": obj{"routes": arr{}},
			"bgpConnections": arr{}, "ipConfigurations": arr{}}})
	for _, t := range []string{"defaultRouteTable", "noneRouteTable"} {
		label := "default"
		if t == "noneRouteTable" {
			label = "none"
		}
		g.add(obj{"name": t, "id": hub + "/hubRouteTables/" + t, "etag": g.etag(), "type": "Microsoft.Network/virtualHubs/hubRouteTables",
			"properties": obj{"provisioningState": "Succeeded", "routes": arr{}, "labels": arr{label},
				"associatedConnections": arr{}, "propagatingConnections": arr{}}})
	}
	for _, v := range vnets {
		name := "conn-" + lastSegment(v)
		g.add(obj{"name": name, "id": hub + "/hubVirtualNetworkConnections/" + name, "etag": g.etag(),
			"type": "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections", "properties": obj{
				"provisioningState": "Succeeded", "remoteVirtualNetwork": ref(v), "allowHubToRemoteVnetTransit": true,
				"allowRemoteVnetToUseHubVnetGateways": true, "enableInternetSecurity": true,
				"routingConfiguration": obj{"associatedRouteTable": ref(def),
					"propagatedRouteTables": obj{"labels": arr{"default"}, "ids": arr{ref(def)}},
					"vnetRoutes":            obj{"staticRoutes": arr{}}}}})
	}
	g.add(obj{"name": "hub-bench-routing-intent", "id": hub + "/routingIntent/hub-bench-routing-intent", "etag": g.etag(),
		"type": "Microsoft.Network/virtualHubs/routingIntent", "properties": obj{"provisioningState": "Succeeded",
			"routingPolicies": arr{
				obj{"name": "PrivateTrafficPolicy", "destinations": arr{"PrivateTraffic"}, "nextHop": fw},
				obj{"name": "InternetTrafficPolicy", "destinations": arr{"Internet"}, "nextHop": fw}}}})
	g.add(obj{"name": "fw-hub-bench", "id": fw, "etag": g.etag(), "type": "Microsoft.Network/azureFirewalls", "location": location,
		"tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "sku": obj{"name": "AZFW_Hub", "tier": "Standard"},
			"threatIntelMode": "Alert", "additionalProperties": obj{}, "virtualHub": ref(hub),
			"hubIPAddresses":   obj{"privateIPAddress": "10.100.0.132", "publicIPs": obj{"count": 1, "addresses": arr{obj{"address": "20.61.140.17"}}}},
			"ipConfigurations": arr{}, "networkRuleCollections": arr{}, "applicationRuleCollections": arr{}, "natRuleCollections": arr{},
			"firewallPolicy": ref(pol)}})
	var sources arr
	for _, v := range vnets {
		if p := prefixes[v]; p != "10.0.0.0/16" {
			sources = append(sources, p)
		}
	}
	// An application rule: the firewall translates the source of what it
	// allows so, and the private endpoint's replies come back through it.
	fqdns := arr{registry + ".azurecr.io"}
	for i := 0; i < g.o.Replicas; i++ {
		fqdns = append(fqdns, registry+"."+regions[i]+".data.azurecr.io")
	}
	rcg := pol + "/ruleCollectionGroups/DefaultRuleCollectionGroup"
	g.add(obj{"name": "fwpol-hub-bench", "id": pol, "etag": g.etag(), "type": "Microsoft.Network/firewallPolicies", "location": location,
		"tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "sku": obj{"tier": "Standard"}, "threatIntelMode": "Alert",
			"dnsSettings": obj{"enableProxy": false, "servers": arr{}}, "ruleCollectionGroups": arr{ref(rcg)},
			"firewalls": arr{ref(fw)}, "childPolicies": arr{}}})
	g.add(obj{"name": "DefaultRuleCollectionGroup", "id": rcg, "etag": g.etag(), "type": "Microsoft.Network/FirewallPolicies/RuleCollectionGroups",
		"properties": obj{"provisioningState": "Succeeded", "priority": 300, "ruleCollections": arr{obj{
			"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "aks-to-shared", "priority": 200,
			"action": obj{"type": "Allow"}, "rules": arr{obj{"ruleType": "ApplicationRule", "name": "allow-acr",
				"sourceAddresses": sources, "sourceIpGroups": arr{}, "protocols": arr{obj{"protocolType": "Https", "port": 443}},
				"targetFqdns": fqdns, "fqdnTags": arr{}, "targetUrls": arr{}, "webCategories": arr{}, "terminateTLS": false,
				"destinationAddresses": arr{}}}}}}})
	g.action(hub+"/effectiveRoutes", obj{"value": arr{
		obj{"addressPrefixes": arr{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"}, "nextHopType": "Azure Firewall",
			"nextHops": arr{fw}, "asPath": "", "routeOrigin": fw},
		obj{"addressPrefixes": arr{"0.0.0.0/0"}, "nextHopType": "Azure Firewall", "nextHops": arr{fw}, "asPath": "", "routeOrigin": fw},
	}})
}
