package snapshot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sub = "/subscriptions/00000000-0000-0000-0000-00000000000a"

func TestLoadValidSnapshots(t *testing.T) {
	for _, name := range []string{"fixture.json", "baseline_ok.json"} {
		t.Run(name, func(t *testing.T) {
			s, err := Load(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != Format || len(s.Resources) == 0 || len(s.Actions) == 0 {
				t.Fatalf("format %q, %d resources, %d actions", s.Format, len(s.Resources), len(s.Actions))
			}
			for i, r := range s.Resources {
				if r.ID == "" || len(r.Body) == 0 {
					t.Errorf("resources[%d] lost its id or body", i)
				}
			}
			if err := s.Validate(); err != nil {
				t.Errorf("Validate after Load: %v", err)
			}
		})
	}
}

// TestParseErrors checks that each mistake is rejected with the JSON path
// and a hint at the fix.
func TestParseErrors(t *testing.T) {
	vnet := `{"id": "` + sub + `/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub", "properties": {}}`
	doc := func(rest string) string { return `{"format": "pullpath.snapshot/v1"` + rest + `}` }
	tests := []struct {
		name string
		in   string
		want []string // substrings of the error
	}{
		{"syntax", "{\n  \"format\": \"pullpath.snapshot/v1\",\n  oops\n}", []string{"line 3, column 3"}},
		{"not an object", `[1, 2]`, []string{"must be a JSON object"}},
		{"invalid UTF-8", "{\"format\": \"\xff\"}", []string{"not valid UTF-8"}},
		{"missing format", `{"resources": []}`, []string{"format: missing", Format}},
		{"wrong format", `{"format": "pullpath.snapshot/v2", "resources": 5}`, []string{`format: got "pullpath.snapshot/v2"`, "only v1"}},
		{"unknown field", doc(`, "resource": []`), []string{"resource: unknown field", "format, resources, actions, faults, simulate"}},
		{"duplicate top-level field", doc(`, "resources": [], "resources": []`), []string{"resources: appears twice"}},
		{"resources not an array", doc(`, "resources": {}`), []string{"resources: must be an array"}},
		{"resource not an object", doc(`, "resources": [` + vnet + `, "hub"]`), []string{"resources[1]: a resource must be a JSON object"}},
		{"resource without id", doc(`, "resources": [` + vnet + `, {"name": "hub"}]`), []string{`resources[1]: "id" is missing`}},
		{"id not a string", doc(`, "resources": [{"id": 7}]`), []string{`resources[0]: "id" must be a string`}},
		{"type not a string", doc(`, "resources": [{"id": "` + sub + `/resourceGroups/rg", "type": 1}]`), []string{`resources[0]: "type" must be a string`}},
		{"collection id", doc(`, "resources": [{"id": "` + sub + `/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks"}]`), []string{"resources[0].id", "names a collection"}},
		{"id with query", doc(`, "resources": [{"id": "` + sub + `/resourceGroups/rg?api-version=1"}]`), []string{"resources[0].id", "drop the query string"}},
		{"id not ARM", doc(`, "resources": [{"id": "/foo/bar"}]`), []string{"resources[0].id", "not an ARM resource id"}},
		{"id full URL", doc(`, "resources": [{"id": "https://management.azure.com` + sub + `"}]`), []string{"resources[0].id", "without scheme and host"}},
		{
			"duplicate id in other case", doc(`, "resources": [` + vnet + `, {"id": "` + strings.ToUpper(sub) + `/resourcegroups/RG/providers/microsoft.network/virtualnetworks/HUB"}]`),
			[]string{"resources[1].id", "also the id of resources[0]"},
		},
		{
			// The index in the message is the index in the file even when
			// an element before it was rejected.
			"index after rejected element", doc(`, "resources": [5, {"id": "/x"}]`),
			[]string{"resources[0]: a resource must be", "resources[1].id"},
		},
		{"action key without method", doc(`, "actions": {"/subscriptions/x/effectiveRouteTable": {}}`), []string{`actions["/subscriptions/x/effectiveRouteTable"]`, `"METHOD /path"`}},
		{
			// A GET answered from actions must not shadow a resource.
			"action GET of a resource", doc(`, "resources": [` + vnet + `], "actions": {"GET ` + sub + `/resourceGroups/RG/providers/Microsoft.Network/virtualNetworks/hub": {}}`),
			[]string{`actions["GET `, "is the id of resources[0]", "answered from resources"},
		},
		{"action GET not an object", doc(`, "actions": {"GET ` + sub + `/providers/Microsoft.Network/locations/westeurope/serviceTags": []}`), []string{"must be the JSON object"}},
		{"action PUT", doc(`, "actions": {"PUT ` + sub + `/x": {}}`), []string{`method "PUT"`, "only GET and POST"}},
		{"action full URL", doc(`, "actions": {"POST https://management.azure.com/x": {}}`), []string{"without scheme and host"}},
		{"action trailing slash", doc(`, "actions": {"POST ` + sub + `/x/": {}}`), []string{"empty path segment"}},
		{"action not an object", doc(`, "actions": {"POST ` + sub + `/x": [1]}`), []string{"must be the JSON object the action returns"}},
		{"actions not an object", doc(`, "actions": []`), []string{"actions: must be an object"}},
		{"duplicate action in other case", doc(`, "actions": {"POST ` + sub + `/x": {}, "post ` + strings.ToUpper(sub) + `/X": {}}`), []string{"same request as"}},
		{"duplicate action key", doc(`, "actions": {"POST ` + sub + `/x": {}, "POST ` + sub + `/x": {}}`), []string{"appears twice"}},
		{"fault success status", doc(`, "faults": {"GET ` + sub + `/x": {"status": 200}}`), []string{`faults["GET ` + sub + `/x"].status`, "not an error status"}},
		{"fault unknown field", doc(`, "faults": {"GET ` + sub + `/x": {"status": 429, "retry_after": 1}}`), []string{`unknown field "retry_after"`, "retry_after_s"}},
		{"fault status not a number", doc(`, "faults": {"GET ` + sub + `/x": {"status": "403"}}`), []string{`faults["GET`, "status"}},
		{"fault times zero", doc(`, "faults": {"GET ` + sub + `/x": {"status": 429, "times": 0}}`), []string{".times", "at least 1"}},
		{"fault negative retry", doc(`, "faults": {"GET ` + sub + `/x": {"status": 429, "retry_after_s": -1}}`), []string{".retry_after_s", "out of range"}},
		{"fault method", doc(`, "faults": {"DELETE ` + sub + `/x": {"status": 500}}`), []string{`method "DELETE"`}},
		{"simulate negative", doc(`, "simulate": {"latency_ms": -5}`), []string{"simulate.latency_ms", "out of range"}},
		{"simulate unknown field", doc(`, "simulate": {"latency": 5}`), []string{"simulate", `unknown field "latency"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("accepted: %+v", s)
			}
			var perr *Error
			if !errors.As(err, &perr) {
				t.Errorf("error %T is not a *snapshot.Error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestLoadErrorNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(path, []byte(`{"format": "pullpath.snapshot/v1", "resources": [{}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), "snapshot "+path+": resources[0]:") {
		t.Fatalf("error %v does not name file and path", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestParseReportsSeveralProblems(t *testing.T) {
	_, err := Parse([]byte(`{"format": "pullpath.snapshot/v1", "resources": [{}, {"id": 1}], "simulate": {"latency_ms": -1}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range []string{"resources[0]", "resources[1]", "simulate.latency_ms"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not report %s: %v", w, err)
		}
	}
}

func TestValidateCodeBuiltSnapshot(t *testing.T) {
	s := &Snapshot{Format: Format, Resources: []Resource{{ID: "/not/arm", Body: []byte(`{"id":"/not/arm"}`)}}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "resources[0].id") {
		t.Fatalf("Validate: %v", err)
	}
	if _, err := NewReplay(s); err == nil {
		t.Fatal("NewReplay accepted an invalid snapshot")
	}
	if _, err := NewReplay(nil); err == nil {
		t.Fatal("NewReplay accepted nil")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Parse(out)
	if err != nil {
		t.Fatalf("re-parse: %v", err)
	}
	assertSameSnapshot(t, s, s2)
}

// A plan in JSON or a state file given as snapshot_file is named for what
// it is, with where it goes, instead of one "unknown field" per key; a
// snapshot that merely has one of those keys is not mistaken for them.
func TestParseRecognisesTerraformFiles(t *testing.T) {
	for doc, want := range map[string]string{
		`{"format_version": "1.2", "terraform_version": "1.5.7", "planned_values": {}, "resource_changes": [], "configuration": {}}`:       "this is a Terraform plan in JSON (terraform show -json PLANFILE), not a snapshot: give it to planned_changes_file",
		`{"format_version": "1.2", "resource_changes": []}`:                                                                                "this is a Terraform plan in JSON",
		`{"version": 4, "terraform_version": "1.5.7", "serial": 3, "lineage": "x", "outputs": {}, "resources": [], "check_results": null}`: "this is a Terraform state file, not a snapshot",
		`{"format_version": "1.0", "terraform_version": "1.12.6", "values": {"root_module": {}}}`:                                          "this is a Terraform state file",
	} {
		_, err := Parse([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", doc, err, want)
			continue
		}
		if strings.Contains(err.Error(), "unknown field") || strings.Contains(err.Error(), "add \"format\"") {
			t.Errorf("%s: still lists fields: %v", doc, err)
		}
	}
	// A snapshot with a stray "version" is a snapshot with an unknown field.
	_, err := Parse([]byte(`{"format": "pullpath.snapshot/v1", "version": 4, "resources": []}`))
	if err == nil || strings.Contains(err.Error(), "Terraform") || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("a snapshot with a stray field: %v", err)
	}
}
