package snapshot

import (
	"fmt"
	"path"
	"strings"
)

// ARM treats resource paths case-insensitively and so does every lookup
// here: ids in a snapshot often differ in case from the paths the SDK builds
// (resourceGroups/MC_rg… in an id, resourcegroups/mc_rg… in a request).

// normPath is the lookup form of an ARM path: cleaned (no duplicate or
// trailing slash), lower case.
func normPath(p string) string {
	return strings.ToLower(path.Clean("/" + p))
}

// segments splits a path in lookup form into its segments.
func segments(norm string) []string {
	trimmed := strings.Trim(norm, "/")
	if trimmed == "" {
		return nil
	}
	return strings.Split(trimmed, "/")
}

type pathShape int

const (
	shapeInvalid    pathShape = iota // not an ARM resource path
	shapeItem                        // names one resource: GET returns it or 404
	shapeCollection                  // names a list: GET returns {"value": [...]}
)

// shapeOf classifies lower-case segments by the ARM URL grammar:
//
//	/subscriptions/{s}[/resourceGroups/{rg}]{/providers/{ns}/{type}/{name}{/{type}/{name}}}
//
// where a nested /providers/{ns} starts an extension resource (role
// assignments on a registry). A path that stops after a type names a
// collection; one that stops after a name names a resource.
func shapeOf(segs []string) pathShape {
	n := len(segs)
	if n == 0 {
		return shapeInvalid
	}
	i := 0
	switch segs[0] {
	case "subscriptions":
		if n == 1 {
			return shapeCollection
		}
		i = 2
		if n > 2 && segs[2] == "resourcegroups" {
			if n == 3 {
				return shapeCollection
			}
			i = 4
		}
	case "providers":
	default:
		return shapeInvalid
	}
	for i < n {
		if segs[i] == "providers" {
			if i+2 >= n { // a namespace without a type
				return shapeInvalid
			}
			i += 2
		}
		if i+1 == n {
			return shapeCollection
		}
		i += 2
	}
	return shapeItem
}

// checkPath rejects what cannot be a path as the SDK sends it: the snapshot
// is matched on paths, so a full URL, a query string or an empty segment is
// always a mistake in the file.
func checkPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("the path is empty")
	case strings.Contains(p, "://"):
		return fmt.Errorf("use the path only, without scheme and host (e.g. \"/subscriptions/…\")")
	case !strings.HasPrefix(p, "/"):
		return fmt.Errorf("the path must start with \"/\" (e.g. \"/subscriptions/…\")")
	case strings.ContainsAny(p, "?#"):
		return fmt.Errorf("drop the query string: matching ignores it (api-version included)")
	}
	if strings.TrimSpace(p) != p {
		return fmt.Errorf("remove the spaces around the path")
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("the path contains a control character")
		}
	}
	for _, seg := range strings.Split(p[1:], "/") {
		switch seg {
		case "":
			return fmt.Errorf("remove the empty path segment (a doubled or trailing \"/\")")
		case ".", "..":
			return fmt.Errorf("remove the %q path segment", seg)
		}
	}
	return nil
}

// checkID validates a resource id: a path that names one resource.
func checkID(id string) error {
	if err := checkPath(id); err != nil {
		return err
	}
	switch shapeOf(segments(normPath(id))) {
	case shapeItem:
		return nil
	case shapeCollection:
		return fmt.Errorf("%q names a collection, not a resource; use the id from the resource's GET body", id)
	default:
		return fmt.Errorf("%q is not an ARM resource id (expected /subscriptions/{id}/resourceGroups/{rg}/providers/{namespace}/{type}/{name}…)", id)
	}
}

// parseKey splits an actions or faults key "METHOD /path" and returns the
// upper-case method and the path as written.
func parseKey(key string) (method, p string, err error) {
	method, p, ok := strings.Cut(key, " ")
	if !ok {
		return "", "", fmt.Errorf("write the key as \"METHOD /path\", e.g. \"POST /subscriptions/…/effectiveRouteTable\"")
	}
	method = strings.ToUpper(method)
	if method != "GET" && method != "POST" {
		return "", "", fmt.Errorf("method %q: the replay answers only GET and POST", method)
	}
	if err := checkPath(p); err != nil {
		return "", "", err
	}
	return method, p, nil
}

// lookupKey is the form keys and requests are matched in.
func lookupKey(method, p string) string {
	return strings.ToUpper(method) + " " + normPath(p)
}

// isDirectChild reports whether child (lookup form) is parent/{type}/{name}.
func isDirectChild(parent, child string) bool {
	rest, ok := strings.CutPrefix(child, parent+"/")
	if !ok || parent == "/" {
		return false
	}
	typ, name, ok := strings.Cut(rest, "/")
	return ok && typ != "" && name != "" && !strings.Contains(name, "/")
}
