// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// VirtualNetworkSpace is what the VirtualNetwork service tag means for a
// group applied in VNet vnetID. Azure defines the tag as the VNet's address
// space, peered VNets' spaces, on-premises space connected through a
// gateway, the host's virtual IP, and address prefixes of user-defined
// routes (which "might also contain default routes").
//
// Certainly in the tag (Space.VirtualNetwork):
//   - the VNet's address space;
//   - the remote space (as synced, remoteAddressSpace) of every peering of
//     the VNet that is Connected and allows virtual network access (Azure
//     removes a peer whose access is disabled from the tag);
//   - the prefixes learned by a gateway in the VNet, or in a peered hub
//     when this side uses remote gateways and the hub allows gateway
//     transit, and the static prefixes of its local network gateways;
//   - 168.63.129.16/32 (the host's virtual IP).
//
// Possibly in the tag (Space.MaybeVirtualNetwork; an address only here is
// undecided, never assumed either way):
//   - address prefixes of user-defined routes in the route tables of the
//     VNet's subnets, including a default route 0.0.0.0/0 (for a route by
//     service tag, the tag's prefixes when the service tags were read);
//   - everything (0.0.0.0/0) when a gateway's learned routes or static
//     prefixes could not be read.
//
// The space also carries the service tags read for the VNet's location
// (Space.Tags), which decide rules naming other tags.
func VirtualNetworkSpace(n *model.Network, vnetID model.ResourceID) Space {
	var s Space
	v := n.VNet(vnetID)
	if v == nil {
		return s
	}
	s.Tags, s.TagsGap = n.ServiceTagsAt(v.Location)
	// The VNets whose gateway's routes reach v: its own, and a peered
	// hub's when this side uses remote gateways and the hub allows
	// transit.
	gateways := []model.ResourceID{v.ID}
	size := len(v.AddressSpace) + 1
	for _, p := range v.Peerings {
		if !p.Connected() || !p.AllowVirtualNetworkAccess {
			continue
		}
		size += len(p.RemoteAddressSpace)
		if p.UseRemoteGateways {
			if remote := n.VNet(p.RemoteVNetID); remote != nil {
				for _, rp := range remote.Peerings {
					if rp.RemoteVNetID.Equal(v.ID) && rp.AllowGatewayTransit {
						gateways = append(gateways, remote.ID)
					}
				}
			}
		}
	}
	var reaching []*model.Gateway
	for _, gw := range n.Gateways {
		for _, id := range gateways {
			if gw.VNetID.Equal(id) {
				reaching = append(reaching, gw)
				size += len(gw.Learned) + len(gw.StaticPrefixes)
				break
			}
		}
	}
	// Sized once: a gateway's learned routes are thousands of prefixes.
	s.VirtualNetwork = make([]netip.Prefix, 0, size)
	s.VirtualNetwork = append(s.VirtualNetwork, v.AddressSpace...)
	s.VirtualNetwork = append(s.VirtualNetwork, netip.PrefixFrom(AzureLoadBalancer, 32))
	for _, p := range v.Peerings {
		if p.Connected() && p.AllowVirtualNetworkAccess {
			s.VirtualNetwork = append(s.VirtualNetwork, p.RemoteAddressSpace...)
		}
	}
	for _, gw := range reaching {
		if !gw.LearnedKnown || !gw.StaticPrefixesKnown {
			s.MaybeVirtualNetwork = append(s.MaybeVirtualNetwork, netip.MustParsePrefix("0.0.0.0/0"))
		}
		for _, r := range gw.Learned {
			if r.Prefix.IsValid() {
				s.VirtualNetwork = append(s.VirtualNetwork, r.Prefix)
			}
		}
		s.VirtualNetwork = append(s.VirtualNetwork, gw.StaticPrefixes...)
	}
	for _, sub := range v.Subnets {
		if rt := n.RouteTable(sub.RouteTableID); rt != nil {
			for _, r := range rt.Routes {
				if r.Prefix.IsValid() {
					s.MaybeVirtualNetwork = append(s.MaybeVirtualNetwork, r.Prefix)
				} else if t, ok := s.Tags.Lookup(r.ServiceTag); ok {
					// A route by service tag has the tag's prefixes.
					s.MaybeVirtualNetwork = append(s.MaybeVirtualNetwork, t.Prefixes...)
				}
			}
		}
	}
	return s
}
