package snapshot

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// decoderKeys is the reference for objectKeys: the member names of a JSON
// object as encoding/json's tokenizer reads them.
func decoderKeys(raw []byte) ([]string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, false
		}
	}
	return keys, true
}

var objectKeysCases = []string{
	`{}`,
	` { "a" : 1 , "b":[1,{"c":"}"}], "a": {"x":"\"]"} } `,
	`{"esc\"aped":"v","\u0041":null,"t":true,"n":-1.5e3}`,
	`{"nested":{"a":{"b":[[],[{}]]}},"s":"a,b:c{d}[e]","last":"\\"}`,
	"{\n\t\"format\": \"pullpath.snapshot/v1\",\r\n\"resources\": []\n}",
}

func TestObjectKeysMatchesDecoder(t *testing.T) {
	for _, c := range objectKeysCases {
		want, ok := decoderKeys([]byte(c))
		if !ok {
			t.Fatalf("bad case %s", c)
		}
		if got := objectKeys([]byte(c)); !slices.Equal(got, want) {
			t.Errorf("%s: objectKeys %q, decoder %q", c, got, want)
		}
	}
}

// FuzzObjectKeys: on every valid JSON object, the byte scanner finds the
// decoder's keys; on anything else it returns without panicking.
func FuzzObjectKeys(f *testing.F) {
	for _, c := range objectKeysCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := objectKeys(raw)
		if !json.Valid(raw) {
			return
		}
		want, ok := decoderKeys(raw)
		if !ok {
			return // valid JSON but not an object
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: objectKeys %q, decoder %q", raw, got, want)
		}
	})
}
