package model

import "net/netip"

// Next hop types as Azure writes them. The set is open: Azure adds types
// (and SDK enums are open strings), so code compares against these but never
// assumes it has seen them all.
const (
	NextHopVnetLocal             = "VnetLocal"
	NextHopVNetPeering           = "VNetPeering"
	NextHopVNetGlobalPeering     = "VNetGlobalPeering"
	NextHopVirtualNetworkGateway = "VirtualNetworkGateway"
	NextHopVirtualAppliance      = "VirtualAppliance"
	NextHopInternet              = "Internet"
	NextHopNone                  = "None"
	NextHopInterfaceEndpoint     = "InterfaceEndpoint"
	NextHopServiceEndpoint       = "VirtualNetworkServiceEndpoint"
	RouteSourceDefault           = "Default"
	RouteSourceUser              = "User"
	RouteSourceGateway           = "VirtualNetworkGateway"
	RouteStateActive             = "Active"
	RouteStateInvalid            = "Invalid"
)

// Route is one route: a user-defined route of a route table, or an entry of
// an effective (or computed effective) route table.
type Route struct {
	// Name is the UDR's name; empty for system routes.
	Name   string
	Prefix netip.Prefix
	// ServiceTag is set instead of Prefix when a UDR's addressPrefix is a
	// service tag, whose members cannot be known offline.
	ServiceTag  string
	NextHopType string
	NextHopIP   netip.Addr
	// Source is Default, User or VirtualNetworkGateway.
	Source string
	// State is Active or Invalid.
	State string
	// Origin says what put the route there, in words (for evidence), e.g.
	// "peering spoke-to-hub" or "route table rt-aks route to-fw".
	Origin string
	// OriginID is the resource behind the route (route table, peering,
	// gateway, private endpoint), when there is one.
	OriginID ResourceID
}

// RouteTable is a route table with its user-defined routes.
type RouteTable struct {
	ID                         ResourceID
	Name                       string
	DisableBGPRoutePropagation bool
	Routes                     []Route
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}
