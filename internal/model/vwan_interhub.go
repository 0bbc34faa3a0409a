package model

import (
	"net/netip"
	"sort"
	"strings"
)

// Hub-to-hub routing ("About virtual hub routing"): the hubs of a Standard
// Virtual WAN are connected to each other. A connection that propagates to
// a label reaches every route table with that label in every hub of the
// Virtual WAN; defaultRouteTable carries the built-in label "default",
// which is where a connection without a propagation configuration
// propagates. A hub with a private routing policy sends its connections'
// traffic, inter-hub traffic included, through its firewall ("How to
// configure Virtual WAN Hub routing intent and routing policies").

// HubDefaultLabel is the built-in label of every hub's defaultRouteTable.
const HubDefaultLabel = "default"

// OtherHubsOfWAN returns the hubs read of h's Virtual WAN other than h, in
// id order; none when h's Virtual WAN is unknown.
func (n *Network) OtherHubsOfWAN(h *VirtualHub) []*VirtualHub {
	if h == nil || h.VirtualWANID.IsZero() {
		return nil
	}
	var out []*VirtualHub
	for _, o := range n.VirtualHubs {
		if o != h && !o.ID.Equal(h.ID) && o.VirtualWANID.Equal(h.VirtualWANID) {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}

// LabelSet returns t's labels, with the built-in "default" of
// defaultRouteTable whether or not the read lists it.
func (t *HubRouteTable) LabelSet() []string {
	out := append([]string(nil), t.Labels...)
	if strings.EqualFold(t.Name, HubDefaultRouteTable) && !containsFold(out, HubDefaultLabel) {
		out = append(out, HubDefaultLabel)
	}
	return out
}

// PrivatePolicy reports whether h has a private traffic routing policy.
func (h *VirtualHub) PrivatePolicy() bool {
	return h.Intent != nil && !h.Intent.PrivateNextHop.IsZero()
}

// ReachesRemoteTable reports whether the prefixes of connection c of hub
// h reach route table t of another hub of the same Virtual WAN: with a
// private routing policy on h, its connections propagate to its
// noneRouteTable and the other hubs' defaultRouteTables reach them through
// its firewall; otherwise by c's propagation (PropagationTo, the same rule
// as within h).
func (h *VirtualHub) ReachesRemoteTable(c *HubConnection, t *HubRouteTable) Propagation {
	if h.PrivatePolicy() {
		if strings.EqualFold(t.Name, HubDefaultRouteTable) {
			return Propagated
		}
		return NotPropagated
	}
	return h.PropagationTo(c, t)
}

// RemoteAddress is a destination in a VNet outside the network's closure
// (Network.RemoteAddresses).
type RemoteAddress struct {
	// VNetID is the VNet that holds the address.
	VNetID ResourceID
	// What the address is, for messages: "private endpoint address",
	// "DNS private resolver inbound endpoint".
	What string
}

// Remote address kinds (RemoteAddress.What).
const (
	RemotePrivateEndpoint = "private endpoint address"
	RemoteResolverInbound = "DNS private resolver inbound endpoint"
)

// HubSpokesInClosure reports whether a VNet of n's closure is, or may be,
// a Virtual WAN hub spoke: a hub was read, or the hub of a VNet of the
// closure is pending (EvidencePeerHub: an NVA VNet the nodes' VNet is
// peered with, whose hub routes to the other spokes of its Virtual WAN).
func (n *Network) HubSpokesInClosure() bool {
	if len(n.VirtualHubs) > 0 {
		return true
	}
	for _, e := range n.Pending {
		if e.Kind == EvidencePeerHub {
			return true
		}
	}
	return false
}

// MarkRemoteAddress records that addr, a destination some path may go
// to, lies in VNet vnetID, and, when that VNet is outside n's closure
// while n's VNets are connected to a virtual hub, marks the VNet and the
// hub it may be connected to pending (EvidenceRemoteHub). It reports
// whether it marked anything. The first kind recorded for an address
// stays.
func (n *Network) MarkRemoteAddress(addr netip.Addr, vnetID ResourceID, what string) bool {
	addr = addr.Unmap()
	if !n.HubSpokesInClosure() || !addr.IsValid() || vnetID.IsZero() || n.VNet(vnetID) != nil {
		return false
	}
	if _, have := n.RemoteAddresses[addr]; have {
		return false
	}
	if n.RemoteAddresses == nil {
		n.RemoteAddresses = map[netip.Addr]RemoteAddress{}
	}
	n.RemoteAddresses[addr] = RemoteAddress{VNetID: vnetID, What: what}
	n.Pending.Add(RemoteHubOf(vnetID, addr))
	return true
}
