package planned

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGuideListsTranslatedTypes: the what-if guide's table of translated
// types is exactly the types with a translator.
func TestGuideListsTranslatedTypes(t *testing.T) {
	for _, file := range []string{"../../docs/guides/what-if.md", "../../templates/guides/what-if.md.tmpl"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		start := bytes.Index(data, []byte("## Translated resource types"))
		if start < 0 {
			t.Fatalf("%s has no section Translated resource types", file)
		}
		section := data[start:]
		if end := bytes.Index(section[3:], []byte("\n## ")); end >= 0 {
			section = section[:end+3]
		}
		// The table rows only (the prose after it names untranslated types).
		var table []byte
		for _, line := range bytes.Split(section, []byte("\n")) {
			if bytes.HasPrefix(line, []byte("|")) {
				table = append(append(table, line...), '\n')
			}
		}
		var listed []string
		for _, m := range regexp.MustCompile("`((?:azurerm|azapi)_[a-z0-9_]+)`").FindAllSubmatch(table, -1) {
			if !slices.Contains(listed, string(m[1])) {
				listed = append(listed, string(m[1]))
			}
		}
		slices.Sort(listed)
		if got, want := strings.Join(listed, "\n"), strings.Join(TranslatedTypes(), "\n"); got != want {
			t.Errorf("%s lists:\n%s\n\nthe code translates:\n%s", file, got, want)
		}
	}
}

// guideTableRows are the rows of the first table of a section of the
// what-if guide and its template, each row's cells trimmed.
func guideTableRows(t *testing.T, section string) map[string][][]string {
	t.Helper()
	out := map[string][][]string{}
	for _, file := range []string{"../../docs/guides/what-if.md", "../../templates/guides/what-if.md.tmpl"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		start := bytes.Index(data, []byte("\n## "+section+"\n"))
		if start < 0 {
			t.Fatalf("%s has no section %s", file, section)
		}
		body := data[start+1:]
		if end := bytes.Index(body[3:], []byte("\n## ")); end >= 0 {
			body = body[:end+3]
		}
		var rows [][]string
		inTable := false
		for _, line := range strings.Split(string(body), "\n") {
			if !strings.HasPrefix(line, "|") {
				if inTable {
					break
				}
				continue
			}
			inTable = true
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if strings.HasPrefix(cells[0], "---") {
				continue
			}
			rows = append(rows, cells)
		}
		if len(rows) < 2 {
			t.Fatalf("%s: section %s has no table", file, section)
		}
		out[file] = rows[1:] // without the header
	}
	return out
}

// TestGuideListsIDOnlyTypes: the guide's table of types whose ids are
// built is exactly idOnly's types, with their ARM types.
func TestGuideListsIDOnlyTypes(t *testing.T) {
	want := []string{"azurerm_resource_group (the resource group)"}
	for typ, arm := range idOnlyTypes {
		want = append(want, typ+" "+arm)
	}
	slices.Sort(want)
	for file, rows := range guideTableRows(t, "Types whose ids are built") {
		var got []string
		for _, r := range rows {
			got = append(got, strings.Trim(r[0], "`")+" "+strings.Trim(r[1], "`"))
		}
		slices.Sort(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s lists:\n%s\n\nthe code builds the ids of:\n%s", file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for typ := range idOnlyTypes {
		if _, ok := idOnly(typ); !ok {
			t.Errorf("%s: no id-only translator", typ)
		}
	}
}

// TestGuideListsAzureDefaults: the guide's table of Azure defaults is
// exactly the attributes of attrDefaults, by type.
func TestGuideListsAzureDefaults(t *testing.T) {
	var want []string
	for typ, defs := range attrDefaults {
		for _, d := range defs {
			want = append(want, typ+" "+d.attr)
		}
	}
	slices.Sort(want)
	for file, rows := range guideTableRows(t, "Azure defaults") {
		var got []string
		for _, r := range rows {
			got = append(got, strings.Trim(r[0], "`")+" "+strings.Trim(r[1], "`"))
		}
		slices.Sort(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s lists:\n%s\n\nthe code's defaults are:\n%s", file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
