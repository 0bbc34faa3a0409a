// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// HopKind says what a hop of a pull path stands for.
type HopKind string

// Hop kinds.
const (
	// HopPeering: a VNet peering the packet crossed.
	HopPeering HopKind = "peering"
	// HopGateway: a VPN or ExpressRoute gateway that took the packet
	// (on-premises, or forced tunnelling).
	HopGateway HopKind = "gateway"
	// HopAppliance: a virtual appliance that forwards the packet.
	HopAppliance HopKind = "appliance"
	// HopFirewall: an Azure Firewall.
	HopFirewall HopKind = "firewall"
	// HopPrivateEndpoint: the private endpoint the packet is delivered to.
	HopPrivateEndpoint HopKind = "private_endpoint"
	// HopNIC: a network interface the packet is delivered to.
	HopNIC HopKind = "network_interface"
	// HopSubnet: a subnet the packet is delivered to (no endpoint or
	// interface of it holds the address).
	HopSubnet HopKind = "subnet"
	// HopServiceEndpoint: an Azure service reached over a service endpoint.
	HopServiceEndpoint HopKind = "service_endpoint"
	// HopInternet: a route with next hop Internet.
	HopInternet HopKind = "internet"
	// HopEgress: the way out to public addresses (a NAT gateway, a load
	// balancer's outbound IPs, a firewall's public IPs, the nodes' own).
	HopEgress HopKind = "egress"
	// HopSecurityGroup: a network security group's decision on the flow.
	HopSecurityGroup HopKind = "security_group"
	// HopBeyondAppliance: networks an appliance advertised to a Route
	// Server, which Resource Manager does not show.
	HopBeyondAppliance HopKind = "beyond_appliance"
	// HopProxy: the cluster's HTTP(S) proxy, which the nodes hand the
	// pull to (httpProxyConfig); the path goes on from the proxy.
	HopProxy HopKind = "proxy"
	// HopStop: where the path ends without arriving (dropped, routes or a
	// fact unknown, rules not shown to allow it).
	HopStop HopKind = "stop"
)

// Hop is one step of a pull path as data: what the path's hop strings say
// in words, for consumers that must not parse them (the diagram). A routing
// decision gives the peering it crosses, if any, then where it leads.
type Hop struct {
	Kind HopKind
	// Name is the resource's own name ("" when the hop has no resource).
	Name string
	// ResourceID is the resource the hop is (the peering, gateway,
	// appliance's NIC, firewall, private endpoint, subnet, security group);
	// zero when it is known only by its address or not a resource.
	ResourceID ResourceID
	// Address is the hop's own address (an appliance's or a firewall's
	// next-hop IP, the address delivered to), "" when none.
	Address string
	// SubnetID is the subnet the hop lies in, when known.
	SubnetID ResourceID
	// Label is the hop in words, the same whatever route or address led to
	// it: "Azure Firewall fw-hub 10.0.4.4", "peering spoke-to-hub".
	Label string
	// From is the subnet whose route led to the hop; Route is that route
	// in words ("10.0.0.0/16 VNetPeering (peering spoke-to-hub)"). Both
	// are empty for a hop no route leads to (a security group, the way
	// out) and for the hop after a peering, which the same route led to.
	From  ResourceID
	Route string
	// Destination is, on a path that resolves to several addresses, the
	// address this hop leads to; "" when the hop is on the way to every
	// address of the path.
	Destination string
}

// Key identifies what the hop stands for, so that the same resource is one
// thing whatever words name it: its kind and resource id, else its kind,
// subnet and address, else its kind and label. Security group decisions
// are keyed by their words: one group decides at several places of a path
// (at the node, at an appliance, at the destination); so are the ends of a
// path and the ways out, which name no resource of their own.
func (h Hop) Key() string {
	k := string(h.Kind) + "\x00"
	switch {
	case h.Kind == HopSecurityGroup || h.Kind == HopStop || h.Kind == HopEgress || h.Kind == HopBeyondAppliance:
		return k + h.Label
	case !h.ResourceID.IsZero():
		return k + "id " + h.ResourceID.Key()
	case h.Address != "":
		return k + "address " + h.SubnetID.Key() + " " + h.Address
	}
	return k + h.Label
}

// FirewallHop is an Azure Firewall as a hop, labelled alike wherever the
// path meets it (the route that sends traffic to it, the way out).
func FirewallHop(id ResourceID, address string, subnetID ResourceID) Hop {
	label := "Azure Firewall " + address
	if !id.IsZero() {
		label = "Azure Firewall " + id.Name() + " (" + address + ")"
	}
	return Hop{Kind: HopFirewall, Name: id.Name(), ResourceID: id, Address: address, SubnetID: subnetID, Label: label}
}
