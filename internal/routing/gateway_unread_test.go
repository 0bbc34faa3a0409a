package routing

import (
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A gateway that propagates routes but could not be read leaves the
// destinations its routes could cover unverified, never dropped by the
// default None route its routes would have overridden: in the gateway's own
// VNet (an appliance or firewall subnet of the hub) as for a spoke that
// uses it through gateway transit.
func TestUnreadGatewayIsAGapNotABlackhole(t *testing.T) {
	onPrem := ip("192.168.10.5")
	unread := func(h *hubSpoke) {
		delete(h.net.Gateways, h.gw.ID.Key())
		h.net.Gaps.Add(model.Gap{ResourceID: h.gw.ID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworkGateways/read"})
	}
	named := func(h *hubSpoke) {
		h.gwSubnet.IPConfigurationIDs = []model.ResourceID{h.gw.ID + "/ipConfigurations/default"}
		h.gwSubnet.IPConfigurationsRead = true
	}
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		from    func(h *hubSpoke) *model.Subnet
		verdict model.Verdict
		gap     func(h *hubSpoke) model.ResourceID
		mustNot model.Code
		must    model.Code
	}{
		{name: "hub subnet, its VNet's gateway named by GatewaySubnet and not read: unverified, the gateway's read is the gap",
			setup: func(h *hubSpoke) { named(h); unread(h) }, from: func(h *hubSpoke) *model.Subnet { return h.nvaSubnet },
			verdict: model.Unverified, mustNot: model.RouteBlackhole, gap: func(h *hubSpoke) model.ResourceID { return h.gw.ID }},
		{name: "hub subnet, the gateway read: its route carries on-premises (negative)",
			setup: named, from: func(h *hubSpoke) *model.Subnet { return h.nvaSubnet },
			mustNot: model.RouteBlackhole},
		{name: "hub without a gateway (GatewaySubnet lists none): the default None route drops on-premises (negative)",
			setup: func(h *hubSpoke) {
				delete(h.net.Gateways, h.gw.ID.Key())
				h.gwSubnet.IPConfigurationIDs, h.gwSubnet.IPConfigurationsRead = nil, true
			},
			from: func(h *hubSpoke) *model.Subnet { return h.nvaSubnet }, verdict: model.Unreachable, must: model.RouteBlackhole},
		{name: "spoke through gateway transit, the hub's gateway named and not read: the gateway's read is the gap",
			setup: func(h *hubSpoke) { h.useTransit(); named(h); unread(h) }, from: func(h *hubSpoke) *model.Subnet { return h.aks },
			verdict: model.Unverified, mustNot: model.RouteBlackhole, gap: func(h *hubSpoke) model.ResourceID { return h.gw.ID }},
		{name: "spoke through gateway transit, no gateway of the hub known at all: the hub is the gap",
			setup: func(h *hubSpoke) { h.useTransit(); delete(h.net.Gateways, h.gw.ID.Key()) }, from: func(h *hubSpoke) *model.Subnet { return h.aks },
			verdict: model.Unverified, mustNot: model.RouteBlackhole, gap: func(h *hubSpoke) model.ResourceID { return h.hub.ID }},
		{name: "spoke without gateway transit, the hub's gateway not read: the spoke never had its routes, default None drops (negative)",
			setup: func(h *hubSpoke) { named(h); unread(h) }, from: func(h *hubSpoke) *model.Subnet { return h.aks },
			verdict: model.Unreachable, must: model.RouteBlackhole},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			c.setup(h)
			res := Trace(h.net, c.from(h).ID, onPrem, Options{})
			if c.verdict != "" && res.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path())
			}
			if c.mustNot != "" && slices.Contains(codes(res.Findings), c.mustNot) {
				t.Errorf("unexpected %s in %v", c.mustNot, codes(res.Findings))
			}
			if c.must != "" && !slices.Contains(codes(res.Findings), c.must) {
				t.Errorf("missing %s in %v", c.must, codes(res.Findings))
			}
			if c.gap != nil {
				want := c.gap(h)
				if !slices.ContainsFunc(res.Gaps, func(g model.Gap) bool { return g.ResourceID.Equal(want) }) {
					t.Errorf("no gap on %s: %v", want, res.Gaps)
				}
			}
		})
	}
}
