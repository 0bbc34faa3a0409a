// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"slices"
)

// DNSSource says which setting gave a node its DNS servers.
type DNSSource int

const (
	// DNSFromAzureDefault: nothing sets DNS servers, so the node uses
	// Azure-provided DNS (AzureDNS).
	DNSFromAzureDefault DNSSource = iota
	// DNSFromVNet: the VNet's dhcpOptions.dnsServers.
	DNSFromVNet
	// DNSFromNIC: a network interface's own dnsSettings.dnsServers.
	DNSFromNIC
	// DNSFromScaleSet: the scale set's NIC configuration, which every new
	// instance gets (the first node of a pool at zero nodes included).
	DNSFromScaleSet
)

// NodeDNS is the list of DNS servers a node uses, in order, and where it
// comes from.
type NodeDNS struct {
	Servers []netip.Addr
	Source  DNSSource
	// NIC is the network interface whose own servers apply (DNSFromNIC).
	NIC *NIC
	// Unknown is set when the servers are the VNet's and a planned change
	// leaves them unknown until apply (VNet.Unknown, FactDNSServers):
	// Servers is then empty, and nothing that depends on them can be
	// concluded.
	Unknown *Gap
}

// NodeDNSServers applies Azure's precedence for a node's DNS servers: the
// scale set's NIC configuration (scaleSet), else the first of nics that
// sets servers of its own, else the VNet's dhcpOptions.dnsServers, else
// Azure-provided DNS (168.63.129.16). A NIC or VNet that sets none defers
// to the next. docs/design/azure-behaviour.md (D1) gives Azure's sources.
// When the VNet's servers decide and a planned change leaves them unknown,
// the answer is Unknown, with no servers.
//
// Servers is a copy: callers may change it without changing the model.
func NodeDNSServers(scaleSet []netip.Addr, nics []*NIC, vnet *VNet) NodeDNS {
	if len(scaleSet) > 0 {
		return NodeDNS{Servers: slices.Clone(scaleSet), Source: DNSFromScaleSet}
	}
	for _, nic := range nics {
		if nic != nil && len(nic.DNSServers) > 0 {
			return NodeDNS{Servers: slices.Clone(nic.DNSServers), Source: DNSFromNIC, NIC: nic}
		}
	}
	if g, unknown := vnetDNSUnknown(vnet); unknown {
		return NodeDNS{Source: DNSFromVNet, Unknown: &g}
	}
	if vnet != nil && len(vnet.DNSServers) > 0 {
		return NodeDNS{Servers: slices.Clone(vnet.DNSServers), Source: DNSFromVNet}
	}
	return NodeDNS{Servers: []netip.Addr{AzureDNS}, Source: DNSFromAzureDefault}
}

func vnetDNSUnknown(vnet *VNet) (Gap, bool) {
	if vnet == nil {
		return Gap{}, false
	}
	return vnet.Unknown.Of(FactDNSServers)
}

// PoolDNSServers are the DNS servers the nodes of a pool use
// (NodeDNSServers): the scale set's NIC configuration, then the pool's
// NICs as read with the pool, then those NICs as read into n, then the
// VNet's servers.
func PoolDNSServers(p *NodePool, vnet *VNet, n *Network) NodeDNS {
	nics := slices.Clone(p.NICs)
	if n != nil {
		for _, id := range p.NICIDs {
			if nic := n.NIC(id); nic != nil {
				nics = append(nics, nic)
			}
		}
	}
	return NodeDNSServers(p.DNSServers, nics, vnet)
}

// UsesAzureDNS reports whether Azure-provided DNS is among the servers:
// its answers come from the private DNS zones linked to the asking VNet.
func (d NodeDNS) UsesAzureDNS() bool { return slices.Contains(d.Servers, AzureDNS) }
