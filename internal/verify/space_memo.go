// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// spaceMemo memoises security.VirtualNetworkSpace per VNet of one network:
// the space includes every prefix a gateway learned (10,000 BGP routes are
// common), and a verification asks for it on every traced flow.
type spaceMemo struct {
	net *model.Network
	m   map[string]security.Space
}

// get returns the VirtualNetwork tag space of vnetID in n, computed once
// per network and VNet. Not safe for concurrent use (the tracer is not).
func (c *spaceMemo) get(n *model.Network, vnetID model.ResourceID) security.Space {
	if c.net != n || c.m == nil {
		c.net, c.m = n, map[string]security.Space{}
	}
	k := vnetID.Key()
	if s, ok := c.m[k]; ok {
		return s
	}
	s := security.VirtualNetworkSpace(n, vnetID)
	c.m[k] = s
	return s
}

// SpacesOf returns what the VirtualNetwork tag means per VNet of n, each
// VNet's space computed once (for CheckSecurity callers other than the
// RoutingTracer). Not safe for concurrent use.
func SpacesOf(n *model.Network) func(model.ResourceID) security.Space {
	memo := &spaceMemo{}
	return func(id model.ResourceID) security.Space { return memo.get(n, id) }
}
