package routing

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The four route scenarios of internal/provider/testdata/scenarios, rebuilt as model values:
// each must give the scenario's verdict and route codes.
func TestScenarioTopologies(t *testing.T) {
	cases := []struct {
		name    string
		build   func() *hubSpoke
		dst     string
		verdict model.Verdict
		must    []model.Code
		mustNot []model.Code
		path    []string
	}{
		{
			name: "baseline_ok login endpoint", build: newHubSpoke, dst: "10.0.2.5", verdict: model.Reachable,
			mustNot: []model.Code{model.RouteBlackhole, model.RoutePeeringNotConnected, model.RouteGatewayTransitMissing, model.ReturnRouteMissing},
			path:    []string{"subnet vnet-spoke/snet-aks → route 10.0.2.5/32 InterfaceEndpoint (private endpoint pe-acr) → vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)"},
		},
		{name: "baseline_ok data endpoint", build: newHubSpoke, dst: "10.0.2.6", verdict: model.Reachable},
		{
			name: "udr_blackhole", dst: "10.0.2.5", verdict: model.Unreachable,
			build: func() *hubSpoke {
				h := newHubSpoke()
				h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("quarantine-hub", "10.0.0.0/16", model.NextHopNone, "")))
				return h
			},
			must:    []model.Code{model.RouteBlackhole},
			mustNot: []model.Code{model.RouteInvalid, model.RoutePeeringNotConnected},
			path:    []string{"subnet vnet-spoke/snet-aks → route 10.0.0.0/16 None (route table rt-aks route quarantine-hub) → dropped"},
		},
		{
			name: "peering_initiated", dst: "10.0.2.5", verdict: model.Unreachable,
			build: func() *hubSpoke {
				h := newHubSpoke()
				h.hub.Peerings = nil // the hub side was deleted
				h.spokeToHub.State = "Initiated"
				return h
			},
			must:    []model.Code{model.RoutePeeringNotConnected},
			mustNot: []model.Code{model.RouteBlackhole},
		},
		{
			name: "gateway_transit_missing", build: newHubSpoke, dst: "192.168.10.20", verdict: model.Unreachable,
			must:    []model.Code{model.RouteGatewayTransitMissing},
			mustNot: []model.Code{model.RouteBlackhole, model.RoutePeeringNotConnected},
			path:    []string{"subnet vnet-spoke/snet-aks → route 192.168.0.0/16 None (default) → dropped"},
		},
		{
			name: "gateway transit configured (negative of the above)", dst: "192.168.10.20", verdict: model.Reachable,
			build:   func() *hubSpoke { h := newHubSpoke(); h.useTransit(); return h },
			mustNot: []model.Code{model.RouteGatewayTransitMissing, model.ReturnRouteMissing},
			path:    []string{"subnet vnet-spoke/snet-aks → route 192.168.0.0/16 VirtualNetworkGateway 10.0.0.30 (gateway vpngw (learned from 192.168.255.1, EBgp)) → on-premises via gateway vpngw (10.0.0.30)"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := c.build()
			res := Trace(h.net, h.aks.ID, ip(c.dst), Options{})
			if res.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s; findings %v; gaps %v; path %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path())
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
			if c.path != nil && !slices.Equal(res.Path(), c.path) {
				t.Errorf("path\n got %q\nwant %q", res.Path(), c.path)
			}
			for _, f := range res.Findings {
				if f.Message == "" || f.Resource.IsZero() || f.Remediation == "" {
					t.Errorf("finding %s lacks message, resource or remediation: %+v", f.Code, f)
				}
			}
		})
	}
}

// The finding of udr_blackhole names the UDR, its route table and why the
// private endpoint's /32 did not save the day.
func TestUDRBlackholeMessage(t *testing.T) {
	h := newHubSpoke()
	h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
	rt := h.routeTable("rg-spoke", "rt-aks", false, udr("quarantine-hub", "10.0.0.0/16", model.NextHopNone, ""))
	h.attach(h.aks, rt)
	res := Trace(h.net, h.aks.ID, ip("10.0.2.5"), Options{})
	if len(res.Findings) != 1 {
		t.Fatalf("want one finding, got %v", res.Findings)
	}
	f := res.Findings[0]
	if !f.Resource.Equal(rt.ID) {
		t.Errorf("resource %s, want the route table", f.Resource)
	}
	for _, want := range []string{"quarantine-hub", "10.0.0.0/16", "10.0.2.5/32", "snet-pe applies route-table policies", "credentials"} {
		if !strings.Contains(f.Message+f.Remediation, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
}
