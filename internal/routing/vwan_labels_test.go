package routing

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestHubLabelPropagationBothSides: the one propagation rule
// (model.VirtualHub.PropagationTo) decides a destination's connection the
// same way in the nodes' own hub (vnet-shared, conn-shared on hub-weu)
// and in another hub of the Virtual WAN (vnet-remote, conn-remote on
// hub-neu), the nodes' connection associated with hub-weu's
// defaultRouteTable: reached by the label "default" (named, or implied
// where no label and no other route table is named), not reached where
// the connection names labels none of which the table carries, unverified
// where it names route tables but no label.
func TestHubLabelPropagationBothSides(t *testing.T) {
	type side struct {
		name string
		dst  string
		conn func(*interHub) (*model.HubConnection, *model.HubRouteTable, *model.HubRouteTable)
	}
	sides := []side{
		{"same hub", "10.2.1.4", func(f *interHub) (*model.HubConnection, *model.HubRouteTable, *model.HubRouteTable) {
			return f.connShared, f.def, f.none
		}},
		{"other hub", "10.3.1.5", func(f *interHub) (*model.HubConnection, *model.HubRouteTable, *model.HubRouteTable) {
			none := &model.HubRouteTable{ID: hubNeuID + "/hubRouteTables/noneRouteTable", Name: "noneRouteTable"}
			f.hub2.RouteTables = append(f.hub2.RouteTables, none)
			return f.connRemote, f.def2, none
		}},
	}
	for _, tc := range []struct {
		name string
		// ids: "default", "none", "custom" (a table of the connection's
		// hub labelled "blue"); labels as listed.
		ids    []string
		labels []string
		want   model.Verdict
		code   model.Code
	}{
		{"no configuration", nil, nil, model.Reachable, ""},
		{"label default only", nil, []string{"default"}, model.Reachable, ""},
		{"defaultRouteTable and label default", []string{"default"}, []string{"default"}, model.Reachable, ""},
		{"defaultRouteTable, no label", []string{"default"}, nil, model.Reachable, ""},
		{"noneRouteTable and label none", []string{"none"}, []string{"none"}, model.Unreachable, model.RouteHubNotPropagated},
		{"custom table and its custom label", []string{"custom"}, []string{"blue"}, model.Unreachable, model.RouteHubNotPropagated},
		{"noneRouteTable, no label", []string{"none"}, nil, model.Unverified, ""},
		{"custom table, no label", []string{"custom"}, nil, model.Unverified, ""},
	} {
		for _, s := range sides {
			t.Run(tc.name+"/"+s.name, func(t *testing.T) {
				f := newInterHub()
				conn, def, none := s.conn(f)
				hubOf := f.hub
				if conn == f.connRemote {
					hubOf = f.hub2
				}
				custom := &model.HubRouteTable{ID: hubOf.ID + "/hubRouteTables/RT_BLUE", Name: "RT_BLUE", Labels: []string{"blue"}}
				hubOf.RouteTables = append(hubOf.RouteTables, custom)
				conn.PropagatedRouteTables, conn.PropagatedLabels = nil, tc.labels
				for _, id := range tc.ids {
					conn.PropagatedRouteTables = append(conn.PropagatedRouteTables, map[string]model.ResourceID{"default": def.ID, "none": none.ID, "custom": custom.ID}[id])
				}
				res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip(s.dst))
				if res.Verdict != tc.want || (tc.code != "" && !hasCode(res.Findings, tc.code)) {
					t.Fatalf("verdict %v (want %v %s) findings %+v gaps %+v", res.Verdict, tc.want, tc.code, res.Findings, res.Gaps)
				}
				if tc.want != model.Unverified {
					return
				}
				// Never a confident answer, and the gap names the
				// connection.
				if len(res.Findings) != 0 {
					t.Fatalf("findings %+v", res.Findings)
				}
				named := false
				for _, g := range res.Gaps {
					named = named || (g.ResourceID.Equal(conn.ID) && g.Kind == model.GapUnavailable)
				}
				if !named {
					t.Fatalf("no gap names %s: %+v", conn.Name, res.Gaps)
				}
			})
		}
	}
}

// TestHubReturnPropagationUndocumented: the return path from a private
// endpoint behind another hub depends on the nodes' connection reaching
// that hub's defaultRouteTable. Named by the label none (with
// noneRouteTable): RETURN_ROUTE_MISSING; noneRouteTable listed and no
// label: undocumented, unverified with a gap on the nodes' connection,
// never RETURN_ROUTE_MISSING.
func TestHubReturnPropagationUndocumented(t *testing.T) {
	for _, tc := range []struct {
		labels []string
		want   model.Verdict
	}{{[]string{"none"}, model.Unreachable}, {nil, model.Unverified}} {
		f := newInterHub()
		f.connSpoke.PropagatedRouteTables, f.connSpoke.PropagatedLabels = []model.ResourceID{f.none.ID}, tc.labels
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
		if res.Verdict != tc.want {
			t.Fatalf("labels %v: verdict %v, want %v; findings %+v gaps %+v", tc.labels, res.Verdict, tc.want, res.Findings, res.Gaps)
		}
		if tc.want == model.Unreachable {
			if !hasCode(res.Findings, model.ReturnRouteMissing) {
				t.Fatalf("labels %v: findings %+v", tc.labels, res.Findings)
			}
			continue
		}
		named := false
		for _, g := range res.Gaps {
			named = named || g.ResourceID.Equal(f.connSpoke.ID)
		}
		if hasCode(res.Findings, model.ReturnRouteMissing) || !named {
			t.Fatalf("labels %v: findings %+v gaps %+v", tc.labels, res.Findings, res.Gaps)
		}
	}
}
