// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"regexp"
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
	pinned := map[string]string{}
	for cli, v := range map[string]string{"OpenTofu": "TOFU_VERSION", "Terraform": "TERRAFORM_VERSION"} {
		m := regexp.MustCompile(`(?m)^` + v + `="([0-9.]+)"$`).FindStringSubmatch(tools)
		if m == nil {
			t.Fatalf("scripts/tools.sh does not pin %s", v)
		}
		pinned[cli] = m[1]
	}
	for _, rel := range []string{"README.md", "docs/index.md", "templates/index.md.tmpl", "docs/guides/installation.md", "templates/guides/installation.md.tmpl"} {
		text := read(t, rel)
		for cli, v := range pinned {
			if !strings.Contains(text, cli+" "+v) {
				t.Errorf("%s does not name %s %s, the version scripts/tools.sh pins and the acceptance tests run", rel, cli, v)
			}
		}
	}
	guide := read(t, "docs/guides/installation.md")
	for cli, v := range pinned {
		if !regexp.MustCompile(`\| ` + cli + ` \| ` + regexp.QuoteMeta(v) + ` \|`).MatchString(guide) {
			t.Errorf("docs/guides/installation.md: the table of supported versions does not give %s %s as tested", cli, v)
		}
	}
}
