package model

import (
	"net/netip"
	"strings"
)

// Virtual WAN (docs/design/azure-behaviour.md, "Virtual WAN hubs"): a spoke
// VNet connected to a virtual hub has a peering to the hub's VNet
// (HV_<hub>_<guid>), which lives in a subscription Microsoft owns and can
// never be read. What decides the spoke's routes is the hub: its
// connections (hubVirtualNetworkConnections, each with the route table it
// is associated with and those it propagates to), its route tables and its
// routing intent. Gather reads those and stands the hub's VNet in for the
// unreadable one (HubVNet): the hub's address prefix, its firewall's
// subnet, and one peering back to every connected VNet, so that a packet
// the hub hands to its firewall, or that goes to an address in the hub, is
// followed by the same code as in any VNet.

// HubVNetPrefix starts the name of the VNet Azure deploys for a virtual hub.
const HubVNetPrefix = "HV_"

// IsHubVNet reports whether id names a virtual hub's VNet (HV_<hub>_<guid>).
func IsHubVNet(id ResourceID) bool {
	return strings.HasPrefix(strings.ToUpper(id.Name()), HubVNetPrefix)
}

// Routing intent destinations (routingPolicies[].destinations).
const (
	IntentPrivateTraffic = "PrivateTraffic"
	IntentInternet       = "Internet"
)

// Built-in hub route table names.
const (
	HubDefaultRouteTable = "defaultRouteTable"
	HubNoneRouteTable    = "noneRouteTable"
)

// VirtualHub is a Virtual WAN hub (Microsoft.Network/virtualHubs with a
// virtualWan): the router between the VNets connected to it.
type VirtualHub struct {
	ID       ResourceID
	Name     string
	Location string
	// AddressPrefix is the hub's own address space (addressPrefix).
	AddressPrefix netip.Prefix
	// RouterIPs are virtualRouterIps: the next hop Azure shows for the
	// routes the hub programs into connected VNets.
	RouterIPs []netip.Addr
	// FirewallID is azureFirewall: the secured hub's Azure Firewall.
	FirewallID ResourceID
	// HubVNetID is the id of the hub's VNet as the connected VNets'
	// peerings name it (HV_…); empty when no read peering names it.
	HubVNetID ResourceID
	// VirtualWANID is virtualWan: the hubs of one Virtual WAN are
	// connected to each other (vwan_interhub.go).
	VirtualWANID ResourceID
	// VPNGatewayID and ExpressRouteGatewayID are the hub's site-to-site
	// VPN and ExpressRoute gateways (vpnGateway, expressRouteGateway):
	// branches whose prefixes the hub learns over BGP (vwan_branch.go).
	VPNGatewayID          ResourceID
	ExpressRouteGatewayID ResourceID
	// RoutingState is routingState: the state of the hub's router
	// (Provisioned when it routes; None, Provisioning or Failed
	// otherwise); empty when not reported.
	RoutingState string

	// Connections are hubVirtualNetworkConnections; ConnectionsKnown is
	// false when they could not be listed.
	Connections      []*HubConnection
	ConnectionsKnown bool
	// RouteTables are hubRouteTables (defaultRouteTable, noneRouteTable
	// and custom ones); RouteTablesKnown is false when they could not be
	// listed.
	RouteTables      []*HubRouteTable
	RouteTablesKnown bool
	// Intent is the hub's routing intent (nil: none); IntentKnown is false
	// when it could not be listed.
	Intent      *RoutingIntent
	IntentKnown bool
	// Unmodelled are its settings that can change a pull and are not
	// evaluated (gather's open-world table).
	Unmodelled []UnmodelledSetting
}

// HubConnection is a hubVirtualNetworkConnection: a VNet connected to the
// hub with its routing configuration.
type HubConnection struct {
	ID           ResourceID
	Name         string
	RemoteVNetID ResourceID
	// AssociatedRouteTable is routingConfiguration.associatedRouteTable
	// (defaultRouteTable when unset).
	AssociatedRouteTable ResourceID
	// PropagatedRouteTables and PropagatedLabels are
	// routingConfiguration.propagatedRouteTables: the route tables (by id,
	// or by label) the connection's prefixes are propagated to.
	PropagatedRouteTables []ResourceID
	PropagatedLabels      []string
	// StaticRoutes are routingConfiguration.vnetRoutes.staticRoutes:
	// prefixes the hub sends to an address in the connected VNet (an
	// appliance, which forwards to the VNets peered with it).
	StaticRoutes []HubStaticRoute
	// StaticRoutesNotPropagated is
	// vnetRoutes.staticRoutesConfig.propagateStaticRoutes false: the
	// static routes are not propagated to the route tables the connection
	// propagates to (Azure's default is true).
	StaticRoutesNotPropagated bool
	// BypassStaticRoutesInVNet is
	// vnetRoutes.staticRoutesConfig.vnetLocalRouteOverrideCriteria Equal
	// ("Bypass Next Hop IP for workloads within this VNet"): traffic to
	// the connected VNet's own address space goes straight to it even
	// where a static route of the connection contains it. With Contains
	// (the default) such traffic goes to the static route's next hop.
	BypassStaticRoutesInVNet bool
	// EnableInternetSecurity: a 0.0.0.0/0 route of the hub reaches the VNet.
	EnableInternetSecurity bool
	// InternetSecurityUnrecorded: the read has no enableInternetSecurity
	// (a snapshot written by hand). Azure documents no default, so whether
	// a 0.0.0.0/0 route of the hub reaches the VNet is unknown.
	InternetSecurityUnrecorded bool
	// Unmodelled are its settings that can change a pull and are not
	// evaluated (gather's open-world table).
	Unmodelled []UnmodelledSetting
}

// HubStaticRoute is a static route of a connection: prefixes behind an
// address in the connected VNet.
type HubStaticRoute struct {
	Name      string
	Prefixes  []netip.Prefix
	NextHopIP netip.Addr
}

// StaticRouteFor is the static route of c whose prefix contains dst most
// specifically, if any.
func (c *HubConnection) StaticRouteFor(dst netip.Addr) (HubStaticRoute, netip.Prefix, bool) {
	var best HubStaticRoute
	var bestP netip.Prefix
	found := false
	for _, sr := range c.StaticRoutes {
		for _, p := range sr.Prefixes {
			if p.Contains(dst) && (!found || p.Bits() > bestP.Bits()) {
				best, bestP, found = sr, p, true
			}
		}
	}
	return best, bestP, found
}

// HubRouteTable is a hub route table with its labels and static routes.
type HubRouteTable struct {
	ID     ResourceID
	Name   string
	Labels []string
	Routes []HubRoute
	// Unmodelled are its settings that can change a pull and are not
	// evaluated (gather's open-world table).
	Unmodelled []UnmodelledSetting
}

// HubRoute is a static route of a hub route table: CIDR destinations sent
// to a resource (nextHopType ResourceId): the hub's firewall or a
// connection.
type HubRoute struct {
	Name         string
	Destinations []netip.Prefix
	NextHop      ResourceID
}

// RoutingIntent is a hub's routing intent: where its private and its
// Internet traffic go (the next hop resource, the hub's firewall).
type RoutingIntent struct {
	ID              ResourceID
	PrivateNextHop  ResourceID
	InternetNextHop ResourceID
	UnknownPolicies []string
	// NoNextHop are the destinations (PrivateTraffic, Internet) of routing
	// policies that name no next hop (a snapshot written by hand): Azure
	// requires one, so where that traffic goes is unknown.
	NoNextHop []string
}

// IsNone reports whether t is the hub's noneRouteTable: "Propagating to
// the None route table implies that no routes are required to be
// propagated from the connection" ("About virtual hub routing"), so it
// holds no connection's routes.
func (t *HubRouteTable) IsNone() bool {
	return strings.EqualFold(t.Name, HubNoneRouteTable)
}

// RouteTable returns the hub route table with that id, or nil.
func (h *VirtualHub) RouteTable(id ResourceID) *HubRouteTable {
	for _, t := range h.RouteTables {
		if t.ID.Equal(id) {
			return t
		}
	}
	return nil
}

// HubRoutingProvisioned is the routingState of a hub whose router routes.
const HubRoutingProvisioned = "Provisioned"

// RouterNotReady reports whether the hub reports a routing state other
// than Provisioned: its router is being provisioned, failed, or absent
// ("About virtual hub routing", Hub reset; Reset-AzHubRouter resets it
// "only if the Routing State of the virtual hub is not Provisioned").
func (h *VirtualHub) RouterNotReady() bool {
	return h.RoutingState != "" && !strings.EqualFold(h.RoutingState, HubRoutingProvisioned)
}

// AssociatedTable is the id of the route table c is associated with: its
// associatedRouteTable, or the hub's defaultRouteTable.
func (h *VirtualHub) AssociatedTable(c *HubConnection) ResourceID {
	if !c.AssociatedRouteTable.IsZero() {
		return c.AssociatedRouteTable
	}
	return h.DefaultRouteTable()
}

// RouterIP is the next hop Azure shows for the routes the hub programs
// into its connected VNets: the first of virtualRouterIps, the zero
// address when none was read (the routes still go to the hub).
func (h *VirtualHub) RouterIP() netip.Addr {
	if len(h.RouterIPs) == 0 {
		return netip.Addr{}
	}
	return h.RouterIPs[0].Unmap()
}

// AddBuiltinRouteTables adds to a hub's listed route tables the two every
// virtual hub has ("About virtual hub routing": each hub has its own
// defaultRouteTable, with the label "default", and a None route table):
// a list that lacks one (a snapshot written by hand, a hub the plan
// creates) describes a hub whose built-in table has no static routes,
// since one with routes would be listed.
func (h *VirtualHub) AddBuiltinRouteTables() {
	for _, name := range []string{HubDefaultRouteTable, HubNoneRouteTable} {
		id := ResourceID(string(h.ID) + "/hubRouteTables/" + name)
		if h.RouteTable(id) == nil {
			h.RouteTables = append(h.RouteTables, &HubRouteTable{ID: id, Name: name})
		}
	}
}

// PropagatedStaticRoutes are the static routes c propagates with its
// prefixes to the route tables it propagates to: all of them, none when
// propagateStaticRoutes is false.
func (c *HubConnection) PropagatedStaticRoutes() []HubStaticRoute {
	if c.StaticRoutesNotPropagated {
		return nil
	}
	return c.StaticRoutes
}

// Propagation is whether a connection's prefixes reach a hub route table.
type Propagation int

const (
	// NotPropagated: the connection's prefixes are not in the table.
	NotPropagated Propagation = iota
	// Propagated: they are.
	Propagated
	// PropagationUndocumented: the connection lists route tables but no
	// label, and the table would hold its prefixes only by the label
	// "default". "About virtual hub routing" says a connection that names
	// no label propagates to the label "default"; whether that holds when
	// it names route tables (noneRouteTable, a custom table) is not
	// documented, and Azure does not always write the label back (the
	// Update-AzVirtualHubVnetConnection example reads a connection with
	// "Labels": [] and defaultRouteTable listed).
	PropagationUndocumented
)

// PropagationTo is the one rule for where a connection's prefixes go
// ("About virtual hub routing": propagation, labels, the None route
// table), for a route table t of c's own hub h and of any other hub of its
// Virtual WAN alike:
//   - nothing reaches noneRouteTable;
//   - a table c lists by id gets them;
//   - a table carrying a label c lists gets them (LabelSet: every hub's
//     defaultRouteTable carries "default");
//   - a connection that lists labels propagates nowhere else;
//   - a connection that lists no label propagates to the label "default"
//     ("If no label is specified in the list of labels that a virtual
//     network connection is propagating to, then the virtual network
//     connection will automatically propagate to the 'Default' label"):
//     certainly when it lists no route table either (Azure's default
//     configuration) or only h's defaultRouteTable (how Azure reads that
//     configuration back in the Update-AzVirtualHubVnetConnection
//     example); with other route tables listed, whether the label still
//     applies is undocumented, so a table reached only by it is
//     PropagationUndocumented.
func (h *VirtualHub) PropagationTo(c *HubConnection, t *HubRouteTable) Propagation {
	if t.IsNone() {
		return NotPropagated
	}
	for _, id := range c.PropagatedRouteTables {
		if id.Equal(t.ID) {
			return Propagated
		}
	}
	labels := t.LabelSet()
	for _, l := range c.PropagatedLabels {
		if containsFold(labels, l) {
			return Propagated
		}
	}
	if len(c.PropagatedLabels) > 0 || !containsFold(labels, HubDefaultLabel) {
		return NotPropagated
	}
	if h.listsOnlyDefaultTable(c) {
		return Propagated
	}
	return PropagationUndocumented
}

// listsOnlyDefaultTable reports whether c lists no route table, or only
// its hub h's defaultRouteTable.
func (h *VirtualHub) listsOnlyDefaultTable(c *HubConnection) bool {
	for _, id := range c.PropagatedRouteTables {
		if h == nil || !id.Equal(h.DefaultRouteTable()) {
			return false
		}
	}
	return true
}

// PropagationTargets names where c propagates: its route tables and labels
// in words ("noneRouteTable", "label shared").
func (c *HubConnection) PropagationTargets() string {
	var parts []string
	for _, id := range c.PropagatedRouteTables {
		parts = append(parts, id.Name())
	}
	for _, l := range c.PropagatedLabels {
		parts = append(parts, "label "+l)
	}
	if len(parts) == 0 {
		return HubDefaultRouteTable
	}
	return strings.Join(parts, ", ")
}

// Connection returns the hub's connection of the VNet, or nil.
func (h *VirtualHub) Connection(vnetID ResourceID) *HubConnection {
	for _, c := range h.Connections {
		if c.RemoteVNetID.Equal(vnetID) {
			return c
		}
	}
	return nil
}

// VirtualHub returns the hub with that id, or nil.
func (n *Network) VirtualHub(id ResourceID) *VirtualHub { return lookup(n.VirtualHubs, id) }

// HubOfVNet returns the virtual hub the VNet is connected to and its
// connection, or nils. Deterministic: hubs are tried in id order.
func (n *Network) HubOfVNet(vnetID ResourceID) (*VirtualHub, *HubConnection) {
	var best *VirtualHub
	var conn *HubConnection
	for _, h := range n.VirtualHubs {
		if c := h.Connection(vnetID); c != nil && (best == nil || h.ID.Key() < best.ID.Key()) {
			best, conn = h, c
		}
	}
	return best, conn
}

// HubByVNet returns the hub whose VNet (HV_…) has that id, or nil.
func (n *Network) HubByVNet(hubVNetID ResourceID) *VirtualHub {
	for _, h := range n.VirtualHubs {
		if h.HubVNetID.Equal(hubVNetID) {
			return h
		}
	}
	return nil
}

// HubFirewallSubnet is the id of the subnet the hub's VNet stand-in holds
// the hub's firewall in.
func HubFirewallSubnet(hubVNetID ResourceID) ResourceID {
	return ResourceID(string(hubVNetID) + "/subnets/AzureFirewallSubnet")
}

func (p Propagation) String() string {
	switch p {
	case Propagated:
		return "propagated"
	case PropagationUndocumented:
		return "undocumented"
	}
	return "not propagated"
}
