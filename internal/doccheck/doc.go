// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package doccheck holds the documentation to the code: its tests read
// README.md, CONTRIBUTING.md, docs/ and examples/ and fail when a Mermaid
// diagram would not render or a table of finding codes disagrees with
// model.Catalogue. Flowchart is the one piece of code: a validator for the
// Mermaid flowchart syntax the provider emits (the `diagram` attribute) and
// the documentation uses, since no Mermaid parser exists in Go.
//
// It imports only model and does no I/O outside its tests.
package doccheck

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// CodesTable is the documentation's codes-by-condition table, rendered
// from the catalogue (model.CodesByCondition): the verification page
// holds it verbatim.
func CodesTable() string {
	var b strings.Builder
	b.WriteString("| Condition | Owner | Codes |\n|---|---|---|\n")
	for _, r := range model.CodesByCondition() {
		codes := make([]string, len(r.Codes))
		for i, c := range r.Codes {
			codes[i] = "`" + string(c) + "`"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", r.Condition, r.Owner, strings.Join(codes, ", "))
	}
	return b.String()
}
