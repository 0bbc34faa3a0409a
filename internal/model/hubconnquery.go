// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"slices"
	"strings"
)

// HubConnectionType is the resource type of a Virtual WAN hub's virtual
// network connection, in lower case.
const HubConnectionType = "microsoft.network/virtualhubs/hubvirtualnetworkconnections"

// HubConnectionQuery is the Azure Resource Graph search for the Virtual
// WAN hub connections whose remote VNet is one of a set of VNets (which
// hub a spoke is connected to: the hub's VNet, Microsoft's, cannot be
// read). It is the one place that says what the query is. Gather sends its
// KQL text; the what-if overlay recognises the request by that same text
// and evaluates the planned connections with Row, so neither side parses
// KQL.
type HubConnectionQuery struct {
	// VNets are the id keys (lower case) of the VNets, sorted, each once.
	VNets []string
}

// NewHubConnectionQuery is the query for the hub connections of vnets.
func NewHubConnectionQuery(vnets []ResourceID) HubConnectionQuery {
	var keys []string
	for _, v := range vnets {
		if !v.IsZero() {
			keys = append(keys, v.Key())
		}
	}
	slices.Sort(keys)
	return HubConnectionQuery{VNets: slices.Compact(keys)}
}

// KQL is the query's text. Each row is a connection: its id and its
// remote VNet's id in lower case (vnetId).
func (q HubConnectionQuery) KQL() string {
	quoted := make([]string, len(q.VNets))
	for i, k := range q.VNets {
		quoted[i] = KQLString(k)
	}
	return "resources\n" +
		"| where type =~ '" + HubConnectionType + "'\n" +
		"| extend vnetId = tolower(tostring(properties.remoteVirtualNetwork.id))\n" +
		"| where vnetId in (" + strings.Join(quoted, ", ") + ")\n" +
		"| project id, vnetId"
}

// Includes reports whether a connection to the VNet vnetID is a row of the
// query's answer.
func (q HubConnectionQuery) Includes(vnetID string) bool {
	if vnetID == "" {
		return false
	}
	_, found := slices.BinarySearch(q.VNets, ResourceID(vnetID).Key())
	return found
}

// RowType is the type of the resources its rows are (GraphSearch).
func (HubConnectionQuery) RowType() string { return HubConnectionType }

// What names what the query finds (GraphSearch).
func (HubConnectionQuery) What() string { return "the Virtual WAN hub connections" }

// Base is the connection as a row shows it: only its remote VNet
// (GraphSearch).
func (HubConnectionQuery) Base(row map[string]any) map[string]any {
	return map[string]any{"properties": map[string]any{"remoteVirtualNetwork": map[string]any{"id": HubConnectionRowVNet(row)}}}
}

// Row is the row the query answers for the connection id whose ARM body
// is body, and whether the query includes it (GraphSearch).
func (q HubConnectionQuery) Row(id string, body map[string]any) (map[string]any, bool) {
	vnet := HubConnectionRowVNet(body)
	if !strings.EqualFold(TypeOf(id), HubConnectionType) || !q.Includes(vnet) {
		return nil, false
	}
	return map[string]any{"id": id, "vnetId": strings.ToLower(vnet)}, true
}

// HubConnectionRowVNet is the remote VNet id of a row of the query's
// answer (vnetId, or properties.remoteVirtualNetwork.id when the row is
// the whole resource); "" when the row does not say.
func HubConnectionRowVNet(row map[string]any) string {
	if v, _ := row["vnetId"].(string); v != "" {
		return v
	}
	v, _ := propsOf(row)["remoteVirtualNetwork"].(map[string]any)
	s, _ := v["id"].(string)
	return s
}
