package gather

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Virtual WAN (model/vwan.go): a VNet's peering to a hub's VNet (HV_…) is
// never read through that VNet, which lives in a subscription Microsoft
// owns. Resource Graph finds the hubVirtualNetworkConnection whose
// remoteVirtualNetwork is the VNet, in every subscription the identity can
// read; the hub, its connections, route tables and routing intent are read
// from there, and the VNets connected to the same hub join the network's
// closure like peers.

// hubVNetPeerings returns the ids of the hub VNets (HV_…) the VNet is
// peered with.
func hubVNetPeerings(v *model.VNet) []model.ResourceID {
	var out []model.ResourceID
	for _, p := range v.Peerings {
		if model.IsHubVNet(p.RemoteVNetID) {
			out = appendUniqueID(out, p.RemoteVNetID)
		}
	}
	return out
}

// HubConnectionsOf asks Azure Resource Graph which Virtual WAN hub
// connections name the VNets as their remote VNet, and returns, per VNet id
// key, the virtual hub it is connected to. Failures are a gap on
// ResourceGraphQuery, as for zone links.
func (r *Reader) HubConnectionsOf(ctx context.Context, vnets []model.ResourceID) (map[string]model.ResourceID, error) {
	q := model.NewHubConnectionQuery(vnets)
	want := map[string]bool{}
	for _, k := range q.VNets {
		want[k] = true
	}
	return read(r, "hubconnections "+strings.Join(q.VNets, " "), ResourceGraphQuery, permResourceGraphRead, func() (map[string]model.ResourceID, error) {
		client, err := r.clients.ResourceGraph()
		if err != nil {
			return nil, err
		}
		query := q.KQL()
		// The request carries the query, so that the what-if overlay
		// answers it from the planned connections too.
		ctx := azure.WithGraphSearch(ctx, q)
		out := map[string]model.ResourceID{}
		err = r.graphQuery(ctx, client, query, "Virtual WAN hub connections", func(row map[string]any) {
			if vnet, hub, ok := hubConnectionRow(row, want); ok {
				if have, dup := out[vnet]; !dup || hub.Key() < have.Key() {
					out[vnet] = hub
				}
			}
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	})
}

// hubConnectionRow reads a hub connection row: the VNet (id key) it
// connects, when one of want, and its virtual hub.
func hubConnectionRow(row map[string]any, want map[string]bool) (string, model.ResourceID, bool) {
	id, _ := row["id"].(string)
	a, err := parseID(model.ResourceID(id))
	if err != nil || !isType(a, "Microsoft.Network", "virtualHubs", "hubVirtualNetworkConnections") {
		return "", "", false
	}
	vnet := model.HubConnectionRowVNet(row)
	key := model.ResourceID(vnet).Key()
	if vnet == "" || !want[key] {
		return "", "", false
	}
	return key, model.ResourceID(id).Parent(), true
}

// VirtualHub reads a Virtual WAN hub with its connections, route tables
// and routing intent. A failed child list leaves its Known flag false and
// is a gap on that list (…/hubVirtualNetworkConnections, …/hubRouteTables,
// …/routingIntent).
func (r *Reader) VirtualHub(ctx context.Context, id model.ResourceID) (*model.VirtualHub, error) {
	return once(r, memoKey("virtualhub", id), func() (*model.VirtualHub, error) {
		raw, f, a, err := r.virtualHubGet(ctx, id)
		if err != nil {
			return nil, err
		}
		hub, err := virtualHubFromSDK(raw)
		if err != nil {
			return nil, r.fail(id, permVirtualHubRead, err)
		}
		rg, name := a.ResourceGroup, a.Names[0]
		all(ctx, r, func(ctx context.Context) {
			coll := child(id, "hubVirtualNetworkConnections")
			conns, err := collect(ctx, r, f.NewHubVirtualNetworkConnectionsClient().NewListPager(rg, name, nil),
				func(p armnetwork.HubVirtualNetworkConnectionsClientListResponse) []*armnetwork.HubVirtualNetworkConnection {
					return p.Value
				})
			if err != nil {
				r.record(coll, permHubConnectionRead, err)
				return
			}
			for _, c := range conns {
				mc, err := hubConnectionFromSDK(c)
				if err != nil {
					r.record(coll, permHubConnectionRead, err)
					return
				}
				hub.Connections = append(hub.Connections, mc)
			}
			hub.ConnectionsKnown = true
		}, func(ctx context.Context) {
			coll := child(id, "hubRouteTables")
			tables, err := collect(ctx, r, f.NewHubRouteTablesClient().NewListPager(rg, name, nil),
				func(p armnetwork.HubRouteTablesClientListResponse) []*armnetwork.HubRouteTable { return p.Value })
			if err != nil {
				r.record(coll, permHubRouteTableRead, err)
				return
			}
			for _, t := range tables {
				mt, err := hubRouteTableFromSDK(t)
				if err != nil {
					r.record(coll, permHubRouteTableRead, err)
					return
				}
				hub.RouteTables = append(hub.RouteTables, mt)
			}
			hub.AddBuiltinRouteTables()
			hub.RouteTablesKnown = true
		}, func(ctx context.Context) {
			coll := child(id, "routingIntent")
			intents, err := collect(ctx, r, f.NewRoutingIntentClient().NewListPager(rg, name, nil),
				func(p armnetwork.RoutingIntentClientListResponse) []*armnetwork.RoutingIntent { return p.Value })
			if err != nil {
				r.record(coll, permRoutingIntentRead, err)
				return
			}
			if len(intents) > 0 {
				hub.Intent = routingIntentFromSDK(intents[0])
			}
			hub.IntentKnown = true
		})
		return hub, nil
	})
}

// hubsOfVNets finds and reads the virtual hubs the VNets (each with a
// peering to a hub VNet) are connected to. A VNet whose hub cannot be
// found or read gets a gap on its hub VNet that says which read to grant
// (never a read of the hub VNet itself); the returned hubs carry their hub
// VNet id, and a hub that could not be read is returned as a stub (no
// connections known) so that routing finds its gap.
func (r *Reader) hubsOfVNets(ctx context.Context, vnets []*model.VNet) []*model.VirtualHub {
	var ids []model.ResourceID
	for _, v := range vnets {
		ids = append(ids, v.ID)
	}
	conns, err := r.HubConnectionsOf(ctx, ids)
	byID := map[string]*model.VirtualHub{}
	var order []model.ResourceID
	for _, v := range vnets {
		hvs := hubVNetPeerings(v)
		hubID, ok := conns[v.ID.Key()]
		if !ok {
			for _, hv := range hvs {
				gap := model.Gap{ResourceID: hv, Kind: model.GapNotFound,
					Detail: fmt.Sprintf("%s is peered with Virtual WAN hub VNet %s, but no virtual hub connection of %s is visible in Azure Resource Graph; the hub VNet itself is Microsoft's and cannot be read: grant %s and %s on the virtual hub's resource group", v.Name, hv.Name(), v.Name, permVirtualHubRead, permHubConnectionRead)}
				if err != nil {
					if g, found := r.Gaps().Lookup(ResourceGraphQuery); found {
						gap.Kind, gap.Permission, gap.Snapshot = g.Kind, permResourceGraphRead, g.Snapshot
						gap.Detail = fmt.Sprintf("the Resource Graph search for the virtual hub %s is connected to failed (%s); the hub VNet %s itself is Microsoft's and cannot be read", v.Name, g.Detail, hv.Name())
					}
				}
				r.gapsMu.Lock()
				r.gaps.Add(gap)
				r.gapsMu.Unlock()
			}
			continue
		}
		if byID[hubID.Key()] == nil {
			byID[hubID.Key()] = &model.VirtualHub{ID: hubID, Name: hubID.Name()}
			order = append(order, hubID)
		}
		if len(hvs) > 0 && byID[hubID.Key()].HubVNetID.IsZero() {
			byID[hubID.Key()].HubVNetID = hvs[0]
		}
	}
	got, _ := mapEach(ctx, r, order, r.VirtualHub)
	out := make([]*model.VirtualHub, 0, len(order))
	for i, id := range order {
		stub := byID[id.Key()]
		if got[i] == nil {
			out = append(out, stub)
			continue
		}
		h := *got[i]
		h.HubVNetID = stub.HubVNetID
		out = append(out, &h)
	}
	return out
}

// addHubs stores the hubs in n, marks the peerings Virtual WAN manages,
// and stands in for each hub's VNet (model/vwan.go): its address prefix,
// an AzureFirewallSubnet holding the hub's firewall, and a peering back to
// every connected VNet that was read. It returns the ids whose failed
// reads count only where a path uses them: the hubs (and their children)
// and the hubs' VNets; a connected VNet is read like a peer, and its
// failed read is evidence like a peer's.
func addHubs(n *model.Network, hubs []*model.VirtualHub) []model.ResourceID {
	var speculative []model.ResourceID
	for _, h := range hubs {
		n.VirtualHubs[h.ID.Key()] = h
		speculative = append(speculative, h.ID)
		if !h.HubVNetID.IsZero() {
			speculative = append(speculative, h.HubVNetID)
		}
		if h.HubVNetID.IsZero() || !h.AddressPrefix.IsValid() {
			continue
		}
		hv := &model.VNet{ID: h.HubVNetID, Name: h.HubVNetID.Name(), Location: h.Location, AddressSpace: []netip.Prefix{h.AddressPrefix}}
		hv.Subnets = []*model.Subnet{{ID: model.HubFirewallSubnet(h.HubVNetID), VNetID: h.HubVNetID, Name: firewallSubnetName, Prefixes: []netip.Prefix{h.AddressPrefix}}}
		for _, c := range h.Connections {
			remote := n.VNet(c.RemoteVNetID)
			if remote == nil {
				continue
			}
			for _, p := range remote.Peerings {
				if p.RemoteVNetID.Equal(h.HubVNetID) {
					p.VirtualHubID = h.ID
					completeHubPeering(p, h)
				}
			}
			hv.Peerings = append(hv.Peerings, &model.Peering{
				ID: c.ID, Name: c.Name, VNetID: h.HubVNetID, RemoteVNetID: remote.ID,
				State: "Connected", SyncLevel: "FullyInSync",
				AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
				RemoteAddressSpace:        append([]netip.Prefix(nil), remote.AddressSpace...),
				RemoteCurrentAddressSpace: append([]netip.Prefix(nil), remote.AddressSpace...),
				VirtualHubID:              h.ID,
			})
		}
		n.AddVNet(hv)
	}
	return speculative
}

// completeHubPeering fills what a connected VNet's peering to its hub's
// VNet leaves out (a snapshot written by hand): Azure creates and removes
// that peering with the hub connection, which is listed, so an unrecorded
// peeringState is Connected and an unrecorded allowVirtualNetworkAccess
// true, as the hub's side stands in; and the hub's VNet holds the hub's
// address prefix, so an unrecorded remote address space is that prefix.
// What the peering records is kept.
func completeHubPeering(p *model.Peering, h *model.VirtualHub) {
	if p.State == "" {
		p.State = "Connected"
	}
	if p.AccessUnrecorded {
		p.AllowVirtualNetworkAccess, p.AccessUnrecorded = true, false
	}
	if len(p.RemoteAddressSpace) == 0 && len(p.RemoteCurrentAddressSpace) == 0 && h.AddressPrefix.IsValid() {
		p.RemoteAddressSpace = []netip.Prefix{h.AddressPrefix}
		p.RemoteCurrentAddressSpace = []netip.Prefix{h.AddressPrefix}
	}
}
