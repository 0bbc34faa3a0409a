package routing

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// checkPrivateEndpointReplyHub: a private endpoint in a VNet connected to
// a virtual hub replies to the nodes' address, in a VNet connected to a
// hub too, with the routes the hub programs into the endpoint's VNet
// (replies bypass user-defined routes, not the absence of any route):
// those of the route table the endpoint VNet's connection is associated
// with ("About virtual hub routing"). Where that table does not receive
// the nodes' connection, the endpoint's VNet has no route to the nodes
// but its default route to the Internet, which drops a private address:
// RETURN_ROUTE_MISSING on the nodes' connection.
func (e *Engine) checkPrivateEndpointReplyHub(res *Result) {
	net := e.net
	pe := net.PrivateEndpoint(res.Arrival.PrivateEndpointID)
	if pe == nil {
		return
	}
	nodeVNet := vnetOfSubnet(net, res.From)
	peVNet := vnetOfSubnet(net, pe.SubnetID)
	if peVNet.Equal(nodeVNet) {
		return
	}
	peHub, peConn := net.HubOfVNet(peVNet)
	nodeHub, nodeConn := net.HubOfVNet(nodeVNet)
	if peHub == nil || nodeHub == nil {
		return
	}
	back, err := e.EffectiveRoutes(pe.SubnetID)
	if err != nil {
		return // the forward trace already carries what is missing
	}
	if r, ok := back.Table.Lookup(res.Source); ok && !dropsPrivate(r) {
		return
	}
	if gs := back.GapsFor(res.Source); len(gs) > 0 {
		for _, g := range gs {
			res.Gaps = appendGap(res.Gaps, g)
		}
		res.Return.Verdict = model.Unverified
		res.Return.Note = fmt.Sprintf("whether %s has a route back to %s rests on what was not read", back.vnet.Name, res.Source)
		return
	}
	assoc := peHub.RouteTable(peHub.AssociatedTable(peConn))
	if assoc == nil {
		return // hubRoutes named the table as a gap
	}
	via := "route table " + assoc.Name
	if labels := assoc.LabelSet(); len(labels) > 0 {
		via += " (labels " + strings.Join(labels, ", ") + ")"
	}
	hubs := "virtual hub " + peHub.Name
	if !nodeHub.ID.Equal(peHub.ID) {
		hubs = fmt.Sprintf("virtual hub %s (the nodes' VNet is connected to virtual hub %s of the same Virtual WAN)", peHub.Name, nodeHub.Name)
	}
	f := newFinding(model.ReturnRouteMissing, nodeConn.ID, res.From, nil,
		"replies from private endpoint %s (%s) cannot return to %s: %s is connected to %s by connection %s, associated with %s, which connection %s of the nodes' VNet does not propagate to (it propagates to %s); so %s has no route to %s and drops the replies.",
		pe.Name, res.Destination, res.Source, back.vnet.Name, hubs, peConn.Name, via, nodeConn.Name, nodeConn.PropagationTargets(), SubnetLabel(pe.SubnetID), res.Source)
	f.Remediation = fmt.Sprintf("Add route table %s of virtual hub %s (or one of its labels) to the propagated route tables of connection %s of virtual hub %s (routingConfiguration.propagatedRouteTables), so that %s learns the nodes' address space.%s",
		assoc.Name, peHub.Name, nodeConn.Name, nodeHub.Name, back.vnet.Name, timeoutNote)
	res.Findings = appendFinding(res.Findings, f)
	res.Return.Verdict, res.Return.Note = model.Unreachable, f.Message
}

// dropsPrivate reports whether route r drops a private address: None, or
// the Internet.
func dropsPrivate(r model.Route) bool {
	return strings.EqualFold(r.NextHopType, model.NextHopNone) || strings.EqualFold(r.NextHopType, model.NextHopInternet)
}
