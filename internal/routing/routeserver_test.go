package routing

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// withRouteServer puts Route Server rs-hub (10.0.4.4, 10.0.4.5) in the
// hub's RouteServerSubnet, peered with the hub NVA (10.0.1.4), which
// advertises the given prefixes with itself as next hop.
func withRouteServer(h *hubSpoke, prefixes ...string) *model.RouteServer {
	sub := h.subnet(h.hub, "RouteServerSubnet", "10.0.4.0/27")
	rs := &model.RouteServer{ID: rid("rg-hub", "virtualHubs", "rs-hub"), Name: "rs-hub", VNetID: h.hub.ID,
		RouterIPs: []netip.Addr{ip("10.0.4.4"), ip("10.0.4.5")}, PeersKnown: true}
	sub.IPConfigurationIDs = []model.ResourceID{rs.ID + "/ipConfigurations/ipconfig1"}
	peer := model.RouteServerPeer{ID: rs.ID + "/bgpConnections/nva", Name: "nva", IP: ip("10.0.1.4"), LearnedKnown: true}
	for _, p := range prefixes {
		peer.Learned = append(peer.Learned, model.GatewayRoute{Prefix: pfx(p), NextHop: ip("10.0.1.4"), SourcePeer: ip("10.0.1.4"), Origin: "EBgp", ASPath: "65020"})
	}
	rs.Peers = []model.RouteServerPeer{peer}
	h.net.RouteServers[rs.ID.Key()] = rs
	return rs
}

func TestRouteServerRules(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		from    func(h *hubSpoke) *model.Subnet
		dst     string
		verdict model.Verdict
		must    []model.Code
		mustNot []model.Code
		path    string
		gap     string
	}{
		{name: "a Route Server route more specific than the gateway's leads to the appliance, and beyond it nothing can be read",
			dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.useTransit(); withRouteServer(h, "192.168.10.0/24") },
			must:  []model.Code{model.ReturnRouteUnverified}, mustNot: []model.Code{model.RouteBlackhole},
			path: "route 192.168.10.0/24 VirtualNetworkGateway 10.0.1.4 (Route Server rs-hub (learned from 10.0.1.4)) → appliance nic-vm-nva 10.0.1.4 in vnet-hub/snet-nva"},
		{name: "… without the Route Server the gateway carries it (negative)", dst: "192.168.10.20", verdict: model.Reachable,
			setup: func(h *hubSpoke) { h.useTransit() }},
		{name: "the gateway's copy of the Route Server's route is not a gateway route", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				withRouteServer(h, "192.168.10.0/24")
				h.gw.Learned = append(h.gw.Learned, model.GatewayRoute{Prefix: pfx("192.168.10.0/24"), NextHop: ip("10.0.1.4"), SourcePeer: ip("10.0.4.4"), Origin: "IBgp", ASPath: "65020"})
			},
			must: []model.Code{model.ReturnRouteUnverified}, path: "(Route Server rs-hub"},
		{name: "gateway and Route Server both have the prefix: which Azure programs is unknown", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				withRouteServer(h, "192.168.0.0/16")
			},
			gap: "gateway vpngw and Route Server rs-hub both have a route for 192.168.0.0/16"},
		{name: "Route Server routes do not reach a spoke without gateway transit", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { withRouteServer(h, "192.168.10.0/24") },
			must:  []model.Code{model.RouteGatewayTransitMissing}},
		{name: "a route table that disables BGP propagation keeps Route Server routes out", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.Learned = h.gw.Learned[:1] // only the Route Server knows on-premises
				withRouteServer(h, "192.168.10.0/24")
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true))
			},
			must: []model.Code{model.RouteBGPPropagationDisabled}, path: "route 192.168.0.0/16 None (default) → dropped"},
		{name: "BGP cannot override the private endpoint's /32 (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { h.useTransit(); withRouteServer(h, "10.0.2.0/24", "0.0.0.0/0") }},
		{name: "Route Server not read: destinations BGP routes could carry are unverified", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				rs := withRouteServer(h)
				delete(h.net.RouteServers, rs.ID.Key())
			},
			gap: "Route Server rs-hub in vnet-hub (reached through peering spoke-to-hub) was not read"},
		{name: "… but not the private endpoint in protected space (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				rs := withRouteServer(h)
				delete(h.net.RouteServers, rs.ID.Key())
			}},
		{name: "learned routes of a peer not read: unverified", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				rs := withRouteServer(h)
				rs.Peers[0].LearnedKnown = false
			},
			gap: "the routes Route Server rs-hub learned from peer nva (10.0.1.4) were not read"},
		{name: "the appliance a Route Server route names does not forward", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.useTransit(); withRouteServer(h, "192.168.10.0/24"); h.nva.IPForwarding = false },
			must:  []model.Code{model.RouteNVAForwardingDisabled}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			c.setup(h)
			from := h.aks
			if c.from != nil {
				from = c.from(h)
			}
			res := Trace(h.net, from.ID, ip(c.dst), Options{})
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path())
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
			if c.path != "" && !strings.Contains(strings.Join(res.Path(), " | "), c.path) {
				t.Errorf("path %q lacks %q", res.Path(), c.path)
			}
			if c.gap != "" {
				found := false
				for _, g := range res.Gaps {
					found = found || strings.Contains(g.Detail, c.gap)
				}
				if !found {
					t.Errorf("gaps %v lack %q", res.Gaps, c.gap)
				}
			}
		})
	}
}

// The arrival beyond the appliance names the Route Server and the
// appliance to check; the return path is unverified, not reachable.
func TestRouteServerBeyondAppliance(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	withRouteServer(h, "192.168.10.0/24")
	res := Trace(h.net, h.aks.ID, ip("192.168.10.20"), Options{})
	if res.Arrival.Kind != ArrivalBeyondAppliance || !res.Arrival.RouteServerID.Equal(rid("rg-hub", "virtualHubs", "rs-hub")) {
		t.Fatalf("arrival %+v", res.Arrival)
	}
	if res.Return.Verdict != model.Unverified || len(res.Findings) != 1 {
		t.Fatalf("return %+v findings %v", res.Return, res.Findings)
	}
	f := res.Findings[0]
	for _, want := range []string{"192.168.10.20 is reached through appliance nic-vm-nva 10.0.1.4 in vnet-hub/snet-nva", "Route Server rs-hub", "10.1.0.0/22"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if !f.Resource.Equal(h.nva.ID) || f.Remediation == "" {
		t.Errorf("finding %+v", f)
	}
}

// A real effective route that Route Server programmed (next hop the
// appliance) is recognised as the Route Server's.
func TestTraceEffectiveRouteServerRoute(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	withRouteServer(h, "192.168.10.0/24")
	node := h.nic("rg-spoke", "nic-node", h.aks, false, "10.1.0.4")
	node.Effective = append(realSpoke(), model.Route{Prefix: pfx("192.168.10.0/24"), NextHopType: model.NextHopVirtualNetworkGateway,
		NextHopIP: ip("10.0.1.4"), Source: model.RouteSourceGateway, State: model.RouteStateActive})
	res := NewEngine(h.net, Options{}).TraceEffective(node, ip("10.1.0.4"), ip("192.168.10.20"))
	if res.Arrival.Kind != ArrivalBeyondAppliance || res.Drift != nil {
		t.Errorf("arrival %+v drift %+v path %q", res.Arrival, res.Drift, res.Path())
	}
}
