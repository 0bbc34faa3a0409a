package model

import (
	"net/netip"
)

// A Virtual WAN hub's effective routes (docs/design/azure-behaviour.md,
// "Virtual WAN hubs"): what the hub's router really holds for a route
// table, as POST virtualHubs/{hub}/effectiveRoutes reports it for the
// resource type RouteTable. Like a NIC's effective route table, it is the
// evidence the routes computed from the hub's configuration are compared
// with (a cross-check, IsCrossCheckRead), and the only evidence of the
// branch prefixes its gateways learn (HasBranchGateway) and of routes from
// hubs of its Virtual WAN the provider did not read; it is read only for
// paths that need it (EvidenceHubEffectiveRoutes).

// HubEffectiveRoutes are the effective routes of one hub route table.
type HubEffectiveRoutes struct {
	// TableID is the route table the routes are of.
	TableID ResourceID
	Routes  []HubEffectiveRoute
}

// HubEffectiveRoute is one effective route of a hub route table: its
// prefixes, the next hop (a hub connection, the hub's Azure Firewall, a
// gateway or a remote hub: NextHops holds resource ids) and the type Azure
// names it with ("Virtual Network Connection", "Azure Firewall", …; an
// open set of strings).
type HubEffectiveRoute struct {
	Prefixes    []netip.Prefix
	NextHopType string
	NextHops    []ResourceID
	Origin      string
}

// HasBranchGateway reports a hub with a site-to-site VPN or ExpressRoute
// gateway: the branch prefixes those learn over BGP are in no resource's
// configuration, and its effective routes are the only evidence of them.
// A hub without one holds only routes its connections, route tables,
// routing intent and the other hubs of its Virtual WAN decide, which the
// routes computed from configuration already are wherever the provider
// read what the path involves: its effective routes are read only for a
// path dropped on the way to a destination no read places
// (routing/vwan_effective.go), not on the chain of every Virtual WAN
// verification.
func (h *VirtualHub) HasBranchGateway() bool {
	return !h.VPNGatewayID.IsZero() || !h.ExpressRouteGatewayID.IsZero()
}

// DefaultRouteTable is the id of the hub's defaultRouteTable.
func (h *VirtualHub) DefaultRouteTable() ResourceID {
	return ResourceID(string(h.ID) + "/hubRouteTables/" + HubDefaultRouteTable)
}

// HubEffective returns the effective routes read for the hub, or nil.
func (n *Network) HubEffective(hubID ResourceID) *HubEffectiveRoutes {
	return lookup(n.HubEffectiveRoutes, hubID)
}

// HubEffectiveStale reports whether the hub's effective routes were not
// read because a planned change alters the hub's routing.
func (n *Network) HubEffectiveStale(hubID ResourceID) bool {
	return n.HubEffectiveUnderPlan[hubID.Key()]
}

// HubEffectiveRoutesAction is the id the read of a hub's effective routes
// is recorded under (POST …/virtualHubs/{hub}/effectiveRoutes): a gap, the
// note that it could not be read.
func HubEffectiveRoutesAction(hubID ResourceID) ResourceID {
	return ResourceID(string(hubID) + "/effectiveRoutes")
}
