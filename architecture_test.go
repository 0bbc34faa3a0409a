// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The import rules of docs/design/architecture.md ("What may import what").
// Each rule names a package (a directory under internal/, its
// subdirectories included) and the import paths it must not use. Test
// files are held to the same rules, except that tests of pure packages may
// read their fixtures: a test of a package lives at the layer of that
// package.
const module = "github.com/pullpath/terraform-provider-pullpath/"

const (
	sdk           = "github.com/Azure/azure-sdk-for-go/"
	resourceMgr   = "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/"
	pluginFw      = "github.com/hashicorp/terraform-plugin-"
	internalPkg   = module + "internal/"
	pkgAzure      = internalPkg + "azure"
	pkgOverlay    = internalPkg + "azure/overlay"
	tfJSON        = "github.com/hashicorp/terraform-json"
	pkgGather     = internalPkg + "gather"
	pkgModel      = internalPkg + "model"
	pkgProvider   = internalPkg + "provider"
	pkgRouting    = internalPkg + "routing"
	pkgSecurity   = internalPkg + "security"
	pkgFirewall   = internalPkg + "firewall"
	pkgVerify     = internalPkg + "verify"
	pkgDiagram    = internalPkg + "diagram"
	pkgReport     = internalPkg + "report"
	pkgIDs        = internalPkg + "ids"
	pkgPlanned    = internalPkg + "planned"
	pkgPipeline   = internalPkg + "pipeline"
	pkgTestsupprt = internalPkg + "testsupport"
	pkgWhatif     = internalPkg + "whatif"
)

type importRule struct {
	dir    string   // package directory, relative to the repository root
	forbid []string // import path prefixes it must not use
	why    string
	// codeOnly holds the rule for non-test files only.
	codeOnly bool
	// except are subdirectories with rules of their own.
	except []string
}

// allowedImports are import paths a package may use although a prefix its
// rule forbids covers them: model reads ids with the one parser in ids.
var allowedImports = map[string][]string{
	"internal/model": {pkgIDs},
}

// io are the packages of I/O: pure packages do none (their tests may read
// fixtures).
var io = []string{"net/http", "os"}

var importRules = []importRule{
	{"internal/model", append([]string{internalPkg, sdk, pluginFw}, io...),
		"model is the plain vocabulary gather and verify share: no other package of the provider but ids, no SDK, no I/O", false, nil},
	{"internal/routing", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgVerify, pkgSecurity, pkgFirewall, sdk, pluginFw}, io...),
		"routing is pure evaluation over model", false, nil},
	{"internal/security", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgVerify, pkgRouting, pkgFirewall, sdk, pluginFw}, io...),
		"security is pure evaluation over model", false, nil},
	{"internal/verify", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, sdk, pluginFw}, io...),
		"verify is pure evaluation over model (with routing and security): no I/O, no SDK", false, nil},
	{"internal/gather", []string{pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, pkgPipeline, pkgProvider, pkgWhatif, pkgOverlay, pkgPlanned},
		"gather reads facts into model; evaluation is verify's, routing's and security's, and the provider calls both",
		// gather's scenario tests judge what was read by the verdict it
		// leads to, as the provider does.
		true, nil},
	{"internal/azure", []string{pkgGather, pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, pkgPipeline, pkgProvider, pkgWhatif, pkgPlanned, pkgOverlay, tfJSON, pluginFw + "framework"},
		"azure is the session under gather: credentials, clients, cache, snapshot, guard, retries; it places the what-if overlay the provider gives it but never reads a plan",
		false, []string{"internal/azure/overlay"}},
	{"internal/azure/overlay", []string{pkgGather, pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, pkgPipeline, pkgProvider, pkgWhatif, tfJSON, resourceMgr, pluginFw},
		"the what-if overlay answers the session's reads from planned's operations: it imports azure, planned and model, not the plan's JSON library, gather or evaluation",
		// its tests read through SDK clients, as gather does.
		true, nil},
	{"internal/provider", []string{pkgRouting, pkgSecurity, pkgFirewall, resourceMgr},
		"provider is framework glue: it validates arguments, calls gather and verify, and maps results to state", false, nil},
	{"internal/whatif", []string{pkgProvider, pkgRouting, pkgSecurity, pkgFirewall, resourceMgr, pluginFw},
		"whatif compares verifications of the network before and after a saved plan: above gather and verify, below the provider, no SDK of its own", false, nil},
	{"internal/ids", []string{internalPkg, sdk},
		"ids parses resource ids (argument validation, model's reading of ids), below every other package", false, nil},
	{"internal/testsupport", []string{pkgProvider},
		"test support generates fixtures; it does not drive the provider", false, nil},
	{"main.go", []string{pkgAzure, pkgGather, pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, pkgPipeline, pkgWhatif, sdk},
		"the binary only serves the provider", false, nil},
	{"internal/diagram", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgRouting, pkgSecurity, pkgFirewall, sdk, pluginFw}, io...),
		"diagram draws verify's results as text: pure, no I/O, no SDK, no framework", false, nil},
	{"internal/report", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgRouting, pkgSecurity, pkgFirewall, pkgWhatif, pkgPlanned, sdk, pluginFw}, io...),
		"report renders a verification as JSON, SARIF, Markdown and JUnit XML: pure (the provider writes the files), over model, verify and diagram", false, nil},
	{"internal/pipeline", append([]string{pkgAzure, pkgRouting, pkgSecurity, pkgFirewall, pkgProvider, pkgWhatif, sdk, pluginFw}, io...),
		"pipeline alternates gather's reads and verify's evaluation; it reads nothing itself and holds no rule",
		// its tests build a Reader over a snapshot, as the provider does.
		true, nil},
	{"internal/firewall", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgVerify, pkgRouting, pkgSecurity, sdk, pluginFw}, io...),
		"firewall is pure evaluation of Azure Firewall rules over model", false, nil},
	{"internal/doccheck", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, pkgWhatif, pkgDiagram, pkgPlanned, sdk, pluginFw}, io...),
		"doccheck holds the documentation to the code: it knows the catalogue (model) and Mermaid's syntax, nothing else",
		// its tests read README.md, docs/ and examples/.
		true, nil},
	{"internal/planned", append([]string{pkgAzure, pkgGather, pkgPipeline, pkgProvider, pkgVerify, pkgRouting, pkgSecurity, pkgFirewall, sdk, pluginFw}, io...),
		"planned translates a saved plan's JSON into ARM operations: pure, over model and ids; the session's overlay applies them", false, nil},
}

// sdkImporters are the only packages that may import an Azure Resource
// Manager SDK package.
var sdkImporters = []string{"internal/azure", "internal/gather"}

// TestImportRules fails when a package imports across the layers of
// docs/design/architecture.md.
func TestImportRules(t *testing.T) {
	imports := repoImports(t)
	if len(imports) == 0 {
		t.Fatal("no Go files found: run the test from the repository root")
	}
	for _, rule := range importRules {
		matched := false
		for file, paths := range imports {
			if !within(file, rule.dir) || slices.ContainsFunc(rule.except, func(d string) bool { return within(file, d) }) {
				continue
			}
			matched = true
			test := strings.HasSuffix(file, "_test.go")
			if test && rule.codeOnly {
				continue
			}
			for _, p := range paths {
				for _, f := range rule.forbid {
					if test && slices.Contains(io, f) {
						continue
					}
					if hasPathPrefix(p, f) && !hasPathPrefix(p, module+rule.dir) && !slices.Contains(allowedImports[rule.dir], p) {
						t.Errorf("%s imports %s: %s", file, p, rule.why)
					}
				}
			}
		}
		if !matched {
			t.Errorf("rule for %s matches no file: the layout changed, update importRules and docs/design/architecture.md", rule.dir)
		}
	}
	for file, paths := range imports {
		allowed := false
		for _, dir := range sdkImporters {
			allowed = allowed || within(file, dir)
		}
		if allowed {
			continue
		}
		for _, p := range paths {
			if strings.HasPrefix(p, resourceMgr) {
				t.Errorf("%s imports %s: only internal/azure and internal/gather may use the Resource Manager SDK", file, p)
			}
		}
	}
}

// kqlTokens are what reading KQL text looks like: its operators.
var kqlTokens = []string{"| where", "| project", "| extend", "=~", " in ("}

// TestOverlayDoesNotParseKQL: the what-if overlay knows gather's Resource
// Graph query as a model.ZoneLinkQuery the request carries, never by
// reading its text (no KQL operator appears in its code).
func TestOverlayDoesNotParseKQL(t *testing.T) {
	files, err := filepath.Glob("internal/azure/overlay/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no overlay files: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			for _, tok := range kqlTokens {
				if strings.Contains(strings.ToLower(lit.Value), tok) {
					t.Errorf("%s: the string %s reads KQL (%q): recognise the query by the model.ZoneLinkQuery its request carries", file, lit.Value, tok)
				}
			}
			return true
		})
	}
	if !slices.ContainsFunc(kqlTokens, func(tok string) bool { return strings.Contains(strings.ToLower("x | where vnetId in ('a')"), tok) }) {
		t.Error("kqlTokens miss a KQL filter")
	}
}

// TestImportRulesCatchViolations checks the checker: a forbidden import is
// reported, an allowed one is not.
func TestImportRulesCatchViolations(t *testing.T) {
	gather := importRules[4]
	if gather.dir != "internal/gather" {
		t.Fatalf("importRules[4] is %s, want internal/gather", gather.dir)
	}
	forbidden := func(r importRule, p string) bool {
		for _, f := range r.forbid {
			if hasPathPrefix(p, f) {
				return true
			}
		}
		return false
	}
	if !forbidden(gather, pkgVerify) {
		t.Error("gather importing verify is not caught")
	}
	if forbidden(gather, pkgModel) {
		t.Error("gather importing model is reported")
	}
	if !hasPathPrefix(pkgVerify+"/x", pkgVerify) || hasPathPrefix(pkgVerify+"x", pkgVerify) {
		t.Error("hasPathPrefix does not respect path segments")
	}
	if !within("internal/gather/x/y.go", "internal/gather") || within("internal/gatherer/y.go", "internal/gather") {
		t.Error("within does not respect path segments")
	}
}

// repoImports returns the import paths of every Go file of the repository
// (tests included), by file path relative to the root.
func repoImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		var paths []string
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			paths = append(paths, p)
		}
		sort.Strings(paths)
		out[filepath.ToSlash(path)] = paths
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// within reports whether file is dir itself or inside it.
func within(file, dir string) bool {
	return file == dir || strings.HasPrefix(file, dir+"/")
}

// hasPathPrefix reports whether import path p is prefix or below it. A
// prefix ending in "/" or "-" matches any continuation.
func hasPathPrefix(p, prefix string) bool {
	if strings.HasSuffix(prefix, "/") || strings.HasSuffix(prefix, "-") {
		return strings.HasPrefix(p, prefix)
	}
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}
