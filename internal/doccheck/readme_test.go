// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeFirstConfigurationIsTheQuickstart: the configuration the
// README shows first is examples/quickstart/main.tf, which make
// examples-check copies to a directory of its own and plans against the
// demo's snapshots; so the README's example is one that works.
func TestReadmeFirstConfigurationIsTheQuickstart(t *testing.T) {
	readme := read(t, "README.md")
	i := strings.Index(readme, "`examples/quickstart/main.tf`")
	if i < 0 {
		t.Fatal("README.md does not name examples/quickstart/main.tf before its first configuration")
	}
	rest := readme[i:]
	start := strings.Index(rest, "```hcl\n")
	if start < 0 {
		t.Fatal("README.md: no ```hcl block after examples/quickstart/main.tf")
	}
	block := rest[start+len("```hcl\n"):]
	end := strings.Index(block, "```")
	if end < 0 {
		t.Fatal("README.md: the ```hcl block is not closed")
	}
	if got, want := block[:end], read(t, "examples/quickstart/main.tf"); got != want {
		t.Errorf("the README's first configuration differs from examples/quickstart/main.tf; copy the file into the README:\n%s", got)
	}
	if strings.Contains(block[:end], "azurerm_kubernetes_cluster.") {
		t.Error("the README's first configuration reads a cluster created in the same configuration")
	}
}

// TestTestedCLIVersionsAreDocumented: the versions the README, the
// provider page and the installation guide name as tested are those
// scripts/tools.sh pins (and the acceptance tests run).
func TestTestedCLIVersionsAreDocumented(t *testing.T) {
	tools := read(t, "scripts/tools.sh")
	type pin struct{ cli, version string }
	var pinned []pin
	for _, p := range []struct{ cli, variable string }{
		{"OpenTofu", "TOFU_VERSION"}, {"Terraform", "TERRAFORM_VERSION"}, {"Terraform", "TERRAFORM_LATEST_VERSION"},
	} {
		m := regexp.MustCompile(`(?m)^` + p.variable + `="([0-9.]+)"$`).FindStringSubmatch(tools)
		if m == nil {
			t.Fatalf("scripts/tools.sh does not pin %s", p.variable)
		}
		pinned = append(pinned, pin{p.cli, m[1]})
	}
	for _, rel := range []string{"README.md", "docs/index.md", "templates/index.md.tmpl", "docs/guides/installation.md", "templates/guides/installation.md.tmpl", "CONTRIBUTING.md"} {
		text := read(t, rel)
		for _, p := range pinned {
			if !regexp.MustCompile(`\b`+p.cli+` `+regexp.QuoteMeta(p.version)+`\b`).MatchString(text) &&
				!(rel == "CONTRIBUTING.md" && strings.Contains(text, p.version)) {
				t.Errorf("%s does not name %s %s, a version scripts/tools.sh pins and the acceptance tests run", rel, p.cli, p.version)
			}
		}
	}
	guide := read(t, "docs/guides/installation.md")
	for _, p := range pinned {
		if !regexp.MustCompile(`\| ` + p.cli + ` \| ` + regexp.QuoteMeta(p.version) + ` \|`).MatchString(guide) {
			t.Errorf("docs/guides/installation.md: the table of supported versions does not give %s %s as tested", p.cli, p.version)
		}
	}
}

// TestMakeTestRunsAcceptanceOnEveryCLI: `make test` runs the acceptance tests once
// per CLI that scripts/tools.sh lists (clis), the newest Terraform
// included, and scripts/acc-env.sh prints the environment of each.
func TestMakeTestRunsAcceptanceOnEveryCLI(t *testing.T) {
	tools := read(t, "scripts/tools.sh")
	m := regexp.MustCompile(`(?m)^\s*clis\) printf '%s\\n' ([a-z -]+) ;;$`).FindStringSubmatch(tools)
	if m == nil {
		t.Fatal("scripts/tools.sh has no `clis)` case listing the CLIs")
	}
	clis := strings.Fields(m[1])
	for _, want := range []string{"tofu", "terraform", "terraform-latest"} {
		if !slices.Contains(clis, want) {
			t.Errorf("scripts/tools.sh clis does not list %s", want)
		}
	}
	mk := read(t, "GNUmakefile")
	if !strings.Contains(mk, "CLIS        := $(shell bash scripts/tools.sh clis)") ||
		!regexp.MustCompile(`(?m)^test: test-unit \$\(addprefix testacc-,\$\(CLIS\)\)`).MatchString(mk) {
		t.Error("GNUmakefile: `make test` does not run testacc-<cli> for every CLI of scripts/tools.sh clis")
	}
	accEnv := read(t, "scripts/acc-env.sh")
	for _, cli := range clis {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta("testacc-"+cli) + `: `).MatchString(mk) {
			t.Errorf("GNUmakefile has no target testacc-%s", cli)
		}
		if !strings.Contains(mk, "scripts/acc-env.sh "+cli+")") {
			t.Errorf("GNUmakefile: testacc-%s does not take the environment of scripts/acc-env.sh %s", cli, cli)
		}
		if !regexp.MustCompile(`(?m)^[a-z |-]*\b` + regexp.QuoteMeta(cli) + `\b[a-z |-]*\)$`).MatchString(accEnv) {
			t.Errorf("scripts/acc-env.sh does not accept %s", cli)
		}
	}
}
