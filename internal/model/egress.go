// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// Outbound types of an AKS cluster (networkProfile.outboundType). The set is
// open: Azure adds types, so code compares against these and treats any
// other value as unknown.
const (
	OutboundLoadBalancer           = "loadBalancer"
	OutboundManagedNATGateway      = "managedNATGateway"
	OutboundUserAssignedNATGateway = "userAssignedNATGateway"
	OutboundUserDefinedRouting     = "userDefinedRouting"
	OutboundNone                   = "none"
	OutboundBlock                  = "block"
)

// Outbound is how AKS set up a cluster's way to public addresses
// (networkProfile): the outbound type and the public IP resources AKS
// gave it.
type Outbound struct {
	// Type is networkProfile.outboundType; empty means the API default,
	// loadBalancer.
	Type string
	// LoadBalancerIPIDs are loadBalancerProfile.effectiveOutboundIPs: the
	// public IP address (or public IP prefix) resources of the cluster load
	// balancer's outbound rules.
	LoadBalancerIPIDs []ResourceID
	// NATGatewayIPIDs are natGatewayProfile.effectiveOutboundIPs: the public
	// IPs of the AKS-managed NAT gateway (managedNATGateway).
	NATGatewayIPIDs []ResourceID
}

// EffectiveType is Type with the API default filled in.
func (o Outbound) EffectiveType() string {
	if o.Type == "" {
		return OutboundLoadBalancer
	}
	return o.Type
}

// NATGateway is a NAT gateway: the public IPs every flow of its subnets to
// a public address leaves through.
type NATGateway struct {
	ID   ResourceID
	Name string
	// PublicIPIDs are its public IP address and public IP prefix resources
	// (publicIpAddresses and publicIpPrefixes).
	PublicIPIDs []ResourceID
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// PublicAddress is a public IP address or public IP prefix resource.
type PublicAddress struct {
	ID   ResourceID
	Name string
	// Prefix is the prefix (ipPrefix) or, for an address, the address as a
	// single-address prefix (ipAddress). Invalid when Azure has not
	// allocated it.
	Prefix netip.Prefix
}

// NATGateway returns the NAT gateway with that id, or nil.
func (n *Network) NATGateway(id ResourceID) *NATGateway { return n.NATGateways[id.Key()] }

// PublicAddress returns the public IP address or prefix with that id, or nil.
func (n *Network) PublicAddress(id ResourceID) *PublicAddress { return n.PublicAddresses[id.Key()] }

// AddNATGateway stores a NAT gateway.
func (n *Network) AddNATGateway(g *NATGateway) {
	if n.NATGateways == nil {
		n.NATGateways = map[string]*NATGateway{}
	}
	n.NATGateways[g.ID.Key()] = g
}

// AddPublicAddress stores a public IP address or prefix.
func (n *Network) AddPublicAddress(a *PublicAddress) {
	if n.PublicAddresses == nil {
		n.PublicAddresses = map[string]*PublicAddress{}
	}
	n.PublicAddresses[a.ID.Key()] = a
}
