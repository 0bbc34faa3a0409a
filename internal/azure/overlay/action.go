// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// action answers a POST.
func (o *Overlay) action(req *policy.Request, ops []planned.Op) (*http.Response, error) {
	raw := req.Raw()
	path := strings.TrimSuffix(raw.URL.Path, "/")
	target := path[:max(0, strings.LastIndex(path, "/"))]
	addrsOf := func(match func(planned.Op) bool) []string {
		var out []string
		for _, op := range ops {
			if match(op) && !slices.Contains(out, op.Address) {
				out = append(out, op.Address)
			}
		}
		sort.Strings(out)
		return out
	}
	served := func(match func(planned.Op) bool) {
		var s []planned.Op
		for _, op := range ops {
			if match(op) {
				s = append(s, op)
			}
		}
		noteServed(raw.Context(), s)
	}
	allowed, ok := model.ReadActionAt(raw.URL.EscapedPath())
	if !ok {
		// The guard refuses it below.
		return req.Next()
	}
	switch allowed.WhatIf {
	case model.WhatIfStale:
		match := func(op planned.Op) bool { return ofTypes(typeOf(op.ID), allowed.PlanTypes) }
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedStaleError{Action: path, Addresses: addrs}
		}
	case model.WhatIfBGPOfOwner:
		// Gateways (…/virtualNetworkGateways/{g}/getLearnedRoutes) and
		// Route Servers (…/virtualHubs/{h}/bgpConnections/{c}/learnedRoutes):
		// the owner is the gateway or the hub.
		owner := target
		if tp, ok := parseARMPath(target); ok && tp.top() != "" {
			owner = tp.top()
		}
		match := func(op planned.Op) bool {
			id := strings.ToLower(op.ID)
			return id == strings.ToLower(owner) || strings.HasPrefix(id, strings.ToLower(owner)+"/")
		}
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{"the routes exchanged over BGP by " + owner}}
		}
	case model.WhatIfUnknownWhenTypesChange:
		match := func(op planned.Op) bool { return ofTypes(typeOf(op.ID), allowed.PlanTypes) }
		if addrs := addrsOf(match); len(addrs) > 0 {
			served(match)
			return nil, &azure.PlannedValueUnknownError{ID: path, Address: strings.Join(addrs, ", "), Members: []string{allowed.Words + " of " + target}}
		}
	case model.WhatIfResourceGraph:
		return o.graph(req, ops)
	default:
		// A treatment this switch does not know: answering with the
		// network as it is would hide what the plan changes.
		return nil, fmt.Errorf("what-if: the read action %s has a what-if treatment (%d) the overlay does not answer", allowed.Name(), allowed.WhatIf)
	}
	return req.Next()
}

// ofTypes reports whether the type t is one of types or a child type of
// one.
func ofTypes(t string, types []string) bool {
	for _, rt := range types {
		if t == rt || strings.HasPrefix(t, rt+"/") {
			return true
		}
	}
	return false
}
