package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// effectiveOf is what the hub's defaultRouteTable reports: each
// connected VNet's space, next hop its connection.
func (f *vwanFixture) effectiveOf(conns ...*model.HubConnection) *model.HubEffectiveRoutes {
	out := &model.HubEffectiveRoutes{TableID: f.def.ID}
	for _, c := range conns {
		v := f.b.net.VNet(c.RemoteVNetID)
		out.Routes = append(out.Routes, model.HubEffectiveRoute{Prefixes: v.AddressSpace, NextHopType: "Virtual Network Connection", NextHops: []model.ResourceID{c.ID}, Origin: string(c.ID)})
	}
	return out
}

func (f *vwanFixture) setEffective(eff *model.HubEffectiveRoutes) {
	f.b.net.HubEffectiveRoutes = map[string]*model.HubEffectiveRoutes{f.hub.ID.Key(): eff}
}

// withVPNGateway gives the hub a site-to-site VPN gateway: its effective
// routes are then the evidence of every path through it.
func (f *vwanFixture) withVPNGateway() *vwanFixture {
	f.hub.VPNGatewayID = rid("rg-vwan", "vpnGateways", "vpngw-hub-weu")
	return f
}

func TestHubEffectiveRoutesPendingUntilAPathUsesTheHub(t *testing.T) {
	f := newVWAN().withVPNGateway()
	f.b.net.Pending.Add(model.HubEffectiveRoutesOf(f.hub.ID))
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unverified || len(res.Needs) != 1 || res.Needs[0].Kind != model.EvidenceHubEffectiveRoutes {
		t.Fatalf("a path through the hub: verdict %v needs %+v, want unverified needing the hub's effective routes", res.Verdict, res.Needs)
	}
	// Inside the VNet the hub is not used: nothing is needed.
	local := e.Trace(f.aks.ID, ip("10.1.0.10"))
	if len(local.Needs) != 0 || local.Verdict != model.Reachable {
		t.Fatalf("a path inside the VNet: verdict %v needs %+v, want reachable needing nothing", local.Verdict, local.Needs)
	}
}

func TestHubEffectiveRoutesAgree(t *testing.T) {
	f := newVWAN().withVPNGateway()
	f.setEffective(f.effectiveOf(f.connSpoke, f.connShared))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Reachable || hasCode(res.Findings, model.CoverageModelDrift) {
		t.Fatalf("agreeing effective routes: verdict %v findings %+v", res.Verdict, res.Findings)
	}
}

func TestHubEffectiveRoutesDriftFollowsTheHub(t *testing.T) {
	f := newVWAN().withVPNGateway()
	// The configuration propagates vnet-shared nowhere the nodes see; the
	// hub's router holds its prefix all the same.
	f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
	f.setEffective(f.effectiveOf(f.connSpoke, f.connShared))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if !hasCode(res.Findings, model.CoverageModelDrift) || hasCode(res.Findings, model.RouteHubNotPropagated) {
		t.Fatalf("findings %+v, want COVERAGE_MODEL_DRIFT and no ROUTE_HUB_NOT_PROPAGATED", res.Findings)
	}
	for _, fd := range res.Findings {
		if fd.Code == model.CoverageModelDrift && (!fd.Resource.Equal(f.def.ID) || !strings.Contains(fd.Message, "Virtual WAN hub hub-weu")) {
			t.Errorf("drift finding on %s: %s", fd.Resource, fd.Message)
		}
	}
	if res.Arrival.Kind != ArrivalSubnet || !res.Arrival.SubnetID.Equal(f.app.ID) {
		t.Fatalf("the path does not follow the hub's router into vnet-shared: arrival %+v", res.Arrival)
	}
}

func TestHubEffectiveRoutesDriftDrops(t *testing.T) {
	f := newVWAN().withVPNGateway()
	// The configuration gives the route; the hub's router does not hold it.
	f.setEffective(f.effectiveOf(f.connSpoke))
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.CoverageModelDrift) || !hasCode(res.Findings, model.RouteBlackhole) {
		t.Fatalf("verdict %v findings %+v, want unreachable with COVERAGE_MODEL_DRIFT and ROUTE_BLACKHOLE", res.Verdict, res.Findings)
	}
}

// A hub without a branch gateway: its configuration decides a path it
// carries and a path to a destination a read places, so neither reads its
// effective routes, and their failure changes nothing; for a destination
// no read places that its computed routes drop they are the only evidence
// (a hub of the Virtual WAN that was not read may give it a route), so
// their failure leaves the path unverified, naming the read and why it
// failed.
func TestHubEffectiveRoutesFailedRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		gap  model.Gap
		why  string
		fix  string
	}{
		{"permission", model.Gap{Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/effectiveRoutes/action"},
			"the permission Microsoft.Network/virtualHubs/effectiveRoutes/action was refused", "grant Microsoft.Network/virtualHubs/effectiveRoutes/action on virtual hub hub-weu"},
		{"not recorded", model.Gap{Kind: model.GapNotFound, Snapshot: true}, "the snapshot does not record them", "in the snapshot"},
		{"throttled", model.Gap{Kind: model.GapUnavailable, Detail: "429 Too Many Requests"}, "the read kept failing (429 Too Many Requests)", "run the plan again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newVWAN()
			action := model.HubEffectiveRoutesAction(f.hub.ID)
			g := tc.gap
			g.ResourceID = action
			f.b.net.Gaps = model.Gaps{}
			f.b.net.Gaps.Add(g)
			e := NewEngine(f.b.net, Options{})
			res := e.Trace(f.aks.ID, ip("10.2.1.4"))
			if res.Verdict != model.Reachable || len(res.Gaps) != 0 || len(res.Findings) != 0 || res.Arrival.Kind != ArrivalSubnet || !res.Arrival.SubnetID.Equal(f.app.ID) {
				t.Fatalf("verdict %v gaps %+v findings %+v arrival %+v, want reachable in vnet-shared by the computed routes alone", res.Verdict, res.Gaps, res.Findings, res.Arrival)
			}
			res = e.Trace(f.aks.ID, ip("10.9.1.4"))
			if res.Verdict != model.Unverified || hasCode(res.Findings, model.RouteBlackhole) {
				t.Fatalf("a destination no read places: verdict %v findings %+v, want unverified", res.Verdict, res.Findings)
			}
			var gap *model.Gap
			for i := range res.Gaps {
				if res.Gaps[i].ResourceID.Equal(f.hub.ID) {
					gap = &res.Gaps[i]
				}
			}
			if gap == nil {
				t.Fatalf("gaps %+v, want one on hub-weu", res.Gaps)
			}
			for _, want := range []string{"10.9.1.4", "hub-weu", string(action), tc.why, "Virtual WAN"} {
				if !strings.Contains(gap.Detail, want) {
					t.Errorf("gap %q does not say %q", gap.Detail, want)
				}
			}
			if !strings.Contains(gap.Remediation, tc.fix) {
				t.Errorf("remediation %q does not say %q", gap.Remediation, tc.fix)
			}
		})
	}
	t.Run("a path the computed routes drop to a placed destination stays dropped", func(t *testing.T) {
		f := newVWAN()
		f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
		f.b.net.Gaps = model.Gaps{}
		f.b.net.Gaps.Add(model.Gap{ResourceID: model.HubEffectiveRoutesAction(f.hub.ID), Kind: model.GapPermissionDenied})
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
		if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteHubNotPropagated) || hasCode(res.Findings, model.CoverageRoutesComputed) {
			t.Fatalf("verdict %v findings %+v, want unreachable (ROUTE_HUB_NOT_PROPAGATED) and no note", res.Verdict, res.Findings)
		}
	})
}

// A hub with a branch gateway: its effective routes are the evidence of
// every path through it; their failed read keeps the computed hop with a
// COVERAGE_ROUTES_COMPUTED note naming the read, beside the branch gap
// (the branch prefixes only they show are unknown).
func TestHubEffectiveRoutesFailedReadWithABranchGateway(t *testing.T) {
	f := newVWAN().withVPNGateway()
	action := model.HubEffectiveRoutesAction(f.hub.ID)
	if !model.IsCrossCheckRead(action) {
		t.Fatalf("%s is not a cross-check read", action)
	}
	f.b.net.Gaps = model.Gaps{}
	f.b.net.Gaps.Add(model.Gap{ResourceID: action, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/effectiveRoutes/action"})
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unverified || !hasCode(res.Findings, model.CoverageRoutesComputed) {
		t.Fatalf("verdict %v findings %+v, want unverified (the branch gap) with the note", res.Verdict, res.Findings)
	}
	if !hasGap(res.Gaps, f.hub.VPNGatewayID, string(action)) {
		t.Fatalf("gaps %+v, want the VPN gateway's branch gap naming %s", res.Gaps, action)
	}
}

// A hub without a branch gateway: a path it carries, or that its computed
// routes drop to a destination a read places, never waits for its
// effective routes; a destination no read places waits for the reads
// still pending that may place it (a remote VNet and its hub), then for
// the effective routes; a public destination left by the Internet route
// does not use the hub.
func TestHubEffectiveRoutesPendingWithoutBranchGateway(t *testing.T) {
	f := newVWAN()
	f.b.net.Pending.Add(model.HubEffectiveRoutesOf(f.hub.ID))
	e := NewEngine(f.b.net, Options{})
	if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Reachable || len(res.Needs) != 0 {
		t.Fatalf("a path the hub carries: verdict %v needs %+v, want reachable needing nothing", res.Verdict, res.Needs)
	}
	if public := e.Trace(f.aks.ID, ip("20.50.2.10")); len(public.Needs) != 0 {
		t.Fatalf("a public path needs %+v", public.Needs)
	}
	f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
	e = NewEngine(f.b.net, Options{})
	if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Unreachable || len(res.Needs) != 0 || !hasCode(res.Findings, model.RouteHubNotPropagated) {
		t.Fatalf("a drop to a placed destination: verdict %v needs %+v findings %+v, want unreachable needing nothing", res.Verdict, res.Needs, res.Findings)
	}
	drop := e.Trace(f.aks.ID, ip("10.9.1.4"))
	if drop.Verdict != model.Unverified || len(drop.Needs) != 1 || drop.Needs[0].Kind != model.EvidenceHubEffectiveRoutes {
		t.Fatalf("a drop to a destination no read places: verdict %v needs %+v, want unverified needing the hub's effective routes", drop.Verdict, drop.Needs)
	}
	// A VNet the provider read, peered with no hub's VNet and with no
	// VNet that is: no hub reaches it, and a drop to it is confident.
	lone := f.b.vnet("rg-other", "vnet-lone", "10.6.0.0/16")
	e = NewEngine(f.b.net, Options{})
	if res := e.Trace(f.aks.ID, ip("10.6.1.4")); res.Verdict != model.Unreachable || len(res.Needs) != 0 {
		t.Fatalf("a drop to a VNet no hub reaches: verdict %v needs %+v, want unreachable needing nothing", res.Verdict, res.Needs)
	}
	// Peered with the VNet of a hub the provider did not read, or with a
	// VNet it did not read, a VNet does not place its addresses: it may
	// be a spoke, direct or behind an appliance, of that hub.
	other := f.b.vnet("rg-other", "vnet-other", "10.7.0.0/16")
	f.b.side(other, &model.VNet{ID: model.ResourceID("/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-neu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-neu_1")}, "RemoteVnetToHubPeering_other")
	f.b.side(lone, &model.VNet{ID: rid("rg-nva", "virtualNetworks", "vnet-nva")}, "to-nva")
	e = NewEngine(f.b.net, Options{})
	for _, dst := range []string{"10.7.1.4", "10.6.1.4"} {
		if res := e.Trace(f.aks.ID, ip(dst)); res.Verdict != model.Unverified || len(res.Needs) != 1 || res.Needs[0].Kind != model.EvidenceHubEffectiveRoutes {
			t.Fatalf("a drop to %s, in a VNet a hub that was not read may reach: verdict %v needs %+v, want unverified needing the hub's effective routes", dst, res.Verdict, res.Needs)
		}
	}
	remote := model.RemoteHubOf(rid("rg-dns", "virtualNetworks", "vnet-dns"), ip("10.3.3.4"))
	f.b.net.Pending.Add(remote)
	e = NewEngine(f.b.net, Options{})
	drop = e.Trace(f.aks.ID, ip("10.9.1.4"))
	if drop.Verdict != model.Unverified || len(drop.Needs) != 1 || drop.Needs[0].Key() != remote.Key() {
		t.Fatalf("with a remote VNet still pending: verdict %v needs %+v, want unverified needing %s first", drop.Verdict, drop.Needs, remote.Key())
	}
}

func TestHubEffectiveRoutesNotReadUnderAPlan(t *testing.T) {
	// Neither pending, nor read, nor failed (a plan changes the hub's
	// routing): the computed routes stand alone, except for a destination
	// no read places, which only the effective routes could show: it is
	// unverified, naming the plan, never a confident drop.
	f := newVWAN()
	f.b.net.HubEffectiveUnderPlan = map[string]bool{f.hub.ID.Key(): true}
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Reachable || len(res.Needs) != 0 {
		t.Fatalf("verdict %v needs %+v", res.Verdict, res.Needs)
	}
	res = e.Trace(f.aks.ID, ip("10.9.1.4"))
	if res.Verdict != model.Unverified || len(res.Needs) != 0 || hasCode(res.Findings, model.RouteBlackhole) {
		t.Fatalf("a destination no read places: verdict %v needs %+v findings %+v, want unverified", res.Verdict, res.Needs, res.Findings)
	}
	if !hasGap(res.Gaps, f.hub.ID, "planned change") {
		t.Fatalf("gaps %+v, want one on hub-weu naming the planned change", res.Gaps)
	}
	f.withVPNGateway()
	if res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4")); len(res.Needs) != 0 || hasCode(res.Findings, model.CoverageModelDrift) {
		t.Fatalf("a hub with a branch gateway under the plan: needs %+v findings %+v", res.Needs, res.Findings)
	}
}

func TestHubEffectiveRoutesToTheFirewall(t *testing.T) {
	f := newVWAN()
	fwIP := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(string(f.hub.ID) + "/routingIntent/ri"), PrivateNextHop: f.hub.FirewallID}
	f.setEffective(&model.HubEffectiveRoutes{TableID: f.def.ID, Routes: []model.HubEffectiveRoute{{
		Prefixes: []netip.Prefix{pfx("10.0.0.0/8"), pfx("172.16.0.0/12"), pfx("192.168.0.0/16")}, NextHopType: "Azure Firewall", NextHops: []model.ResourceID{f.hub.FirewallID}}}})
	routes := hubEffectiveRoutes(f.b.net, f.hub, f.connSpoke, f.spoke, f.b.net.HubEffective(f.hub.ID))
	if len(routes) != 3 || routes[0].NextHopIP != fwIP {
		t.Fatalf("routes %+v, want three to the firewall %s", routes, fwIP)
	}
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if hasCode(res.Findings, model.CoverageModelDrift) {
		t.Fatalf("routing intent and its effective routes agree, yet: %+v", res.Findings)
	}
}

// TestHubRouteToNoConnectedVNetNamesAMissingVirtualWAN: where the hub's
// router sends a destination no connected VNet holds (here another hub's
// spoke), the gap says so; where the hub names no Virtual WAN, it also
// says that the other hubs, whose VNets may hold it, are unknown, and how
// to record the hub's virtualWan. A hub that names its Virtual WAN gets no
// such words.
func TestHubRouteToNoConnectedVNetNamesAMissingVirtualWAN(t *testing.T) {
	for _, withWAN := range []bool{true, false} {
		f := newVWAN()
		if withWAN {
			f.hub.VirtualWANID = rid("rg-vwan", "virtualWans", "vwan-contoso")
		}
		eff := f.effectiveOf(f.connSpoke, f.connShared)
		eff.Routes = append(eff.Routes, model.HubEffectiveRoute{Prefixes: []netip.Prefix{pfx("10.9.0.0/16")}, NextHopType: "Remote Hub", NextHops: []model.ResourceID{f.hub.ID}})
		f.setEffective(eff)
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.9.1.4"))
		if res.Verdict != model.Unverified || len(res.Gaps) == 0 {
			t.Fatalf("withWAN %v: verdict %v gaps %+v, want unverified with a gap on the hub", withWAN, res.Verdict, res.Gaps)
		}
		var g model.Gap
		for _, x := range res.Gaps {
			if x.ResourceID.Equal(f.hub.ID) && strings.Contains(x.Detail, "no VNet connected to it") {
				g = x
			}
		}
		if g.Detail == "" {
			t.Fatalf("withWAN %v: no gap on the hub naming the unheld destination: %+v", withWAN, res.Gaps)
		}
		names := strings.Contains(g.Detail, "names no Virtual WAN") && strings.Contains(g.Remediation, "virtualWan")
		if names == withWAN {
			t.Errorf("withWAN %v: detail %q remediation %q", withWAN, g.Detail, g.Remediation)
		}
	}
}
