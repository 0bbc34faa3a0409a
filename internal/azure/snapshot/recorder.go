package snapshot

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// Recorder wraps the live transport and keeps what ARM answered, to be
// written as a snapshot with [Recorder.Flush]. It keeps response bodies
// only: no request or response header, so no token, ever reaches the file.
// It is safe for concurrent use.
//
// What is kept:
//   - every successful GET of a resource (deduplicated by id; a direct GET
//     wins over the copy in a list) and every element of a successful GET
//     list, so that a replay serves the list and each id again;
//   - the final result of every POST action: a 200 body directly, or for a
//     long-running action the body the SDK's poller takes as the result
//     (see lro.go); pages of a POST list are merged, and so are the rows of
//     every Resource Graph query (recordGraphRows);
//   - the answer of a GET that is neither a resource nor a list (the
//     service tags of a region, see isReadAnswer), as an action keyed
//     "GET /path";
//   - 401 and 403 answers as faults, so that a replay reproduces missing
//     permissions instead of turning them into "not found". Throttling and
//     server errors are transient and are not kept.
type Recorder struct {
	inner policy.Transporter

	mu        sync.Mutex
	resources map[string]recordedResource // lookup key of the id
	actions   map[string]namedAction      // lookup key "POST /path" or "GET /path"
	faults    map[string]namedFault       // lookup key "GET|POST /path"
	polls     map[string]pollTarget       // lookup path of a polling URL
	pages     map[string]string           // canonical nextLink URL → action lookup key
}

type recordedResource struct {
	res      Resource
	fromList bool // an element of a list, replaced by a direct GET
}

type namedAction struct {
	key  string // "POST /path" or "GET /path" as first requested
	body json.RawMessage
}

type namedFault struct {
	key   string
	fault Fault
}

// NewRecorder records what inner answers.
func NewRecorder(inner policy.Transporter) *Recorder {
	return &Recorder{
		inner:     inner,
		resources: map[string]recordedResource{},
		actions:   map[string]namedAction{},
		faults:    map[string]namedFault{},
		polls:     map[string]pollTarget{},
		pages:     map[string]string{},
	}
}

// Do sends req through the inner transport and records the answer. The
// response is handed on unchanged (its body re-readable).
func (r *Recorder) Do(req *http.Request) (*http.Response, error) {
	resp, err := r.inner.Do(req)
	if err != nil || resp == nil || req == nil || req.URL == nil {
		return resp, err
	}
	method := strings.ToUpper(req.Method)
	if method != http.MethodGet && method != http.MethodPost {
		return resp, nil
	}
	var body []byte
	if resp.Body != nil {
		body, err = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))

	r.mu.Lock()
	defer r.mu.Unlock()
	if method == http.MethodPost {
		r.observePost(req, resp, body)
	} else {
		r.observeGet(req, resp, body)
	}
	return resp, nil
}

func (r *Recorder) observePost(req *http.Request, resp *http.Response, body []byte) {
	key := "POST " + req.URL.Path
	switch resp.StatusCode {
	case http.StatusOK:
		r.recordActionPage(key, body, false)
	case http.StatusCreated, http.StatusAccepted:
		r.trackLRO(key, resp.Header)
	default:
		r.recordFault(key, resp.StatusCode, body)
	}
}

func (r *Recorder) observeGet(req *http.Request, resp *http.Response, body []byte) {
	if t, ok := r.polls[normPath(req.URL.Path)]; ok {
		r.observePoll(t, resp, body)
		return
	}
	if action, ok := r.pages[pageKey(req.URL.Path, req.URL.RawQuery)]; ok {
		if resp.StatusCode == http.StatusOK {
			r.recordActionPage(action, body, true)
		}
		return
	}
	key := "GET " + req.URL.Path
	if resp.StatusCode != http.StatusOK {
		r.recordFault(key, resp.StatusCode, body)
		return
	}
	delete(r.faults, lookupKey(http.MethodGet, req.URL.Path))

	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return
	}
	if isReadAnswer(req.URL.Path, fields) {
		r.recordActionPage(key, body, false)
		return
	}
	if _, hasID := fields["id"]; hasID {
		r.recordResource(body, false)
		return
	}
	var elems []json.RawMessage
	if json.Unmarshal(fields["value"], &elems) == nil {
		for _, el := range elems {
			r.recordResource(el, true)
		}
	}
}

// isReadAnswer reports whether a successful GET answered something other
// than a resource or a list of resources: a path that ends after a type
// (the shape of a collection) whose answer is not a list ({"value": [...]}),
// such as the service tags of a region
// (/subscriptions/{s}/providers/Microsoft.Network/locations/{l}/serviceTags,
// whose body carries an id of its own, …/serviceTags/Public). A replay
// answers such a GET from an actions entry keyed "GET /path"; stored as a
// resource, it would be served under the wrong path.
func isReadAnswer(p string, fields map[string]json.RawMessage) bool {
	if fields == nil || shapeOf(segments(normPath(p))) != shapeCollection {
		return false
	}
	_, isList := fields["value"]
	return !isList
}

// recordResource keeps a body under its id. List elements never replace a
// direct GET: the snapshot holds "the body of a GET on its id".
func (r *Recorder) recordResource(body []byte, fromList bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil || len(fields) < 2 {
		return // not an object, or a bare {"id"} reference
	}
	res, err := NewResource(body)
	if err != nil {
		return
	}
	key := normPath(res.ID)
	if isOperationStatus(key) {
		return
	}
	if old, ok := r.resources[key]; ok && fromList && !old.fromList {
		return
	}
	r.resources[key] = recordedResource{res: res, fromList: fromList}
}

// recordFault keeps 401 and 403 answers: they are what a reader of the
// snapshot needs to see (evidence the identity could not read).
func (r *Recorder) recordFault(key string, status int, body []byte) {
	if status != http.StatusUnauthorized && status != http.StatusForbidden {
		return
	}
	method, p, err := parseKey(key)
	if err != nil {
		return
	}
	var e armError
	_ = json.Unmarshal(body, &e) // a body without an ARM error keeps the defaults
	r.faults[lookupKey(method, p)] = namedFault{key: key, fault: Fault{Status: status, Code: e.Error.Code, Message: e.Error.Message}}
}

// recordActionPage keeps an action result. A page with a nextLink is kept
// without it, and the next page's values are appended when the SDK fetches
// it: the replay never pages.
func (r *Recorder) recordActionPage(key string, body []byte, appendPage bool) {
	method, p, err := parseKey(key)
	if err != nil {
		return
	}
	lk := lookupKey(method, p)
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil || fields == nil {
		return
	}
	delete(r.faults, lk)
	if lk == resourceGraphKey && r.recordGraphRows(key, lk, fields) {
		return
	}
	var next string
	_ = json.Unmarshal(fields["nextLink"], &next)
	if next == "" && !appendPage {
		r.actions[lk] = namedAction{key: key, body: compact(body)}
		return
	}
	delete(fields, "nextLink")
	if old, ok := r.actions[lk]; ok && appendPage {
		var oldFields map[string]json.RawMessage
		var oldValues, newValues []json.RawMessage
		if json.Unmarshal(old.body, &oldFields) == nil &&
			json.Unmarshal(oldFields["value"], &oldValues) == nil &&
			json.Unmarshal(fields["value"], &newValues) == nil {
			merged, err := json.Marshal(append(oldValues, newValues...))
			if err == nil {
				fields["value"] = merged
			}
		}
		key = old.key
	}
	merged, err := json.Marshal(fields)
	if err != nil {
		return
	}
	r.actions[lk] = namedAction{key: key, body: merged}
	if next != "" {
		if u, err := parseURL(next); err == nil {
			r.pages[pageKey(u.Path, u.RawQuery)] = key
		}
	}
}

// Snapshot returns what was recorded so far, in deterministic order.
func (r *Recorder) Snapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &Snapshot{Format: Format, Resources: []Resource{}}
	keys := make([]string, 0, len(r.resources))
	for k := range r.resources {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.Resources = append(s.Resources, r.resources[k].res)
	}
	if len(r.actions) > 0 {
		s.Actions = map[string]json.RawMessage{}
		for _, a := range r.actions {
			s.Actions[a.key] = a.body
		}
	}
	if len(r.faults) > 0 {
		s.Faults = map[string]Fault{}
		for _, f := range r.faults {
			s.Faults[f.key] = f.fault
		}
	}
	return s
}

// Flush writes the recording to path atomically (see [Save]).
func (r *Recorder) Flush(path string) error {
	return Save(path, r.Snapshot())
}

// recordGraphRows merges a Resource Graph answer (objectArray format) into
// the one kept for the query path: Resource Graph pages with a $skipToken
// in the request body, and a run may send several queries, all to that
// one path, which the replay answers with one entry. The rows of every
// answer are kept once each (by id, the first copy wins), without
// $skipToken. It reports false for an answer that is not in that format,
// which is then kept as it came.
func (r *Recorder) recordGraphRows(key, lk string, fields map[string]json.RawMessage) bool {
	var rows []json.RawMessage
	if json.Unmarshal(fields["data"], &rows) != nil || rows == nil {
		return false
	}
	if old, ok := r.actions[lk]; ok {
		var oldFields map[string]json.RawMessage
		var oldRows []json.RawMessage
		if json.Unmarshal(old.body, &oldFields) == nil && json.Unmarshal(oldFields["data"], &oldRows) == nil {
			rows = append(oldRows, rows...)
		}
		key = old.key
	}
	kept := make([]json.RawMessage, 0, len(rows))
	seen := map[string]bool{}
	for _, row := range rows {
		var withID struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(row, &withID) == nil && withID.ID != "" {
			if seen[strings.ToLower(withID.ID)] {
				continue
			}
			seen[strings.ToLower(withID.ID)] = true
		}
		kept = append(kept, compact(row))
	}
	body, err := json.Marshal(map[string]any{
		"totalRecords": len(kept), "count": len(kept), "resultTruncated": "false", "data": kept,
	})
	if err != nil {
		return false
	}
	r.actions[lk] = namedAction{key: key, body: body}
	return true
}
