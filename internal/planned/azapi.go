package planned

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// azapi_resource and azapi_update_resource: their body is already the ARM
// body; the type is "Microsoft.X/y@api-version".

// azapiType splits "Microsoft.X/y/z@2024-01-01" into its resource type.
func azapiType(t *changeTranslation) (string, error) {
	v := t.get("type")
	s := v.str()
	if s == "" {
		return "", fmt.Errorf("its type is %s", unknownOrMissing(v))
	}
	typ := s
	if i := strings.IndexByte(s, '@'); i >= 0 {
		typ = s[:i]
	}
	if strings.Count(typ, "/") < 1 || strings.HasPrefix(typ, "/") || strings.HasSuffix(typ, "/") {
		return "", fmt.Errorf("its type %q is not a resource type such as Microsoft.Network/virtualNetworks@2024-05-01", s)
	}
	return typ, nil
}

// azapiID is the id of an azapi resource: parent_id and name, with the
// type's last segment (a child of the parent's type) or the whole type
// under /providers (a top-level or extension resource).
func azapiID(t *changeTranslation) (string, error) {
	typ, err := azapiType(t)
	if err != nil {
		return "", err
	}
	parent, err := t.requiredRef("parent_id")
	if err != nil {
		return "", err
	}
	name, err := t.name("name")
	if err != nil {
		return "", err
	}
	segs := strings.Split(typ, "/")
	if len(segs) > 2 {
		// A child type: its parent must be of the type without the last segment.
		return strings.TrimRight(parent, "/") + "/" + segs[len(segs)-1] + "/" + name, nil
	}
	return strings.TrimRight(parent, "/") + "/providers/" + typ + "/" + name, nil
}

func putAzapi(t *changeTranslation, id string) error {
	typ, err := azapiType(t)
	if err != nil {
		return err
	}
	body, unknown, err := azapiBody(t)
	if err != nil {
		return err
	}
	body["id"] = id
	body["name"] = lastName(id)
	body["type"] = typ
	if loc := t.get("location").str(); loc != "" {
		body["location"] = normLocation(loc)
	}
	if tags, ok := t.get("tags").v.(map[string]any); ok && len(tags) > 0 {
		body["tags"] = tags
	}
	if _, ok := body["properties"]; !ok {
		body["properties"] = map[string]any{}
	}
	completeReadOnly(typ, body)
	op := t.op(OpPut, id, body)
	op.Unknown = append(op.Unknown, unknown...)
	return nil
}

// completeReadOnly adds the read-only members Azure reports once a
// resource of the pull path is applied, which a request body has not.
func completeReadOnly(typ string, body map[string]any) {
	p, ok := body["properties"].(map[string]any)
	if !ok {
		return
	}
	switch strings.ToLower(typ) {
	case strings.ToLower(typeZoneLink):
		if _, ok := p["virtualNetworkLinkState"]; !ok {
			p["virtualNetworkLinkState"] = "Completed"
		}
		if _, ok := p["resolutionPolicy"]; !ok {
			p["resolutionPolicy"] = "Default"
		}
	}
	if _, ok := p["provisioningState"]; !ok {
		p["provisioningState"] = "Succeeded"
	}
}

// azapiBody is the ARM body of an azapi resource (an object, or a JSON
// string in azapi v1) and the dotted paths of its unknown members.
func azapiBody(t *changeTranslation) (map[string]any, []string, error) {
	v := t.get("body")
	if v.unknown() {
		return map[string]any{}, []string{"properties"}, nil
	}
	switch b := v.v.(type) {
	case nil:
		return map[string]any{}, nil, nil
	case string:
		if strings.TrimSpace(b) == "" {
			return map[string]any{}, nil, nil
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(b), &m); err != nil {
			return nil, nil, fmt.Errorf("its body is not a JSON object: %w", err)
		}
		return m, nil, nil
	case map[string]any:
		m, _ := deepCopy(b).(map[string]any) // a copy of a map is a map
		var unknown []string
		unknownPaths(v.u, "", &unknown)
		return m, unknown, nil
	}
	return nil, nil, fmt.Errorf("its body is a %T, not an object", v.v)
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// unknownPaths lists the dotted paths where an after_unknown tree is true
// (list elements as [i]).
func unknownPaths(u any, prefix string, out *[]string) {
	switch u := u.(type) {
	case bool:
		if u {
			*out = append(*out, prefix)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(u)) {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			unknownPaths(u[k], p, out)
		}
	case []any:
		for i, x := range u {
			unknownPaths(x, fmt.Sprintf("%s[%d]", prefix, i), out)
		}
	}
}

// azapiUpdateID is the id of the resource an azapi_update_resource
// changes: resource_id, or parent_id and name.
func azapiUpdateID(t *changeTranslation) (string, error) {
	if id, ok := t.refID("resource_id"); ok {
		if !validID(id) {
			return "", fmt.Errorf("its resource_id %q is not an ARM resource id", id)
		}
		return id, nil
	}
	if t.get("parent_id").null() {
		if t.get("resource_id").unknown() {
			return "", fmt.Errorf("its resource_id is known only after apply and refers to no resource of this plan whose id can be built")
		}
		return "", fmt.Errorf("it has neither resource_id nor parent_id and name")
	}
	return azapiID(t)
}

// putAzapiUpdate is the body of an azapi_update_resource as a merge patch.
func putAzapiUpdate(t *changeTranslation, id string) error {
	body, unknown, err := azapiBody(t)
	if err != nil {
		return err
	}
	op := t.op(OpPatch, id, body)
	op.Unknown = append(op.Unknown, unknown...)
	return nil
}

// delNothing: removing the resource from the configuration changes
// nothing in Azure (azapi_update_resource).
func delNothing(*changeTranslation, string) error { return nil }
