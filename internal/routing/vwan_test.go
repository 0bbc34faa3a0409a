package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// vwanFixture: vnet-spoke (10.1.0.0/16, snet-aks) and vnet-shared
// (10.2.0.0/16, snet-app) connected to virtual hub hub-weu (10.100.0.0/23,
// router 10.100.0.68), both associated with defaultRouteTable and, unless a
// test changes it, propagating to it; the hub's VNet stands in as gather
// builds it (model/vwan.go).
type vwanFixture struct {
	b                     *builder
	spoke, shared, hubNet *model.VNet
	aks, app              *model.Subnet
	hub                   *model.VirtualHub
	connSpoke, connShared *model.HubConnection
	def, none             *model.HubRouteTable
}

const hubID = testSub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu"

func newVWAN() *vwanFixture {
	f := &vwanFixture{b: newBuilder()}
	b := f.b
	f.spoke = b.vnet("rg-spoke", "vnet-spoke", "10.1.0.0/16")
	f.aks = b.subnet(f.spoke, "snet-aks", "10.1.0.0/22")
	f.shared = b.vnet("rg-shared", "vnet-shared", "10.2.0.0/16")
	f.app = b.subnet(f.shared, "snet-app", "10.2.1.0/24")
	hv := model.ResourceID("/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-weu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-weu_1")
	f.hub = &model.VirtualHub{ID: hubID, Name: "hub-weu", AddressPrefix: pfx("10.100.0.0/23"), RouterIPs: []netip.Addr{ip("10.100.0.68")},
		HubVNetID: hv, ConnectionsKnown: true, RouteTablesKnown: true, IntentKnown: true}
	f.def = &model.HubRouteTable{ID: hubID + "/hubRouteTables/defaultRouteTable", Name: "defaultRouteTable", Labels: []string{"default"}}
	f.none = &model.HubRouteTable{ID: hubID + "/hubRouteTables/noneRouteTable", Name: "noneRouteTable", Labels: []string{"none"}}
	f.hub.RouteTables = []*model.HubRouteTable{f.def, f.none}
	conn := func(name string, v *model.VNet) *model.HubConnection {
		return &model.HubConnection{ID: model.ResourceID(hubID + "/hubVirtualNetworkConnections/" + name), Name: name, RemoteVNetID: v.ID,
			AssociatedRouteTable: f.def.ID, PropagatedRouteTables: []model.ResourceID{f.def.ID}, PropagatedLabels: []string{"default"}}
	}
	f.connSpoke, f.connShared = conn("conn-spoke", f.spoke), conn("conn-shared", f.shared)
	f.hub.Connections = []*model.HubConnection{f.connSpoke, f.connShared}
	b.net.VirtualHubs[f.hub.ID.Key()] = f.hub
	f.hubNet = &model.VNet{ID: hv, Name: hv.Name(), Location: "westeurope", AddressSpace: []netip.Prefix{f.hub.AddressPrefix}}
	f.hubNet.Subnets = []*model.Subnet{{ID: model.HubFirewallSubnet(hv), VNetID: hv, Name: "AzureFirewallSubnet", Prefixes: []netip.Prefix{f.hub.AddressPrefix}}}
	b.net.AddVNet(f.hubNet)
	for _, pair := range []struct {
		v *model.VNet
		c *model.HubConnection
	}{{f.spoke, f.connSpoke}, {f.shared, f.connShared}} {
		toHub := b.side(pair.v, f.hubNet, "RemoteVnetToHubPeering_"+pair.v.Name)
		toHub.AllowForwardedTraffic, toHub.VirtualHubID = false, f.hub.ID
		back := b.side(f.hubNet, pair.v, pair.c.Name)
		back.ID, back.VirtualHubID = pair.c.ID, f.hub.ID
	}
	return f
}

func (f *vwanFixture) withFirewall() netip.Addr {
	fw := &model.AzureFirewall{ID: rid("rg-vwan", "azureFirewalls", "fw-hub-weu"), Name: "fw-hub-weu", PrivateIPs: []netip.Addr{ip("10.100.0.132")}, VirtualHubID: f.hub.ID}
	f.b.net.AddFirewall(fw)
	f.hub.FirewallID = fw.ID
	return fw.PrivateIPs[0]
}

func hubRoute(t *testing.T, e *Engine, s *model.Subnet, dst string) (model.Route, bool) {
	t.Helper()
	c, err := e.EffectiveRoutes(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := c.Select(ip(dst))
	return r, ok && r.OriginID.Equal(hubID)
}

func hasCode(fs []Finding, code model.Code) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// hasGap reports whether a gap on id says text.
func hasGap(gaps []model.Gap, id model.ResourceID, text string) bool {
	for _, g := range gaps {
		if g.ResourceID.Equal(id) && strings.Contains(g.Detail, text) {
			return true
		}
	}
	return false
}

func TestHubRoutesPropagatedConnection(t *testing.T) {
	f := newVWAN()
	e := NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "10.2.1.4")
	if !ok || r.Prefix != pfx("10.2.0.0/16") || r.NextHopType != model.NextHopVirtualNetworkGateway || r.NextHopIP != ip("10.100.0.68") {
		t.Fatalf("route to the shared spoke = %+v (from hub %v), want 10.2.0.0/16 VirtualNetworkGateway 10.100.0.68", r, ok)
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Reachable || res.Arrival.Kind != ArrivalSubnet || !res.Arrival.SubnetID.Equal(f.app.ID) {
		t.Fatalf("trace = %v arrival %+v findings %+v gaps %+v", res.Verdict, res.Arrival, res.Findings, res.Gaps)
	}
}

func TestHubRoutesByLabelOnly(t *testing.T) {
	f := newVWAN()
	f.connShared.PropagatedRouteTables = nil // label "default" only
	e := NewEngine(f.b.net, Options{})
	if _, ok := hubRoute(t, e, f.aks, "10.2.1.4"); !ok {
		t.Fatal("a connection propagating by the label of the associated table gives no route")
	}
}

func TestHubRoutesNeverOwnPrefix(t *testing.T) {
	f := newVWAN()
	e := NewEngine(f.b.net, Options{})
	c, err := e.EffectiveRoutes(f.aks.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Routes() {
		if r.OriginID.Equal(hubID) && r.Prefix.Overlaps(pfx("10.1.0.0/16")) {
			t.Fatalf("the hub gives the spoke its own prefix: %+v", r)
		}
	}
}

func TestHubNotPropagated(t *testing.T) {
	f := newVWAN()
	f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
	e := NewEngine(f.b.net, Options{})
	if _, ok := hubRoute(t, e, f.aks, "10.2.1.4"); ok {
		t.Fatal("a connection propagating only to noneRouteTable still gives a route")
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.RouteHubNotPropagated) || hasCode(res.Findings, model.RouteBlackhole) {
		t.Fatalf("trace = %v findings %+v", res.Verdict, res.Findings)
	}
	msg := res.Findings[0].Message + res.Findings[0].Remediation
	for _, want := range []string{"conn-shared", "defaultRouteTable", "conn-spoke"} {
		if !strings.Contains(msg, want) {
			t.Errorf("finding does not name %s: %s", want, msg)
		}
	}
	// Not a hub matter: an address in no connected VNet stays a blackhole.
	other := e.Trace(f.aks.ID, ip("10.9.0.4"))
	if hasCode(other.Findings, model.RouteHubNotPropagated) {
		t.Fatalf("10.9.0.4 is in no connected VNet: %+v", other.Findings)
	}
}

func TestHubReturnRouteNeedsPropagationBack(t *testing.T) {
	f := newVWAN()
	// The spoke reaches the shared VNet, but the shared VNet's table has
	// no route back: the spoke propagates only to noneRouteTable, by id
	// and by its label (a label named, so not to "default").
	f.connSpoke.PropagatedRouteTables, f.connSpoke.PropagatedLabels = []model.ResourceID{f.none.ID}, []string{"none"}
	res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unreachable || !hasCode(res.Findings, model.ReturnRouteMissing) {
		t.Fatalf("trace = %v findings %+v", res.Verdict, res.Findings)
	}
}

// TestHubPropagationUndocumented: a connection that lists route tables
// but no label, where the other side's table would hold its prefixes only
// by the label "default" (undocumented, model.PropagationUndocumented):
// the path is unverified with a gap naming the connection, never a
// confident drop (ROUTE_HUB_NOT_PROPAGATED, RETURN_ROUTE_MISSING) nor
// reachable; on the forward path and on the return path, within one hub.
func TestHubPropagationUndocumented(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*vwanFixture)
		conn func(*vwanFixture) *model.HubConnection
	}{
		{"forward: the destination's connection lists noneRouteTable only", func(f *vwanFixture) {
			f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{f.none.ID}, nil
		}, func(f *vwanFixture) *model.HubConnection { return f.connShared }},
		{"forward: the destination's connection lists a custom table only", func(f *vwanFixture) {
			rt := &model.HubRouteTable{ID: hubID + "/hubRouteTables/RT_SHARED", Name: "RT_SHARED", Labels: []string{"shared"}}
			f.hub.RouteTables = append(f.hub.RouteTables, rt)
			f.connShared.PropagatedRouteTables, f.connShared.PropagatedLabels = []model.ResourceID{rt.ID}, nil
		}, func(f *vwanFixture) *model.HubConnection { return f.connShared }},
		{"return: the nodes' connection lists noneRouteTable only", func(f *vwanFixture) {
			f.connSpoke.PropagatedRouteTables, f.connSpoke.PropagatedLabels = []model.ResourceID{f.none.ID}, nil
		}, func(f *vwanFixture) *model.HubConnection { return f.connSpoke }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newVWAN()
			tc.set(f)
			res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
			if res.Verdict != model.Unverified || len(res.Findings) != 0 {
				t.Fatalf("verdict %v findings %+v gaps %+v", res.Verdict, res.Findings, res.Gaps)
			}
			conn := tc.conn(f)
			found := false
			for _, g := range res.Gaps {
				if g.ResourceID.Equal(conn.ID) && g.Kind == model.GapUnavailable &&
					strings.Contains(g.Detail, "names no label") && strings.Contains(g.Detail, "not documented") && strings.Contains(g.Remediation, "labels") {
					found = true
				}
			}
			if !found {
				t.Fatalf("no gap naming %s as undocumented: %+v", conn.Name, res.Gaps)
			}
			// Scoped: an address in no connected VNet is not made unverified
			// by it.
			other := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.9.0.4"))
			for _, g := range other.Gaps {
				if g.ResourceID.Equal(conn.ID) {
					t.Fatalf("the gap reaches 10.9.0.4: %+v", g)
				}
			}
		})
	}
}

func TestHubDefaultRouteNeedsInternetSecurity(t *testing.T) {
	for _, secure := range []bool{true, false} {
		f := newVWAN()
		fwIP := f.withFirewall()
		f.def.Routes = []model.HubRoute{{Name: "default-to-fw", Destinations: []netip.Prefix{pfx("0.0.0.0/0")}, NextHop: f.hub.FirewallID}}
		f.connSpoke.EnableInternetSecurity = secure
		r, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "20.1.2.3")
		if ok != secure || (ok && r.NextHopIP != fwIP) {
			t.Errorf("enableInternetSecurity %v: hub route for 20.1.2.3 = %+v (from hub %v)", secure, r, ok)
		}
	}
}

func TestHubRoutesSuppressedByBGPPropagation(t *testing.T) {
	f := newVWAN()
	rt := f.b.routeTable("rg-spoke", "rt-aks", true)
	f.b.attach(f.aks, rt)
	e := NewEngine(f.b.net, Options{})
	if _, ok := hubRoute(t, e, f.aks, "10.2.1.4"); ok {
		t.Fatal("disableBgpRoutePropagation keeps hub routes in the subnet")
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if !hasCode(res.Findings, model.RouteBGPPropagationDisabled) {
		t.Fatalf("findings %+v", res.Findings)
	}
}

func TestHubRoutingIntentThroughFirewall(t *testing.T) {
	f := newVWAN()
	fwIP := f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), PrivateNextHop: f.hub.FirewallID, InternetNextHop: f.hub.FirewallID}
	e := NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "10.2.1.4")
	if !ok || r.Prefix != pfx("10.0.0.0/8") || r.NextHopIP != fwIP {
		t.Fatalf("private traffic route = %+v (from hub %v), want 10.0.0.0/8 to the firewall", r, ok)
	}
	if _, ok := hubRoute(t, e, f.aks, "20.1.2.3"); ok {
		t.Fatal("the Internet policy reaches a connection without enableInternetSecurity")
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if len(res.Appliances) != 1 || res.Appliances[0].IP != fwIP || res.Arrival.Kind != ArrivalSubnet {
		t.Fatalf("trace crosses %+v, arrives %+v, findings %+v gaps %+v", res.Appliances, res.Arrival, res.Findings, res.Gaps)
	}
	f.connSpoke.EnableInternetSecurity = true
	if r, ok := hubRoute(t, NewEngine(f.b.net, Options{}), f.aks, "20.1.2.3"); !ok || r.NextHopIP != fwIP {
		t.Fatalf("Internet policy with enableInternetSecurity: %+v %v", r, ok)
	}
}

func TestHubUnreadGapOnlyWhereTheHubRoutes(t *testing.T) {
	f := newVWAN()
	delete(f.b.net.VirtualHubs, f.hub.ID.Key())
	delete(f.b.net.VNets, f.hubNet.ID.Key())
	f.b.net.Gaps.Add(model.Gap{ResourceID: f.hub.ID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/read"})
	f.b.net.VirtualHubs[f.hub.ID.Key()] = &model.VirtualHub{ID: f.hub.ID, Name: "hub-weu", HubVNetID: f.hubNet.ID}
	e := NewEngine(f.b.net, Options{})
	far := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if far.Verdict != model.Unverified || len(far.Gaps) == 0 || !far.Gaps[0].ResourceID.Equal(f.hub.ID) {
		t.Fatalf("a destination the hub could route: %v gaps %+v", far.Verdict, far.Gaps)
	}
	near := e.Trace(f.aks.ID, ip("10.1.1.4"))
	if near.Verdict != model.Reachable || len(near.Gaps) > 0 {
		t.Fatalf("a destination in the nodes' own VNet: %v gaps %+v", near.Verdict, near.Gaps)
	}
}

// TestHubRoutingPolicyWithoutNextHop: a routing policy that names no next
// hop leaves where the hub sends traffic unknown: a path through the hub
// is unverified with a gap on the routing intent that says so, never
// reachable directly; a path inside the nodes' own VNet is unaffected.
func TestHubRoutingPolicyWithoutNextHop(t *testing.T) {
	f := newVWAN()
	f.withFirewall()
	f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), NoNextHop: []string{"PrivateTraffic"}}
	e := NewEngine(f.b.net, Options{})
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(f.hub.Intent.ID) ||
		!strings.Contains(res.Gaps[0].Detail, "names no next hop") {
		t.Fatalf("through the hub: verdict %v gaps %+v", res.Verdict, res.Gaps)
	}
	if local := e.Trace(f.aks.ID, ip("10.1.1.4")); local.Verdict != model.Reachable {
		t.Fatalf("inside the VNet: %v gaps %+v", local.Verdict, local.Gaps)
	}
}

// TestHubUnreadPeeringWithoutState: a peering to a hub's VNet that records
// no peeringState (a snapshot written by hand; gather completes it only
// once the hub is read) leaves a path through an unread hub unverified,
// never dropped; a recorded Disconnected peering carries no hub route and
// no gap.
func TestHubUnreadPeeringWithoutState(t *testing.T) {
	for _, state := range []string{"", "Disconnected"} {
		f := newVWAN()
		delete(f.b.net.VirtualHubs, f.hub.ID.Key())
		delete(f.b.net.VNets, f.hubNet.ID.Key())
		f.b.net.Gaps.Add(model.Gap{ResourceID: f.hub.ID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualHubs/read"})
		f.b.net.VirtualHubs[f.hub.ID.Key()] = &model.VirtualHub{ID: f.hub.ID, Name: "hub-weu", HubVNetID: f.hubNet.ID}
		f.spoke.PeeringTo(f.hubNet.ID).State = state
		res := NewEngine(f.b.net, Options{}).Trace(f.aks.ID, ip("10.2.1.4"))
		if state == "" && (res.Verdict != model.Unverified || len(res.Gaps) == 0) {
			t.Fatalf("no peeringState: %v gaps %+v findings %+v", res.Verdict, res.Gaps, res.Findings)
		}
		if state != "" && (res.Verdict != model.Unreachable || len(res.Gaps) != 0) {
			t.Fatalf("Disconnected: %v gaps %+v", res.Verdict, res.Gaps)
		}
	}
}

// TestHubDefaultRouteUnrecordedInternetSecurity: Azure documents no
// default for enableInternetSecurity, so where a connection records none,
// a public destination the hub's 0.0.0.0/0 (routing intent to the
// firewall) might carry is unverified with a gap naming the connection,
// never sent straight to the Internet; a destination a longer route
// decides (the other spoke) is unaffected, and a recorded false sends the
// public destination to the Internet.
func TestHubDefaultRouteUnrecordedInternetSecurity(t *testing.T) {
	for _, unrecorded := range []bool{true, false} {
		f := newVWAN()
		f.withFirewall()
		f.hub.Intent = &model.RoutingIntent{ID: model.ResourceID(hubID + "/routingIntent/ri"), InternetNextHop: f.hub.FirewallID}
		f.connSpoke.InternetSecurityUnrecorded = unrecorded
		e := NewEngine(f.b.net, Options{})
		res := e.Trace(f.aks.ID, ip("20.50.2.10"))
		if unrecorded {
			if res.Verdict != model.Unverified || len(res.Gaps) == 0 || !res.Gaps[0].ResourceID.Equal(f.connSpoke.ID) ||
				!strings.Contains(res.Gaps[0].Detail, "records no enableInternetSecurity") {
				t.Fatalf("unrecorded: verdict %v gaps %+v", res.Verdict, res.Gaps)
			}
		} else if res.Verdict != model.Reachable || len(res.Gaps) != 0 {
			t.Fatalf("recorded false: verdict %v gaps %+v", res.Verdict, res.Gaps)
		}
		if other := e.Trace(f.aks.ID, ip("10.2.1.4")); other.Verdict != model.Reachable || len(other.Gaps) != 0 {
			t.Fatalf("unrecorded %v, the other spoke: %v gaps %+v", unrecorded, other.Verdict, other.Gaps)
		}
	}
}
