package gather

import (
	"context"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A Virtual WAN hub's effective routes (model/vwan_effective.go): what the
// hub's router holds for its defaultRouteTable, POST
// virtualHubs/{hub}/effectiveRoutes with the route table as the resource
// ("Virtual Hubs - Get Effective Virtual Hub Routes"). They are pending
// (model.EvidenceHubEffectiveRoutes) for every hub whose connections and
// route tables were read, and read only for a path that needs them
// (routing/vwan_effective.go, routing/vwan_branch.go): for a hub with a
// site-to-site VPN or ExpressRoute gateway (model.VirtualHub.HasBranchGateway),
// a path whose first hop uses the hub or that the computed routes drop (a
// cross-check) or that a branch route could take; for a hub without one,
// only a path the computed routes drop to a destination no read places
// (the evidence of routes from hubs of the Virtual WAN that were not read).

// hubEffectiveRouteType is the virtualWanResourceType of a hub route
// table in the effective routes request.
const hubEffectiveRouteType = "RouteTable"

// markHubEffectiveRoutes marks pending the effective routes of every hub
// whose connections and route tables were read: a path that needs them
// reads them (ReadEvidence), no other path does.
func markHubEffectiveRoutes(n *model.Network, hubs []*model.VirtualHub) {
	for _, h := range hubs {
		if h.ConnectionsKnown && h.RouteTablesKnown {
			n.Pending.Add(model.HubEffectiveRoutesOf(h.ID))
		}
	}
}

// readHubEffectiveRoutes is the evidence reader of
// model.EvidenceHubEffectiveRoutes. A failed read is a gap on the action
// (…/virtualHubs/{hub}/effectiveRoutes); under a plan that changes the
// hub's routing Azure's answer describes the hub before the plan, so no
// routes are stored and no gap recorded, only that they were not read
// under the plan (Network.HubEffectiveUnderPlan): the routes computed from
// the planned configuration stand alone, as for a NIC's effective routes,
// except for a path only the effective routes could decide.
func (r *Reader) readHubEffectiveRoutes(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	hub := n.VirtualHub(ev.ID)
	mu.Unlock()
	if hub == nil {
		return
	}
	routes, err := r.HubEffectiveRoutes(ctx, hub.ID, hub.DefaultRouteTable())
	if err != nil {
		return
	}
	if routes == nil {
		// Under a plan that changes the hub's routing: said, so that a
		// path only they could decide is unverified, not computed.
		mu.Lock()
		if n.HubEffectiveUnderPlan == nil {
			n.HubEffectiveUnderPlan = map[string]bool{}
		}
		n.HubEffectiveUnderPlan[hub.ID.Key()] = true
		mu.Unlock()
		return
	}
	mu.Lock()
	if n.HubEffectiveRoutes == nil {
		n.HubEffectiveRoutes = map[string]*model.HubEffectiveRoutes{}
	}
	n.HubEffectiveRoutes[hub.ID.Key()] = routes
	mu.Unlock()
}

// HubEffectiveRoutes reads the effective routes of a hub route table
// (once per hub per plan).
func (r *Reader) HubEffectiveRoutes(ctx context.Context, hubID, tableID model.ResourceID) (*model.HubEffectiveRoutes, error) {
	action := child(hubID, "effectiveRoutes")
	return once(r, memoKey("hubeffective", action), func() (*model.HubEffectiveRoutes, error) {
		out, err := r.hubEffectiveRoutes(ctx, hubID, tableID)
		switch {
		case err == nil:
			return out, nil
		case azure.IsPlannedStale(err):
			return nil, nil
		default:
			return nil, r.fail(action, permHubEffectiveRoutes, err)
		}
	})
}

func (r *Reader) hubEffectiveRoutes(ctx context.Context, hubID, tableID model.ResourceID) (*model.HubEffectiveRoutes, error) {
	a, err := parseTyped(hubID, "Microsoft.Network", "virtualHubs")
	if err != nil {
		return nil, err
	}
	f, err := r.clients.Network(a.SubscriptionID)
	if err != nil {
		return nil, err
	}
	resp, err := pollAction(ctx, r.acquireAction, func(ctx context.Context) (*runtime.Poller[armnetwork.VirtualHubsClientGetEffectiveVirtualHubRoutesResponse], error) {
		return f.NewVirtualHubsClient().BeginGetEffectiveVirtualHubRoutes(ctx, a.ResourceGroup, a.Names[0],
			&armnetwork.VirtualHubsClientBeginGetEffectiveVirtualHubRoutesOptions{EffectiveRoutesParameters: &armnetwork.EffectiveRoutesParameters{
				ResourceID: to.Ptr(string(tableID)), VirtualWanResourceType: to.Ptr(hubEffectiveRouteType),
			}})
	})
	if err != nil {
		return nil, err
	}
	return hubEffectiveRoutesFromSDK(tableID, resp.Value)
}

// hubEffectiveRoutesFromSDK converts the answer; a prefix that does not
// parse makes the answer unusable (an error, a gap), never a shorter list.
func hubEffectiveRoutesFromSDK(tableID model.ResourceID, in []*armnetwork.VirtualHubEffectiveRoute) (*model.HubEffectiveRoutes, error) {
	out := &model.HubEffectiveRoutes{TableID: tableID}
	for _, e := range in {
		if e == nil {
			continue
		}
		var hr model.HubEffectiveRoute
		ps, err := prefixes(child(tableID, "effectiveRoutes"), "addressPrefixes", e.AddressPrefixes)
		if err != nil {
			return nil, err
		}
		hr.Prefixes = ps
		for _, s := range e.NextHops {
			if s != nil && *s != "" {
				hr.NextHops = append(hr.NextHops, model.ResourceID(*s))
			}
		}
		if e.NextHopType != nil {
			hr.NextHopType = *e.NextHopType
		}
		if e.RouteOrigin != nil {
			hr.Origin = *e.RouteOrigin
		}
		out.Routes = append(out.Routes, hr)
	}
	return out, nil
}
