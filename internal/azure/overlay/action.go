// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// routingTypes are the resource types whose change changes a NIC's
// effective route table.
var routingTypes = []string{
	"microsoft.network/virtualnetworks",
	"microsoft.network/routetables",
	"microsoft.network/virtualnetworkgateways",
	"microsoft.network/connections",
	"microsoft.network/localnetworkgateways",
	"microsoft.network/virtualhubs",
	"microsoft.network/networkinterfaces",
	"microsoft.network/expressroutecircuits",
}

// action answers a POST.
func (o *Overlay) action(req *policy.Request, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	path := strings.TrimSuffix(raw.URL.Path, "/")
	target := path[:max(0, strings.LastIndex(path, "/"))]
	addrsOf := func(match func(planned.Op) bool) []string {
		var out []string
		for _, op := range ops {
			if match(op) && !slices.Contains(out, op.Address) {
				out = append(out, op.Address)
			}
		}
		sort.Strings(out)
		return out
	}
	served := func(match func(planned.Op) bool) {
		var s []planned.Op
		for _, op := range ops {
			if match(op) {
				s = append(s, op)
			}
		}
		noteServed(raw.Context(), s)
	}
	allowed, ok := azure.ReadActionFor(raw.URL.EscapedPath())
	if !ok {
		// The guard refuses it below.
		return req.Next()
	}
	switch allowed.WhatIf {
	case azure.WhatIfStaleWithRouting, azure.WhatIfStaleWithRoutingOrSecurity:
		match := func(op planned.Op) bool {
			t := typeOf(op.ID)
			for _, rt := range routingTypes {
				if t == rt || strings.HasPrefix(t, rt+"/") {
					return true
				}
			}
			return allowed.WhatIf == azure.WhatIfStaleWithRoutingOrSecurity && strings.HasPrefix(t, "microsoft.network/networksecuritygroups")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedStaleError{Action: path, Addresses: addrs}
		}
	case azure.WhatIfBGPOfOwner:
		// Gateways (…/virtualNetworkGateways/{g}/getLearnedRoutes) and
		// Route Servers (…/virtualHubs/{h}/bgpConnections/{c}/learnedRoutes):
		// the owner is the gateway or the hub.
		owner := target
		if tp, ok := parseARMPath(target); ok && tp.top() != "" {
			owner = tp.top()
		}
		match := func(op planned.Op) bool {
			id := strings.ToLower(op.ID)
			return id == strings.ToLower(owner) || strings.HasPrefix(id, strings.ToLower(owner)+"/")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"the routes exchanged over BGP by " + owner}}
		}
	case azure.WhatIfDNSResolvers, azure.WhatIfDNSRulesets:
		kind, what := "microsoft.network/dnsresolvers", "DNS resolvers"
		if allowed.WhatIf == azure.WhatIfDNSRulesets {
			kind, what = "microsoft.network/dnsforwardingrulesets", "DNS forwarding rulesets"
		}
		match := func(op planned.Op) bool { t := typeOf(op.ID); return t == kind || strings.HasPrefix(t, kind+"/") }
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"which " + what + " serve " + target}}
		}
	case azure.WhatIfAdminRules:
		// What the network managers apply to the VNet (…/virtualNetworks/{v}):
		// after a change of a network manager (its groups, configurations,
		// rules, deployments) it is known only after apply. A VNet the
		// plan creates is answered as Azure answers now (not found: the
		// paths through it are unverified by that gap).
		match := func(op planned.Op) bool {
			t := typeOf(op.ID)
			return t == "microsoft.network/networkmanagers" || strings.HasPrefix(t, "microsoft.network/networkmanagers/")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"the security admin rules in effect on " + target}}
		}
	case azure.WhatIfResourceGraph:
		return o.graph(req, ops)
	}
	return req.Next()
}

// graph answers a Resource Graph query: the private DNS zone link search
// of gather (ZonesLinkedTo) sees the links the plan creates or deletes; the
// resolver inbound endpoint and hub connection searches, known by the
// model query their context carries, are answered by graphAfterPlan
// (action_graph.go).
// The request's context carries the query (azure.WithZoneLinkQuery), and
// the request must send exactly its text (model.ZoneLinkQuery.KQL): the
// overlay never reads KQL. Any other query, while the plan changes what a
// search finds, fails as unknown rather than answer with what will be gone.
func (o *Overlay) graph(req *policy.Request, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	if s, ok := graphSearchOf(raw.Context()); ok {
		return o.graphAfterPlan(req, ops, s)
	}
	if _, zoneLinks := azure.ZoneLinkQueryOf(raw.Context()); !zoneLinks {
		if err := searchedTypesChange(raw, ops); err != nil {
			// A query that carries no search the overlay knows, while the
			// plan changes what such a search finds.
			return nil, err
		}
	}
	var links []planned.Op
	for _, op := range ops {
		if typeOf(op.ID) == model.ZoneLinkType {
			links = append(links, op)
		}
	}
	if len(links) == 0 {
		return req.Next()
	}
	text, err := graphQueryText(req)
	if err != nil {
		return nil, err
	}
	unknown := func(why string) error {
		var addrs []string
		for _, op := range links {
			addrs = append(addrs, op.Address)
		}
		slices.Sort(addrs)
		noteServed(raw.Context(), links)
		return &azure.PlannedValueUnknownError{ID: raw.URL.Path, Address: strings.Join(slices.Compact(addrs), ", "), Members: []string{why}}
	}
	query, ok := azure.ZoneLinkQueryOf(raw.Context())
	if !ok || text != query.KQL() {
		return nil, unknown("the private DNS zone links a Resource Graph query finds")
	}
	resp, ans, ok, err := graphAnswer(req)
	if !ok {
		return resp, err
	}
	rows, isArr := ans["data"].([]any)
	if !isArr && ans["data"] != nil {
		return nil, unknown("the private DNS zone links a Resource Graph query finds")
	}
	byID := map[string][]planned.Op{}
	var order []string
	for _, op := range links {
		k := strings.ToLower(op.ID)
		if _, seen := byID[k]; !seen {
			order = append(order, k)
		}
		byID[k] = append(byID[k], op)
	}
	out := make([]any, 0, len(rows))
	present := map[string]bool{}
	for _, row := range rows {
		m, _ := row.(map[string]any)
		k := strings.ToLower(fmt.Sprint(m["id"]))
		if _, changed := byID[k]; changed {
			present[k] = true
			continue
		}
		out = append(out, row)
	}
	last, _ := ans["$skipToken"].(string)
	var served []planned.Op
	for _, k := range order {
		if last != "" && !present[k] {
			continue // a link not on this page is added on the last one
		}
		own := byID[k]
		ip, _ := parseARMPath(own[0].ID)
		var base map[string]any
		if own[0].Kind == planned.OpPatch {
			// Only the link's VNet matters here; a patch that does not
			// set it keeps the VNet the link has now.
			base = map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": rowVNet(query, rows, k)}}}
			if !present[k] {
				base = nil
			}
		}
		r := resolve(ip, base, own, nil, nil)
		if r.unknown != nil {
			noteServed(raw.Context(), append(served, r.served...))
			return nil, r.unknown
		}
		// A change met the search when it removes or alters a link the
		// search found, or adds one to a VNet it asks about; a link of
		// another VNet changes nothing here.
		affects := present[k]
		if r.body != nil {
			props, _ := r.body["properties"].(map[string]any)
			vn, _ := props["virtualNetwork"].(map[string]any)
			if vnet, _ := vn["id"].(string); query.Includes(own[0].ID, vnet) {
				out = append(out, query.Row(own[0].ID, vnet))
				affects = true
			}
		}
		if affects {
			served = append(served, r.served...)
		}
	}
	noteServed(raw.Context(), served)
	ans["data"] = out
	ans["count"] = len(out)
	return jsonResponse(raw, ans)
}

// rowVNet is the VNet of the row of link id among rows.
func rowVNet(q model.ZoneLinkQuery, rows []any, id string) string {
	for _, row := range rows {
		if m, ok := row.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m["id"]), id) {
			return q.RowVNet(m)
		}
	}
	return ""
}
