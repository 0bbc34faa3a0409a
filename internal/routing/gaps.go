package routing

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// GapError is returned when the subnet a computation starts from (or its
// VNet) could not be read: nothing can be concluded, and the gap says why.
type GapError struct{ Gap model.Gap }

func (e *GapError) Error() string {
	return fmt.Sprintf("routing: %s is missing (%s): %s", e.Gap.ResourceID, e.Gap.Kind, e.Gap.Detail)
}

// GapOf is the missing fact behind an error of EffectiveRoutes for a
// subnet: the GapError's gap, or the error itself as an unavailable read of
// the subnet.
func GapOf(subnetID model.ResourceID, err error) model.Gap {
	var ge *GapError
	if errors.As(err, &ge) {
		return ge.Gap
	}
	return model.Gap{ResourceID: subnetID, Kind: model.GapUnavailable, Detail: err.Error()}
}

// gapFor returns the gap the reader recorded for id, or, when the resource is
// merely absent from the model, a synthesized one of the given kind.
func gapFor(net *model.Network, id model.ResourceID, kind model.GapKind, detail string) model.Gap {
	if g, ok := net.Gaps.Lookup(id); ok {
		return g
	}
	if kind == model.GapNotFound && !ancestorFailed(net, id) {
		// No read of it (or of what holds it) failed: it was not read.
		return model.UnreadGap(id, detail)
	}
	return model.Gap{ResourceID: id, Kind: kind, Detail: detail}
}

// scopedGap is a missing fact together with the destinations it could
// change, so that a gap about one peered VNet does not make every path
// unverified.
type scopedGap struct {
	gap model.Gap
	// scope limits the gap to destinations inside these prefixes; nil means
	// every destination.
	scope []netip.Prefix
	// publicOnly: only public destinations (service tags and service
	// endpoints cover public Azure ranges).
	publicOnly bool
	// bgpOnly: the missing fact is a set of BGP routes, which cannot change
	// the selection inside a protected system route's prefix.
	bgpOnly bool
	// serviceEndpoint: the missing fact is a service endpoint's prefixes.
	// Where the route otherwise selected is Internet, the packet reaches the
	// public service either way (over the backbone or not), so routing does
	// not depend on it (which source address the service then sees is the
	// registry's network rules' concern, not a route's).
	serviceEndpoint bool
	// standInOnly: the gap concerns only PublicStandIn, a public address
	// Resource Manager does not name, which may lie in the prefixes of a
	// service tag the routes were expanded from; every named address is
	// decided by the expanded routes. Such a gap is not one of the table's
	// (Computed.Gaps).
	standInOnly bool
	// sameHop, when set, is the next hop of the routes behind the gap:
	// where the route otherwise selected has the same next hop, the
	// packet goes the same way either way and the gap does not apply.
	sameHop *model.Route
	// defaultOnly: the missing fact is a 0.0.0.0/0 gateway route, which
	// changes the selection only where a default route that is not a
	// user-defined one is selected (any longer prefix, and a UDR, win).
	defaultOnly bool
	// privateNone: the missing fact is whether a default None route of a
	// private or shared range is in the table (privateNoneUnknown): it
	// changes the route only where such a None route is selected.
	privateNone bool
}

// PublicStandIn stands for an Internet address Resource Manager does not
// name (a registry's public address, its blob storage). It is a
// documentation address (RFC 5737, TEST-NET-2) that no Azure default None
// route, no service tag and no sensible user-defined route covers, so the
// flow takes the route any Internet address without a more specific route
// takes: the default route. Routes expanded from service tags (user-defined
// routes by tag, service endpoints) may cover the real address, so where
// they would send it elsewhere, a trace to the stand-in is unverified.
var PublicStandIn = netip.MustParseAddr("198.51.100.200")

// applies reports whether the gap could change the route of dst in c.
func (g scopedGap) applies(c *Computed, dst netip.Addr) bool {
	if g.standInOnly && dst != PublicStandIn {
		return false
	}
	if g.publicOnly && IsPrivate(dst) {
		return false
	}
	if g.scope != nil && !anyContains(g.scope, dst) {
		return false
	}
	if g.bgpOnly && c.inProtectedSpace(dst) {
		return false
	}
	if g.serviceEndpoint {
		if r, ok := c.Table.Lookup(dst); ok && strings.EqualFold(r.NextHopType, model.NextHopInternet) {
			return false
		}
	}
	if g.defaultOnly {
		if r, ok := c.Table.Lookup(dst); ok && (r.Prefix.Bits() > 0 || strings.EqualFold(r.Source, model.RouteSourceUser)) {
			return false
		}
	}
	if g.privateNone {
		if r, ok := c.Table.Lookup(dst); !ok || !isPrivateNone(&r) {
			return false
		}
	}
	if g.sameHop != nil {
		if r, ok := c.Table.Lookup(dst); ok && strings.EqualFold(r.NextHopType, g.sameHop.NextHopType) &&
			r.NextHopIP == g.sameHop.NextHopIP {
			return false
		}
	}
	return true
}

// appendGap appends a gap unless the same one (resource and detail) is there.
func appendGap(gaps []model.Gap, g model.Gap) []model.Gap {
	for _, have := range gaps {
		if have.ResourceID.Equal(g.ResourceID) && have.Detail == g.Detail {
			return gaps
		}
	}
	return append(gaps, g)
}

// unknownFact reports whether a planned change leaves fact f of an object
// unknown until apply (model.UnknownFacts).
func unknownFact(u model.UnknownFacts, f model.Fact) bool {
	_, ok := u.Of(f)
	return ok
}

// ancestorFailed reports whether the read of a resource that holds id (a
// subnet's VNet) failed.
func ancestorFailed(net *model.Network, id model.ResourceID) bool {
	for at := id.Parent(); !at.IsZero(); at = at.Parent() {
		if _, ok := net.Gaps.Lookup(at); ok {
			return true
		}
	}
	return false
}
