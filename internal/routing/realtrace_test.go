package routing

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// realSpoke is the effective route table Azure shows for a NIC in the
// baseline spoke's node subnet.
func realSpoke() []model.Route {
	r := func(prefix, hop, nh string) model.Route {
		out := model.Route{Prefix: pfx(prefix), NextHopType: hop, Source: model.RouteSourceDefault, State: model.RouteStateActive}
		if nh != "" {
			out.NextHopIP = ip(nh)
		}
		return out
	}
	return []model.Route{
		r("10.1.0.0/16", model.NextHopVnetLocal, ""),
		r("10.0.0.0/16", model.NextHopVNetPeering, ""),
		r("10.0.2.5/32", model.NextHopInterfaceEndpoint, ""),
		r("10.0.2.6/32", model.NextHopInterfaceEndpoint, ""),
		r("0.0.0.0/0", model.NextHopInternet, ""),
		r("10.0.0.0/8", model.NextHopNone, ""),
		r("172.16.0.0/12", model.NextHopNone, ""),
		r("192.168.0.0/16", model.NextHopNone, ""),
		r("100.64.0.0/10", model.NextHopNone, ""),
	}
}

// without drops the real routes with these prefixes.
func without(routes []model.Route, prefixes ...string) []model.Route {
	return slices.DeleteFunc(routes, func(r model.Route) bool { return slices.Contains(prefixes, r.Prefix.String()) })
}

func TestTraceEffective(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke) []model.Route // returns the node NIC's real table
		dst     string
		verdict model.Verdict
		drift   bool
		must    []model.Code
		mustNot []model.Code
		path    []string // substrings of the joined path
		msg     string   // in the first finding's message
	}{
		{name: "real and computed agree: reachable, no drift (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) []model.Route { return realSpoke() },
			path:  []string{"route 10.0.2.5/32 InterfaceEndpoint (private endpoint pe-acr)", "vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)"}},
		{name: "the real table drops what the configuration routes: unreachable", dst: "10.0.2.5", verdict: model.Unreachable, drift: true,
			setup: func(h *hubSpoke) []model.Route {
				return without(realSpoke(), "10.0.0.0/16", "10.0.2.5/32", "10.0.2.6/32")
			},
			must: []model.Code{model.RouteBlackhole, model.CoverageModelDrift}, mustNot: []model.Code{model.RouteNotTransitive},
			msg: "the effective routes of network interface nic-node (what Azure programs for subnet vnet-spoke/snet-aks): route 10.0.0.0/8 None (default) is selected for 10.0.2.5, so Azure drops the packet. The configuration would select route 10.0.2.5/32 InterfaceEndpoint"},
		{name: "no real route at all", dst: "10.0.2.5", verdict: model.Unreachable, drift: true,
			setup: func(h *hubSpoke) []model.Route { return []model.Route{realSpoke()[0]} },
			must:  []model.Code{model.RouteBlackhole}, msg: "no route matches 10.0.2.5"},
		{name: "both drop: the configuration explains it", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) []model.Route {
				h.spokeToHub.AllowVirtualNetworkAccess = false
				return without(realSpoke(), "10.0.0.0/16", "10.0.2.5/32", "10.0.2.6/32")
			},
			must: []model.Code{model.RoutePeeringAccessDisabled}, mustNot: []model.Code{model.RouteBlackhole, model.CoverageModelDrift}},
		{name: "the real table routes what the configuration drops: followed", dst: "10.0.2.5", verdict: model.Reachable, drift: true,
			setup: func(h *hubSpoke) []model.Route {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("quarantine", "10.0.2.5/32", model.NextHopNone, "")))
				return realSpoke()
			},
			must: []model.Code{model.CoverageModelDrift}, mustNot: []model.Code{model.RouteBlackhole}},
		{name: "a real appliance route is followed through the appliance", dst: "10.0.2.5", verdict: model.Unverified, drift: true,
			setup: func(h *hubSpoke) []model.Route {
				nva := model.Route{Prefix: pfx("10.0.2.5/32"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4"), Source: model.RouteSourceUser, State: model.RouteStateActive}
				return append(without(realSpoke(), "10.0.2.5/32"), nva)
			},
			must: []model.Code{model.CoverageModelDrift, model.ReturnRouteUnverified},
			path: []string{"route 10.0.2.5/32 VirtualAppliance 10.0.1.4 (effective route of nic-node) → appliance nic-vm-nva 10.0.1.4"}},
		{name: "a real peering route the model has not synced is followed", dst: "10.5.0.5", verdict: model.Reachable, drift: true,
			setup: func(h *hubSpoke) []model.Route {
				hubGainsSpace(h, false)
				peer := model.Route{Prefix: pfx("10.5.0.0/16"), NextHopType: model.NextHopVNetPeering, Source: model.RouteSourceDefault, State: model.RouteStateActive}
				return append(realSpoke(), peer)
			},
			must: []model.Code{model.CoverageModelDrift}, mustNot: []model.Code{model.RoutePeeringNotSynced},
			path: []string{"vnet-hub/snet-pe2 (private endpoint pe-new 10.5.0.5)"}},
		{name: "node subnet not read: a real drop is still a drop", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) []model.Route {
				delete(h.net.Subnets, h.aks.ID.Key())
				return without(realSpoke(), "10.0.0.0/16", "10.0.2.5/32", "10.0.2.6/32")
			},
			must: []model.Code{model.RouteBlackhole}},
		{name: "node subnet not read: a real route is not followed (unverified)", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) []model.Route {
				delete(h.net.Subnets, h.aks.ID.Key())
				return realSpoke()
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			node := h.nic("rg-spoke", "nic-node", h.aks, false, "10.1.0.4")
			node.Effective = c.setup(h)
			res := NewEngine(h.net, Options{}).TraceEffective(node, ip("10.1.0.4"), ip(c.dst))
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path())
			}
			if !res.Effective || (res.Drift != nil) != c.drift {
				t.Errorf("effective %v drift %+v, want drift %v", res.Effective, res.Drift, c.drift)
			}
			got := codes(res.Findings)
			for _, m := range c.must {
				if !slices.Contains(got, m) {
					t.Errorf("missing %s in %v", m, got)
				}
			}
			for _, m := range c.mustNot {
				if slices.Contains(got, m) {
					t.Errorf("unexpected %s in %v", m, got)
				}
			}
			joined := strings.Join(res.Path(), " | ")
			for _, p := range c.path {
				if !strings.Contains(joined, p) {
					t.Errorf("path %q lacks %q", joined, p)
				}
			}
			if c.msg != "" && (len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Message, c.msg)) {
				t.Errorf("first finding %v lacks %q", res.Findings, c.msg)
			}
			for _, f := range res.Findings {
				if f.Resource.IsZero() || f.Message == "" || f.Remediation == "" {
					t.Errorf("finding %s lacks resource, message or remediation", f.Code)
				}
			}
		})
	}
}

// Without a real table TraceEffective is the computed trace.
func TestTraceEffectiveWithoutTable(t *testing.T) {
	h := newHubSpoke()
	node := h.nic("rg-spoke", "nic-node", h.aks, false, "10.1.0.4")
	res := NewEngine(h.net, Options{}).TraceEffective(node, ip("10.1.0.4"), ip("10.0.2.5"))
	want := Trace(h.net, h.aks.ID, ip("10.0.2.5"), Options{Source: ip("10.1.0.4")})
	if res.Effective || res.Verdict != want.Verdict || !slices.Equal(res.Path(), want.Path()) {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

func TestRouteDrops(t *testing.T) {
	for _, c := range []struct {
		hop, dst string
		want     bool
	}{
		{model.NextHopNone, "10.0.0.1", true},
		{model.NextHopInternet, "10.0.0.1", true},
		{model.NextHopInternet, "20.1.2.3", false},
		{model.NextHopVNetPeering, "10.0.0.1", false},
	} {
		if got := routeDrops(model.Route{NextHopType: c.hop}, ip(c.dst)); got != c.want {
			t.Errorf("routeDrops(%s, %s) = %v", c.hop, c.dst, got)
		}
	}
}
