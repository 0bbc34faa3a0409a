package routing

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A hub whose router reports a routing state other than Provisioned gives
// no routes the provider can vouch for: a destination the hub would carry
// is unverified, naming the hub and its state, never reachable.
func TestHubRouterNotProvisionedIsUnverified(t *testing.T) {
	for _, state := range []string{"Failed", "Provisioning", "None"} {
		f := newVWAN()
		f.hub.RoutingState = state
		e := NewEngine(f.b.net, Options{})
		if r, ok := hubRoute(t, e, f.aks, "10.2.1.4"); ok {
			t.Fatalf("%s: hub route %+v from a router that is not provisioned", state, r)
		}
		res := e.Trace(f.aks.ID, ip("10.2.1.4"))
		if res.Verdict != model.Unverified {
			t.Fatalf("%s: trace = %v, want unverified (findings %+v gaps %+v)", state, res.Verdict, res.Findings, res.Gaps)
		}
		named := false
		for _, g := range res.Gaps {
			if g.ResourceID.Equal(f.hub.ID) && strings.Contains(g.Detail, "routing state "+state) && g.Remediation != "" {
				named = true
			}
		}
		if !named {
			t.Fatalf("%s: the hub's routing state is not named: gaps %+v", state, res.Gaps)
		}
	}
}

// Provisioned (any case) and an unreported state leave the hub's routes as
// computed.
func TestHubRouterProvisionedRoutes(t *testing.T) {
	for _, state := range []string{"Provisioned", "provisioned", ""} {
		f := newVWAN()
		f.hub.RoutingState = state
		e := NewEngine(f.b.net, Options{})
		if _, ok := hubRoute(t, e, f.aks, "10.2.1.4"); !ok {
			t.Fatalf("%q: no hub route to the shared spoke", state)
		}
		if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Reachable {
			t.Fatalf("%q: trace = %v, want reachable (gaps %+v)", state, res.Verdict, res.Gaps)
		}
	}
}

// Another hub of the Virtual WAN whose router is not provisioned: the
// path to its spoke is unverified, naming that hub; with its router
// provisioned the same path is reachable (TestInterHubRouteReachesRemoteSpoke).
func TestInterHubRemoteRouterNotProvisionedIsUnverified(t *testing.T) {
	f := newInterHub()
	f.hub2.RoutingState = "Failed"
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unverified {
		t.Fatalf("trace = %v, want unverified (findings %+v gaps %+v)", res.Verdict, res.Findings, res.Gaps)
	}
	if !hasGap(res.Gaps, f.hub2.ID, "routing state Failed") {
		t.Fatalf("hub-neu's routing state is not named: gaps %+v", res.Gaps)
	}
}

// Nothing propagates to noneRouteTable ("About virtual hub routing"): a
// connection listing it among its propagated tables gives a VNet
// associated with it no route, and the finding asks to change the nodes'
// association; associated with defaultRouteTable, the same spoke is
// reached (TestHubRoutesPropagatedConnection).
func TestHubAssociatedWithNoneRouteTable(t *testing.T) {
	f := newVWAN()
	f.connSpoke.AssociatedRouteTable = f.none.ID
	f.connShared.PropagatedRouteTables = []model.ResourceID{f.def.ID, f.none.ID}
	f.connShared.PropagatedLabels = []string{"default", "none"}
	e := NewEngine(f.b.net, Options{})
	if r, ok := hubRoute(t, e, f.aks, "10.2.1.4"); ok {
		t.Fatalf("noneRouteTable gives the nodes a route: %+v", r)
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unreachable {
		t.Fatalf("trace = %v, want unreachable (findings %+v gaps %+v)", res.Verdict, res.Findings, res.Gaps)
	}
	var got *Finding
	for i := range res.Findings {
		if res.Findings[i].Code == model.RouteHubNotPropagated {
			got = &res.Findings[i]
		}
	}
	if got == nil || !got.Resource.Equal(f.connSpoke.ID) || !strings.Contains(got.Message, "associated with noneRouteTable") ||
		!strings.Contains(got.Remediation, "Associate connection conn-spoke") {
		t.Fatalf("finding = %+v, want ROUTE_HUB_NOT_PROPAGATED on conn-spoke asking to change its association", got)
	}
}

// The hub's VNet stand-in has a peering back only to connections that were
// read: with the hub's connections unknown, a path into the hub (to its
// firewall's address, say) is unverified, naming the connections' read,
// never a peering with no side back to create.
func TestHubVNetPeeringBackUnknownIsAGap(t *testing.T) {
	f := newVWAN()
	f.hubNet.Peerings = nil
	f.hub.ConnectionsKnown = false
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.100.0.132"))
	if res.Verdict != model.Unverified || hasCode(res.Findings, model.RoutePeeringNotConnected) {
		t.Fatalf("trace into the hub with its connections unknown = %v (findings %+v gaps %+v), want unverified", res.Verdict, res.Findings, res.Gaps)
	}
	named := false
	for _, g := range res.Gaps {
		named = named || strings.HasPrefix(string(g.ResourceID), hubID+"/hubVirtualNetworkConnections")
	}
	if !named {
		t.Fatalf("the hub's connections are not named: gaps %+v", res.Gaps)
	}

	f = newVWAN()
	e = NewEngine(f.b.net, Options{})
	if res := e.Trace(f.aks.ID, ip("10.100.0.132")); res.Verdict == model.Unverified || hasCode(res.Findings, model.RoutePeeringNotConnected) {
		t.Fatalf("trace into the hub with its connections read = %v (findings %+v gaps %+v)", res.Verdict, res.Findings, res.Gaps)
	}
}
