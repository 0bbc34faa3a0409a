// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// RequiredAction is the RBAC action ARM checks for a request the provider
// sends, derived from the request itself: a GET of a resource or of a
// collection needs "<namespace>/<type>[/<child type>…]/read" of the
// innermost provider namespace in the path (a role assignment list under a
// registry is Microsoft.Authorization/roleAssignments/read); a POST is one
// of the read actions of [model.ReadActions] and needs that action. Anything
// else is an error: the provider sends no other request.
//
// It lets tests check, from real traffic, that every request the provider
// makes is covered by the permissions it documents.
func RequiredAction(method, path string) (string, error) {
	path = strings.SplitN(path, "?", 2)[0]
	segs := strings.Split(strings.Trim(path, "/"), "/")
	switch strings.ToUpper(method) {
	case http.MethodGet:
	case http.MethodPost:
		if a, ok := model.ReadActionAt("/" + strings.Join(segs, "/")); ok {
			return a.Action, nil
		}
		return "", fmt.Errorf("POST %s is not one of the read actions the provider may send", path)
	default:
		return "", fmt.Errorf("%s %s: the provider sends only GET and read-only POST requests", method, path)
	}
	last := -1
	for i, s := range segs {
		if strings.EqualFold(s, "providers") {
			last = i
		}
	}
	// providers/{namespace}/{type}[/{name}/{type}…][/{name}]
	if last < 0 || last+2 >= len(segs) {
		return "", fmt.Errorf("GET %s names no resource type", path)
	}
	rest := segs[last+1:]
	parts := []string{rest[0]}
	for i := 1; i < len(rest); i += 2 {
		parts = append(parts, rest[i])
	}
	return strings.Join(parts, "/") + "/read", nil
}
