// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

// RouteSource says where a pool's routes came from.
type RouteSource string

// Route sources.
const (
	// RouteSourceEffective: the effective route table Azure reported for a
	// NIC of the pool (standalone NICs of running VMs).
	RouteSourceEffective RouteSource = "effective"
	// RouteSourceComputed: computed from configuration, because scale-set
	// instance NICs have no effective-route API and a pool at zero nodes
	// has no NIC at all.
	RouteSourceComputed RouteSource = "computed"
)
