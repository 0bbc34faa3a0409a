// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package overlay is the what-if overlay of planned_changes_file: an azcore
// policy that answers the session's reads as Azure will answer them after
// a saved plan is applied (docs/design/what-if.md). The provider reads and
// translates the plan (internal/planned) and hands the overlay to the
// session (azure.WithPlannedChanges); the session never imports planned.
//
// The files follow ARM's concepts: overlay.go is the policy (dispatch,
// masks, tracking, responses), path.go ARM paths, resolve.go one resource
// after the plan (GET, embedded children, merge patches, peerings),
// list.go collections and their pages, action.go the allowed read actions
// (POST), dispatched on the what-if treatment of the guard's allow-list.
package overlay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
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
//     [azure.PlannedStaleError] (gather then computes the routes), the learned
//     routes of a gateway or Route Server hub the plan changes and the resolvers or rulesets of
//     a VNet when the plan changes resolvers or rulesets are unknown until
//     apply ([azure.PlannedValueUnknownError]); the Resource Graph search for
//     private DNS zone links sees the links the plan creates or deletes.
//   - A resource with a value known only after apply (Op.Unknown) is
//     answered with [azure.PlannedValueUnknownError]: nothing that depends on it
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

// New returns the overlay of plan; nil when the plan is nil.
func New(plan *planned.Plan) *Overlay {
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
	if isScaleSetPublicIPs(p) {
		return o.scaleSetPublicIPs(req, p, ops)
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
		defer func() { _ = resp.Body.Close() }()
		body, ok := azure.PeekBody(resp)
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

// notFound is ARM's 404 for a resource that does not exist: the network
// resource provider answers NotFound for the children it embeds (a subnet,
// a route), Resource Manager ResourceNotFound for anything else.
func notFound(req *http.Request, p armPath) *http.Response {
	code := "ResourceNotFound"
	msg := fmt.Sprintf("The Resource '%s' was not found (deleted by the planned changes).", p.relative())
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
