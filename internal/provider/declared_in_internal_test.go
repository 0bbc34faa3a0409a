// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/report"
)

// declared_in is where SARIF anchors results: a path relative to the
// repository's root, found by default in the root module's .tf files.
func TestDeclaredIn(t *testing.T) {
	repo := t.TempDir()
	check := filepath.Join(repo, "infra", "network", "pull-path-check")
	mod := filepath.Join(repo, "modules", "check")
	for _, d := range []string{filepath.Join(repo, ".git"), check, mod} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(check, "a_variables.tf"), "variable \"x\" {}\n")
	write(filepath.Join(check, "main.tf"), "terraform {}\n\nprovider \"pullpath\" {}\n\ndata \"pullpath_verification\" \"cluster\" {\n}\n")
	write(filepath.Join(mod, "main.tf"), "locals {}\n  data \"pullpath_verification\" \"this\" {\n}\n")
	t.Chdir(check)
	cases := map[string]report.DeclaredIn{
		"":                               {File: "infra/network/pull-path-check/main.tf", Line: 5},
		"../../../modules/check/main.tf": {File: "modules/check/main.tf", Line: 2},
		"a_variables.tf":                 {File: "infra/network/pull-path-check/a_variables.tf", Line: 1},
		filepath.Join(mod, "main.tf"):    {File: "modules/check/main.tf", Line: 2},
	}
	for given, want := range cases {
		if got := declaredInOf(given); got != want {
			t.Errorf("declared_in %q: %+v, want %+v", given, got, want)
		}
	}
	// No declaration in the working directory: main.tf there.
	if err := os.Remove(filepath.Join(check, "main.tf")); err != nil {
		t.Fatal(err)
	}
	if got := declaredInOf(""); got != (report.DeclaredIn{File: "infra/network/pull-path-check/main.tf", Line: 1}) {
		t.Errorf("without a declaration: %+v", got)
	}
	// Outside a repository: relative to the working directory.
	plain := t.TempDir()
	write(filepath.Join(plain, "checks.tf"), "data \"pullpath_verification\" \"v\" {\n}\n")
	t.Chdir(plain)
	if got := declaredInOf(""); got != (report.DeclaredIn{File: "checks.tf", Line: 1}) {
		t.Errorf("outside a repository: %+v", got)
	}
}
