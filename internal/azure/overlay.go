// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// Overlay is the session's what-if layer (planned_changes_file): a per-call
// policy above the ReadCache that answers reads as Azure will answer them
// after a saved plan is applied. docs/design/what-if.md describes it.
//
//   - GET of a resource the plan creates, updates or deletes: the planned
//     body (OpPut), Azure's answer with the merge patch applied (OpPatch),
//     or ARM's 404 (OpDelete). A parent embeds its planned children as ARM
//     does: subnets and peerings of a VNet, routes of a route table,
//     security rules of a security group.
//   - GET of a collection: on every page, updated items are replaced and
//     deleted ones removed; created items are appended to the last page.
//   - POST actions (dispatched on the WhatIf treatment of the guard's
//     allow-list, one table for both) whose answer the plan makes stale are never answered
//     with what is there now: effective route tables fail with
//     [PlannedStaleError] (gather then computes the routes), the learned
//     routes of a gateway or Route Server hub the plan changes and the resolvers or rulesets of
//     a VNet when the plan changes resolvers or rulesets are unknown until
//     apply ([PlannedValueUnknownError]); the Resource Graph search for
//     private DNS zone links sees the links the plan creates or deletes.
//   - A resource with a value known only after apply (Op.Unknown) is
//     answered with [PlannedValueUnknownError]: nothing that depends on it
//     can be concluded.
//
// Everything else passes through untouched, so a read the plan does not
// touch costs exactly what it costs without a plan. Because the overlay
// sits above the cache, the cache and record_file keep what Azure (or the
// snapshot) answered, and the overlay can be masked per request through
// the context ([WithoutPlan], [WithoutPlannedChanges]) to compare the
// network before and after the plan without reading anything twice.
type Overlay struct {
	plan *planned.Plan
	ops  []planned.Op // puts and deletes first, then patches, each in plan order

	// pages remembers, per collection listed in several pages, the item ids
	// of the pages seen so far (so that the last page appends only items no
	// page had).
	pagesMu sync.Mutex
	pages   map[string]map[string]bool
}

// NewOverlay returns the overlay of plan; nil when the plan is nil.
func NewOverlay(plan *planned.Plan) *Overlay {
	if plan == nil {
		return nil
	}
	o := &Overlay{plan: plan, pages: map[string]map[string]bool{}}
	for _, op := range plan.Ops {
		if op.Kind != planned.OpPatch {
			o.ops = append(o.ops, op)
		}
	}
	for _, op := range plan.Ops {
		if op.Kind == planned.OpPatch {
			o.ops = append(o.ops, op)
		}
	}
	return o
}

// Plan is the plan the overlay applies.
func (o *Overlay) Plan() *planned.Plan {
	if o == nil {
		return nil
	}
	return o.plan
}

// Addresses are the addresses of the translated changes, sorted, each once.
func (o *Overlay) Addresses() []string {
	if o == nil {
		return nil
	}
	var out []string
	for _, op := range o.ops {
		if !slices.Contains(out, op.Address) {
			out = append(out, op.Address)
		}
	}
	sort.Strings(out)
	return out
}

// PlannedValueUnknownError is the answer to a read of a resource the plan
// sets a value of that is known only after apply: what depends on it cannot
// be concluded until then. [Gap] files it as model.GapPlannedUnknown.
type PlannedValueUnknownError struct {
	// ID is the resource (or action) that was read.
	ID string
	// Address is the planned change (or changes, ", "-joined).
	Address string
	// Members are the unknown values, as dotted paths, or what is unknown
	// in words.
	Members []string
}

func (e *PlannedValueUnknownError) Error() string {
	return fmt.Sprintf("%s is known only after apply (planned change %s)", strings.Join(e.Members, ", "), e.Address)
}

// PlannedStaleError answers an action whose answer is what Azure computes
// from the network as it is now (a NIC's effective route table) when the
// plan changes that network: the answer would describe the network before
// the plan. Gather computes the routes from the planned configuration
// instead.
type PlannedStaleError struct {
	// Action is the action's path.
	Action string
	// Addresses are the planned changes that make it stale.
	Addresses []string
}

func (e *PlannedStaleError) Error() string {
	return fmt.Sprintf("%s describes the network before the planned changes (%s)", e.Action, strings.Join(e.Addresses, ", "))
}

// IsPlannedStale reports whether err is a [PlannedStaleError].
func IsPlannedStale(err error) bool {
	var e *PlannedStaleError
	return errors.As(err, &e)
}

// overlayMask is what the context asks of the overlay.
type overlayMask struct {
	off  bool            // read as things are now
	skip map[string]bool // addresses of changes to leave out
}

type overlayMaskKey struct{}

// WithoutPlan returns ctx for reads of Azure as it is now, the planned
// changes left out (the baseline a finding is compared against).
func WithoutPlan(ctx context.Context) context.Context {
	return context.WithValue(ctx, overlayMaskKey{}, overlayMask{off: true})
}

// WithoutPlannedChanges returns ctx for reads as after the plan, but
// without the changes of these addresses (leave-one-out blame).
func WithoutPlannedChanges(ctx context.Context, addresses ...string) context.Context {
	m := overlayMask{skip: map[string]bool{}}
	for _, a := range addresses {
		m.skip[a] = true
	}
	return context.WithValue(ctx, overlayMaskKey{}, m)
}

// servedChanges collects the addresses of the changes the overlay applied
// to the reads of one context.
type servedChanges struct {
	mu   sync.Mutex
	seen map[string]bool
	subs map[string]string // lower-case subscription id → as requested
}

type servedKey struct{}

// TrackPlannedChanges returns ctx that records which planned changes the
// overlay applied to its reads, and a function that returns their
// addresses, sorted.
func TrackPlannedChanges(ctx context.Context) (context.Context, func() []string) {
	s := &servedChanges{seen: map[string]bool{}, subs: map[string]string{}}
	return context.WithValue(ctx, servedKey{}, s), func() []string {
		s.mu.Lock()
		defer s.mu.Unlock()
		out := make([]string, 0, len(s.seen))
		for a := range s.seen {
			out = append(out, a)
		}
		sort.Strings(out)
		return out
	}
}

func noteServed(ctx context.Context, ops []planned.Op) {
	s, _ := ctx.Value(servedKey{}).(*servedChanges)
	if s == nil || len(ops) == 0 {
		return
	}
	s.mu.Lock()
	for _, op := range ops {
		s.seen[op.Address] = true
	}
	s.mu.Unlock()
}

// TrackedSubscriptions are the subscriptions whose resources the reads
// made with ctx (a context of TrackPlannedChanges) asked for so far,
// sorted: to tell a user whose plan changes none of them that the plan is
// about another part of Azure.
func TrackedSubscriptions(ctx context.Context) []string {
	s, _ := ctx.Value(servedKey{}).(*servedChanges)
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.subs))
	for _, sub := range s.subs {
		out = append(out, sub)
	}
	sort.Strings(out)
	return out
}

// noteSubscription records the subscription a request path names.
func noteSubscription(ctx context.Context, path string) {
	s, _ := ctx.Value(servedKey{}).(*servedChanges)
	if s == nil {
		return
	}
	rest, ok := strings.CutPrefix(path, "/subscriptions/")
	if !ok {
		rest, ok = strings.CutPrefix(strings.ToLower(path), "/subscriptions/")
		if !ok {
			return
		}
	}
	sub, _, _ := strings.Cut(rest, "/")
	if sub == "" {
		return
	}
	s.mu.Lock()
	if _, seen := s.subs[strings.ToLower(sub)]; !seen {
		s.subs[strings.ToLower(sub)] = sub
	}
	s.mu.Unlock()
}

// active are the ops the request's context leaves in.
func (o *Overlay) active(ctx context.Context) []planned.Op {
	m, _ := ctx.Value(overlayMaskKey{}).(overlayMask)
	if m.off {
		return nil
	}
	if len(m.skip) == 0 {
		return o.ops
	}
	out := make([]planned.Op, 0, len(o.ops))
	for _, op := range o.ops {
		if !m.skip[op.Address] {
			out = append(out, op)
		}
	}
	return out
}

// Do implements policy.Policy.
func (o *Overlay) Do(req *policy.Request) (*http.Response, error) {
	raw := req.Raw()
	if o == nil || (raw.Method != http.MethodGet && raw.Method != http.MethodPost) {
		return req.Next()
	}
	noteSubscription(raw.Context(), raw.URL.Path)
	ops := o.active(raw.Context())
	if len(ops) == 0 {
		return req.Next()
	}
	if raw.Method == http.MethodPost {
		return o.action(req, ops)
	}
	p, ok := parseARMPath(raw.URL.Path)
	if !ok {
		return req.Next()
	}
	if gone, found := deletedAncestor(ops, raw.URL.Path); found {
		// What lives in a resource the plan deletes goes with it.
		noteServed(raw.Context(), []planned.Op{gone})
		return notFound(raw, p), nil
	}
	if p.collection() {
		return o.list(req, p, ops)
	}
	return o.get(req, p, ops)
}

// deletedAncestor is the op that deletes a resource path lies in (not
// path itself), when the plan deletes one and does not put it back.
func deletedAncestor(ops []planned.Op, path string) (planned.Op, bool) {
	lp := strings.ToLower(strings.TrimSuffix(path, "/"))
	var del planned.Op
	found := false
	for _, op := range ops {
		id := strings.ToLower(op.ID)
		if id == "" || !strings.HasPrefix(lp, id+"/") {
			continue
		}
		switch op.Kind {
		case planned.OpDelete:
			del, found = op, true
		case planned.OpPut:
			if found && strings.EqualFold(del.ID, op.ID) {
				found = false
			}
		}
	}
	return del, found
}

// armPath is an ARM path split at its last /providers/: the scope (a
// subscription, resource group or resource) and the provider namespace with
// the type and name segments.
type armPath struct {
	scope string
	ns    string
	segs  []string
}

func parseARMPath(p string) (armPath, bool) {
	p = strings.TrimSuffix(p, "/")
	i := strings.LastIndex(strings.ToLower(p), "/providers/")
	if i < 0 {
		return armPath{}, false
	}
	rest := strings.Split(p[i+len("/providers/"):], "/")
	if len(rest) < 2 || rest[0] == "" {
		return armPath{}, false
	}
	for _, s := range rest {
		if s == "" {
			return armPath{}, false
		}
	}
	return armPath{scope: p[:i], ns: rest[0], segs: rest[1:]}, true
}

// collection: the path names a list (type segments one more than names).
func (a armPath) collection() bool { return len(a.segs)%2 == 1 }

// id is the path as a resource id.
func (a armPath) id() string {
	return a.scope + "/providers/" + a.ns + "/" + strings.Join(a.segs, "/")
}

// typ is the full resource type in lower case, e.g.
// microsoft.network/virtualnetworks/subnets.
func (a armPath) typ() string {
	parts := []string{strings.ToLower(a.ns)}
	for i := 0; i < len(a.segs); i += 2 {
		parts = append(parts, strings.ToLower(a.segs[i]))
	}
	return strings.Join(parts, "/")
}

// parent is the id of the resource a child resource belongs to ("" for a
// top-level resource).
func (a armPath) parent() string {
	if len(a.segs) < 4 || a.collection() {
		return ""
	}
	return a.scope + "/providers/" + a.ns + "/" + strings.Join(a.segs[:len(a.segs)-2], "/")
}

// embedded lists, per parent type, the child types ARM returns inside the
// parent's body, with the property that holds them.
var embedded = map[string][]struct{ typ, prop string }{
	"microsoft.network/virtualnetworks":       {{"subnets", "subnets"}, {"virtualnetworkpeerings", "virtualNetworkPeerings"}},
	"microsoft.network/routetables":           {{"routes", "routes"}},
	"microsoft.network/networksecuritygroups": {{"securityrules", "securityRules"}},
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
		ct := strings.ToLower(c.segs[len(c.segs)-2])
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
	unknown *PlannedValueUnknownError
}

// fetcher reads a resource as Azure (or the snapshot) has it; nil when it
// cannot be read.
type fetcher func(id string) map[string]any

// resolve applies ops (on id itself) and child ops to base (nil: absent).
// fetch reads what a planned peering's state depends on (see
// completePeering); nil fetches nothing.
func resolve(id armPath, base map[string]any, own []planned.Op, children map[string][]planned.Op, fetch fetcher) resolved {
	before := base
	out := resolved{body: base}
	var unknown []string
	var unknownAt []string
	note := func(op planned.Op) {
		out.served = append(out.served, op)
		for _, u := range op.Unknown {
			unknown = append(unknown, u)
			if !slices.Contains(unknownAt, op.Address) {
				unknownAt = append(unknownAt, op.Address)
			}
		}
	}
	for _, op := range own {
		switch op.Kind {
		case planned.OpPut:
			out.body = cloneMap(op.Body)
			unknown, unknownAt = nil, nil
		case planned.OpDelete:
			out.body = nil
			unknown, unknownAt = nil, nil
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
		}
		note(op)
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
				idx := -1
				var cbase map[string]any
				for i, it := range items {
					m, ok := it.(map[string]any)
					if !ok {
						continue
					}
					// An item is the child by its id, or, when Azure gives
					// none, by its name.
					if strings.EqualFold(fmt.Sprint(m["id"]), k) || m["id"] == nil && strings.EqualFold(fmt.Sprint(m["name"]), lastSegment(k)) {
						idx, cbase = i, m
					}
				}
				cp, _ := parseARMPath(cops[0].ID)
				c := resolve(cp, cloneMap(cbase), cops, nil, fetch)
				for _, op := range c.served {
					note(op)
				}
				if c.unknown != nil {
					unknown = append(unknown, c.unknown.Members...)
					unknownAt = append(unknownAt, c.unknown.Address)
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
	if out.body != nil && len(unknown) > 0 {
		slices.Sort(unknownAt)
		out.unknown = &PlannedValueUnknownError{ID: id.id(), Address: strings.Join(slices.Compact(unknownAt), ", "), Members: slices.Compact(unknown)}
	}
	return out
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

// lastSegment is the last segment of a path.
func lastSegment(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// refID is the id of an ARM reference ({"id": …}).
func refID(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["id"].(string)
	return s
}

// fetchWith reads resources through the rest of req's pipeline (the cache,
// retries, the transport), as Azure or the snapshot has them.
func fetchWith(req *policy.Request) fetcher {
	return func(id string) map[string]any {
		c := req.Clone(req.Raw().Context())
		u := *c.Raw().URL
		u.Path, u.RawPath = id, ""
		c.Raw().URL = &u
		resp, err := c.Next()
		if err != nil {
			return nil
		}
		body, ok := peekBody(resp)
		if !ok || resp.StatusCode != http.StatusOK {
			return nil
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			return nil
		}
		return m
	}
}

// needsBase reports whether resolving id needs Azure's answer: a patch, or
// embedded children of a resource that was not put whole.
func needsBase(own []planned.Op, children map[string][]planned.Op) bool {
	if len(own) == 0 || own[0].Kind == planned.OpPatch {
		return true
	}
	// A put replaces the resource, but the children ARM embeds in it come
	// from their own resources: those the plan does not touch are kept.
	_, embeds := embedded[typeOf(own[0].ID)]
	return own[0].Kind == planned.OpPut && embeds
}

func typeOf(id string) string {
	p, ok := parseARMPath(id)
	if !ok {
		return ""
	}
	return p.typ()
}

// get answers the GET of one resource.
func (o *Overlay) get(req *policy.Request, p armPath, ops []planned.Op) (*http.Response, error) {
	own := opsFor(ops, p.id())
	children := childOps(ops, p)
	if len(own) == 0 && len(children) == 0 {
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
			body, ok := peekBody(resp)
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
	r := resolve(p, base, own, children, fetchWith(req))
	ctx := req.Raw().Context()
	noteServed(ctx, r.served)
	if r.unknown != nil {
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

// list answers one page of a collection.
func (o *Overlay) list(req *policy.Request, c armPath, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	filter := raw.URL.Query().Get("$filter")
	var members []planned.Op // ops on items of this collection
	for _, op := range ops {
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
	if len(members) == 0 && len(parents) == 0 {
		return req.Next()
	}
	resp, err := req.Next()
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, ok := peekBody(resp)
	if !ok {
		return resp, err
	}
	var page map[string]any
	if json.Unmarshal(body, &page) != nil {
		return resp, err
	}
	items, _ := page["value"].([]any)
	key := pollKey(&url.URL{Host: raw.URL.Host, Path: raw.URL.Path})
	o.pagesMu.Lock()
	seen := o.pages[key]
	if seen == nil {
		seen = map[string]bool{}
	}
	o.pagesMu.Unlock()

	var served []planned.Op
	var unknown []*PlannedValueUnknownError
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
		if len(own) == 0 && len(children) == 0 {
			out = append(out, it)
			continue
		}
		if len(own) > 0 && own[0].Kind == planned.OpPut {
			base := carryEmbedded(ip, m, own[0].Body)
			own = append([]planned.Op{{Address: own[0].Address, Type: own[0].Type, Kind: planned.OpPut, ID: own[0].ID, Body: base, Unknown: own[0].Unknown}}, own[1:]...)
		}
		r := resolve(ip, cloneMap(m), own, children, fetchWith(req))
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
			r := resolve(ip, nil, own, childOps(ops, ip), fetchWith(req))
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
func joinUnknown(id string, us []*PlannedValueUnknownError) *PlannedValueUnknownError {
	out := &PlannedValueUnknownError{ID: id}
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
	if !ok || ip.collection() || !strings.EqualFold(ip.ns, c.ns) || len(ip.segs) != len(c.segs)+1 {
		return false
	}
	last := len(c.segs) - 1
	for i := 0; i < last; i++ {
		if !strings.EqualFold(ip.segs[i], c.segs[i]) {
			return false
		}
	}
	if !strings.EqualFold(ip.segs[last], c.segs[last]) &&
		!(strings.EqualFold(c.segs[last], "ALL") && strings.EqualFold(c.ns, "Microsoft.Network") && len(c.segs) == 3 && strings.EqualFold(c.segs[0], "privateDnsZones")) {
		return false
	}
	is, cs := strings.ToLower(ip.scope), strings.ToLower(c.scope)
	if op.Kind == planned.OpCreateUnnamed && strings.Contains(is, strings.ToLower(planned.NameUnknown)) {
		// The resource group (or parent) is unknown too: it may be in any.
		is = unknownScopeIn(is, cs)
	}
	if strings.EqualFold(c.ns, "Microsoft.Authorization") && strings.EqualFold(c.segs[0], "roleAssignments") {
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
	allowed, ok := readActionFor(raw.URL.EscapedPath())
	if !ok {
		// The guard refuses it below.
		return req.Next()
	}
	switch allowed.WhatIf {
	case WhatIfStaleWithRouting, WhatIfStaleWithRoutingOrSecurity:
		match := func(op planned.Op) bool {
			t := typeOf(op.ID)
			for _, rt := range routingTypes {
				if t == rt || strings.HasPrefix(t, rt+"/") {
					return true
				}
			}
			return allowed.WhatIf == WhatIfStaleWithRoutingOrSecurity && strings.HasPrefix(t, "microsoft.network/networksecuritygroups")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &PlannedStaleError{Action: path, Addresses: addrs}
		}
	case WhatIfBGPOfOwner:
		// Gateways (…/virtualNetworkGateways/{g}/getLearnedRoutes) and
		// Route Servers (…/virtualHubs/{h}/bgpConnections/{c}/learnedRoutes):
		// the owner is the gateway or the hub.
		owner := target
		if tp, ok := parseARMPath(target); ok && len(tp.segs) >= 2 {
			owner = tp.scope + "/providers/" + tp.ns + "/" + strings.Join(tp.segs[:2], "/")
		}
		match := func(op planned.Op) bool {
			id := strings.ToLower(op.ID)
			return id == strings.ToLower(owner) || strings.HasPrefix(id, strings.ToLower(owner)+"/")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"the routes exchanged over BGP by " + owner}}
		}
	case WhatIfDNSResolvers, WhatIfDNSRulesets:
		kind, what := "microsoft.network/dnsresolvers", "DNS resolvers"
		if allowed.WhatIf == WhatIfDNSRulesets {
			kind, what = "microsoft.network/dnsforwardingrulesets", "DNS forwarding rulesets"
		}
		match := func(op planned.Op) bool { t := typeOf(op.ID); return t == kind || strings.HasPrefix(t, kind+"/") }
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"which " + what + " serve " + target}}
		}
	case WhatIfResourceGraph:
		return o.graph(req, ops)
	}
	return req.Next()
}

const linkType = "microsoft.network/privatednszones/virtualnetworklinks"

// graph answers a Resource Graph query: the private DNS zone link search
// of gather (ZonesLinkedTo) sees the links the plan creates or deletes. A
// query the overlay does not understand, while the plan changes links,
// fails as unknown rather than answer with links that will be gone.
func (o *Overlay) graph(req *policy.Request, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	var links []planned.Op
	for _, op := range ops {
		if typeOf(op.ID) == linkType {
			links = append(links, op)
		}
	}
	if len(links) == 0 {
		return req.Next()
	}
	var q struct {
		Query string `json:"query"`
	}
	if req.Body() != nil {
		b, err := io.ReadAll(req.Body())
		if err != nil {
			return nil, err
		}
		if err := req.RewindBody(); err != nil {
			return nil, err
		}
		_ = json.Unmarshal(b, &q)
	}
	unknown := func(why string) error {
		var addrs []string
		for _, op := range links {
			addrs = append(addrs, op.Address)
		}
		slices.Sort(addrs)
		noteServed(raw.Context(), links)
		return &PlannedValueUnknownError{ID: raw.URL.Path, Address: strings.Join(slices.Compact(addrs), ", "), Members: []string{why}}
	}
	if strings.Contains(strings.ToLower(q.Query), "microsoft.network/virtualhubs/hubvirtualnetworkconnections") {
		// The Virtual WAN hub connection search: zone links do not
		// change its answer.
		return req.Next()
	}
	vnets, ok := linkQueryVNets(q.Query)
	if !ok {
		return nil, unknown("the private DNS zone links a Resource Graph query finds")
	}
	resp, err := req.Next()
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, okb := peekBody(resp)
	var ans map[string]any
	if !okb || json.Unmarshal(body, &ans) != nil {
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
			base = map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": rowVNet(rows, k)}}}
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
			vnet := strings.ToLower(fmt.Sprint(vn["id"]))
			if vnets[vnet] {
				out = append(out, map[string]any{"id": own[0].ID, "vnetId": vnet})
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

func rowVNet(rows []any, id string) string {
	for _, row := range rows {
		if m, ok := row.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m["id"]), id) {
			return fmt.Sprint(m["vnetId"])
		}
	}
	return ""
}

// linkQueryVNets reads the VNet ids of gather's zone link query
// ("… virtualnetworklinks … | where vnetId in ('…', '…')").
func linkQueryVNets(q string) (map[string]bool, bool) {
	lq := strings.ToLower(q)
	if !strings.Contains(lq, linkType) {
		return nil, false
	}
	i := strings.Index(lq, "vnetid in (")
	if i < 0 {
		return nil, false
	}
	rest := q[i+len("vnetid in ("):]
	j := strings.IndexByte(rest, ')')
	if j < 0 {
		return nil, false
	}
	out := map[string]bool{}
	for _, part := range strings.Split(rest[:j], ",") {
		s := strings.TrimSpace(part)
		if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
			return nil, false
		}
		out[strings.ToLower(strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(s[1:len(s)-1]))] = true
	}
	return out, true
}

// notFound is ARM's 404 for a resource that does not exist: the network
// resource provider answers NotFound for the children it embeds (a subnet,
// a route), Resource Manager ResourceNotFound for anything else.
func notFound(req *http.Request, p armPath) *http.Response {
	code := "ResourceNotFound"
	msg := fmt.Sprintf("The Resource '%s/%s' was not found (deleted by the planned changes).", p.ns, strings.Join(p.segs, "/"))
	if parent, ok := parseARMPath(p.parent()); ok && embedded[parent.typ()] != nil {
		code = "NotFound"
		msg = fmt.Sprintf("Resource %s not found (deleted by the planned changes).", p.id())
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": msg}})
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("x-ms-error-code", code)
	return &http.Response{
		Status: "404 Not Found", StatusCode: http.StatusNotFound, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
}

func jsonResponse(req *http.Request, v any) (*http.Response, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("the planned resource cannot be encoded: %w", err)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}, nil
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
