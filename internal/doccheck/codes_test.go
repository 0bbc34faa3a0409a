// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The tables of finding codes in the documentation list every code of
// model.Catalogue, with its condition, owner, severity and (u) mark where
// the table shows them, and no other code.

var codeRE = regexp.MustCompile("`([A-Z][A-Z0-9_]+)`")

// rowOwnerRE is a row of findings.md that names its own owner ("Owner
// `registry`"), where it differs from its heading's.
var rowOwnerRE = regexp.MustCompile("Owner `([a-z]+)`")

// compareCodes reports the problems codeProblems finds in listed.
func compareCodes(t *testing.T, where string, listed []model.Code) {
	t.Helper()
	for _, p := range codeProblems(listed) {
		t.Errorf("%s %s", where, p)
	}
}

// codeProblems lists the codes of the catalogue missing from listed, the
// codes listed that are not in the catalogue, and those listed twice.
func codeProblems(listed []model.Code) []string {
	seen := map[model.Code]int{}
	for _, c := range listed {
		seen[c]++
	}
	var missing, unknown, twice []string
	for c := range model.Catalogue {
		if seen[c] == 0 {
			missing = append(missing, string(c))
		}
	}
	for c, n := range seen {
		if _, ok := model.Catalogue[c]; !ok {
			unknown = append(unknown, string(c))
		}
		if n > 1 {
			twice = append(twice, string(c))
		}
	}
	sort.Strings(missing)
	sort.Strings(unknown)
	sort.Strings(twice)
	var out []string
	if len(missing) > 0 {
		out = append(out, fmt.Sprintf("lacks %d codes of model.Catalogue: %s", len(missing), strings.Join(missing, ", ")))
	}
	if len(unknown) > 0 {
		out = append(out, "lists codes that are not in model.Catalogue: "+strings.Join(unknown, ", "))
	}
	if len(twice) > 0 {
		out = append(out, "lists codes twice: "+strings.Join(twice, ", "))
	}
	return out
}

// conditionOwnerTable parses the table of the verification page:
// | `condition` | `owner` | `CODE`, `CODE` |.
func conditionOwnerTable(t *testing.T, rel string) []model.Code {
	t.Helper()
	text := read(t, rel)
	start := strings.Index(text, "| Condition | Owner | Codes |")
	if start < 0 {
		t.Fatalf("%s: no codes table (| Condition | Owner | Codes |)", rel)
	}
	var out []model.Code
	rowRE := regexp.MustCompile("^\\| `([a-z_]+)` \\| `([a-z]+)` \\| (.+) \\|$")
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		m := rowRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: malformed row %q", rel, line)
			continue
		}
		for _, c := range codeRE.FindAllStringSubmatch(m[3], -1) {
			code := model.Code(c[1])
			out = append(out, code)
			if info, ok := model.Catalogue[code]; ok && (string(info.Condition) != m[1] || string(info.Owner) != m[2]) {
				t.Errorf("%s: %s is in the row of condition %s, owner %s; the catalogue says %s, %s",
					rel, code, m[1], m[2], info.Condition, info.Owner)
			}
		}
	}
	return out
}

// TestVerificationPageCodesTable: the codes-by-condition table of the
// verification page is the one model.CodesByCondition gives, row for row
// (the failure prints it to paste).
func TestVerificationPageCodesTable(t *testing.T) {
	want := CodesTable()
	for _, rel := range []string{"templates/data-sources/verification.md.tmpl", "docs/data-sources/verification.md"} {
		compareCodes(t, rel, conditionOwnerTable(t, rel))
		if !strings.Contains(read(t, rel), want) {
			t.Errorf("%s: the codes table is not the catalogue's (model.CodesByCondition); replace it with:\n%s", rel, want)
		}
	}
}

// TestFindingsCatalogueTables: docs/design/findings.md, section "Codes the
// provider emits": one row per code under a heading that names its owner
// and condition (a row may name its own owner), with its severity and (u)
// mark.
func TestFindingsCatalogueTables(t *testing.T) {
	const rel = "docs/design/findings.md"
	text := read(t, rel)
	start := strings.Index(text, "\n## Codes the provider emits")
	if start < 0 {
		t.Fatalf("%s: no section \"Codes the provider emits\"", rel)
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	headingRE := regexp.MustCompile("^### .*\\(owner `([a-z]+)`, condition `([a-z_]+)`\\)$")
	rowRE := regexp.MustCompile("^\\| `([A-Z][A-Z0-9_]+)` \\| (error|warning|info) \\| ?(\\(u\\))? ?\\|")
	condition, owner := "", ""
	var listed []model.Code
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "### ") {
			m := headingRE.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("%s: heading %q does not name its owner and condition", rel, line)
			} else {
				owner, condition = m[1], m[2]
			}
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		m := rowRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: malformed row %.80q", rel, line)
			continue
		}
		code := model.Code(m[1])
		listed = append(listed, code)
		info, ok := model.Catalogue[code]
		if !ok {
			continue
		}
		owner := owner // the heading's, unless the row names its own
		if o := rowOwnerRE.FindStringSubmatch(line); o != nil {
			owner = o[1]
		}
		if string(info.Severity) != m[2] || info.Unverifying != (m[3] != "") || string(info.Condition) != condition || string(info.Owner) != owner {
			t.Errorf("%s: %s is listed as %s %q under owner %s, condition %s; the catalogue says %s, unverifying %v, owner %s, condition %s",
				rel, code, m[2], m[3], owner, condition, info.Severity, info.Unverifying, info.Owner, info.Condition)
		}
	}
	compareCodes(t, rel, listed)
}

// TestTroubleshootingHasEveryCode: the troubleshooting guide (and its
// template) has one section per code, marked *(unverifying)* exactly for
// the codes that make the verdict unverified, except the evidence codes,
// which the guide's introduction covers as a group ("any finding is an
// evidence warning or one of the codes marked").
func TestTroubleshootingHasEveryCode(t *testing.T) {
	headingRE := regexp.MustCompile(`^### ([A-Z][A-Z0-9_]+)( \*\(unverifying\)\*)?$`)
	for _, rel := range []string{"templates/guides/troubleshooting.md.tmpl", "docs/guides/troubleshooting.md"} {
		var listed []model.Code
		for _, line := range strings.Split(read(t, rel), "\n") {
			m := headingRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			code := model.Code(m[1])
			listed = append(listed, code)
			info, ok := model.Catalogue[code]
			if want := info.Unverifying && info.Condition != model.ConditionEvidence; ok && want != (m[2] != "") {
				t.Errorf("%s: %s is marked *(unverifying)* %v; want %v", rel, code, m[2] != "", want)
			}
		}
		compareCodes(t, rel, listed)
	}
}

// troubleshootingOwners maps each code section of the troubleshooting
// guide to the owner it states: the first word of its "- **Owner.**" line,
// else the owner of the "## … (owner: …)" part it is in ("" when neither
// says).
func troubleshootingOwners(text string) map[model.Code]string {
	partRE := regexp.MustCompile(`^## .*\(owner: ([a-z]+)\)$`)
	codeRE := regexp.MustCompile(`^### ([A-Z][A-Z0-9_]+)`)
	ownerRE := regexp.MustCompile(`^- \*\*Owner\.\*\* ([a-z]+)`)
	out := map[model.Code]string{}
	part, code := "", model.Code("")
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			part, code = "", ""
			if m := partRE.FindStringSubmatch(line); m != nil {
				part = m[1]
			}
		case codeRE.MatchString(line):
			code = model.Code(codeRE.FindStringSubmatch(line)[1])
			out[code] = part
		case code != "" && ownerRE.MatchString(line):
			out[code] = ownerRE.FindStringSubmatch(line)[1]
		}
	}
	return out
}

// TestTroubleshootingOwners: every code section of the troubleshooting
// guide (and its template) states the owner the catalogue gives the code,
// by its part's heading or its own Owner line.
func TestTroubleshootingOwners(t *testing.T) {
	for _, rel := range []string{"templates/guides/troubleshooting.md.tmpl", "docs/guides/troubleshooting.md"} {
		for code, owner := range troubleshootingOwners(read(t, rel)) {
			info, ok := model.Catalogue[code]
			if !ok {
				continue // TestTroubleshootingHasEveryCode reports it
			}
			if owner != string(info.Owner) {
				t.Errorf("%s: %s is in a section of owner %q; the catalogue says %s", rel, code, owner, info.Owner)
			}
		}
	}
}

func TestTroubleshootingOwnersParser(t *testing.T) {
	got := troubleshootingOwners("## Route (owner: network)\n\n### ROUTE_A\n\n- **Cause.** x\n\n### ROUTE_B\n\n- **Owner.** dns (with the network team).\n" +
		"## When it fails\n\n### ROUTE_C\n\n## Endpoint (owner: registry)\n\n### ENDPOINT_D *(unverifying)*\n")
	want := map[model.Code]string{"ROUTE_A": "network", "ROUTE_B": "dns", "ROUTE_C": "", "ENDPOINT_D": "registry"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("troubleshootingOwners = %v, want %v", got, want)
	}
}

func TestCodeProblems(t *testing.T) {
	var all []model.Code
	for c := range model.Catalogue {
		all = append(all, c)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if p := codeProblems(all); len(p) != 0 {
		t.Errorf("the catalogue itself: %v", p)
	}
	for name, c := range map[string]struct {
		listed []model.Code
		want   string
	}{
		"one missing":   {all[1:], "lacks 1 codes of model.Catalogue: " + string(all[0])},
		"one unknown":   {append(append([]model.Code{}, all...), "ROUTE_NOT_A_CODE"), "not in model.Catalogue: ROUTE_NOT_A_CODE"},
		"one twice":     {append(append([]model.Code{}, all...), all[0]), "twice: " + string(all[0])},
		"empty listing": {nil, "lacks"},
	} {
		p := codeProblems(c.listed)
		if len(p) != 1 || !strings.Contains(p[0], c.want) {
			t.Errorf("%s: want one problem with %q, got %v", name, c.want, p)
		}
	}
}
