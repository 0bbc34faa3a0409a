package routing

import (
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Peering rules (Azure "Virtual network peering"): a peering carries
// traffic only when both sides exist and are Connected (one side alone is
// Initiated) and allowVirtualNetworkAccess is true. Azure programs routes for
// the remote space as this side last synced it (remoteAddressSpace); an
// address space change is invisible until the peering is synced. A subnet
// peering (peerCompleteVnets false) connects only the subnets it names on
// each side (docs/design/azure-behaviour.md, "Subnet peering").

// peeringRoutesUsable reports whether Azure programs routes for a peering
// on this side: Connected, with access to the remote VNet allowed.
func peeringRoutesUsable(p *model.Peering) bool {
	return p.Connected() && p.AllowVirtualNetworkAccess
}

// syncedSpace is the remote space this side programs routes for. Older
// answers lack remoteAddressSpace; the current remote space stands in.
func syncedSpace(p *model.Peering) []netip.Prefix {
	if len(p.RemoteAddressSpace) > 0 {
		return p.RemoteAddressSpace
	}
	return p.RemoteCurrentAddressSpace
}

// currentSpace is the remote VNet's address space today: from the remote
// VNet when it was read, else as the peering reports it.
func currentSpace(net *model.Network, p *model.Peering) []netip.Prefix {
	if remote := net.VNet(p.RemoteVNetID); remote != nil {
		return remote.AddressSpace
	}
	if len(p.RemoteCurrentAddressSpace) > 0 {
		return p.RemoteCurrentAddressSpace
	}
	return p.RemoteAddressSpace
}

// peeringNextHop is VNetGlobalPeering across regions, else VNetPeering.
func peeringNextHop(p *model.Peering) string {
	if p.Global {
		return model.NextHopVNetGlobalPeering
	}
	return model.NextHopVNetPeering
}

// peeringRoutes are the VNetPeering / VNetGlobalPeering system routes of a
// subnet of vnet: one per synced remote prefix of every usable peering that
// connects the subnet. A subnet peering (peerCompleteVnets false) connects
// only the subnets it names (localSubnetNames), and its synced space is the
// prefixes of the remote subnets it names ("How to configure subnet
// peering"): other subnets of the VNet get no route from it.
func peeringRoutes(vnet *model.VNet, sub *model.Subnet) []model.Route {
	var out []model.Route
	for _, p := range vnet.Peerings {
		if !peeringRoutesUsable(p) || !p.ConnectsLocalSubnet(sub.Name) {
			continue
		}
		for _, prefix := range syncedSpace(p) {
			out = append(out, model.Route{
				Prefix: prefix, NextHopType: peeringNextHop(p), Source: model.RouteSourceDefault,
				State: model.RouteStateActive, Origin: "peering " + p.Name, OriginID: p.ID,
			})
		}
	}
	return out
}

// peeringSignature is what decides, beyond the VNet and the route table,
// which peering routes a subnet gets: the subnet peerings of the VNet that
// connect it. "" when the VNet has no subnet peering (every subnet gets
// every peering's routes).
func peeringSignature(vnet *model.VNet, sub *model.Subnet) string {
	var b strings.Builder
	for _, p := range vnet.Peerings {
		if !p.SubnetsOnly {
			continue
		}
		b.WriteString(p.ID.Key())
		if p.ConnectsLocalSubnet(sub.Name) {
			b.WriteString("+")
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}

// remoteSubnetName is the name of the subnet of the peering's remote VNet
// that holds a, "" when the remote VNet was not read or no subnet holds it.
func remoteSubnetName(net *model.Network, p *model.Peering, a netip.Addr) string {
	if remote := net.VNet(p.RemoteVNetID); remote != nil {
		if s := subnetContaining(remote, a); s != nil {
			return s.Name
		}
	}
	return ""
}
