// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package routing

import (
	"net/netip"
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Evidence gather reads only for paths that reach it (Network.Pending): a
// path that reaches it records the need and is unverified, never
// reachable; a path that does not reach it neither needs it nor changes.
func TestPendingEvidence(t *testing.T) {
	advertised := func(h *hubSpoke) model.Evidence { return model.AdvertisedRoutesOf(h.gw.ID) }
	appliance := func(h *hubSpoke) model.Evidence { return model.ApplianceNICAt(h.hub.ID, ip("10.0.1.4")) }
	// pendAdvertised: the gateway's advertised routes are not read yet.
	pendAdvertised := func(h *hubSpoke) {
		h.net.Pending.Add(advertised(h))
		h.gw.Advertised, h.gw.AdvertisedKnown = map[netip.Addr][]model.GatewayRoute{}, false
	}
	// pendAppliance: the NVA's NIC is not read yet.
	pendAppliance := func(h *hubSpoke) {
		h.net.Pending.Add(appliance(h))
		delete(h.net.NICs, h.nva.ID.Key())
	}
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		dst     string
		verdict model.Verdict
		needs   func(h *hubSpoke) []model.Evidence
	}{
		{name: "replies from on premises through the gateway need its advertised routes", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.useTransit(); pendAdvertised(h) },
			needs: func(h *hubSpoke) []model.Evidence { return []model.Evidence{advertised(h)} }},
		{name: "a path to the private endpoint does not (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { h.useTransit(); pendAdvertised(h) }},
		{name: "on premises without transit is dropped before the gateway (negative)", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: pendAdvertised},
		{name: "a static-only destination cannot use them (negative)", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				pendAdvertised(h)
				h.gw.BGPEnabled, h.gw.Learned = false, h.gw.Learned[:1]
				h.gw.StaticPrefixes = []netip.Prefix{pfx("192.168.0.0/16")}
			}},
		{name: "a path through the appliance needs its NIC", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("pe-via-nva", "10.0.2.5/32", model.NextHopVirtualAppliance, "10.0.1.4")))
				pendAppliance(h)
			},
			needs: func(h *hubSpoke) []model.Evidence { return []model.Evidence{appliance(h)} }},
		{name: "a path that bypasses the appliance does not (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem-via-nva", "192.168.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				pendAppliance(h)
			}},
		{name: "an appliance NIC read by another way is used, not needed (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("to-nva", "10.0.2.0/24", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.net.Pending.Add(appliance(h))
			}},
		{name: "replies crossing the appliance need its NIC too", dst: "10.0.5.4", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				vm := hubVM(h)
				h.attach(vm, h.routeTable("rg-hub", "rt-vm", false, udr("spoke-via-nva", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				pendAppliance(h)
			},
			needs: func(h *hubSpoke) []model.Evidence { return []model.Evidence{appliance(h)} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHubSpoke()
			tc.setup(h)
			res := NewEngine(h.net, Options{}).Trace(h.aks.ID, ip(tc.dst))
			if res.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s (findings %v, gaps %v)", res.Verdict, tc.verdict, codes(res.Findings), res.Gaps)
			}
			var want []model.Evidence
			if tc.needs != nil {
				want = tc.needs(h)
			}
			if !reflect.DeepEqual(res.Needs, want) {
				t.Errorf("needs %v, want %v", res.Needs, want)
			}
			if len(want) > 0 && len(res.Gaps) == 0 {
				t.Error("a path that needs pending evidence has no gap: it could be taken for reachable")
			}
		})
	}
}
