package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// PrivateNonePrefixes are the documented default routes with next hop None
// (Azure "Virtual network traffic routing", default system routes): the RFC
// 1918 ranges and RFC 6598 shared space. Traffic to them is dropped unless a
// more specific route (the VNet's space, a peering, a gateway route, a UDR)
// takes it.
var PrivateNonePrefixes = mustPrefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10")

// ReservedNonePrefixes are further default None routes that every published
// effective-route dump shows (Microsoft Learn training modules, the
// azure-powershell issue tracker, community write-ups, old and new): address
// ranges Microsoft reserves. Azure does not document them, and the longer
// list varies by region and over time (see ReservedNoneLegacy and
// ReservedNoneCurrent); this is the part every variant shares, and the
// default of EffectiveRoutes.
var ReservedNonePrefixes = mustPrefixes(
	"25.4.0.0/14", "198.18.0.0/15", "157.59.0.0/16", "40.109.0.0/16", "104.147.0.0/16",
	"104.146.0.0/17", "40.108.0.0/17", "23.103.0.0/18", "20.35.252.0/22",
)

// ReservedNoneLegacy are the variant-specific extra None routes of the
// older, widely published dumps (Learn modules; the scenarios of this
// project). Pass ReservedNonePrefixes plus these as Options.ReservedNone to
// reproduce such a region exactly.
var ReservedNoneLegacy = mustPrefixes("25.48.0.0/12", "25.33.0.0/16", "25.41.0.0/20")

// ReservedNoneCurrent are the variant-specific extra None routes of more
// recent dumps (2023 on), which replace the legacy 25.x ranges and add the
// loopback range.
var ReservedNoneCurrent = mustPrefixes(
	"127.0.0.0/8", "25.148.0.0/15", "25.150.0.0/16", "25.152.0.0/14", "25.156.0.0/16",
	"25.159.0.0/16", "25.176.0.0/13", "25.184.0.0/14",
)

// ReservedNoneFromEffective extracts the reserved None set from a real
// effective route table (every Default None route that is not one of the
// private ranges), so that computed tables of the same region match the real
// ones exactly. It returns nil when the table has none (use the default).
func ReservedNoneFromEffective(effective []model.Route) []netip.Prefix {
	var out []netip.Prefix
	for _, r := range effective {
		if !strings.EqualFold(r.Source, model.RouteSourceDefault) || !strings.EqualFold(r.NextHopType, model.NextHopNone) || !r.Prefix.IsValid() {
			continue
		}
		if containsPrefix(PrivateNonePrefixes, r.Prefix) || containsPrefix(out, r.Prefix) {
			continue
		}
		out = append(out, r.Prefix.Masked())
	}
	return out
}

// defaultRoutes are the default system routes of a subnet in a VNet with
// the given address space: 0.0.0.0/0 to Internet (and ::/0 when the VNet has
// IPv6 space), then the None routes. udrs are the subnet's user-defined
// routes: a 0.0.0.0/0 one takes the private None routes out (see
// removesPrivateNone).
//
// A None range inside the VNet's own space is not dropped: "If you assign
// any of the previous address ranges within the address space of a virtual
// network, Azure automatically changes the next hop type for the route from
// None to Virtual network. If you assign an address range that includes, but
// isn't the same as, one of the reserved prefixes, Azure removes the route
// for the prefix." Both cases leave exactly the VNet's VnetLocal route, so
// the None route is omitted when a VNet prefix equals or contains it. A VNet
// prefix inside a None range (10.1.0.0/16 in 10.0.0.0/8) leaves the None
// route in place, as every real dump shows: the VnetLocal route simply wins
// by length. The same rule is applied to the reserved ranges.
func defaultRoutes(space []netip.Prefix, reserved []netip.Prefix, udrs []model.Route) []model.Route {
	out := []model.Route{defaultRoute(netip.MustParsePrefix("0.0.0.0/0"), model.NextHopInternet)}
	for _, p := range space {
		if p.Addr().Is6() {
			out = append(out, defaultRoute(netip.MustParsePrefix("::/0"), model.NextHopInternet))
			break
		}
	}
	groups := [][]netip.Prefix{PrivateNonePrefixes, reserved}
	if removesPrivateNone(udrs) {
		groups = groups[1:]
	}
	for _, group := range groups {
		for _, n := range group {
			if coveredBySpace(space, n) {
				continue
			}
			out = append(out, defaultRoute(n, model.NextHopNone))
		}
	}
	return out
}

// removesPrivateNone reports whether the subnet's user-defined routes take
// the None routes of the private and shared ranges (PrivateNonePrefixes)
// out of its table: an active user-defined route for 0.0.0.0/0, whatever
// its next hop. "Virtual network traffic routing", routing example: "Azure
// removed the routes for the 10.0.0.0/8, 192.168.0.0/16, and 100.64.0.0/10
// address prefixes from the Subnet1 route table when the user-defined route
// for the 0.0.0.0/0 address prefix was added to Subnet1". 172.16.0.0/12 is
// taken out with them: the article's default table lists it with the other
// three as one group, and its Subnet2 table, which has no 0.0.0.0/0 route,
// leaves it out as well, so the example's silence about it is the example's,
// not a different rule (azure-behaviour.md R2). A 0.0.0.0/0 user-defined
// route listed Invalid (to a gateway that is not there) removes nothing
// here; privateNoneUnknown makes those destinations unverified instead.
func removesPrivateNone(udrs []model.Route) bool {
	for i := range udrs {
		if r := &udrs[i]; isDefaultPrefix4(r.Prefix) && strings.EqualFold(r.Source, model.RouteSourceUser) && isActive(r) {
			return true
		}
	}
	return false
}

// privateNoneUnknown is the gap of a table whose private None routes stay
// (no active 0.0.0.0/0 user-defined route) beside a 0.0.0.0/0 route that
// Microsoft does not say anything about: one learned over BGP (a VPN or
// ExpressRoute gateway's forced tunnelling, a Route Server, a Virtual WAN
// hub's default route), or a 0.0.0.0/0 user-defined route Azure lists
// Invalid. Microsoft documents the removal for a user-defined route only,
// so where the table would drop a destination on a private None route, the
// drop is unverified, never confident. bgp are the gateway, Route Server
// and hub routes the subnet carries (none when the route table disables
// their propagation); only their 0.0.0.0/0 routes are looked at, nothing
// is copied.
func privateNoneUnknown(subnet model.ResourceID, udrs []model.Route, bgp ...[]model.Route) []scopedGap {
	if removesPrivateNone(udrs) {
		return nil
	}
	var out []scopedGap
	for _, list := range append(bgp, udrs) {
		for i := range list {
			r := &list[i]
			if !isDefaultPrefix4(r.Prefix) {
				continue
			}
			// A BGP route counts when active; a user-defined one only when
			// Invalid (an active one removes the routes, above).
			user := strings.EqualFold(r.Source, model.RouteSourceUser)
			if user == isActive(r) {
				continue
			}
			what := fmt.Sprintf("a route for 0.0.0.0/0 learned over BGP (%s, next hop %s)", r.Origin, hopLabel(*r))
			if user {
				what = fmt.Sprintf("the user-defined route for 0.0.0.0/0 (%s), which Azure lists Invalid", r.Origin)
			}
			out = append(out, scopedGap{gap: model.Gap{ResourceID: r.OriginID, Kind: model.GapUnavailable,
				Detail:      fmt.Sprintf("subnet %s has %s; Microsoft documents that a user-defined route for 0.0.0.0/0 removes the default None routes of 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 and 100.64.0.0/10, but not whether this route does, so whether Azure drops the traffic on those None routes is not known", SubnetLabel(subnet), what),
				Remediation: "Check the effective routes of a node's network interface (az network nic show-effective-route-table): if they list no None route for the destination's range, the traffic follows the 0.0.0.0/0 route. Or add a user-defined route for the destination's range (or for 0.0.0.0/0) to the node subnet's route table, then plan again."},
				privateNone: true})
			return out
		}
	}
	return out
}

// isDefaultPrefix4 reports whether p is 0.0.0.0/0.
func isDefaultPrefix4(p netip.Prefix) bool { return p.IsValid() && p.Addr().Is4() && p.Bits() == 0 }

// isPrivateNone reports whether r is one of the default None routes of the
// private and shared ranges.
func isPrivateNone(r *model.Route) bool {
	return strings.EqualFold(r.Source, model.RouteSourceDefault) && strings.EqualFold(r.NextHopType, model.NextHopNone) &&
		containsPrefix(PrivateNonePrefixes, r.Prefix)
}

func defaultRoute(p netip.Prefix, hop string) model.Route {
	return model.Route{Prefix: p, NextHopType: hop, Source: model.RouteSourceDefault, State: model.RouteStateActive, Origin: "default"}
}

// coveredBySpace reports whether a VNet prefix equals or contains p.
func coveredBySpace(space []netip.Prefix, p netip.Prefix) bool {
	for _, s := range space {
		if covers(s, p) {
			return true
		}
	}
	return false
}

func containsPrefix(list []netip.Prefix, p netip.Prefix) bool {
	for _, q := range list {
		if q.Masked() == p.Masked() {
			return true
		}
	}
	return false
}

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}
