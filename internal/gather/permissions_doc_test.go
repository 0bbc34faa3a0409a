// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// permissionsGuide is the source of docs/guides/permissions.md.
var permissionsGuide = filepath.Join("..", "..", "templates", "guides", "permissions.md.tmpl")

// roleDefinition is the custom role the permissions guide documents, in the
// format of `az role definition create --role-definition`.
type roleDefinition struct {
	Name             string
	Description      string
	IsCustom         bool
	Actions          []string
	NotActions       []string
	DataActions      []string
	NotDataActions   []string
	AssignableScopes []string
}

// documentedRole parses the first ```json block of the permissions guide.
func documentedRole(t *testing.T) roleDefinition {
	t.Helper()
	src, err := os.ReadFile(permissionsGuide)
	if err != nil {
		t.Fatal(err)
	}
	const fence = "```json\n"
	start := bytes.Index(src, []byte(fence))
	if start < 0 {
		t.Fatalf("%s: no ```json block with the role definition", permissionsGuide)
	}
	body := src[start+len(fence):]
	end := bytes.Index(body, []byte("\n```"))
	if end < 0 {
		t.Fatalf("%s: the ```json block is not closed", permissionsGuide)
	}
	var role roleDefinition
	dec := json.NewDecoder(bytes.NewReader(body[:end+1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&role); err != nil {
		t.Fatalf("%s: the role definition is not valid JSON for az role definition create: %v", permissionsGuide, err)
	}
	return role
}

// providerActions are the RBAC actions of every read the provider can issue:
// the gather package's table of reads and the read-only guard's allow-list
// of POST read actions. Keyed by the lower-case action (Azure compares
// actions case-insensitively), valued by the spelling of the table.
func providerActions(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	add := func(action, source string) {
		k := strings.ToLower(action)
		if have, ok := out[k]; ok && have != action {
			t.Errorf("%s spells %q, elsewhere it is %q: use one spelling", source, action, have)
			return
		}
		out[k] = action
	}
	for op, action := range Permissions {
		add(action, "gather.Permissions["+op+"]")
	}
	for _, a := range model.ReadActions() {
		add(a.Action, "model.ReadActions "+a.PathPattern)
	}
	return out
}

// TestPermissionsDocMatchesReads keeps the custom role of the permissions
// guide equal, both ways, to the actions of the reads the provider issues:
// an action missing from the guide makes the documented role fail at run
// time (EVIDENCE_PERMISSION_DENIED); an extra one grants more than needed.
func TestPermissionsDocMatchesReads(t *testing.T) {
	role := documentedRole(t)
	want := providerActions(t)

	got := map[string]string{}
	for _, a := range role.Actions {
		k := strings.ToLower(a)
		if _, dup := got[k]; dup {
			t.Errorf("the guide lists %q twice", a)
		}
		got[k] = a
	}

	var missing, extra, spelling []string
	for k, a := range want {
		d, ok := got[k]
		switch {
		case !ok:
			missing = append(missing, a)
		case d != a:
			spelling = append(spelling, d+" (table: "+a+")")
		}
	}
	for k, a := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, a)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	sort.Strings(spelling)
	if len(missing) > 0 {
		t.Errorf("actions the provider uses but %s does not grant (add them to the role):\n  %s", permissionsGuide, strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("actions %s grants but no read of the provider needs (remove them, or add the read to gather.Permissions / model.ReadActions):\n  %s",
			permissionsGuide, strings.Join(extra, "\n  "))
	}
	if len(spelling) > 0 {
		t.Errorf("actions spelled differently from the provider's table:\n  %s", strings.Join(spelling, "\n  "))
	}

	if !sort.StringsAreSorted(role.Actions) {
		t.Errorf("keep the role's Actions sorted, so that a change shows as one line")
	}
	if !role.IsCustom || role.Name == "" || len(role.AssignableScopes) == 0 {
		t.Errorf("the role needs Name, IsCustom true and AssignableScopes: %+v", role)
	}
	if len(role.NotActions)+len(role.DataActions)+len(role.NotDataActions) != 0 {
		t.Errorf("the provider reads the control plane only: NotActions, DataActions and NotDataActions must be empty, got %v %v %v",
			role.NotActions, role.DataActions, role.NotDataActions)
	}
	for _, a := range role.Actions {
		if !strings.HasSuffix(a, "/read") && !strings.HasSuffix(a, "/action") || strings.Contains(a, "*") {
			t.Errorf("%q is neither a read nor a read action (no wildcards)", a)
		}
	}
}

// TestPermissionsPOSTsAreGuardActions: every POST in the table of reads is
// one the read-only guard lets through, with the same action; otherwise the
// guard would refuse a read the provider relies on.
func TestPermissionsPOSTsAreGuardActions(t *testing.T) {
	guard := map[string]bool{}
	for _, a := range model.ReadActions() {
		guard[strings.ToLower(a.Action)] = true
	}
	for op, action := range Permissions {
		if strings.Contains(op, "(POST ") && !guard[strings.ToLower(action)] {
			t.Errorf("%s needs %s, which the read-only guard (model.ReadActions) does not allow", op, action)
		}
		if strings.HasSuffix(action, "/action") && !strings.Contains(op, "(POST ") {
			t.Errorf("%s: action %s is a POST read, but the operation is not marked (POST …)", op, action)
		}
	}
}

// permConst matches a constant of this package that names an RBAC action,
// such as permVNetRead = "Microsoft.Network/virtualNetworks/read".
var permConst = regexp.MustCompile(`(?m)^\s*(?:const\s+)?(perm[A-Za-z0-9]+)\s*=\s*"(Microsoft\.[^"]+)"`)

// TestPermissionsTableCoversReads: every action this package names for a
// read (the perm* constants, wherever they are declared) is in Permissions,
// the table the documented role is checked against. A constant outside the
// table means a read the documented role does not grant.
func TestPermissionsTableCoversReads(t *testing.T) {
	inTable := map[string]bool{}
	for _, action := range Permissions {
		inTable[strings.ToLower(action)] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range permConst.FindAllStringSubmatch(string(src), -1) {
			if !inTable[strings.ToLower(m[2])] {
				t.Errorf("%s: %s = %q is not in gather.Permissions: add the read that uses it to the table (and the action to %s)",
					f, m[1], m[2], permissionsGuide)
			}
		}
	}
}

// TestProviderPagePOSTsMatchGuard: the provider page's list of the POST
// requests the provider sends (its Permissions section, in the template and
// the generated page) names exactly the actions of the read-only guard's
// allow-list, and the path of every POST that is not a "/action" (the
// Resource Graph query): a POST added to the guard must be documented where
// users decide which role to grant.
func TestProviderPagePOSTsMatchGuard(t *testing.T) {
	want := map[string]bool{}
	for _, a := range model.ReadActions() {
		want[strings.ToLower(a.Action)] = true
	}
	action := regexp.MustCompile("`(Microsoft\\.[A-Za-z]+/[^`\\s]+)`")
	for _, rel := range []string{"templates/index.md.tmpl", "docs/index.md"} {
		src, err := os.ReadFile(filepath.Join("..", "..", rel))
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		start := strings.Index(text, "\n## Permissions\n")
		if start < 0 {
			t.Fatalf("%s: no ## Permissions section", rel)
		}
		section := text[start+1:]
		if end := strings.Index(section[3:], "\n## "); end >= 0 {
			section = section[:end+3]
		}
		got := map[string]bool{}
		for _, m := range action.FindAllStringSubmatch(section, -1) {
			got[strings.ToLower(m[1])] = true
		}
		for a := range want {
			if !got[a] {
				t.Errorf("%s: the Permissions section does not name %s, a POST the provider sends", rel, a)
			}
		}
		for a := range got {
			if !want[a] {
				t.Errorf("%s: the Permissions section names %s, which is no POST the provider sends", rel, a)
			}
		}
		for _, a := range model.ReadActions() {
			if !strings.HasSuffix(a.Action, "/action") && !strings.Contains(section, "POST "+a.PathPattern) {
				t.Errorf("%s: the Permissions section does not show the request POST %s", rel, a.PathPattern)
			}
		}
	}
}
