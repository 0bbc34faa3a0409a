package planned

import (
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Subscriptions are the subscriptions of the resources the ops change,
// sorted, each once (compared case-insensitively): what the session must
// be able to read for the plan to be verified.
func (p *Plan) Subscriptions() []string {
	seen := map[string]bool{}
	var out []string
	for _, op := range p.Ops {
		s := model.ResourceID(op.ID).Subscription()
		if s != "" && !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Addresses are the resource addresses of the ops that change an ARM id
// (compared case-insensitively), in plan order: the planned changes a
// finding about that resource can name.
func (p *Plan) Addresses(id string) []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range p.Ops {
		if strings.EqualFold(strings.TrimRight(op.ID, "/"), strings.TrimRight(id, "/")) && !seen[op.Address] {
			seen[op.Address] = true
			out = append(out, op.Address)
		}
	}
	return out
}

// TranslatedTypes are the Terraform resource types whose changes are
// translated, sorted (docs/guides/what-if.md lists them).
func TranslatedTypes() []string {
	out := make([]string, 0, len(translators))
	for typ := range translators {
		out = append(out, typ)
	}
	sort.Strings(out)
	return out
}
