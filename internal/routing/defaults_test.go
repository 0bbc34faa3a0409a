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
			for _, r := range defaultRoutes(space, ReservedNonePrefixes) {
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
