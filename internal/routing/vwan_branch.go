package routing

import (
	"fmt"
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Branches behind a virtual hub ("About virtual hub routing"): a hub's
// site-to-site VPN and ExpressRoute gateways learn the branches' prefixes
// over BGP and their connections propagate them (to defaultRouteTable
// unless configured otherwise); a branch's 0.0.0.0/0 reaches only
// connections with enableInternetSecurity. Which prefixes a branch
// advertises is not in any resource's configuration: the hub's effective
// routes show them. Until those are read, every destination a branch route
// could send elsewhere than the route selected is unverified, naming the
// gateway.

// branchGaps are the gaps of the branch prefixes hub may program into a
// VNet connected by conn (next hop router, the hub's router address).
func branchGaps(hub *model.VirtualHub, conn *model.HubConnection, router netip.Addr) []scopedGap {
	var gaps []scopedGap
	for _, gw := range []struct {
		id   model.ResourceID
		kind string
	}{{hub.VPNGatewayID, "site-to-site VPN gateway"}, {hub.ExpressRouteGatewayID, "ExpressRoute gateway"}} {
		if gw.id.IsZero() {
			continue
		}
		detail := fmt.Sprintf("virtual hub %s has %s %s: the branch prefixes it learns over BGP, which its connections propagate (to defaultRouteTable unless configured otherwise) into %s, are not in Azure Resource Manager configuration; the hub's effective routes show them", hub.Name, gw.kind, gw.id.Name(), conn.Name)
		if conn.EnableInternetSecurity {
			detail += " (a branch's 0.0.0.0/0 included: connection " + conn.Name + " has enableInternetSecurity)"
		}
		gaps = append(gaps, scopedGap{
			gap:     model.Gap{ResourceID: gw.id, Kind: model.GapUnavailable, Detail: detail},
			bgpOnly: true,
			// A branch route's next hop is the hub's router: where the
			// route selected already goes there, the packet reaches the
			// hub either way.
			sameHop: &model.Route{NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: router},
		})
	}
	return gaps
}
