// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// list answers one page of a collection.
func (o *Overlay) list(req *policy.Request, c armPath, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	filter := raw.URL.Query().Get("$filter")
	var members []planned.Op // ops on items of this collection
	byLinks := azure.ZonesFoundByLinks(raw.Context())
	for _, op := range ops {
		if byLinks && unnamedZoneKnownLinks(op, ops) {
			// The zone link search tells whether it can answer the
			// nodes (unnamed_zones.go).
			continue
		}
		if inCollection(op, c, filter) {
			members = append(members, op)
		}
	}
	// Items whose embedded children change are changed items too.
	var parents []string
	for _, op := range ops {
		cp, ok := parseARMPath(op.ID)
		if !ok || cp.parent() == "" {
			continue
		}
		pp, _ := parseARMPath(cp.parent())
		if _, embeds := embedded[pp.typ()]; embeds && inCollection(planned.Op{ID: pp.id()}, c, filter) && !slices.Contains(parents, strings.ToLower(pp.id())) {
			parents = append(parents, strings.ToLower(pp.id()))
		}
	}
	refs := backRefOps(ops)
	itemType := ""
	if ct := c.types(); len(ct) > 0 {
		itemType = strings.ToLower(c.ns() + "/" + strings.Join(ct, "/"))
	}
	if len(members) == 0 && len(parents) == 0 && !listsBackRefs(itemType, refs) {
		return req.Next()
	}
	resp, err := req.Next()
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, ok := azure.PeekBody(resp)
	if !ok {
		return resp, err
	}
	var page map[string]any
	if json.Unmarshal(body, &page) != nil {
		return resp, err
	}
	items, _ := page["value"].([]any)
	key := azure.PageKey(raw.URL)
	o.pagesMu.Lock()
	seen := o.pages[key]
	if seen == nil {
		seen = map[string]bool{}
	}
	o.pagesMu.Unlock()

	var served []planned.Op
	var unknown []*azure.PlannedValueUnknownError
	out := make([]any, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		id := fmt.Sprint(m["id"])
		ip, ok := parseARMPath(id)
		if !ok {
			out = append(out, it)
			continue
		}
		seen[strings.ToLower(id)] = true
		own := opsFor(ops, id)
		children := childOps(ops, ip)
		if len(own) == 0 && len(children) == 0 && !listsBackRefs(ip.typ(), refs) {
			out = append(out, it)
			continue
		}
		if len(own) > 0 && own[0].Kind == planned.OpPut {
			base := carryEmbedded(ip, m, own[0].Body)
			own = append([]planned.Op{{Address: own[0].Address, Type: own[0].Type, Kind: planned.OpPut, ID: own[0].ID, Body: base, Unknown: own[0].Unknown}}, own[1:]...)
		}
		r := resolve(ip, cloneMap(m), own, children, fetchWith(req), refs...)
		served = append(served, r.served...)
		if r.unknown != nil {
			unknown = append(unknown, r.unknown)
		}
		if r.body != nil {
			out = append(out, r.body)
		}
	}
	next, _ := page["nextLink"].(string)
	if next == "" {
		// The last page: what the plan creates in this collection.
		var created []string
		for _, op := range members {
			k := strings.ToLower(op.ID)
			if !seen[k] && !slices.Contains(created, k) {
				created = append(created, k)
			}
		}
		for _, k := range created {
			own := opsFor(members, k)
			ip, _ := parseARMPath(own[0].ID)
			r := resolve(ip, nil, own, childOps(ops, ip), fetchWith(req), refs...)
			served = append(served, r.served...)
			if r.unknown != nil {
				unknown = append(unknown, r.unknown)
			}
			if r.body != nil {
				out = append(out, r.body)
			}
		}
		o.pagesMu.Lock()
		delete(o.pages, key)
		o.pagesMu.Unlock()
	} else {
		o.pagesMu.Lock()
		o.pages[key] = seen
		o.pagesMu.Unlock()
	}
	noteServed(raw.Context(), served)
	if len(unknown) > 0 {
		return nil, joinUnknown(c.id(), unknown)
	}
	page["value"] = out
	return jsonResponse(raw, page)
}

// joinUnknown is one error for the unknown values of several items of a
// list.
func joinUnknown(id string, us []*azure.PlannedValueUnknownError) *azure.PlannedValueUnknownError {
	out := &azure.PlannedValueUnknownError{ID: id}
	var addrs []string
	for _, u := range us {
		addrs = append(addrs, strings.Split(u.Address, ", ")...)
		out.Members = append(out.Members, u.Members...)
	}
	slices.Sort(addrs)
	out.Address = strings.Join(slices.Compact(addrs), ", ")
	return out
}

// inCollection reports whether op's resource is an item of collection c
// (listed with filter): same provider type chain, one name longer, in the
// same scope (or, for a subscription-wide list, in one of its resource
// groups). Role assignments are listed at, above and below the scope.
func inCollection(op planned.Op, c armPath, filter string) bool {
	ip, ok := parseARMPath(op.ID)
	it, ct := ip.types(), c.types()
	if !ok || ip.collection() || !strings.EqualFold(ip.ns(), c.ns()) || len(it) != len(ct) {
		return false
	}
	last := len(ct) - 1
	for i := 0; i < last; i++ {
		if !strings.EqualFold(it[i], ct[i]) || !strings.EqualFold(ip.names()[i], c.names()[i]) {
			return false
		}
	}
	// The record sets of a zone are listed as …/privateDnsZones/{z}/ALL.
	if !strings.EqualFold(it[last], ct[last]) &&
		!(strings.EqualFold(ct[last], "ALL") && strings.EqualFold(c.ns(), "Microsoft.Network") && len(ct) == 2 && strings.EqualFold(ct[0], "privateDnsZones")) {
		return false
	}
	is, cs := strings.ToLower(ip.scope()), strings.ToLower(c.scope())
	if op.Kind == planned.OpCreateUnnamed && strings.Contains(is, strings.ToLower(planned.NameUnknown)) {
		// The resource group (or parent) is unknown too: it may be in any.
		is = unknownScopeIn(is, cs)
	}
	if strings.EqualFold(c.ns(), "Microsoft.Authorization") && strings.EqualFold(ct[0], "roleAssignments") {
		if !strings.HasPrefix(is+"/", cs+"/") && !strings.HasPrefix(cs+"/", is+"/") {
			return false
		}
		if principal := filterPrincipal(filter); principal != "" && op.Body != nil {
			props, _ := op.Body["properties"].(map[string]any)
			return strings.EqualFold(fmt.Sprint(props["principalId"]), principal)
		}
		return true
	}
	if is == cs {
		return true
	}
	// A subscription-wide list holds the resources of every group.
	return strings.Count(cs, "/") == 2 && strings.HasPrefix(is, cs+"/resourcegroups/") && strings.Count(is, "/") == 4
}

// unknownScopeIn is scope is with its NameUnknown segments taken from the
// listed scope cs where cs has a segment there (an unnamed resource may be
// in any resource group).
func unknownScopeIn(is, cs string) string {
	iseg, cseg := strings.Split(is, "/"), strings.Split(cs, "/")
	for i := range iseg {
		if iseg[i] == strings.ToLower(planned.NameUnknown) && i < len(cseg) {
			iseg[i] = cseg[i]
		}
	}
	return strings.Join(iseg, "/")
}

// filterPrincipal is the principal of a "principalId eq '…'" filter.
func filterPrincipal(filter string) string {
	f := strings.ToLower(filter)
	i := strings.Index(f, "principalid eq '")
	if i < 0 {
		return ""
	}
	rest := filter[i+len("principalid eq '"):]
	if j := strings.IndexByte(rest, '\''); j >= 0 {
		return rest[:j]
	}
	return ""
}
