package planned

import (
	"strings"
	"testing"
)

type translationCase struct {
	name  string
	spec  planSpec
	opts  Options
	check func(t *testing.T, p *Plan)
}

func TestTranslation(t *testing.T) {
	for _, tc := range translationCases() {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.spec, tc.opts)
			checkOps(t, p)
			tc.check(t, p)
		})
	}
}

var (
	create  = []string{"create"}
	update  = []string{"update"}
	del     = []string{"delete"}
	replace = []string{"delete", "create"}
	cbd     = []string{"create", "delete"}
	noop    = []string{"no-op"}
)

func translationCases() []translationCase {
	rtID := rgSpk + "/providers/Microsoft.Network/routeTables/rt-aks"
	nsgID := rgSpk + "/providers/Microsoft.Network/networkSecurityGroups/nsg-aks"
	linkID := zoneID + "/virtualNetworkLinks/link-spoke"
	peerID := spkNet + "/virtualNetworkPeerings/spoke-to-hub"
	hubPeerID := hubNet + "/virtualNetworkPeerings/hub-to-spoke"
	policyID := rgHub + "/providers/Microsoft.Network/firewallPolicies/fwp-hub"
	peID := rgHub + "/providers/Microsoft.Network/privateEndpoints/pe-acr"
	aksID := rgSpk + "/providers/Microsoft.ContainerService/managedClusters/aks1"
	peering := func(name, rg, vnet, remote string, access bool) map[string]any {
		return map[string]any{"name": name, "resource_group_name": rg, "virtual_network_name": vnet, "remote_virtual_network_id": remote,
			"allow_virtual_network_access": access, "allow_forwarded_traffic": true, "allow_gateway_transit": false, "use_remote_gateways": false}
	}
	return []translationCase{
		// --- virtual networks and subnets ---
		{name: "vnet v3 with inline subnets, created", spec: planSpec{changes: []rc{{
			addr: "azurerm_virtual_network.spoke", actions: create,
			after: map[string]any{"name": "vnet-spoke", "resource_group_name": "rg-spoke", "location": "West Europe",
				"address_space": []any{"10.1.0.0/16"}, "dns_servers": []any{"10.0.3.4"}, "tags": map[string]any{},
				"subnet": []any{
					map[string]any{"name": "snet-aks", "address_prefix": "10.1.0.0/22", "security_group": nsgID},
					map[string]any{"name": "snet-other", "address_prefix": "10.1.8.0/24", "security_group": ""},
				}},
			unknown: map[string]any{"id": true, "guid": true, "subnet": []any{map[string]any{"id": true}, map[string]any{"id": true}}},
			expr:    map[string]any{"name": constExpr("vnet-spoke"), "subnet": constExpr([]any{})},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			v := opFor(t, p, OpPut, spkNet)
			want(t, v, map[string]any{"location": "westeurope", "type": "Microsoft.Network/virtualNetworks",
				"properties.addressSpace.addressPrefixes": []any{"10.1.0.0/16"}, "properties.dhcpOptions.dnsServers": []any{"10.0.3.4"}})
			if _, ok := at(v.Body, "properties").(map[string]any)["subnets"]; ok {
				t.Error("the VNet body embeds subnets; they are ops of their own")
			}
			s := opFor(t, p, OpPut, aksSn)
			want(t, s, map[string]any{"properties.addressPrefix": "10.1.0.0/22", "properties.networkSecurityGroup.id": nsgID})
			o := opFor(t, p, OpPut, spkNet+"/subnets/snet-other")
			if _, ok := o.Body["properties"].(map[string]any)["networkSecurityGroup"]; ok {
				t.Error("a new subnet without security_group has a networkSecurityGroup member")
			}
			if _, ok := o.Body["properties"].(map[string]any)["routeTable"]; ok {
				t.Error("a v3 subnet block (no route_table_id) set routeTable")
			}
		}},
		{name: "vnet v4 updated: kept subnet patched, new put, removed deleted", spec: planSpec{changes: []rc{{
			addr: "azurerm_virtual_network.spoke", actions: update,
			before: map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "location": "westeurope",
				"address_space": []any{"10.1.0.0/16"}, "dns_servers": []any{},
				"subnet": []any{
					map[string]any{"id": aksSn, "name": "snet-aks", "address_prefixes": []any{"10.1.0.0/22"}, "route_table_id": rtID, "security_group": "",
						"private_endpoint_network_policies": "Disabled", "default_outbound_access_enabled": true, "service_endpoints": []any{}, "delegation": []any{}},
					map[string]any{"id": spkNet + "/subnets/snet-old", "name": "snet-old", "address_prefixes": []any{"10.1.9.0/24"}},
				}},
			after: map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "location": "westeurope",
				"address_space": []any{"10.1.0.0/16", "10.2.0.0/16"}, "dns_servers": []any{},
				"subnet": []any{
					map[string]any{"id": aksSn, "name": "snet-aks", "address_prefixes": []any{"10.1.0.0/22"}, "route_table_id": "", "security_group": "",
						"private_endpoint_network_policies": "RouteTableEnabled", "default_outbound_access_enabled": false,
						"service_endpoints": []any{"Microsoft.ContainerRegistry"}, "delegation": []any{}},
					map[string]any{"name": "snet-pe", "address_prefixes": []any{"10.2.0.0/24", "10.2.1.0/24"}, "route_table_id": "", "security_group": "",
						"private_endpoint_network_policies": "Enabled", "service_endpoints": []any{}, "delegation": []any{}},
				}},
			unknown: map[string]any{"subnet": []any{map[string]any{}, map[string]any{"id": true}}},
			expr:    map[string]any{"subnet": constExpr([]any{})},
		}}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, spkNet), map[string]any{"properties.addressSpace.addressPrefixes": []any{"10.1.0.0/16", "10.2.0.0/16"}})
			s := opFor(t, p, OpPatch, aksSn)
			want(t, s, map[string]any{"properties.routeTable": nil, "properties.privateEndpointNetworkPolicies": "RouteTableEnabled",
				"properties.defaultOutboundAccess": false, "properties.serviceEndpoints.#0.service": "Microsoft.ContainerRegistry"})
			if _, ok := s.Body["properties"].(map[string]any)["routeTable"]; !ok {
				t.Error("an empty v4 route_table_id does not remove the route table")
			}
			want(t, opFor(t, p, OpPut, spkNet+"/subnets/snet-pe"), map[string]any{"properties.addressPrefixes": []any{"10.2.0.0/24", "10.2.1.0/24"}})
			opFor(t, p, OpDelete, spkNet+"/subnets/snet-old")
		}},
		{name: "vnet whose configuration has no subnet blocks leaves subnets alone", spec: planSpec{changes: []rc{{
			addr: "azurerm_virtual_network.spoke", actions: update,
			before: map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "address_space": []any{"10.1.0.0/16"},
				"subnet": []any{map[string]any{"id": aksSn, "name": "snet-aks", "address_prefix": "10.1.0.0/22", "security_group": ""}}},
			after: map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "address_space": []any{"10.1.0.0/16"},
				"dns_servers": []any{"10.0.3.4"},
				"subnet":      []any{map[string]any{"id": aksSn, "name": "snet-aks", "address_prefix": "10.1.0.0/22", "security_group": ""}}},
			expr: map[string]any{"dns_servers": constExpr([]any{"10.0.3.4"})},
		}}}, check: func(t *testing.T, p *Plan) {
			if len(p.Ops) != 1 {
				t.Fatalf("want only the VNet put, got\n%s", opsString(p))
			}
			want(t, p.Ops[0], map[string]any{"properties.dhcpOptions.dnsServers": []any{"10.0.3.4"}})
		}},
		{name: "inline blocks known only after apply leave the children unknown, not deleted", spec: planSpec{changes: []rc{
			{addr: "azurerm_virtual_network.spoke", actions: update,
				before: map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "address_space": []any{"10.1.0.0/16"},
					"subnet": []any{map[string]any{"id": aksSn, "name": "snet-aks", "address_prefix": "10.1.0.0/22", "security_group": ""}}},
				after:   map[string]any{"id": spkNet, "name": "vnet-spoke", "resource_group_name": "rg-spoke", "address_space": []any{"10.1.0.0/16"}},
				unknown: map[string]any{"subnet": true}, expr: map[string]any{"subnet": constExpr([]any{})}},
			{addr: "azurerm_route_table.aks", actions: update,
				before:  map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke", "route": []any{map[string]any{"name": "default", "address_prefix": "0.0.0.0/0", "next_hop_type": "Internet"}}},
				after:   map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke"},
				unknown: map[string]any{"route": true}, expr: map[string]any{"route": constExpr([]any{})}},
			{addr: "azurerm_network_security_group.aks", actions: update,
				before:  map[string]any{"id": nsgID, "name": "nsg-aks", "resource_group_name": "rg-spoke", "security_rule": []any{map[string]any{"name": "r"}}},
				after:   map[string]any{"id": nsgID, "name": "nsg-aks", "resource_group_name": "rg-spoke"},
				unknown: map[string]any{"security_rule": true}, expr: map[string]any{"security_rule": constExpr([]any{})}},
		}}, check: func(t *testing.T, p *Plan) {
			if len(p.Ops) != 3 {
				t.Fatalf("want only the three parents, got\n%s", opsString(p))
			}
			for id, u := range map[string]string{spkNet: "properties.subnets", rtID: "properties.routes", nsgID: "properties.securityRules"} {
				if !hasUnknown(opFor(t, p, OpPut, id), u) {
					t.Errorf("%s: %s not unknown", id, u)
				}
			}
		}},
		{name: "subnet v3 created, policies bool", spec: planSpec{changes: []rc{{
			addr: "azurerm_subnet.aks", actions: create,
			after: map[string]any{"name": "snet-aks", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke",
				"address_prefixes": []any{"10.1.0.0/22"}, "private_endpoint_network_policies_enabled": false,
				"private_link_service_network_policies_enabled": true, "service_endpoints": []any{"Microsoft.Storage"},
				"delegation": []any{map[string]any{"name": "d", "service_delegation": []any{map[string]any{"name": "Microsoft.ContainerInstance/containerGroups", "actions": []any{"Microsoft.Network/virtualNetworks/subnets/action"}}}}}},
			unknown: map[string]any{"id": true},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, aksSn), map[string]any{"type": "Microsoft.Network/virtualNetworks/subnets", "name": "snet-aks",
				"properties.addressPrefix": "10.1.0.0/22", "properties.privateEndpointNetworkPolicies": "Disabled",
				"properties.privateLinkServiceNetworkPolicies": "Enabled", "properties.serviceEndpoints.#0.service": "Microsoft.Storage",
				"properties.delegations.#0.properties.serviceName": "Microsoft.ContainerInstance/containerGroups"})
		}},
		{name: "subnet v3 enforce flag is inverted", spec: planSpec{changes: []rc{{
			addr: "azurerm_subnet.pe", actions: create,
			after: map[string]any{"name": "snet-pe", "resource_group_name": "rg-hub", "virtual_network_name": "vnet-hub",
				"address_prefixes": []any{"10.0.2.0/24"}, "enforce_private_link_endpoint_network_policies": true},
			unknown: map[string]any{"id": true},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, peSn), map[string]any{"properties.privateEndpointNetworkPolicies": "Disabled"})
		}},
		{name: "subnet v4 updated is a patch that keeps associations", spec: planSpec{changes: []rc{{
			addr: "azurerm_subnet.pe", actions: update,
			before: map[string]any{"id": peSn, "name": "snet-pe", "resource_group_name": "rg-hub", "virtual_network_name": "vnet-hub",
				"address_prefixes": []any{"10.0.2.0/24"}, "private_endpoint_network_policies": "Disabled", "default_outbound_access_enabled": true},
			after: map[string]any{"id": peSn, "name": "snet-pe", "resource_group_name": "rg-hub", "virtual_network_name": "vnet-hub",
				"address_prefixes": []any{"10.0.2.0/24"}, "private_endpoint_network_policies": "RouteTableEnabled", "default_outbound_access_enabled": false},
		}}}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpPatch, peSn)
			want(t, op, map[string]any{"properties.privateEndpointNetworkPolicies": "RouteTableEnabled", "properties.defaultOutboundAccess": false})
			for _, m := range []string{"routeTable", "networkSecurityGroup", "natGateway"} {
				if _, ok := op.Body["properties"].(map[string]any)[m]; ok {
					t.Errorf("the subnet patch touches %s, which association resources own", m)
				}
			}
		}},
		{name: "subnet deleted", spec: planSpec{changes: []rc{{
			addr: "azurerm_subnet.pe", actions: del,
			before: map[string]any{"id": peSn, "name": "snet-pe", "resource_group_name": "rg-hub", "virtual_network_name": "vnet-hub"},
		}}}, check: func(t *testing.T, p *Plan) {
			opFor(t, p, OpDelete, peSn)
			if len(p.Ops) != 1 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		{name: "route table association to a table of the plan", spec: planSpec{changes: []rc{
			{addr: "azurerm_route_table.aks", actions: create,
				after:   map[string]any{"name": "rt-aks", "resource_group_name": "rg-spoke", "location": "westeurope", "bgp_route_propagation_enabled": true},
				unknown: map[string]any{"id": true}, expr: map[string]any{"name": constExpr("rt-aks")}},
			{addr: "azurerm_subnet_route_table_association.aks", actions: create,
				after: map[string]any{"subnet_id": aksSn}, unknown: map[string]any{"id": true, "route_table_id": true},
				expr: map[string]any{"subnet_id": constExpr(aksSn), "route_table_id": refExpr("azurerm_route_table.aks.id", "azurerm_route_table.aks")}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, rtID), map[string]any{"properties.disableBgpRoutePropagation": false})
			a := opFor(t, p, OpPatch, aksSn)
			want(t, a, map[string]any{"properties.routeTable.id": rtID})
			if len(a.Unknown) != 0 {
				t.Errorf("resolved reference left unknown: %v", a.Unknown)
			}
			if a.Address != "azurerm_subnet_route_table_association.aks" {
				t.Errorf("address %q", a.Address)
			}
		}},
		{name: "route table association to an unresolvable table is unknown", spec: planSpec{changes: []rc{
			{addr: "azurerm_subnet_route_table_association.aks", actions: create,
				after: map[string]any{"subnet_id": aksSn}, unknown: map[string]any{"id": true, "route_table_id": true},
				expr: map[string]any{"route_table_id": refExpr("module.routes.route_table_id")}},
		}}, check: func(t *testing.T, p *Plan) {
			a := opFor(t, p, OpPatch, aksSn)
			if !hasUnknown(a, "properties.routeTable.id") {
				t.Errorf("unknown = %v", a.Unknown)
			}
		}},
		{name: "associations deleted clear the member", spec: planSpec{changes: []rc{
			{addr: "azurerm_subnet_route_table_association.aks", actions: del, before: map[string]any{"id": aksSn, "subnet_id": aksSn, "route_table_id": rtID}},
			{addr: "azurerm_subnet_network_security_group_association.aks", actions: del, before: map[string]any{"id": aksSn, "subnet_id": aksSn, "network_security_group_id": nsgID}},
			{addr: "azurerm_subnet_nat_gateway_association.aks", actions: create, after: map[string]any{"id": aksSn, "subnet_id": aksSn, "nat_gateway_id": rgSpk + "/providers/Microsoft.Network/natGateways/ng"}},
		}}, check: func(t *testing.T, p *Plan) {
			if len(p.Ops) != 3 {
				t.Fatalf("ops:\n%s", opsString(p))
			}
			for _, op := range p.Ops {
				if op.Kind != OpPatch || !strings.EqualFold(op.ID, aksSn) {
					t.Errorf("op %+v", op)
				}
			}
			if v, ok := p.Ops[0].Body["properties"].(map[string]any)["routeTable"]; !ok || v != nil {
				t.Errorf("route table association delete: %v", p.Ops[0].Body)
			}
			if v, ok := p.Ops[1].Body["properties"].(map[string]any)["networkSecurityGroup"]; !ok || v != nil {
				t.Errorf("NSG association delete: %v", p.Ops[1].Body)
			}
			want(t, p.Ops[2], map[string]any{"properties.natGateway.id": rgSpk + "/providers/Microsoft.Network/natGateways/ng"})
		}},
		{name: "association whose subnet is unknown and unresolvable is untranslatable", spec: planSpec{changes: []rc{
			{addr: "azurerm_subnet_route_table_association.aks", actions: create,
				after: map[string]any{"route_table_id": rtID}, unknown: map[string]any{"id": true, "subnet_id": true},
				expr: map[string]any{"subnet_id": refExpr("data.azurerm_subnet.aks.id")}},
		}}, check: func(t *testing.T, p *Plan) {
			pr, ok := problemFor(p, "azurerm_subnet_route_table_association.aks")
			if !ok || !strings.Contains(pr.Reason, "subnet_id is known only after apply") {
				t.Errorf("problem %+v; ops:\n%s", pr, opsString(p))
			}
			if len(p.Ops) != 0 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		// --- peerings ---
		{name: "peering access turned off: state is left to the remote side", spec: planSpec{changes: []rc{{
			addr: "azurerm_virtual_network_peering.spoke_to_hub", actions: update,
			before: merge(peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, true), map[string]any{"id": peerID}),
			after:  merge(peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, false), map[string]any{"id": peerID}),
		}}}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpPut, peerID)
			want(t, op, map[string]any{"properties.allowVirtualNetworkAccess": false, "properties.allowForwardedTraffic": true,
				"properties.remoteVirtualNetwork.id": hubNet, "properties.peerCompleteVnets": true})
			if _, ok := op.Body["properties"].(map[string]any)["peeringState"]; ok {
				t.Error("peeringState set though the plan does not touch the remote side")
			}
		}},
		{name: "peering pair created: both Connected", spec: planSpec{changes: []rc{
			{addr: "azurerm_virtual_network_peering.spoke_to_hub", actions: create, after: peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, true), unknown: map[string]any{"id": true}},
			{addr: "azurerm_virtual_network_peering.hub_to_spoke", actions: create, after: peering("hub-to-spoke", "rg-hub", "vnet-hub", spkNet, true), unknown: map[string]any{"id": true}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			for _, id := range []string{peerID, hubPeerID} {
				want(t, opFor(t, p, OpPut, id), map[string]any{"properties.peeringState": "Connected", "properties.peeringSyncLevel": "FullyInSync"})
			}
		}},
		{name: "peering whose remote side is deleted is Disconnected", spec: planSpec{changes: []rc{
			{addr: "azurerm_virtual_network_peering.spoke_to_hub", actions: update,
				before: merge(peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, true), map[string]any{"id": peerID, "allow_forwarded_traffic": false}),
				after:  merge(peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, true), map[string]any{"id": peerID})},
			{addr: "azurerm_virtual_network_peering.hub_to_spoke", actions: del, before: merge(peering("hub-to-spoke", "rg-hub", "vnet-hub", spkNet, true), map[string]any{"id": hubPeerID})},
			{addr: "azurerm_virtual_network_peering.hub_to_other", actions: del, before: merge(peering("hub-to-other", "rg-hub", "vnet-hub", rgHub+"/providers/Microsoft.Network/virtualNetworks/other", true), map[string]any{"id": hubNet + "/virtualNetworkPeerings/hub-to-other"})},
		}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, peerID), map[string]any{"properties.peeringState": "Disconnected"})
			opFor(t, p, OpDelete, hubPeerID)
		}},
		{name: "subnet peering v4", spec: planSpec{changes: []rc{{
			addr: "azurerm_virtual_network_peering.spoke_to_hub", actions: create,
			after: merge(peering("spoke-to-hub", "rg-spoke", "vnet-spoke", hubNet, true), map[string]any{
				"peer_complete_virtual_networks_enabled": false, "local_subnet_names": []any{"snet-aks"}, "remote_subnet_names": []any{"snet-pe"},
				"only_ipv6_peering_enabled": false}),
			unknown: map[string]any{"id": true},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, peerID), map[string]any{"properties.peerCompleteVnets": false,
				"properties.localSubnetNames": []any{"snet-aks"}, "properties.remoteSubnetNames": []any{"snet-pe"}, "properties.enableOnlyIPv6Peering": false})
		}},
		{name: "VNet DNS servers resource", spec: planSpec{changes: []rc{
			{addr: "azurerm_virtual_network_dns_servers.spoke", actions: create, after: map[string]any{"virtual_network_id": spkNet, "dns_servers": []any{"10.0.3.4"}}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_virtual_network_dns_servers.hub", actions: del, before: map[string]any{"id": hubNet + "/dnsServers/default", "virtual_network_id": hubNet, "dns_servers": []any{"10.0.3.4"}}},
		}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPatch, spkNet), map[string]any{"properties.dhcpOptions.dnsServers": []any{"10.0.3.4"}})
			want(t, opFor(t, p, OpPatch, hubNet), map[string]any{"properties.dhcpOptions.dnsServers": []any{}})
		}},
		// --- route tables ---
		{name: "route table v3 inline routes, one removed", spec: planSpec{changes: []rc{{
			addr: "azurerm_route_table.aks", actions: update,
			before: map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke", "location": "westeurope", "disable_bgp_route_propagation": false,
				"route": []any{map[string]any{"name": "default", "address_prefix": "0.0.0.0/0", "next_hop_type": "VirtualAppliance", "next_hop_in_ip_address": "10.0.1.4"},
					map[string]any{"name": "old", "address_prefix": "10.9.0.0/16", "next_hop_type": "None", "next_hop_in_ip_address": ""}}},
			after: map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke", "location": "westeurope", "disable_bgp_route_propagation": true,
				"route": []any{map[string]any{"name": "default", "address_prefix": "0.0.0.0/0", "next_hop_type": "VirtualAppliance", "next_hop_in_ip_address": "10.0.1.4"},
					map[string]any{"name": "blackhole-pe", "address_prefix": "10.0.2.0/24", "next_hop_type": "None", "next_hop_in_ip_address": ""}}},
			expr: map[string]any{"route": constExpr([]any{})},
		}}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, rtID), map[string]any{"properties.disableBgpRoutePropagation": true})
			want(t, opFor(t, p, OpPut, rtID+"/routes/default"), map[string]any{"properties.nextHopType": "VirtualAppliance", "properties.nextHopIpAddress": "10.0.1.4", "properties.addressPrefix": "0.0.0.0/0"})
			bh := opFor(t, p, OpPut, rtID+"/routes/blackhole-pe")
			want(t, bh, map[string]any{"properties.nextHopType": "None", "type": "Microsoft.Network/routeTables/routes"})
			if _, ok := bh.Body["properties"].(map[string]any)["nextHopIpAddress"]; ok {
				t.Error("a route without next hop address has one")
			}
			opFor(t, p, OpDelete, rtID+"/routes/old")
		}},
		{name: "route table without route in configuration leaves routes alone", spec: planSpec{changes: []rc{{
			addr: "azurerm_route_table.aks", actions: update,
			before: map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke", "tags": map[string]any{}},
			after: map[string]any{"id": rtID, "name": "rt-aks", "resource_group_name": "rg-spoke", "tags": map[string]any{"a": "b"},
				"route": []any{map[string]any{"name": "standalone", "address_prefix": "0.0.0.0/0", "next_hop_type": "Internet"}}},
			expr: map[string]any{"tags": constExpr(map[string]any{"a": "b"})},
		}}}, check: func(t *testing.T, p *Plan) {
			if len(p.Ops) != 1 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		{name: "stand-alone route to an appliance known after apply", spec: planSpec{changes: []rc{{
			addr: "azurerm_route.default", actions: create,
			after:   map[string]any{"name": "default", "resource_group_name": "rg-spoke", "route_table_name": "rt-aks", "address_prefix": "0.0.0.0/0", "next_hop_type": "VirtualAppliance"},
			unknown: map[string]any{"id": true, "next_hop_in_ip_address": true},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpPut, rtID+"/routes/default")
			if !hasUnknown(op, "properties.nextHopIpAddress") {
				t.Errorf("unknown = %v", op.Unknown)
			}
		}},
		// --- security groups ---
		{name: "NSG inline rules and a stand-alone rule", spec: planSpec{changes: []rc{
			{addr: "azurerm_network_security_group.aks", actions: create,
				after: map[string]any{"name": "nsg-aks", "resource_group_name": "rg-spoke", "location": "westeurope",
					"security_rule": []any{map[string]any{"name": "deny-acr", "priority": 100.0, "direction": "Outbound", "access": "Deny", "protocol": "Tcp",
						"source_port_range": "*", "source_port_ranges": []any{}, "destination_port_range": "", "destination_port_ranges": []any{"443", "5000"},
						"source_address_prefix": "VirtualNetwork", "source_address_prefixes": []any{}, "destination_address_prefix": "10.0.2.0/24", "destination_address_prefixes": []any{},
						"source_application_security_group_ids": []any{}, "destination_application_security_group_ids": []any{}, "description": ""}}},
				unknown: map[string]any{"id": true}, expr: map[string]any{"security_rule": constExpr([]any{})}},
			{addr: "azurerm_network_security_rule.allow", actions: create,
				after: map[string]any{"name": "allow-dns", "resource_group_name": "rg-spoke", "network_security_group_name": "nsg-aks", "priority": 110.0,
					"direction": "Outbound", "access": "Allow", "protocol": "*", "source_port_range": "*", "destination_port_range": "53",
					"source_address_prefix": "*", "destination_address_prefix": "10.0.3.4"},
				unknown: map[string]any{"id": true}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			opFor(t, p, OpPut, nsgID)
			want(t, opFor(t, p, OpPut, nsgID+"/securityRules/deny-acr"), map[string]any{"properties.priority": 100, "properties.access": "Deny",
				"properties.destinationPortRanges": []any{"443", "5000"}, "properties.sourcePortRange": "*", "properties.destinationAddressPrefix": "10.0.2.0/24"})
			want(t, opFor(t, p, OpPut, nsgID+"/securityRules/allow-dns"), map[string]any{"properties.destinationPortRange": "53", "properties.protocol": "*"})
		}},
		// --- DNS ---
		{name: "zone link deleted", spec: planSpec{changes: []rc{{
			addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: del,
			before: map[string]any{"id": linkID, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet},
		}}}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpDelete, linkID)
			if op.Address != "azurerm_private_dns_zone_virtual_network_link.spoke" || op.Body != nil {
				t.Errorf("op %+v", op)
			}
		}},
		{name: "zone link created to a VNet of the plan, v4 resolution policy", spec: planSpec{changes: []rc{
			{addr: "azurerm_virtual_network.spoke", actions: create,
				after:   map[string]any{"name": "vnet-spoke", "resource_group_name": "rg-spoke", "location": "westeurope", "address_space": []any{"10.1.0.0/16"}},
				unknown: map[string]any{"id": true, "subnet": true}},
			{addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: create,
				after: map[string]any{"name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub",
					"registration_enabled": false, "resolution_policy": "NxDomainRedirect"},
				unknown: map[string]any{"id": true, "virtual_network_id": true},
				expr:    map[string]any{"virtual_network_id": refExpr("azurerm_virtual_network.spoke.id", "azurerm_virtual_network.spoke")}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, linkID), map[string]any{"location": "global", "properties.virtualNetwork.id": spkNet,
				"properties.resolutionPolicy": "NxDomainRedirect", "properties.registrationEnabled": false, "properties.virtualNetworkLinkState": "Completed"})
		}},
		{name: "zone link v3 has the default resolution policy", spec: planSpec{changes: []rc{{
			addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: create,
			after:   map[string]any{"name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet, "registration_enabled": false},
			unknown: map[string]any{"id": true},
		}}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, linkID), map[string]any{"properties.resolutionPolicy": "Default"})
		}},
		{name: "A record repointed, and one known after apply", spec: planSpec{changes: []rc{
			{addr: "azurerm_private_dns_a_record.registry", actions: update,
				before: map[string]any{"id": zoneID + "/A/contosoreg", "name": "contosoreg", "zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "ttl": 10.0, "records": []any{"10.0.2.5"}},
				after:  map[string]any{"id": zoneID + "/A/contosoreg", "name": "contosoreg", "zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "ttl": 10.0, "records": []any{"10.0.2.9"}}},
			{addr: "azurerm_private_dns_a_record.data", actions: create,
				after:   map[string]any{"name": "contosoreg.westeurope.data", "zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "ttl": 300.0},
				unknown: map[string]any{"id": true, "fqdn": true, "records": true}},
		}}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, zoneID+"/A/contosoreg"), map[string]any{"properties.aRecords": []any{map[string]any{"ipv4Address": "10.0.2.9"}},
				"properties.ttl": 10, "properties.fqdn": "contosoreg.privatelink.azurecr.io.", "type": "Microsoft.Network/privateDnsZones/A"})
			d := opFor(t, p, OpPut, zoneID+"/A/contosoreg.westeurope.data")
			if !hasUnknown(d, "properties.aRecords") {
				t.Errorf("unknown = %v", d.Unknown)
			}
		}},
		{name: "CNAME record and zone", spec: planSpec{changes: []rc{
			{addr: "azurerm_private_dns_zone.acr", actions: create, after: map[string]any{"name": "privatelink.azurecr.io", "resource_group_name": "rg-hub"}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_private_dns_cname_record.alias", actions: create,
				after:   map[string]any{"name": "registry", "zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "ttl": 300.0, "record": "contosoreg.privatelink.azurecr.io"},
				unknown: map[string]any{"id": true}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPut, zoneID), map[string]any{"location": "global"})
			want(t, opFor(t, p, OpPut, zoneID+"/CNAME/registry"), map[string]any{"properties.cnameRecord.cname": "contosoreg.privatelink.azurecr.io"})
		}},
		{name: "DNS private resolver, endpoints, ruleset, rule and link", spec: resolverSpec(), check: func(t *testing.T, p *Plan) {
			res := rgHub + "/providers/Microsoft.Network/dnsResolvers/dnspr-hub"
			rs := rgHub + "/providers/Microsoft.Network/dnsForwardingRulesets/rs-hub"
			want(t, opFor(t, p, OpPut, res), map[string]any{"properties.virtualNetwork.id": hubNet})
			in := opFor(t, p, OpPut, res+"/inboundEndpoints/in")
			want(t, in, map[string]any{"properties.ipConfigurations.#0.subnet.id": hubNet + "/subnets/snet-dns-in", "properties.ipConfigurations.#0.privateIpAllocationMethod": "Dynamic"})
			if !hasUnknown(in, "properties.ipConfigurations[0].privateIpAddress") {
				t.Errorf("a dynamic inbound address is not unknown: %v", in.Unknown)
			}
			want(t, opFor(t, p, OpPut, res+"/outboundEndpoints/out"), map[string]any{"properties.subnet.id": hubNet + "/subnets/snet-dns-out"})
			want(t, opFor(t, p, OpPut, rs), map[string]any{"properties.dnsResolverOutboundEndpoints.#0.id": res + "/outboundEndpoints/out"})
			want(t, opFor(t, p, OpPut, rs+"/forwardingRules/acr"), map[string]any{"properties.domainName": "azurecr.io.", "properties.forwardingRuleState": "Disabled",
				"properties.targetDnsServers": []any{map[string]any{"ipAddress": "10.50.0.4", "port": 53}}})
			want(t, opFor(t, p, OpPut, rs+"/virtualNetworkLinks/spoke"), map[string]any{"properties.virtualNetwork.id": spkNet})
		}},
		// --- private endpoints ---
		{name: "private endpoint created with a zone group", spec: planSpec{changes: []rc{
			{addr: "azurerm_private_endpoint.acr", actions: create,
				after: map[string]any{"name": "pe-acr", "resource_group_name": "rg-hub", "location": "westeurope", "subnet_id": peSn,
					"private_service_connection": []any{map[string]any{"name": "pe-acr", "is_manual_connection": false, "private_connection_resource_id": acrID, "subresource_names": []any{"registry"}}},
					"private_dns_zone_group":     []any{map[string]any{"name": "default", "private_dns_zone_ids": []any{zoneID}}},
					"ip_configuration":           []any{}},
				unknown: map[string]any{"id": true, "custom_dns_configs": true, "network_interface": true, "private_dns_zone_configs": true,
					"private_dns_zone_group":     []any{map[string]any{"id": true, "private_dns_zone_ids": []any{false}}},
					"private_service_connection": []any{map[string]any{"private_ip_address": true}}}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			pe := opFor(t, p, OpPut, peID)
			want(t, pe, map[string]any{"properties.subnet.id": peSn, "properties.privateLinkServiceConnections.#0.properties.privateLinkServiceId": acrID,
				"properties.privateLinkServiceConnections.#0.properties.groupIds":                                 []any{"registry"},
				"properties.privateLinkServiceConnections.#0.properties.privateLinkServiceConnectionState.status": "Approved",
				"properties.manualPrivateLinkServiceConnections":                                                  []any{}})
			for _, u := range []string{"properties.customDnsConfigs", "properties.networkInterfaces"} {
				if !hasUnknown(pe, u) {
					t.Errorf("%s not unknown: %v", u, pe.Unknown)
				}
			}
			zg := opFor(t, p, OpPut, peID+"/privateDnsZoneGroups/default")
			want(t, zg, map[string]any{"properties.privateDnsZoneConfigs.#0.properties.privateDnsZoneId": zoneID})
			if !hasUnknown(zg, "properties.privateDnsZoneConfigs.properties.recordSets") {
				t.Errorf("the zone group's record sets are not unknown: %v", zg.Unknown)
			}
		}},
		{name: "zone group ids partly known, partly references", spec: planSpec{changes: []rc{
			{addr: "azurerm_private_dns_zone.data", actions: create, after: map[string]any{"name": "privatelink.blob.core.windows.net", "resource_group_name": "rg-hub"}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_private_endpoint.acr", actions: create,
				after: map[string]any{"name": "pe-acr", "resource_group_name": "rg-hub", "location": "westeurope", "subnet_id": peSn,
					"private_service_connection": []any{map[string]any{"name": "pe-acr", "is_manual_connection": false, "private_connection_resource_id": acrID, "subresource_names": []any{"registry"}}},
					"private_dns_zone_group":     []any{map[string]any{"name": "default", "private_dns_zone_ids": []any{zoneID, nil}}}},
				unknown: map[string]any{"id": true, "private_dns_zone_group": []any{map[string]any{"id": true, "private_dns_zone_ids": []any{false, true}}}},
				expr:    map[string]any{"private_dns_zone_group": []any{map[string]any{"private_dns_zone_ids": refExpr("azurerm_private_dns_zone.data.id", "azurerm_private_dns_zone.data")}}}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			zg := opFor(t, p, OpPut, peID+"/privateDnsZoneGroups/default")
			want(t, zg, map[string]any{"properties.privateDnsZoneConfigs.#0.properties.privateDnsZoneId": zoneID,
				"properties.privateDnsZoneConfigs.#1.properties.privateDnsZoneId": rgHub + "/providers/Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net"})
			if hasUnknown(zg, "properties.privateDnsZoneConfigs") {
				t.Errorf("resolved zone ids left unknown: %v", zg.Unknown)
			}
			// The login server's record in the registry's private link zone.
			opFor(t, p, OpPut, zoneID+"/A/contosoreg")
		}},
		{name: "private endpoint with static addresses and a manual connection", spec: planSpec{changes: []rc{
			{addr: "azurerm_private_endpoint.acr", actions: create,
				after: map[string]any{"name": "pe-acr", "resource_group_name": "rg-hub", "location": "westeurope", "subnet_id": peSn,
					"private_service_connection": []any{map[string]any{"name": "pe-acr", "is_manual_connection": true, "private_connection_resource_id": acrID,
						"subresource_names": []any{"registry"}, "request_message": "please"}},
					"ip_configuration": []any{
						map[string]any{"name": "reg", "private_ip_address": "10.0.2.5", "subresource_name": "registry", "member_name": "registry"},
						map[string]any{"name": "data", "private_ip_address": "10.0.2.6", "subresource_name": "registry", "member_name": "registry_data_westeurope"}}},
				unknown: map[string]any{"id": true, "custom_dns_configs": true, "network_interface": true}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			pe := opFor(t, p, OpPut, peID)
			want(t, pe, map[string]any{"properties.privateLinkServiceConnections": []any{},
				"properties.manualPrivateLinkServiceConnections.#0.properties.privateLinkServiceConnectionState.status": "Pending",
				"properties.customDnsConfigs": []any{
					map[string]any{"fqdn": "contosoreg.azurecr.io", "ipAddresses": []any{"10.0.2.5"}},
					map[string]any{"fqdn": "contosoreg.westeurope.data.azurecr.io", "ipAddresses": []any{"10.0.2.6"}}}})
			if hasUnknown(pe, "properties.customDnsConfigs") {
				t.Errorf("static addresses left customDnsConfigs unknown")
			}
		}},
		// --- registry, cluster, roles ---
		{name: "registry created with network rules, replica and data endpoints", spec: planSpec{changes: []rc{{
			addr: "azurerm_container_registry.acr", actions: create,
			after: map[string]any{"name": "ContosoReg", "resource_group_name": "rg-hub", "location": "westeurope", "sku": "Premium", "admin_enabled": false,
				"public_network_access_enabled": false, "network_rule_bypass_option": "None", "anonymous_pull_enabled": false, "data_endpoint_enabled": true,
				"network_rule_set": []any{map[string]any{"default_action": "Deny", "ip_rule": []any{map[string]any{"action": "Allow", "ip_range": "203.0.113.0/24"}}}},
				"georeplications":  []any{map[string]any{"location": "northeurope", "regional_endpoint_enabled": true, "zone_redundancy_enabled": false}}},
			unknown: map[string]any{"id": true, "login_server": true},
			expr:    map[string]any{"georeplications": constExpr([]any{})},
		}}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			id := rgHub + "/providers/Microsoft.ContainerRegistry/registries/ContosoReg"
			want(t, opFor(t, p, OpPut, id), map[string]any{"sku.name": "Premium", "properties.loginServer": "contosoreg.azurecr.io",
				"properties.publicNetworkAccess": "Disabled", "properties.networkRuleBypassOptions": "None", "properties.networkRuleSet.defaultAction": "Deny",
				"properties.networkRuleSet.ipRules": []any{map[string]any{"action": "Allow", "value": "203.0.113.0/24"}},
				"properties.dataEndpointHostNames":  []any{"contosoreg.westeurope.data.azurecr.io", "contosoreg.northeurope.data.azurecr.io"}})
			want(t, opFor(t, p, OpPut, id+"/replications/northeurope"), map[string]any{"location": "northeurope", "properties.regionEndpointEnabled": true})
		}},
		{name: "registry updated is a patch (private endpoint connections stay)", spec: planSpec{changes: []rc{{
			addr: "azurerm_container_registry.acr", actions: update,
			before: map[string]any{"id": acrID, "name": "contosoreg", "resource_group_name": "rg-hub", "location": "westeurope", "sku": "Premium", "public_network_access_enabled": false},
			after:  map[string]any{"id": acrID, "name": "contosoreg", "resource_group_name": "rg-hub", "location": "westeurope", "sku": "Premium", "public_network_access_enabled": true},
		}}}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpPatch, acrID)
			want(t, op, map[string]any{"properties.publicNetworkAccess": "Enabled"})
			if _, ok := op.Body["properties"].(map[string]any)["privateEndpointConnections"]; ok {
				t.Error("the patch replaces the registry's private endpoint connections")
			}
		}},
		{name: "cluster created in a subnet of the plan, with a node pool", spec: planSpec{changes: []rc{
			{addr: "azurerm_subnet.aks", actions: create,
				after:   map[string]any{"name": "snet-aks", "resource_group_name": "rg-spoke", "virtual_network_name": "vnet-spoke", "address_prefixes": []any{"10.1.0.0/22"}},
				unknown: map[string]any{"id": true}},
			{addr: "azurerm_kubernetes_cluster.aks", actions: create,
				after: map[string]any{"name": "aks1", "resource_group_name": "rg-spoke", "location": "westeurope",
					"default_node_pool": []any{map[string]any{"name": "system", "node_count": 2.0, "vm_size": "Standard_D4ds_v5", "node_public_ip_enabled": false}},
					"network_profile":   []any{map[string]any{"network_plugin": "azure", "outbound_type": "userDefinedRouting"}}},
				unknown: map[string]any{"id": true, "node_resource_group": true, "kubelet_identity": true,
					"default_node_pool": []any{map[string]any{"vnet_subnet_id": true}}},
				expr: map[string]any{"default_node_pool": []any{map[string]any{"vnet_subnet_id": refExpr("azurerm_subnet.aks.id", "azurerm_subnet.aks")}}}},
			{addr: "azurerm_kubernetes_cluster_node_pool.user", actions: create,
				after:   map[string]any{"name": "user", "node_count": 3.0, "mode": "User", "enable_node_public_ip": false},
				unknown: map[string]any{"id": true, "kubernetes_cluster_id": true, "vnet_subnet_id": true},
				expr: map[string]any{"kubernetes_cluster_id": refExpr("azurerm_kubernetes_cluster.aks.id", "azurerm_kubernetes_cluster.aks"),
					"vnet_subnet_id": refExpr("azurerm_subnet.aks.id", "azurerm_subnet.aks")}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			c := opFor(t, p, OpPut, aksID)
			want(t, c, map[string]any{"properties.agentPoolProfiles.#0.vnetSubnetID": aksSn, "properties.agentPoolProfiles.#0.name": "system",
				"properties.agentPoolProfiles.#0.mode": "System", "properties.networkProfile.outboundType": "userDefinedRouting",
				"properties.nodeResourceGroup": "MC_rg-spoke_aks1_westeurope"})
			if !hasUnknown(c, "properties.identityProfile.kubeletidentity.objectId") {
				t.Errorf("the kubelet identity of a new cluster is not unknown: %v", c.Unknown)
			}
			want(t, opFor(t, p, OpPut, aksID+"/agentPools/system"), map[string]any{"properties.vnetSubnetID": aksSn, "properties.count": 2})
			want(t, opFor(t, p, OpPut, aksID+"/agentPools/user"), map[string]any{"properties.vnetSubnetID": aksSn, "properties.mode": "User", "properties.count": 3})
		}},
		{name: "role assignments by built-in name, and with an identity known after apply", spec: planSpec{changes: []rc{
			{addr: "azurerm_role_assignment.pull", actions: create,
				after:   map[string]any{"scope": acrID, "role_definition_name": "AcrPull", "principal_id": "c97076e7-a42f-5da7-b72a-14b385fe0c6b", "principal_type": "ServicePrincipal"},
				unknown: map[string]any{"id": true, "name": true, "role_definition_id": true}},
			{addr: "azurerm_role_assignment.new_identity", actions: create,
				after:   map[string]any{"scope": acrID, "role_definition_name": "Some Custom Role"},
				unknown: map[string]any{"id": true, "name": true, "role_definition_id": true, "principal_id": true}},
		}}, check: func(t *testing.T, p *Plan) {
			var pull, other Op
			for _, op := range p.Ops {
				switch op.Address {
				case "azurerm_role_assignment.pull":
					pull = op
				case "azurerm_role_assignment.new_identity":
					other = op
				}
			}
			if !strings.HasPrefix(pull.ID, acrID+"/providers/Microsoft.Authorization/roleAssignments/") || pull.ID == other.ID {
				t.Fatalf("ids %q %q", pull.ID, other.ID)
			}
			want(t, pull, map[string]any{"properties.roleDefinitionId": "/subscriptions/" + sub1 + "/providers/Microsoft.Authorization/roleDefinitions/7f951dda-4ed3-4680-a7ca-43fe172d538d",
				"properties.principalId": "c97076e7-a42f-5da7-b72a-14b385fe0c6b", "properties.scope": acrID})
			if len(pull.Unknown) != 0 {
				t.Errorf("unknown = %v", pull.Unknown)
			}
			if !hasUnknown(other, "properties.roleDefinitionId") || !hasUnknown(other, "properties.principalId") {
				t.Errorf("unknown = %v", other.Unknown)
			}
		}},
		// --- firewall ---
		{name: "rule collection group changed", spec: planSpec{changes: []rc{{
			addr: "azurerm_firewall_policy_rule_collection_group.aks", actions: update,
			before: rcgValues(policyID, []any{"443"}), after: rcgValues(policyID, []any{"8443"}),
		}}}, check: func(t *testing.T, p *Plan) {
			op := opFor(t, p, OpPut, policyID+"/ruleCollectionGroups/rcg-aks")
			want(t, op, map[string]any{"properties.priority": 200,
				"properties.ruleCollections.#0.ruleCollectionType":        "FirewallPolicyFilterRuleCollection",
				"properties.ruleCollections.#0.action.type":               "Deny",
				"properties.ruleCollections.#0.rules.#0.ruleType":         "NetworkRule",
				"properties.ruleCollections.#0.rules.#0.destinationPorts": []any{"8443"},
				"properties.ruleCollections.#0.rules.#0.ipProtocols":      []any{"TCP", "Any"},
				"properties.ruleCollections.#1.rules.#0.ruleType":         "ApplicationRule",
				"properties.ruleCollections.#1.rules.#0.targetFqdns":      []any{"contosoreg.azurecr.io"},
				"properties.ruleCollections.#1.rules.#0.protocols":        []any{map[string]any{"protocolType": "Https", "port": 443}},
				"properties.ruleCollections.#2.ruleCollectionType":        "FirewallPolicyNatRuleCollection",
				"properties.ruleCollections.#2.action.type":               "DNAT",
				"properties.ruleCollections.#2.rules.#0.translatedPort":   "22"})
			if len(op.Unknown) != 0 {
				t.Errorf("unknown = %v", op.Unknown)
			}
		}},
		{name: "rule collection group with an address known after apply", spec: planSpec{changes: []rc{{
			addr: "azurerm_firewall_policy_rule_collection_group.aks", actions: create,
			after:   rcgValues(policyID, []any{"443"}),
			unknown: map[string]any{"id": true, "network_rule_collection": []any{map[string]any{"rule": []any{map[string]any{"destination_addresses": true}}}}},
		}}}, check: func(t *testing.T, p *Plan) {
			if !hasUnknown(opFor(t, p, OpPut, policyID+"/ruleCollectionGroups/rcg-aks"), "properties.ruleCollections") {
				t.Error("not unknown")
			}
		}},
		{name: "rule collection group without priority is untranslatable", spec: planSpec{changes: []rc{{
			addr: "azurerm_firewall_policy_rule_collection_group.aks", actions: create,
			after: map[string]any{"name": "rcg-aks", "firewall_policy_id": policyID}, unknown: map[string]any{"id": true, "priority": true},
		}}}, check: func(t *testing.T, p *Plan) {
			if pr, ok := problemFor(p, "azurerm_firewall_policy_rule_collection_group.aks"); !ok || !strings.Contains(pr.Reason, "priority is known only after apply") {
				t.Errorf("problem %+v", pr)
			}
		}},
		// --- NAT gateway ---
		{name: "NAT gateway and its addresses", spec: planSpec{changes: []rc{
			{addr: "azurerm_nat_gateway.ng", actions: create, after: map[string]any{"name": "ng", "resource_group_name": "rg-spoke", "location": "westeurope", "sku_name": "Standard", "idle_timeout_in_minutes": 4.0},
				unknown: map[string]any{"id": true}},
			{addr: "azurerm_nat_gateway_public_ip_association.a", actions: create, after: map[string]any{"public_ip_address_id": rgSpk + "/providers/Microsoft.Network/publicIPAddresses/pip-a"},
				unknown: map[string]any{"id": true, "nat_gateway_id": true}, expr: map[string]any{"nat_gateway_id": refExpr("azurerm_nat_gateway.ng.id")}},
			{addr: "azurerm_nat_gateway_public_ip_association.b", actions: noop,
				before: map[string]any{"id": "x", "nat_gateway_id": rgSpk + "/providers/Microsoft.Network/natGateways/ng", "public_ip_address_id": rgSpk + "/providers/Microsoft.Network/publicIPAddresses/pip-b"},
				after:  map[string]any{"id": "x", "nat_gateway_id": rgSpk + "/providers/Microsoft.Network/natGateways/ng", "public_ip_address_id": rgSpk + "/providers/Microsoft.Network/publicIPAddresses/pip-b"}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			ng := rgSpk + "/providers/Microsoft.Network/natGateways/ng"
			want(t, opFor(t, p, OpPut, ng), map[string]any{"sku.name": "Standard", "properties.idleTimeoutInMinutes": 4})
			want(t, opFor(t, p, OpPatch, ng), map[string]any{"properties.publicIpAddresses": []any{
				map[string]any{"id": rgSpk + "/providers/Microsoft.Network/publicIPAddresses/pip-a"},
				map[string]any{"id": rgSpk + "/providers/Microsoft.Network/publicIPAddresses/pip-b"}}})
		}},
		// --- azapi ---
		{name: "azapi resources: child, top-level, v1 string body, unknown body member", spec: planSpec{changes: []rc{
			{addr: "azapi_resource.link", actions: create,
				after: map[string]any{"type": "Microsoft.Network/privateDnsZones/virtualNetworkLinks@2024-06-01", "name": "link-spoke", "parent_id": zoneID, "location": "global",
					"body": map[string]any{"properties": map[string]any{"registrationEnabled": false, "virtualNetwork": map[string]any{}}}},
				unknown: map[string]any{"id": true, "body": map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": true}}}}},
			{addr: "azapi_resource.rt", actions: create,
				after: map[string]any{"type": "Microsoft.Network/routeTables@2024-05-01", "name": "rt-aks", "parent_id": rgSpk, "location": "westeurope",
					"body": `{"properties":{"disableBgpRoutePropagation":true}}`},
				unknown: map[string]any{"id": true}},
			{addr: "azapi_update_resource.subnet", actions: update,
				before: map[string]any{"id": peSn, "type": "Microsoft.Network/virtualNetworks/subnets@2024-05-01", "resource_id": peSn, "body": map[string]any{}},
				after:  map[string]any{"id": peSn, "type": "Microsoft.Network/virtualNetworks/subnets@2024-05-01", "resource_id": peSn, "body": map[string]any{"properties": map[string]any{"privateEndpointNetworkPolicies": "Enabled"}}}},
			{addr: "azapi_update_resource.gone", actions: del,
				before: map[string]any{"id": aksSn, "type": "Microsoft.Network/virtualNetworks/subnets@2024-05-01", "resource_id": aksSn, "body": map[string]any{}}},
		}}, check: func(t *testing.T, p *Plan) {
			l := opFor(t, p, OpPut, linkID)
			want(t, l, map[string]any{"type": "Microsoft.Network/privateDnsZones/virtualNetworkLinks", "name": "link-spoke", "location": "global", "properties.registrationEnabled": false,
				"properties.virtualNetworkLinkState": "Completed", "properties.resolutionPolicy": "Default"})
			if !hasUnknown(l, "properties.virtualNetwork.id") {
				t.Errorf("unknown = %v", l.Unknown)
			}
			want(t, opFor(t, p, OpPut, rtID), map[string]any{"properties.disableBgpRoutePropagation": true, "type": "Microsoft.Network/routeTables"})
			want(t, opFor(t, p, OpPatch, peSn), map[string]any{"properties.privateEndpointNetworkPolicies": "Enabled"})
			for _, op := range p.Ops {
				if op.Address == "azapi_update_resource.gone" {
					t.Errorf("removing an azapi_update_resource changed Azure: %+v", op)
				}
			}
		}},
		{name: "azapi resource with a bad type or body is untranslatable", spec: planSpec{changes: []rc{
			{addr: "azapi_resource.bad_type", actions: create, after: map[string]any{"type": "routeTables", "name": "x", "parent_id": rgSpk}, unknown: map[string]any{"id": true}},
			{addr: "azapi_resource.bad_body", actions: create, after: map[string]any{"type": "Microsoft.Network/routeTables@2024-05-01", "name": "x", "parent_id": rgSpk, "body": "{not json"}, unknown: map[string]any{"id": true}},
			{addr: "azapi_resource.bad_parent", actions: create, after: map[string]any{"type": "Microsoft.Network/routeTables@2024-05-01", "name": "x", "parent_id": "rg-spoke"}, unknown: map[string]any{"id": true}},
		}}, check: func(t *testing.T, p *Plan) {
			for addr, w := range map[string]string{"azapi_resource.bad_type": "is not a resource type", "azapi_resource.bad_body": "body is not a JSON object", "azapi_resource.bad_parent": "parent_id \"rg-spoke\" is not an ARM resource id"} {
				if pr, ok := problemFor(p, addr); !ok || !strings.Contains(pr.Reason, w) {
					t.Errorf("%s: problem %+v, want %q", addr, pr, w)
				}
			}
			if len(p.Ops) != 0 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		// --- the walk ---
		{name: "unsupported, off-path, foreign, read and no-op changes", spec: planSpec{changes: []rc{
			{addr: "azurerm_storage_account.logs", actions: create, after: map[string]any{"name": "st"}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_resource_group.tags", actions: update, before: map[string]any{"id": rgHub, "name": "rg-hub", "tags": map[string]any{}}, after: map[string]any{"id": rgHub, "name": "rg-hub", "tags": map[string]any{"a": "b"}}},
			{addr: "azurerm_resource_group.gone", actions: del, before: map[string]any{"id": rgSpk, "name": "rg-spoke"}},
			{addr: "azurerm_linux_virtual_machine.jump", actions: del, before: map[string]any{"id": rgHub + "/providers/Microsoft.Compute/virtualMachines/jump"}},
			{addr: "azapi_data_plane_resource.x", actions: create, after: map[string]any{"name": "x"}},
			{addr: "random_id.x", actions: create, after: map[string]any{"byte_length": 4.0}, provider: "registry.terraform.io/hashicorp/random"},
			{addr: "azurerm_subnet.same", actions: noop, before: map[string]any{"id": peSn, "name": "snet-pe"}, after: map[string]any{"id": peSn, "name": "snet-pe"}},
		}}, check: func(t *testing.T, p *Plan) {
			if strings.Join(p.Unsupported, ",") != "azapi_data_plane_resource.x,azurerm_linux_virtual_machine.jump,azurerm_resource_group.gone" {
				t.Errorf("unsupported = %v", p.Unsupported)
			}
			if len(p.Ops) != 0 || len(p.Untranslatable) != 0 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		{name: "replacement with a new name deletes the old resource", spec: planSpec{changes: []rc{{
			addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: replace,
			before:  map[string]any{"id": linkID, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet},
			after:   map[string]any{"name": "link-spoke-2", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet},
			unknown: map[string]any{"id": true},
		}}}, check: func(t *testing.T, p *Plan) {
			opFor(t, p, OpDelete, linkID)
			opFor(t, p, OpPut, zoneID+"/virtualNetworkLinks/link-spoke-2")
		}},
		{name: "replacement under the same id is a put only", spec: planSpec{changes: []rc{{
			addr: "azurerm_private_dns_zone_virtual_network_link.spoke", actions: cbd,
			before:  map[string]any{"id": linkID, "name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": hubNet},
			after:   map[string]any{"name": "link-spoke", "private_dns_zone_name": "privatelink.azurecr.io", "resource_group_name": "rg-hub", "virtual_network_id": spkNet},
			unknown: map[string]any{"id": true},
		}}}, check: func(t *testing.T, p *Plan) {
			if len(p.Ops) != 1 {
				t.Fatalf("ops:\n%s", opsString(p))
			}
			want(t, opFor(t, p, OpPut, linkID), map[string]any{"properties.virtualNetwork.id": spkNet})
		}},
		{name: "deposed object is deleted unless its id is put again", spec: planSpec{changes: []rc{
			{addr: "azurerm_route.r", actions: create, after: map[string]any{"name": "r2", "resource_group_name": "rg-spoke", "route_table_name": "rt-aks", "address_prefix": "0.0.0.0/0", "next_hop_type": "Internet"}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_route.r", actions: del, deposed: "0f1e2d3c", before: map[string]any{"id": rtID + "/routes/r1", "name": "r1"}},
			{addr: "azurerm_route.s", actions: create, after: map[string]any{"name": "s", "resource_group_name": "rg-spoke", "route_table_name": "rt-aks", "address_prefix": "10.0.0.0/8", "next_hop_type": "None"}, unknown: map[string]any{"id": true}},
			{addr: "azurerm_route.s", actions: del, deposed: "aa00bb11", before: map[string]any{"id": rtID + "/routes/s", "name": "s"}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			opFor(t, p, OpDelete, rtID+"/routes/r1")
			opFor(t, p, OpPut, rtID+"/routes/r2")
			opFor(t, p, OpPut, rtID+"/routes/s")
			if len(p.Ops) != 3 {
				t.Errorf("ops:\n%s", opsString(p))
			}
		}},
		{name: "references inside a module and to an instance with the same key", spec: planSpec{changes: []rc{
			{addr: `module.net.azurerm_route_table.rt["aks"]`, module: "module.net", index: "aks", actions: create,
				after: map[string]any{"name": "rt-aks", "resource_group_name": "rg-spoke", "location": "westeurope"}, unknown: map[string]any{"id": true}},
			{addr: `module.net.azurerm_route_table.rt["pe"]`, module: "module.net", index: "pe", actions: create,
				after: map[string]any{"name": "rt-pe", "resource_group_name": "rg-hub", "location": "westeurope"}, unknown: map[string]any{"id": true}},
			{addr: `module.net.azurerm_subnet_route_table_association.a["pe"]`, module: "module.net", index: "pe", actions: create,
				after: map[string]any{"subnet_id": peSn}, unknown: map[string]any{"id": true, "route_table_id": true},
				expr: map[string]any{"route_table_id": refExpr("azurerm_route_table.rt", "each.key")}},
		}, providerSub: sub1}, check: func(t *testing.T, p *Plan) {
			want(t, opFor(t, p, OpPatch, peSn), map[string]any{"properties.routeTable.id": rgHub + "/providers/Microsoft.Network/routeTables/rt-pe"})
		}},
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func rcgValues(policyID string, ports []any) map[string]any {
	return map[string]any{"id": policyID + "/ruleCollectionGroups/rcg-aks", "name": "rcg-aks", "firewall_policy_id": policyID, "priority": 200.0,
		"network_rule_collection": []any{map[string]any{"name": "deny-acr", "priority": 100.0, "action": "Deny", "rule": []any{map[string]any{
			"name": "acr", "protocols": []any{"TCP", "Any"}, "source_addresses": []any{"10.1.0.0/16"}, "source_ip_groups": []any{},
			"destination_addresses": []any{"10.0.2.5"}, "destination_ip_groups": []any{}, "destination_fqdns": []any{}, "destination_ports": ports}}}},
		"application_rule_collection": []any{map[string]any{"name": "app", "priority": 300.0, "action": "Allow", "rule": []any{map[string]any{
			"name": "acr", "protocols": []any{map[string]any{"type": "Https", "port": 443.0}}, "source_addresses": []any{"10.1.0.0/16"},
			"destination_fqdns": []any{"contosoreg.azurecr.io"}, "terminate_tls": false}}}},
		"nat_rule_collection": []any{map[string]any{"name": "ssh", "priority": 400.0, "action": "Dnat", "rule": []any{map[string]any{
			"name": "ssh", "protocols": []any{"TCP"}, "source_addresses": []any{"*"}, "destination_address": "203.0.113.4", "destination_ports": []any{"22"},
			"translated_address": "10.0.5.4", "translated_port": 22.0}}}},
	}
}

func resolverSpec() planSpec {
	res := rgHub + "/providers/Microsoft.Network/dnsResolvers/dnspr-hub"
	return planSpec{providerSub: sub1, changes: []rc{
		{addr: "azurerm_private_dns_resolver.hub", actions: create, after: map[string]any{"name": "dnspr-hub", "resource_group_name": "rg-hub", "location": "westeurope", "virtual_network_id": hubNet}, unknown: map[string]any{"id": true}},
		{addr: "azurerm_private_dns_resolver_inbound_endpoint.in", actions: create,
			after: map[string]any{"name": "in", "location": "westeurope",
				"ip_configurations": []any{map[string]any{"subnet_id": hubNet + "/subnets/snet-dns-in", "private_ip_allocation_method": "Dynamic"}}},
			unknown: map[string]any{"id": true, "private_dns_resolver_id": true, "ip_configurations": []any{map[string]any{"private_ip_address": true}}},
			expr:    map[string]any{"private_dns_resolver_id": refExpr("azurerm_private_dns_resolver.hub.id", "azurerm_private_dns_resolver.hub")}},
		{addr: "azurerm_private_dns_resolver_outbound_endpoint.out", actions: create,
			after: map[string]any{"name": "out", "location": "westeurope", "private_dns_resolver_id": res, "subnet_id": hubNet + "/subnets/snet-dns-out"}, unknown: map[string]any{"id": true}},
		{addr: "azurerm_private_dns_resolver_dns_forwarding_ruleset.hub", actions: create,
			after:   map[string]any{"name": "rs-hub", "resource_group_name": "rg-hub", "location": "westeurope"},
			unknown: map[string]any{"id": true, "private_dns_resolver_outbound_endpoint_ids": true},
			expr:    map[string]any{"private_dns_resolver_outbound_endpoint_ids": refExpr("azurerm_private_dns_resolver_outbound_endpoint.out.id", "azurerm_private_dns_resolver_outbound_endpoint.out")}},
		{addr: "azurerm_private_dns_resolver_forwarding_rule.acr", actions: create,
			after: map[string]any{"name": "acr", "domain_name": "azurecr.io.", "enabled": false,
				"target_dns_servers": []any{map[string]any{"ip_address": "10.50.0.4", "port": 53.0}}},
			unknown: map[string]any{"id": true, "dns_forwarding_ruleset_id": true},
			expr:    map[string]any{"dns_forwarding_ruleset_id": refExpr("azurerm_private_dns_resolver_dns_forwarding_ruleset.hub.id")}},
		{addr: "azurerm_private_dns_resolver_virtual_network_link.spoke", actions: create,
			after:   map[string]any{"name": "spoke", "virtual_network_id": spkNet},
			unknown: map[string]any{"id": true, "dns_forwarding_ruleset_id": true},
			expr:    map[string]any{"dns_forwarding_ruleset_id": refExpr("azurerm_private_dns_resolver_dns_forwarding_ruleset.hub.id")}},
	}}
}
