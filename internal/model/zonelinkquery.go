// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"sort"
	"strings"
)

// ZoneLinkType is the resource type of a private DNS zone's virtual
// network link, in lower case.
const ZoneLinkType = "microsoft.network/privatednszones/virtualnetworklinks"

// ZoneLinkQuery is the Azure Resource Graph search for the private DNS
// zone virtual network links to a set of VNets: the one place that says
// what the query is. Gather sends its KQL text; the what-if overlay
// recognises the request by that same text and evaluates the planned links
// with Includes and Row, so neither side parses KQL.
type ZoneLinkQuery struct {
	// VNets are the id keys (lower case) of the VNets, sorted, each once.
	VNets []string
}

// NewZoneLinkQuery is the query for the links to vnets.
func NewZoneLinkQuery(vnets []ResourceID) ZoneLinkQuery {
	var keys []string
	seen := map[string]bool{}
	for _, v := range vnets {
		if !v.IsZero() && !seen[v.Key()] {
			seen[v.Key()] = true
			keys = append(keys, v.Key())
		}
	}
	sort.Strings(keys)
	return ZoneLinkQuery{VNets: keys}
}

// KQL is the query's text. Each row is a link: its id and its VNet's id in
// lower case (vnetId).
func (q ZoneLinkQuery) KQL() string {
	quoted := make([]string, len(q.VNets))
	for i, k := range q.VNets {
		quoted[i] = kqlString(k)
	}
	return "resources\n" +
		"| where type =~ '" + ZoneLinkType + "'\n" +
		"| extend vnetId = tolower(tostring(properties.virtualNetwork.id))\n" +
		"| where vnetId in (" + strings.Join(quoted, ", ") + ")\n" +
		"| project id, vnetId"
}

// Includes reports whether a link to the VNet vnetID is a row of the
// query's answer.
func (q ZoneLinkQuery) Includes(vnetID string) bool {
	k := ResourceID(vnetID).Key()
	i := sort.SearchStrings(q.VNets, k)
	return i < len(q.VNets) && q.VNets[i] == k
}

// Row is the row the query answers for the link linkID to the VNet vnetID.
func (q ZoneLinkQuery) Row(linkID, vnetID string) map[string]any {
	return map[string]any{"id": linkID, "vnetId": strings.ToLower(vnetID)}
}

// RowVNet is the VNet id of a row of the query's answer ("" when the row
// does not say).
func (q ZoneLinkQuery) RowVNet(row map[string]any) string {
	if v, _ := row["vnetId"].(string); v != "" {
		return v
	}
	if props, ok := row["properties"].(map[string]any); ok {
		if v, ok := props["virtualNetwork"].(map[string]any); ok {
			s, _ := v["id"].(string)
			return s
		}
	}
	return ""
}

// kqlString quotes s as a KQL string literal.
func kqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
