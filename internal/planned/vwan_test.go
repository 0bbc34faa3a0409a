// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

import "testing"

const (
	rgVWAN   = "/subscriptions/" + sub1 + "/resourceGroups/rg-vwan"
	vwanHub  = rgVWAN + "/providers/Microsoft.Network/virtualHubs/hub-weu"
	hubConn  = vwanHub + "/hubVirtualNetworkConnections/conn-spoke"
	hubDefRT = vwanHub + "/hubRouteTables/defaultRouteTable"
	hubNone  = vwanHub + "/hubRouteTables/noneRouteTable"
	hubFW    = rgVWAN + "/providers/Microsoft.Network/azureFirewalls/fw-hub"
)

// connVals are an azurerm_virtual_hub_connection's values; v4 adds
// static_vnet_propagate_static_routes_enabled.
func connVals(v4 bool, propagated []any, labels []any, internet bool) map[string]any {
	routing := map[string]any{
		"associated_route_table_id": hubDefRT, "inbound_route_map_id": "", "outbound_route_map_id": "",
		"propagated_route_table":                    []any{map[string]any{"route_table_ids": propagated, "labels": labels}},
		"static_vnet_local_route_override_criteria": "Contains",
		"static_vnet_route":                         []any{map[string]any{"name": "nva", "address_prefixes": []any{"10.9.0.0/16"}, "next_hop_ip_address": "10.1.0.4"}},
	}
	if v4 {
		routing["static_vnet_propagate_static_routes_enabled"] = true
	}
	return map[string]any{"id": hubConn, "name": "conn-spoke", "virtual_hub_id": vwanHub, "remote_virtual_network_id": spkNet,
		"internet_security_enabled": internet, "routing": []any{routing}}
}

// TestHubConnection: an azurerm_virtual_hub_connection change (v3 and v4
// attribute names alike) is the connection with its remote VNet, internet
// security and routing configuration: associated table, propagated tables
// and labels, static routes. Without a routing block a new connection
// leaves the routing configuration out (Azure's defaults:
// defaultRouteTable); a routing block whose propagation is known only after
// apply makes it unknown.
func TestHubConnection(t *testing.T) {
	for _, v4 := range []bool{false, true} {
		before := connVals(v4, []any{hubDefRT}, []any{"default"}, true)
		after := connVals(v4, []any{hubNone}, []any{"none"}, false)
		p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_connection.spoke", actions: update, before: before, after: after}}, providerSub: sub1}, Options{})
		checkOps(t, p)
		op := opFor(t, p, OpPut, hubConn)
		want(t, op, map[string]any{
			"type": "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections", "name": "conn-spoke",
			"properties.remoteVirtualNetwork.id":                                          spkNet,
			"properties.enableInternetSecurity":                                           false,
			"properties.routingConfiguration.associatedRouteTable.id":                     hubDefRT,
			"properties.routingConfiguration.propagatedRouteTables.ids":                   []any{map[string]any{"id": hubNone}},
			"properties.routingConfiguration.propagatedRouteTables.labels":                []any{"none"},
			"properties.routingConfiguration.vnetRoutes.staticRoutes.#0.name":             "nva",
			"properties.routingConfiguration.vnetRoutes.staticRoutes.#0.addressPrefixes":  []any{"10.9.0.0/16"},
			"properties.routingConfiguration.vnetRoutes.staticRoutes.#0.nextHopIpAddress": "10.1.0.4",
		})
		if v4 {
			want(t, op, map[string]any{"properties.routingConfiguration.vnetRoutes.staticRoutesConfig.propagateStaticRoutes": true})
		} else if got := at(op.Body, "properties.routingConfiguration.vnetRoutes.staticRoutesConfig.propagateStaticRoutes"); got != nil {
			t.Errorf("v3 has no static_vnet_propagate_static_routes_enabled, but the connection sets propagateStaticRoutes")
		}
		if len(op.Unknown) != 0 {
			t.Errorf("v4=%v: unknowns of a known connection: %v", v4, op.Unknown)
		}
	}

	// Static routes not propagated, and the spoke's own space bypassing
	// them (vnetLocalRouteOverrideCriteria Equal).
	off := connVals(true, []any{hubDefRT}, []any{"default"}, false)
	off["routing"].([]any)[0].(map[string]any)["static_vnet_propagate_static_routes_enabled"] = false
	off["routing"].([]any)[0].(map[string]any)["static_vnet_local_route_override_criteria"] = "Equal"
	p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_connection.spoke", actions: update, before: connVals(true, []any{hubDefRT}, []any{"default"}, false), after: off}}, providerSub: sub1}, Options{})
	want(t, opFor(t, p, OpPut, hubConn), map[string]any{
		"properties.routingConfiguration.vnetRoutes.staticRoutesConfig.propagateStaticRoutes":          false,
		"properties.routingConfiguration.vnetRoutes.staticRoutesConfig.vnetLocalRouteOverrideCriteria": "Equal",
	})

	// A new connection without a routing block: Azure's defaults.
	created := map[string]any{"name": "conn-new", "virtual_hub_id": vwanHub, "remote_virtual_network_id": spkNet, "internet_security_enabled": nil}
	p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_connection.new", actions: create, after: created,
		unknown: map[string]any{"id": true, "routing": true}, expr: map[string]any{"name": constExpr("conn-new")}}}, providerSub: sub1}, Options{})
	checkOps(t, p)
	op := opFor(t, p, OpPut, vwanHub+"/hubVirtualNetworkConnections/conn-new")
	want(t, op, map[string]any{"properties.routingConfiguration": nil, "properties.enableInternetSecurity": false, "properties.remoteVirtualNetwork.id": spkNet})
	if len(op.Unknown) != 0 {
		t.Errorf("a connection with Azure's default routing has unknowns: %v", op.Unknown)
	}

	// A routing block set in the configuration whose propagation is known
	// only after apply.
	unk := connVals(true, nil, nil, false)
	p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_connection.spoke", actions: update, before: connVals(true, []any{hubDefRT}, []any{"default"}, false), after: unk,
		unknown: map[string]any{"routing": []any{map[string]any{"propagated_route_table": []any{map[string]any{"route_table_ids": true}}}}},
		expr:    map[string]any{"routing": []any{map[string]any{"propagated_route_table": []any{map[string]any{"route_table_ids": refExpr("azurerm_virtual_hub_route_table.x.id")}}}}}}}, providerSub: sub1}, Options{})
	op = opFor(t, p, OpPut, hubConn)
	if !hasUnknown(op, "properties.routingConfiguration.propagatedRouteTables") {
		t.Errorf("propagation known only after apply is known: %v", op.Unknown)
	}
}

// TestHubRouteTables: an azurerm_virtual_hub_route_table is its labels and
// inline routes (or, without route blocks, a patch of its labels that
// leaves the routes to azurerm_virtual_hub_route_table_route); a route
// resource is one route embedded in its table.
func TestHubRouteTables(t *testing.T) {
	rt := vwanHub + "/hubRouteTables/rt-fw"
	route := map[string]any{"name": "to-fw", "destinations_type": "CIDR", "destinations": []any{"10.0.0.0/8"}, "next_hop_type": "ResourceId", "next_hop": hubFW}
	vals := map[string]any{"id": rt, "name": "rt-fw", "virtual_hub_id": vwanHub, "labels": []any{"fw"}, "route": []any{route}}
	for _, v4 := range []bool{false, true} {
		p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_route_table.fw", actions: create, after: vals, unknown: map[string]any{"id": true},
			expr: map[string]any{"route": refExpr("local.routes")}}}, providerSub: sub1}, Options{})
		checkOps(t, p)
		want(t, opFor(t, p, OpPut, rt), map[string]any{"properties.labels": []any{"fw"}, "properties.routes.#0.name": "to-fw",
			"properties.routes.#0.destinations": []any{"10.0.0.0/8"}, "properties.routes.#0.nextHop": hubFW, "properties.routes.#0.destinationType": "CIDR"})
		_ = v4 // the attribute names are the same in v3 and v4
	}
	// Routes owned by azurerm_virtual_hub_route_table_route: the table's
	// update patches its labels only.
	noRoutes := map[string]any{"id": rt, "name": "rt-fw", "virtual_hub_id": vwanHub, "labels": []any{"fw", "x"}, "route": []any{route}}
	p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_route_table.fw", actions: update, before: vals, after: noRoutes, expr: map[string]any{"name": constExpr("rt-fw")}}}, providerSub: sub1}, Options{})
	op := opFor(t, p, OpPatch, rt)
	want(t, op, map[string]any{"properties.labels": []any{"fw", "x"}, "properties.routes": nil})

	r := map[string]any{"id": rt + "/routes/to-fw", "route_table_id": rt, "name": "to-fw", "destinations_type": "CIDR", "destinations": []any{"10.2.0.0/16"}, "next_hop_type": "ResourceId", "next_hop": hubFW}
	p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_route_table_route.fw", actions: create, after: r, unknown: map[string]any{"id": true}}}, providerSub: sub1}, Options{})
	checkOps(t, p)
	want(t, opFor(t, p, OpPut, rt+"/routes/to-fw"), map[string]any{"name": "to-fw", "destinations": []any{"10.2.0.0/16"}, "nextHop": hubFW, "nextHopType": "ResourceId"})
	p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_route_table_route.fw", actions: del, before: r}}, providerSub: sub1}, Options{})
	opFor(t, p, OpDelete, rt+"/routes/to-fw")
}

// TestRoutingIntentAndHub: an azurerm_virtual_hub_routing_intent is its
// policies with their next hop; an azurerm_virtual_hub update patches its
// address prefix (keeping its router and firewall as Azure has them), and
// a new hub's router addresses are known only after apply.
func TestRoutingIntentAndHub(t *testing.T) {
	ri := vwanHub + "/routingIntent/ri"
	vals := map[string]any{"id": ri, "name": "ri", "virtual_hub_id": vwanHub,
		"routing_policy": []any{map[string]any{"name": "PrivateTrafficPolicy", "destinations": []any{"PrivateTraffic"}, "next_hop": hubFW}}}
	p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub_routing_intent.ri", actions: create, after: vals, unknown: map[string]any{"id": true}}}, providerSub: sub1}, Options{})
	checkOps(t, p)
	want(t, opFor(t, p, OpPut, ri), map[string]any{"properties.routingPolicies.#0.destinations": []any{"PrivateTraffic"}, "properties.routingPolicies.#0.nextHop": hubFW})

	wan := rgVWAN + "/providers/Microsoft.Network/virtualWans/vwan"
	for _, v4 := range []bool{false, true} {
		hub := map[string]any{"id": vwanHub, "name": "hub-weu", "resource_group_name": "rg-vwan", "location": "westeurope", "address_prefix": "10.100.0.0/23",
			"virtual_wan_id": wan, "sku": "Standard", "route": []any{}, "tags": map[string]any{}}
		after := map[string]any{}
		for k, v := range hub {
			after[k] = v
		}
		after["address_prefix"] = "10.100.2.0/23"
		if v4 {
			hub["branch_to_branch_traffic_enabled"] = false
			after["branch_to_branch_traffic_enabled"] = false
		}
		p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub.weu", actions: update, before: hub, after: after}}, providerSub: sub1}, Options{})
		checkOps(t, p)
		op := opFor(t, p, OpPatch, vwanHub)
		want(t, op, map[string]any{"properties.addressPrefix": "10.100.2.0/23", "properties.virtualWan.id": wan, "properties.virtualRouterIps": nil, "properties.azureFirewall": nil})
	}
	created := map[string]any{"name": "hub-new", "resource_group_name": "rg-vwan", "location": "westeurope", "address_prefix": "10.101.0.0/23", "virtual_wan_id": wan}
	p = mustParse(t, planSpec{changes: []rc{{addr: "azurerm_virtual_hub.new", actions: create, after: created, unknown: map[string]any{"id": true, "virtual_router_ips": true}}}, providerSub: sub1}, Options{})
	op := opFor(t, p, OpPut, rgVWAN+"/providers/Microsoft.Network/virtualHubs/hub-new")
	want(t, op, map[string]any{"properties.addressPrefix": "10.101.0.0/23"})
	if !hasUnknown(op, "properties.virtualRouterIps") {
		t.Errorf("a new hub's router addresses are known: %v", op.Unknown)
	}
}

// TestVirtualWANAzapi: azapi_resource bodies of a hub connection, a hub
// route table and a routing intent are their ARM bodies, at the child ids
// of their hub.
func TestVirtualWANAzapi(t *testing.T) {
	p := mustParse(t, planSpec{changes: []rc{
		{addr: "azapi_resource.conn", actions: create, unknown: map[string]any{"id": true},
			after: map[string]any{"type": "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections@2024-05-01", "name": "conn-spoke", "parent_id": vwanHub,
				"body": map[string]any{"properties": map[string]any{"remoteVirtualNetwork": map[string]any{"id": spkNet}, "enableInternetSecurity": true,
					"routingConfiguration": map[string]any{"associatedRouteTable": map[string]any{"id": hubDefRT},
						"propagatedRouteTables": map[string]any{"ids": []any{map[string]any{"id": hubNone}}, "labels": []any{"none"}}}}}}},
		{addr: "azapi_resource.rt", actions: create, unknown: map[string]any{"id": true},
			after: map[string]any{"type": "Microsoft.Network/virtualHubs/hubRouteTables@2024-05-01", "name": "rt-fw", "parent_id": vwanHub,
				"body": `{"properties":{"labels":["fw"],"routes":[{"name":"to-fw","destinationType":"CIDR","destinations":["10.0.0.0/8"],"nextHopType":"ResourceId","nextHop":"` + hubFW + `"}]}}`}},
		{addr: "azapi_resource.ri", actions: create, unknown: map[string]any{"id": true},
			after: map[string]any{"type": "Microsoft.Network/virtualHubs/routingIntent@2024-05-01", "name": "ri", "parent_id": vwanHub,
				"body": map[string]any{"properties": map[string]any{"routingPolicies": []any{map[string]any{"name": "Internet", "destinations": []any{"Internet"}, "nextHop": hubFW}}}}}},
	}}, Options{})
	checkOps(t, p)
	want(t, opFor(t, p, OpPut, hubConn), map[string]any{"type": "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections",
		"properties.routingConfiguration.propagatedRouteTables.ids": []any{map[string]any{"id": hubNone}}, "properties.enableInternetSecurity": true})
	want(t, opFor(t, p, OpPut, vwanHub+"/hubRouteTables/rt-fw"), map[string]any{"properties.routes.#0.nextHop": hubFW})
	want(t, opFor(t, p, OpPut, vwanHub+"/routingIntent/ri"), map[string]any{"properties.routingPolicies.#0.destinations": []any{"Internet"}})
}
