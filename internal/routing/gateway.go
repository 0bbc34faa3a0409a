package routing

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Gateway route propagation (Azure "Virtual network traffic routing",
// border gateway protocol; "Configure VPN gateway transit for virtual
// network peering"): the routes a VPN or ExpressRoute gateway learns reach
// every subnet of its own VNet, and of a peered spoke only when the spoke's
// peering has useRemoteGateways and the hub's peering has
// allowGatewayTransit. A route table with disableBgpRoutePropagation keeps
// them all out of its subnets. They appear with source and next hop type
// VirtualNetworkGateway and the gateway's address as next hop.

// gatewayLink is one gateway whose routes could reach a VNet: its own, or a
// peered hub's.
type gatewayLink struct {
	gw *model.Gateway
	// peering is the local (spoke) side towards the gateway's VNet; nil for
	// the VNet's own gateway. reverse is the hub side, nil when unknown.
	peering, reverse *model.Peering
	// reaches: the gateway's routes are propagated to the VNet.
	reaches bool
}

// gatewaysOf are the gateways deployed in a VNet, ExpressRoute first (Azure
// prefers ExpressRoute over VPN for the same prefix when both coexist), then
// by id.
func gatewaysOf(net *model.Network, vnetID model.ResourceID) []*model.Gateway {
	var out []*model.Gateway
	for _, k := range sortedKeys(net.Gateways) {
		if gw := net.Gateways[k]; gw.VNetID.Equal(vnetID) {
			out = append(out, gw)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return isExpressRoute(out[i]) && !isExpressRoute(out[j])
	})
	return out
}

func isExpressRoute(gw *model.Gateway) bool { return strings.EqualFold(gw.Type, "ExpressRoute") }

// gatewayLinks lists the gateways whose routes could reach vnet: its own,
// and those of every peered VNet (reaching only with gateway transit). A
// spoke that uses remote gateways of a hub whose gateway was not read gets
// a gap: Azure only allows useRemoteGateways towards a VNet with a gateway.
func gatewayLinks(net *model.Network, vnet *model.VNet) ([]gatewayLink, []scopedGap) {
	var links []gatewayLink
	own := gatewaysOf(net, vnet.ID)
	for _, gw := range own {
		links = append(links, gatewayLink{gw: gw, reaches: true})
	}
	gaps := unreadGateways(net, vnet.ID, own, "")
	for _, p := range vnet.Peerings {
		reverse, remoteKnown := net.PeeringBack(vnet.ID, p)
		hubGateways := gatewaysOf(net, p.RemoteVNetID)
		transit := p.Connected() && p.UseRemoteGateways && reverse != nil && reverse.Connected() && reverse.AllowGatewayTransit
		if p.UseRemoteGateways && p.Connected() && !remoteKnown && !model.IsHubVNet(p.RemoteVNetID) {
			// (A Virtual WAN hub's VNet is never read: hubRoutes names
			// the hub that was not read instead.)
			gaps = append(gaps, scopedGap{gap: gapFor(net, p.RemoteVNetID, model.GapNotFound,
				fmt.Sprintf("peering %s uses the remote gateways of %s, which was not read: whether it allows gateway transit is unknown", p.Name, p.RemoteVNetID.Name())), bgpOnly: true})
		}
		if transit {
			gaps = append(gaps, unreadGateways(net, p.RemoteVNetID, hubGateways, p.Name)...)
		}
		for _, gw := range hubGateways {
			links = append(links, gatewayLink{gw: gw, peering: p, reverse: reverse, reaches: transit})
		}
	}
	return links, gaps
}

// unreadGateways are the gaps of the gateways whose routes would reach a
// subnet but are not in the model: those the GatewaySubnet of their VNet
// names (ip configurations …/virtualNetworkGateways/{gw}/ipConfigurations/…)
// that were not read, each with the gap its read recorded; and, for a
// peering that uses the remote gateways (via names it), a hub of which no
// gateway was read at all (Azure only allows useRemoteGateways towards a
// VNet with a gateway). Gateway routes could change the selection of any
// destination outside the protected system routes, so, unknown, such a
// destination is unverified, never dropped by a default None route the
// gateway's routes would have overridden. One rule for a VNet's own
// gateways (a firewall or appliance subnet in the hub) and for a hub's
// gateways seen from a spoke through gateway transit.
func unreadGateways(net *model.Network, vnetID model.ResourceID, read []*model.Gateway, via string) []scopedGap {
	var gaps []scopedGap
	if v := net.VNet(vnetID); v != nil {
		for _, s := range v.Subnets {
			if !strings.EqualFold(s.Name, "GatewaySubnet") {
				continue
			}
			for _, id := range s.IPConfigurationOwners("ipConfigurations") {
				if !isGatewayID(id) || net.Gateway(id) != nil {
					continue
				}
				gaps = append(gaps, scopedGap{gap: gapFor(net, id, model.GapNotFound,
					fmt.Sprintf("gateway %s of %s was not read: the routes it propagates are unknown", id.Name(), vnetID.Name())), bgpOnly: true})
			}
		}
	}
	if via != "" && len(read) == 0 && len(gaps) == 0 {
		gaps = append(gaps, scopedGap{gap: model.Gap{ResourceID: vnetID, Kind: model.GapNotFound,
			Detail: fmt.Sprintf("peering %s uses the remote gateways of %s, but no gateway of that VNet was read", via, vnetID.Name())}, bgpOnly: true})
	}
	return gaps
}

// isGatewayID reports whether id is a virtual network gateway's
// (…/providers/Microsoft.Network/virtualNetworkGateways/{name}).
func isGatewayID(id model.ResourceID) bool {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	n := len(segs)
	return n >= 4 && strings.EqualFold(segs[n-4], "providers") &&
		strings.EqualFold(segs[n-3], "Microsoft.Network") && strings.EqualFold(segs[n-2], "virtualNetworkGateways")
}

// gatewayRoutes are the routes a gateway propagates: what it learned over
// BGP (getLearnedRoutes) except its own VNet's space (origin Network, or a
// prefix inside the gateway VNet's space: those are the VNet's system
// routes, not gateway routes), plus the prefixes of static local network
// gateways. One route per prefix: Azure lists a prefix once with every
// gateway instance as next hop.
func gatewayRoutes(net *model.Network, gw *model.Gateway) ([]model.Route, []scopedGap) {
	var gaps []scopedGap
	var gwSpace []netip.Prefix
	if v := net.VNet(gw.VNetID); v != nil {
		gwSpace = v.AddressSpace
	}
	var nextHop netip.Addr
	if len(gw.PrivateIPs) > 0 {
		nextHop = gw.PrivateIPs[0]
	}
	n := len(gw.Learned) + len(gw.StaticPrefixes)
	out := make([]model.Route, 0, n)
	add := func(p netip.Prefix, origin string) {
		p = p.Masked()
		if !p.IsValid() || coveredBySpace(gwSpace, p) {
			return
		}
		// A prefix listed twice is dropped after sorting (firstPerPrefix).
		out = append(out, model.Route{
			Prefix: p, NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: nextHop,
			Source: model.RouteSourceGateway, State: model.RouteStateActive,
			Origin: origin, OriginID: gw.ID,
		})
	}
	if gatewayLearnsBGP(gw) && !gw.LearnedKnown {
		gaps = append(gaps, scopedGap{gap: gapFor(net, gw.ID, model.GapUnavailable,
			fmt.Sprintf("the learned routes of gateway %s (getLearnedRoutes) were not read", gw.Name)), bgpOnly: true})
	}
	// Thousands of learned routes share a handful of (peer, origin) pairs:
	// their origin text is formatted once per pair.
	type peerOrigin struct {
		peer   netip.Addr
		origin string
	}
	origins := map[peerOrigin]string{}
	// Consecutive routes mostly come from one peer: the last pair's text
	// is reused without a map lookup.
	var last peerOrigin
	lastText, haveLast := "", false
	// Routes learned from a Route Server of the same VNet (branch-to-branch)
	// are that Route Server's: it programs them with the appliance as next
	// hop (see routeserver.go).
	rsIPs := routeServerIPs(net, gw.VNetID)
	for _, lr := range gw.Learned {
		if strings.EqualFold(lr.Origin, "Network") || rsIPs[lr.SourcePeer.Unmap()] {
			continue
		}
		k := peerOrigin{lr.SourcePeer, lr.Origin}
		if !haveLast || k != last {
			o, ok := origins[k]
			if !ok {
				o = fmt.Sprintf("gateway %s (learned from %s, %s)", gw.Name, lr.SourcePeer, lr.Origin)
				origins[k] = o
			}
			last, lastText, haveLast = k, o, true
		}
		add(lr.Prefix, lastText)
	}
	if !gw.StaticPrefixesKnown && len(gw.StaticPrefixes) == 0 {
		gaps = append(gaps, scopedGap{gap: gapFor(net, gw.ID, model.GapUnavailable,
			fmt.Sprintf("the connections (local network gateway prefixes) of gateway %s were not read", gw.Name)), bgpOnly: true})
	}
	for _, p := range gw.StaticPrefixes {
		add(p, fmt.Sprintf("gateway %s (local network gateway prefix)", gw.Name))
	}
	return out, gaps
}

// firstPerPrefix keeps, of routes sharing a prefix, the first one, in the
// routes' order, and returns them with their sorted keys (sortBlock):
// thousands of learned routes are deduplicated by the sort the table needs
// anyway instead of a map.
func firstPerPrefix(routes []model.Route) ([]model.Route, *sortedBlock) {
	b := sortBlock(routes)
	keep := make([]bool, len(routes))
	dups := false
	for i, k := range b.keys {
		// Keys of one prefix are adjacent, the lowest index first.
		if i > 0 && k.samePrefix(&b.keys[i-1]) {
			dups = true
			continue
		}
		keep[k.idx] = true
	}
	if !dups {
		return routes, b
	}
	kept := routes[:0:0]
	for i, r := range routes {
		if keep[i] {
			kept = append(kept, r)
		}
	}
	return kept, sortBlock(kept)
}

// gatewayLearnsBGP reports whether a gateway's routes come (also) from BGP:
// BGP-enabled VPN gateways, and ExpressRoute gateways, which always run BGP
// whatever enableBgp says.
func gatewayLearnsBGP(gw *model.Gateway) bool { return gw.BGPEnabled || isExpressRoute(gw) }

// staticOnly reports whether dst reaches the gateway's on-premises side only
// through a static local network gateway prefix (no BGP route covers it):
// the on-premises side of such a connection cannot be read.
func staticOnly(gw *model.Gateway, dst netip.Addr) bool {
	for _, lr := range gw.Learned {
		if !strings.EqualFold(lr.Origin, "Network") && lr.Prefix.Contains(dst) {
			return false
		}
	}
	return anyContains(gw.StaticPrefixes, dst) || !gatewayLearnsBGP(gw)
}
