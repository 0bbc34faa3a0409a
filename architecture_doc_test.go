// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// archDoc is the map of the code this file holds to the code.
const archDoc = "docs/design/architecture.md"

// goDecls are the names declared in the repository's Go files: by package
// directory (its last element, "model"), and the members (methods and
// struct fields) of each type name.
type goDecls struct {
	byPkg   map[string]map[string]bool
	members map[string]map[string]bool
	all     map[string]bool
	files   []string // every file of the repository, slash-separated
	// inFile are the top-level names each Go file declares, by its
	// slash-separated path.
	inFile map[string]map[string]bool
}

func repoDecls(t *testing.T) goDecls {
	t.Helper()
	d := goDecls{byPkg: map[string]map[string]bool{}, members: map[string]map[string]bool{}, all: map[string]bool{}, inFile: map[string]map[string]bool{}}
	var file string
	add := func(pkg, name string) {
		if d.inFile[file] == nil {
			d.inFile[file] = map[string]bool{}
		}
		d.inFile[file][name] = true
		if d.byPkg[pkg] == nil {
			d.byPkg[pkg] = map[string]bool{}
		}
		d.byPkg[pkg][name] = true
		d.all[name] = true
	}
	member := func(typ, name string) {
		if d.members[typ] == nil {
			d.members[typ] = map[string]bool{}
		}
		d.members[typ][name] = true
	}
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		d.files = append(d.files, filepath.ToSlash(path))
		if !strings.HasSuffix(path, ".go") || strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.Base(filepath.Dir(path))
		file = filepath.ToSlash(path)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				add(pkg, decl.Name.Name)
				if decl.Recv != nil {
					recv := decl.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					if ix, ok := recv.(*ast.IndexExpr); ok {
						recv = ix.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						member(id.Name, decl.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						add(pkg, spec.Name.Name)
						if st, ok := spec.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								for _, n := range fld.Names {
									member(spec.Name.Name, n.Name)
								}
							}
						}
						if it, ok := spec.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									member(spec.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							add(pkg, n.Name)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var (
	// inFileRE is "`name` in `file.go`" or "(`name`, `file.go`)" /
	// "`name` (`file.go`": a name the doc places in a file.
	inFileRE = regexp.MustCompile("`(?:[a-z]+\\.)?([A-Za-z]\\w*)` (?:in |\\()`([\\w/]+\\.go)`")
	// fileNameRE is "`file.go` (`name`": the same, the other way round.
	fileNameRE = regexp.MustCompile("`([\\w/]+\\.go)` \\(`(?:[A-Za-z]+\\.)?([A-Za-z]\\w*)`")
	codeSpanRE = regexp.MustCompile("`([^`\n]+)`")
	linkRE     = regexp.MustCompile(`\]\(([^)#\s]+)`)
	qualRE     = regexp.MustCompile(`^([A-Za-z]\w*)\.([A-Z]\w*|[a-z]\w*)(?:\(\))?$`)
	testRE     = regexp.MustCompile(`^Test[A-Z]\w*$`)
	goIdentRE  = regexp.MustCompile(`^[A-Z][a-z]+[A-Z]\w*$`)
	fileRE     = regexp.MustCompile(`^[\w./*-]+\.(go|md|tmpl|json)$`)
)

// fileExists reports whether the file (or glob) the doc names is in the
// repository: at the path given, under internal/, or, for a bare name, in
// some directory.
func (d goDecls) fileExists(name string) bool {
	for _, f := range d.files {
		for _, cand := range []string{name, "internal/" + name, "docs/design/" + name} {
			if ok, _ := filepath.Match(cand, f); ok {
				return true
			}
		}
		if !strings.Contains(name, "/") {
			if ok, _ := filepath.Match(name, filepath.Base(f)); ok {
				return true
			}
		}
	}
	return false
}

// TestArchitectureDocNamesExist: every file, directory, package member,
// type member and test that docs/design/architecture.md names in code
// spans, and every relative link, is in the repository where it says. A
// rename that forgets the map fails here.
func TestArchitectureDocNamesExist(t *testing.T) {
	text, err := os.ReadFile(archDoc)
	if err != nil {
		t.Fatal(err)
	}
	d := repoDecls(t)
	pkgs := map[string]bool{}
	for p := range d.byPkg {
		pkgs[p] = true
	}
	for _, m := range linkRE.FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(archDoc), m[1])); err != nil {
			t.Errorf("%s links %s, which does not exist", archDoc, m[1])
		}
	}
	placed := inFileRE.FindAllStringSubmatch(string(text), -1)
	for _, m := range fileNameRE.FindAllStringSubmatch(string(text), -1) {
		placed = append(placed, []string{m[0], m[2], m[1]})
	}
	for _, m := range placed {
		name, file := m[1], m[2]
		found, declared := false, false
		for f, names := range d.inFile {
			if f == file || strings.HasSuffix(f, "/"+file) {
				found = true
				declared = declared || names[name]
			}
		}
		if found && !declared && d.all[name] {
			t.Errorf("%s places %s in %s, but it is declared elsewhere", archDoc, name, file)
		}
	}
	for _, m := range codeSpanRE.FindAllStringSubmatch(string(text), -1) {
		span := strings.TrimSuffix(m[1], "()")
		switch {
		case fileRE.MatchString(span):
			if !d.fileExists(span) {
				t.Errorf("%s names the file %s, which does not exist", archDoc, span)
			}
		case strings.HasPrefix(span, "internal/") && !strings.ContainsAny(span, " {"):
			if st, err := os.Stat(span); err != nil || !st.IsDir() {
				t.Errorf("%s names the package %s, which does not exist", archDoc, span)
			}
		case qualRE.MatchString(span):
			q := qualRE.FindStringSubmatch(span)
			switch {
			case pkgs[q[1]] && d.byPkg[q[1]][q[2]]:
			case d.members[q[1]][q[2]]:
			case pkgs[q[1]] || d.all[q[1]]:
				t.Errorf("%s names %s: %s declares no %s", archDoc, span, q[1], q[2])
			}
		case testRE.MatchString(span):
			if !d.all[span] {
				t.Errorf("%s names the test %s, which does not exist", archDoc, span)
			}
		case goIdentRE.MatchString(span) && strings.HasSuffix(span, "Error"):
			if !d.all[span] {
				t.Errorf("%s names %s, which is declared nowhere", archDoc, span)
			}
		}
	}
}
