// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import "strings"

// armPath is an ARM path split at its last /providers/: the scope (a
// subscription, resource group or resource) and the provider namespace with
// the type and name segments.
type armPath struct {
	scope string
	ns    string
	segs  []string
}

func parseARMPath(p string) (armPath, bool) {
	p = strings.TrimSuffix(p, "/")
	i := strings.LastIndex(strings.ToLower(p), "/providers/")
	if i < 0 {
		return armPath{}, false
	}
	rest := strings.Split(p[i+len("/providers/"):], "/")
	if len(rest) < 2 || rest[0] == "" {
		return armPath{}, false
	}
	for _, s := range rest {
		if s == "" {
			return armPath{}, false
		}
	}
	return armPath{scope: p[:i], ns: rest[0], segs: rest[1:]}, true
}

// collection: the path names a list (type segments one more than names).
func (a armPath) collection() bool { return len(a.segs)%2 == 1 }

// id is the path as a resource id.
func (a armPath) id() string {
	return a.scope + "/providers/" + a.ns + "/" + strings.Join(a.segs, "/")
}

// typ is the full resource type in lower case, e.g.
// microsoft.network/virtualnetworks/subnets.
func (a armPath) typ() string {
	parts := []string{strings.ToLower(a.ns)}
	for i := 0; i < len(a.segs); i += 2 {
		parts = append(parts, strings.ToLower(a.segs[i]))
	}
	return strings.Join(parts, "/")
}

// parent is the id of the resource a child resource belongs to ("" for a
// top-level resource).
func (a armPath) parent() string {
	if len(a.segs) < 4 || a.collection() {
		return ""
	}
	return a.scope + "/providers/" + a.ns + "/" + strings.Join(a.segs[:len(a.segs)-2], "/")
}

// lastSegment is the last segment of a path.
func lastSegment(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// refID is the id of an ARM reference ({"id": …}).
func refID(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["id"].(string)
	return s
}

func typeOf(id string) string {
	p, ok := parseARMPath(id)
	if !ok {
		return ""
	}
	return p.typ()
}
