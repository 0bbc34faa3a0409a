// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "testing"

// TestCatalogueRows: every row of the catalogue has every column, and
// each code is one row.
func TestCatalogueRows(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range catalogue {
		if seen[c.Code] {
			t.Errorf("%s has two rows", c.Code)
		}
		seen[c.Code] = true
		if c.Code == "" || c.Severity == "" || c.Condition == "" || c.Owner == "" || c.Meaning == "" || c.Guidance == "" {
			t.Errorf("%s lacks a column (severity, condition, owner, meaning or guidance): %+v", c.Code, c)
		}
	}
	if len(Catalogue) != len(catalogue) {
		t.Errorf("Catalogue has %d codes, the table %d", len(Catalogue), len(catalogue))
	}
}
