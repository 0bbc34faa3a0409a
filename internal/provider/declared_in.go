// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/pullpath/terraform-provider-pullpath/internal/report"
)

// declarationPattern finds the block that declares a verification in a
// configuration file.
var declarationPattern = regexp.MustCompile(`^\s*data\s+"pullpath_verification"\s`)

// declaredInOf is where the SARIF log anchors a verification's results
// (declared_in): the file given, else the first .tf file of the working
// directory (the root module Terraform runs in) that declares a
// pullpath_verification, at the line of its first declaration, else
// main.tf there. The path is relative to the root of the Git repository
// that holds it (the nearest directory above with a .git), with forward
// slashes; outside a repository, relative to the working directory. Only
// names are read, and the lines of the configuration's .tf files: a file
// that cannot be read counts as one without a declaration.
func declaredInOf(given string) report.DeclaredIn {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	file, line := "", 1
	if given != "" {
		file = given
		if !filepath.IsAbs(file) {
			file = filepath.Join(wd, file)
		}
		line = declarationLine(file)
	} else {
		names, _ := filepath.Glob(filepath.Join(wd, "*.tf"))
		slices.Sort(names)
		for _, n := range names {
			if l := declarationLine(n); l > 1 || firstLineDeclares(n) {
				file, line = n, l
				break
			}
		}
		if file == "" {
			file = filepath.Join(wd, report.DefaultDeclaredIn)
		}
	}
	base := wd
	if root := repositoryRoot(filepath.Dir(file)); root != "" {
		base = root
	}
	rel, err := filepath.Rel(base, filepath.Clean(file))
	if err != nil || rel == ".." || len(rel) > 3 && rel[:3] == ".."+string(filepath.Separator) {
		rel = filepath.Base(file)
	}
	return report.DeclaredIn{File: filepath.ToSlash(rel), Line: line}
}

// declarationLine is the line of the first pullpath_verification block of
// a file; 1 when it has none or cannot be read.
func declarationLine(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 1
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		if declarationPattern.Match(sc.Bytes()) {
			return n
		}
	}
	return 1
}

// firstLineDeclares is whether a file's first line declares a verification.
func firstLineDeclares(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	return sc.Scan() && declarationPattern.Match(sc.Bytes())
}

// repositoryRoot is the nearest directory from dir upwards that holds a
// .git (a directory, or a file in a worktree or submodule); "" when none.
func repositoryRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
