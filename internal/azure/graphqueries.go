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

type hubConnectionQueryKey struct{}

// WithHubConnectionQuery returns ctx for the Resource Graph request that
// sends q.KQL() (see [WithResolverEndpointQuery]).
func WithHubConnectionQuery(ctx context.Context, q model.HubConnectionQuery) context.Context {
	return context.WithValue(ctx, hubConnectionQueryKey{}, q)
}

// HubConnectionQueryOf is the Virtual WAN hub connection query a request's
// context carries (see [WithHubConnectionQuery]).
func HubConnectionQueryOf(ctx context.Context) (model.HubConnectionQuery, bool) {
	q, ok := ctx.Value(hubConnectionQueryKey{}).(model.HubConnectionQuery)
	return q, ok
}
