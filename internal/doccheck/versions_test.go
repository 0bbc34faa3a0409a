// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pullpathRequirement matches the declaration of the provider in a
// required_providers block: `pullpath = { … }`, on one line or several.
var pullpathRequirement = regexp.MustCompile(`(?s)\bpullpath\s*=\s*\{([^{}]*)\}`)

// TestEveryProviderDeclarationHasAVersionConstraint: every configuration
// users copy (examples, the README, the guides and their templates, the CI
// files) declares the provider with a version constraint, so that a copy
// never installs a new major version unasked. The scripts' generated
// configurations (dev_overrides, where a constraint is not checked) are not
// copied by users and are left out.
func TestEveryProviderDeclarationHasAVersionConstraint(t *testing.T) {
	exts := map[string]bool{".tf": true, ".md": true, ".tmpl": true, ".yml": true, ".yaml": true, ".hcl": true}
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "dist", "scripts", "internal":
				return filepath.SkipDir
			}
			return nil
		}
		if !exts[filepath.Ext(path)] {
			return nil
		}
		text := read(t, filepath.ToSlash(rel))
		for _, block := range requiredProviderBlocks(text) {
			for _, m := range pullpathRequirement.FindAllStringSubmatch(block, -1) {
				if !strings.Contains(m[1], `"pullpath/pullpath"`) && !strings.Contains(m[1], "/pullpath/pullpath\"") {
					continue
				}
				found++
				if !regexp.MustCompile(`\bversion\s*=\s*"[^"]+"`).MatchString(m[1]) {
					t.Errorf("%s: declares the provider without a version constraint:\n%s", rel, m[0])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 11 {
		t.Errorf("found %d declarations of the provider; the examples, README and guides hold at least 11", found)
	}
}

// requiredProviderBlocks returns the text after each `required_providers {`
// up to its closing brace.
func requiredProviderBlocks(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "required_providers")
		if i < 0 {
			return out
		}
		text = text[i:]
		open := strings.Index(text, "{")
		if open < 0 {
			return out
		}
		depth, end := 0, -1
		for j := open; j < len(text) && end < 0; j++ {
			switch text[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			return append(out, text[open:])
		}
		out = append(out, text[open:end+1])
		text = text[end+1:]
	}
}

// TestRenderingClaimsAreSourced: a sentence of the documentation that says
// Azure DevOps renders the Mermaid diagram must cite Microsoft's page that
// documents where it does (wiki pages, with `::: mermaid`); Microsoft
// documents no Mermaid rendering for pull request comments or pipeline
// summaries.
func TestRenderingClaimsAreSourced(t *testing.T) {
	claim := regexp.MustCompile(`(?is)Azure DevOps[^.|]{0,80}\brenders?\b`)
	const source = "learn.microsoft.com/en-us/azure/devops/project/wiki/wiki-markdown-guidance"
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "dist", "scripts":
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".md" && ext != ".tmpl" && ext != ".go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		text := read(t, filepath.ToSlash(rel))
		for _, loc := range claim.FindAllStringIndex(text, -1) {
			para := text[max(0, loc[0]-600):min(len(text), loc[1]+600)]
			if !strings.Contains(para, source) {
				t.Errorf("%s: %q claims Azure DevOps renders something without citing %s", rel, text[loc[0]:loc[1]], source)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
