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
