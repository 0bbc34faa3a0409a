// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// armPath is the ARM path of a request or an op: a resource, or a
// collection of resources, parsed once by ids.Parse.
type armPath struct {
	// rid is the resource; for a collection, an item of it whose name is
	// listItem.
	rid  ids.ResourceID
	list bool
	raw  string
}

// listItem stands for the name of an item of a collection, so that the
// collection's path parses as an item's id.
const listItem = "-"

// parseARMPath parses a resource path, or a collection path (one type
// segment more than names).
func parseARMPath(p string) (armPath, bool) {
	p = strings.TrimSuffix(p, "/")
	if id, err := ids.Parse(p); err == nil && id.Provider != "" {
		return armPath{rid: id, raw: p}, true
	}
	if id, err := ids.Parse(p + "/" + listItem); err == nil && id.Provider != "" {
		return armPath{rid: id, list: true, raw: p}, true
	}
	return armPath{}, false
}

// collection: the path names a list.
func (a armPath) collection() bool { return a.list }

// id is the path as it was given (without a trailing slash).
func (a armPath) id() string { return a.raw }

// ns is the resource provider namespace (of the extension resource, for
// one).
func (a armPath) ns() string { return a.rid.Provider }

// types are the resource types after the namespace, outermost first (a
// collection's last is the type of its items).
func (a armPath) types() []string { return a.rid.Types }

// names are the names of the types; a collection has one fewer.
func (a armPath) names() []string {
	if a.list {
		return a.rid.Names[:len(a.rid.Names)-1]
	}
	return a.rid.Names
}

// scope is what the resource lives in: the resource an extension resource
// extends, else the subscription or resource group.
func (a armPath) scope() string {
	if a.rid.Scope != "" {
		return a.rid.Scope
	}
	s := "/subscriptions/" + a.rid.SubscriptionID
	if a.rid.ResourceGroup != "" {
		s += "/resourceGroups/" + a.rid.ResourceGroup
	}
	return s
}

// typ is the full resource type in lower case, e.g.
// microsoft.network/virtualnetworks/subnets.
func (a armPath) typ() string { return strings.ToLower(a.rid.Type()) }

// parent is the id of the resource a child resource belongs to ("" for a
// top-level resource and for a collection).
func (a armPath) parent() string {
	if a.list {
		return ""
	}
	p, ok := a.rid.Parent()
	if !ok {
		return ""
	}
	return p.String()
}

// top is the top-level resource a resource is or lies in ("" for a
// top-level collection).
func (a armPath) top() string {
	if a.list && len(a.rid.Types) == 1 {
		return ""
	}
	id := a.rid
	for {
		p, ok := id.Parent()
		if !ok {
			return id.String()
		}
		id = p
	}
}

// name is the resource's own name ("" for a collection).
func (a armPath) name() string {
	if a.list {
		return ""
	}
	return a.rid.Name()
}

// relative is the namespace with the type and name segments, as ARM's
// ResourceNotFound message names a resource.
func (a armPath) relative() string {
	parts := []string{a.ns()}
	names := a.names()
	for i, t := range a.types() {
		parts = append(parts, t)
		if i < len(names) {
			parts = append(parts, names[i])
		}
	}
	return strings.Join(parts, "/")
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
