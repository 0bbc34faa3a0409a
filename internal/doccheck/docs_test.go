// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, from this package's directory.
const root = "../.."

// mermaidBlock is one Mermaid diagram found in a file.
type mermaidBlock struct {
	where string // file:line of the block's first line
	src   string
}

// fenceRE opens a Mermaid block in Markdown: a line of exactly three
// backticks and `mermaid` (a ````markdown block around it shows its
// source, which is checked as well).
var fenceRE = regexp.MustCompile("^ {0,3}```mermaid\\s*$")

// markdownMermaid returns the ```mermaid blocks of a Markdown text.
func markdownMermaid(name, text string) []mermaidBlock {
	var out []mermaidBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !fenceRE.MatchString(lines[i]) {
			continue
		}
		start := i + 1
		j := start
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		out = append(out, mermaidBlock{where: name + ":" + strconv.Itoa(start+1), src: strings.Join(lines[start:min(j, len(lines))], "\n")})
		i = j
	}
	return out
}

// docFiles returns the Markdown files users read: README.md,
// CONTRIBUTING.md, and every .md under docs/ and examples/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, dir := range []string{"docs", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				rel, _ := filepath.Rel(root, p)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMermaidDiagramsParse checks every Mermaid diagram a user sees: the
// ```mermaid blocks of the documentation (generated pages included, so a
// template that eats `{{…}}` fails here), the .mmd files under examples/,
// the diagram golden files and the `diagram` of every scenario's golden
// output (what the provider emits).
func TestMermaidDiagramsParse(t *testing.T) {
	var blocks []mermaidBlock
	markdown := 0
	for _, f := range docFiles(t) {
		bs := markdownMermaid(f, read(t, f))
		markdown += len(bs)
		blocks = append(blocks, bs...)
	}
	for _, pattern := range []string{"examples/*/*/*.mmd", "examples/*/*.mmd", "internal/provider/testdata/diagram/*.mmd"} {
		files, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(root, f)
			blocks = append(blocks, mermaidBlock{where: rel, src: read(t, rel)})
		}
	}
	emitted := goldenDiagrams(t)
	blocks = append(blocks, emitted...)

	// A check that finds nothing to check must fail: the verification
	// page shows a diagram, and every scenario's verification has one.
	if markdown == 0 || len(emitted) < 10 {
		t.Fatalf("found %d Mermaid blocks in the documentation and %d emitted diagrams: the search is broken", markdown, len(emitted))
	}
	for _, b := range blocks {
		for _, err := range Flowchart(b.src) {
			t.Errorf("%s: %v", b.where, err)
		}
	}
	t.Logf("%d diagrams checked (%d in Markdown, %d emitted)", len(blocks), markdown, len(emitted))
}

// goldenDiagrams returns the `diagram` of every pullpath_verification read
// recorded in the golden outputs.
func goldenDiagrams(t *testing.T) []mermaidBlock {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "internal/provider/testdata/golden/*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []mermaidBlock
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var golden struct {
			Reads []struct {
				DataSource string `json:"data_source"`
				State      *struct {
					Diagram *string `json:"diagram"`
				} `json:"state"`
			} `json:"reads"`
		}
		if err := json.Unmarshal(raw, &golden); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i, r := range golden.Reads {
			if r.DataSource == "pullpath_verification" && r.State != nil && r.State.Diagram != nil {
				out = append(out, mermaidBlock{where: filepath.Base(f) + " read " + strconv.Itoa(i), src: *r.State.Diagram})
			}
		}
	}
	return out
}

func TestMarkdownMermaid(t *testing.T) {
	text := "intro ` ```mermaid ` inline\n```mermaid\nflowchart LR\n  A --> B\n```\n````markdown\n```mermaid\ngraph TD\n```\n````\n"
	bs := markdownMermaid("x.md", text)
	if len(bs) != 2 || bs[0].src != "flowchart LR\n  A --> B" || bs[0].where != "x.md:3" || bs[1].src != "graph TD" {
		t.Errorf("blocks %+v", bs)
	}
}

// TestVerificationPageDiagramIsEmitted: the example diagram of the
// verification page is what the provider emits for the scenario it
// describes (udr_blackhole), not a hand-made copy that drifts. After a
// change of the diagram, copy the regenerated golden file into
// templates/data-sources/verification.md.tmpl (with {{"{{"}} and
// {{"}}"}} for the hexagon's braces) and run make generate.
func TestVerificationPageDiagramIsEmitted(t *testing.T) {
	want := strings.TrimSpace(read(t, "internal/provider/testdata/diagram/udr_blackhole.mmd"))
	blocks := markdownMermaid("docs/data-sources/verification.md", read(t, "docs/data-sources/verification.md"))
	if len(blocks) == 0 {
		t.Fatal("docs/data-sources/verification.md shows no diagram")
	}
	for _, b := range blocks {
		if strings.TrimSpace(b.src) != want {
			t.Errorf("%s differs from internal/provider/testdata/diagram/udr_blackhole.mmd:\n%s", b.where, b.src)
		}
	}
}
