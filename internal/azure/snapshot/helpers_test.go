package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

const armHost = "https://management.azure.com"

func loadReplay(t testing.TB, name string) *Replay {
	t.Helper()
	r, err := LoadReplay(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// parseWith loads a testdata snapshot, lets edit change it, and builds a
// replay over the result.
func replayWith(t testing.TB, name string, edit func(*Snapshot)) *Replay {
	t.Helper()
	s, err := Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	edit(s)
	r, err := NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// send makes one raw request through a transport and returns status,
// headers and body.
func send(t testing.TB, tr policy.Transporter, method, path string) (int, http.Header, []byte) {
	t.Helper()
	return sendCtx(context.Background(), t, tr, method, path)
}

func sendCtx(ctx context.Context, t testing.TB, tr policy.Transporter, method, path string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, armHost+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tr.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

func idOf(t testing.TB, body []byte) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	return v.ID
}

func idsOf(t testing.TB, body []byte) []string {
	t.Helper()
	var v struct {
		Value    []struct{ ID string } `json:"value"`
		NextLink *string               `json:"nextLink"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if v.NextLink != nil {
		t.Errorf("collection has a nextLink")
	}
	ids := make([]string, 0, len(v.Value))
	for _, e := range v.Value {
		ids = append(ids, e.ID)
	}
	return ids
}

func armErrorCode(t testing.TB, body []byte) string {
	t.Helper()
	var e armError
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("not an ARM error body: %s", body)
	}
	return e.Error.Code
}

// storedBody returns the compact JSON of the resource with id from a
// testdata file, read independently of the package's index.
func storedBody(t testing.TB, name, id string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, raw := range doc.Resources {
		if idOf(t, raw) == id {
			var buf bytes.Buffer
			if err := json.Compact(&buf, raw); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
	}
	t.Fatalf("%s has no resource %s", name, id)
	return nil
}
