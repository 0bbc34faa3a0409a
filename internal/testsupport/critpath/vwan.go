// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package critpath

import (
	"maps"
	"slices"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// hubReads are the reads of one Virtual WAN hub the evidence reads follow.
type hubReads struct {
	hub                   *model.VirtualHub
	firewall              *Read
	conns, tables, intent *Read
}

// virtualHubs adds the reads of the Virtual WAN hubs the VNets read so far
// are connected to: the Resource Graph search for their hub connection
// after the VNet reads that show a peering to the hub's VNet, the hub and
// its connections, route tables and routing intent after the search, the
// VNets the connections name (into vnetRead) and the hub's firewall after
// the hub.
func virtualHubs(g *graph, n *model.Network, vnetRead map[string]*Read) []hubReads {
	var out []hubReads
	for _, key := range slices.Sorted(maps.Keys(n.VirtualHubs)) {
		h := n.VirtualHubs[key]
		var peered *Read
		for _, vk := range slices.Sorted(maps.Keys(vnetRead)) {
			if v := n.VNets[vk]; v != nil && !h.HubVNetID.IsZero() && v.PeeringTo(h.HubVNetID) != nil {
				peered = latest(peered, vnetRead[vk])
			}
		}
		if peered == nil {
			continue
		}
		search := g.add("ResourceGraph/resources (hub connections of the VNets peered with "+h.HubVNetID.Name()+")", true, peered)
		hr := hubReads{hub: h}
		hub := g.add(short(h.ID), false, search)
		hr.conns = g.add(short(h.ID)+"/hubVirtualNetworkConnections", false, search)
		hr.tables = g.add(short(h.ID)+"/hubRouteTables", false, search)
		hr.intent = g.add(short(h.ID)+"/routingIntent", false, search)
		for _, c := range h.Connections {
			if n.VNet(c.RemoteVNetID) != nil && vnetRead[c.RemoteVNetID.Key()] == nil {
				vnetRead[c.RemoteVNetID.Key()] = g.add(short(c.RemoteVNetID), false, hr.conns)
			}
		}
		if !h.FirewallID.IsZero() && n.Firewall(h.FirewallID) != nil {
			hr.firewall = g.add(short(h.FirewallID), false, hub)
		}
		out = append(out, hr)
	}
	return out
}

// hubEvidence adds what only paths through a hub read, for a verdict that
// reached it, once the hub's routes (its connections, route tables and
// intent) and the destination's address show the path uses the hub: the
// effective routes of its defaultRouteTable, and the rules of its
// firewall (the policy chain, then its rule collection groups).
func hubEvidence(g *graph, f model.Facts, hubs []hubReads, needs []model.Evidence) {
	needed := map[string]bool{}
	for _, ev := range needs {
		needed[ev.Key()] = true
	}
	n := f.Network
	for _, hr := range hubs {
		routed := []*Read{hr.conns, hr.tables, hr.intent, dnsAnswers(g, f)}
		if needed[model.HubEffectiveRoutesOf(hr.hub.ID).Key()] {
			g.add(short(hr.hub.ID)+"/effectiveRoutes", true, routed...)
		}
		fw := n.Firewall(hr.hub.FirewallID)
		if fw == nil || hr.firewall == nil || !needed[model.FirewallRulesOf(fw.ID).Key()] {
			continue
		}
		at := hr.firewall
		for id := fw.PolicyID; !id.IsZero(); {
			pol := g.add(short(id), false, append(routed, at)...)
			g.add(short(id)+"/ruleCollectionGroups", false, pol)
			at = pol
			p := n.FirewallPolicy(id)
			if p == nil {
				break
			}
			id = p.BasePolicyID
		}
	}
}
