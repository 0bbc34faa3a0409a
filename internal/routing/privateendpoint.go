package routing

import (
	"fmt"
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Private endpoint routes (Azure "Manage network policies for private
// endpoints"; "Virtual network traffic routing"): every private endpoint
// address gets a /32 (IPv6 /128) system route with next hop
// InterfaceEndpoint in its own VNet and in every directly peered VNet. By
// longest prefix it beats any broader route. A UDR invalidates it (state
// Invalid) only when the endpoint's subnet applies route-table network
// policies (privateEndpointNetworkPolicies Enabled or RouteTableEnabled) and
// the UDR's prefix is at least as broad as the address space of the VNet
// holding the endpoint; a 0.0.0.0/0 UDR never does. That is how traffic to a
// private endpoint is forced through a firewall.

// privateEndpointAddrs are a private endpoint's addresses: its NICs' private
// addresses, or, for a NIC that could not be read, the addresses its
// customDnsConfigs publish. missing lists NICs with neither.
func privateEndpointAddrs(net *model.Network, pe *model.PrivateEndpoint) (addrs []netip.Addr, missing []model.ResourceID) {
	seen := map[netip.Addr]bool{}
	add := func(a netip.Addr) {
		a = a.Unmap()
		if a.IsValid() && !seen[a] {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	for _, id := range pe.NICIDs {
		if nic := net.NIC(id); nic != nil {
			for _, a := range nic.PrivateIPs {
				add(a)
			}
			continue
		}
		missing = append(missing, id)
	}
	if len(missing) > 0 || len(pe.NICIDs) == 0 {
		for _, c := range pe.DNSConfigs {
			for _, a := range c.Addresses {
				add(a)
			}
		}
		if len(addrs) > 0 {
			missing = nil
		}
	}
	return addrs, missing
}

// peSite is a VNet whose private endpoints reach the subnet: the subnet's
// own VNet, or a VNet peered with it.
type peSite struct {
	vnetID model.ResourceID
	// space is the VNet's address space (for the invalidation rule).
	space []netip.Prefix
	// scope is where a gap about this VNet's endpoints could matter.
	scope []netip.Prefix
	known bool
	// peering is the subnet's VNet's peering to a peered site; nil for the
	// subnet's own VNet.
	peering *model.Peering
}

// carries reports whether the site's peering programs the /32 of a private
// endpoint at address a in subnet peSubnet of the remote VNet. Azure
// documents the /32 in directly peered VNets, and a peering routes only
// the space it synced: an endpoint in address space the remote VNet gained
// after the last sync is not documented to be reachable across it, so no
// route is assumed (the drop is then explained as ROUTE_PEERING_NOT_SYNCED).
// A subnet peering reaches only the remote subnets it names.
func (s peSite) carries(net *model.Network, a netip.Addr, peSubnet model.ResourceID) bool {
	if s.peering == nil {
		return true
	}
	if !anyContains(syncedSpace(s.peering), a) {
		return false
	}
	if s.peering.SubnetsOnly {
		name := peSubnet.Name()
		if sub := net.Subnet(peSubnet); sub != nil {
			name = sub.Name
		}
		return s.peering.ConnectsRemoteSubnet(name)
	}
	return true
}

// privateEndpointRoutes builds the InterfaceEndpoint routes of the
// endpoints in vnet and in the usable peered VNets that connect subnet sub,
// applying the UDR invalidation rule with the subnet's user routes.
func privateEndpointRoutes(net *model.Network, vnet *model.VNet, sub *model.Subnet, udrs []model.Route) ([]model.Route, []scopedGap) {
	sites := []peSite{{vnetID: vnet.ID, space: vnet.AddressSpace, scope: vnet.AddressSpace, known: true}}
	var gaps []scopedGap
	for _, p := range vnet.Peerings {
		if !peeringRoutesUsable(p) || !p.ConnectsLocalSubnet(sub.Name) {
			continue
		}
		remote := net.VNet(p.RemoteVNetID)
		site := peSite{vnetID: p.RemoteVNetID, space: currentSpace(net, p), scope: syncedSpace(p), known: remote != nil, peering: p}
		if remote == nil {
			g := gapFor(net, p.RemoteVNetID, model.GapNotFound,
				fmt.Sprintf("peered VNet %s was not read: its private endpoints' /32 routes are unknown", p.RemoteVNetID.Name()))
			if h := net.HubByVNet(p.RemoteVNetID); h != nil && g.NotRead {
				// A hub's VNet is never read; the hub stands in for it.
				if hg, unread := hubUnread(net, h, false, fmt.Sprintf("the routes of its VNet %s are unknown", p.RemoteVNetID.Name())); unread {
					g = hg
				}
			}
			gaps = append(gaps, scopedGap{gap: g, scope: site.scope})
		}
		sites = append(sites, site)
	}
	var out []model.Route
	for _, site := range sites {
		for _, pe := range endpointsIn(net, site.vnetID) {
			addrs, missing := privateEndpointAddrs(net, pe)
			for _, id := range missing {
				gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
					fmt.Sprintf("the network interface of private endpoint %s was not read: its addresses are unknown", pe.Name)), scope: site.scope})
			}
			peSubnet := net.Subnet(pe.SubnetID)
			for _, a := range addrs {
				if !site.carries(net, a, pe.SubnetID) {
					continue
				}
				r := model.Route{
					Prefix: netip.PrefixFrom(a, a.BitLen()), NextHopType: model.NextHopInterfaceEndpoint,
					Source: model.RouteSourceDefault, State: model.RouteStateActive,
					Origin: "private endpoint " + pe.Name, OriginID: pe.ID,
				}
				if u, ok := invalidatingUDR(udrs, site.space, a); ok {
					switch {
					case peSubnet == nil:
						gaps = append(gaps, scopedGap{gap: gapFor(net, pe.SubnetID, model.GapNotFound,
							fmt.Sprintf("the subnet of private endpoint %s was not read: whether route %s invalidates its /32 route is unknown", pe.Name, u.Name)),
							scope: []netip.Prefix{r.Prefix}})
					case unknownFact(peSubnet.Unknown, model.FactPrivateEndpointNetworkPolicies):
						// Whether the route invalidates the /32 route is
						// known only after apply.
						g, _ := peSubnet.Unknown.Of(model.FactPrivateEndpointNetworkPolicies)
						gaps = append(gaps, scopedGap{gap: g, scope: []netip.Prefix{r.Prefix}})
					case peSubnet.RouteTablePoliciesApply():
						r.State = model.RouteStateInvalid
						r.Origin += fmt.Sprintf(" (invalidated by %s: %s applies route-table policies)", u.Origin, peSubnet.Name)
					}
				}
				out = append(out, r)
			}
		}
		for _, id := range unreadEndpointsIn(net, site.vnetID) {
			gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
				"private endpoint "+id.Name()+" was not read: its /32 routes are unknown"), scope: site.scope})
		}
	}
	return out, gaps
}

// invalidatingUDR finds an active UDR that would invalidate the /32 route of
// address a in a VNet with the given space: it contains a, is not a default
// route, and is at least as broad as the VNet prefix holding a. (Requiring
// that the UDR contain the address reads "at least as broad as the address
// space" for a VNet with several prefixes: a UDR for another of its
// prefixes does not apply to this address at all.)
func invalidatingUDR(udrs []model.Route, space []netip.Prefix, a netip.Addr) (model.Route, bool) {
	for _, u := range udrs {
		if !u.Prefix.IsValid() || !isActive(&u) || isDefaultRoute(u.Prefix) || !u.Prefix.Contains(a) {
			continue
		}
		for _, s := range space {
			if s.Contains(a) && covers(u.Prefix, s) {
				return u, true
			}
		}
	}
	return model.Route{}, false
}

// endpointsIn are the private endpoints read whose subnet is in the VNet.
func endpointsIn(net *model.Network, vnetID model.ResourceID) []*model.PrivateEndpoint {
	var out []*model.PrivateEndpoint
	for _, k := range sortedKeys(net.PrivateEndpoints) {
		pe := net.PrivateEndpoints[k]
		if vnetOfSubnet(net, pe.SubnetID).Equal(vnetID) {
			out = append(out, pe)
		}
	}
	return out
}

// unreadEndpointsIn are private endpoints that the VNet's subnets list but
// the model lacks.
func unreadEndpointsIn(net *model.Network, vnetID model.ResourceID) []model.ResourceID {
	v := net.VNet(vnetID)
	if v == nil {
		return nil
	}
	var out []model.ResourceID
	for _, s := range v.Subnets {
		for _, id := range s.PrivateEndpointIDs {
			if net.PrivateEndpoint(id) == nil {
				out = append(out, id)
			}
		}
	}
	return out
}

// unreadEndpointOf returns a private endpoint of the subnet whose addresses
// are unknown: listed by the subnet but not read, or read without the
// network interface (or customDnsConfigs) that gives its addresses. Zero
// when every endpoint of the subnet has known addresses.
func unreadEndpointOf(net *model.Network, sub *model.Subnet) model.ResourceID {
	for _, id := range sub.PrivateEndpointIDs {
		pe := net.PrivateEndpoint(id)
		if pe == nil {
			return id
		}
		if _, missing := privateEndpointAddrs(net, pe); len(missing) > 0 {
			return missing[0]
		}
	}
	for _, k := range sortedKeys(net.PrivateEndpoints) {
		pe := net.PrivateEndpoints[k]
		if !pe.SubnetID.Equal(sub.ID) {
			continue
		}
		if _, missing := privateEndpointAddrs(net, pe); len(missing) > 0 {
			return missing[0]
		}
	}
	return ""
}
