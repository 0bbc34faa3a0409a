package routing

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A private endpoint subnet whose network policies a planned change leaves
// unknown: whether a UDR invalidates the endpoint's /32 route is unknown,
// so the endpoint's address (and only it) carries the planned gap; without
// such a UDR the policies change nothing.
func TestPrivateEndpointPoliciesUnknown(t *testing.T) {
	gap := model.Gap{ResourceID: "/pe-subnet", Kind: model.GapPlannedUnknown, Planned: "azurerm_subnet.pe", Detail: "properties.privateEndpointNetworkPolicies is known only after apply"}
	for _, c := range []struct {
		name    string
		udr     bool
		wantGap bool
	}{
		{"an invalidating UDR: unknown", true, true},
		{"no UDR: the policies decide nothing (negative)", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			h.peSubnet.PrivateEndpointNetworkPolicies = ""
			h.peSubnet.Unknown = model.UnknownFacts{model.FactPrivateEndpointNetworkPolicies: gap}
			if c.udr {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("hub", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			}
			comp := mustCompute(t, h.net, h.aks.ID)
			got := comp.GapsFor(ip("10.0.2.5"))
			has := false
			for _, g := range got {
				has = has || (g.Kind == model.GapPlannedUnknown && g.Planned == "azurerm_subnet.pe")
			}
			if has != c.wantGap {
				t.Errorf("gaps for the endpoint's address = %+v, want the planned gap: %v", got, c.wantGap)
			}
			for _, g := range comp.GapsFor(ip("10.1.0.9")) {
				if g.Kind == model.GapPlannedUnknown {
					t.Errorf("an address outside the endpoint carries the planned gap: %+v", g)
				}
			}
		})
	}
}
