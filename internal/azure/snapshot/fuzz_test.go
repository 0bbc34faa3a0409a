package snapshot

import (
	"net/http"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics, that whatever it accepts
// survives Marshal and Parse unchanged, and that the replay can be built
// and serves every accepted resource by its id.
func FuzzParse(f *testing.F) {
	// Small seeds that touch every part of the format: the fuzzer
	// mutates and minimizes them much faster than the testdata files
	// (which TestLoadValidSnapshots covers).
	f.Add([]byte(fuzzSeed))
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

		// Without simulated latency (an accepted file may ask for minutes)
		// and without faults, every resource must be served by its id.
		plain := *s
		plain.Simulate, plain.Faults = nil, nil
		r, err := NewReplay(&plain)
		if err != nil {
			t.Fatalf("NewReplay of an accepted snapshot: %v", err)
		}
		for _, res := range s.Resources {
			// Ids are unescaped paths; the SDK escapes names, so the
			// request's decoded Path is the id itself.
			req, err := http.NewRequest(http.MethodGet, "https://management.azure.com", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Path = res.ID
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

const fuzzSeed = `{
 "format": "pullpath.snapshot/v1",
 "resources": [
  {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub", "type": "Microsoft.Network/virtualNetworks",
   "properties": {"subnets": [{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub/subnets/a", "name": "a",
     "properties": {"delegations": [{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub/subnets/a/delegations/d", "name": "d"}]}}],
    "virtualNetworkPeerings": [{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub/virtualNetworkPeerings/p"}]}},
  {"id": "/subscriptions/s/resourceGroups/MC/providers/Microsoft.Compute/virtualMachineScaleSets/v/virtualMachines/0/networkInterfaces/n", "properties": {}},
  {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/A/r", "properties": {"aRecords": [{"ipv4Address": "10.0.0.4"}]}},
  {"id": "/subscriptions/s/providers/Microsoft.Authorization/roleAssignments/x", "properties": {"scope": "/subscriptions/s", "principalId": "p"}}
 ],
 "actions": {"POST /subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/n/effectiveRouteTable": {"value": []}},
 "faults": {"GET /subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub": {"status": 403, "code": "AuthorizationFailed", "message": "m", "retry_after_s": 1, "times": 2}},
 "simulate": {"latency_ms": 1, "action_latency_ms": 2}
}`
