// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

func effectiveRoute(prefix, hop string) model.Route {
	return model.Route{Prefix: pfx(prefix), NextHopType: hop, Source: model.RouteSourceDefault, State: model.RouteStateActive}
}

// spokeEffective is the effective route table Azure shows for a node NIC
// of the baseline spoke.
func spokeEffective() []model.Route {
	return []model.Route{
		effectiveRoute("10.1.0.0/16", model.NextHopVnetLocal),
		effectiveRoute("10.0.0.0/16", model.NextHopVNetPeering),
		effectiveRoute("10.0.2.5/32", model.NextHopInterfaceEndpoint),
		effectiveRoute("10.0.2.6/32", model.NextHopInterfaceEndpoint),
		effectiveRoute("0.0.0.0/0", model.NextHopInternet),
		effectiveRoute("10.0.0.0/8", model.NextHopNone),
		effectiveRoute("172.16.0.0/12", model.NextHopNone),
		effectiveRoute("192.168.0.0/16", model.NextHopNone),
		effectiveRoute("100.64.0.0/10", model.NextHopNone),
	}
}

func TestRoutingTracerRouteSource(t *testing.T) {
	t.Run("an effective table that agrees makes the source effective", func(t *testing.T) {
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		f.Pools[0].NICs[0].Effective = spokeEffective()
		res := Run(f)
		forbidCodes(t, res, model.CoverageModelDrift, model.CoverageRoutesComputed)
		if p := pathOf(t, res, "system", loginHost); p.RouteSource != RouteSourceEffective {
			t.Errorf("route source %s", p.RouteSource)
		}
	})
	t.Run("the network's copy of a pool NIC carries the effective table", func(t *testing.T) {
		// The pool holds the NICs as the cluster was read; the effective
		// route table is on the network's copy.
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		withTable := *f.Pools[0].NICs[0]
		withTable.Effective = spokeEffective()[4:]
		f.Network.NICs[withTable.ID.Key()] = &withTable
		res := Run(f)
		requireCodes(t, res, model.RouteBlackhole, model.CoverageModelDrift)
		if p := pathOf(t, res, "system", loginHost); p.RouteSource != RouteSourceEffective {
			t.Errorf("route source %s", p.RouteSource)
		}
	})
	t.Run("an effective table that drops is followed: unreachable, with COVERAGE_MODEL_DRIFT", func(t *testing.T) {
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		f.Pools[0].NICs[0].Effective = spokeEffective()[4:] // no VNet, peering or endpoint routes
		res := Run(f)
		if res.Verdict != model.Unreachable {
			t.Errorf("verdict %s: a path the real table drops is unreachable although the configuration routes it", res.Verdict)
		}
		requireCodes(t, res, model.RouteBlackhole, model.CoverageModelDrift)
		forbidCodes(t, res, model.CoverageRoutesComputed)
		d := findingsWith(res, model.CoverageModelDrift)[0]
		if d.NodePool != "system" || d.Endpoint == "" || d.Remediation == "" {
			t.Errorf("drift %+v", d)
		}
		b := findingsWith(res, model.RouteBlackhole)[0]
		requireContains(t, b.Message, "effective routes of network interface aks-system-12345678-vmss", "route 10.0.0.0/8 None", "would select route 10.0.2.5/32 InterfaceEndpoint")
		if p := pathOf(t, res, "system", loginHost); p.RouteSource != RouteSourceEffective {
			t.Errorf("route source %s", p.RouteSource)
		}
	})
	t.Run("a real route the configuration lacks is followed", func(t *testing.T) {
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		withNVA(f)
		// The UDR is in the route table, but Azure still programs the old
		// routes: the real table sends the endpoint straight to it.
		f.Pools[0].NICs[0].Effective = spokeEffective()
		res := Run(f)
		if res.Verdict != model.Reachable {
			t.Errorf("verdict %s", res.Verdict)
		}
		requireCodes(t, res, model.CoverageModelDrift)
		forbidCodes(t, res, model.ReturnRouteUnverified, model.CoverageRoutesComputed)
		p := pathOf(t, res, "system", loginHost)
		requireContains(t, strings.Join(p.Hops, " "), "route 10.0.2.5/32 InterfaceEndpoint (private endpoint pe-acr, in the effective routes of aks-system-12345678-vmss)")

		// The other way round: the configuration goes direct, Azure
		// programs the appliance route; the path crosses the appliance.
		g := baselineFacts()
		g.Pools = g.Pools[:1]
		withNVA(g)
		g.Network.Subnet(aksSubnetID).RouteTableID = ""
		nva := model.Route{Prefix: pfx("10.0.0.0/16"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4"), Source: model.RouteSourceUser, State: model.RouteStateActive}
		effective := append([]model.Route{spokeEffective()[0], nva}, spokeEffective()[4:]...)
		g.Pools[0].NICs[0].Effective = effective
		res = Run(g)
		requireCodes(t, res, model.CoverageModelDrift, model.ReturnRouteUnverified)
		p = pathOf(t, res, "system", loginHost)
		requireContains(t, strings.Join(p.Hops, " "), "route 10.0.0.0/16 VirtualAppliance 10.0.1.4 (effective route of aks-system-12345678-vmss)", "appliance nic-vm-nva 10.0.1.4")
	})
}

// A public destination is traced as an arbitrary Internet address; the
// stand-in address never shows.
func TestRoutingTracerPublic(t *testing.T) {
	f := baselineFacts()
	rt := f.Network.Subnet(aksSubnetID)
	rt.RouteTableID = rtAKSID
	f.Network.RouteTables[rtAKSID.Key()] = &model.RouteTable{ID: rtAKSID, Name: "rt-aks", Routes: []model.Route{
		{Name: "no-internet", Prefix: pfx("0.0.0.0/0"), NextHopType: model.NextHopNone, Source: model.RouteSourceUser, State: model.RouteStateActive, OriginID: rtAKSID},
	}}
	tr := NewRoutingTracer(routing.Options{})
	out := tr.Trace(f.Network, RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Public: true, Protocol: "Tcp", Port: 443})
	if len(out.Findings) == 0 || out.Findings[0].Code != model.RouteBlackhole {
		t.Fatalf("findings %+v", out.Findings)
	}
	all := strings.Join(out.Hops, " ") + out.Findings[0].Message
	if strings.Contains(all, publicStandIn.String()) {
		t.Errorf("stand-in address shown: %s", all)
	}
	requireContains(t, all, "the registry's public address")

	publicRegistry(&f)
	requireCodes(t, Run(f), model.RouteBlackhole)
}

// Where a flow to a public address leaves: the route engine's answer
// carries the exit (Internet from the node subnet, through an appliance,
// or to a gateway), which egress evaluation starts from.
func TestRoutingTracerExit(t *testing.T) {
	route := func(name, prefix, hop, ip string) model.Route {
		r := model.Route{Name: name, Prefix: pfx(prefix), NextHopType: hop, Source: model.RouteSourceUser, State: model.RouteStateActive, OriginID: rtAKSID}
		if ip != "" {
			r.NextHopIP = netip.MustParseAddr(ip)
		}
		return r
	}
	q := func(f model.Facts) RouteQuery {
		return RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Public: true, Host: loginHost, DestTags: []string{"AzureContainerRegistry.westeurope"}, Protocol: "Tcp", Port: 443}
	}
	t.Run("the default route: Internet from the node subnet", func(t *testing.T) {
		f := baselineFacts()
		out := NewRoutingTracer(routing.Options{}).Trace(f.Network, q(f))
		e := out.Exit
		if e.Kind != ExitInternet || !e.SubnetID.Equal(aksSubnetID) || len(e.Appliances) != 0 {
			t.Fatalf("exit %+v", e)
		}
		requireContains(t, e.FirstRoute, "Azure's default route: 0.0.0.0/0 → Internet")
	})
	t.Run("a UDR to an appliance: the appliance, then Internet from its subnet", func(t *testing.T) {
		f := baselineFacts()
		nic := &model.NIC{ID: nvaNICID, Name: "nic-vm-nva", SubnetID: nvaSubnetID, PrivateIPs: ips("10.0.1.4"), IPForwarding: true}
		f.Network.NICs[nic.ID.Key()] = nic
		f.Network.Subnet(aksSubnetID).RouteTableID = rtAKSID
		f.Network.RouteTables[rtAKSID.Key()] = &model.RouteTable{ID: rtAKSID, Name: "rt-aks", Routes: []model.Route{route("default-to-nva", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")}}
		out := NewRoutingTracer(routing.Options{}).Trace(f.Network, q(f))
		e := out.Exit
		if e.Kind != ExitInternet || !e.SubnetID.Equal(nvaSubnetID) || len(e.Appliances) != 1 || e.Appliances[0].IP != ip("10.0.1.4") || !e.Appliances[0].NICID.Equal(nvaNICID) {
			t.Fatalf("exit %+v", e)
		}
		requireContains(t, e.FirstRoute, "route table rt-aks route default-to-nva: 0.0.0.0/0 → VirtualAppliance 10.0.1.4")
		if all := strings.Join(out.Hops, " | "); strings.Contains(all, publicStandIn.String()) {
			t.Errorf("stand-in address shown: %s", all)
		}
	})
	t.Run("a dropped flow has no exit", func(t *testing.T) {
		f := baselineFacts()
		f.Network.Subnet(aksSubnetID).RouteTableID = rtAKSID
		f.Network.RouteTables[rtAKSID.Key()] = &model.RouteTable{ID: rtAKSID, Name: "rt-aks", Routes: []model.Route{route("no-internet", "0.0.0.0/0", model.NextHopNone, "")}}
		out := NewRoutingTracer(routing.Options{}).Trace(f.Network, q(f))
		if out.Exit.Kind != ExitNone {
			t.Fatalf("exit %+v", out.Exit)
		}
		if len(out.Findings) == 0 {
			t.Fatal("no finding for the drop")
		}
		requireContains(t, out.Findings[0].Message, "the public address of "+loginHost)
	})
	t.Run("a BGP default route from on-premises: the gateway (forced tunnelling)", func(t *testing.T) {
		f := baselineFacts()
		gw := &model.Gateway{ID: gatewayID, Name: "vpngw", VNetID: hubID, Type: "Vpn", BGPEnabled: true, PrivateIPs: ips("10.0.0.30"),
			Learned: []model.GatewayRoute{{Prefix: pfx("0.0.0.0/0"), NextHop: ip("192.168.255.1"), SourcePeer: ip("192.168.255.1"), Origin: "EBgp"}}, LearnedKnown: true,
			Advertised: map[netip.Addr][]model.GatewayRoute{ip("192.168.255.1"): {{Prefix: pfx("10.0.0.0/16")}, {Prefix: pfx("10.1.0.0/16")}}}, AdvertisedKnown: true, StaticPrefixesKnown: true}
		f.Network.Gateways[gw.ID.Key()] = gw
		hubToSpoke := f.Network.VNet(hubID).Peerings[0]
		hubToSpoke.AllowGatewayTransit = true
		f.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
		e := NewRoutingTracer(routing.Options{}).Trace(f.Network, q(f)).Exit
		if e.Kind != ExitOnPremises || !e.GatewayID.Equal(gatewayID) {
			t.Fatalf("exit %+v", e)
		}
	})
}
