package routing

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Replies from a private endpoint bypass route tables, replies from a NIC
// follow the subnet's routes. When the address a path arrives at may be a
// private endpoint whose addresses were not read, the return path is
// unknown: never RETURN_ROUTE_ASYMMETRIC drawn from the missing read.
func TestReturnPathWithUnreadPrivateEndpoint(t *testing.T) {
	throughNVA := func(h *hubSpoke) {
		h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
		h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("hub-via-nva", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
	}
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		verdict model.Verdict
		must    model.Code
		mustNot model.Code
		gap     func(h *hubSpoke) model.ResourceID
	}{
		{name: "private endpoint not read: return unknown, not asymmetric", verdict: model.Unverified, mustNot: model.ReturnRouteAsymmetric,
			setup: func(h *hubSpoke) {
				throughNVA(h)
				delete(h.net.PrivateEndpoints, h.pe.ID.Key())
				delete(h.net.NICs, h.pe.NICIDs[0].Key())
			},
			gap: func(h *hubSpoke) model.ResourceID { return h.pe.ID }},
		{name: "private endpoint read, its network interface not: return unknown, not asymmetric", verdict: model.Unverified, mustNot: model.ReturnRouteAsymmetric,
			setup: func(h *hubSpoke) {
				throughNVA(h)
				delete(h.net.NICs, h.pe.NICIDs[0].Key())
			},
			gap: func(h *hubSpoke) model.ResourceID { return h.pe.NICIDs[0] }},
		{name: "private endpoint not read, its network interface read: the interface says it is the endpoint's, SNAT unknown", verdict: model.Unverified,
			must: model.ReturnRouteUnverified, mustNot: model.ReturnRouteAsymmetric,
			setup: func(h *hubSpoke) {
				throughNVA(h)
				delete(h.net.PrivateEndpoints, h.pe.ID.Key())
			}},
		{name: "the endpoint's addresses known from customDnsConfigs: it is the private endpoint, SNAT unknown (negative)", verdict: model.Unverified,
			must: model.ReturnRouteUnverified, mustNot: model.ReturnRouteAsymmetric,
			setup: func(h *hubSpoke) {
				throughNVA(h)
				delete(h.net.NICs, h.pe.NICIDs[0].Key())
				h.pe.DNSConfigs = []model.FQDNAddresses{{FQDN: "contosoreg.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.5")}}}
			}},
		{name: "every endpoint of the subnet known, the address is none of them: the reply is judged, asymmetric (negative)", verdict: model.Unreachable,
			must: model.ReturnRouteAsymmetric,
			setup: func(h *hubSpoke) {
				throughNVA(h)
				h.nic("rg-hub", "nic-other", h.peSubnet, false, "10.0.2.5")
				delete(h.net.PrivateEndpoints, h.pe.ID.Key())
				h.peSubnet.PrivateEndpointIDs = nil
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			c.setup(h)
			res := Trace(h.net, h.aks.ID, ip("10.0.2.5"), Options{})
			if res.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q\nreturn %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path(), res.Return.Note)
			}
			got := append(codes(res.Findings), codes(res.Suspected)...)
			if c.must != "" && !slices.Contains(codes(res.Findings), c.must) {
				t.Errorf("missing %s in %v", c.must, got)
			}
			if c.mustNot != "" && slices.Contains(codes(res.Findings), c.mustNot) {
				t.Errorf("unexpected %s in %v", c.mustNot, codes(res.Findings))
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
