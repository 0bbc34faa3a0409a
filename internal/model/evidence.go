// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"sort"
)

// Evidence that only some paths need is read in rounds (see
// docs/design/architecture.md, "A plan, from arguments to findings"):
// gather reads what every path needs and marks what only some paths need
// as pending; evaluation runs on the facts at hand and reports, in its
// result's Needs, the pending evidence a path it traced reached; gather
// reads exactly that; evaluation runs again. The rounds end when an
// evaluation needs nothing pending. A pending fact is never read as
// absent: a rule that reaches one records the need and leaves its
// conclusion unverified for that round.

// EvidenceKind names a kind of evidence read only for the paths that reach
// it.
type EvidenceKind string

// Evidence kinds. A new kind needs: the check where evaluation reaches it
// (routing, security or verify), the read that fills it in (gather's
// evidence readers) and the place gather marks it pending.
const (
	// EvidenceAdvertisedRoutes: what a BGP gateway advertises to its
	// peers (getBgpPeerStatus, then getAdvertisedRoutes per peer), the
	// return path of a destination reached on premises through it. ID is
	// the gateway; it fills Gateway.Advertised and AdvertisedKnown.
	EvidenceAdvertisedRoutes EvidenceKind = "advertised_routes"
	// EvidenceApplianceNIC: the network interface holding a
	// VirtualAppliance next hop address (its IP forwarding flag and its
	// security group), for a path that routes through that appliance. ID
	// is the VNet that holds the address, Addr the address; it adds the
	// NIC (and its group) to the network, or nothing when no NIC holds
	// the address (a load balancer frontend, Azure Firewall).
	EvidenceApplianceNIC EvidenceKind = "appliance_nic"
	// EvidenceFirewallRules: what decides an Azure Firewall's rules beyond
	// the firewall itself: its firewall policy with the parent chain
	// (basePolicy), each policy's rule collection groups, and the IP
	// groups the rules name, for a path whose public traffic crosses the
	// firewall. ID is the firewall; it fills Network.FirewallPolicies and
	// IPGroups, and the firewall's DNSProxyEnabled from its policy.
	EvidenceFirewallRules EvidenceKind = "firewall_rules"
	// EvidenceRemoteHub: the VNet outside the closure of a destination
	// address (a registry private endpoint's, a DNS private resolver
	// inbound endpoint's: Network.RemoteAddresses) and the Virtual WAN hub
	// it is connected to (found by the Resource Graph search for its hub
	// connection), with that hub's connected VNets and firewall, for a
	// path from a hub-connected VNet to the address. ID is the VNet, Addr
	// the address; it adds the VNet, the hub and its spokes to the
	// network.
	EvidenceRemoteHub EvidenceKind = "remote_hub"
	// EvidencePeerHub: the Virtual WAN hub a VNet of the closure beyond
	// the node VNets is connected to (an NVA VNet the nodes' VNet is
	// peered with: "Scenario: Route traffic through an NVA"), with the
	// hub's connections, route tables and routing intent, the VNets
	// connected to it (with their subnets' route tables and security
	// groups) and its firewall, for a path that is routed through that
	// VNet. ID is the VNet; it adds the hub and its spokes to the network.
	EvidencePeerHub EvidenceKind = "peer_hub"
)

// Evidence is one pending read: its kind, the resource it is about and,
// for evidence found by address, the address.
type Evidence struct {
	Kind EvidenceKind
	ID   ResourceID
	Addr netip.Addr
}

// Key identifies the evidence (resource ids compare case-insensitively).
func (e Evidence) Key() string {
	k := string(e.Kind) + " " + e.ID.Key()
	if e.Addr.IsValid() {
		k += " " + e.Addr.String()
	}
	return k
}

// AdvertisedRoutesOf is the advertised routes evidence of a gateway.
func AdvertisedRoutesOf(gatewayID ResourceID) Evidence {
	return Evidence{Kind: EvidenceAdvertisedRoutes, ID: gatewayID}
}

// ApplianceNICAt is the appliance NIC evidence of an address in a VNet.
func ApplianceNICAt(vnetID ResourceID, addr netip.Addr) Evidence {
	return Evidence{Kind: EvidenceApplianceNIC, ID: vnetID, Addr: addr.Unmap()}
}

// FirewallRulesOf is the rules evidence of an Azure Firewall.
func FirewallRulesOf(firewallID ResourceID) Evidence {
	return Evidence{Kind: EvidenceFirewallRules, ID: firewallID}
}

// RemoteHubOf is the remote hub evidence of a destination address in a
// VNet outside the closure (a private endpoint's, a resolver inbound
// endpoint's).
func RemoteHubOf(vnetID ResourceID, addr netip.Addr) Evidence {
	return Evidence{Kind: EvidenceRemoteHub, ID: vnetID, Addr: addr.Unmap()}
}

// PeerHubOf is the peer hub evidence of a VNet of the closure that is
// peered with a Virtual WAN hub's VNet.
func PeerHubOf(vnetID ResourceID) Evidence {
	return Evidence{Kind: EvidencePeerHub, ID: vnetID}
}

// Pending is the evidence gather has not read yet, by Key. The zero value
// (nil) holds nothing.
type Pending map[string]Evidence

// Add marks e pending.
func (p *Pending) Add(e Evidence) {
	if *p == nil {
		*p = Pending{}
	}
	(*p)[e.Key()] = e
}

// Has reports whether e is pending.
func (p Pending) Has(e Evidence) bool {
	_, ok := p[e.Key()]
	return ok
}

// Done removes e: it was read (or its read failed, which is a gap).
func (p Pending) Done(e Evidence) { delete(p, e.Key()) }

// Sorted returns the pending evidence in Key order.
func (p Pending) Sorted() []Evidence {
	out := make([]Evidence, 0, len(p))
	for _, e := range p {
		out = append(out, e)
	}
	SortEvidence(out)
	return out
}

// Clone returns a copy.
func (p Pending) Clone() Pending {
	if p == nil {
		return nil
	}
	out := make(Pending, len(p))
	for k, e := range p {
		out[k] = e
	}
	return out
}

// SortEvidence orders evidence by Key.
func SortEvidence(es []Evidence) {
	sort.Slice(es, func(i, j int) bool { return es[i].Key() < es[j].Key() })
}

// AddNeed appends e to needs unless it is there: the needs of one
// evaluation, in the order they arose.
func AddNeed(needs []Evidence, e Evidence) []Evidence {
	k := e.Key()
	for _, have := range needs {
		if have.Key() == k {
			return needs
		}
	}
	return append(needs, e)
}

// EvidenceHubEffectiveRoutes: the effective routes of a Virtual WAN hub's
// defaultRouteTable, for a path from a VNet connected to the hub (and
// associated with that table) whose computed route is the hub's, that
// the computed routes drop, or that a branch route of the hub's VPN or
// ExpressRoute gateway could take (routing/vwan_branch.go). ID is the hub;
// it fills Network.HubEffectiveRoutes.
const EvidenceHubEffectiveRoutes EvidenceKind = "hub_effective_routes"

// HubEffectiveRoutesOf is the effective routes evidence of a virtual hub.
func HubEffectiveRoutesOf(hubID ResourceID) Evidence {
	return Evidence{Kind: EvidenceHubEffectiveRoutes, ID: hubID}
}

// EvidenceAdminRules: the Azure Virtual Network Manager security admin
// rules in effect on a VNet other than the node VNets (whose rules every
// flow meets and are read with the facts), for a path that reaches a
// point in it where they apply: an appliance it crosses, its destination
// (a DNS server, a registry VM, the cluster's proxy). ID is the VNet; it
// fills Network.AdminRules.
const EvidenceAdminRules EvidenceKind = "admin_rules"

// AdminRulesEvidenceOf is the security admin rules evidence of a VNet.
func AdminRulesEvidenceOf(vnetID ResourceID) Evidence {
	return Evidence{Kind: EvidenceAdminRules, ID: vnetID}
}
