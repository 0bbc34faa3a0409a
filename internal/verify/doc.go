// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package verify decides, for every node pool and every registry hostname a
// pull touches, whether a freshly created node can pull an image, and says
// why not in findings addressed to the owner who must act (FINDINGS.md).
//
// It is pure: it reads Facts (everything gathered from Azure Resource
// Manager, or a snapshot of it) and asks the route engine about flows
// through the Tracer interface. It never performs I/O, never imports the
// SDK, and never guesses: a fact it does not have makes the conclusion that
// needed it unverified, with the permission or resource that was missing.
//
// A path follows the chain of BRIEF.md in order — resolve the name through
// the resolver the node really uses, route there and back, TLS name, pull
// identity — and stops at the first broken link, so each problem is
// reported once, by its cause, with the most specific code.
//
// NodeRoutes evaluates pullpath_node_routes the same way: from the route
// sets gather read (model.NodeRouteFacts) and the destinations, each set's
// routes and each destination traced with the route engine, the security
// rules on the path and the return path, in the same finding vocabulary.
package verify
