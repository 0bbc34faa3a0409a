package gather

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestEveryReadHasWords holds model's words for resource types to the reads
// this package issues: every type a read needs a permission for has a kind
// in words, and every read-only action reads as words, not as the API's
// spelling. A new read without words fails here.
func TestEveryReadHasWords(t *testing.T) {
	const rg = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/"
	seen := map[string]bool{}
	for op, perm := range Permissions {
		if seen[perm] {
			continue
		}
		seen[perm] = true
		parts := strings.Split(perm, "/")
		ns, types, verb := parts[0], parts[1:len(parts)-1], parts[len(parts)-1]
		if strings.EqualFold(types[0], "locations") {
			continue // service tags: "the service tags of westeurope", tested in model
		}
		var id strings.Builder
		id.WriteString(rg + ns)
		var action string
		if verb == "action" {
			action, types = types[len(types)-1], types[:len(types)-1]
		}
		for i, ty := range types {
			id.WriteString("/" + ty + "/n" + string(rune('1'+i)))
		}
		rid := model.ResourceID(id.String())
		if kind, ok := model.KindOf(rid); !ok {
			t.Errorf("%s (%s): type %s/%s has no words in model (got %q)", op, perm, ns, strings.Join(types, "/"), kind)
		}
		if action != "" {
			label := (rid + model.ResourceID("/"+action)).Label()
			if strings.Contains(strings.ToLower(label), strings.ToLower(action)) {
				t.Errorf("%s (%s): the action reads as %q", op, perm, label)
			}
		}
	}
}
