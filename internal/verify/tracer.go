// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Tracer is what verification needs from the route engine: for one flow
// from a node pool, the hops it takes and every route, return-route,
// security-rule, coverage and evidence finding on the way. Verification
// never computes routes itself.
type Tracer interface {
	Trace(n *model.Network, q RouteQuery) RouteResult
}

// RouteQuery is one flow a pull needs.
type RouteQuery struct {
	// Pool is the node pool the flow starts from (its NICs decide whether
	// effective routes exist); SubnetID is its subnet.
	Pool     *model.NodePool
	SubnetID model.ResourceID
	// Dest is the destination address. When Public is true the destination
	// is an Internet address that Resource Manager does not name (a public
	// DNS answer, blob storage): Dest is invalid and the flow takes the
	// route an arbitrary Internet address would take.
	Dest   netip.Addr
	Public bool
	// Protocol (Tcp, Udp) and Port of the flow: Tcp 443 to a registry
	// endpoint, Udp 53 to a DNS server.
	Protocol string
	Port     uint16
}

// RouteResult is the route engine's answer for one flow.
type RouteResult struct {
	// Hops are the steps from the node subnet to the destination, in words.
	Hops []string
	// Source says whether effective or computed routes were used.
	Source RouteSource
	// Findings are the route engine's conclusions (route, return_route,
	// security, coverage and evidence codes). Verification fills in node
	// pool and endpoint where the engine left them empty.
	Findings []model.Finding
	// Gaps are the missing facts the route depends on; each becomes an
	// evidence finding on the path, which is then unverified.
	Gaps []model.Gap
	// Needs is the pending evidence (model.Network.Pending) the flow
	// reached; see Result.Needs.
	Needs []model.Evidence
}
