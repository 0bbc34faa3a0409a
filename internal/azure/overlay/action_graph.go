// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// graphSearch is a Resource Graph query of gather that the overlay answers
// as after the plan, knowing it by the model query its request's context
// carries (never by reading KQL): the DNS private resolver inbound
// endpoints at some addresses (model.ResolverEndpointQuery) and the
// Virtual WAN hub connections of some VNets (model.HubConnectionQuery).
// Its rows are resources of one type.
type graphSearch struct {
	// kql is the text the request must send.
	kql string
	// rowType is the type of the resources its rows are (lower case).
	rowType string
	// what names the answer in an unknown error.
	what string
	// row is the row the query answers for the resource id with the ARM
	// body after the plan, and whether the query includes it.
	row func(id string, body map[string]any) (map[string]any, bool)
	// base is the part of a row's resource a patch starts from (nil when
	// the row does not say).
	base func(row map[string]any) map[string]any
}

// graphAfterPlan answers a graphSearch: the rows Azure has, less those of
// resources the plan deletes or changes, plus those the plan's resources
// are after it. Changes on the row type, and deletes of the resources
// above the rows (a resolver, a hub, their resource group), decide it; a
// plan without such changes passes the query on untouched.
func (o *Overlay) graphAfterPlan(req *policy.Request, ops []planned.Op, s graphSearch) (*http.Response, error) {
	raw := req.Raw()
	var rowOps, parentDeletes []planned.Op
	recreated := map[string]bool{} // parents put again after a delete (replaced)
	for _, op := range ops {
		if t := typeOf(op.ID); t != s.rowType && strings.HasPrefix(s.rowType, t+"/") {
			recreated[strings.ToLower(op.ID)] = op.Kind != planned.OpDelete
		}
	}
	for _, op := range ops {
		t := typeOf(op.ID)
		switch {
		case t == s.rowType:
			rowOps = append(rowOps, op)
		case op.Kind == planned.OpDelete && strings.HasPrefix(s.rowType, t+"/") && !recreated[strings.ToLower(op.ID)]:
			parentDeletes = append(parentDeletes, op)
		}
	}
	if len(rowOps) == 0 && len(parentDeletes) == 0 {
		return req.Next()
	}
	unknown := func() error {
		var addrs []string
		for _, op := range append(slices.Clone(rowOps), parentDeletes...) {
			addrs = append(addrs, op.Address)
		}
		slices.Sort(addrs)
		noteServed(raw.Context(), append(slices.Clone(rowOps), parentDeletes...))
		return &azure.PlannedValueUnknownError{ID: raw.URL.Path, Address: strings.Join(slices.Compact(addrs), ", "), Members: []string{s.what}}
	}
	query, err := graphQueryText(req)
	if err != nil {
		return nil, err
	}
	if query != s.kql {
		return nil, unknown()
	}
	resp, ans, ok, err := graphAnswer(req)
	if !ok {
		return resp, err
	}
	rows, isArr := ans["data"].([]any)
	if !isArr && ans["data"] != nil {
		return nil, unknown()
	}
	byID := map[string][]planned.Op{}
	var order []string
	for _, op := range rowOps {
		k := strings.ToLower(op.ID)
		if _, seen := byID[k]; !seen {
			order = append(order, k)
		}
		byID[k] = append(byID[k], op)
	}
	deletedUnder := func(id string) []planned.Op {
		var out []planned.Op
		for _, op := range parentDeletes {
			if strings.HasPrefix(strings.ToLower(id), strings.ToLower(op.ID)+"/") {
				out = append(out, op)
			}
		}
		return out
	}
	out := make([]any, 0, len(rows))
	present := map[string]map[string]any{}
	var served []planned.Op
	for _, row := range rows {
		m, _ := row.(map[string]any)
		id := fmt.Sprint(m["id"])
		if typeOf(id) != s.rowType {
			out = append(out, row) // not a row of this search
			continue
		}
		k := strings.ToLower(id)
		if gone := deletedUnder(id); len(gone) > 0 {
			served = append(served, gone...)
			continue
		}
		if _, changed := byID[k]; changed {
			present[k] = m
			continue
		}
		out = append(out, row)
	}
	last, _ := ans["$skipToken"].(string)
	for _, k := range order {
		if last != "" && present[k] == nil {
			continue // a resource not on this page is added on the last one
		}
		own := byID[k]
		if len(deletedUnder(own[0].ID)) > 0 {
			continue // its parent is deleted; it goes with it
		}
		ip, _ := parseARMPath(own[0].ID)
		var base map[string]any
		if own[0].Kind == planned.OpPatch && present[k] != nil {
			base = s.base(present[k])
		}
		r := resolve(ip, base, own, nil, nil)
		if r.unknown != nil {
			noteServed(raw.Context(), append(served, r.served...))
			return nil, r.unknown
		}
		// A change met the search when it removes or alters a row the
		// search found, or adds one it asks for.
		affects := present[k] != nil
		if r.body != nil {
			if row, ok := s.row(own[0].ID, r.body); ok {
				out = append(out, row)
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

// graphSearchOf is the graphSearch a request's context carries, if any.
func graphSearchOf(ctx context.Context) (graphSearch, bool) {
	if q, ok := azure.ResolverEndpointQueryOf(ctx); ok {
		return graphSearch{
			kql: q.KQL(), rowType: model.InboundEndpointType,
			what: "the DNS private resolver inbound endpoints a Resource Graph query finds",
			row: func(id string, body map[string]any) (map[string]any, bool) {
				props, _ := body["properties"].(map[string]any)
				return q.Row(id, props)
			},
			base: func(row map[string]any) map[string]any {
				cfgs, ok := row["ipConfigurations"]
				if props, isMap := row["properties"].(map[string]any); !ok && isMap {
					cfgs = props["ipConfigurations"]
				}
				return map[string]any{"properties": map[string]any{"ipConfigurations": cfgs}}
			},
		}, true
	}
	if q, ok := azure.HubConnectionQueryOf(ctx); ok {
		return graphSearch{
			kql: q.KQL(), rowType: model.HubConnectionType,
			what: "the Virtual WAN hub connections a Resource Graph query finds",
			row: func(id string, body map[string]any) (map[string]any, bool) {
				props, _ := body["properties"].(map[string]any)
				return q.Row(id, props)
			},
			base: func(row map[string]any) map[string]any {
				return map[string]any{"properties": map[string]any{"remoteVirtualNetwork": map[string]any{"id": model.HubConnectionRowVNet(row)}}}
			},
		}, true
	}
	return graphSearch{}, false
}

// searchedTypesChange is the unknown answer of a Resource Graph query that
// carries no search the overlay knows, while the plan changes the hub
// connections or resolver inbound endpoints such a search finds; nil when
// it changes none (the zone link search decides then).
func searchedTypesChange(raw *http.Request, ops []planned.Op) error {
	var changed []string
	var served []planned.Op
	for _, op := range ops {
		t := typeOf(op.ID)
		for _, rowType := range []string{model.HubConnectionType, model.InboundEndpointType} {
			if t == rowType || op.Kind == planned.OpDelete && t != "" && strings.HasPrefix(rowType, t+"/") {
				changed = append(changed, op.Address)
				served = append(served, op)
			}
		}
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	noteServed(raw.Context(), served)
	return &azure.PlannedValueUnknownError{ID: raw.URL.Path, Address: strings.Join(slices.Compact(changed), ", "),
		Members: []string{"the Virtual WAN hub connections and DNS private resolver inbound endpoints a Resource Graph query finds"}}
}

// graphQueryText is the KQL text of a Resource Graph request's body (empty
// when it has none or is not JSON), the body rewound for the next policy.
func graphQueryText(req *policy.Request) (string, error) {
	var q struct {
		Query string `json:"query"`
	}
	if req.Body() == nil {
		return "", nil
	}
	b, err := io.ReadAll(req.Body())
	if err != nil {
		return "", err
	}
	if err := req.RewindBody(); err != nil {
		return "", err
	}
	_ = json.Unmarshal(b, &q)
	return q.Query, nil
}

// graphAnswer sends a Resource Graph request on and decodes Azure's answer;
// ok is false when the response is to be returned as it is (an error, a
// status other than 200, or a body that is not JSON).
func graphAnswer(req *policy.Request) (*http.Response, map[string]any, bool, error) {
	resp, err := req.Next()
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, nil, false, err
	}
	body, ok := azure.PeekBody(resp)
	var ans map[string]any
	if ok {
		ok = json.Unmarshal(body, &ans) == nil
	}
	return resp, ans, ok, nil
}
