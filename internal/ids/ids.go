// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package ids parses Azure Resource Manager resource ids into typed values.
//
// ARM treats the keywords of an id (subscriptions, resourceGroups, providers)
// and the resource provider namespace and types case-insensitively, and
// echoes names back in whatever casing they were created with. The parser
// therefore accepts any casing of keywords, keeps names exactly as given, and
// compares types with strings.EqualFold. It is strict about structure,
// because a malformed id given to a data source would otherwise turn into a
// confusing 404 (or a request for the wrong resource) at read time.
// ReadPath is the lenient reading of paths the provider built or Azure
// returned, listings and read actions included.
package ids

import (
	"fmt"
	"strings"
)

// ResourceID is a parsed ARM resource id, for example
//
//	/subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.Network/virtualNetworks/{v}/subnets/{sn}
//
// parses into SubscriptionID s, ResourceGroup rg, Provider
// Microsoft.Network, Types [virtualNetworks subnets] and Names [v sn].
//
// Extension resources (a resource under another resource's
// /providers/{ns}/… segment, such as a role assignment on a registry) keep
// the id they extend in Scope; Provider, Types and Names then describe the
// extension resource itself.
type ResourceID struct {
	// SubscriptionID is the subscription GUID as written.
	SubscriptionID string
	// ResourceGroup is empty for subscription-level resources.
	ResourceGroup string
	// Provider is the resource provider namespace, e.g. Microsoft.Network;
	// empty for the id of a subscription or a resource group.
	Provider string
	// Types and Names are the type/name pairs after the namespace, outermost
	// first; always of equal length.
	Types []string
	Names []string
	// Scope is the id an extension resource is attached to, or "".
	Scope string

	raw string
}

// ParseError says what is wrong with an id. Reason is written to complete
// the sentence "the resource id … ", so that validators and diagnostics can
// compose it with the attribute that held the id.
type ParseError struct {
	ID     string
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("invalid resource id %q: %s", e.ID, e.Reason)
}

// Keywords of an ARM id, matched case-insensitively.
const (
	kwSubscriptions  = "subscriptions"
	kwResourceGroups = "resourceGroups"
	kwProviders      = "providers"
)

// Parse parses an ARM resource id. The id must be absolute
// (/subscriptions/{guid}/…), have no empty segment, no trailing slash, and
// type/name pairs after every provider namespace.
func Parse(s string) (ResourceID, error) {
	fail := func(format string, args ...any) (ResourceID, error) {
		return ResourceID{}, &ParseError{ID: s, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case s == "":
		return fail("is empty")
	case strings.TrimSpace(s) != s:
		return fail("has leading or trailing whitespace")
	case strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://"):
		return fail("is a URL; pass only the path that starts with /subscriptions/")
	case !hasPrefixFold(s, "/"+kwSubscriptions+"/"):
		return fail("does not start with /subscriptions/")
	case len(s) > 1 && strings.HasSuffix(s, "/"):
		return fail("ends with a trailing slash; remove it")
	}
	if i := strings.IndexFunc(s, badRune); i >= 0 {
		return fail("contains the character %q at offset %d, which an ARM id cannot hold", s[i], i)
	}

	segs := strings.Split(s[1:], "/")
	for i, seg := range segs {
		if seg == "" {
			return fail("has an empty segment after %q (a doubled slash)", "/"+strings.Join(segs[:i], "/"))
		}
	}

	id := ResourceID{raw: s}
	// segs[0] is "subscriptions" (checked above).
	if len(segs) < 2 {
		return fail("has no subscription id after /subscriptions/")
	}
	id.SubscriptionID = segs[1]
	if !IsGUID(id.SubscriptionID) {
		return fail("has subscription %q, which is not a GUID (subscription names are not accepted; use the subscription id)", id.SubscriptionID)
	}
	rest := segs[2:]

	if len(rest) > 0 && keyword(rest[0], kwResourceGroups) {
		if len(rest) < 2 {
			return fail("has no resource group name after /resourceGroups/")
		}
		id.ResourceGroup = rest[1]
		rest = rest[2:]
	}
	if len(rest) == 0 {
		return id, nil // a subscription or a resource group
	}

	// From here on: providers/{namespace}/{type}/{name}[/{type}/{name}…],
	// possibly repeated for extension resources.
	if !keyword(rest[0], kwProviders) {
		return fail("has %q where /providers/ (or /resourceGroups/) was expected", rest[0])
	}
	consumed := len(segs) - len(rest)
	for len(rest) > 0 {
		if !keyword(rest[0], kwProviders) {
			// Unreachable: the loop below stops only at "providers" or the end.
			return fail("has %q where /providers/ was expected", rest[0])
		}
		if len(rest) < 2 {
			return fail("has no resource provider namespace after /providers/")
		}
		ns := rest[1]
		if !strings.Contains(ns, ".") {
			return fail("has resource provider namespace %q, which has no dot (expected a namespace such as Microsoft.Network)", ns)
		}
		if id.Provider != "" {
			// An extension resource: what came before is its scope.
			id.Scope = "/" + strings.Join(segs[:consumed], "/")
		}
		id.Provider, id.Types, id.Names = ns, nil, nil
		rest = rest[2:]
		consumed += 2
		if len(rest) == 0 {
			return fail("has no resource type after the namespace %s", ns)
		}
		for len(rest) > 0 && !keyword(rest[0], kwProviders) {
			if len(rest) < 2 {
				return fail("has resource type %q without a name after it", rest[0])
			}
			id.Types = append(id.Types, rest[0])
			id.Names = append(id.Names, rest[1])
			rest = rest[2:]
			consumed += 2
		}
	}
	return id, nil
}

// MustParse is Parse for ids known to be valid (tests, constants).
func MustParse(s string) ResourceID {
	id, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return id
}

// String is the id exactly as it was parsed.
func (id ResourceID) String() string { return id.raw }

// Type is the full resource type, e.g. Microsoft.Network/virtualNetworks/subnets;
// empty for a subscription or a resource group id.
func (id ResourceID) Type() string {
	if id.Provider == "" {
		return ""
	}
	return id.Provider + "/" + strings.Join(id.Types, "/")
}

// ReadPermission is the RBAC action a GET of id needs: its full type plus
// "/read" (Microsoft.Network/virtualNetworks/read); "" for an id that does
// not parse or has no type. Used where the read did not record a more
// specific action.
func ReadPermission(id string) string {
	p, err := Parse(id)
	if err != nil || p.Type() == "" {
		return ""
	}
	return p.Type() + "/read"
}

// Name is the resource's own name (the last name segment); for a resource
// group id the group's name, for a subscription id the subscription id.
func (id ResourceID) Name() string {
	switch {
	case len(id.Names) > 0:
		return id.Names[len(id.Names)-1]
	case id.ResourceGroup != "":
		return id.ResourceGroup
	default:
		return id.SubscriptionID
	}
}

// IsType reports whether the id is of the given full type, compared
// case-insensitively the way ARM does.
func (id ResourceID) IsType(fullType string) bool {
	return id.Type() != "" && strings.EqualFold(id.Type(), fullType)
}

// Parent is the id of the enclosing resource (a subnet's virtual network),
// or false for a top-level resource.
func (id ResourceID) Parent() (ResourceID, bool) {
	if len(id.Types) < 2 {
		return ResourceID{}, false
	}
	p := id
	p.Types = append([]string(nil), id.Types[:len(id.Types)-1]...)
	p.Names = append([]string(nil), id.Names[:len(id.Names)-1]...)
	p.raw = trimLastPair(id.raw)
	return p, true
}

// Canonical is the id rebuilt from its parts with the keywords in their
// documented casing; names, namespace and types stay as given.
func (id ResourceID) Canonical() string {
	var b strings.Builder
	if id.Scope != "" {
		scope, err := Parse(id.Scope)
		if err == nil {
			b.WriteString(scope.Canonical())
		} else {
			b.WriteString(id.Scope)
		}
	} else {
		b.WriteString("/" + kwSubscriptions + "/" + id.SubscriptionID)
		if id.ResourceGroup != "" {
			b.WriteString("/" + kwResourceGroups + "/" + id.ResourceGroup)
		}
	}
	if id.Provider != "" {
		b.WriteString("/" + kwProviders + "/" + id.Provider)
		for i := range id.Types {
			b.WriteString("/" + id.Types[i] + "/" + id.Names[i])
		}
	}
	return b.String()
}

func trimLastPair(s string) string {
	for range 2 {
		if i := strings.LastIndexByte(s, '/'); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && keyword(s[:len(prefix)], prefix)
}

// keyword compares an id segment with a keyword, ignoring ASCII case only:
// ARM does not fold Unicode look-alikes (such as U+017F, which
// strings.EqualFold equates with "s").
func keyword(seg, kw string) bool {
	if len(seg) != len(kw) {
		return false
	}
	for i := 0; i < len(seg); i++ {
		a, b := seg[i], kw[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// badRune reports characters that cannot be part of an ARM id path: they
// would change the request URL (query, fragment), are Windows path separators
// pasted by mistake, or are control characters and whitespace.
func badRune(r rune) bool {
	switch r {
	case '?', '#', '\\', ' ', '\t', '\n', '\r':
		return true
	}
	return r < 0x20 || r == 0x7f
}

// IsGUID reports the 8-4-4-4-12 hex form ARM uses for subscription (and
// tenant) ids, any case: the one check of it in the provider.
func IsGUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// Path is a Resource Manager request path read leniently: the id of a
// resource, or of a listing (…/virtualNetworks, …/privateDnsZones/z/ALL) or
// a read action (…/networkInterfaces/n/effectiveRouteTable) below one.
// Where Parse validates what a user typed, ReadPath reads what the provider
// built or Azure returned, so it checks no subscription GUID and no casing:
// it only splits the path at its last /providers/{namespace} segment.
type Path struct {
	// Scope is the path before the last /providers/ segment, as written
	// (for an extension resource, the id it extends); "" when there is none.
	Scope string
	// Provider is the namespace after the last /providers/ segment.
	Provider string
	// Types and Names are the segments after the namespace, alternating,
	// outermost first, as written. Names has one element fewer than Types
	// for a listing or an action.
	Types []string
	Names []string
}

// ReadPath splits s at its last /providers/{namespace} segment that is
// followed by at least a type; false when s has none. Leading and trailing
// slashes are ignored.
func ReadPath(s string) (Path, bool) {
	segs := strings.Split(strings.Trim(s, "/"), "/")
	at := -1
	for i, seg := range segs {
		if keyword(seg, kwProviders) && i+1 < len(segs) {
			at = i
		}
	}
	if at < 0 || at+2 >= len(segs) {
		return Path{}, false
	}
	p := Path{Provider: segs[at+1]}
	if at > 0 {
		p.Scope = "/" + strings.Join(segs[:at], "/")
	}
	rest := segs[at+2:]
	for i := 0; i < len(rest); i += 2 {
		p.Types = append(p.Types, rest[i])
		if i+1 < len(rest) {
			p.Names = append(p.Names, rest[i+1])
		}
	}
	return p, true
}

// Type is the namespace and the types, as written
// (Microsoft.Network/virtualNetworks/subnets; for a listing or an action
// the last type is its final segment).
func (p Path) Type() string {
	return p.Provider + "/" + strings.Join(p.Types, "/")
}

// Trailing is the final segment of a listing or an action
// (virtualNetworks, ALL, effectiveRouteTable), or "" for a resource.
func (p Path) Trailing() string {
	if len(p.Names) < len(p.Types) {
		return p.Types[len(p.Types)-1]
	}
	return ""
}

// NameOf is the name that follows the first of the path's types equal to
// typ (compared case-insensitively), or "": in a security admin rule's path
// NameOf("ruleCollections") is its collection's name.
func (p Path) NameOf(typ string) string {
	for i, t := range p.Types {
		if i < len(p.Names) && strings.EqualFold(t, typ) {
			return p.Names[i]
		}
	}
	return ""
}

// Leading reads the subscription and resource group a path starts with
// (/subscriptions/{s}[/resourceGroups/{rg}]…), keywords in any case; each is
// "" when the path does not name it there.
func Leading(s string) (subscription, resourceGroup string) {
	segs := strings.Split(strings.Trim(s, "/"), "/")
	if len(segs) < 2 || !keyword(segs[0], kwSubscriptions) {
		return "", ""
	}
	if len(segs) >= 4 && keyword(segs[2], kwResourceGroups) {
		return segs[1], segs[3]
	}
	return segs[1], ""
}
