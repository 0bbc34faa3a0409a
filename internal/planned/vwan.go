// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

import "fmt"

// Virtual WAN: virtual hubs, their virtual network connections (with the
// routing configuration: associated and propagated route tables, labels,
// static routes, internet security), their route tables and routes, and
// their routing intent. Members are those internal/gather reads
// (convert_vwan.go), in the shape of the Microsoft.Network REST API.
// azurerm v3 and v4 name these arguments alike (v4 adds
// static_vnet_propagate_static_routes_enabled to a connection and
// branch_to_branch_traffic_enabled to a hub, which decide nothing the
// provider reads). azapi_resource bodies of these types are ARM's already.

const (
	typeVirtualHub    = "Microsoft.Network/virtualHubs"
	typeHubConnection = "Microsoft.Network/virtualHubs/hubVirtualNetworkConnections"
	typeHubRouteTable = "Microsoft.Network/virtualHubs/hubRouteTables"
	typeRoutingIntent = "Microsoft.Network/virtualHubs/routingIntent"
)

// putVirtualHub: a new hub is its address prefix and virtual WAN, with the
// router addresses Azure assigns (known after apply); an update patches
// what azurerm_virtual_hub manages, leaving what Azure and other resources
// set (the router addresses, the secured hub's azureFirewall) as they are.
func putVirtualHub(t *changeTranslation, id string) error {
	b := base(id, typeVirtualHub, t, true)
	kind := OpPut
	if t.ch.rc.Change.Actions.Update() {
		kind = OpPatch
	}
	op := t.op(kind, id, b)
	p := props(b)
	if v := t.get("address_prefix"); v.str() != "" {
		p["addressPrefix"] = v.str()
	} else if v.unknown() {
		op.Unknown = append(op.Unknown, "properties.addressPrefix")
	}
	setRef(t, op, "virtual_wan_id", "virtualWan")
	if s := t.get("sku").str(); s != "" {
		p["sku"] = s
	}
	if kind == OpPut {
		// Azure gives a new hub's router its addresses.
		op.Unknown = append(op.Unknown, "properties.virtualRouterIps")
	}
	return nil
}

// putHubConnection puts a virtual hub's connection to a VNet. Without a
// routing block Azure associates the connection with defaultRouteTable and
// propagates it there (label "default"): the body then has no
// routingConfiguration, which gather reads as those defaults.
func putHubConnection(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeHubConnection, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	setRef(t, op, "remote_virtual_network_id", "remoteVirtualNetwork")
	if _, ok := p["remoteVirtualNetwork"]; !ok {
		return fmt.Errorf("it has no remote_virtual_network_id")
	}
	if v, ok := t.get("internet_security_enabled").boolp(); ok {
		p["enableInternetSecurity"] = v
	} else if t.get("internet_security_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.enableInternetSecurity")
	} else {
		p["enableInternetSecurity"] = false
	}
	routing := t.get("routing")
	if routing.unknown() {
		if !t.argSet("routing") {
			return nil // Azure's defaults (above)
		}
		op.Unknown = append(op.Unknown, "properties.routingConfiguration")
		return nil
	}
	if len(routing.list()) == 0 {
		return nil
	}
	rt := t.sub("routing", 0)
	rc := map[string]any{}
	p["routingConfiguration"] = rc
	if assoc, ok := rt.refID("associated_route_table_id"); ok {
		rc["associatedRouteTable"] = ref(assoc)
	} else if rt.get("associated_route_table_id").unknown() {
		if !rt.argSet("associated_route_table_id") {
			rc["associatedRouteTable"] = ref(defaultRouteTable(t))
		} else {
			op.Unknown = append(op.Unknown, "properties.routingConfiguration.associatedRouteTable.id")
		}
	}
	prop := rt.get("propagated_route_table")
	switch {
	case prop.unknown() && !rt.argSet("propagated_route_table"):
		// Azure's default propagation (defaultRouteTable, label "default").
	case prop.unknown():
		op.Unknown = append(op.Unknown, "properties.routingConfiguration.propagatedRouteTables")
	case len(prop.list()) > 0:
		pt := rt.sub("propagated_route_table", 0)
		ptIDs, all := pt.refIDs("route_table_ids")
		tables := []any{}
		for _, tid := range ptIDs {
			tables = append(tables, ref(tid))
		}
		labels := pt.get("labels")
		propagated := map[string]any{"ids": tables, "labels": anyList(labels.strs())}
		if !all || labels.anyUnknown() {
			op.Unknown = append(op.Unknown, "properties.routingConfiguration.propagatedRouteTables")
		}
		rc["propagatedRouteTables"] = propagated
	}
	routes := []any{}
	for i, r := range rt.get("static_vnet_route").list() {
		sr := map[string]any{"name": r.at("name").str(), "addressPrefixes": anyList(r.at("address_prefixes").strs())}
		if ip := r.at("next_hop_ip_address").str(); ip != "" {
			sr["nextHopIpAddress"] = ip
		}
		if r.anyUnknown() {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.routingConfiguration.vnetRoutes.staticRoutes[%d]", i))
		}
		routes = append(routes, sr)
	}
	if rt.get("static_vnet_route").unknown() {
		op.Unknown = append(op.Unknown, "properties.routingConfiguration.vnetRoutes.staticRoutes")
	}
	vnetRoutes := map[string]any{"staticRoutes": routes}
	// staticRoutesConfig: propagate_static_routes_enabled (v4; Azure's
	// default true) and local_route_override_criteria (Contains or Equal).
	cfg := map[string]any{}
	if prop := rt.get("static_vnet_propagate_static_routes_enabled"); prop.unknown() {
		op.Unknown = append(op.Unknown, "properties.routingConfiguration.vnetRoutes.staticRoutesConfig.propagateStaticRoutes")
	} else if b, ok := prop.boolp(); ok {
		cfg["propagateStaticRoutes"] = b
	}
	if crit := rt.get("static_vnet_local_route_override_criteria"); crit.unknown() {
		op.Unknown = append(op.Unknown, "properties.routingConfiguration.vnetRoutes.staticRoutesConfig.vnetLocalRouteOverrideCriteria")
	} else if s := crit.str(); s != "" {
		cfg["vnetLocalRouteOverrideCriteria"] = s
	}
	if len(cfg) > 0 {
		vnetRoutes["staticRoutesConfig"] = cfg
	}
	rc["vnetRoutes"] = vnetRoutes
	return nil
}

// defaultRouteTable is the id of the defaultRouteTable of the connection's
// hub.
func defaultRouteTable(t *changeTranslation) string {
	hub, _ := t.refID("virtual_hub_id")
	return hub + "/hubRouteTables/defaultRouteTable"
}

// putHubRouteTable puts a hub route table with its labels and, when the
// configuration lists them, its inline routes; otherwise the routes stay
// what they are (azurerm_virtual_hub_route_table_route resources own them).
func putHubRouteTable(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeHubRouteTable, "properties": map[string]any{}}
	kind := OpPut
	inline := t.argSet("route") && !t.ch.managedElsewhere("route")
	if !inline && t.ch.rc.Change.Actions.Update() {
		kind = OpPatch
		b = map[string]any{"properties": map[string]any{}}
	}
	op := t.op(kind, id, b)
	p := props(b)
	labels := t.get("labels")
	p["labels"] = anyList(labels.strs())
	if labels.anyUnknown() {
		op.Unknown = append(op.Unknown, "properties.labels")
	}
	if !inline {
		if kind == OpPut {
			p["routes"] = []any{}
		}
		return nil
	}
	if t.get("route").unknown() {
		op.Unknown = append(op.Unknown, "properties.routes")
		return nil
	}
	routes := []any{}
	for i, r := range t.get("route").list() {
		route, unknown := hubRoute(r)
		if unknown {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.routes[%d]", i))
		}
		routes = append(routes, route)
	}
	p["routes"] = routes
	return nil
}

// hubRoute is a hub route table's route as ARM embeds it in the table
// (no id of its own), and whether part of it is unknown.
func hubRoute(r val) (map[string]any, bool) {
	return map[string]any{
		"name":            r.at("name").str(),
		"destinationType": r.at("destinations_type").str(),
		"destinations":    anyList(r.at("destinations").strs()),
		"nextHopType":     firstNonEmpty(r.at("next_hop_type").str(), "ResourceId"),
		"nextHop":         r.at("next_hop").str(),
	}, r.anyUnknown()
}

// hubRouteTableRouteID is the id azurerm gives a route of a hub route
// table: the table's id, /routes/, the route's name. ARM embeds the route
// in the table (resolve.go's embedded).
func hubRouteTableRouteID(t *changeTranslation) (string, error) {
	table, err := t.requiredRef("route_table_id")
	if err != nil {
		return "", err
	}
	name, err := t.name("name")
	if err != nil {
		return "", err
	}
	return table + "/routes/" + name, nil
}

func putHubRouteTableRoute(t *changeTranslation, id string) error {
	route, unknown := hubRoute(t.cur)
	op := t.op(OpPut, id, route)
	if unknown {
		op.Unknown = append(op.Unknown, "destinations", "nextHop")
	}
	return nil
}

// putRoutingIntent puts a hub's routing intent: each policy's
// destinations (PrivateTraffic, Internet) and next hop (the hub's Azure
// Firewall or a network virtual appliance).
func putRoutingIntent(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRoutingIntent, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	if t.get("routing_policy").unknown() {
		op.Unknown = append(op.Unknown, "properties.routingPolicies")
		return nil
	}
	policies := []any{}
	for i, pol := range t.get("routing_policy").list() {
		pt := t.sub("routing_policy", i)
		next, ok := pt.refID("next_hop")
		if !ok {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.routingPolicies[%d].nextHop", i))
		}
		if pol.at("destinations").anyUnknown() {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.routingPolicies[%d].destinations", i))
		}
		policies = append(policies, map[string]any{"name": pol.at("name").str(),
			"destinations": anyList(pol.at("destinations").strs()), "nextHop": next})
	}
	props(b)["routingPolicies"] = policies
	return nil
}
