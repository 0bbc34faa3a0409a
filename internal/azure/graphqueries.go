// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"context"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

type graphSearchKey struct{}

// WithGraphSearch returns ctx for the Resource Graph request that sends
// s.KQL(): the request carries the search it asks, so that a policy (the
// what-if overlay) knows it without reading the text.
func WithGraphSearch(ctx context.Context, s model.GraphSearch) context.Context {
	return context.WithValue(ctx, graphSearchKey{}, s)
}

// GraphSearchOf is the Resource Graph search a request's context carries
// (see [WithGraphSearch]).
func GraphSearchOf(ctx context.Context) (model.GraphSearch, bool) {
	s, ok := ctx.Value(graphSearchKey{}).(model.GraphSearch)
	return s, ok
}
