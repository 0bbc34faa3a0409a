package planned

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

const (
	sub1    = "00000000-0000-0000-0000-000000000001"
	sub2    = "00000000-0000-0000-0000-000000000002"
	rgHub   = "/subscriptions/" + sub1 + "/resourceGroups/rg-hub"
	rgSpk   = "/subscriptions/" + sub1 + "/resourceGroups/rg-spoke"
	hubNet  = rgHub + "/providers/Microsoft.Network/virtualNetworks/vnet-hub"
	spkNet  = rgSpk + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
	zoneID  = rgHub + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	acrID   = rgHub + "/providers/Microsoft.ContainerRegistry/registries/contosoreg"
	aksSn   = spkNet + "/subnets/snet-aks"
	peSn    = hubNet + "/subnets/snet-pe"
	azurerm = "registry.terraform.io/hashicorp/azurerm"
	azapi   = "registry.terraform.io/azure/azapi"
)

// rc is one resource change of a test plan.
type rc struct {
	addr     string
	actions  []string
	before   map[string]any
	after    map[string]any
	unknown  map[string]any
	provider string
	module   string
	index    any
	deposed  string
	// expr are the configuration expressions of the resource (nil: the
	// configuration does not list it).
	expr map[string]any
}

type planSpec struct {
	changes []rc
	// providerSub is the azurerm provider block's subscription_id.
	providerSub string
}

// typeOf is the type in a resource address (module path and index
// removed).
func typeOf(addr string) (typ, name string) {
	parts := strings.Split(addr, ".")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "module" {
			i++
			continue
		}
		n := parts[i+1]
		if j := strings.IndexByte(n, '['); j >= 0 {
			n = n[:j]
		}
		return parts[i], n
	}
	return "", ""
}

// planJSON builds the JSON of a plan as `terraform show -json` writes it.
func planJSON(t testing.TB, spec planSpec) []byte {
	t.Helper()
	var changes []any
	root := map[string]any{"resources": []any{}}
	mods := map[string]map[string]any{}
	for _, c := range spec.changes {
		typ, name := typeOf(c.addr)
		prov := c.provider
		if prov == "" {
			prov = azurerm
			if strings.HasPrefix(typ, "azapi_") {
				prov = azapi
			}
		}
		change := map[string]any{"actions": c.actions, "before": nilIfEmpty(c.before), "after": nilIfEmpty(c.after),
			"after_unknown": orEmpty(c.unknown), "before_sensitive": false, "after_sensitive": false}
		r := map[string]any{"address": c.addr, "mode": "managed", "type": typ, "name": name, "provider_name": prov, "change": change}
		if c.module != "" {
			r["module_address"] = c.module
		}
		if c.index != nil {
			r["index"] = c.index
		}
		if c.deposed != "" {
			r["deposed"] = c.deposed
		}
		changes = append(changes, r)
		if c.expr != nil && c.deposed == "" {
			key := "azurerm"
			if strings.HasPrefix(typ, "azapi_") {
				key = "azapi"
			}
			cr := map[string]any{"address": typ + "." + name, "mode": "managed", "type": typ, "name": name, "provider_config_key": key, "expressions": c.expr}
			target := root
			if c.module != "" {
				m, ok := mods[c.module]
				if !ok {
					m = map[string]any{"resources": []any{}}
					mods[c.module] = m
				}
				target = m
			}
			target["resources"] = append(target["resources"].([]any), cr)
		}
	}
	if len(mods) > 0 {
		calls := map[string]any{}
		for addr, m := range mods {
			calls[moduleCalls(addr)[0]] = map[string]any{"source": "./" + addr, "module": m}
		}
		root["module_calls"] = calls
	}
	pc := map[string]any{"azurerm": map[string]any{"name": "azurerm", "full_name": azurerm}}
	if spec.providerSub != "" {
		pc["azurerm"].(map[string]any)["expressions"] = map[string]any{"subscription_id": map[string]any{"constant_value": spec.providerSub}}
	}
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.9.8", "resource_changes": changes,
		"configuration": map[string]any{"provider_config": pc, "root_module": root}}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func nilIfEmpty(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// mustParse parses a test plan.
func mustParse(t testing.TB, spec planSpec, opts Options) *Plan {
	t.Helper()
	p, err := Parse(planJSON(t, spec), opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

// opFor is the op of a kind on an id (case-insensitive); it fails the
// test when there is not exactly one.
func opFor(t testing.TB, p *Plan, kind OpKind, id string) Op {
	t.Helper()
	var found []Op
	for _, op := range p.Ops {
		if op.Kind == kind && strings.EqualFold(op.ID, id) {
			found = append(found, op)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s op on %s, found %d; ops:\n%s", kind, id, len(found), opsString(p))
	}
	return found[0]
}

func opsString(p *Plan) string {
	var b strings.Builder
	for _, op := range p.Ops {
		fmt.Fprintf(&b, "  %s %s %s unknown=%v\n", op.Address, op.Kind, op.ID, op.Unknown)
	}
	fmt.Fprintf(&b, "  unsupported=%v untranslatable=%v\n", p.Unsupported, p.Untranslatable)
	return b.String()
}

// at is the value at a dotted path of a body ("properties.routes[0].name"
// is not supported: lists by index use "#0").
func at(body map[string]any, path string) any {
	var cur any = body
	for _, seg := range strings.Split(path, ".") {
		if strings.HasPrefix(seg, "#") {
			var i int
			if _, err := fmt.Sscanf(seg, "#%d", &i); err != nil {
				return nil
			}
			l, ok := cur.([]any)
			if !ok || i >= len(l) {
				return nil
			}
			cur = l[i]
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[seg]
	}
	return cur
}

// want checks body members: path → value (compared as JSON).
func want(t testing.TB, op Op, members map[string]any) {
	t.Helper()
	for path, w := range members {
		got := at(op.Body, path)
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("%s %s: %s = %s, want %s", op.Kind, op.ID, path, gj, wj)
		}
	}
}

func hasUnknown(op Op, path string) bool {
	for _, u := range op.Unknown {
		if u == path {
			return true
		}
	}
	return false
}

func problemFor(p *Plan, addr string) (Problem, bool) {
	for _, pr := range p.Untranslatable {
		if pr.Address == addr {
			return pr, true
		}
	}
	return Problem{}, false
}

// ref is a configuration expression that references resources.
func refExpr(refs ...string) map[string]any { return map[string]any{"references": refs} }

func constExpr(v any) map[string]any { return map[string]any{"constant_value": v} }

var moduleSegRe = regexp.MustCompile(`module\.([A-Za-z0-9_-]+)(\[[^\]]*\])?`)

// moduleCalls are the module call names of a module address, outermost
// first ("module.a[0].module.b" → a, b).
func moduleCalls(addr string) []string {
	var out []string
	for _, m := range moduleSegRe.FindAllStringSubmatch(addr, -1) {
		out = append(out, m[1])
	}
	return out
}
