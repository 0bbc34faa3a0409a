package planned

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// val is a value of a plan (after or before) with its after_unknown
// marks: u is true where the value is known only after apply, or the
// after_unknown subtree of an object or list.
type val struct {
	v any
	u any
}

func (x val) at(key string) val {
	m, _ := x.v.(map[string]any)
	um, _ := x.u.(map[string]any)
	var u any
	if um != nil {
		u = um[key]
	} else if x.unknown() {
		u = true
	}
	var v any
	if m != nil {
		v = m[key]
	}
	return val{v: v, u: u}
}

// unknown reports whether the value itself is known only after apply.
func (x val) unknown() bool { b, _ := x.u.(bool); return b }

// null reports whether the value is known to be null.
func (x val) null() bool { return x.v == nil && !x.unknown() }

func (x val) list() []val {
	l, _ := x.v.([]any)
	ul, _ := x.u.([]any)
	out := make([]val, 0, len(l))
	for i, v := range l {
		var u any
		if i < len(ul) {
			u = ul[i]
		}
		out = append(out, val{v: v, u: u})
	}
	return out
}

// first is the first element of a list (a block of at most one).
func (x val) first() val {
	if l := x.list(); len(l) > 0 {
		return l[0]
	}
	if m, ok := x.v.(map[string]any); ok {
		return val{v: m, u: x.u}
	}
	return val{u: x.u}
}

// str is the string value, "" when null, unknown or not a string.
func (x val) str() string { return knownString(x) }

func knownString(x val) string {
	if x.unknown() {
		return ""
	}
	s, _ := x.v.(string)
	return s
}

// boolp is the bool value and whether it is known and set.
func (x val) boolp() (bool, bool) {
	if x.unknown() {
		return false, false
	}
	b, ok := x.v.(bool)
	return b, ok
}

// num is the number value as ARM writes it (an integer when it is one).
func (x val) num() (any, bool) {
	if x.unknown() {
		return nil, false
	}
	switch n := x.v.(type) {
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
		return n, true
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
		if f, err := n.Float64(); err == nil {
			return f, true
		}
	case int, int64:
		return n, true
	case string:
		// Some attributes (ports) are strings in one provider version.
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return i, true
		}
	}
	return nil, false
}

// strs are the known strings of a list or set (unknown elements left out;
// see anyUnknown).
func (x val) strs() []string {
	out := []string{}
	for _, e := range x.list() {
		if s := e.str(); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// anyUnknown reports whether the value or any part of it is unknown.
func (x val) anyUnknown() bool {
	return hasTrue(x.u)
}

func hasTrue(u any) bool {
	switch u := u.(type) {
	case bool:
		return u
	case []any:
		for _, e := range u {
			if hasTrue(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range u {
			if hasTrue(e) {
				return true
			}
		}
	}
	return false
}

// changeTranslation translates one change: the values it reads, the ops it emits.
type changeTranslation struct {
	c   *planTranslation
	ch  *change
	cur val
	ops []*Op
	// prefix is the path of cur in the resource (a nested block), for
	// its configuration expressions.
	prefix []any
}

// sub is a translation of the nested block at path: its values and
// configuration expressions. Its ops are the parent's: use the parent to
// emit.
func (t *changeTranslation) sub(path ...any) *changeTranslation {
	p := append(append([]any{}, t.prefix...), path...)
	return &changeTranslation{c: t.c, ch: t.ch, cur: t.get(path...), prefix: p}
}

func (c *planTranslation) newT(ch *change, v val) *changeTranslation {
	return &changeTranslation{c: c, ch: ch, cur: v}
}

// get is the value at a path of attribute names and list indexes.
func (t *changeTranslation) get(path ...any) val {
	v := t.cur
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.at(p)
		case int:
			l := v.list()
			if p < 0 || p >= len(l) {
				return val{}
			}
			v = l[p]
		}
	}
	return v
}

// op adds an op and returns it for its body and unknowns to be filled.
func (t *changeTranslation) op(kind OpKind, id string, body map[string]any) *Op {
	op := &Op{Address: t.ch.rc.Address, Type: t.ch.rc.Type, Kind: kind, ID: id, Body: body}
	t.ops = append(t.ops, op)
	return op
}

// unknownNameError is the id error of a resource whose name (or resource
// group name) is known only after apply.
type unknownNameError struct{ attr string }

func (e *unknownNameError) Error() string {
	return fmt.Sprintf("its %s is known only after apply, so its ARM id is unknown", e.attr)
}

// name is a required name attribute. With t.c.unnamed set, a name known
// only after apply is NameUnknown (the id of an OpCreateUnnamed).
func (t *changeTranslation) name(attr string) (string, error) {
	v := t.get(attr)
	if v.unknown() {
		if t.c.unnamed {
			return NameUnknown, nil
		}
		return "", &unknownNameError{attr: attr}
	}
	s := v.str()
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("it has no %s", attr)
	}
	if strings.ContainsAny(s, "/?#") {
		return "", fmt.Errorf("its %s %q cannot be part of an ARM id", attr, s)
	}
	return s, nil
}

// rgScope is /subscriptions/{s}/resourceGroups/{rg} of a resource named
// by resource_group_name.
func (t *changeTranslation) rgScope() (string, error) {
	rg, err := t.name("resource_group_name")
	if err != nil {
		return "", err
	}
	sub, err := t.c.subscriptionFor(t.ch)
	if err != nil {
		return "", err
	}
	return "/subscriptions/" + sub + "/resourceGroups/" + rg, nil
}

// rgID builds /subscriptions/{s}/resourceGroups/{rg}/providers/{typ}/{names...}
// where typ is "Microsoft.X/a/b" and names are attribute names.
func (t *changeTranslation) rgID(typ string, nameAttrs ...string) (string, error) {
	scope, err := t.rgScope()
	if err != nil {
		return "", err
	}
	parts := strings.Split(typ, "/")
	if len(parts)-1 != len(nameAttrs) {
		return "", fmt.Errorf("internal: %s takes %d names", typ, len(parts)-1)
	}
	id := scope + "/providers/" + parts[0]
	for i, a := range nameAttrs {
		n, err := t.name(a)
		if err != nil {
			return "", err
		}
		id += "/" + parts[i+1] + "/" + n
	}
	return id, nil
}

// refID is the ARM id an *_id attribute holds after apply: its known
// value, else the id of the resource of the plan its configuration
// references. ok is false when it is unknown (or null).
func (t *changeTranslation) refID(path ...any) (string, bool) {
	v := t.get(path...)
	if s := v.str(); s != "" {
		return s, true
	}
	if !v.unknown() {
		return "", false
	}
	for _, ref := range t.refs(path...) {
		if id, ok := t.c.resolveRef(t.ch, ref); ok {
			return id, true
		}
	}
	return "", false
}

// refIDs is refID for a list of ids (private_dns_zone_ids): the known
// elements, those resolved through references, and whether all are known.
func (t *changeTranslation) refIDs(path ...any) ([]string, bool) {
	v := t.get(path...)
	if !v.unknown() {
		out := []string{}
		all := true
		refs := t.refs(path...)
		elems := v.list()
		unknownElems := 0
		for _, e := range elems {
			if e.str() == "" && e.unknown() {
				unknownElems++
			}
		}
		// The unknown elements line up with the references only when
		// there are as many of each (every unknown element is a plain
		// reference to one resource).
		aligned := unknownElems == len(refs)
		next := 0
		for _, e := range elems {
			if s := e.str(); s != "" {
				out = append(out, s)
				continue
			}
			if e.unknown() && aligned && next < len(refs) {
				id, ok := t.c.resolveRef(t.ch, refs[next])
				next++
				if ok {
					out = append(out, id)
					continue
				}
			}
			all = false
		}
		return out, all
	}
	var out []string
	for _, ref := range t.refs(path...) {
		id, ok := t.c.resolveRef(t.ch, ref)
		if !ok {
			return nil, false
		}
		out = append(out, id)
	}
	return out, len(out) > 0
}

// refs are the references of the configuration expression at a path that
// can name an id: resources (the `.id` form first), module inputs
// (var.x) and module outputs (module.m.x), de-duplicated to one per
// resource.
func (t *changeTranslation) refs(path ...any) []string {
	e := exprAt(t.ch.expr, append(append([]any{}, t.prefix...), path...))
	if e == nil || e.ExpressionData == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range e.References {
		var key string
		switch {
		case varRefRe.MatchString(r):
			key = varRefRe.FindString(r)
		case moduleRefRe.MatchString(r):
			key = moduleRefRe.FindString(r)
		default:
			m := refRe.FindStringSubmatch(r)
			if m == nil || m[3] != "" && m[3] != "id" {
				continue
			}
			key = m[1]
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	return out
}

var refRe = regexp.MustCompile(`^((?:[a-z][a-z0-9]*_[a-z0-9_]+)\.[A-Za-z_][A-Za-z0-9_-]*(\[[^\]]*\])?)(?:\.([A-Za-z0-9_]+))?`)

// exprAt walks configuration expressions along a path (nested blocks are
// lists of expression maps).
func exprAt(exprs map[string]*tfjson.Expression, path []any) *tfjson.Expression {
	var e *tfjson.Expression
	cur := exprs
	for i := 0; i < len(path); i++ {
		key, ok := path[i].(string)
		if !ok {
			return nil
		}
		e = cur[key]
		if e == nil || e.ExpressionData == nil {
			return nil
		}
		if i == len(path)-1 {
			return e
		}
		idx := 0
		if n, ok := path[i+1].(int); ok {
			idx = n
			i++
			if i == len(path)-1 {
				return nil
			}
		}
		if idx >= len(e.NestedBlocks) {
			return nil
		}
		cur = e.NestedBlocks[idx]
	}
	return e
}

// resolveRef is the ARM id a reference of change `from` names (a
// resource, a module input or a module output; see modules.go), in the
// module instance of `from`.
func (c *planTranslation) resolveRef(from *change, ref string) (string, bool) {
	var mod []modSeg
	if from.rc.ModuleAddress != "" {
		var ok bool
		if mod, ok = splitModuleAddr(from.rc.ModuleAddress); !ok {
			return "", false
		}
	}
	return c.resolveIn(mod, from.rc.Index, ref, 0)
}

// resolveResource is the ARM id of the resource ref ("type.name" or
// "type.name[key]") of module instance modAddr ("" for the root).
func (c *planTranslation) resolveResource(modAddr string, index any, ref string) (string, bool) {
	prefix := ""
	if modAddr != "" {
		prefix = modAddr + "."
	}
	addr := prefix + ref
	if id, ok := c.idOfAddress(addr); ok {
		return id, true
	}
	if strings.Contains(ref, "[") {
		return "", false
	}
	// `azurerm_subnet.aks[each.key].id` is referenced as azurerm_subnet.aks:
	// the instance with the same key as the referrer, or the only one.
	if index != nil {
		if id, ok := c.idOfAddress(addr + indexSuffix(index)); ok {
			return id, true
		}
	}
	var found []string
	for a := range c.byAddr {
		if strings.HasPrefix(a, addr+"[") {
			found = append(found, a)
		}
	}
	if len(found) == 1 {
		return c.idOfAddress(found[0])
	}
	return "", false
}

func indexSuffix(idx any) string {
	switch i := idx.(type) {
	case string:
		return "[" + strconv.Quote(i) + "]"
	case float64:
		return "[" + strconv.FormatInt(int64(i), 10) + "]"
	case json.Number:
		return "[" + i.String() + "]"
	}
	return ""
}

// argSet reports whether the configuration sets an attribute or block
// (when the plan has no configuration for the resource: whether its value
// is non-null).
func (t *changeTranslation) argSet(attr string) bool {
	if t.ch.expr == nil {
		return !t.get(attr).null()
	}
	_, ok := t.ch.expr[attr]
	return ok
}

// ref is the {"id": …} object ARM uses for a reference.
func ref(id string) map[string]any { return map[string]any{"id": id} }

// anyList turns strings into a JSON list.
func anyList(s []string) []any {
	out := make([]any, 0, len(s))
	for _, x := range s {
		out = append(out, x)
	}
	return out
}

// lastName is the last segment of an id.
func lastName(id string) string {
	p, err := ids.Parse(strings.TrimRight(id, "/"))
	if err != nil {
		return ""
	}
	return p.Name()
}

// parentID is the id of the resource a child resource belongs to ("" for
// a top-level resource or a string that is not an id).
func parentID(id string) string {
	p, err := ids.Parse(strings.TrimRight(id, "/"))
	if err != nil {
		return ""
	}
	parent, ok := p.Parent()
	if !ok {
		return ""
	}
	return parent.String()
}

// result are the ops emitted, in order.
func (t *changeTranslation) result() []Op {
	out := make([]Op, 0, len(t.ops))
	for _, op := range t.ops {
		out = append(out, *op)
	}
	return out
}

// unbuildableRef finds, for a reference of from that did not resolve
// (resolveRef), the resource of this plan it names whose ARM id cannot be
// built before apply (a subnet whose resource group's name is known only
// after apply), and why: its address and the reason. found is false when
// the reference names no resource of the plan (a module input or output,
// a data source, another provider's resource).
func (c *planTranslation) unbuildableRef(from *change, ref string) (addr, why string, found bool) {
	m := refRe.FindStringSubmatch(ref)
	if m == nil || varRefRe.MatchString(ref) || moduleRefRe.MatchString(ref) {
		return "", "", false
	}
	prefix := ""
	if from.rc.ModuleAddress != "" {
		prefix = from.rc.ModuleAddress + "."
	}
	candidates := []string{prefix + m[1]}
	if from.rc.Index != nil && !strings.Contains(m[1], "[") {
		candidates = append([]string{prefix + m[1] + indexSuffix(from.rc.Index)}, candidates...)
	}
	for _, a := range candidates {
		ch, ok := c.byAddr[a]
		if !ok {
			continue
		}
		tr, ok := translators[ch.rc.Type]
		if !ok {
			tr, ok = idOnly(ch.rc.Type)
		}
		if !ok || tr.id == nil {
			return a, "its type's ARM id is not built by this provider", true
		}
		if _, err := c.idFor(ch, tr, ch.after); err != nil {
			return a, err.Error(), true
		}
	}
	return "", "", false
}
