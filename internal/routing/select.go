package routing

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Route selection, as Azure documents it ("How Azure selects a route"):
//
//  1. Longest prefix match.
//  2. Among routes with the same prefix: user-defined route > BGP route
//     (source VirtualNetworkGateway) > system route (source Default).
//  3. Exception: the system routes for the VNet's own address space
//     (VnetLocal), for VNet peering (VNetPeering, VNetGlobalPeering) and for
//     service endpoints are preferred even over a BGP route that is more
//     specific: a BGP route can never override them, a UDR can. Private
//     endpoint /32 routes (InterfaceEndpoint) are system routes of the same
//     kind and are treated alike.
//  4. Routes in state Invalid are not used.
//
// Rule 3 is applied per destination address: a BGP route is not selectable
// for an address that a protected system route of the same or a shorter
// prefix contains. The protection comes from the address space itself, so it
// holds even where a same-prefix UDR overrides the system route (which Azure
// then lists as Invalid).

// sourceRank orders route sources for same-prefix ties (rule 2). Unknown
// sources rank lowest: Azure's set is open, and an unknown source must never
// beat a user-defined route.
func sourceRank(r *model.Route) int {
	switch {
	case strings.EqualFold(r.Source, model.RouteSourceUser):
		return 3
	case strings.EqualFold(r.Source, model.RouteSourceGateway):
		return 2
	case strings.EqualFold(r.Source, model.RouteSourceDefault):
		return 1
	}
	return 0
}

// tagRank orders same-prefix user-defined routes by how they name the
// prefix ("Virtual network traffic routing", service tags for user-defined
// routes): a route with an explicit prefix wins over one expanded from a
// service tag; among tags, a regional tag (Storage.EastUS), then a
// top-level tag (Storage), then a regional AzureCloud tag
// (AzureCloud.eastasia), then AzureCloud. Lower is better; routes that
// are not user-defined routes by tag rank 0.
func tagRank(r *model.Route) int {
	if r.ServiceTag == "" || !r.Prefix.IsValid() {
		return 0
	}
	base, _, regional := strings.Cut(r.ServiceTag, ".")
	switch cloud := strings.EqualFold(base, "AzureCloud"); {
	case !cloud && regional:
		return 1
	case !cloud:
		return 2
	case regional:
		return 3
	}
	return 4
}

// isBGP reports whether a route was learned from a virtual network gateway.
func isBGP(r *model.Route) bool { return strings.EqualFold(r.Source, model.RouteSourceGateway) }

// isActive reports whether a route takes part in selection (rule 4).
func isActive(r *model.Route) bool { return !strings.EqualFold(r.State, model.RouteStateInvalid) }

// isProtectedSystem reports whether a route is a system route that BGP can
// never override (rule 3).
func isProtectedSystem(r *model.Route) bool {
	if !strings.EqualFold(r.Source, model.RouteSourceDefault) {
		return false
	}
	switch {
	case strings.EqualFold(r.NextHopType, model.NextHopVnetLocal),
		strings.EqualFold(r.NextHopType, model.NextHopVNetPeering),
		strings.EqualFold(r.NextHopType, model.NextHopVNetGlobalPeering),
		strings.EqualFold(r.NextHopType, model.NextHopServiceEndpoint),
		strings.EqualFold(r.NextHopType, model.NextHopInterfaceEndpoint):
		return true
	}
	return false
}

// betterSamePrefix reports whether route a (at index ia) wins over route b
// (at index ib) when both have the same prefix: by source (rule 2); among
// system routes a protected one before None/Internet (a peered prefix equal
// to a default None range carries traffic, it is not dropped); finally the
// earlier route, so that selection is deterministic (Azure merges equal
// same-source routes, e.g. ECMP gateway next hops, into one entry).
func betterSamePrefix(a *model.Route, ia int, b *model.Route, ib int) bool {
	if ra, rb := sourceRank(a), sourceRank(b); ra != rb {
		return ra > rb
	}
	if ta, tb := tagRank(a), tagRank(b); ta != tb {
		return ta < tb
	}
	if pa, pb := isProtectedSystem(a), isProtectedSystem(b); pa != pb {
		return pa
	}
	return ia < ib
}

// prefixChoice is what one prefix contributes to selection: the winner when
// no protected system route covers the address (best), the winner when one
// does and BGP routes are out (bestNoBGP), and whether a protected system
// route sits at this very prefix. -1 means none.
type prefixChoice struct {
	best, bestNoBGP int32
	protected       bool
}

// choose computes the prefixChoice of the routes (indexes into routes) that
// share one prefix.
func choose(t *Table, idx []int32) prefixChoice {
	c := prefixChoice{best: -1, bestNoBGP: -1}
	for _, i := range idx {
		r := t.at(i)
		if isProtectedSystem(r) {
			c.protected = true // whatever its state: see rule 3 above
		}
		if !isActive(r) {
			continue
		}
		if c.best < 0 || betterSamePrefix(r, int(i), t.at(c.best), int(c.best)) {
			c.best = i
		}
		if !isBGP(r) && (c.bestNoBGP < 0 || betterSamePrefix(r, int(i), t.at(c.bestNoBGP), int(c.bestNoBGP))) {
			c.bestNoBGP = i
		}
	}
	return c
}

// winner is the route this prefix selects given whether a protected system
// route at this or a shorter prefix covers the address.
func (c prefixChoice) winner(protectedAbove bool) int32 {
	if protectedAbove || c.protected {
		return c.bestNoBGP
	}
	return c.best
}

// chooseOne is choose for a route alone at its prefix (at index i).
func chooseOne(r *model.Route, i int32) prefixChoice {
	c := prefixChoice{best: -1, bestNoBGP: -1, protected: isProtectedSystem(r)}
	if isActive(r) {
		c.best = i
		if !isBGP(r) {
			c.bestNoBGP = i
		}
	}
	return c
}

// shifted is the choice with its route indexes moved by n (a block's
// choice at the block's place in a table).
func (c prefixChoice) shifted(n int32) prefixChoice {
	if c.best >= 0 {
		c.best += n
	}
	if c.bestNoBGP >= 0 {
		c.bestNoBGP += n
	}
	return c
}
