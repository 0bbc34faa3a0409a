package routing

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestDefaultRoutes(t *testing.T) {
	cases := []struct {
		name     string
		space    []string
		present  []string // None routes that must be there
		absent   []string // None routes that must not
		internet []string
	}{
		{"VNet inside a private range keeps its None route", []string{"10.1.0.0/16"},
			[]string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"}, nil, []string{"0.0.0.0/0"}},
		{"VNet equal to a private range replaces it", []string{"172.16.0.0/12", "100.64.0.0/10"},
			[]string{"10.0.0.0/8", "192.168.0.0/16"}, []string{"172.16.0.0/12", "100.64.0.0/10"}, []string{"0.0.0.0/0"}},
		{"VNet containing a private range removes it", []string{"10.0.0.0/7", "100.0.0.0/8"},
			[]string{"172.16.0.0/12"}, []string{"10.0.0.0/8", "100.64.0.0/10"}, []string{"0.0.0.0/0"}},
		{"reserved ranges follow the same rule", []string{"25.0.0.0/8"},
			[]string{"198.18.0.0/15"}, []string{"25.4.0.0/14"}, []string{"0.0.0.0/0"}},
		{"IPv6 space adds ::/0 Internet", []string{"10.1.0.0/16", "fd00:1::/48"},
			nil, nil, []string{"0.0.0.0/0", "::/0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var space []netip.Prefix
			for _, s := range c.space {
				space = append(space, pfx(s))
			}
			got := map[string]string{}
			for _, r := range defaultRoutes(space, ReservedNonePrefixes, nil) {
				if r.Source != model.RouteSourceDefault || r.State != model.RouteStateActive {
					t.Errorf("%s: source %s state %s", r.Prefix, r.Source, r.State)
				}
				got[r.Prefix.String()] = r.NextHopType
			}
			for _, p := range c.present {
				if got[p] != model.NextHopNone {
					t.Errorf("%s: want None, got %q", p, got[p])
				}
			}
			for _, p := range c.absent {
				if _, ok := got[p]; ok {
					t.Errorf("%s must be removed", p)
				}
			}
			for _, p := range c.internet {
				if got[p] != model.NextHopInternet {
					t.Errorf("%s: want Internet, got %q", p, got[p])
				}
			}
			if _, ok := got["::/0"]; ok && len(c.internet) == 1 {
				t.Errorf("::/0 without IPv6 space")
			}
		})
	}
}

func TestReservedNoneFromEffective(t *testing.T) {
	eff := []model.Route{
		sys("10.0.0.0/8", model.NextHopNone), sys("25.48.0.0/12", model.NextHopNone), sys("25.48.0.0/12", model.NextHopNone),
		sys("0.0.0.0/0", model.NextHopInternet), udr("x", "25.1.0.0/16", model.NextHopNone, ""), invalid(sys("198.18.0.0/15", model.NextHopNone)),
	}
	got := ReservedNoneFromEffective(eff)
	if len(got) != 2 || got[0] != pfx("25.48.0.0/12") || got[1] != pfx("198.18.0.0/15") {
		t.Errorf("got %v", got)
	}
	if ReservedNoneFromEffective([]model.Route{sys("10.0.0.0/8", model.NextHopNone)}) != nil {
		t.Errorf("a table without reserved ranges must give nil (use the default)")
	}
}

// TestPrivateNoneUnderDefaultRoute: an active user-defined route for
// 0.0.0.0/0 takes the None routes of the private and shared ranges out of
// the subnet's table (documented); a 0.0.0.0/0 learned over BGP, or a
// 0.0.0.0/0 user-defined route listed Invalid, leaves them, and a
// destination they would drop is unverified (undocumented), never a
// confident drop.
func TestPrivateNoneUnderDefaultRoute(t *testing.T) {
	private := []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"}
	cases := []struct {
		name string
		// setup changes the hub-and-spoke network of the route scenarios.
		setup       func(h *hubSpoke)
		removed     bool
		gapFor      []string // destinations the undocumented case makes unverified
		noGapFor    []string
		selectedHop map[string]string // destination: next hop type selected
	}{
		{name: "0.0.0.0/0 user route to an appliance removes them", removed: true,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("default", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			noGapFor:    []string{"10.77.0.1", "172.20.0.1", "100.64.0.1"},
			selectedHop: map[string]string{"10.77.0.1": model.NextHopVirtualAppliance, "172.20.0.1": model.NextHopVirtualAppliance, "100.64.0.1": model.NextHopVirtualAppliance}},
		{name: "0.0.0.0/0 user route to None removes them too (the drop is the UDR's)", removed: true,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("drop", "0.0.0.0/0", model.NextHopNone, "")))
			},
			selectedHop: map[string]string{"10.77.0.1": model.NextHopNone}},
		{name: "0.0.0.0/0 user route with propagation disabled removes them", removed: true,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true, udr("default", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			}},
		{name: "a user route for 10.0.0.0/8 only removes nothing (negative)", removed: false,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("ten", "10.0.0.0/8", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			noGapFor:    []string{"172.20.0.1"},
			selectedHop: map[string]string{"172.20.0.1": model.NextHopNone, "10.77.0.1": model.NextHopVirtualAppliance}},
		{name: "a ::/0 user route removes nothing (negative)", removed: false,
			setup: func(h *hubSpoke) {
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("fd00:1::/48"))
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("v6", "::/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			noGapFor: []string{"172.20.0.1"}},
		{name: "no 0.0.0.0/0 route at all: a certain drop (negative)", removed: false,
			noGapFor: []string{"10.77.0.1", "172.20.0.1"}, selectedHop: map[string]string{"10.77.0.1": model.NextHopNone}},
		{name: "0.0.0.0/0 learned over BGP (forced tunnelling): the drop is unverified", removed: false,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.Learned = append(h.gw.Learned, ebgp("0.0.0.0/0", "192.168.255.1"))
			},
			gapFor:   []string{"10.77.0.1", "172.20.0.1", "100.64.0.1"},
			noGapFor: []string{"10.0.2.5", "192.168.10.20", "20.60.0.1"}},
		{name: "… not when the route table keeps the BGP routes out (negative)", removed: false,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.Learned = append(h.gw.Learned, ebgp("0.0.0.0/0", "192.168.255.1"))
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true))
			},
			noGapFor: []string{"10.77.0.1"}},
		{name: "… not when a 0.0.0.0/0 user route is there as well (negative)", removed: true,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.Learned = append(h.gw.Learned, ebgp("0.0.0.0/0", "192.168.255.1"))
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("default", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			noGapFor: []string{"10.77.0.1"}},
		{name: "a 0.0.0.0/0 user route listed Invalid (no gateway): the drop is unverified", removed: false,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("default", "0.0.0.0/0", model.NextHopVirtualNetworkGateway, "")))
			},
			gapFor: []string{"10.77.0.1"}, noGapFor: []string{"10.0.2.5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			if c.setup != nil {
				c.setup(h)
			}
			comp, err := NewEngine(h.net, Options{}).EffectiveRoutes(h.aks.ID)
			if err != nil {
				t.Fatal(err)
			}
			have := map[string]bool{}
			for _, r := range comp.Routes() {
				if isPrivateNone(&r) {
					have[r.Prefix.String()] = true
				}
			}
			for _, p := range private {
				if have[p] == c.removed {
					t.Errorf("None route %s present %v, want %v", p, have[p], !c.removed)
				}
			}
			for _, p := range ReservedNonePrefixes {
				if r, ok := comp.Select(p.Addr()); !ok || r.NextHopType != model.NextHopNone {
					t.Errorf("reserved %s must stay None, got %v", p, r)
				}
			}
			for _, d := range c.gapFor {
				if len(comp.GapsFor(ip(d))) == 0 {
					t.Errorf("%s: want a gap (undocumented None route)", d)
				}
			}
			for _, d := range c.noGapFor {
				if g := comp.GapsFor(ip(d)); len(g) > 0 {
					t.Errorf("%s: unexpected gaps %v", d, g)
				}
			}
			for d, hop := range c.selectedHop {
				if r, ok := comp.Select(ip(d)); !ok || r.NextHopType != hop {
					t.Errorf("%s: selected %v, want %s", d, r, hop)
				}
			}
		})
	}
}
