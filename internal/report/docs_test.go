// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// schemaProperties collects every property name of a JSON Schema, at every
// level, by the path of the object that holds it.
func schemaProperties(v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			for name, sub := range props {
				out[name] = true
				schemaProperties(sub, out)
			}
		}
		for k, sub := range v {
			if k != "properties" {
				schemaProperties(sub, out)
			}
		}
	case []any:
		for _, sub := range v {
			schemaProperties(sub, out)
		}
	}
}

// jsonFields collects the JSON names of t's fields, and of the structs
// they hold, at every level.
func jsonFields(t reflect.Type, out map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out[name] = true
		jsonFields(f.Type, out)
	}
}

// The published schema, the Go types and the guide name the same fields.
func TestSchemaTypesAndGuideAgree(t *testing.T) {
	raw, err := os.ReadFile("../../docs/reports/pullpath.report.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	inSchema := map[string]bool{}
	schemaProperties(schema, inSchema)
	inTypes := map[string]bool{}
	jsonFields(reflect.TypeFor[Report](), inTypes)
	for name := range inTypes {
		if !inSchema[name] {
			t.Errorf("field %s of report.Report is not in the published schema", name)
		}
	}
	for name := range inSchema {
		if !inTypes[name] {
			t.Errorf("the published schema has %s, which report.Report does not write", name)
		}
	}
	guide, err := os.ReadFile("../../docs/guides/ci-reports.md")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for name := range inSchema {
		if !strings.Contains(string(guide), "`"+name+"`") {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("docs/guides/ci-reports.md does not document %v", missing)
	}
	if !strings.Contains(string(guide), Format) {
		t.Errorf("the guide does not name the format %s", Format)
	}
}
