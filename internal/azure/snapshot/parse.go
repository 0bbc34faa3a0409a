package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Load reads and validates a snapshot file. Errors name the file, the JSON
// path and what to fix.
func Load(path string) (*Snapshot, error) {
	data, err := readCompact(path)
	if err == nil && (!utf8.Valid(data) || !json.Valid(data)) {
		// Parse the file as written, so that the message points into it.
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
	}
	return parse(data, path)
}

// readCompact reads a JSON file without the whitespace outside its
// strings, holding only the compact document (a snapshot of tens of
// megabytes is mostly indentation): one pass counts the compact size, a
// second fills a buffer of exactly that size. Whitespace between two
// literals ("1 2", invalid JSON) is kept as one space, so that what was
// invalid stays invalid; of valid JSON it writes what json.Compact writes.
func readCompact(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var c compactor
	if err := c.copy(f, nil); err != nil {
		return nil, err
	}
	out := make([]byte, 0, c.n)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	c = compactor{}
	if err := c.copy(f, &out); err != nil {
		return nil, err
	}
	if c.n != len(out) || len(out) != cap(out) {
		return nil, errors.New("the file changed while it was read")
	}
	return out, nil
}

// compactor removes JSON whitespace outside strings from a stream.
type compactor struct {
	n             int  // bytes written (or counted)
	inString, esc bool // inside a string; after its backslash
	pending       bool // whitespace skipped since the last byte written
	last          byte // the last byte written outside a string
}

// copy reads r to its end, appending the compact bytes to *out (counting
// them only when out is nil).
func (c *compactor) copy(r io.Reader, out *[]byte) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		for _, b := range buf[:n] {
			c.put(b, out)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (c *compactor) put(b byte, out *[]byte) {
	switch {
	case c.inString:
		c.inString = c.esc || b != '"'
		c.esc = !c.esc && b == '\\'
	case b == ' ' || b == '\t' || b == '\n' || b == '\r':
		c.pending = true
		return
	default:
		if c.pending && isLiteralByte(c.last) && isLiteralByte(b) {
			c.emit(' ', out)
		}
		c.inString, c.last = b == '"', b
	}
	c.pending = false
	c.emit(b, out)
}

func (c *compactor) emit(b byte, out *[]byte) {
	c.n++
	if out != nil && len(*out) < cap(*out) {
		*out = append(*out, b)
	}
}

// isLiteralByte reports a byte of a number or of true, false, null.
func isLiteralByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '-' || b == '+' || b == '.'
}

// Parse reads and validates a snapshot document. It does not change data
// and keeps no reference to it.
func Parse(data []byte) (*Snapshot, error) {
	return parse(bytes.Clone(data), "")
}

var topLevelFields = []string{"format", "resources", "actions", "faults", "simulate"}

// parse reads and validates a snapshot document that it owns: the
// document is compacted in place and the resource bodies and action answers
// it returns are slices of it, so that a snapshot of tens of megabytes
// (recorded effective route tables, learned routes) is held once, without
// its indentation, instead of being copied at each step of decoding.
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
	if !json.Valid(trimmed) {
		var v any
		return fail("", "%s", describeJSONError(trimmed, json.Unmarshal(trimmed, &v)))
	}
	trimmed = compactInPlace(trimmed)
	top := map[string]json.RawMessage{}
	keys, vals := objectMembers(trimmed)
	for i, k := range keys {
		top[k] = vals[i]
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
		elems, ok := arrayElements(raw)
		if !ok {
			add("resources", "must be an array of ARM resource bodies")
		}
		for i, el := range elems {
			r, err := extractCompactResource(el)
			if err != nil {
				add(fmt.Sprintf("resources[%d]", i), "%v", err)
				continue
			}
			s.Resources = append(s.Resources, r)
			positions = append(positions, i)
		}
	}

	if raw, ok := top["actions"]; ok {
		if len(raw) == 0 || raw[0] != '{' {
			add("actions", `must be an object {"POST /path": {…result…}}`)
		} else {
			checkDuplicateKeys(raw, "actions", func(path, msg string) { add(path, "%s", msg) })
			// Compact already (the whole document is), so that a parse of
			// Marshal's output is identical; a repeated key keeps the last
			// value, as encoding/json would.
			keys, vals := objectMembers(raw)
			for i, k := range keys {
				if s.Actions == nil {
					s.Actions = map[string]json.RawMessage{}
				}
				s.Actions[k] = vals[i]
			}
			// {} and an absent field mean the same: s.Actions stays nil.
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
// validate's job, so code-built snapshots get the same checks). The body is
// a compact copy of raw.
func extractResource(raw json.RawMessage) (Resource, error) {
	r, err := extractCompactResource(raw)
	if err != nil {
		return Resource{}, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, r.Body); err != nil {
		return Resource{}, fmt.Errorf("not valid JSON: %w", err)
	}
	r.Body = buf.Bytes()
	return r, nil
}

// extractCompactResource is extractResource without the copy: the body is
// raw, trimmed, and must be compact for the snapshot to serve it as stored
// (parse compacts the whole document first).
func extractCompactResource(raw json.RawMessage) (Resource, error) {
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
	r.Body = trimmed
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
	keys, _ := objectMembers(raw)
	return keys
}

// objectMembers returns the member names of the JSON object raw and their
// values, in order; each value is a slice of raw (not a copy). raw must be
// valid JSON, as for objectKeys.
func objectMembers(raw []byte) (keys []string, vals [][]byte) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, nil
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			return keys, vals
		}
		if raw[i] == ',' {
			i++
			continue
		}
		if raw[i] != '"' {
			return keys, vals
		}
		end := stringEnd(raw, i)
		tok := raw[i:end]
		if len(tok) < 2 || tok[len(tok)-1] != '"' {
			return keys, vals // unterminated: not valid JSON
		}
		var key string
		if bytes.IndexByte(tok, '\\') >= 0 || !utf8.Valid(tok) {
			if json.Unmarshal(tok, &key) != nil {
				return keys, vals
			}
		} else {
			key = string(tok[1 : len(tok)-1])
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return keys, vals
		}
		start := skipSpace(raw, i+1)
		i = skipValue(raw, start)
		keys = append(keys, key)
		vals = append(vals, capped(bytes.TrimRight(raw[start:i], " \t\r\n")))
	}
}

// arrayElements returns the elements of the JSON array raw, each a slice
// of raw (not a copy); ok is false when raw is not an array. raw must be
// valid JSON, as for objectKeys.
func arrayElements(raw []byte) (elems [][]byte, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == ']' {
			return elems, true
		}
		if raw[i] == ',' {
			i++
			continue
		}
		end := skipValue(raw, i)
		if end <= i {
			return elems, true
		}
		elems = append(elems, capped(bytes.TrimRight(raw[i:end], " \t\r\n")))
		i = end
	}
}

// capped is b with no room to append: appending to a slice of the
// document must copy, never write over what follows it.
func capped(b []byte) []byte { return b[:len(b):len(b)] }

// compactInPlace removes the whitespace outside strings from the valid
// JSON raw, writing over raw itself (the result is never longer), and
// returns the compact prefix: what json.Compact writes, without a second
// buffer the size of the document.
func compactInPlace(raw []byte) []byte {
	w := 0
	for r := 0; r < len(raw); r++ {
		switch c := raw[r]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			end := stringEnd(raw, r)
			w += copy(raw[w:], raw[r:end])
			r = end - 1
		default:
			raw[w] = c
			w++
		}
	}
	return raw[:w:w]
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
