package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// indirectFixture: vnet-shared (10.2.0.0/16) of the Virtual WAN fixture is
// a transit spoke with an appliance (nva-nic 10.2.3.4, IP forwarding) in
// snet-nva; vnet-indirect (10.3.0.0/16) is peered with it only, holding a
// private endpoint 10.3.1.5; connection conn-shared has static route
// to-indirect (10.3.0.0/16 to 10.2.3.4), propagated as Azure does by
// default.
type indirectFixture struct {
	*vwanFixture
	nva          *model.NIC
	nvaSubnet    *model.Subnet
	indirect     *model.VNet
	pe           *model.PrivateEndpoint
	toTransitRev *model.Peering
}

func newIndirect() *indirectFixture {
	f := &indirectFixture{vwanFixture: newVWAN()}
	b := f.b
	f.nvaSubnet = b.subnet(f.shared, "snet-nva", "10.2.3.0/24")
	f.nva = b.nic("rg-shared", "nva-nic", f.nvaSubnet, true, "10.2.3.4")
	f.indirect = b.vnet("rg-indirect", "vnet-indirect", "10.3.0.0/16")
	pes := b.subnet(f.indirect, "snet-pe", "10.3.1.0/24")
	f.pe = b.privateEndpoint("rg-indirect", "pe-acr", pes, "10.3.1.5")
	_, f.toTransitRev = b.peer(f.shared, f.indirect, "shared-to-indirect", "indirect-to-shared")
	f.connShared.StaticRoutes = []model.HubStaticRoute{{Name: "to-indirect", Prefixes: []netip.Prefix{pfx("10.3.0.0/16")}, NextHopIP: ip("10.2.3.4")}}
	return f
}

func TestHubStaticRouteThroughAppliance(t *testing.T) {
	f := newIndirect()
	e := NewEngine(f.b.net, Options{})
	if r, ok := hubRoute(t, e, f.aks, "10.3.1.5"); !ok || r.Prefix != pfx("10.3.0.0/16") {
		t.Fatalf("the nodes get no hub route for the static route's prefix: %+v", r)
	}
	res := e.Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Arrival.Kind != ArrivalPrivateEndpoint || !res.Arrival.PrivateEndpointID.Equal(f.pe.ID) {
		t.Fatalf("arrival = %+v, hops %v, gaps %+v, findings %+v", res.Arrival, res.Path(), res.Gaps, res.Findings)
	}
	if len(res.Appliances) != 1 || !res.Appliances[0].NICID.Equal(f.nva.ID) {
		t.Fatalf("appliances = %+v, want the transit spoke's appliance", res.Appliances)
	}
	// Replies from a private endpoint bypass route tables: through an
	// appliance whose source translation ARM does not show, the return
	// path is unverified (never unreachable).
	if res.Verdict != model.Unverified || !hasCode(res.Findings, model.ReturnRouteUnverified) || hasCode(res.Findings, model.ReturnRouteMissing) {
		t.Fatalf("verdict %v findings %+v", res.Verdict, res.Findings)
	}
	// The appliance translating the source: replies come back to it.
	res = e.ReturnWithNAT(res, func(Appliance) (SourceNAT, string) { return NATTranslated, "" })
	if res.Verdict != model.Reachable {
		t.Fatalf("with source NAT at the appliance: verdict %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
	}
	// Known not to translate: replies bypass it.
	res = e.ReturnWithNAT(e.Trace(f.aks.ID, ip("10.3.1.5")), func(Appliance) (SourceNAT, string) { return NATNone, "" })
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.ReturnRouteAsymmetric) {
		t.Fatalf("without source NAT: verdict %v findings %+v", res.Verdict, res.Findings)
	}
}

func TestHubStaticRouteApplianceNotForwarding(t *testing.T) {
	f := newIndirect()
	f.nva.IPForwarding = false
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteNVAForwardingDisabled) {
		t.Fatalf("verdict %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
	}
}

func TestHubStaticRouteForwardedTrafficRefused(t *testing.T) {
	f := newIndirect()
	f.toTransitRev.AllowForwardedTraffic = false
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteForwardedTrafficBlock) {
		t.Fatalf("verdict %v findings %+v", res.Verdict, res.Findings)
	}
}

func TestHubStaticRouteApplianceNICPending(t *testing.T) {
	f := newIndirect()
	delete(f.b.net.NICs, f.nva.ID.Key())
	ev := model.ApplianceNICAt(f.shared.ID, ip("10.2.3.4"))
	f.b.net.Pending.Add(ev)
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unverified || len(res.Needs) != 1 || res.Needs[0].Key() != ev.Key() {
		t.Fatalf("verdict %v needs %+v gaps %+v", res.Verdict, res.Needs, res.Gaps)
	}
	// A destination that no static route covers needs nothing of it.
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if len(res.Needs) != 0 || res.Verdict != model.Reachable {
		t.Fatalf("a path that never reaches the appliance: verdict %v needs %+v", res.Verdict, res.Needs)
	}
}

func TestHubStaticRouteNextHopOutsideVNet(t *testing.T) {
	f := newIndirect()
	f.connShared.StaticRoutes[0].NextHopIP = ip("10.3.9.9")
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unverified || len(res.Findings) != 0 || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(f.connShared.ID) {
		t.Fatalf("verdict %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
	}
}

func TestHubStaticRoutesNotPropagated(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*indirectFixture)
		want string
	}{
		{"propagateStaticRoutes false", func(f *indirectFixture) { f.connShared.StaticRoutesNotPropagated = true }, "propagateStaticRoutes"},
		// Labels named (none of them defaultRouteTable's): the label
		// "default" does not apply. With no label named it would be
		// undocumented (TestHubPropagationUndocumented).
		{"connection propagates elsewhere", func(f *indirectFixture) {
			f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
		}, "propagated route tables of connection conn-shared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newIndirect()
			tc.set(f)
			e := NewEngine(f.b.net, Options{})
			if _, ok := hubRoute(t, e, f.aks, "10.3.1.5"); ok {
				t.Fatal("a static route that is not propagated reaches the nodes")
			}
			res := e.Trace(f.aks.ID, ip("10.3.1.5"))
			if res.Verdict != model.Unreachable || len(res.Findings) != 1 || res.Findings[0].Code != model.RouteHubNotPropagated ||
				!res.Findings[0].Resource.Equal(f.connShared.ID) || !strings.Contains(res.Findings[0].Remediation, tc.want) {
				t.Fatalf("verdict %v findings %+v", res.Verdict, res.Findings)
			}
		})
	}
	// Propagated (the default): no such finding.
	f := newIndirect()
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if hasCode(res.Findings, model.RouteHubNotPropagated) {
		t.Fatalf("findings %+v", res.Findings)
	}
}

// vnetLocalRouteOverrideCriteria: a static route containing the
// connection's own VNet space sends traffic to that space through the
// appliance (Contains, the default); with Equal the VNet's space bypasses
// it.
func TestHubStaticRouteLocalOverride(t *testing.T) {
	f := newIndirect()
	f.connShared.StaticRoutes[0].Prefixes = []netip.Prefix{pfx("10.2.0.0/15")}
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if len(res.Appliances) != 1 || !res.Appliances[0].NICID.Equal(f.nva.ID) || res.Arrival.Kind != ArrivalSubnet {
		t.Fatalf("Contains: appliances %+v arrival %+v path %v", res.Appliances, res.Arrival, res.Path())
	}
	f.connShared.BypassStaticRoutesInVNet = true
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if len(res.Appliances) != 0 || res.Verdict != model.Reachable || !res.Arrival.SubnetID.Equal(f.app.ID) {
		t.Fatalf("Equal: verdict %v appliances %+v arrival %+v", res.Verdict, res.Appliances, res.Arrival)
	}
	// The indirect spoke, outside the VNet's space, still goes through
	// the appliance.
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if len(res.Appliances) != 1 {
		t.Fatalf("Equal, indirect spoke: appliances %+v path %v", res.Appliances, res.Path())
	}
}

// Under a private traffic routing policy the hub's firewall comes first,
// then the hub sends the packet by the connection's static route to the
// spoke's appliance ("Routing intent with static routes").
func TestHubStaticRouteAfterRoutingIntent(t *testing.T) {
	f := newIndirect()
	fw := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: hubID + "/routingIntent/ri", PrivateNextHop: f.hub.FirewallID}
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if len(res.Appliances) != 2 || res.Appliances[0].IP != fw || !res.Appliances[1].NICID.Equal(f.nva.ID) ||
		res.Arrival.Kind != ArrivalPrivateEndpoint || hasCode(res.Findings, model.RouteNotTransitive) || res.Verdict == model.Unreachable {
		t.Fatalf("verdict %v appliances %+v path %v findings %+v", res.Verdict, res.Appliances, res.Path(), res.Findings)
	}
	// Not propagated: the hub's VNet has no route for it either.
	f.connShared.StaticRoutesNotPropagated = true
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if len(res.Appliances) != 1 || res.Arrival.Kind == ArrivalPrivateEndpoint {
		t.Fatalf("not propagated: appliances %+v path %v", res.Appliances, res.Path())
	}
}

// A VM in the indirect spoke replies by its subnet's routes: a UDR to the
// appliance for the private ranges brings the replies back through it
// (symmetric); without it the indirect spoke has no route to the nodes.
func TestHubStaticRouteReturnFromIndirectSpoke(t *testing.T) {
	f := newIndirect()
	vm := f.b.subnet(f.indirect, "snet-vm", "10.3.2.0/24")
	f.b.nic("rg-indirect", "vm-nic", vm, false, "10.3.2.4")
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.2.4"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.ReturnRouteMissing) {
		t.Fatalf("without a route back: verdict %v findings %+v", res.Verdict, res.Findings)
	}
	rt := f.b.routeTable("rg-indirect", "rt-vm", false, model.Route{Prefix: pfx("10.0.0.0/8"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.2.3.4")})
	f.b.attach(vm, rt)
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.2.4"))
	if res.Verdict != model.Reachable || len(res.Return.Appliances) != 1 || !res.Return.Appliances[0].NICID.Equal(f.nva.ID) {
		t.Fatalf("10.0.0.0/8 to the appliance: verdict %v return %+v findings %+v gaps %+v", res.Verdict, res.Return, res.Findings, res.Gaps)
	}
}
