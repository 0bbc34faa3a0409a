// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The reading order of doc.go names every non-test file of the package
// (doc.go aside), and no file that does not exist: a new file is placed in
// the order when it is added.
func TestReadingOrderListsEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i := strings.Index(text, "# Reading order")
	if i < 0 {
		t.Fatal("doc.go has no \"# Reading order\" section")
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b([a-z_]+\.go)\b`).FindAllStringSubmatch(text[i:], -1) {
		named[m[1]] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		if !named[f] {
			missing = append(missing, f)
		}
		delete(named, f)
	}
	if len(missing) > 0 {
		t.Errorf("doc.go's reading order does not name %s", strings.Join(missing, ", "))
	}
	var stale []string
	for f := range named {
		stale = append(stale, f)
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("doc.go's reading order names files that do not exist: %s", strings.Join(stale, ", "))
	}
}
