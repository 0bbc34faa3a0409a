// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
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
	t.Run("an effective table that disagrees is COVERAGE_MODEL_DRIFT", func(t *testing.T) {
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		f.Pools[0].NICs[0].Effective = spokeEffective()[4:] // no VNet, peering or endpoint routes
		res := Run(f)
		requireCodes(t, res, model.CoverageModelDrift, model.CoverageRoutesComputed)
		d := findingsWith(res, model.CoverageModelDrift)[0]
		if d.NodePool != "system" || d.Endpoint == "" {
			t.Errorf("drift %+v", d)
		}
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
