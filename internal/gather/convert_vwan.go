package gather

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// virtualHubFromSDK converts a Virtual WAN hub (without its connections,
// route tables and routing intent, which are children read on their own).
func virtualHubFromSDK(h *armnetwork.VirtualHub) (*model.VirtualHub, error) {
	out := &model.VirtualHub{ID: rid(h.ID), Name: str(h.Name), Location: str(h.Location)}
	out.Unmodelled = unmodelledOf(out.ID, h)
	p := h.Properties
	if p == nil {
		return nil, fmt.Errorf("%s: virtual hub without properties", string(out.ID))
	}
	if s := str(p.AddressPrefix); s != "" {
		pfx, err := parsePrefix(s)
		if err != nil {
			return nil, fieldError(out.ID, "properties.addressPrefix", s, err)
		}
		out.AddressPrefix = pfx
	}
	ips, err := addrs(out.ID, "properties.virtualRouterIps", p.VirtualRouterIPs)
	if err != nil {
		return nil, err
	}
	out.RouterIPs = ips
	if p.AzureFirewall != nil {
		out.FirewallID = rid(p.AzureFirewall.ID)
	}
	if p.VirtualWan != nil {
		out.VirtualWANID = rid(p.VirtualWan.ID)
	}
	if p.VPNGateway != nil {
		out.VPNGatewayID = rid(p.VPNGateway.ID)
	}
	if p.ExpressRouteGateway != nil {
		out.ExpressRouteGatewayID = rid(p.ExpressRouteGateway.ID)
	}
	if p.RoutingState != nil {
		out.RoutingState = string(*p.RoutingState)
	}
	return out, nil
}

// hubConnectionFromSDK converts a hubVirtualNetworkConnection.
func hubConnectionFromSDK(c *armnetwork.HubVirtualNetworkConnection) (*model.HubConnection, error) {
	out := &model.HubConnection{ID: rid(c.ID), Name: str(c.Name)}
	out.Unmodelled = unmodelledOf(out.ID, c)
	p := c.Properties
	if p == nil {
		return out, nil
	}
	if p.RemoteVirtualNetwork != nil {
		out.RemoteVNetID = rid(p.RemoteVirtualNetwork.ID)
	}
	out.EnableInternetSecurity = boolv(p.EnableInternetSecurity)
	out.InternetSecurityUnrecorded = p.EnableInternetSecurity == nil
	rc := p.RoutingConfiguration
	if rc == nil {
		return out, nil
	}
	if rc.AssociatedRouteTable != nil {
		out.AssociatedRouteTable = rid(rc.AssociatedRouteTable.ID)
	}
	if pr := rc.PropagatedRouteTables; pr != nil {
		for _, id := range pr.IDs {
			if id != nil && str(id.ID) != "" {
				out.PropagatedRouteTables = append(out.PropagatedRouteTables, rid(id.ID))
			}
		}
		for _, l := range pr.Labels {
			if s := str(l); s != "" {
				out.PropagatedLabels = append(out.PropagatedLabels, s)
			}
		}
	}
	if vr := rc.VnetRoutes; vr != nil {
		for i, sr := range vr.StaticRoutes {
			if sr == nil {
				continue
			}
			ps, err := prefixes(out.ID, fmt.Sprintf("properties.routingConfiguration.vnetRoutes.staticRoutes[%d].addressPrefixes", i), sr.AddressPrefixes)
			if err != nil {
				return nil, err
			}
			var nh netip.Addr
			if sr.NextHopIPAddress != nil {
				if nh, err = addr(out.ID, fmt.Sprintf("properties.routingConfiguration.vnetRoutes.staticRoutes[%d].nextHopIpAddress", i), sr.NextHopIPAddress); err != nil {
					return nil, err
				}
			}
			out.StaticRoutes = append(out.StaticRoutes, model.HubStaticRoute{Name: str(sr.Name), Prefixes: ps, NextHopIP: nh})
		}
		if cfg := vr.StaticRoutesConfig; cfg != nil {
			// propagateStaticRoutes: true unless set false;
			// vnetLocalRouteOverrideCriteria: Contains unless Equal.
			out.StaticRoutesNotPropagated = cfg.PropagateStaticRoutes != nil && !*cfg.PropagateStaticRoutes
			out.BypassStaticRoutesInVNet = cfg.VnetLocalRouteOverrideCriteria != nil &&
				strings.EqualFold(string(*cfg.VnetLocalRouteOverrideCriteria), string(armnetwork.VnetLocalRouteOverrideCriteriaEqual))
		}
	}
	return out, nil
}

// hubRouteTableFromSDK converts a hub route table. Destinations that are
// not CIDR (destinationType ResourceId or Service) name no prefix the
// provider can match and are left out.
func hubRouteTableFromSDK(t *armnetwork.HubRouteTable) (*model.HubRouteTable, error) {
	out := &model.HubRouteTable{ID: rid(t.ID), Name: str(t.Name)}
	out.Unmodelled = unmodelledOf(out.ID, t)
	p := t.Properties
	if p == nil {
		return out, nil
	}
	for _, l := range p.Labels {
		if s := str(l); s != "" {
			out.Labels = append(out.Labels, s)
		}
	}
	for i, r := range p.Routes {
		if r == nil {
			continue
		}
		hr := model.HubRoute{Name: str(r.Name), NextHop: model.ResourceID(str(r.NextHop))}
		if dt := str(r.DestinationType); dt == "" || strings.EqualFold(dt, "CIDR") {
			ps, err := prefixes(out.ID, fmt.Sprintf("properties.routes[%d].destinations", i), r.Destinations)
			if err != nil {
				return nil, err
			}
			hr.Destinations = ps
		}
		out.Routes = append(out.Routes, hr)
	}
	return out, nil
}

// routingIntentFromSDK converts a routing intent: the next hop of its
// PrivateTraffic and Internet policies.
func routingIntentFromSDK(ri *armnetwork.RoutingIntent) *model.RoutingIntent {
	out := &model.RoutingIntent{ID: rid(ri.ID)}
	if ri.Properties == nil {
		return out
	}
	for _, pol := range ri.Properties.RoutingPolicies {
		if pol == nil {
			continue
		}
		for _, d := range pol.Destinations {
			switch s := str(d); {
			case str(pol.NextHop) == "" && (strings.EqualFold(s, model.IntentPrivateTraffic) || strings.EqualFold(s, model.IntentInternet)):
				out.NoNextHop = append(out.NoNextHop, s)
			case strings.EqualFold(s, model.IntentPrivateTraffic):
				out.PrivateNextHop = model.ResourceID(str(pol.NextHop))
			case strings.EqualFold(s, model.IntentInternet):
				out.InternetNextHop = model.ResourceID(str(pol.NextHop))
			default:
				out.UnknownPolicies = append(out.UnknownPolicies, s)
			}
		}
	}
	return out
}
