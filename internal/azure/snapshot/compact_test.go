package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A snapshot file is held compact: readCompact and compactInPlace write
// what json.Compact writes for valid JSON, and never make invalid JSON
// valid.
func TestCompactReading(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		valid    bool
	}{
		{"indented object", "{\n  \"a\": [ 1, 2 ,\t3 ],\r\n  \"b\" : { \"c\" : null }\n}\n", true},
		{"spaces inside strings kept", `{ "k": "a  b\t c", "e": "q \" x  y \\" , "z" : "\\\\" }`, true},
		{"unicode and escapes", `{ "ü": "\u00fc  ä", "n": -1.5e+3 , "t": true }`, true},
		{"empty", `  {}  `, true},
		{"two numbers stay apart", `[1 2]`, false},
		{"two literals stay apart", `[true false]`, false},
		{"split literal stays split", `[tr ue]`, false},
		{"number and literal", "{\"a\": 1\nnull}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(path, []byte(tc.in), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readCompact(path)
			if err != nil {
				t.Fatal(err)
			}
			inPlace := compactInPlace([]byte(tc.in))
			if json.Valid(got) != tc.valid {
				t.Errorf("readCompact: %q valid = %v, want %v", got, json.Valid(got), tc.valid)
			}
			if !tc.valid {
				return
			}
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(tc.in)); err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() || len(got) != cap(got) {
				t.Errorf("readCompact = %q (cap %d), want %q", got, cap(got), want.String())
			}
			if string(inPlace) != want.String() {
				t.Errorf("compactInPlace = %q, want %q", inPlace, want.String())
			}
		})
	}
}

// The members and elements a parse slices out of the document are the
// values encoding/json decodes, and appending to one never writes over the
// document.
func TestObjectMembersAndArrayElements(t *testing.T) {
	doc := []byte(`{"a":[1,{"x":"]"},"s,t"],"b":{"c":[]},"d":"}","e":-2}`)
	keys, vals := objectMembers(doc)
	var want map[string]json.RawMessage
	if err := json.Unmarshal(doc, &want); err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(want) {
		t.Fatalf("keys %q, want %d", keys, len(want))
	}
	for i, k := range keys {
		if string(vals[i]) != string(want[k]) {
			t.Errorf("%s = %s, want %s", k, vals[i], want[k])
		}
	}
	elems, ok := arrayElements(vals[0])
	if !ok || len(elems) != 3 || string(elems[1]) != `{"x":"]"}` || string(elems[2]) != `"s,t"` {
		t.Errorf("elements %q, %v", elems, ok)
	}
	_ = append(elems[0], 'X')
	if string(doc) != `{"a":[1,{"x":"]"},"s,t"],"b":{"c":[]},"d":"}","e":-2}` {
		t.Errorf("append wrote over the document: %s", doc)
	}
	if _, ok := arrayElements([]byte(`{"a":1}`)); ok {
		t.Error("an object is not an array")
	}
	if e, ok := arrayElements([]byte(`[]`)); !ok || len(e) != 0 {
		t.Errorf("[] = %q, %v", e, ok)
	}
}

// A large action answer is held deflated and served byte for byte as
// stored; a small one and one that does not compress are held as they are.
func TestLargeActionAnswersServedAsStored(t *testing.T) {
	var routes []string
	for i := 0; i < 5000; i++ {
		routes = append(routes, fmt.Sprintf(`{"network":"10.%d.%d.0/24","nextHop":"192.168.255.1","origin":"EBgp","asPath":"65010","weight":32768}`, 128+i/256, i%256))
	}
	large := []byte(`{"value":[` + strings.Join(routes, ",") + `]}`)
	noise := make([]byte, deflateAbove+100)
	rng := rand.New(rand.NewSource(1))
	for i := range noise {
		noise[i] = "0123456789abcdef"[rng.Intn(16)]
	}
	random := []byte(`{"value":"` + string(noise) + `"}`)
	small := []byte(`{"value":[]}`)
	paths := map[string][]byte{
		sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/gw/getLearnedRoutes":    large,
		sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/gw/getAdvertisedRoutes": random,
		sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/gw/getBgpPeerStatus":    small,
	}
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		for p, body := range paths {
			s.Actions["POST "+p] = body
		}
	})
	for p, want := range paths {
		st := r.ix.actions[lookupKey("POST", p)]
		if wantDeflated := len(want) >= deflateAbove && &want[0] == &large[0]; st.deflated != wantDeflated {
			t.Errorf("%s: held deflated = %v, want %v", p, st.deflated, wantDeflated)
		}
		for range 2 {
			status, _, got := send(t, r, http.MethodPost, p)
			if status != http.StatusOK || !bytes.Equal(got, want) {
				t.Errorf("%s: %d, %d bytes, want the %d stored", p, status, len(got), len(want))
			}
		}
	}
}
