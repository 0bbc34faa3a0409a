// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadActionsData checks the table of read actions: each RBAC action
// names the resource type and operation of its path, so that a custom role
// built from it grants exactly these reads; each has a what-if treatment
// with what it needs; names are unique (labels and the guard's error go by
// them); and the list is a copy.
func TestReadActionsData(t *testing.T) {
	list := ReadActions()
	if len(list) == 0 {
		t.Fatal("no read actions")
	}
	names := map[string]bool{}
	for _, a := range list {
		segs := strings.Split(strings.TrimPrefix(a.PathPattern, "/"), "/")
		var want string
		switch {
		// providers/Microsoft.ResourceGraph/resources: a query, which
		// needs read on the resources it returns.
		case len(segs) == 3 && segs[0] == "providers" && segs[1] == "Microsoft.ResourceGraph":
			want = segs[1] + "/" + segs[2] + "/read"
		// subscriptions/{}/resourceGroups/{}/providers/{ns}/{type}/{name}[/{child type}/{name}]/{op}
		case (len(segs) == 9 || len(segs) == 11) && segs[4] == "providers":
			want = segs[5] + "/" + segs[6]
			if len(segs) == 11 {
				want += "/" + segs[8]
			}
			want += "/" + segs[len(segs)-1] + "/action"
		default:
			t.Errorf("unexpected entry %+v", a)
			continue
		}
		if a.Action != want {
			t.Errorf("%s: action %q, want %q", a.PathPattern, a.Action, want)
		}
		n := strings.ToLower(a.Name())
		if names[n] {
			t.Errorf("%s: two read actions are named %s", a.PathPattern, a.Name())
		}
		names[n] = true
		switch a.WhatIf {
		case whatIfNone:
			t.Errorf("%s is allowed but has no what-if treatment: under a plan it would be answered with the network before the plan", a.PathPattern)
		case WhatIfStale, WhatIfUnknownWhenTypesChange:
			if len(a.PlanTypes) == 0 {
				t.Errorf("%s: treatment %d needs the PlanTypes whose change decides it", a.PathPattern, a.WhatIf)
			}
			if a.WhatIf == WhatIfUnknownWhenTypesChange && a.Words == "" {
				t.Errorf("%s: its unknown answer names the read by its Words", a.PathPattern)
			}
		}
		for _, pt := range a.PlanTypes {
			if pt != strings.ToLower(pt) || strings.Count(pt, "/") < 1 {
				t.Errorf("%s: plan type %q is not a lower-case resource type", a.PathPattern, pt)
			}
		}
		if a.Operation != "" && !strings.Contains(a.Operation, "(POST ") {
			t.Errorf("%s: operation %q does not say it is a POST", a.PathPattern, a.Operation)
		}
		if a.Operation != "" && a.WhatIf != WhatIfResourceGraph && a.Words == "" {
			t.Errorf("%s: gather sends it, so a gap names it: give it Words", a.PathPattern)
		}
	}
	list[0].PathPattern = "/{anything}"
	if ReadActions()[0].PathPattern == "/{anything}" {
		t.Error("ReadActions exposes the table itself")
	}
}

// TestReadActionAt: the path of each row is found, with its placeholders
// filled in; a longer, shorter or dotted path is not.
func TestReadActionAt(t *testing.T) {
	for _, a := range ReadActions() {
		path := a.PathPattern
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "x" + path[j+1:]
		}
		if got, ok := ReadActionAt(path); !ok || got.Action != a.Action {
			t.Errorf("ReadActionAt(%s) = %+v, %v", path, got, ok)
		}
		for _, bad := range []string{path + "X", path + "/start", strings.Replace(path, "/x/", "/./", 1), strings.Replace(path, "/x/", "/a%2Fb/", 1)} {
			if _, ok := ReadActionAt(bad); ok && bad != path {
				t.Errorf("ReadActionAt(%s) matched", bad)
			}
		}
	}
}

func TestIsCrossCheckRead(t *testing.T) {
	hub := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu")
	for id, want := range map[ResourceID]bool{
		HubEffectiveRoutesAction(hub):                                 true,
		ResourceID(strings.ToLower(string(hub)) + "/effectiveroutes"): true,
		hub: false,
		hub + "/hubRouteTables/defaultRouteTable": false,
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic/effectiveRouteTable": false,
		"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/vpnGateways/gw/effectiveRoutes":            false,
	} {
		if got := IsCrossCheckRead(id); got != want {
			t.Errorf("IsCrossCheckRead(%s) = %v, want %v", id, got, want)
		}
	}
}

// TestGraphSearchesListed: every type of this package that is a
// GraphSearch (it has a KQL method) is in graphSearches, so that the
// snapshot replay answers it and the overlay knows its row type; each
// names its rows with a lower-case type and words.
func TestGraphSearchesListed(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	listed := map[string]bool{}
	for _, s := range GraphSearches() {
		listed[reflect.TypeOf(s).Name()] = true
		if s.RowType() != strings.ToLower(s.RowType()) || !strings.Contains(s.RowType(), "/") || s.What() == "" {
			t.Errorf("%T: row type %q, words %q", s, s.RowType(), s.What())
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "KQL" {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, isPtr := recv.(*ast.StarExpr); isPtr {
				recv = star.X
			}
			if id, isIdent := recv.(*ast.Ident); isIdent && !listed[id.Name] {
				t.Errorf("%s has a KQL method but is not in graphSearches: the snapshot replay would not answer it and the overlay would not know its rows", id.Name)
			}
		}
	}
}
