package planned

import (
	"regexp"
	"strconv"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// References through modules.
//
// A resource in a module often takes an id from a module input
// (`vnet_subnet_id = var.subnet_id`), which the calling module feeds from
// another module's output (`subnet_id = module.network.subnet_id`), which
// is the id of a resource in that module (`value = azurerm_subnet.aks.id`).
// When that resource is created by the plan, every one of these values is
// unknown in resource_changes; the plan's configuration section holds the
// expressions and their references (configuration.root_module.module_calls,
// each call's expressions and module, each module's outputs), which lead to
// the resource and so to the id its translator builds. Module instances
// (count, for_each) are followed by their keys: a reference without a key
// names the instance with the referrer's key, or the only one.

// maxRefDepth bounds a chain of module inputs and outputs.
const maxRefDepth = 32

var (
	varRefRe    = regexp.MustCompile(`^var\.([A-Za-z_][A-Za-z0-9_-]*)`)
	moduleRefRe = regexp.MustCompile(`^module\.([A-Za-z_][A-Za-z0-9_-]*)(\[(?:"(?:[^"\\]|\\.)*"|[0-9]+)\])?\.([A-Za-z_][A-Za-z0-9_-]*)`)
)

// modSeg is one module call of a module instance address:
// module.NAME or module.NAME[KEY] (KEY as written: "\"a b\"" or "0").
type modSeg struct{ name, key string }

// splitModuleAddr splits "module.a[\"x y\"].module.b" into its calls. Keys
// may hold any character, "]" and "." included, inside quotes.
func splitModuleAddr(addr string) ([]modSeg, bool) {
	var out []modSeg
	rest := addr
	for rest != "" {
		r, ok := strings.CutPrefix(rest, "module.")
		if !ok {
			return nil, false
		}
		i := 0
		for i < len(r) && r[i] != '.' && r[i] != '[' {
			i++
		}
		seg := modSeg{name: r[:i]}
		r = r[i:]
		if strings.HasPrefix(r, "[") {
			end := keyEnd(r)
			if end < 0 {
				return nil, false
			}
			seg.key, r = r[1:end], r[end+1:]
		}
		if seg.name == "" {
			return nil, false
		}
		out = append(out, seg)
		if r == "" {
			break
		}
		rest, ok = strings.CutPrefix(r, ".")
		if !ok {
			return nil, false
		}
	}
	return out, true
}

// keyEnd is the index of the "]" that closes the key starting at s[0]
// ("[").
func keyEnd(s string) int {
	if len(s) > 1 && s[1] == '"' {
		for i := 2; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				if i+1 < len(s) && s[i+1] == ']' {
					return i + 1
				}
				return -1
			}
		}
		return -1
	}
	return strings.IndexByte(s, ']')
}

func joinModuleAddr(segs []modSeg) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(s.name)
		if s.key != "" {
			b.WriteString("[" + s.key + "]")
		}
	}
	return b.String()
}

// moduleConfig is the configuration of the module of an instance address
// (the root module for "").
func (c *planTranslation) moduleConfig(segs []modSeg) *tfjson.ConfigModule {
	if c.plan.Config == nil || c.plan.Config.RootModule == nil {
		return nil
	}
	mod := c.plan.Config.RootModule
	for _, s := range segs {
		mc, ok := mod.ModuleCalls[s.name]
		if !ok || mc == nil || mc.Module == nil {
			return nil
		}
		mod = mc.Module
	}
	return mod
}

// resolveIn is the ARM id a reference made in module instance mod names:
// a resource of that instance, an input of the instance (followed to the
// caller's expression) or an output of a module it calls (followed to the
// output's expression). key is the instance key of the referrer
// (each.key / count.index), for a reference to a resource or module
// without one.
func (c *planTranslation) resolveIn(mod []modSeg, key any, ref string, depth int) (string, bool) {
	if depth > maxRefDepth {
		return "", false
	}
	if m := varRefRe.FindStringSubmatch(ref); m != nil {
		if len(mod) == 0 {
			return "", false
		}
		parent, call := mod[:len(mod)-1], mod[len(mod)-1]
		pc := c.moduleConfig(parent)
		if pc == nil || pc.ModuleCalls[call.name] == nil {
			return "", false
		}
		e := pc.ModuleCalls[call.name].Expressions[m[1]]
		return c.resolveExpr(parent, keyValue(call.key), e, depth+1)
	}
	if m := moduleRefRe.FindStringSubmatch(ref); m != nil {
		name, k, output := m[1], "", m[3]
		if m[2] != "" {
			k = m[2][1 : len(m[2])-1]
		}
		inst, ok := c.moduleInstance(mod, name, k, key)
		if !ok {
			return "", false
		}
		mc := c.moduleConfig(inst)
		if mc == nil || mc.Outputs[output] == nil {
			return "", false
		}
		return c.resolveExpr(inst, nil, mc.Outputs[output].Expression, depth+1)
	}
	if refRe.MatchString(ref) {
		rm := refRe.FindStringSubmatch(ref)
		if rm[3] != "" && rm[3] != "id" {
			return "", false
		}
		return c.resolveResource(joinModuleAddr(mod), key, rm[1])
	}
	return "", false
}

// resolveExpr is the id an expression of module instance mod gives: its
// constant, else the first of its references that resolves.
func (c *planTranslation) resolveExpr(mod []modSeg, key any, e *tfjson.Expression, depth int) (string, bool) {
	if e == nil || e.ExpressionData == nil {
		return "", false
	}
	if s, ok := e.ConstantValue.(string); ok && validID(s) {
		return s, true
	}
	for _, r := range e.References {
		if id, ok := c.resolveIn(mod, key, r, depth); ok {
			return id, true
		}
	}
	return "", false
}

// moduleInstance is the instance of module call name in mod: with the key
// written in the reference, else with the referrer's key, else the only
// instance the plan has.
func (c *planTranslation) moduleInstance(mod []modSeg, name, key string, referrerKey any) ([]modSeg, bool) {
	base := append(append([]modSeg{}, mod...), modSeg{name: name, key: key})
	if key != "" {
		return base, true
	}
	prefix := joinModuleAddr(base)
	keys := map[string]bool{}
	for _, ch := range c.changes {
		a := ch.rc.ModuleAddress
		if a == prefix || strings.HasPrefix(a, prefix+".") {
			return base, true // an instance without a key
		}
		if strings.HasPrefix(a, prefix+"[") {
			segs, ok := splitModuleAddr(a)
			if ok && len(segs) > len(mod) {
				keys[segs[len(mod)].key] = true
			}
		}
	}
	if referrerKey != nil {
		if k := strings.Trim(indexSuffix(referrerKey), "[]"); keys[k] {
			base[len(base)-1].key = k
			return base, true
		}
	}
	if len(keys) == 1 {
		for k := range keys {
			base[len(base)-1].key = k
		}
		return base, true
	}
	return nil, false
}

// keyValue is an instance key as the index of a change ("\"a\"" → "a",
// "0" → 0).
func keyValue(k string) any {
	if k == "" {
		return nil
	}
	if strings.HasPrefix(k, `"`) {
		if u, err := strconv.Unquote(k); err == nil {
			return u
		}
		return nil
	}
	n := 0.0
	for _, r := range k {
		if r < '0' || r > '9' {
			return nil
		}
		n = n*10 + float64(r-'0')
	}
	return n
}
