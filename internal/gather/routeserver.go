package gather

import (
	"context"
	"fmt"
	"sort"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// RouteServer reads an Azure Route Server (a virtualHubs resource) with its
// BGP connections and, per connection, the routes it learned from that
// peer (learnedRoutes); vnetID is the VNet whose RouteServerSubnet holds it. A failed connection list leaves PeersKnown false,
// a failed route read that peer's LearnedKnown false; each is a gap on what
// could not be read (…/bgpConnections, …/bgpConnections/{c}/learnedRoutes).
func (r *Reader) RouteServer(ctx context.Context, id, vnetID model.ResourceID) (*model.RouteServer, error) {
	return once(r, memoKey("routeserver", id), func() (*model.RouteServer, error) {
		raw, f, a, err := r.virtualHubGet(ctx, id)
		if err != nil {
			return nil, err
		}
		rs, err := routeServerFromSDK(raw)
		if err != nil {
			return nil, r.fail(id, permVirtualHubRead, err)
		}
		rs.VNetID = vnetID

		coll := child(id, "bgpConnections")
		conns, err := collect(ctx, r, f.NewVirtualHubBgpConnectionsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armnetwork.VirtualHubBgpConnectionsClientListResponse) []*armnetwork.BgpConnection {
				return p.Value
			})
		if err != nil {
			r.record(coll, permRouteServerPeerRead, err)
			return rs, nil
		}
		peers, err := routeServerPeersFromSDK(coll, conns)
		if err != nil {
			r.record(coll, permRouteServerPeerRead, err)
			return rs, nil
		}
		c := f.NewVirtualHubBgpConnectionsClient()
		routes, errs := mapEach(ctx, r, peers, func(ctx context.Context, p model.RouteServerPeer) ([]model.GatewayRoute, error) {
			res, err := pollAction(ctx, r.acquire, func(ctx context.Context) (*runtime.Poller[armnetwork.VirtualHubBgpConnectionsClientListLearnedRoutesResponse], error) {
				return c.BeginListLearnedRoutes(ctx, a.ResourceGroup, a.Names[0], p.Name, nil)
			})
			if err != nil {
				return nil, err
			}
			return peerRoutesFromSDK(child(p.ID, "learnedRoutes"), res.Value)
		})
		for i := range peers {
			if errs[i] != nil {
				r.record(child(peers[i].ID, "learnedRoutes"), permRouteServerLearnedRoutes, errs[i])
				continue
			}
			peers[i].Learned, peers[i].LearnedKnown = routes[i], true
		}
		rs.Peers, rs.PeersKnown = peers, true
		return rs, nil
	})
}

// RouteServersOfVNet reads the Route Servers of a VNet: those whose ip
// configurations its RouteServerSubnet lists (…/virtualHubs/{h}/ipConfigurations/{c}),
// at no extra read to find them. Partial results come with the joined
// errors of the reads that failed.
func (r *Reader) RouteServersOfVNet(ctx context.Context, vnet *model.VNet) ([]*model.RouteServer, error) {
	out, errs := mapEach(ctx, r, vnet.RouteServerIDs(), func(ctx context.Context, id model.ResourceID) (*model.RouteServer, error) {
		return r.RouteServer(ctx, id, vnet.ID)
	})
	var found []*model.RouteServer
	for _, rs := range out {
		if rs != nil {
			found = append(found, rs)
		}
	}
	return found, joinErrs(errs)
}

// routeServerFromSDK converts a virtual hub used as a Route Server. Its
// VNet is the one whose RouteServerSubnet holds its ip configurations,
// which the hub answer does not embed: the caller sets VNetID. Its
// unmodelled settings are not taken: those of the virtualHubs struct in
// the open-world table concern Virtual WAN hubs (legacy route tables, a
// security partner, a hub's BGP peers, a Basic hub), and a Route Server's
// own peers and their learned routes are read here.
func routeServerFromSDK(h *armnetwork.VirtualHub) (*model.RouteServer, error) {
	if h == nil || h.ID == nil {
		return nil, fmt.Errorf("virtual hub without id")
	}
	out := &model.RouteServer{ID: rid(h.ID), Name: str(h.Name)}
	if h.Properties == nil {
		return out, nil
	}
	ips, err := addrs(out.ID, "properties.virtualRouterIps", h.Properties.VirtualRouterIPs)
	if err != nil {
		return nil, err
	}
	out.RouterIPs = ips
	return out, nil
}

// routeServerPeersFromSDK converts a Route Server's BGP connections, by
// name for a stable order.
func routeServerPeersFromSDK(coll model.ResourceID, in []*armnetwork.BgpConnection) ([]model.RouteServerPeer, error) {
	var out []model.RouteServerPeer
	for i, c := range in {
		if c == nil {
			continue
		}
		p := model.RouteServerPeer{ID: rid(c.ID), Name: str(c.Name)}
		if p.ID.IsZero() {
			p.ID = child(coll, p.Name)
		}
		if c.Properties != nil {
			a, err := addr(coll, fmt.Sprintf("value[%d].properties.peerIp", i), c.Properties.PeerIP)
			if err != nil {
				return nil, err
			}
			p.IP = a
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// peerRoutesFromSDK flattens learnedRoutes, an answer per Route Server
// instance, into one list without duplicates.
func peerRoutesFromSDK(action model.ResourceID, in map[string][]*armnetwork.PeerRoute) ([]model.GatewayRoute, error) {
	instances := make([]string, 0, len(in))
	for k := range in {
		instances = append(instances, k)
	}
	sort.Strings(instances)
	type key struct {
		prefix, hop string
	}
	seen := map[key]bool{}
	var out []model.GatewayRoute
	for _, inst := range instances {
		for i, r := range in[inst] {
			if r == nil {
				continue
			}
			gr, err := gatewayRoute(action, fmt.Sprintf("value.%s[%d]", inst, i), r.Network, r.NextHop, r.SourcePeer, r.Origin, r.AsPath)
			if err != nil {
				return nil, err
			}
			k := key{gr.Prefix.String(), gr.NextHop.String()}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, gr)
		}
	}
	return out, nil
}
