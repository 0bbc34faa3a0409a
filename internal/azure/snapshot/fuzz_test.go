package snapshot

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics, that whatever it accepts
// survives Marshal and Parse unchanged, and that the replay can be built
// and serves every accepted resource by its id.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"fixture.json", "baseline_ok.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":"pullpath.snapshot/v1"}`))
	f.Add([]byte(`{"format":"pullpath.snapshot/v1","resources":[{"id":"/subscriptions/s/resourceGroups/rg","x":"<&>"}],"actions":{},"faults":{"GET /subscriptions/s":{"status":429,"retry_after_s":0,"times":1}},"simulate":{"latency_ms":0,"action_latency_ms":0}}`))
	f.Add([]byte(`{"format":"pullpath.snapshot/v1","resources":[{"id":"/providers/Microsoft.Authorization/roleAssignments/a","properties":{"scope":"/","subnets":[{"id":"/providers/Microsoft.Authorization/roleAssignments/a/b/c","k":1e999}]}}]}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of an accepted snapshot: %v", err)
		}
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse of Marshal output: %v\n%s", err, out)
		}
		assertSameSnapshot(t, s, s2)

		// Without simulated latency: an accepted file may ask for minutes.
		noDelay := *s
		noDelay.Simulate = nil
		r, err := NewReplay(&noDelay)
		if err != nil {
			t.Fatalf("NewReplay of an accepted snapshot: %v", err)
		}
		for _, res := range s.Resources {
			req, err := http.NewRequest(http.MethodGet, "https://management.azure.com"+res.ID, nil)
			if err != nil {
				continue // an id that is no valid URL path cannot be requested
			}
			resp, err := r.Do(req)
			if err != nil {
				t.Fatalf("GET %s: %v", res.ID, err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: status %d", res.ID, resp.StatusCode)
			}
		}
	})
}

func assertSameSnapshot(t *testing.T, a, b *Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("snapshot changed in a round trip:\nbefore %+v\nafter  %+v", a, b)
	}
}
