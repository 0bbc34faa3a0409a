package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Format is the value of the "format" field this package reads and writes.
const Format = "pullpath.snapshot/v1"

// Snapshot is one snapshot file.
type Snapshot struct {
	Format string `json:"format"`
	// Resources are ARM bodies exactly as a GET on their id returns them.
	Resources []Resource `json:"resources"`
	// Actions map "POST /path" to the body of the finished action, and
	// "GET /path" to the answer of a read that is not a resource with that
	// id (the service tags of a region).
	Actions map[string]json.RawMessage `json:"actions,omitempty"`
	// Faults map "GET /path" or "POST /path" to an error answer.
	Faults map[string]Fault `json:"faults,omitempty"`
	// Simulate adds latency; nil means none.
	Simulate *Simulate `json:"simulate,omitempty"`
}

// Resource is one ARM resource body. The body is kept as raw JSON so that
// replay serves it byte for byte as stored (compacted); ID and Type are read
// from it for indexing.
type Resource struct {
	ID   string
	Type string // optional: some ARM bodies (private DNS zone groups) have none
	Body json.RawMessage
}

// NewResource reads the id and type of an ARM body, checks the id and keeps
// the body in compact form.
func NewResource(body []byte) (Resource, error) {
	r, err := extractResource(body)
	if err != nil {
		return Resource{}, err
	}
	if err := checkID(r.ID); err != nil {
		return Resource{}, fmt.Errorf("id: %w", err)
	}
	return r, nil
}

// MarshalJSON writes the stored body.
func (r Resource) MarshalJSON() ([]byte, error) {
	if len(r.Body) == 0 {
		return nil, fmt.Errorf("resource %q has no body", r.ID)
	}
	return r.Body, nil
}

// UnmarshalJSON is [NewResource] for encoding/json users.
func (r *Resource) UnmarshalJSON(b []byte) error {
	res, err := NewResource(b)
	if err != nil {
		return err
	}
	*r = res
	return nil
}

// Fault is an error answer that overrides the normal one.
type Fault struct {
	// Status is the HTTP status, 400–599.
	Status int `json:"status"`
	// Code and Message form the ARM error body; both have defaults derived
	// from the status.
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// RetryAfterS, when set (0 included), is sent as a Retry-After header.
	RetryAfterS *int `json:"retry_after_s,omitempty"`
	// RetryAfterMS, when set, is sent as a Retry-After-Ms header (which the
	// provider's retry policy prefers to Retry-After), so that tests can
	// exercise honoured server waits without waiting whole seconds.
	RetryAfterMS *int `json:"retry_after_ms,omitempty"`
	// Body, when set, is sent as it is instead of the ARM error body, with
	// a non-JSON content type: what a proxy or a broken gateway answers
	// (an HTML page, a cut-off document). With a body, Status may also be
	// 200, an answer that looks successful but cannot be decoded.
	Body *string `json:"body,omitempty"`
	// Times is how many requests get the fault before the normal answer;
	// nil means every request.
	Times *int `json:"times,omitempty"`
}

// Simulate adds delays so that concurrency and request counts can be
// measured.
type Simulate struct {
	LatencyMS       int `json:"latency_ms"`
	ActionLatencyMS int `json:"action_latency_ms"`
	// PathLatencyMS adds a delay to the answers of exactly one method and
	// path ("GET /subscriptions/…", matched like faults), on top of the
	// others: one slow read among fast ones, as a hung ARM endpoint is.
	PathLatencyMS map[string]int `json:"path_latency_ms,omitempty"`
}

// Marshal writes s in the file format: indented, keys sorted, HTML
// characters left alone so that stored bodies keep their exact text.
func Marshal(s *Snapshot) ([]byte, error) {
	if s == nil {
		return nil, errors.New("nil snapshot")
	}
	out := *s
	if out.Resources == nil {
		out.Resources = []Resource{} // "resources": [] rather than null
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
