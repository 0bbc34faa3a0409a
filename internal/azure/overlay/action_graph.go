// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// graph answers a Resource Graph query as after the plan: the rows Azure
// has, less those of resources the plan deletes or changes, plus those
// the plan's resources are after it. The request's context carries the
// search (azure.WithGraphSearch, a model.GraphSearch), and the request
// must send exactly its text: the overlay never reads KQL. Changes of the
// search's row type, and deletes of the resources above the rows (a zone,
// a resolver, a hub), decide it; a plan without such changes passes the
// query on untouched. A query that carries no search is an error: the
// overlay cannot know what it finds, and Azure's answer is the network
// before the plan.
func (o *Overlay) graph(req *policy.Request, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	s, ok := azure.GraphSearchOf(raw.Context())
	if !ok {
		return nil, fmt.Errorf("what-if: a Resource Graph query carries no search the overlay knows (azure.WithGraphSearch), so its answer after the plan is unknown")
	}
	rowType := s.RowType()
	var rowOps, parentDeletes []planned.Op
	recreated := map[string]bool{} // parents put again after a delete (replaced)
	for _, op := range ops {
		if t := typeOf(op.ID); t != rowType && strings.HasPrefix(rowType, t+"/") {
			recreated[strings.ToLower(op.ID)] = op.Kind != planned.OpDelete
		}
	}
	for _, op := range ops {
		t := typeOf(op.ID)
		switch {
		case t == rowType:
			rowOps = append(rowOps, op)
		case op.Kind == planned.OpDelete && strings.HasPrefix(rowType, t+"/") && !recreated[strings.ToLower(op.ID)]:
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
		return &azure.PlannedValueUnknownError{ID: raw.URL.Path, Address: strings.Join(slices.Compact(addrs), ", "), Members: []string{s.What() + " a Resource Graph query finds"}}
	}
	query, err := graphQueryText(req)
	if err != nil {
		return nil, err
	}
	if query != s.KQL() {
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
		if typeOf(id) != rowType {
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
		if vnet, unnamed := unnamedLinkVNet(own[0]); unnamed && vnet != "" && len(own) == 1 {
			// A link of a new zone whose name is known after apply, to a
			// known VNet: a row when the search asks about that VNet (the
			// zone's name may be any), nothing otherwise.
			if row, ok := s.Row(own[0].ID, map[string]any{"vnetId": vnet}); ok {
				out = append(out, row)
				served = append(served, own[0])
			}
			continue
		}
		ip, _ := parseARMPath(own[0].ID)
		var base map[string]any
		if own[0].Kind == planned.OpPatch && present[k] != nil {
			base = s.Base(present[k])
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
			if row, ok := s.Row(own[0].ID, r.body); ok {
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
