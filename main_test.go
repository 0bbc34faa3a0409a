// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A release build says its version: `-version` prints the version the
// build set with -X main.version, the variable the release (goreleaser) and
// `make build` set. The same version reaches the ARM User-Agent
// (pullpath/<version>) through provider.New(version); see the azure and
// provider packages' tests.
func TestVersionFlagPrintsTheBuildVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider")
	}
	bin := filepath.Join(t.TempDir(), "terraform-provider-pullpath")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=9.8.7", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("-version: %v", err)
	}
	if got, want := strings.TrimSpace(string(out)), "terraform-provider-pullpath 9.8.7 (registry.terraform.io/pullpath/pullpath, plugin protocol 6)"; got != want {
		t.Errorf("-version printed %q, want %q", got, want)
	}
}

// The release and the Makefile set the version through the variable that
// -version prints and the provider hands to the ARM clients.
func TestBuildsSetMainVersion(t *testing.T) {
	for file, want := range map[string]string{
		".goreleaser.yml": `-X main.version={{.Version}}`,
		"GNUmakefile":     `-X main.version=$(VERSION)`,
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not set %s", file, want)
		}
	}
}
