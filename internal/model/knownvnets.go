// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// KnownVNet is a VNet whose address space an address can be placed in: a
// VNet that was read, or one a read VNet peers with (its space then as the
// peering last saw it).
type KnownVNet struct {
	ID   ResourceID
	Name string
	// Space is the VNet's address space.
	Space []netip.Prefix
	// Peered is true when the VNet was not read itself and its space comes
	// from a peering of a read VNet.
	Peered bool
}

// KnownVNets are known VNets in order of precedence: where two hold the
// same address, the first one does.
type KnownVNets []KnownVNet

// KnownVNetsOf are the VNets known from the VNets that were read, in that
// order: each read VNet with its own address space, then each VNet a read
// VNet peers with that is not among them, with the space the peering shows
// (remoteVirtualNetworkAddressSpace, else the synced remoteAddressSpace).
func KnownVNetsOf(read []*VNet) KnownVNets {
	var out KnownVNets
	seen := map[string]bool{}
	for _, v := range read {
		if v == nil || seen[v.ID.Key()] {
			continue
		}
		seen[v.ID.Key()] = true
		out = append(out, KnownVNet{ID: v.ID, Name: v.Name, Space: v.AddressSpace})
	}
	for _, v := range read {
		if v == nil {
			continue
		}
		for _, p := range v.Peerings {
			if p == nil || p.RemoteVNetID.IsZero() || seen[p.RemoteVNetID.Key()] {
				continue
			}
			seen[p.RemoteVNetID.Key()] = true
			space := p.RemoteCurrentAddressSpace
			if len(space) == 0 {
				space = p.RemoteAddressSpace
			}
			out = append(out, KnownVNet{ID: p.RemoteVNetID, Name: p.RemoteVNetID.Name(), Space: space, Peered: true})
		}
	}
	return out
}

// Holding returns the first known VNet whose space holds a.
func (vs KnownVNets) Holding(a netip.Addr) (KnownVNet, bool) {
	for _, v := range vs {
		for _, p := range v.Space {
			if p.Contains(a) {
				return v, true
			}
		}
	}
	return KnownVNet{}, false
}

// InboundAt returns the resolver's inbound endpoint whose address is a.
func (r *Resolver) InboundAt(a netip.Addr) (ResolverEndpoint, bool) {
	if r == nil {
		return ResolverEndpoint{}, false
	}
	for _, in := range r.Inbound {
		if in.Address == a {
			return in, true
		}
	}
	return ResolverEndpoint{}, false
}
