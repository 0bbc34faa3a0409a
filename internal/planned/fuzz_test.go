package planned

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// checkOps asserts what the overlay relies on for every op: an address,
// an ARM id that parses, a known kind, a body for puts and patches and
// none for deletes, and a body that is JSON.
func checkOps(t testing.TB, p *Plan) {
	t.Helper()
	for _, op := range p.Ops {
		if op.Address == "" || op.Type == "" {
			t.Errorf("op without address or type: %+v", op)
		}
		if _, err := ids.Parse(op.ID); err != nil {
			t.Errorf("%s: op id %q does not parse: %v", op.Address, op.ID, err)
		}
		switch op.Kind {
		case OpPut, OpPatch:
			if op.Body == nil {
				t.Errorf("%s: %s of %s without a body", op.Address, op.Kind, op.ID)
			}
		case OpDelete:
			if op.Body != nil {
				t.Errorf("%s: delete of %s with a body", op.Address, op.ID)
			}
		case OpCreateUnnamed:
			if len(op.Unknown) == 0 || !strings.Contains(op.ID, NameUnknown) {
				t.Errorf("%s: unnamed create %s without unknowns or without a stand-in name", op.Address, op.ID)
			}
			if id, _ := op.Body["id"].(string); op.Body != nil && id != op.ID {
				t.Errorf("%s: unnamed create %s with the body of %q", op.Address, op.ID, id)
			}
		default:
			t.Errorf("%s: op kind %q", op.Address, op.Kind)
		}
		if _, err := json.Marshal(op.Body); err != nil {
			t.Errorf("%s: body is not JSON: %v", op.Address, err)
		}
		for _, u := range op.Unknown {
			if u == "" {
				t.Errorf("%s: empty unknown path", op.Address)
			}
		}
	}
	for _, pr := range p.Untranslatable {
		if pr.Address == "" || pr.Reason == "" {
			t.Errorf("problem without address or reason: %+v", pr)
		}
	}
}

// FuzzParse: no input makes Parse panic, and every plan it accepts gives
// ops the overlay can apply.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, spec := range fuzzSeeds() {
		f.Add(planJSON(f, spec))
	}
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"address":"azurerm_subnet.a","mode":"managed","type":"azurerm_subnet","change":{"actions":["create"],"after":{"name":"a/b"}}}]}`))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"address":"azapi_resource.a","mode":"managed","type":"azapi_resource","change":{"actions":["create"],"after":{"type":"@","parent_id":"/","name":"x","body":"[1]"}}}]}`))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[null,{"change":null},{"address":"x","mode":"managed","change":{"actions":["delete","create"],"before":[],"after":7,"after_unknown":"x"}}]}`))
	for _, data := range hostileInputs() {
		if len(data) < 64<<10 {
			f.Add(data)
		}
	}
	// The shapes of real pipelines: UTF-16 with and without a byte order
	// mark, and modules whose instance keys hold spaces and brackets.
	f.Add(utf16Bytes(`{"format_version":"0.2","terraform_version":"1.0.11","resource_changes":[]}`, false, true))
	f.Add(utf16Bytes(`{"format_version":"1.2","resource_changes":[]}`, true, false))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"address":"module.a[\"x ]y\"].azurerm_subnet.s","module_address":"module.a[\"x ]y\"]","mode":"managed","type":"azurerm_subnet","name":"s","change":{"actions":["create"],"after":{"resource_group_name":"rg","virtual_network_name":"v"},"after_unknown":{"id":true,"name":true}}}],"configuration":{"root_module":{"module_calls":{"a":{"expressions":{"x":{"references":["module.a.x"]}},"module":{"resources":[{"address":"azurerm_subnet.s","mode":"managed","type":"azurerm_subnet","name":"s","expressions":{"name":{"references":["var.x"]}}}],"outputs":{"x":{"expression":{"references":["var.x"]}}}}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data, Options{DefaultSubscriptionID: sub1})
		if err != nil {
			// Parse turns a panic into an error so that the provider never
			// crashes; here it is a failure.
			if err.Error() == "" || strings.Contains(err.Error(), internalErrorText) {
				t.Fatalf("Parse: %v", err)
			}
			return
		}
		checkOps(t, p)
	})
}

// fuzzSeeds are the test plans of the translation tests.
func fuzzSeeds() []planSpec {
	var out []planSpec
	for _, c := range translationCases() {
		out = append(out, c.spec)
	}
	return out
}
