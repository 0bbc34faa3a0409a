package planned

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	if bom {
		if bigEndian {
			out = append(out, 0xfe, 0xff)
		} else {
			out = append(out, 0xff, 0xfe)
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestParseDecodesWindowsEncodings: the plan JSON as Windows PowerShell
// writes it (UTF-16 LE with a byte order mark from `>`, UTF-8 with a mark
// from `Out-File -Encoding UTF8`, UTF-16 BE from BigEndianUnicode, and
// UTF-16 without a mark) gives the same ops as the UTF-8 file, and says
// which encoding it was read as.
func TestParseDecodesWindowsEncodings(t *testing.T) {
	src, err := os.ReadFile("testdata/scenario_zone_link_deleted.json")
	if err != nil {
		t.Fatal(err)
	}
	// A non-ASCII tag value and a character outside the BMP must survive.
	text := strings.Replace(string(src), `"tags": {}`, `"tags": {"owner": "Zoë 🚀"}`, 1)
	if text == string(src) {
		t.Fatal("fixture has no empty tags to replace")
	}
	crlf := strings.ReplaceAll(text, "\n", "\r\n")
	want, err := Parse([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Encoding != EncodingUTF8 || len(want.Ops) != 1 {
		t.Fatalf("UTF-8 plan: encoding %q, %d ops", want.Encoding, len(want.Ops))
	}
	for _, tc := range []struct {
		name string
		data []byte
		enc  Encoding
	}{
		{"UTF-16 LE with BOM (Windows PowerShell >)", utf16Bytes(crlf, false, true), EncodingUTF16LE},
		{"UTF-16 BE with BOM", utf16Bytes(crlf, true, true), EncodingUTF16BE},
		{"UTF-16 LE without BOM", utf16Bytes(text, false, false), EncodingUTF16LE},
		{"UTF-16 BE without BOM", utf16Bytes(text, true, false), EncodingUTF16BE},
		{"UTF-8 with BOM (Out-File -Encoding UTF8)", append([]byte("\xef\xbb\xbf"), crlf...), EncodingUTF8BOM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.data, Options{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got.Encoding != tc.enc {
				t.Errorf("encoding = %q, want %q", got.Encoding, tc.enc)
			}
			if len(got.Ops) != len(want.Ops) || got.Ops[0].ID != want.Ops[0].ID || got.Ops[0].Kind != want.Ops[0].Kind {
				t.Errorf("ops = %+v, want %+v", got.Ops, want.Ops)
			}
		})
	}
}

// TestParseRefusesBrokenEncodings: text that no decoding turns back into
// the plan says what happened and how to write UTF-8.
func TestParseRefusesBrokenEncodings(t *testing.T) {
	plan := `{"format_version":"1.2","resource_changes":[],"configuration":{"root_module":{"variables":{"owner":{"default":"Zoë"}}}}}`
	// The console code page 1252 wrote "ë" as the single byte 0xEB.
	codePage := bytes.Replace([]byte(plan), []byte("ë"), []byte{0xeb}, 1)
	unpaired := utf16Bytes(`{"format_version":"1.2"}`, false, true)
	unpaired = append(unpaired[:6], append([]byte{0x00, 0xd8}, unpaired[6:]...)...)
	for _, tc := range []struct {
		name string
		data []byte
		want []string
	}{
		{"console code page", codePage, []string{"not a plan JSON in UTF-8", "line 1, column", "eb", "console code page", "cannot be undone", "Out-File -Encoding utf8"}},
		{"UTF-16 odd length", append(utf16Bytes(plan, false, true), '}'), []string{"UTF-16 LE", "odd number of bytes", "Out-File -Encoding utf8"}},
		{"UTF-16 unpaired surrogate", unpaired, []string{"UTF-16 LE", "unpaired surrogate", "Out-File -Encoding utf8"}},
		{"UTF-16 with NUL", utf16Bytes("{\x00}", false, true), []string{"NUL character"}},
		{"UTF-16 of something else", utf16Bytes(`{"hello":"world"}`, false, true), []string{"neither format_version nor resource_changes", "read as UTF-16 LE"}},
		{"binary", []byte{0x1f, 0x8b, 0x08, 0x00, 0xff, 0x10}, []string{"binary, not JSON text"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.data, Options{})
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", p)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// hostileInputs are files built to break a parser: deep nesting, huge
// strings and keys, wrong types where a plan has objects, truncation.
func hostileInputs() map[string][]byte {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	deepAfter := `{"format_version":"1.2","resource_changes":[{"address":"azurerm_subnet.a","mode":"managed","type":"azurerm_subnet","name":"a","change":{"actions":["create"],"after":{"name":` +
		strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000) + `}}}]}`
	huge := `{"format_version":"1.2","resource_changes":[{"address":"azurerm_route_table.rt","mode":"managed","type":"azurerm_route_table","name":"rt","change":{"actions":["create"],"after":{"name":"` +
		strings.Repeat("x", 4<<20) + `","resource_group_name":"rg"},"after_unknown":{"id":true}}}]}`
	return map[string][]byte{
		"deep nesting":            []byte(`{"format_version":"1.2","resource_changes":` + deep + `}`),
		"deep values":             []byte(deepAfter),
		"huge name":               []byte(huge),
		"changes not a list":      []byte(`{"format_version":"1.2","resource_changes":"all"}`),
		"change not an object":    []byte(`{"format_version":"1.2","resource_changes":[{"address":"a","mode":"managed","change":[1,2]}]}`),
		"after of the wrong type": []byte(`{"format_version":"1.2","resource_changes":[{"address":"azurerm_subnet.a","mode":"managed","type":"azurerm_subnet","name":"a","change":{"actions":["create"],"after":"x","after_unknown":[true]}}]}`),
		"module calls wrong":      []byte(`{"format_version":"1.2","resource_changes":[],"configuration":{"root_module":{"module_calls":{"a":{"module":{"module_calls":{"a":null}}}}}}}`),
		"truncated UTF-16":        utf16Bytes(`{"format_version":"1.2","resource_chan`, false, true),
	}
}

// TestParseSurvivesHostileInput: none of these crashes or hangs; each is
// an error or a plan whose ops the overlay can apply.
func TestParseSurvivesHostileInput(t *testing.T) {
	for name, data := range hostileInputs() {
		t.Run(name, func(t *testing.T) {
			p, err := ParseFile("plan.json", data, Options{DefaultSubscriptionID: sub1})
			if err != nil {
				if strings.Contains(err.Error(), internalErrorText) || !strings.Contains(err.Error(), "plan.json") {
					t.Errorf("error = %v", err)
				}
				return
			}
			checkOps(t, p)
		})
	}
}
