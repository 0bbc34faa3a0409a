package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestCompareForDestination(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	h.gw.PrivateIPs = []netip.Addr{ip("10.0.0.4"), ip("10.0.0.5")}
	comp := mustCompute(t, h.net, h.aks.ID)
	realFor := func(mutate func([]model.Route) []model.Route) []model.Route {
		return mutate(append([]model.Route(nil), comp.Routes()...))
	}
	cases := []struct {
		name  string
		real  []model.Route
		dst   string
		drift bool
	}{
		{"identical tables", comp.Routes(), "10.0.2.5", false},
		{"real table has a UDR to a firewall the model lacks", realFor(func(r []model.Route) []model.Route {
			return append(r, udr("fw", "10.0.2.5/32", model.NextHopVirtualAppliance, "10.0.4.4"))
		}), "10.0.2.5", true},
		{"different appliance address", realFor(func(r []model.Route) []model.Route {
			return append(r, udr("fw", "10.0.0.0/8", model.NextHopVirtualAppliance, "10.0.4.4"))
		}), "10.0.2.5", false}, // the /32 still wins in both
		{"same next hop, other prefix: no drift", realFor(func(r []model.Route) []model.Route {
			return append(r, model.Route{Prefix: pfx("192.168.10.0/24"), NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: ip("10.0.0.4"), Source: model.RouteSourceGateway})
		}), "192.168.10.20", false},
		{"the other instance of the same gateway: no drift", realFor(func(r []model.Route) []model.Route {
			for i := range r {
				if r[i].NextHopType == model.NextHopVirtualNetworkGateway {
					r[i].NextHopIP = ip("10.0.0.5")
				}
			}
			return r
		}), "192.168.10.20", false},
		{"a gateway address that is not this gateway's: drift", realFor(func(r []model.Route) []model.Route {
			for i := range r {
				if r[i].NextHopType == model.NextHopVirtualNetworkGateway {
					r[i].NextHopIP = ip("10.0.0.99")
				}
			}
			return r
		}), "192.168.10.20", true},
		{"real table lacks the peering", realFor(func(r []model.Route) []model.Route {
			var out []model.Route
			for _, x := range r {
				if x.NextHopType != model.NextHopVNetPeering && x.NextHopType != model.NextHopInterfaceEndpoint {
					out = append(out, x)
				}
			}
			return out
		}), "10.0.3.4", true},
		{"no route in either", nil, "10.0.3.4", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, drift := CompareForDestination(c.real, comp, ip(c.dst))
			if drift != c.drift {
				t.Errorf("drift %v, want %v (real %s, computed %s)", drift, c.drift, DescribeSelection(d.Real, d.RealFound), DescribeSelection(d.Computed, d.ComputedFound))
			}
			if drift {
				f := d.Finding(rid("rg-x", "networkInterfaces", "nic-1"))
				if f.Code != model.CoverageModelDrift || !strings.Contains(f.Message, c.dst) || f.Resource.Name() != "nic-1" {
					t.Errorf("finding %+v", f)
				}
			}
		})
	}
}

// CompareNIC calibrates the reserved None ranges from the real table: the
// scenario hub NVA (legacy 25.x ranges) shows no drift for any destination.
func TestCompareNICScenario(t *testing.T) {
	h := newHubSpoke()
	h.nva.Effective = asModel(loadEffective(t, "hub_nva_baseline.json"))
	e := NewEngine(h.net, Options{})
	for _, dst := range []string{"10.0.2.5", "10.1.0.4", "192.168.10.20", "25.48.0.1", "8.8.8.8", "172.16.0.1"} {
		d, drift, ok, err := e.CompareNIC(h.nva, ip(dst))
		if err != nil || !ok || drift {
			t.Errorf("%s: drift %v ok %v err %v (%s vs %s)", dst, drift, ok, err, DescribeSelection(d.Real, d.RealFound), DescribeSelection(d.Computed, d.ComputedFound))
		}
	}
	// The spoke's pools have no such table: nothing to compare.
	if _, _, ok, _ := e.CompareNIC(&model.NIC{SubnetID: h.aks.ID}, ip("10.0.2.5")); ok {
		t.Error("a NIC without an effective table cannot be compared")
	}
	// Drift when the model misses the peering the real table has.
	h2 := newHubSpoke()
	h2.hub.Peerings = nil
	h2.nva.Effective = h.nva.Effective
	if _, drift, _, _ := NewEngine(h2.net, Options{}).CompareNIC(h2.nva, ip("10.1.0.4")); !drift {
		t.Error("want drift for the spoke address")
	}
}
