package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// effectiveOf is what the hub's defaultRouteTable reports: each
// connected VNet's space, next hop its connection.
func (f *vwanFixture) effectiveOf(conns ...*model.HubConnection) *model.HubEffectiveRoutes {
	out := &model.HubEffectiveRoutes{TableID: f.def.ID}
	for _, c := range conns {
		v := f.b.net.VNet(c.RemoteVNetID)
		out.Routes = append(out.Routes, model.HubEffectiveRoute{Prefixes: v.AddressSpace, NextHopType: "Virtual Network Connection", NextHops: []model.ResourceID{c.ID}, Origin: string(c.ID)})
	}
	return out
}

func (f *vwanFixture) setEffective(eff *model.HubEffectiveRoutes) {
	f.b.net.HubEffectiveRoutes = map[string]*model.HubEffectiveRoutes{f.hub.ID.Key(): eff}
}

func TestHubEffectiveRoutesPendingUntilAPathUsesTheHub(t *testing.T) {
	f := newVWAN()
	f.b.net.Pending.Add(model.HubEffectiveRoutesOf(f.hub.ID))
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unverified || len(res.Needs) != 1 || res.Needs[0].Kind != model.EvidenceHubEffectiveRoutes {
		t.Fatalf("a path through the hub: verdict %v needs %+v, want unverified needing the hub's effective routes", res.Verdict, res.Needs)
	}
	// Inside the VNet the hub is not used: nothing is needed.
	local := e.Trace(f.aks.ID, ip("10.1.0.10"))
	if len(local.Needs) != 0 || local.Verdict != model.Reachable {
		t.Fatalf("a path inside the VNet: verdict %v needs %+v, want reachable needing nothing", local.Verdict, local.Needs)
	}
	// A public destination left by the Internet route does not use it.
	public := e.Trace(f.aks.ID, ip("20.50.2.10"))
	if len(public.Needs) != 0 {
		t.Fatalf("a public path needs %+v", public.Needs)
	}
}

func TestHubEffectiveRoutesAgree(t *testing.T) {
	f := newVWAN()
	f.setEffective(f.effectiveOf(f.connSpoke, f.connShared))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Reachable || hasCode(res.Findings, model.CoverageModelDrift) {
		t.Fatalf("agreeing effective routes: verdict %v findings %+v", res.Verdict, res.Findings)
	}
}

func TestHubEffectiveRoutesDriftFollowsTheHub(t *testing.T) {
	f := newVWAN()
	// The configuration propagates vnet-shared nowhere the nodes see; the
	// hub's router holds its prefix all the same.
	f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
	f.setEffective(f.effectiveOf(f.connSpoke, f.connShared))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if !hasCode(res.Findings, model.CoverageModelDrift) || hasCode(res.Findings, model.RouteHubNotPropagated) {
		t.Fatalf("findings %+v, want COVERAGE_MODEL_DRIFT and no ROUTE_HUB_NOT_PROPAGATED", res.Findings)
	}
	for _, fd := range res.Findings {
		if fd.Code == model.CoverageModelDrift && (!fd.Resource.Equal(f.def.ID) || !strings.Contains(fd.Message, "Virtual WAN hub hub-weu")) {
			t.Errorf("drift finding on %s: %s", fd.Resource, fd.Message)
		}
	}
	if res.Arrival.Kind != ArrivalSubnet || !res.Arrival.SubnetID.Equal(f.app.ID) {
		t.Fatalf("the path does not follow the hub's router into vnet-shared: arrival %+v", res.Arrival)
	}
}

func TestHubEffectiveRoutesDriftDrops(t *testing.T) {
	f := newVWAN()
	// The configuration gives the route; the hub's router does not hold it.
	f.setEffective(f.effectiveOf(f.connSpoke))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.CoverageModelDrift) || !hasCode(res.Findings, model.RouteBlackhole) {
		t.Fatalf("verdict %v findings %+v, want unreachable with COVERAGE_MODEL_DRIFT and ROUTE_BLACKHOLE", res.Verdict, res.Findings)
	}
}

func TestHubEffectiveRoutesFailedReadIsEvidenceOnThePath(t *testing.T) {
	f := newVWAN()
	action := model.ResourceID(string(f.hub.ID) + "/effectiveRoutes")
	f.b.net.Gaps = model.Gaps{}
	f.b.net.Gaps.Add(model.Gap{ResourceID: action, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/effectiveRoutes/action"})
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(action) {
		t.Fatalf("verdict %v gaps %+v, want unverified on %s", res.Verdict, res.Gaps, action)
	}
	if local := e.Trace(f.aks.ID, ip("10.1.0.10")); local.Verdict != model.Reachable {
		t.Fatalf("a path that does not use the hub: verdict %v gaps %+v", local.Verdict, local.Gaps)
	}
}

func TestHubEffectiveRoutesNotReadUnderAPlan(t *testing.T) {
	// Neither pending, nor read, nor failed (a plan changes the hub's
	// routing): the computed routes stand alone.
	f := newVWAN()
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Reachable || len(res.Needs) != 0 {
		t.Fatalf("verdict %v needs %+v", res.Verdict, res.Needs)
	}
}

func TestHubEffectiveRoutesToTheFirewall(t *testing.T) {
	f := newVWAN()
	fwIP := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(string(f.hub.ID) + "/routingIntent/ri"), PrivateNextHop: f.hub.FirewallID}
	f.setEffective(&model.HubEffectiveRoutes{TableID: f.def.ID, Routes: []model.HubEffectiveRoute{{
		Prefixes: []netip.Prefix{pfx("10.0.0.0/8"), pfx("172.16.0.0/12"), pfx("192.168.0.0/16")}, NextHopType: "Azure Firewall", NextHops: []model.ResourceID{f.hub.FirewallID}}}})
	routes := hubEffectiveRoutes(f.b.net, f.hub, f.connSpoke, f.spoke, f.b.net.HubEffective(f.hub.ID))
	if len(routes) != 3 || routes[0].NextHopIP != fwIP {
		t.Fatalf("routes %+v, want three to the firewall %s", routes, fwIP)
	}
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if hasCode(res.Findings, model.CoverageModelDrift) {
		t.Fatalf("routing intent and its effective routes agree, yet: %+v", res.Findings)
	}
}
