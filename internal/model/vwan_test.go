package model

import (
	"net/netip"
	"testing"
)

// TestAddBuiltinRouteTables: a hub's route table list that lacks
// defaultRouteTable or noneRouteTable gets them, without routes, the
// default one carrying the label "default"; a listed one, with its static
// routes, is kept as it is and never doubled.
func TestAddBuiltinRouteTables(t *testing.T) {
	hubID := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub")
	t.Run("unlisted", func(t *testing.T) {
		h := &VirtualHub{ID: hubID}
		h.AddBuiltinRouteTables()
		if len(h.RouteTables) != 2 {
			t.Fatalf("%d tables, want defaultRouteTable and noneRouteTable", len(h.RouteTables))
		}
		def := h.RouteTable(h.DefaultRouteTable())
		if def == nil || len(def.Routes) != 0 || !containsFold(def.LabelSet(), HubDefaultLabel) {
			t.Errorf("defaultRouteTable: %+v", def)
		}
		none := h.RouteTable(ResourceID(string(hubID) + "/hubRouteTables/" + HubNoneRouteTable))
		if none == nil {
			t.Fatal("no noneRouteTable")
		}
		conn := &HubConnection{Name: "c"}
		if !conn.PropagatesTo(def) || conn.PropagatesTo(none) {
			t.Errorf("a connection without configuration propagates to defaultRouteTable only")
		}
	})
	t.Run("listed", func(t *testing.T) {
		listed := &HubRouteTable{ID: ResourceID(string(hubID) + "/hubRouteTables/" + HubDefaultRouteTable), Name: HubDefaultRouteTable,
			Routes: []HubRoute{{Name: "all_traffic", Destinations: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0")}}}}
		h := &VirtualHub{ID: hubID, RouteTables: []*HubRouteTable{listed}}
		h.AddBuiltinRouteTables()
		h.AddBuiltinRouteTables()
		if len(h.RouteTables) != 2 || h.RouteTable(h.DefaultRouteTable()) != listed || len(listed.Routes) != 1 {
			t.Errorf("tables %+v: the listed defaultRouteTable must be kept, the none one added once", h.RouteTables)
		}
	})
}

// TestPropagatesToByBuiltinLabel: a connection that propagates to the
// label "default" only (no route table ids) reaches the hub's
// defaultRouteTable even where its labels are not listed (a hand-written
// snapshot, a table AddBuiltinRouteTables added); a custom table without
// that label does not get its routes.
func TestPropagatesToByBuiltinLabel(t *testing.T) {
	hubID := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub")
	h := &VirtualHub{ID: hubID, RouteTables: []*HubRouteTable{
		{ID: ResourceID(string(hubID) + "/hubRouteTables/" + HubDefaultRouteTable), Name: HubDefaultRouteTable},
		{ID: ResourceID(string(hubID) + "/hubRouteTables/RT_SHARED"), Name: "RT_SHARED"},
	}}
	conn := &HubConnection{Name: "c", PropagatedLabels: []string{"Default"}}
	if !conn.PropagatesTo(h.RouteTable(h.DefaultRouteTable())) {
		t.Errorf("a connection propagating to label default must reach defaultRouteTable without listed labels")
	}
	if conn.PropagatesTo(h.RouteTables[1]) {
		t.Errorf("a connection propagating to label default must not reach RT_SHARED, which has no such label")
	}
	h.RouteTables[1].Labels = []string{"default"}
	if !conn.PropagatesTo(h.RouteTables[1]) {
		t.Errorf("a custom table with the label default gets the connection's routes")
	}
}

// TestPropagatedStaticRoutes: a connection propagates its static routes
// unless propagateStaticRoutes is false.
func TestPropagatedStaticRoutes(t *testing.T) {
	sr := []HubStaticRoute{{Name: "to-nva", Prefixes: []netip.Prefix{netip.MustParsePrefix("10.50.0.0/16")}, NextHopIP: netip.MustParseAddr("10.3.0.4")}}
	if got := (&HubConnection{StaticRoutes: sr}).PropagatedStaticRoutes(); len(got) != 1 {
		t.Errorf("default: %d static routes propagated, want 1", len(got))
	}
	if got := (&HubConnection{StaticRoutes: sr, StaticRoutesNotPropagated: true}).PropagatedStaticRoutes(); len(got) != 0 {
		t.Errorf("propagateStaticRoutes false: %d static routes propagated, want none", len(got))
	}
}
