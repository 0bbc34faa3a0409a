package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const (
	wanID    = testSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualWans/vwan"
	hubNeuID = testSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-neu"
)

// interHub adds to the Virtual WAN fixture a second hub hub-neu
// (10.101.0.0/23, router 10.101.0.68) with vnet-remote (10.3.0.0/16,
// snet-pe holding private endpoint pe-acr 10.3.1.5) connected to it,
// associated with its defaultRouteTable and propagating to the label
// "default"; both hubs are in the same Virtual WAN.
type interHub struct {
	*vwanFixture
	hub2       *model.VirtualHub
	def2       *model.HubRouteTable
	remote     *model.VNet
	peSubnet   *model.Subnet
	connRemote *model.HubConnection
	hubNet2    *model.VNet
}

func newInterHub() *interHub {
	f := &interHub{vwanFixture: newVWAN()}
	b := f.b
	f.hub.VirtualWANID = wanID
	f.remote = b.vnet("rg-remote", "vnet-remote", "10.3.0.0/16")
	f.peSubnet = b.subnet(f.remote, "snet-pe", "10.3.1.0/24")
	b.privateEndpoint("rg-remote", "pe-acr", f.peSubnet, "10.3.1.5")
	hv := model.ResourceID("/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-neu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-neu_1")
	f.hub2 = &model.VirtualHub{ID: hubNeuID, Name: "hub-neu", AddressPrefix: pfx("10.101.0.0/23"), RouterIPs: []netip.Addr{ip("10.101.0.68")},
		HubVNetID: hv, VirtualWANID: wanID, ConnectionsKnown: true, RouteTablesKnown: true, IntentKnown: true}
	f.def2 = &model.HubRouteTable{ID: hubNeuID + "/hubRouteTables/defaultRouteTable", Name: "defaultRouteTable"}
	f.hub2.RouteTables = []*model.HubRouteTable{f.def2}
	f.connRemote = &model.HubConnection{ID: hubNeuID + "/hubVirtualNetworkConnections/conn-remote", Name: "conn-remote", RemoteVNetID: f.remote.ID,
		AssociatedRouteTable: f.def2.ID, PropagatedLabels: []string{"default"}}
	f.hub2.Connections = []*model.HubConnection{f.connRemote}
	b.net.VirtualHubs[f.hub2.ID.Key()] = f.hub2
	f.hubNet2 = &model.VNet{ID: hv, Name: hv.Name(), Location: "northeurope", AddressSpace: []netip.Prefix{f.hub2.AddressPrefix}}
	f.hubNet2.Subnets = []*model.Subnet{{ID: model.HubFirewallSubnet(hv), VNetID: hv, Name: "AzureFirewallSubnet", Prefixes: []netip.Prefix{f.hub2.AddressPrefix}}}
	b.net.AddVNet(f.hubNet2)
	toHub := b.side(f.remote, f.hubNet2, "RemoteVnetToHubPeering_remote")
	toHub.AllowForwardedTraffic, toHub.VirtualHubID = false, f.hub2.ID
	back := b.side(f.hubNet2, f.remote, "conn-remote")
	back.ID, back.VirtualHubID = f.connRemote.ID, f.hub2.ID
	return f
}

func (f *interHub) withFirewall2() netip.Addr {
	fw := &model.AzureFirewall{ID: rid("rg-vwan", "azureFirewalls", "fw-hub-neu"), Name: "fw-hub-neu", PrivateIPs: []netip.Addr{ip("10.101.0.132")}, VirtualHubID: f.hub2.ID}
	f.b.net.AddFirewall(fw)
	f.hub2.FirewallID = fw.ID
	f.hub2.Intent = &model.RoutingIntent{ID: model.ResourceID(hubNeuID + "/routingIntent/ri"), PrivateNextHop: fw.ID}
	return fw.PrivateIPs[0]
}

func TestInterHubRouteReachesRemoteSpoke(t *testing.T) {
	f := newInterHub()
	e := NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "10.3.1.5")
	if !ok || r.Prefix != pfx("10.3.0.0/16") || r.NextHopType != model.NextHopVirtualNetworkGateway || r.NextHopIP != ip("10.100.0.68") {
		t.Fatalf("route to the other hub's spoke = %+v (from hub-weu %v), want 10.3.0.0/16 VirtualNetworkGateway 10.100.0.68", r, ok)
	}
	res := e.Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Reachable || res.Arrival.Kind != ArrivalPrivateEndpoint {
		t.Fatalf("trace = %v arrival %+v findings %+v gaps %+v", res.Verdict, res.Arrival, res.Findings, res.Gaps)
	}
}

func TestInterHubOnlyWithinOneVirtualWAN(t *testing.T) {
	f := newInterHub()
	f.hub2.VirtualWANID = testSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualWans/other"
	e := NewEngine(f.b.net, Options{})
	if r, ok := hubRoute(t, e, f.aks, "10.3.1.5"); ok {
		t.Fatalf("a hub of another Virtual WAN gives a route: %+v", r)
	}
	if res := e.Trace(f.aks.ID, ip("10.3.1.5")); res.Verdict == model.Reachable {
		t.Fatalf("a spoke of another Virtual WAN's hub is reachable: %+v", res.Hops)
	}
}

func TestInterHubNeedsPropagationToALabel(t *testing.T) {
	f := newInterHub()
	// Labels named, none of them the other hub's tables': no route.
	f.connRemote.PropagatedLabels, f.connRemote.PropagatedRouteTables = []string{"none"}, []model.ResourceID{f.def2.ID}
	if r, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "10.3.1.5"); ok {
		t.Fatalf("a connection propagating to label none only reaches the other hub: %+v", r)
	}
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteHubNotPropagated) || !strings.Contains(res.Findings[0].Message, "conn-remote") {
		t.Fatalf("not propagated across hubs: %v findings %+v", res.Verdict, res.Findings)
	}
	// Propagating by id only, no label named: the label "default" all the same.
	f.connRemote.PropagatedLabels = nil
	if _, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "10.3.1.5"); !ok {
		t.Fatal("a connection naming no label does not reach the other hub's defaultRouteTable")
	}
	// A custom label the local table carries.
	f.connRemote.PropagatedLabels = []string{"shared"}
	f.def.Labels = append(f.def.Labels, "shared")
	if _, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "10.3.1.5"); !ok {
		t.Fatal("a connection propagating to a label of the local table does not reach it")
	}
}

// A connection of another hub that propagates nowhere the nodes' table
// listens is ROUTE_HUB_NOT_PROPAGATED only while that hub's route tables
// were read: unread, the path is unverified, naming them.
func TestInterHubNotPropagatedNeedsTheRemoteTables(t *testing.T) {
	for _, known := range []bool{true, false} {
		f := newInterHub()
		f.connRemote.PropagatedLabels, f.connRemote.PropagatedRouteTables = []string{"none"}, []model.ResourceID{f.def2.ID}
		f.hub2.RouteTablesKnown = known
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
		if known {
			if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteHubNotPropagated) {
				t.Fatalf("route tables read: %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
			}
			continue
		}
		if res.Verdict != model.Unverified || len(res.Findings) != 0 || len(res.Gaps) == 0 ||
			!res.Gaps[0].ResourceID.Equal(model.ResourceID(hubNeuID+"/hubRouteTables")) {
			t.Fatalf("route tables unread: %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
		}
	}
}

func TestInterHubRemoteIntentCrossesRemoteFirewall(t *testing.T) {
	f := newInterHub()
	fw2 := f.withFirewall2()
	// Under a private policy its connections propagate to noneRouteTable;
	// the other hubs reach them through its firewall all the same.
	f.connRemote.PropagatedLabels, f.connRemote.PropagatedRouteTables = []string{"none"}, nil
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Arrival.Kind != ArrivalPrivateEndpoint || len(res.Appliances) != 1 || res.Appliances[0].IP != fw2 {
		t.Fatalf("trace crosses %+v, arrives %+v, findings %+v gaps %+v", res.Appliances, res.Arrival, res.Findings, res.Gaps)
	}
}

func TestInterHubBothIntentsCrossBothFirewalls(t *testing.T) {
	f := newInterHub()
	fw1 := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), PrivateNextHop: f.hub.FirewallID}
	fw2 := f.withFirewall2()
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Arrival.Kind != ArrivalPrivateEndpoint || len(res.Appliances) != 2 || res.Appliances[0].IP != fw1 || res.Appliances[1].IP != fw2 {
		t.Fatalf("trace crosses %+v, arrives %+v, findings %+v gaps %+v", res.Appliances, res.Arrival, res.Findings, res.Gaps)
	}
	// Only the local hub secured: its firewall alone.
	g := newInterHub()
	fw1 = g.withFirewall()
	g.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), PrivateNextHop: g.hub.FirewallID}
	res = NewEngine(g.b.net, Options{}).Trace(g.aks.ID, ip("10.3.1.5"))
	if res.Arrival.Kind != ArrivalPrivateEndpoint || len(res.Appliances) != 1 || res.Appliances[0].IP != fw1 {
		t.Fatalf("local intent only: trace crosses %+v, arrives %+v, findings %+v gaps %+v", res.Appliances, res.Arrival, res.Findings, res.Gaps)
	}
}

func TestInterHubRemoteFirewallUnreadIsAGap(t *testing.T) {
	f := newInterHub()
	f.withFirewall2()
	delete(f.b.net.Firewalls, f.hub2.FirewallID.Key())
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unverified || len(res.Gaps) == 0 {
		t.Fatalf("remote firewall not read: %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
	}
}

func TestAdditionalPrivatePrefixThroughFirewall(t *testing.T) {
	f := newVWAN()
	fwIP := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), PrivateNextHop: f.hub.FirewallID}
	f.shared.AddressSpace = append(f.shared.AddressSpace, pfx("40.2.0.0/16"))
	f.b.subnet(f.shared, "snet-extra", "40.2.1.0/24")
	e := NewEngine(f.b.net, Options{})
	if r, ok := hubRoute(t, e, f.aks, "40.2.1.4"); ok {
		t.Fatalf("a non-RFC 1918 prefix without a private traffic prefix goes to the hub: %+v", r)
	}
	f.def.Routes = []model.HubRoute{{Name: "private_traffic", Destinations: []netip.Prefix{pfx("40.0.0.0/8")}, NextHop: f.hub.FirewallID}}
	e = NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "40.2.1.4")
	if !ok || r.Prefix != pfx("40.0.0.0/8") || r.NextHopIP != fwIP {
		t.Fatalf("private traffic prefix route = %+v (from hub %v), want 40.0.0.0/8 to the firewall", r, ok)
	}
	res := e.Trace(f.aks.ID, ip("40.2.1.4"))
	if len(res.Appliances) != 1 || res.Appliances[0].IP != fwIP {
		t.Fatalf("trace crosses %+v, findings %+v gaps %+v", res.Appliances, res.Findings, res.Gaps)
	}
	// A route to something else than the private policy's next hop is not a private traffic prefix.
	f.def.Routes[0].NextHop = rid("rg-vwan", "azureFirewalls", "other")
	if _, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "40.2.1.4"); ok {
		t.Fatal("a defaultRouteTable route to another next hop counts as a private traffic prefix")
	}
}

func TestHubPrivateEndpointReturnRouteMissing(t *testing.T) {
	f := newVWAN()
	pe := f.b.privateEndpoint("rg-shared", "pe-acr", f.app, "10.2.1.5")
	shared := &model.HubRouteTable{ID: hubID + "/hubRouteTables/rt-shared", Name: "rt-shared", Labels: []string{"shared"}}
	f.hub.RouteTables = append(f.hub.RouteTables, shared)
	f.connShared.AssociatedRouteTable = shared.ID
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.5"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.ReturnRouteMissing) || res.Arrival.PrivateEndpointID != pe.ID {
		t.Fatalf("trace = %v arrival %+v findings %+v gaps %+v", res.Verdict, res.Arrival, res.Findings, res.Gaps)
	}
	msg := res.Findings[0].Message + res.Findings[0].Remediation
	for _, want := range []string{"conn-spoke", "rt-shared", "pe-acr"} {
		if !strings.Contains(msg, want) {
			t.Errorf("finding does not name %s: %s", want, msg)
		}
	}
	// The nodes' connection propagating to the label of that table: replies return.
	f.connSpoke.PropagatedLabels = append(f.connSpoke.PropagatedLabels, "shared")
	res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.5"))
	if res.Verdict != model.Reachable {
		t.Fatalf("propagated back: %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
	}
}

func TestHubBranchGatewayIsAGap(t *testing.T) {
	f := newVWAN()
	f.hub.VPNGatewayID = rid("rg-vwan", "vpnGateways", "vpngw-hub-weu")
	e := NewEngine(f.b.net, Options{})
	// A destination the hub router already takes: the hub forwards by its
	// own table, where a more specific branch prefix would take it.
	if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(f.hub.VPNGatewayID) {
		t.Fatalf("spoke behind the hub: %v gaps %+v", res.Verdict, res.Gaps)
	}
	res := e.Trace(f.aks.ID, ip("10.9.0.4"))
	if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(f.hub.VPNGatewayID) {
		t.Fatalf("a destination a branch may advertise: %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
	}
	// No failed read: the gap says what to do instead of "read again".
	if !strings.Contains(res.Gaps[0].Remediation, "effective routes of virtual hub") {
		t.Errorf("branch gap without its remediation: %+v", res.Gaps[0])
	}
	g := newVWAN()
	if res := NewEngine(g.b.net, Options{}).Trace(g.aks.ID, ip("10.9.0.4")); res.Verdict == model.Unverified {
		t.Fatalf("without a branch gateway: %v gaps %+v", res.Verdict, res.Gaps)
	}
}

// A private endpoint's and a DNS private resolver inbound endpoint's
// address outside the closure go through the same remote hub lookup.
func TestRemoteAddressNeedsItsHub(t *testing.T) {
	for _, what := range []string{model.RemotePrivateEndpoint, model.RemoteResolverInbound} {
		t.Run(what, func(t *testing.T) {
			f := newVWAN()
			vnetID := model.ResourceID(testSub + "/resourceGroups/rg-remote/providers/Microsoft.Network/virtualNetworks/vnet-remote")
			a := ip("10.3.1.5")
			if !f.b.net.MarkRemoteAddress(a, vnetID, what) {
				t.Fatal("a hub spoke's destination outside the closure must be marked")
			}
			res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, a)
			if res.Verdict == model.Unreachable || len(res.Needs) != 1 || res.Needs[0] != model.RemoteHubOf(vnetID, a) {
				t.Fatalf("pending: %v needs %+v findings %+v", res.Verdict, res.Needs, res.Findings)
			}
			if len(res.Gaps) == 0 || !strings.Contains(res.Gaps[0].Detail, what+" "+a.String()) {
				t.Fatalf("the gap must say what the address is: %+v", res.Gaps)
			}
			// Read and failed: a gap naming the VNet, never a blackhole.
			f.b.net.Pending.Done(model.RemoteHubOf(vnetID, a))
			f.b.net.Gaps.Add(model.Gap{ResourceID: vnetID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"})
			res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, a)
			if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(vnetID) {
				t.Fatalf("failed read: %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
			}
			// Not an address outside the closure: no gap.
			if res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.9.0.4")); res.Verdict == model.Unverified {
				t.Fatalf("another address: %v gaps %+v", res.Verdict, res.Gaps)
			}
		})
	}
}

func TestUnresolvedEndpointLeavesDropUnverified(t *testing.T) {
	f := newVWAN()
	peID := rid("rg-hub", "privateEndpoints", "pe-acr")
	f.b.net.Gaps.Add(model.Gap{ResourceID: peID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/privateEndpoints/read"})
	if res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.9.0.4")); res.Verdict != model.Unreachable {
		t.Fatalf("no unresolved endpoint: %v gaps %+v", res.Verdict, res.Gaps)
	}
	f.b.net.UnresolvedEndpoints = []model.ResourceID{peID}
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.9.0.4"))
	if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(peID) {
		t.Fatalf("a drop an unread endpoint may explain: %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
	}
	// A destination the hub routes is decided all the same.
	if res := e.Trace(f.aks.ID, ip("10.2.1.4")); res.Verdict != model.Reachable {
		t.Fatalf("routed destination: %v gaps %+v", res.Verdict, res.Gaps)
	}
}

// TestInterHubUnknownVirtualWAN: where either hub names no Virtual WAN
// (a snapshot written by hand), whether hub-weu routes to hub-neu's spoke
// is unknown: the trace is unverified with a gap on the hub that lacks it,
// never a drop; a destination in hub-weu's own spoke is unaffected, and
// hubs of two different Virtual WANs stay apart (no gap, a drop).
func TestInterHubUnknownVirtualWAN(t *testing.T) {
	for _, which := range []string{"hub-weu", "hub-neu"} {
		f := newInterHub()
		missing := f.hub
		if which == "hub-neu" {
			missing = f.hub2
		}
		missing.VirtualWANID = ""
		e := NewEngine(f.b.net, Options{})
		res := e.Trace(f.aks.ID, ip("10.3.1.5"))
		if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(missing.ID) ||
			!strings.Contains(res.Gaps[0].Detail, "names no Virtual WAN") {
			t.Fatalf("%s without virtualWan: verdict %v gaps %+v findings %+v", which, res.Verdict, res.Gaps, res.Findings)
		}
		if near := e.Trace(f.aks.ID, ip("10.2.1.4")); near.Verdict != model.Reachable {
			t.Fatalf("%s without virtualWan, the same hub's spoke: %v gaps %+v", which, near.Verdict, near.Gaps)
		}
		// The other hub's route tables, unread, are named too.
		f.hub2.RouteTablesKnown = false
		res = NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
		named := false
		for _, g := range res.Gaps {
			named = named || g.ResourceID.Equal(model.ResourceID(hubNeuID+"/hubRouteTables"))
		}
		if res.Verdict != model.Unverified || !named {
			t.Fatalf("%s without virtualWan, hub-neu's route tables unread: verdict %v gaps %+v", which, res.Verdict, res.Gaps)
		}
	}
	f := newInterHub()
	f.hub2.VirtualWANID = testSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualWans/other"
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.3.1.5"))
	if res.Verdict != model.Unreachable || len(res.Gaps) != 0 {
		t.Fatalf("hubs of two known Virtual WANs: verdict %v gaps %+v", res.Verdict, res.Gaps)
	}
}

// indirectBehindHub2 makes vnet-remote (connected to hub-neu) an NVA VNet:
// appliance nva-remote (10.3.3.4, IP forwarding) in snet-nva, and
// vnet-indirect2 (10.5.0.0/16, private endpoint 10.5.1.5) peered with it
// only; conn-remote has static route to-indirect2 (10.5.0.0/16 to
// 10.3.3.4), propagated as Azure does by default ("Scenario: Route traffic
// through an NVA", an NVA spoke behind the other hub).
func indirectBehindHub2(f *interHub) *model.NIC {
	b := f.b
	nvaSub := b.subnet(f.remote, "snet-nva", "10.3.3.0/24")
	nva := b.nic("rg-remote", "nva-remote", nvaSub, true, "10.3.3.4")
	ind := b.vnet("rg-indirect2", "vnet-indirect2", "10.5.0.0/16")
	pes := b.subnet(ind, "snet-pe", "10.5.1.0/24")
	b.privateEndpoint("rg-indirect2", "pe-indirect2", pes, "10.5.1.5")
	b.peer(f.remote, ind, "remote-to-indirect2", "indirect2-to-remote")
	f.connRemote.StaticRoutes = []model.HubStaticRoute{{Name: "to-indirect2", Prefixes: []netip.Prefix{pfx("10.5.0.0/16")}, NextHopIP: ip("10.3.3.4")}}
	return nva
}

// TestInterHubStaticRouteToIndirectSpoke: an indirect spoke behind an
// appliance in a VNet connected to another hub is reached by following
// that hub's connection's static route to the appliance, as from the
// appliance VNet's own hub.
func TestInterHubStaticRouteToIndirectSpoke(t *testing.T) {
	for _, c := range []struct {
		name    string
		setup   func(f *interHub, nva *model.NIC)
		nat     SourceNAT
		verdict model.Verdict
		code    model.Code
	}{
		{name: "the appliance translates: reachable", nat: NATTranslated, verdict: model.Reachable},
		{name: "translation unknown: the private endpoint's replies are unverified", nat: NATAssumedNone, verdict: model.Unverified, code: model.ReturnRouteUnverified},
		{name: "the appliance does not forward: unreachable (negative)", nat: NATTranslated, verdict: model.Unreachable, code: model.RouteNVAForwardingDisabled,
			setup: func(_ *interHub, nva *model.NIC) { nva.IPForwarding = false }},
		{name: "the static route's next hop is outside its VNet: unverified (negative)", nat: NATTranslated, verdict: model.Unverified,
			setup: func(f *interHub, _ *model.NIC) { f.connRemote.StaticRoutes[0].NextHopIP = ip("10.9.9.9") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newInterHub()
			nva := indirectBehindHub2(f)
			if c.setup != nil {
				c.setup(f, nva)
			}
			e := NewEngine(f.b.net, Options{})
			if r, ok := hubRoute(t, e, f.aks, "10.5.1.5"); !ok || r.Prefix != pfx("10.5.0.0/16") {
				t.Fatalf("the nodes get no route for the other hub's static route: %+v", r)
			}
			res := e.ReturnWithNAT(e.Trace(f.aks.ID, ip("10.5.1.5")), natAll(c.nat))
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: path %v findings %+v gaps %+v", res.Verdict, c.verdict, res.Path(), res.Findings, res.Gaps)
			}
			if c.code != "" && !hasCode(res.Findings, c.code) {
				t.Errorf("missing %s in %+v", c.code, res.Findings)
			}
			if c.verdict == model.Reachable && (len(res.Appliances) != 1 || !res.Appliances[0].NICID.Equal(nva.ID)) {
				t.Errorf("appliances %+v, want nva-remote", res.Appliances)
			}
		})
	}
}

// TestIndirectSpokeHubUnreadIsNamed: the path to an indirect spoke (a VNet
// read outside the closure, connected to no hub, peered with an NVA VNet
// that is a hub spoke) whose NVA VNet's hub, or the NVA VNet itself, could
// not be read is unverified with that failed read as its gap, never a
// confident drop; once everything is read, no such gap.
func TestIndirectSpokeHubUnreadIsNamed(t *testing.T) {
	refused := func(id model.ResourceID) model.Gap {
		return model.Gap{ResourceID: id, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/read"}
	}
	for _, c := range []struct {
		name    string
		setup   func(f *interHub)
		gapOn   model.ResourceID
		verdict model.Verdict
	}{
		{name: "everything read: reachable, no gap (negative)", verdict: model.Reachable},
		{name: "the NVA VNet's hub refused: its gap", gapOn: hubNeuID, verdict: model.Unverified,
			setup: func(f *interHub) {
				// What gather keeps of a hub it could not read: a stub
				// with its VNet, no Virtual WAN, no connections.
				*f.hub2 = model.VirtualHub{ID: f.hub2.ID, Name: f.hub2.Name, HubVNetID: f.hub2.HubVNetID}
				delete(f.b.net.VNets, f.hubNet2.ID.Key())
				f.b.net.Gaps.Add(refused(hubNeuID))
			}},
		{name: "the NVA VNet refused: its gap", gapOn: testSub + "/resourceGroups/rg-remote/providers/Microsoft.Network/virtualNetworks/vnet-remote", verdict: model.Unverified,
			setup: func(f *interHub) {
				delete(f.b.net.VirtualHubs, f.hub2.ID.Key())
				delete(f.b.net.VNets, f.hubNet2.ID.Key())
				delete(f.b.net.VNets, f.remote.ID.Key())
				f.b.net.Gaps.Add(model.Gap{ResourceID: f.remote.ID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"})
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newInterHub()
			indirectBehindHub2(f)
			ind := model.ResourceID(testSub + "/resourceGroups/rg-indirect2/providers/Microsoft.Network/virtualNetworks/vnet-indirect2")
			f.b.net.RemoteAddresses = map[netip.Addr]model.RemoteAddress{ip("10.5.1.5"): {VNetID: ind, What: model.RemotePrivateEndpoint}}
			if c.setup != nil {
				c.setup(f)
			}
			e := NewEngine(f.b.net, Options{})
			res := e.ReturnWithNAT(e.Trace(f.aks.ID, ip("10.5.1.5")), natAll(NATTranslated))
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: path %v findings %+v gaps %+v", res.Verdict, c.verdict, res.Path(), res.Findings, res.Gaps)
			}
			named := false
			for _, g := range res.Gaps {
				named = named || (g.ResourceID.Equal(c.gapOn) && g.Kind == model.GapPermissionDenied)
			}
			if c.gapOn != "" && !named {
				t.Errorf("no gap names %s: %+v", c.gapOn.Name(), res.Gaps)
			}
			if c.gapOn == "" && len(res.Gaps) > 0 {
				t.Errorf("gaps %+v, want none", res.Gaps)
			}
			if hasCode(res.Findings, model.RouteBlackhole) {
				t.Errorf("a confident drop: %+v", res.Findings)
			}
		})
	}
}

// TestGapForUnread: a resource absent from the facts with no failed read
// of its own or of what holds it is marked not read (its finding asks for
// no permission); a recorded failure is returned as recorded.
func TestGapForUnread(t *testing.T) {
	vnet := model.ResourceID(testSub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v")
	sub := vnet + "/subnets/s"
	for _, c := range []struct {
		name    string
		gaps    []model.Gap
		id      model.ResourceID
		kind    model.GapKind
		notRead bool
		want    model.GapKind
	}{
		{name: "nothing failed: not read", id: sub, kind: model.GapNotFound, notRead: true, want: model.GapNotFound},
		{name: "its own read refused (negative)", gaps: []model.Gap{{ResourceID: sub, Kind: model.GapPermissionDenied}}, id: sub, kind: model.GapNotFound, want: model.GapPermissionDenied},
		{name: "its VNet's read refused (negative)", gaps: []model.Gap{{ResourceID: vnet, Kind: model.GapPermissionDenied}}, id: sub, kind: model.GapNotFound, want: model.GapNotFound},
		{name: "another kind asked (negative)", id: sub, kind: model.GapUnavailable, want: model.GapUnavailable},
	} {
		t.Run(c.name, func(t *testing.T) {
			net := model.NewNetwork()
			for _, g := range c.gaps {
				net.Gaps.Add(g)
			}
			g := gapFor(net, c.id, c.kind, "d")
			if g.Kind != c.want || g.NotRead != c.notRead {
				t.Errorf("gap %+v, want kind %s not read %v", g, c.want, c.notRead)
			}
		})
	}
}

// TestNodesInNVASpoke: the nodes' VNet is connected to no hub, peered
// only with an NVA VNet (vnet-shared) that is connected to hub-weu, and
// the node subnet's only route is 0.0.0.0/0 to the appliance there
// ("Scenario: Route traffic through an NVA": NVA spokes reach the other
// spokes by their 0/0 UDR). The appliance's subnet routes by what the NVA
// VNet's hub programs: while that hub is pending the path needs it and is
// unverified, never dropped; once read, the private endpoint in another
// spoke of the hub is reached through the appliance.
func TestNodesInNVASpoke(t *testing.T) {
	for _, c := range []struct {
		name    string
		setup   func(f *vwanFixture, nva *model.NIC)
		nat     SourceNAT
		verdict model.Verdict
		code    model.Code
		need    bool
	}{
		{name: "hub read, the appliance translates: reachable", nat: NATTranslated, verdict: model.Reachable},
		{name: "hub read, translation unknown: the endpoint's replies are unverified", nat: NATAssumedNone, verdict: model.Unverified, code: model.ReturnRouteUnverified},
		{name: "the appliance does not forward: unreachable (negative)", nat: NATTranslated, verdict: model.Unreachable, code: model.RouteNVAForwardingDisabled,
			setup: func(_ *vwanFixture, nva *model.NIC) { nva.IPForwarding = false }},
		{name: "the NVA VNet's hub pending: needed, unverified (negative)", nat: NATTranslated, verdict: model.Unverified, need: true,
			setup: func(f *vwanFixture, _ *model.NIC) {
				delete(f.b.net.VirtualHubs, f.hub.ID.Key())
				delete(f.b.net.VNets, f.hubNet.ID.Key())
				f.b.net.Pending.Add(model.PeerHubOf(f.shared.ID))
			}},
		{name: "the NVA VNet's hub neither read nor pending: unverified (negative)", nat: NATTranslated, verdict: model.Unverified,
			setup: func(f *vwanFixture, _ *model.NIC) {
				delete(f.b.net.VirtualHubs, f.hub.ID.Key())
				delete(f.b.net.VNets, f.hubNet.ID.Key())
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newVWAN()
			b := f.b
			nva := b.nic("rg-shared", "nic-nva", f.app, true, "10.2.1.4")
			nodes := b.vnet("rg-nodes", "vnet-nodes", "10.6.0.0/16")
			snet := b.subnet(nodes, "snet-nodes", "10.6.0.0/22")
			b.attach(snet, b.routeTable("rg-nodes", "rt-nodes", false, udr("default", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.2.1.4")))
			b.peer(nodes, f.shared, "nodes-to-shared", "shared-to-nodes")
			peSub := b.subnet(f.spoke, "snet-pe", "10.1.8.0/24")
			b.privateEndpoint("rg-spoke", "pe-acr", peSub, "10.1.8.5")
			f.connShared.StaticRoutes = []model.HubStaticRoute{{Name: "nva-spokes", Prefixes: []netip.Prefix{pfx("10.6.0.0/16")}, NextHopIP: ip("10.2.1.4")}}
			if c.setup != nil {
				c.setup(f, nva)
			}
			e := NewEngine(b.net, Options{})
			res := e.ReturnWithNAT(e.Trace(snet.ID, ip("10.1.8.5")), natAll(c.nat))
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: path %v findings %+v gaps %+v", res.Verdict, c.verdict, res.Path(), res.Findings, res.Gaps)
			}
			if c.code != "" && !hasCode(res.Findings, c.code) {
				t.Errorf("missing %s in %+v", c.code, res.Findings)
			}
			needed := false
			for _, ev := range res.Needs {
				needed = needed || ev.Key() == model.PeerHubOf(f.shared.ID).Key()
			}
			if needed != c.need {
				t.Errorf("needs the NVA VNet's hub: %v, want %v (%v)", needed, c.need, res.Needs)
			}
			if hasCode(res.Findings, model.RouteBlackhole) {
				t.Errorf("a confident drop: %+v", res.Findings)
			}
		})
	}
}
