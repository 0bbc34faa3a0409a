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
		if h.PropagationTo(conn, def) != Propagated || h.PropagationTo(conn, none) != NotPropagated {
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

// TestPropagationTo: the one propagation rule, for route tables of the
// connection's own hub and of another hub of its Virtual WAN alike: by id,
// by label (defaultRouteTable carries "default" even where its labels are
// not listed), never to noneRouteTable; a connection naming no label
// propagates to the label "default" when it lists no route table or only
// its hub's defaultRouteTable, and with other route tables listed a table
// reached only by that label is undocumented, neither answer.
func TestPropagationTo(t *testing.T) {
	const sub = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/"
	table := func(hub, name string, labels ...string) *HubRouteTable {
		return &HubRouteTable{ID: ResourceID(sub + hub + "/hubRouteTables/" + name), Name: name, Labels: labels}
	}
	weu := &VirtualHub{ID: sub + "hub-weu", Name: "hub-weu"}
	neu := &VirtualHub{ID: sub + "hub-neu", Name: "hub-neu"}
	// defaultRouteTable of hub-weu lists no label (a hand-written
	// snapshot): the built-in one counts all the same.
	wDef, wNone, wShared, wDefLabelled := table("hub-weu", HubDefaultRouteTable), table("hub-weu", HubNoneRouteTable, "none"),
		table("hub-weu", "RT_SHARED", "shared"), table("hub-weu", "RT_BRANCHES", "default")
	nDef, nNone, nShared := table("hub-neu", HubDefaultRouteTable, "default"), table("hub-neu", HubNoneRouteTable, "none"), table("hub-neu", "RT_SHARED", "shared")
	weu.RouteTables = []*HubRouteTable{wDef, wNone, wShared, wDefLabelled}
	neu.RouteTables = []*HubRouteTable{nDef, nNone, nShared}
	const (
		no  = NotPropagated
		yes = Propagated
		unk = PropagationUndocumented
	)
	type want struct {
		t *HubRouteTable
		p Propagation
	}
	for _, tc := range []struct {
		name   string
		ids    []*HubRouteTable
		labels []string
		want   []want
	}{
		{"no propagation configuration", nil, nil,
			[]want{{wDef, yes}, {wNone, no}, {wShared, no}, {wDefLabelled, yes}, {nDef, yes}, {nNone, no}, {nShared, no}}},
		{"defaultRouteTable listed, no label (Azure's read of the default)", []*HubRouteTable{wDef}, nil,
			[]want{{wDef, yes}, {wNone, no}, {wShared, no}, {wDefLabelled, yes}, {nDef, yes}, {nShared, no}}},
		{"defaultRouteTable and label default", []*HubRouteTable{wDef}, []string{"default"},
			[]want{{wDef, yes}, {wNone, no}, {wShared, no}, {wDefLabelled, yes}, {nDef, yes}, {nShared, no}}},
		{"label Default only, any case", nil, []string{"Default"},
			[]want{{wDef, yes}, {wShared, no}, {nDef, yes}, {nShared, no}}},
		{"noneRouteTable and label none", []*HubRouteTable{wNone}, []string{"none"},
			[]want{{wDef, no}, {wNone, no}, {wShared, no}, {wDefLabelled, no}, {nDef, no}, {nNone, no}, {nShared, no}}},
		{"label none only", nil, []string{"none"},
			[]want{{wDef, no}, {wNone, no}, {nDef, no}, {nNone, no}}},
		{"noneRouteTable listed, no label", []*HubRouteTable{wNone}, nil,
			[]want{{wDef, unk}, {wNone, no}, {wShared, no}, {wDefLabelled, unk}, {nDef, unk}, {nNone, no}, {nShared, no}}},
		{"custom table listed, no label", []*HubRouteTable{wShared}, nil,
			[]want{{wShared, yes}, {wDef, unk}, {wNone, no}, {wDefLabelled, unk}, {nDef, unk}, {nShared, no}}},
		{"custom table and its custom label", []*HubRouteTable{wShared}, []string{"shared"},
			[]want{{wShared, yes}, {wDef, no}, {wDefLabelled, no}, {nDef, no}, {nShared, yes}, {nNone, no}}},
		{"custom label only", nil, []string{"shared"},
			[]want{{wShared, yes}, {wDef, no}, {nDef, no}, {nShared, yes}}},
		{"defaultRouteTable and a custom table listed, no label", []*HubRouteTable{wDef, wShared}, nil,
			[]want{{wDef, yes}, {wShared, yes}, {wDefLabelled, unk}, {nDef, unk}, {nShared, no}}},
		{"another hub's defaultRouteTable listed, no label", []*HubRouteTable{nDef}, nil,
			[]want{{nDef, yes}, {wDef, unk}, {nShared, no}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &HubConnection{ID: ResourceID(string(weu.ID) + "/hubVirtualNetworkConnections/conn-spoke"), Name: "conn-spoke", PropagatedLabels: tc.labels}
			for _, rt := range tc.ids {
				c.PropagatedRouteTables = append(c.PropagatedRouteTables, rt.ID)
			}
			for _, w := range tc.want {
				if got := weu.PropagationTo(c, w.t); got != w.p {
					t.Errorf("%s: %v, want %v", w.t.ID, got, w.p)
				}
				// Another hub's table: the same rule, unless the
				// connection's hub has a private routing policy.
				if !w.t.ID.Equal(ResourceID(string(neu.ID) + "/hubRouteTables/" + w.t.Name)) {
					continue
				}
				if got := weu.ReachesRemoteTable(c, w.t); got != w.p {
					t.Errorf("ReachesRemoteTable %s: %v, want %v", w.t.ID, got, w.p)
				}
			}
		})
	}
	// Under a private routing policy the connections of hub-weu reach the
	// other hubs' defaultRouteTables through its firewall, whatever they
	// list, and no other table.
	weu.Intent = &RoutingIntent{PrivateNextHop: ResourceID(sub + "fw")}
	c := &HubConnection{Name: "c", PropagatedRouteTables: []ResourceID{wNone.ID}, PropagatedLabels: []string{"none"}}
	if weu.ReachesRemoteTable(c, nDef) != Propagated || weu.ReachesRemoteTable(c, nShared) != NotPropagated {
		t.Errorf("private policy: defaultRouteTable %v, RT_SHARED %v", weu.ReachesRemoteTable(c, nDef), weu.ReachesRemoteTable(c, nShared))
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
