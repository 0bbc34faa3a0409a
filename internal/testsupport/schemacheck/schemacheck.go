// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package schemacheck validates the files of report_dir in tests: the JSON
// report against the schema the project publishes
// (docs/reports/pullpath.report.v1.schema.json) and SARIF logs against the
// official OASIS SARIF 2.1.0 schema (testdata/sarif-schema-2.1.0.json, see
// testdata/README.md). Schemas are compiled once, from files only: no
// network, format assertions on.
package schemacheck

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// here is this package's directory, so that tests of any package find the
// schemas whatever their working directory.
var here = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// ReportSchemaPath is the published schema of the JSON report.
var ReportSchemaPath = filepath.Join(here, "..", "..", "..", "docs", "reports", "pullpath.report.v1.schema.json")

// SARIFSchemaPath is the official SARIF 2.1.0 schema.
var SARIFSchemaPath = filepath.Join(here, "testdata", "sarif-schema-2.1.0.json")

var (
	once     sync.Once
	report   *jsonschema.Schema
	sarif    *jsonschema.Schema
	errCompl error
)

func compile() {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	report, errCompl = c.Compile(ReportSchemaPath)
	if errCompl != nil {
		return
	}
	sarif, errCompl = c.Compile(SARIFSchemaPath)
}

// Report validates a JSON report; the error lists every violation.
func Report(data []byte) error { return validate(data, func() *jsonschema.Schema { return report }) }

// SARIF validates a SARIF log; the error lists every violation.
func SARIF(data []byte) error { return validate(data, func() *jsonschema.Schema { return sarif }) }

func validate(data []byte, schema func() *jsonschema.Schema) error {
	once.Do(compile)
	if errCompl != nil {
		return fmt.Errorf("compiling the schemas: %w", errCompl)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return schema().Validate(inst)
}
