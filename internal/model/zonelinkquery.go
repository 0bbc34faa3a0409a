// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"slices"
	"sort"
	"strings"
)

// ZoneLinkType is the resource type of a private DNS zone's virtual
// network link, in lower case.
const ZoneLinkType = "microsoft.network/privatednszones/virtualnetworklinks"

// ZoneLinkQuery is the Azure Resource Graph search for private DNS zone
// virtual network links: those to a set of VNets, or those of every zone
// whose name lies in a set of domains (the search gather asks before it
// knows the VNets), or both. It is the one place that says what the query
// is. Gather sends its KQL text; the what-if overlay recognises the request
// by that same text and evaluates the planned links with Includes and Row,
// so neither side parses KQL.
type ZoneLinkQuery struct {
	// VNets are the id keys (lower case) of the VNets, sorted, each once;
	// empty: links to any VNet.
	VNets []string
	// ZoneDomains are the zone name domains (ZoneDomain, lower case),
	// sorted, each once; empty: links of any zone.
	ZoneDomains []string
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

// NewZoneDomainLinkQuery is the query for the links, to any VNet, of the
// zones whose name lies in one of domains (ZoneDomain of the zone name).
func NewZoneDomainLinkQuery(domains []string) ZoneLinkQuery {
	var ds []string
	for _, d := range domains {
		if d = ZoneDomain(d); d != "" {
			ds = append(ds, d)
		}
	}
	sort.Strings(ds)
	return ZoneLinkQuery{ZoneDomains: slices.Compact(ds)}
}

// KQL is the query's text. Each row is a link: its id and its VNet's id in
// lower case (vnetId).
func (q ZoneLinkQuery) KQL() string {
	in := func(col string, vals []string) string {
		quoted := make([]string, len(vals))
		for i, v := range vals {
			quoted[i] = KQLString(v)
		}
		return "| where " + col + " in (" + strings.Join(quoted, ", ") + ")\n"
	}
	kql := "resources\n" +
		"| where type =~ '" + ZoneLinkType + "'\n" +
		"| extend vnetId = tolower(tostring(properties.virtualNetwork.id))\n"
	if len(q.ZoneDomains) > 0 {
		kql += "| extend zoneDomain = extract(@'([^.]+[.][^.]+)$', 1, tolower(tostring(split(id, '/')[8])))\n" +
			in("zoneDomain", q.ZoneDomains)
	}
	if len(q.VNets) > 0 {
		kql += in("vnetId", q.VNets)
	}
	return kql + "| project id, vnetId"
}

// Includes reports whether the link linkID (…/privateDnsZones/{zone}/
// virtualNetworkLinks/{link}) to the VNet vnetID is a row of the query's
// answer. An empty vnetID (a row that does not say) passes the VNet test:
// the zone's own links decide.
func (q ZoneLinkQuery) Includes(linkID, vnetID string) bool {
	if len(q.VNets) > 0 && vnetID != "" {
		k := ResourceID(vnetID).Key()
		if i := sort.SearchStrings(q.VNets, k); i == len(q.VNets) || q.VNets[i] != k {
			return false
		}
	}
	if len(q.ZoneDomains) > 0 {
		zone := ""
		if i := strings.Index(strings.ToLower(linkID), "/virtualnetworklinks/"); i > 0 {
			zone = ResourceID(linkID[:i]).Name()
		}
		// A zone whose name is known only after apply may lie in any
		// domain.
		if _, found := slices.BinarySearch(q.ZoneDomains, ZoneDomain(zone)); zone == "" || !found && zone != NameKnownAfterApply {
			return false
		}
	}
	return true
}

// RowType is the type of the resources its rows are (GraphSearch).
func (ZoneLinkQuery) RowType() string { return ZoneLinkType }

// What names what the query finds (GraphSearch).
func (ZoneLinkQuery) What() string { return "the private DNS zone links" }

// Row is the row the query answers for the link id whose ARM body is
// body, and whether the query includes it (GraphSearch).
func (q ZoneLinkQuery) Row(id string, body map[string]any) (map[string]any, bool) {
	vnet := q.RowVNet(body)
	if !strings.EqualFold(TypeOf(id), ZoneLinkType) || !q.Includes(id, vnet) {
		return nil, false
	}
	return map[string]any{"id": id, "vnetId": strings.ToLower(vnet)}, true
}

// Base is the link as a row shows it: only its VNet (GraphSearch).
func (q ZoneLinkQuery) Base(row map[string]any) map[string]any {
	return map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": q.RowVNet(row)}}}
}

// RowVNet is the VNet id of a row of the query's answer ("" when the row
// does not say).
func (q ZoneLinkQuery) RowVNet(row map[string]any) string {
	if v, _ := row["vnetId"].(string); v != "" {
		return v
	}
	v, _ := propsOf(row)["virtualNetwork"].(map[string]any)
	s, _ := v["id"].(string)
	return s
}

// KQLString quotes s as a KQL string literal (Resource Graph queries).
func KQLString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
