// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

// Scenario folders for pullpath_verification (testdata/scenarios/<name>/):
//
//   - verify.tf    the body of data "pullpath_verification" "this" { … }
//   - expect.json  verdict, must_include, must_not_include, note
//   - snapshot.json an ARM snapshot (the public scenarios, copied from
//     public scenarios), or
//   - plan.json    optional: the JSON of a saved plan (terraform show -json),
//     passed as the provider's planned_changes_file; expect.json's
//     planned_change then says which codes the plan causes (see
//     scenarioExpect)
//   - derive.json  a scenario derived from another one: the base folder and
//     a short list of edits of its snapshot (see deriveSpec). Derived
//     snapshots are built in Go at test time, so a scenario stays a few
//     lines that say exactly what differs from its base. To get the file
//     (to plan by hand with snapshot_file, or to attach to a bug report),
//     run the tests with PULLPATH_WRITE_DERIVED=<dir>.
//
// Folders are discovered at run time: a new folder is a new test case.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// scenariosDir holds the scenario folders.
const scenariosDir = "testdata/scenarios"

// scenario is one folder.
type scenario struct {
	Name   string
	Dir    string
	Body   string // verify.tf
	Expect scenarioExpect
	// Derived is true for a derive.json folder.
	Derived bool
	// Plan is true when the folder has plan.json.
	Plan bool
}

// scenarioExpect is expect.json.
type scenarioExpect struct {
	Verdict        string   `json:"verdict"`
	MustInclude    []string `json:"must_include"`
	MustNotInclude []string `json:"must_not_include"`
	Note           string   `json:"note"`
	// PlannedChange maps finding codes to the planned_change every finding
	// of that code carries (a scenario with plan.json); "" means null. A key
	// "CODE/pool" is for the findings of that code on that node pool only.
	// Findings of codes not listed must have a null planned_change.
	PlannedChange map[string]string `json:"planned_change"`
	// Accepted lists the codes whose findings an accept block of
	// verify.tf accepts, every one of them (accepted set, severity info);
	// findings of other codes must not be accepted. Absent means no
	// finding is accepted.
	Accepted []string `json:"accepted"`
	// FaultsOffPath lists faults of the snapshot ("GET /path") on reads no
	// path of the verdict uses: such a failed read must not be a finding at
	// all (TestScenarioFaultsAreEvidence checks both ways).
	FaultsOffPath []string `json:"faults_off_path"`
}

// acceptedOf is a finding's code, severity and whether it is accepted.
type acceptedOf struct {
	Code, Severity string
	Accepted       bool
}

// acceptedProblems compares the accepted findings with expect.json.
func (e scenarioExpect) acceptedProblems(got []acceptedOf) []string {
	want := map[string]bool{}
	for _, c := range e.Accepted {
		want[c] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range got {
		seen[f.Code] = true
		switch {
		case want[f.Code] && (!f.Accepted || f.Severity != "info"):
			out = append(out, fmt.Sprintf("%s: not accepted (severity %s), expect.json says accepted", f.Code, f.Severity))
		case !want[f.Code] && f.Accepted:
			out = append(out, fmt.Sprintf("%s: accepted, expect.json does not list it in accepted", f.Code))
		}
	}
	for c := range want {
		if !seen[c] {
			out = append(out, fmt.Sprintf("expect.json lists %s as accepted, which does not fire", c))
		}
	}
	sort.Strings(out)
	return out
}

// discoverScenarios returns every folder with verify.tf, expect.json and a
// snapshot.json or derive.json, by name.
func discoverScenarios(t *testing.T) []scenario {
	t.Helper()
	entries, err := os.ReadDir(scenariosDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []scenario
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(scenariosDir, e.Name())
		body, err := os.ReadFile(filepath.Join(dir, "verify.tf"))
		if err != nil {
			t.Fatalf("scenario %s: %v", e.Name(), err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "expect.json"))
		if err != nil {
			t.Fatalf("scenario %s: %v", e.Name(), err)
		}
		sc := scenario{Name: e.Name(), Dir: dir, Body: string(body)}
		if err := json.Unmarshal(raw, &sc.Expect); err != nil {
			t.Fatalf("scenario %s: expect.json: %v", e.Name(), err)
		}
		sc.Plan = fileExists(filepath.Join(dir, "plan.json"))
		if len(sc.Expect.PlannedChange) > 0 && !sc.Plan {
			t.Fatalf("scenario %s: expect.json has planned_change but the folder has no plan.json", e.Name())
		}
		switch {
		case fileExists(filepath.Join(dir, "snapshot.json")):
		case fileExists(filepath.Join(dir, "derive.json")):
			sc.Derived = true
		default:
			t.Fatalf("scenario %s has neither snapshot.json nor derive.json", e.Name())
		}
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(out) == 0 {
		t.Fatalf("no scenarios in %s", scenariosDir)
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// planPath returns the absolute path of the scenario's plan.json, "" when
// it has none.
func (sc scenario) planPath(t *testing.T) string {
	t.Helper()
	if !sc.Plan {
		return ""
	}
	p, err := filepath.Abs(filepath.Join(sc.Dir, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// plannedChangeProblems compares the planned_change of findings (code →
// value, "" for null) with expect.json: every finding of a listed code
// carries its value, every other finding none.
func (e scenarioExpect) plannedChangeProblems(got []plannedOf) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range got {
		want, key := e.PlannedChange[f.Code], f.Code
		if w, ok := e.PlannedChange[f.Code+"/"+f.NodePool]; ok {
			want, key = w, f.Code+"/"+f.NodePool
		}
		seen[key] = true
		if f.PlannedChange != want {
			out = append(out, fmt.Sprintf("%s: planned_change %q, want %q", f.Code, f.PlannedChange, want))
		}
	}
	for code := range e.PlannedChange {
		if !seen[code] {
			out = append(out, fmt.Sprintf("expect.json gives planned_change for %s, which does not fire", code))
		}
	}
	sort.Strings(out)
	return out
}

// plannedOf is a finding's code, node pool and planned_change ("" for
// null).
type plannedOf struct{ Code, NodePool, PlannedChange string }

// snapshotPath returns the absolute path of the scenario's snapshot,
// deriving it into a temporary directory when needed.
func (sc scenario) snapshotPath(t *testing.T) string {
	t.Helper()
	if !sc.Derived {
		p, err := filepath.Abs(filepath.Join(sc.Dir, "snapshot.json"))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	snap, err := deriveSnapshot(sc.Name, 0)
	if err != nil {
		t.Fatalf("scenario %s: %v", sc.Name, err)
	}
	out, err := json.MarshalIndent(snap, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), sc.Name+".json")
	if err := os.WriteFile(p, out, 0o600); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PULLPATH_WRITE_DERIVED"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, sc.Name+".json"), out, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// deriveSpec is derive.json: a snapshot built from the snapshot of the
// scenario folder Base (itself derived or not) by applying Edits in order.
type deriveSpec struct {
	Base  string       `json:"base"`
	Edits []deriveEdit `json:"edits"`
}

// deriveEdit is one change. Ops:
//
//   - "set":    set the value at Path inside the resource ID (missing
//     objects on the way are created);
//   - "delete": remove the value at Path inside resource ID; without Path,
//     remove the resource itself;
//   - "append": append Value to the array at Path inside resource ID;
//   - "put":    add Resource, replacing any resource with its id;
//   - "action": set the answer of Key ("POST /subscriptions/…") to Value
//     (null removes it);
//   - "fault":  set the fault of Key ("GET /subscriptions/…") to Value
//     (null removes it).
//
// Path segments are separated by "/": an object key, an array index, or
// [field=value] for the array element whose field (a top-level key of the
// element, typically name) has that value — so that an edit names the
// subnet or peering it changes rather than its position.
type deriveEdit struct {
	Op       string          `json:"op"`
	ID       string          `json:"id,omitempty"`
	Path     string          `json:"path,omitempty"`
	Key      string          `json:"key,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"`
	Resource json.RawMessage `json:"resource,omitempty"`
	Why      string          `json:"why,omitempty"`
}

// deriveSnapshot builds the snapshot of a scenario folder, following base
// folders (at most a few levels).
func deriveSnapshot(name string, depth int) (map[string]any, error) {
	if depth > 4 {
		return nil, fmt.Errorf("derive.json bases nest too deep at %s", name)
	}
	dir := filepath.Join(scenariosDir, name)
	if fileExists(filepath.Join(dir, "snapshot.json")) {
		raw, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
		if err != nil {
			return nil, err
		}
		var snap map[string]any
		if err := json.Unmarshal(raw, &snap); err != nil {
			return nil, fmt.Errorf("%s/snapshot.json: %w", name, err)
		}
		return snap, nil
	}
	raw, err := os.ReadFile(filepath.Join(dir, "derive.json"))
	if err != nil {
		return nil, err
	}
	var spec deriveSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s/derive.json: %w", name, err)
	}
	if spec.Base == "" || strings.ContainsAny(spec.Base, `/\`) {
		return nil, fmt.Errorf("%s/derive.json: base must name a sibling scenario folder, got %q", name, spec.Base)
	}
	snap, err := deriveSnapshot(spec.Base, depth+1)
	if err != nil {
		return nil, err
	}
	for i, e := range spec.Edits {
		if err := applyEdit(snap, e); err != nil {
			return nil, fmt.Errorf("%s/derive.json edit %d (%s %s%s): %w", name, i, e.Op, e.ID, e.Key, err)
		}
	}
	return snap, nil
}

// applyEdit applies one edit to a snapshot.
func applyEdit(snap map[string]any, e deriveEdit) error {
	var value any
	if len(e.Value) > 0 {
		if err := json.Unmarshal(e.Value, &value); err != nil {
			return fmt.Errorf("value: %w", err)
		}
	}
	switch e.Op {
	case "put":
		var res map[string]any
		if err := json.Unmarshal(e.Resource, &res); err != nil {
			return fmt.Errorf("resource: %w", err)
		}
		id, _ := res["id"].(string)
		if id == "" {
			return fmt.Errorf("resource without id")
		}
		list, _ := snap["resources"].([]any)
		for i, r := range list {
			if m, ok := r.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m["id"]), id) {
				list[i] = res
				return nil
			}
		}
		snap["resources"] = append(list, res)
		return nil
	case "action", "fault":
		section := map[string]string{"action": "actions", "fault": "faults"}[e.Op]
		m, _ := snap[section].(map[string]any)
		if m == nil {
			m = map[string]any{}
			snap[section] = m
		}
		for k := range m {
			if strings.EqualFold(k, e.Key) {
				delete(m, k)
			}
		}
		if value != nil {
			m[e.Key] = value
		}
		return nil
	case "set", "delete", "append":
	default:
		return fmt.Errorf("unknown op %q (set, delete, append, put, action, fault)", e.Op)
	}

	list, _ := snap["resources"].([]any)
	idx := -1
	for i, r := range list {
		if m, ok := r.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m["id"]), e.ID) {
			idx = i
		}
	}
	if idx < 0 {
		return fmt.Errorf("no resource with id %s", e.ID)
	}
	if e.Op == "delete" && e.Path == "" {
		snap["resources"] = append(list[:idx], list[idx+1:]...)
		return nil
	}
	segs := strings.Split(e.Path, "/")
	parent, err := walk(list[idx], segs[:len(segs)-1], e.Op == "set")
	if err != nil {
		return err
	}
	last := segs[len(segs)-1]
	switch e.Op {
	case "set":
		return setChild(parent, last, value)
	case "append":
		cur, err := getChild(parent, last)
		if err != nil {
			return err
		}
		arr, ok := cur.([]any)
		if !ok && cur != nil {
			return fmt.Errorf("%s is not an array", e.Path)
		}
		return setChild(parent, last, append(arr, value))
	default: // delete
		if arr, ok := parent.([]any); ok {
			// An array element: rebuild the array in its own parent.
			i, err := elementIndex(arr, last)
			if err != nil {
				return err
			}
			if len(segs) < 2 {
				return fmt.Errorf("cannot delete from a top-level array")
			}
			grand, err := walk(list[idx], segs[:len(segs)-2], false)
			if err != nil {
				return err
			}
			kept := append(append([]any{}, arr[:i]...), arr[i+1:]...)
			return setChild(grand, segs[len(segs)-2], kept)
		}
		return deleteChild(parent, last)
	}
}

// walk follows segs from v; with create, missing object keys are created.
func walk(v any, segs []string, create bool) (any, error) {
	for _, s := range segs {
		next, err := getChild(v, s)
		if err != nil {
			return nil, err
		}
		if next == nil && create {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("cannot create %q inside a non-object", s)
			}
			next = map[string]any{}
			m[s] = next
		}
		if next == nil {
			return nil, fmt.Errorf("no %q", s)
		}
		v = next
	}
	return v, nil
}

// elementIndex resolves an array segment: an index or [field=value].
func elementIndex(arr []any, seg string) (int, error) {
	if strings.HasPrefix(seg, "[") && strings.HasSuffix(seg, "]") {
		field, want, ok := strings.Cut(seg[1:len(seg)-1], "=")
		if !ok {
			return 0, fmt.Errorf("selector %q is not [field=value]", seg)
		}
		for i, el := range arr {
			if m, ok := el.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m[field]), want) {
				return i, nil
			}
		}
		return 0, fmt.Errorf("no element with %s=%s", field, want)
	}
	i, err := strconv.Atoi(seg)
	if err != nil || i < 0 || i >= len(arr) {
		return 0, fmt.Errorf("index %q out of range (%d elements)", seg, len(arr))
	}
	return i, nil
}

func getChild(v any, seg string) (any, error) {
	switch c := v.(type) {
	case map[string]any:
		return c[seg], nil
	case []any:
		i, err := elementIndex(c, seg)
		if err != nil {
			return nil, err
		}
		return c[i], nil
	default:
		return nil, fmt.Errorf("cannot descend into %T at %q", v, seg)
	}
}

func setChild(v any, seg string, value any) error {
	switch c := v.(type) {
	case map[string]any:
		c[seg] = value
		return nil
	case []any:
		i, err := elementIndex(c, seg)
		if err != nil {
			return err
		}
		c[i] = value
		return nil
	default:
		return fmt.Errorf("cannot set %q in %T", seg, v)
	}
}

func deleteChild(v any, seg string) error {
	switch c := v.(type) {
	case map[string]any:
		if _, ok := c[seg]; !ok {
			return fmt.Errorf("no %q to delete", seg)
		}
		delete(c, seg)
		return nil
	default:
		return fmt.Errorf("cannot delete %q in %T", seg, v)
	}
}

// TestDeriveEdits checks the derivation ops on a tiny snapshot.
func TestDeriveEdits(t *testing.T) {
	snap := map[string]any{}
	if err := json.Unmarshal([]byte(`{"resources":[{"id":"/x/vnet","properties":{"subnets":[{"name":"a","properties":{"p":"Disabled"}},{"name":"b","properties":{}}]}}]}`), &snap); err != nil {
		t.Fatal(err)
	}
	edits := []deriveEdit{
		{Op: "set", ID: "/X/VNET", Path: "properties/subnets/[name=b]/properties/p", Value: json.RawMessage(`"RouteTableEnabled"`)},
		{Op: "set", ID: "/x/vnet", Path: "properties/dhcpOptions/dnsServers", Value: json.RawMessage(`["10.0.1.10"]`)},
		{Op: "append", ID: "/x/vnet", Path: "properties/subnets", Value: json.RawMessage(`{"name":"c"}`)},
		{Op: "delete", ID: "/x/vnet", Path: "properties/subnets/0/properties/p"},
		{Op: "append", ID: "/x/vnet", Path: "properties/subnets", Value: json.RawMessage(`{"name":"d"}`)},
		{Op: "delete", ID: "/x/vnet", Path: "properties/subnets/[name=d]"},
		{Op: "put", Resource: json.RawMessage(`{"id":"/x/rt","properties":{}}`)},
		{Op: "action", Key: "POST /x/vnet/listDnsResolvers", Value: json.RawMessage(`{"value":[]}`)},
		{Op: "fault", Key: "GET /x/rt", Value: json.RawMessage(`{"status":403}`)},
	}
	for _, e := range edits {
		if err := applyEdit(snap, e); err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
	}
	got, _ := json.Marshal(snap)
	want := `{"actions":{"POST /x/vnet/listDnsResolvers":{"value":[]}},"faults":{"GET /x/rt":{"status":403}},"resources":[{"id":"/x/vnet","properties":{"dhcpOptions":{"dnsServers":["10.0.1.10"]},"subnets":[{"name":"a","properties":{}},{"name":"b","properties":{"p":"RouteTableEnabled"}},{"name":"c"}]}},{"id":"/x/rt","properties":{}}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []deriveEdit{
		{Op: "set", ID: "/x/none", Path: "a", Value: json.RawMessage(`1`)},
		{Op: "set", ID: "/x/vnet", Path: "properties/subnets/[name=z]/p", Value: json.RawMessage(`1`)},
		{Op: "rename", ID: "/x/vnet"},
	} {
		if err := applyEdit(snap, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestDerivedScenariosBuild builds every derived scenario, so that a broken
// derive.json fails here, without a CLI.
func TestDerivedScenariosBuild(t *testing.T) {
	for _, sc := range discoverScenarios(t) {
		if sc.Derived {
			if _, err := deriveSnapshot(sc.Name, 0); err != nil {
				t.Errorf("%s: %v", sc.Name, err)
			}
		}
	}
}
