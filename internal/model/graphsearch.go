// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// GraphSearch is one Azure Resource Graph search the provider sends: the
// one value that says what the search is. Gather sends its KQL text with
// the search on the request's context (azure.WithGraphSearch); the what-if
// overlay knows the request by that search, never by reading KQL, and
// answers it as after the plan from RowType, Row and Base; the snapshot
// replay answers every search with the resources of the RowType of each
// search of GraphSearches. A new search is a type implementing this
// interface and its zero value in graphSearches (TestGraphSearchesListed
// fails without it).
type GraphSearch interface {
	// KQL is the query's text.
	KQL() string
	// RowType is the resource type (lower case) the rows of its answer
	// are: a planned change of a resource of this type, or a delete of a
	// resource above it, changes the answer.
	RowType() string
	// What names what it finds, in words ("the private DNS zone links").
	What() string
	// Row is the row the search answers for the resource id whose ARM
	// body (after the plan) is body, and whether the search includes it.
	Row(id string, body map[string]any) (map[string]any, bool)
	// Base is the part of the resource a row of the answer stands for
	// that a planned patch starts from (the resource as the row shows it).
	Base(row map[string]any) map[string]any
}

// graphSearches are the Resource Graph searches the provider sends, one
// zero value of each, in the order the snapshot replay answers their rows.
var graphSearches = []GraphSearch{ZoneLinkQuery{}, HubConnectionQuery{}, ResolverEndpointQuery{}}

// GraphSearches returns one value of every Resource Graph search the
// provider sends (a copy).
func GraphSearches() []GraphSearch { return append([]GraphSearch(nil), graphSearches...) }

// propsOf is the properties object of an ARM body (nil when it has none).
func propsOf(body map[string]any) map[string]any {
	props, _ := body["properties"].(map[string]any)
	return props
}
