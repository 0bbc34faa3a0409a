// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// What the session knows of planned_changes_file: the what-if overlay
// (internal/azure/overlay) is a per-call policy the provider hands to
// NewSession ([WithPlannedChanges]); the session places it and classifies
// its answers ([Gap]), but neither reads the plan nor imports planned.

// SessionOption adds to what NewSession builds.
type SessionOption func(*Session)

// WithPlannedChanges places the what-if overlay of planned_changes_file in
// the per-call pipeline, above the cache (see NewSession). nil adds
// nothing.
func WithPlannedChanges(overlay policy.Policy) SessionOption {
	return func(s *Session) { s.overlay = overlay }
}

// PlannedChangesError is err (the plan file could not be read or
// translated) as the error of the planned_changes_file argument.
func PlannedChangesError(err error) error {
	return argError(argPlannedChanges, "%s: %w", argRef(argPlannedChanges), err)
}

// PlannedValueUnknownError is the answer to a read of a resource the plan
// sets a value of that is known only after apply: what depends on it cannot
// be concluded until then. [Gap] files it as model.GapPlannedUnknown.
type PlannedValueUnknownError struct {
	// ID is the resource (or action) that was read.
	ID string
	// Address is the planned change (or changes, ", "-joined).
	Address string
	// Members are the unknown values, as dotted paths, or what is unknown
	// in words.
	Members []string
	// Values are the unknown members one by one, each with the resource
	// whose body holds it (the resource read, or a child it embeds: a
	// subnet of a VNet) and the change that leaves it unknown; empty when
	// the answer as a whole is unknown (a list, an action).
	Values []PlannedUnknownValue
}

// PlannedUnknownValue is one member of a planned resource that is known
// only after apply.
type PlannedUnknownValue struct {
	// ID is the resource whose body holds the member: the resource read,
	// or an embedded child of it.
	ID string
	// Member is the dotted path into that resource's body
	// (properties.dhcpOptions.dnsServers).
	Member string
	// Address is the planned change that leaves it unknown.
	Address string
}

// knownPart receives the unknown values of one read made with
// [WithKnownPart].
type knownPart struct {
	mu      sync.Mutex
	unknown *PlannedValueUnknownError
}

type knownPartKey struct{}

// WithKnownPart returns ctx for one read that accepts a partly unknown
// answer: a resource the planned changes leave partly unknown until apply
// is answered with what is known (the unknown members left out of the
// body) instead of failing with [PlannedValueUnknownError], and unknown
// gives that error, with its Values, after the read (nil when nothing was
// unknown). The caller must then treat each unknown value as unknown, or
// the whole answer as the error (what a read without this context gets).
// Only a GET of one resource is answered so; lists and actions fail as
// without it.
func WithKnownPart(ctx context.Context) (_ context.Context, unknown func() *PlannedValueUnknownError) {
	k := &knownPart{}
	return context.WithValue(ctx, knownPartKey{}, k), func() *PlannedValueUnknownError {
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.unknown
	}
}

// AcceptKnownPart reports whether the read of ctx accepts a partly unknown
// answer ([WithKnownPart]) and, when it does, records what is unknown: the
// answering policy (the what-if overlay) then answers with the known part.
func AcceptKnownPart(ctx context.Context, unknown *PlannedValueUnknownError) bool {
	k, _ := ctx.Value(knownPartKey{}).(*knownPart)
	if k == nil || unknown == nil || len(unknown.Values) == 0 {
		return false
	}
	k.mu.Lock()
	k.unknown = unknown
	k.mu.Unlock()
	return true
}

func (e *PlannedValueUnknownError) Error() string {
	return fmt.Sprintf("%s is known only after apply (planned change %s)", strings.Join(e.Members, ", "), e.Address)
}

// PlannedStaleError answers an action whose answer is what Azure computes
// from the network as it is now (a NIC's effective route table) when the
// plan changes that network: the answer would describe the network before
// the plan. Gather computes the routes from the planned configuration
// instead.
type PlannedStaleError struct {
	// Action is the action's path.
	Action string
	// Addresses are the planned changes that make it stale.
	Addresses []string
}

func (e *PlannedStaleError) Error() string {
	return fmt.Sprintf("%s describes the network before the planned changes (%s)", e.Action, strings.Join(e.Addresses, ", "))
}

// IsPlannedStale reports whether err is a [PlannedStaleError].
func IsPlannedStale(err error) bool {
	var e *PlannedStaleError
	return errors.As(err, &e)
}

// PeekBody reads a response's body and puts it back, so that the response
// can still be read.
func PeekBody(resp *http.Response) ([]byte, bool) { return peekBody(resp) }

// PageKey identifies a collection's pages by the URL of the first: host
// and path without case (ARM paths are case-insensitive), no query.
func PageKey(u *url.URL) string { return pollKey(&url.URL{Host: u.Host, Path: u.Path}) }

type zonesByLinksKey struct{}

// WithZonesFoundByLinks returns ctx for a read of a list of private DNS
// zones whose caller learns which zones answer the nodes from the Resource
// Graph search for zone links (model.ZoneLinkQuery), which sees the links
// a plan creates: a policy (the what-if overlay) may then leave out of the
// list a zone the plan creates whose name is known only after apply, when
// every link the plan may give it names its VNet. Whether that zone can
// answer the nodes is then the link search's to tell, by those VNets.
func WithZonesFoundByLinks(ctx context.Context) context.Context {
	return context.WithValue(ctx, zonesByLinksKey{}, true)
}

// ZonesFoundByLinks reports whether ctx is a read of WithZonesFoundByLinks.
func ZonesFoundByLinks(ctx context.Context) bool {
	v, _ := ctx.Value(zonesByLinksKey{}).(bool)
	return v
}
