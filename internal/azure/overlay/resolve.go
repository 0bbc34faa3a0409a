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

// embedded lists, per parent type, the child types ARM returns inside the
// parent's body, with the property that holds them.
var embedded = map[string][]struct{ typ, prop string }{
	"microsoft.network/virtualnetworks": {{"subnets", "subnets"}, {"virtualnetworkpeerings", "virtualNetworkPeerings"}},
	"microsoft.network/routetables":     {{"routes", "routes"}},
	// A hub route table's routes have no id of their own; azurerm names
	// one …/hubRouteTables/{t}/routes/{name}.
	"microsoft.network/virtualhubs/hubroutetables": {{"routes", "routes"}},
	"microsoft.network/networksecuritygroups":      {{"securityrules", "securityRules"}},
	// Classic Azure Firewall rule collections (AzureFirewallNetworkRuleCollection
	// and the others carry the id …/azureFirewalls/{fw}/{type}/{name}).
	"microsoft.network/azurefirewalls": {{"networkrulecollections", "networkRuleCollections"},
		{"applicationrulecollections", "applicationRuleCollections"}, {"natrulecollections", "natRuleCollections"}},
}

// opsFor are the ops on id, in apply order.
func opsFor(ops []planned.Op, id string) []planned.Op {
	var out []planned.Op
	for _, op := range ops {
		if strings.EqualFold(op.ID, id) {
			out = append(out, op)
		}
	}
	return out
}

// childOps are the ops on the embedded children of the parent id, by
// property, each child's ops in apply order.
func childOps(ops []planned.Op, parent armPath) map[string][]planned.Op {
	kinds := embedded[parent.typ()]
	if len(kinds) == 0 {
		return nil
	}
	out := map[string][]planned.Op{}
	pid := strings.ToLower(parent.id())
	for _, op := range ops {
		c, ok := parseARMPath(op.ID)
		if !ok || c.collection() || !strings.EqualFold(c.parent(), pid) {
			continue
		}
		ct := strings.ToLower(c.types()[len(c.types())-1])
		for _, k := range kinds {
			if k.typ == ct {
				out[k.prop] = append(out[k.prop], op)
			}
		}
	}
	return out
}

// resolved is a resource after the plan.
type resolved struct {
	body    map[string]any // nil: absent
	served  []planned.Op   // the ops that shaped it
	unknown *azure.PlannedValueUnknownError
}

// fetcher reads a resource as Azure (or the snapshot) has it; nil when it
// cannot be read.
type fetcher func(id string) map[string]any

// resolve applies ops (on id itself) and child ops to base (nil: absent).
// fetch reads what a planned peering's state depends on (see
// completePeering); nil fetches nothing. refs are the ops that change the
// lists ARM computes from other resources (backRefs); nil changes none.
func resolve(id armPath, base map[string]any, own []planned.Op, children map[string][]planned.Op, fetch fetcher, refs ...planned.Op) resolved {
	before := base
	out := resolved{body: base}
	var unknown []string
	var unknownAt []string
	var values []azure.PlannedUnknownValue
	// note records an op that shaped the answer; own: an op on id itself,
	// whose unknown members are id's values (a child's are its own, in
	// the child's resolved.unknown).
	note := func(op planned.Op, own bool) {
		out.served = append(out.served, op)
		for _, u := range op.Unknown {
			unknown = append(unknown, u)
			if own {
				values = append(values, azure.PlannedUnknownValue{ID: id.id(), Member: u, Address: op.Address})
			}
			if !slices.Contains(unknownAt, op.Address) {
				unknownAt = append(unknownAt, op.Address)
			}
		}
	}
	for _, op := range own {
		switch op.Kind {
		case planned.OpPut:
			out.body = cloneMap(op.Body)
			unknown, unknownAt, values = nil, nil, nil
		case planned.OpDelete:
			out.body = nil
			unknown, unknownAt, values = nil, nil, nil
		case planned.OpCreateUnnamed:
			// A resource of unknown name: which item it is, and so what
			// the collection or the parent holds, is known after apply.
			if out.body == nil {
				out.body = map[string]any{"id": op.ID}
			}
		case planned.OpPatch:
			if out.body == nil {
				// A patch of a resource that will not exist changes nothing.
				out.served = append(out.served, op)
				continue
			}
			if merged, ok := mergePatch(out.body, op.Body).(map[string]any); ok {
				out.body = merged
			}
			if op.Members != nil {
				editMembers(out.body, op.Members)
			}
		}
		note(op, true)
	}
	if out.body != nil && id.typ() == peeringType {
		completePeering(id, before, out.body, fetch)
	}
	if out.body != nil {
		for prop, ops := range children {
			props, _ := out.body["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
				out.body["properties"] = props
			}
			items, _ := props[prop].([]any)
			items = slices.Clone(items)
			byChild := map[string][]planned.Op{}
			var order []string
			for _, op := range ops {
				k := strings.ToLower(op.ID)
				if _, ok := byChild[k]; !ok {
					order = append(order, k)
				}
				byChild[k] = append(byChild[k], op)
			}
			for _, k := range order {
				cops := byChild[k]
				cp, _ := parseARMPath(cops[0].ID)
				idx := -1
				var cbase map[string]any
				for i, it := range items {
					m, ok := it.(map[string]any)
					if !ok {
						continue
					}
					// An item is the child by its id, or, when Azure gives
					// none, by its name.
					if strings.EqualFold(fmt.Sprint(m["id"]), k) || m["id"] == nil && strings.EqualFold(fmt.Sprint(m["name"]), cp.name()) {
						idx, cbase = i, m
					}
				}
				c := resolve(cp, cloneMap(cbase), cops, nil, fetch, refs...)
				// The child's ops shaped the parent's answer; what they
				// leave unknown is the child's (c.unknown), by its id.
				for _, op := range c.served {
					note(op, false)
				}
				if c.unknown != nil {
					unknown = append(unknown, c.unknown.Members...)
					unknownAt = append(unknownAt, c.unknown.Address)
					values = append(values, c.unknown.Values...)
				}
				switch {
				case c.body == nil && idx >= 0:
					items = append(items[:idx], items[idx+1:]...)
				case c.body != nil && idx >= 0:
					items[idx] = c.body
				case c.body != nil:
					items = append(items, c.body)
				}
			}
			props[prop] = items
		}
	}
	if out.body != nil && listsBackRefs(id.typ(), refs) {
		// The subnets a child op resolved have theirs already.
		skip := map[string]bool{}
		for _, ops := range children {
			for _, op := range ops {
				skip[strings.ToLower(op.ID)] = true
			}
		}
		served, vals := backRefs(id, before, out.body, refs, skip)
		out.served = append(out.served, served...)
		for _, v := range vals {
			unknown = append(unknown, v.Member)
			if !slices.Contains(unknownAt, v.Address) {
				unknownAt = append(unknownAt, v.Address)
			}
			values = append(values, v)
		}
	}
	if out.body != nil && len(unknown) > 0 {
		slices.Sort(unknownAt)
		out.unknown = &azure.PlannedValueUnknownError{ID: id.id(), Address: strings.Join(slices.Compact(unknownAt), ", "), Members: slices.Compact(unknown), Values: values}
		// The body holds only what is known: an unknown member is left
		// out (a child's were left out of the child's body), never
		// answered with the value it has before the plan.
		for _, v := range values {
			if strings.EqualFold(v.ID, id.id()) {
				deleteMember(out.body, v.Member)
			}
		}
	}
	return out
}

// deleteMember removes the member at a dotted path
// (properties.dhcpOptions.dnsServers) from body, when it is there.
func deleteMember(body map[string]any, member string) {
	keys := strings.Split(member, ".")
	m := body
	for i, k := range keys {
		if i == len(keys)-1 {
			delete(m, k)
			return
		}
		next, ok := m[k].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
}

const peeringType = "microsoft.network/virtualnetworks/virtualnetworkpeerings"

// peeringReport are the members of a peering that are Azure's report of
// both sides, not settings of this one.
var peeringReport = []string{"peeringState", "peeringSyncLevel", "remoteAddressSpace", "remoteVirtualNetworkAddressSpace", "provisioningState"}

// completePeering fills the report members a planned peering leaves out
// (docs/design/what-if.md, Peerings): from the peering as it is, when it
// exists and still points at the same remote VNet; otherwise from the
// remote VNet as Azure has it: Connected (and in sync) when that VNet has a
// peering back that is not Disconnected, Initiated otherwise.
func completePeering(id armPath, before, body map[string]any, fetch fetcher) {
	props, _ := body["properties"].(map[string]any)
	if props == nil {
		return
	}
	if _, set := props["peeringState"]; set {
		return
	}
	remote := refID(props["remoteVirtualNetwork"])
	if bprops, _ := before["properties"].(map[string]any); bprops != nil && strings.EqualFold(refID(bprops["remoteVirtualNetwork"]), remote) {
		for _, k := range peeringReport {
			if _, set := props[k]; !set && bprops[k] != nil {
				props[k] = cloneValue(bprops[k])
			}
		}
		return
	}
	props["peeringState"] = "Initiated"
	if _, set := props["provisioningState"]; !set {
		props["provisioningState"] = "Succeeded"
	}
	if remote == "" || fetch == nil {
		return
	}
	vnet := fetch(remote)
	vprops, _ := vnet["properties"].(map[string]any)
	if vprops == nil {
		return
	}
	local := id.parent()
	peerings, _ := vprops["virtualNetworkPeerings"].([]any)
	for _, p := range peerings {
		pm, _ := p.(map[string]any)
		pp, _ := pm["properties"].(map[string]any)
		if pp != nil && strings.EqualFold(refID(pp["remoteVirtualNetwork"]), local) && !strings.EqualFold(fmt.Sprint(pp["peeringState"]), "Disconnected") {
			props["peeringState"], props["peeringSyncLevel"] = "Connected", "FullyInSync"
		}
	}
	if space, ok := vprops["addressSpace"]; ok {
		props["remoteAddressSpace"] = cloneValue(space)
		props["remoteVirtualNetworkAddressSpace"] = cloneValue(space)
	}
}

// needsBase reports whether resolving id needs Azure's answer: a patch,
// embedded children, or a put. A put replaces the resource (and keeps the
// children ARM embeds from their own resources), but Azure is still asked:
// a resource the identity may not read, or that cannot be read now, stays
// a failed read (evidence), not a planned answer; 404 (a resource the plan
// creates) is the put.
func needsBase(own []planned.Op, children map[string][]planned.Op) bool {
	return len(own) == 0 || own[0].Kind == planned.OpPatch || own[0].Kind == planned.OpPut
}

// get answers the GET of one resource.
func (o *Overlay) get(req *policy.Request, p armPath, ops []planned.Op) (*http.Response, error) {
	own := opsFor(ops, p.id())
	children := childOps(ops, p)
	refs := backRefOps(ops)
	if len(own) == 0 && len(children) == 0 && !listsBackRefs(p.typ(), refs) {
		return req.Next()
	}
	var base map[string]any
	if needsBase(own, children) {
		resp, err := req.Next()
		if err != nil {
			return resp, err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			body, ok := azure.PeekBody(resp)
			if !ok || json.Unmarshal(body, &base) != nil {
				return resp, err
			}
		case http.StatusNotFound:
			_ = resp.Body.Close()
		default:
			// A refused or failed read stays what it is: the plan does not
			// make evidence that cannot be read known.
			return resp, err
		}
	}
	if base != nil && len(own) > 0 && own[0].Kind == planned.OpPut {
		// The put body replaces the resource; embedded children that
		// exist stay (they are their own resources).
		base = carryEmbedded(p, base, own[0].Body)
		own = append([]planned.Op{{Address: own[0].Address, Type: own[0].Type, Kind: planned.OpPut, ID: own[0].ID, Body: base, Unknown: own[0].Unknown}}, own[1:]...)
	}
	r := resolve(p, base, own, children, fetchWith(req), refs...)
	ctx := req.Raw().Context()
	noteServed(ctx, r.served)
	if r.unknown != nil {
		if r.body != nil && azure.AcceptKnownPart(ctx, r.unknown) {
			// The read takes the known part and the unknown values apart
			// (azure.WithKnownPart).
			return jsonResponse(req.Raw(), r.body)
		}
		return nil, r.unknown
	}
	if r.body == nil {
		return notFound(req.Raw(), p), nil
	}
	return jsonResponse(req.Raw(), r.body)
}

// carryEmbedded is the put body with the embedded children of base where
// the body has none of that kind.
func carryEmbedded(p armPath, base, body map[string]any) map[string]any {
	out := cloneMap(body)
	bprops, _ := base["properties"].(map[string]any)
	props, _ := out["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		out["properties"] = props
	}
	for _, k := range embedded[p.typ()] {
		if _, set := props[k.prop]; set {
			continue
		}
		if v, ok := bprops[k.prop]; ok {
			props[k.prop] = cloneValue(v)
		}
	}
	return out
}

// editMembers applies a membership edit to body (a copy the resolution
// owns): the list at e.Path keeps its items, gains a reference for each id
// of e.Add it lacks and loses the items whose id is in e.Remove.
func editMembers(body map[string]any, e *planned.MemberEdit) {
	parts := strings.Split(e.Path, ".")
	m := body
	for _, k := range parts[:len(parts)-1] {
		next, _ := m[k].(map[string]any)
		if next == nil {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	last := parts[len(parts)-1]
	items, _ := m[last].([]any)
	out := []any{}
	has := func(id string) bool {
		for _, it := range out {
			if strings.EqualFold(refID(it), id) {
				return true
			}
		}
		return false
	}
	for _, it := range items {
		if !slices.ContainsFunc(e.Remove, func(r string) bool { return strings.EqualFold(r, refID(it)) }) {
			out = append(out, cloneValue(it))
		}
	}
	for _, id := range e.Add {
		if !has(id) {
			out = append(out, map[string]any{"id": id})
		}
	}
	m[last] = out
}

// mergePatch applies an RFC 7396 JSON merge patch.
func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return cloneValue(patch)
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	} else {
		tm = cloneMap(tm)
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
			continue
		}
		tm[k] = mergePatch(tm[k], v)
	}
	return tm
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c, _ := cloneValue(m).(map[string]any) // a copy of a map is a map
	return c
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	default:
		return v
	}
}
