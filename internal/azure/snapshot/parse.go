package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Load reads and validates a snapshot file. Errors name the file, the JSON
// path and what to fix.
func Load(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
	}
	return parse(data, path)
}

// Parse reads and validates a snapshot document.
func Parse(data []byte) (*Snapshot, error) {
	return parse(data, "")
}

var topLevelFields = []string{"format", "resources", "actions", "faults", "simulate"}

func parse(data []byte, file string) (*Snapshot, error) {
	fail := func(path, format string, args ...any) (*Snapshot, error) {
		return nil, &Error{File: file, Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.Valid(data) {
		return fail("", "the file is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fail("", `the document must be a JSON object starting with {"format": %q, …}`, Format)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &top); err != nil {
		return fail("", "%s", describeJSONError(trimmed, err))
	}

	if msg := terraformDocument(top); msg != "" {
		return fail("", "%s", msg)
	}

	var errs []*Error
	add := func(path, format string, args ...any) {
		errs = append(errs, &Error{File: file, Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	checkDuplicateKeys(trimmed, "", func(path, msg string) { add(path, "%s", msg) })
	for _, k := range sortedKeys(top) {
		if !slices.Contains(topLevelFields, k) {
			add(k, "unknown field; format v1 has only %s", strings.Join(topLevelFields, ", "))
		}
	}

	// A wrong format makes every other message noise: stop here.
	var format string
	if raw, ok := top["format"]; !ok {
		add("format", "missing; add \"format\": %q", Format)
		return nil, joinErrors(errs, file)
	} else if err := json.Unmarshal(raw, &format); err != nil || format != Format {
		add("format", "got %s, want %q (this build reads only v1)", raw, Format)
		return nil, joinErrors(errs, file)
	}
	s := &Snapshot{Format: format}

	// Resources: positions are kept so that messages name the index in the
	// file even when an element before it was rejected.
	var positions []int
	if raw, ok := top["resources"]; ok {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil || elems == nil {
			add("resources", "must be an array of ARM resource bodies")
		}
		for i, el := range elems {
			r, err := extractResource(el)
			if err != nil {
				add(fmt.Sprintf("resources[%d]", i), "%v", err)
				continue
			}
			s.Resources = append(s.Resources, r)
			positions = append(positions, i)
		}
	}

	if raw, ok := top["actions"]; ok {
		if err := json.Unmarshal(raw, &s.Actions); err != nil || s.Actions == nil {
			add("actions", `must be an object {"POST /path": {…result…}}`)
			s.Actions = nil
		} else {
			checkDuplicateKeys(raw, "actions", func(path, msg string) { add(path, "%s", msg) })
			if len(s.Actions) == 0 {
				s.Actions = nil // {} and an absent field mean the same
			}
			for k, body := range s.Actions {
				// Compact so that a parse of Marshal's output is identical.
				var buf bytes.Buffer
				if json.Compact(&buf, body) == nil {
					s.Actions[k] = buf.Bytes()
				}
			}
		}
	}

	if raw, ok := top["faults"]; ok {
		var faults map[string]json.RawMessage
		if err := json.Unmarshal(raw, &faults); err != nil || faults == nil {
			add("faults", `must be an object {"GET /path": {"status": 403, …}}`)
		} else {
			checkDuplicateKeys(raw, "faults", func(path, msg string) { add(path, "%s", msg) })
			for _, k := range sortedKeys(faults) {
				var f Fault
				if err := decodeStrict(faults[k], &f); err != nil {
					add(keyPath("faults", k), `%s (a fault is {"status": 429, "code": "…", "message": "…", "retry_after_s": 1, "times": 2})`, err)
					continue
				}
				if s.Faults == nil {
					s.Faults = map[string]Fault{}
				}
				s.Faults[k] = f
			}
		}
	}

	if raw, ok := top["simulate"]; ok {
		var sim Simulate
		if err := decodeStrict(raw, &sim); err != nil {
			add("simulate", `%s (simulate is {"latency_ms": 0, "action_latency_ms": 0})`, err)
		} else {
			s.Simulate = &sim
		}
	}

	errs = append(errs, s.validate(func(i int) string {
		return fmt.Sprintf("resources[%d]", positions[i])
	})...)
	for _, e := range errs {
		e.File = file
	}
	if err := joinErrors(errs, file); err != nil {
		return nil, err
	}
	return s, nil
}

// extractResource reads a resource element without judging its id (that is
// validate's job, so code-built snapshots get the same checks).
func extractResource(raw json.RawMessage) (Resource, error) {
	var head struct {
		ID   json.RawMessage `json:"id"`
		Type json.RawMessage `json:"type"`
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Resource{}, errors.New("a resource must be a JSON object (the body of its ARM GET)")
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		return Resource{}, fmt.Errorf("not a valid resource body: %w", err)
	}
	if isNull(head.ID) {
		return Resource{}, errors.New(`"id" is missing; every resource needs the id of its ARM GET`)
	}
	var r Resource
	if err := json.Unmarshal(head.ID, &r.ID); err != nil {
		return Resource{}, errors.New(`"id" must be a string such as "/subscriptions/…/virtualNetworks/hub"`)
	}
	if !isNull(head.Type) {
		if err := json.Unmarshal(head.Type, &r.Type); err != nil {
			return Resource{}, errors.New(`"type" must be a string such as "Microsoft.Network/virtualNetworks"`)
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return Resource{}, fmt.Errorf("not valid JSON: %w", err)
	}
	r.Body = buf.Bytes()
	return r, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// decodeStrict decodes an object, rejecting unknown fields: a misspelt
// "retry_after" must not silently mean "no Retry-After".
func decodeStrict(raw json.RawMessage, v any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// checkDuplicateKeys reports keys that appear twice in an object:
// encoding/json would silently keep the last one.
func checkDuplicateKeys(raw []byte, path string, report func(path, msg string)) {
	seen := map[string]bool{}
	for _, k := range objectKeys(raw) {
		if seen[k] {
			p := k
			if path != "" {
				p = keyPath(path, k)
			}
			report(p, "appears twice in the same object; keep one")
		}
		seen[k] = true
	}
}

// objectKeys returns the member names of the JSON object raw, in order.
// raw must be valid JSON (the caller has decoded it already): values are
// skipped by their brackets and quotes, without decoding, because a
// snapshot's actions can hold megabytes of learned routes and this runs on
// every provider start.
func objectKeys(raw []byte) []string {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	i++
	var keys []string
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			return keys
		}
		if raw[i] == ',' {
			i++
			continue
		}
		if raw[i] != '"' {
			return keys
		}
		end := stringEnd(raw, i)
		tok := raw[i:end]
		if len(tok) < 2 || tok[len(tok)-1] != '"' {
			return keys // unterminated: not valid JSON
		}
		var key string
		if bytes.IndexByte(tok, '\\') >= 0 || !utf8.Valid(tok) {
			if json.Unmarshal(tok, &key) != nil {
				return keys
			}
		} else {
			key = string(tok[1 : len(tok)-1])
		}
		keys = append(keys, key)
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return keys
		}
		i = skipValue(raw, skipSpace(raw, i+1))
	}
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the string that starts at raw[i] ('"').
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(raw)
}

// skipValue is the index after the value that starts at raw[i]: at the ','
// or closing bracket that follows it.
func skipValue(raw []byte, i int) int {
	depth := 0
	for j := i; j < len(raw); j++ {
		switch raw[j] {
		case '"':
			j = stringEnd(raw, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return len(raw)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// terraformDocument recognises the Terraform (or OpenTofu) files people give
// snapshot_file by mistake, by their top-level fields, and says what the file
// is and where it goes; "" for anything else. A plan in JSON has
// format_version with planned_values or resource_changes; a state file has
// version, terraform_version and resources (or, from `show -json`,
// format_version and values).
func terraformDocument(top map[string]json.RawMessage) string {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := top[k]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has("format_version", "planned_values") || has("format_version", "resource_changes"):
		return "this is a Terraform plan in JSON (terraform show -json PLANFILE), not a snapshot: give it to planned_changes_file " +
			"(PULLPATH_PLANNED_CHANGES_FILE) to verify the network as it will be after that plan; snapshot_file takes a snapshot " +
			"written by record_file"
	case has("version", "terraform_version", "resources") || has("format_version", "terraform_version", "values"):
		return "this is a Terraform state file, not a snapshot: the provider reads Azure Resource Manager's answers, which " +
			"a state does not hold; give snapshot_file a snapshot written by record_file, or leave it unset to read Azure"
	}
	return ""
}
