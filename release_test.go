// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The release workflow and the GoReleaser configuration fit together and
// produce what the Terraform and OpenTofu registries read: zips per
// platform, SHA256SUMS, its detached signature and the manifest.
func TestReleaseWorkflowMatchesGoreleaser(t *testing.T) {
	wf := readFile(t, ".github/workflows/release.yml")
	gr := readFile(t, ".goreleaser.yml")

	// GoReleaser v2 reads "version: 2"; the action must run v2.
	if !regexp.MustCompile(`(?m)^version: 2$`).MatchString(gr) {
		t.Fatal(".goreleaser.yml is not a version 2 configuration")
	}
	for what, re := range map[string]string{
		"runs on version tags":                       `(?m)^on:\n  push:\n    tags:\n      - "v\*"$`,
		"uses the GoReleaser action":                 `uses: goreleaser/goreleaser-action@v\d+`,
		"runs GoReleaser v2":                         `version: "~> v2"`,
		"releases":                                   `args: release --clean`,
		"passes the signing key's fingerprint":       `GPG_FINGERPRINT: \$\{\{ steps\.gpg\.outputs\.fingerprint \}\}`,
		"imports the signing key":                    `(?s)id: gpg\n\s+uses: crazy-max/ghaction-import-gpg@v\d+`,
		"checks out the history GoReleaser reads":    `fetch-depth: 0`,
		"builds with the Go of go.mod":               `go-version-file: go.mod`,
		"may write the release":                      `contents: write`,
		"publishes the CHANGELOG section as notes":   `--release-notes`,
		"refuses a tag without a CHANGELOG section":  `CHANGELOG.md has no section`,
		"gives GoReleaser the token for the release": `GITHUB_TOKEN: \$\{\{ secrets\.GITHUB_TOKEN \}\}`,
	} {
		if !regexp.MustCompile(re).MatchString(wf) {
			t.Errorf("release.yml: %s (want %s)", what, re)
		}
	}
	for what, want := range map[string]string{
		"signs with the fingerprint the workflow passes": `"{{ .Env.GPG_FINGERPRINT }}"`,
		"signs the checksums":                            "- artifacts: checksum",
		"names the checksums as the registry reads them": `name_template: "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS"`,
		"ships the registry manifest":                    `name_template: "{{ .ProjectName }}_{{ .Version }}_manifest.json"`,
		"zips each platform":                             "formats: [zip]",
		"names the binary as the CLIs look for it":       `binary: "{{ .ProjectName }}_v{{ .Version }}"`,
		"builds static binaries":                         "CGO_ENABLED=0",
	} {
		if !strings.Contains(gr, want) {
			t.Errorf(".goreleaser.yml: %s (want %s)", what, want)
		}
	}
	if n := strings.Count(gr, "glob: terraform-registry-manifest.json"); n != 2 {
		t.Errorf(".goreleaser.yml: the manifest must be both checksummed and released (%d extra_files entries)", n)
	}
	var manifest struct {
		Version  int
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, "terraform-registry-manifest.json")), &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.Version != 1 || len(manifest.Metadata.ProtocolVersions) != 1 || manifest.Metadata.ProtocolVersions[0] != "6.0" {
		t.Errorf("terraform-registry-manifest.json: %+v, want version 1 and protocol 6.0 (the framework's)", manifest)
	}
}

// CHANGELOG.md follows Keep a Changelog: an Unreleased section, then one
// section per release, newest first, each with a date and a link.
func TestChangelog(t *testing.T) {
	cl := readFile(t, "CHANGELOG.md")
	if !strings.HasPrefix(cl, "# Changelog\n") || !strings.Contains(cl, "https://keepachangelog.com/") {
		t.Fatal("CHANGELOG.md does not start as a Keep a Changelog file")
	}
	heads := regexp.MustCompile(`(?m)^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$`).FindAllStringSubmatch(cl, -1)
	if len(heads) < 2 || heads[0][1] != "Unreleased" {
		t.Fatalf("CHANGELOG.md: want ## [Unreleased] and at least one release, got %v", heads)
	}
	semver := regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	for _, h := range heads[1:] {
		if !semver.MatchString(h[1]) || h[2] == "" {
			t.Errorf("CHANGELOG.md: release heading %q needs a semantic version and a date", h[0])
		}
		if !strings.Contains(cl, "\n["+h[1]+"]: ") {
			t.Errorf("CHANGELOG.md: no link for [%s]", h[1])
		}
	}
	section := regexp.MustCompile(`(?m)^### (Added|Changed|Deprecated|Removed|Fixed|Security)$`)
	if !section.MatchString(cl) {
		t.Error("CHANGELOG.md: no Keep a Changelog section (Added, Changed, …)")
	}
}
