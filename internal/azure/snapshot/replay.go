package snapshot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Replay answers ARM requests from a snapshot. It implements azcore's
// policy.Transporter and is safe for concurrent use.
type Replay struct {
	ix            *index
	latency       time.Duration
	actionLatency time.Duration
	pathLatency   map[string]time.Duration // lookup key → extra delay

	mu        sync.Mutex
	faultHits map[string]int // lookup key → faults served
	requests  int
	distinct  map[string]struct{}
	// sent is distinct with the body of each POST: two queries to one
	// action path (Resource Graph) are two reads.
	sent map[string]struct{}
}

// NewReplay validates s and builds a replay over it. The replay keeps its
// own index; later changes to s do not affect it.
func NewReplay(s *Snapshot) (*Replay, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	r := &Replay{
		ix:        newIndex(s),
		faultHits: map[string]int{},
		distinct:  map[string]struct{}{},
		sent:      map[string]struct{}{},
	}
	if s.Simulate != nil {
		r.latency = time.Duration(s.Simulate.LatencyMS) * time.Millisecond
		r.actionLatency = time.Duration(s.Simulate.ActionLatencyMS) * time.Millisecond
		for k, ms := range s.Simulate.PathLatencyMS {
			if method, p, err := parseKey(k); err == nil { // Validate rejected bad keys
				if r.pathLatency == nil {
					r.pathLatency = map[string]time.Duration{}
				}
				r.pathLatency[lookupKey(method, p)] = time.Duration(ms) * time.Millisecond
			}
		}
	}
	return r, nil
}

// LoadReplay is Load followed by NewReplay.
func LoadReplay(path string) (*Replay, error) {
	s, err := Load(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReplay(s)
	if err == nil && r.ix.loaded >= collectAfterLoading {
		// The document is garbage now (the index holds copies, large
		// answers deflated). Collecting it here sets the heap goal of the
		// plan by what the replay holds, not by the document: otherwise
		// the runtime lets the plan's garbage grow to twice its size
		// before the next collection, and a snapshot of tens of
		// megabytes would add that much to the provider's peak memory.
		runtime.GC()
	}
	return r, err
}

// collectAfterLoading is the size of snapshot documents after whose
// loading LoadReplay collects garbage.
const collectAfterLoading = 4 << 20

// Requested returns the distinct requests the replay received so far, as
// "METHOD /path" in lookup form (lower-case path, no query), sorted: what a
// run read, for tests that fault each read in turn or check the permission
// each needs.
func (r *Replay) Requested() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return sortedKeys(r.distinct)
}

// Stats reports how many GET and POST requests the replay received (faulted
// ones included) and how many distinct reads they were: method and path,
// and for a POST its body (a query the same action answers for other
// arguments is another read).
func (r *Replay) Stats() (requests int, distinct int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests, len(r.sent)
}

// Do answers one request by the replay rules of docs/design/snapshot-format.md.
func (r *Replay) Do(req *http.Request) (*http.Response, error) {
	if req == nil || req.URL == nil {
		return nil, &ReplayError{Msg: "request without URL"}
	}
	var body []byte
	if req.Body != nil {
		// Like net/http, the transport owns and closes the request body.
		body, _ = io.ReadAll(req.Body)
		_ = req.Body.Close()
	}
	method := strings.ToUpper(req.Method)
	if method != http.MethodGet && method != http.MethodPost {
		return nil, &ReplayError{Method: req.Method, Path: req.URL.Path, Msg: "the snapshot replay answers only GET and POST"}
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	key := lookupKey(method, req.URL.Path)
	r.mu.Lock()
	r.requests++
	seq := r.requests
	r.distinct[key] = struct{}{}
	sent := key
	if method == http.MethodPost && len(body) > 0 {
		sent += "\n" + string(body)
	}
	r.sent[sent] = struct{}{}
	r.mu.Unlock()
	requestID := fmt.Sprintf("00000000-0000-4000-8000-%012x", seq)

	delay := r.latency
	if method == http.MethodPost {
		delay += r.actionLatency
	}
	delay += r.pathLatency[key]
	if err := sleep(ctx, delay); err != nil {
		return nil, err
	}

	if f, ok := r.takeFault(key); ok {
		return faultResponse(req, f, requestID), nil
	}
	if method == http.MethodPost {
		if body, ok, err := r.ix.action(key); ok {
			if err != nil {
				return errorResponse(req, http.StatusInternalServerError, "InternalServerError", err.Error(), requestID), nil
			}
			// 200 with the result: to azcore's poller an LRO that
			// finished at once, so nothing is polled.
			return newResponse(req, http.StatusOK, body, requestID), nil
		}
		if key == resourceGraphKey {
			return newResponse(req, http.StatusOK, r.ix.graphAnswer(), requestID), nil
		}
		for _, action := range emptyWhenAbsent {
			p := strings.TrimSuffix(req.URL.Path, "/")
			if !strings.HasSuffix(strings.ToLower(p), "/"+strings.ToLower(action)) {
				continue
			}
			vnet := p[:len(p)-len(action)-1]
			// A VNet of the snapshot with no entry for its effective
			// security admin rules is one no network manager reaches,
			// with none for its DNS security policies one no policy is
			// linked to: Azure answers either with an empty list.
			if _, found := r.ix.get(vnet); found {
				return newResponse(req, http.StatusOK, []byte(`{"value":[]}`), requestID), nil
			}
		}
		return errorResponse(req, http.StatusNotFound, "NotFound",
			fmt.Sprintf("The snapshot has no result for the action POST %s.", req.URL.Path), requestID), nil
	}
	// A read whose answer is not a resource with that id (the service
	// tags of a region) is an actions entry keyed "GET /path".
	if body, ok, err := r.ix.action(key); ok {
		if err != nil {
			return errorResponse(req, http.StatusInternalServerError, "InternalServerError", err.Error(), requestID), nil
		}
		return newResponse(req, http.StatusOK, body, requestID), nil
	}
	if body, ok := r.ix.get(req.URL.Path); ok {
		return newResponse(req, http.StatusOK, body, requestID), nil
	}
	return errorResponse(req, http.StatusNotFound, "ResourceNotFound",
		fmt.Sprintf("The resource '%s' was not found in the snapshot.", req.URL.Path), requestID), nil
}

// takeFault returns the fault for key if it still applies, counting it.
func (r *Replay) takeFault(key string) (Fault, bool) {
	f, ok := r.ix.faults[key]
	if !ok {
		return Fault{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if f.Times != nil && r.faultHits[key] >= *f.Times {
		return Fault{}, false
	}
	r.faultHits[key]++
	return f, true
}

// adminRulesAction is the VNet action listing the security admin rules in
// effect on it.
const adminRulesAction = "listNetworkManagerEffectiveSecurityAdminRules"

// dnsPoliciesAction is the VNet action listing the DNS security policies
// linked to it.
const dnsPoliciesAction = "listDnsResolverPolicies"

// emptyWhenAbsent are the VNet actions a snapshot may leave out for a VNet
// it holds: the answer is then the empty list Azure gives a VNet without
// such resources.
var emptyWhenAbsent = []string{adminRulesAction, dnsPoliciesAction}

// resourceGraphPath is the Azure Resource Graph query endpoint, and
// resourceGraphKey its lookup key.
const resourceGraphPath = "/providers/Microsoft.ResourceGraph/resources"

var resourceGraphKey = lookupKey(http.MethodPost, resourceGraphPath)

// graphAnswer is what the replay answers a Resource Graph query when the
// snapshot holds no result for it: the snapshot stands for every
// subscription the identity can read, and the answer lists every resource
// of the row type of each search the provider sends (model.GraphSearches:
// private DNS zone virtual network links, Virtual WAN hub connections, DNS
// private resolver inbound endpoints), whatever the query; the provider
// filters the rows itself. The shape is Resource Graph's objectArray
// result.
func (ix *index) graphAnswer() []byte {
	var rows []json.RawMessage
	for _, es := range ix.graphRows {
		for _, e := range es {
			rows = append(rows, e.body)
		}
	}
	if rows == nil {
		rows = []json.RawMessage{}
	}
	body, err := json.Marshal(map[string]any{
		"totalRecords": len(rows), "count": len(rows), "resultTruncated": "false", "data": rows,
	})
	if err != nil { // a list of compact JSON objects always marshals
		return []byte(`{"totalRecords":0,"count":0,"resultTruncated":"false","data":[]}`)
	}
	return body
}

// get serves a GET: a resource by id, or one of the collections.
func (ix *index) get(p string) ([]byte, bool) {
	key := normPath(p)
	if e, ok := ix.byID[key]; ok {
		return e.body, true
	}
	if scope, ok := strings.CutSuffix(key, roleAssignmentsSuffix); ok {
		if scope == "" {
			scope = "/"
		}
		return collectionBody(ix.assignmentsFor(scope)), true
	}
	if members, ok := ix.collections[key]; ok {
		return collectionBody(members), true
	}
	if shapeOf(segments(key)) == shapeCollection {
		// An empty list is what ARM returns for a parent without such
		// children (a scale set at zero instances has no NICs).
		return collectionBody(nil), true
	}
	return nil, false
}

// sleep waits d or until ctx ends, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ReplayError is a request the replay refuses to answer. It is not
// retriable: a retry would be refused the same way.
type ReplayError struct {
	Method, Path string
	Msg          string
}

func (e *ReplayError) Error() string {
	if e.Method == "" {
		return "snapshot replay: " + e.Msg
	}
	return fmt.Sprintf("snapshot replay: %s %s: %s", e.Method, e.Path, e.Msg)
}

// NonRetriable tells azcore's retry policy not to retry.
func (*ReplayError) NonRetriable() {}
