package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// withBranch gives the hub a site-to-site VPN gateway and its effective
// routes (the connections' spaces and routes) pending.
func (f *vwanFixture) withBranch() model.ResourceID {
	f.hub.VPNGatewayID = rid("rg-vwan", "vpnGateways", "vpngw-hub-weu")
	f.b.net.Pending.Add(model.HubEffectiveRoutesOf(f.hub.ID))
	return f.hub.VPNGatewayID
}

// readEffective stands for the read of the hub's effective routes: the
// connections' spaces and routes, done.
func (f *vwanFixture) readEffective(routes ...model.HubEffectiveRoute) {
	eff := f.effectiveOf(f.connSpoke, f.connShared)
	eff.Routes = append(eff.Routes, routes...)
	f.setEffective(eff)
	f.b.net.Pending.Done(model.HubEffectiveRoutesOf(f.hub.ID))
}

func branchRoute(gw model.ResourceID, typ string, prefixes ...string) model.HubEffectiveRoute {
	er := model.HubEffectiveRoute{NextHopType: typ, NextHops: []model.ResourceID{gw}, Origin: string(gw)}
	for _, p := range prefixes {
		er.Prefixes = append(er.Prefixes, pfx(p))
	}
	return er
}

// branchTaken: a branch route took the flow out of Azure through gw, and
// the path is unverified by RETURN_ROUTE_UNVERIFIED naming gw, never
// reachable.
func branchTaken(res Result, gw model.ResourceID) bool {
	if res.Verdict != model.Unverified || res.Arrival.Kind != ArrivalOnPremises || !res.Arrival.GatewayID.Equal(gw) {
		return false
	}
	for _, f := range res.Findings {
		if f.Code == model.ReturnRouteUnverified && f.Resource.Equal(gw) && strings.Contains(f.Message, "branch") {
			return true
		}
	}
	return false
}

func gapOn(res Result, id model.ResourceID) (model.Gap, bool) {
	for _, g := range res.Gaps {
		if g.ResourceID.Equal(id) {
			return g, true
		}
	}
	return model.Gap{}, false
}

func TestBranchGapNeedsTheHubsEffectiveRoutes(t *testing.T) {
	f := newVWAN()
	gw := f.withBranch()
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("20.50.2.10"))
	if _, ok := gapOn(res, gw); !ok || res.Verdict != model.Unverified {
		t.Fatalf("verdict %v gaps %+v, want unverified naming %s", res.Verdict, res.Gaps, gw)
	}
	if len(res.Needs) != 1 || res.Needs[0] != model.HubEffectiveRoutesOf(f.hub.ID) {
		t.Fatalf("needs %+v, want the hub's effective routes", res.Needs)
	}
	// Without a branch gateway a public path needs nothing.
	g := newVWAN()
	g.b.net.Pending.Add(model.HubEffectiveRoutesOf(g.hub.ID))
	if res := NewEngine(g.b.net, Options{}).Trace(g.aks.ID, ip("20.50.2.10")); len(res.Needs) != 0 || res.Verdict != model.Reachable {
		t.Fatalf("no branch gateway: verdict %v needs %+v", res.Verdict, res.Needs)
	}
}

func TestBranchRoutesFromTheEffectiveRoutes(t *testing.T) {
	t.Run("no branch route covers the destination: reachable", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.readEffective(branchRoute(gw, "VPN_S2S_Gateway", "192.168.50.0/24"))
		e := NewEngine(f.b.net, Options{})
		if res := e.Trace(f.aks.ID, ip("20.50.2.10")); res.Verdict != model.Reachable || len(res.Gaps) != 0 || len(res.Needs) != 0 {
			t.Fatalf("public: verdict %v gaps %+v needs %+v", res.Verdict, res.Gaps, res.Needs)
		}
		if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Reachable {
			t.Fatalf("spoke: verdict %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
		}
		r, viaHub := hubRoute(t, e, f.aks, "192.168.50.7")
		if !viaHub || r.Prefix != pfx("192.168.50.0/24") || !strings.Contains(r.Origin, "vpngw-hub-weu") {
			t.Fatalf("branch prefix route %+v", r)
		}
	})
	t.Run("a branch prefix more specific than a spoke takes the destination: unverified, naming the gateway", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.readEffective(branchRoute(gw, "VPN_S2S_Gateway", "10.2.1.0/24"))
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
		if !branchTaken(res, gw) {
			t.Fatalf("verdict %v gaps %+v arrival %+v findings %+v", res.Verdict, res.Gaps, res.Arrival, res.Findings)
		}
		if hasCode(res.Findings, model.CoverageModelDrift) {
			t.Fatalf("the computed routes hold the branch route, yet drift: %+v", res.Findings)
		}
	})
	t.Run("a branch 0.0.0.0/0 only with enableInternetSecurity", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.readEffective(branchRoute(gw, "VPN_S2S_Gateway", "0.0.0.0/0"))
		if res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("20.50.2.10")); res.Verdict != model.Reachable {
			t.Fatalf("enableInternetSecurity false: verdict %v gaps %+v", res.Verdict, res.Gaps)
		}
		f.connSpoke.EnableInternetSecurity = true
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("20.50.2.10"))
		if !branchTaken(res, gw) {
			t.Fatalf("enableInternetSecurity true: verdict %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
		}
	})
	t.Run("an ExpressRoute gateway by its next hop type", func(t *testing.T) {
		f := newVWAN()
		f.hub.ExpressRouteGatewayID = rid("rg-vwan", "expressRouteGateways", "ergw-hub-weu")
		f.b.net.Pending.Add(model.HubEffectiveRoutesOf(f.hub.ID))
		f.readEffective(model.HubEffectiveRoute{Prefixes: []netip.Prefix{pfx("10.2.1.0/24")}, NextHopType: "ExpressRouteGateway"})
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
		if !branchTaken(res, f.hub.ExpressRouteGatewayID) {
			t.Fatalf("verdict %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
		}
	})
	t.Run("a route to the hub's firewall is not a branch route", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.withFirewall()
		er := branchRoute(gw, "Azure Firewall", "192.168.50.0/24")
		er.NextHops = []model.ResourceID{f.hub.FirewallID}
		f.readEffective(er)
		if _, viaHub := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "192.168.50.7"); viaHub {
			t.Fatal("a route whose next hop is the firewall became a branch route")
		}
	})
}

func TestBranchGapStays(t *testing.T) {
	t.Run("the read failed: a spoke behind the hub too", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.b.net.Pending.Done(model.HubEffectiveRoutesOf(f.hub.ID))
		f.b.net.Gaps = model.Gaps{}
		f.b.net.Gaps.Add(model.Gap{ResourceID: model.HubEffectiveRoutesAction(f.hub.ID), Kind: model.GapNotFound, Snapshot: true})
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
		g, ok := gapOn(res, gw)
		if res.Verdict != model.Unverified || !ok || !strings.Contains(g.Detail, "could not be read: the snapshot does not record them") {
			t.Fatalf("verdict %v gaps %+v", res.Verdict, res.Gaps)
		}
	})
	t.Run("the read failed", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		f.b.net.Pending.Done(model.HubEffectiveRoutesOf(f.hub.ID))
		action := model.HubEffectiveRoutesAction(f.hub.ID)
		f.b.net.Gaps = model.Gaps{}
		f.b.net.Gaps.Add(model.Gap{ResourceID: action, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/effectiveRoutes/action"})
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("20.50.2.10"))
		g, ok := gapOn(res, gw)
		if res.Verdict != model.Unverified || !ok || !strings.Contains(g.Detail, string(action)) || !strings.Contains(g.Detail, "refused") || len(res.Needs) != 0 {
			t.Fatalf("verdict %v gaps %+v needs %+v", res.Verdict, res.Gaps, res.Needs)
		}
		if _, ok := gapOn(res, action); ok {
			t.Fatalf("the read itself is a gap: %+v", res.Gaps)
		}
	})
	t.Run("a custom route table is not read", func(t *testing.T) {
		f := newVWAN()
		gw := f.withBranch()
		custom := &model.HubRouteTable{ID: hubID + "/hubRouteTables/rt-spokes", Name: "rt-spokes"}
		f.hub.RouteTables = append(f.hub.RouteTables, custom)
		f.connSpoke.AssociatedRouteTable = custom.ID
		f.readEffective(branchRoute(gw, "VPN_S2S_Gateway", "192.168.50.0/24"))
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("20.50.2.10"))
		g, ok := gapOn(res, gw)
		if res.Verdict != model.Unverified || !ok || !strings.Contains(g.Detail, "defaultRouteTable only") || len(res.Needs) != 0 {
			t.Fatalf("verdict %v gaps %+v needs %+v", res.Verdict, res.Gaps, res.Needs)
		}
	})
}
