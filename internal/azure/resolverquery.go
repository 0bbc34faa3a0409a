// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"context"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

type resolverEndpointQueryKey struct{}

// WithResolverEndpointQuery returns ctx for the Resource Graph request
// that sends q.KQL(): the request carries the query it asks, so that a
// policy (the what-if overlay) knows it without reading the text.
func WithResolverEndpointQuery(ctx context.Context, q model.ResolverEndpointQuery) context.Context {
	return context.WithValue(ctx, resolverEndpointQueryKey{}, q)
}

// ResolverEndpointQueryOf is the resolver inbound endpoint query a
// request's context carries (see [WithResolverEndpointQuery]).
func ResolverEndpointQueryOf(ctx context.Context) (model.ResolverEndpointQuery, bool) {
	q, ok := ctx.Value(resolverEndpointQueryKey{}).(model.ResolverEndpointQuery)
	return q, ok
}
