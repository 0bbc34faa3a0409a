package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// maxLatencyMS catches a unit mistake (seconds written as milliseconds
// times 1000) before a test run hangs on it.
const maxLatencyMS = 10 * 60 * 1000

// Validate checks a snapshot built in code by the rules Parse applies.
func (s *Snapshot) Validate() error {
	if s == nil {
		return &Error{Msg: "nil snapshot"}
	}
	errs := s.validate(func(i int) string { return fmt.Sprintf("resources[%d]", i) })
	return joinErrors(errs, "")
}

// validate applies the semantic rules; resourcePath names a resource by its
// index in s.Resources.
func (s *Snapshot) validate(resourcePath func(int) string) []*Error {
	var errs []*Error
	add := func(path, format string, args ...any) {
		errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if s.Format != Format {
		add("format", "got %q, want %q", s.Format, Format)
	}

	seen := map[string]int{}
	for i, r := range s.Resources {
		if len(r.Body) == 0 {
			add(resourcePath(i), "the resource has no body")
			continue
		}
		if err := checkID(r.ID); err != nil {
			add(resourcePath(i)+".id", "%v", err)
			continue
		}
		key := normPath(r.ID)
		if j, dup := seen[key]; dup {
			add(resourcePath(i)+".id", "%q is also the id of %s (ids are matched case-insensitively); keep one", r.ID, resourcePath(j))
			continue
		}
		seen[key] = i
	}

	keysSeen := map[string]string{}
	for _, k := range sortedKeys(s.Actions) {
		path := keyPath("actions", k)
		method, p, err := parseKey(k)
		if err != nil {
			add(path, "%v", err)
			continue
		}
		if method == "GET" {
			// A GET answered from actions is a read whose answer is not a
			// resource with that id (the service tags of a region); a path
			// that is a resource's id is served from resources.
			if j, taken := seen[normPath(p)]; taken {
				add(path, "%s is the id of %s: a GET of a resource is answered from resources; keep one", p, resourcePath(j))
				continue
			}
		}
		if other, dup := keysSeen[lookupKey(method, p)]; dup {
			add(path, "same request as %s (paths are matched case-insensitively); keep one", keyPath("actions", other))
			continue
		}
		keysSeen[lookupKey(method, p)] = k
		body := bytes.TrimSpace(s.Actions[k])
		if len(body) == 0 || body[0] != '{' || !json.Valid(body) {
			add(path, `an action result must be the JSON object the action returns, e.g. {"value": […]}`)
		}
	}

	keysSeen = map[string]string{}
	for _, k := range sortedKeys(s.Faults) {
		path := keyPath("faults", k)
		method, p, err := parseKey(k)
		if err != nil {
			add(path, "%v", err)
			continue
		}
		if other, dup := keysSeen[lookupKey(method, p)]; dup {
			add(path, "same request as %s (paths are matched case-insensitively); keep one", keyPath("faults", other))
			continue
		}
		keysSeen[lookupKey(method, p)] = k
		f := s.Faults[k]
		switch {
		case f.Body != nil && (f.Status < 200 || f.Status > 599):
			add(path+".status", "%d is not an HTTP status for a body; use 200–599", f.Status)
		case f.Body == nil && (f.Status < 400 || f.Status > 599):
			add(path+".status", "%d is not an error status; use 400–599 (e.g. 403, 404, 429, 500)", f.Status)
		}
		if f.RetryAfterMS != nil && (*f.RetryAfterMS < 0 || *f.RetryAfterMS > 3600*1000) {
			add(path+".retry_after_ms", "%d is out of range; use 0–3600000 milliseconds", *f.RetryAfterMS)
		}
		if f.RetryAfterS != nil && (*f.RetryAfterS < 0 || *f.RetryAfterS > 3600) {
			add(path+".retry_after_s", "%d is out of range; use 0–3600 seconds", *f.RetryAfterS)
		}
		if f.Times != nil && *f.Times < 1 {
			add(path+".times", "must be at least 1; omit it to fault every request")
		}
	}

	if sim := s.Simulate; sim != nil {
		if sim.LatencyMS < 0 || sim.LatencyMS > maxLatencyMS {
			add("simulate.latency_ms", "%d is out of range; use 0–%d milliseconds", sim.LatencyMS, maxLatencyMS)
		}
		if sim.ActionLatencyMS < 0 || sim.ActionLatencyMS > maxLatencyMS {
			add("simulate.action_latency_ms", "%d is out of range; use 0–%d milliseconds", sim.ActionLatencyMS, maxLatencyMS)
		}
		keysSeen = map[string]string{}
		for _, k := range sortedKeys(sim.PathLatencyMS) {
			path := keyPath("simulate.path_latency_ms", k)
			method, p, err := parseKey(k)
			if err != nil {
				add(path, "%v", err)
				continue
			}
			if other, dup := keysSeen[lookupKey(method, p)]; dup {
				add(path, "same request as %s (paths are matched case-insensitively); keep one", keyPath("simulate.path_latency_ms", other))
				continue
			}
			keysSeen[lookupKey(method, p)] = k
			if ms := sim.PathLatencyMS[k]; ms < 0 || ms > maxLatencyMS {
				add(path, "%d is out of range; use 0–%d milliseconds", ms, maxLatencyMS)
			}
		}
	}
	return errs
}
