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
