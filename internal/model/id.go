package model

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// ResourceID is an Azure Resource Manager id such as
// /subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.Network/virtualNetworks/{v}.
//
// ARM treats ids case-insensitively and answers with whatever casing the
// resource was created with (AKS node resource groups famously come back as
// both MC_rg_… and mc_rg_…), so ids are compared through Key, never with ==.
type ResourceID string

// Key is the canonical form used for map keys and comparisons: lower case,
// without a trailing slash.
func (id ResourceID) Key() string {
	return strings.TrimRight(strings.ToLower(string(id)), "/")
}

// Equal reports whether two ids name the same resource. It compares as
// Key does without building either key (ids are compared in the hottest
// loops of an evaluation).
func (id ResourceID) Equal(other ResourceID) bool {
	a, b := strings.TrimRight(string(id), "/"), strings.TrimRight(string(other), "/")
	for i := 0; i < min(len(a), len(b)); i++ {
		ca, cb := a[i], b[i]
		if ca|cb >= 0x80 {
			return id.Key() == other.Key()
		}
		if lowerASCII(ca) != lowerASCII(cb) {
			return false // same ASCII prefix, then different letters
		}
	}
	// Equal up to the shorter one, whose rest is ASCII: lowering the
	// longer one's rest (which ends in no slash) leaves something.
	return len(a) == len(b)
}

// lookupKey returns m[id.Key()] without building the key when id is ASCII
// and short: the lowered id is written to a stack buffer, and a map index
// by a converted byte slice does not allocate.
func lookupKey[V any](m map[string]V, id ResourceID) (V, bool) {
	s := strings.TrimRight(string(id), "/")
	var buf [256]byte
	if len(s) <= len(buf) {
		b := buf[:len(s)]
		ascii := true
		for i := 0; i < len(s); i++ {
			c := s[i]
			ascii = ascii && c < 0x80
			b[i] = lowerASCII(c)
		}
		if ascii {
			v, ok := m[string(b)]
			return v, ok
		}
	}
	v, ok := m[id.Key()]
	return v, ok
}

// lookup is lookupKey without the presence flag.
func lookup[V any](m map[string]V, id ResourceID) V {
	v, _ := lookupKey(m, id)
	return v
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// IsZero reports whether the id is empty.
func (id ResourceID) IsZero() bool { return strings.TrimSpace(string(id)) == "" }

// Name is the last segment of the id (the resource's own name).
func (id ResourceID) Name() string {
	s := strings.TrimRight(string(id), "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Parent is the id with its last type/name pair removed, or "" at the top
// (a subnet's parent is its virtual network).
func (id ResourceID) Parent() ResourceID {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	if len(segs) < 4 {
		return ""
	}
	// A provider-level resource (…/providers/{ns}/{type}/{name}) has no parent below the
	// resource group; a child drops its own {type}/{name}.
	if len(segs) >= 2 && strings.EqualFold(segs[len(segs)-4], "providers") {
		return ""
	}
	return ResourceID("/" + strings.Join(segs[:len(segs)-2], "/"))
}

// IsTopLevel reports whether the id is that of a resource of the given
// namespace and type directly under a resource group or subscription
// (…/providers/{namespace}/{type}/{name}), compared case-insensitively.
func (id ResourceID) IsTopLevel(namespace, typ string) bool {
	p, ok := ids.ReadPath(string(id))
	sub, _ := ids.Leading(string(id))
	return ok && sub != "" && len(p.Types) == 1 && len(p.Names) == 1 &&
		strings.EqualFold(p.Provider, namespace) && strings.EqualFold(p.Types[0], typ)
}

// Subscription is the subscription id the id starts with, or "".
func (id ResourceID) Subscription() string {
	sub, _ := ids.Leading(string(id))
	return sub
}

// ResourceGroup is the resource group name the id starts with, or "".
func (id ResourceID) ResourceGroup() string {
	_, rg := ids.Leading(string(id))
	return rg
}
