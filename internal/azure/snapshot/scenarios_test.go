package snapshot

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestScenarioSnapshots replays every scenario snapshot of the provider's
// scenarios (internal/provider/testdata/scenarios/*/snapshot.json, or the
// directory PULLPATH_SCENARIOS names): each resource by its id and each
// action must be served, or answered with the fault the snapshot gives it. With -v it also lists the ids the snapshots refer
// to but do not contain, which the provider will see as 404. The scenarios
// derived by edits (derive.json) are replayed by the provider's tests.
func TestScenarioSnapshots(t *testing.T) {
	dir := os.Getenv("PULLPATH_SCENARIOS")
	if dir == "" {
		dir = filepath.Join("..", "..", "provider", "testdata", "scenarios")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "snapshot.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no snapshots under %s: %v", dir, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			s, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReplay(s)
			if err != nil {
				t.Fatal(err)
			}
			faultOf := func(method, id string) (Fault, bool) {
				for k, f := range s.Faults {
					if strings.EqualFold(k, method+" "+id) {
						return f, true
					}
				}
				return Fault{}, false
			}
			for _, res := range s.Resources {
				status, _, body := send(t, r, http.MethodGet, res.ID)
				if f, ok := faultOf(http.MethodGet, res.ID); ok {
					// The scenario says this read fails: the fault answers.
					if status != f.Status {
						t.Errorf("GET %s: %d, want the scenario's fault %d", res.ID, status, f.Status)
					}
					continue
				}
				if status != http.StatusOK || !strings.EqualFold(idOf(t, body), res.ID) {
					t.Errorf("GET %s: %d", res.ID, status)
				}
			}
			for k := range s.Actions {
				m, p, _ := parseKey(k)
				if status, _, body := send(t, r, m, p); status != http.StatusOK {
					t.Errorf("%s: %d %s", k, status, body)
				}
			}
			missing := map[string]bool{}
			for _, res := range s.Resources {
				collectRefs(res.Body, func(id string) {
					if checkID(id) != nil {
						return
					}
					if status, _, _ := send(t, r, http.MethodGet, id); status != http.StatusOK {
						missing[id] = true
					}
				})
			}
			ids := make([]string, 0, len(missing))
			for id := range missing {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				t.Logf("referenced, not in the snapshot: %s", id)
			}
		})
	}
}

// collectRefs calls fn for every string value under an "id" key or ending
// in "Id"/"ID" that looks like an ARM path.
func collectRefs(raw json.RawMessage, fn func(string)) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "id" || strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID")) && strings.HasPrefix(s, "/subscriptions/") {
					fn(s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}
