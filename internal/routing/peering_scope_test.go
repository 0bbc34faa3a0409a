package routing

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// hubGainsSpace gives the hub 10.5.0.0/16 after the peering was last
// synced, with a private endpoint pe-new (10.5.0.5) in snet-pe2 there: the
// spoke side still has only 10.0.0.0/16 in remoteAddressSpace.
func hubGainsSpace(h *hubSpoke, synced bool) *model.PrivateEndpoint {
	h.hub.AddressSpace = append(h.hub.AddressSpace, pfx("10.5.0.0/16"))
	pe := h.privateEndpoint("rg-hub", "pe-new", h.subnet(h.hub, "snet-pe2", "10.5.0.0/24"), "10.5.0.5")
	h.spokeToHub.RemoteCurrentAddressSpace = append([]netip.Prefix(nil), h.hub.AddressSpace...)
	if synced {
		h.spokeToHub.RemoteAddressSpace = append([]netip.Prefix(nil), h.hub.AddressSpace...)
		return pe
	}
	h.spokeToHub.SyncLevel = "LocalNotInSync"
	h.hubToSpoke.SyncLevel = "RemoteNotInSync"
	return pe
}

// subnetPeering turns both sides of the hub-spoke peering into a subnet
// peering: the spoke connects its subnets local with the hub's subnets
// remote; remoteAddressSpace holds the named remote subnets' prefixes.
func subnetPeering(h *hubSpoke, local, remote []string) {
	prefixesOf := func(v *model.VNet, names []string) []netip.Prefix {
		var out []netip.Prefix
		for _, s := range v.Subnets {
			if slices.Contains(names, s.Name) {
				out = append(out, s.Prefixes...)
			}
		}
		return out
	}
	h.spokeToHub.SubnetsOnly, h.spokeToHub.LocalSubnetNames, h.spokeToHub.RemoteSubnetNames = true, local, remote
	h.spokeToHub.RemoteAddressSpace = prefixesOf(h.hub, remote)
	h.hubToSpoke.SubnetsOnly, h.hubToSpoke.LocalSubnetNames, h.hubToSpoke.RemoteSubnetNames = true, remote, local
	h.hubToSpoke.RemoteAddressSpace = prefixesOf(h.spoke, local)
}

func TestPeeringScopeRules(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		from    func(h *hubSpoke) *model.Subnet
		dst     string
		verdict model.Verdict
		must    []model.Code
		mustNot []model.Code
		msg     string // in the first finding's message
	}{
		// A private endpoint in address space the peering has not synced.
		{name: "private endpoint in hub space the spoke side has not synced", dst: "10.5.0.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { hubGainsSpace(h, false) },
			must:  []model.Code{model.RoutePeeringNotSynced}, mustNot: []model.Code{model.RouteBlackhole},
			msg: "peering spoke-to-hub has synced only 10.0.0.0/16 (peeringSyncLevel LocalNotInSync)"},
		{name: "… after the sync it is reachable (negative)", dst: "10.5.0.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { hubGainsSpace(h, true) }},
		{name: "the endpoint in the synced space stays reachable while the new space is not synced (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { hubGainsSpace(h, false) }},
		{name: "node subnet in spoke space the hub side has not synced: the endpoint's replies are unverified", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("10.8.0.0/16"))
				h.subnet(h.spoke, "snet-aks2", "10.8.0.0/22")
				h.spokeToHub.SyncLevel, h.hubToSpoke.SyncLevel = "RemoteNotInSync", "LocalNotInSync"
				h.hubToSpoke.RemoteCurrentAddressSpace = h.spoke.AddressSpace
			},
			from: func(h *hubSpoke) *model.Subnet { return h.net.Subnet(h.spoke.ID + "/subnets/snet-aks2") },
			must: []model.Code{model.ReturnRouteUnverified}, mustNot: []model.Code{model.RoutePeeringNotSynced},
			msg: "peering hub-to-spoke has synced only 10.1.0.0/16"},
		{name: "… once synced (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("10.8.0.0/16"))
				h.subnet(h.spoke, "snet-aks2", "10.8.0.0/22")
				h.hubToSpoke.RemoteAddressSpace, h.hubToSpoke.RemoteCurrentAddressSpace = h.spoke.AddressSpace, h.spoke.AddressSpace
			},
			from: func(h *hubSpoke) *model.Subnet { return h.net.Subnet(h.spoke.ID + "/subnets/snet-aks2") }},
		{name: "an appliance in space the peering has not synced", dst: "10.7.0.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.hub.AddressSpace = append(h.hub.AddressSpace, pfx("10.6.0.0/16"))
				h.nic("rg-hub", "nic-fw2", h.subnet(h.hub, "snet-fw2", "10.6.0.0/24"), true, "10.6.0.4")
				h.spokeToHub.RemoteCurrentAddressSpace = h.hub.AddressSpace
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("x", "10.7.0.0/16", model.NextHopVirtualAppliance, "10.6.0.4")))
			},
			must: []model.Code{model.RoutePeeringNotSynced}, mustNot: []model.Code{model.RouteNVAUnreachable},
			msg: "so Azure cannot deliver to appliance 10.6.0.4"},

		// Subnet peering.
		{name: "subnet peering naming the node and endpoint subnets reaches the endpoint (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { subnetPeering(h, []string{"snet-aks"}, []string{"snet-pe"}) }},
		{name: "subnet peering that does not name the endpoint's subnet", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { subnetPeering(h, []string{"snet-aks"}, []string{"snet-nva"}) },
			must:  []model.Code{model.RoutePeeringSubnetExcluded}, mustNot: []model.Code{model.RoutePeeringNotSynced, model.RouteBlackhole},
			msg: "10.0.2.5 is in subnet snet-pe of vnet-hub, but peering spoke-to-hub is a subnet peering (peerCompleteVnets false) that reaches only subnets snet-nva there (10.0.1.0/24)"},
		{name: "subnet peering that does not name the node subnet", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.subnet(h.spoke, "snet-app", "10.1.8.0/24")
				subnetPeering(h, []string{"snet-app"}, []string{"snet-pe"})
			},
			must: []model.Code{model.RoutePeeringSubnetExcluded}, mustNot: []model.Code{model.RouteBlackhole},
			msg: "connects only subnets snet-app of vnet-spoke; subnet snet-aks is not among them"},
		{name: "… the subnet it does name reaches the endpoint (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.subnet(h.spoke, "snet-app", "10.1.8.0/24")
				subnetPeering(h, []string{"snet-app"}, []string{"snet-pe"})
			},
			from: func(h *hubSpoke) *model.Subnet { return h.net.Subnet(h.spoke.ID + "/subnets/snet-app") }},
		{name: "a NIC in a remote subnet the subnet peering does not name", dst: "10.0.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { subnetPeering(h, []string{"snet-aks"}, []string{"snet-pe"}) },
			must:  []model.Code{model.RoutePeeringSubnetExcluded}},
		{name: "the endpoint's side does not name the node subnet: replies unverified", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				subnetPeering(h, []string{"snet-aks"}, []string{"snet-pe"})
				h.hubToSpoke.LocalSubnetNames = []string{"snet-nva"}
			},
			must: []model.Code{model.ReturnRouteUnverified}, mustNot: []model.Code{model.RoutePeeringSubnetExcluded},
			msg: "subnet snet-pe is not among them"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			if c.setup != nil {
				c.setup(h)
			}
			from := h.aks
			if c.from != nil {
				from = c.from(h)
			}
			res := Trace(h.net, from.ID, ip(c.dst), Options{})
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path())
			}
			got := codes(res.Findings)
			for _, m := range c.must {
				if !slices.Contains(got, m) {
					t.Errorf("missing %s in %v", m, got)
				}
			}
			for _, m := range c.mustNot {
				if slices.Contains(got, m) {
					t.Errorf("unexpected %s in %v", m, got)
				}
			}
			if c.msg != "" && (len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Message, c.msg)) {
				t.Errorf("first finding %v lacks %q", res.Findings, c.msg)
			}
			for _, f := range res.Findings {
				if f.Resource.IsZero() || f.Message == "" || f.Remediation == "" {
					t.Errorf("finding %s lacks resource, message or remediation", f.Code)
				}
			}
		})
	}
}

// A subnet peering gives its routes, and the /32 of the endpoints behind
// it, only to the subnets it names; subnets of the same VNet with the same
// route table must not share one computed table then.
func TestSubnetPeeringRoutesOnlyNamedSubnets(t *testing.T) {
	h := newHubSpoke()
	other := h.subnet(h.spoke, "snet-app", "10.1.8.0/24")
	subnetPeering(h, []string{"snet-aks"}, []string{"snet-pe"})
	e := NewEngine(h.net, Options{})
	named, err := e.EffectiveRoutes(h.aks.ID)
	if err != nil {
		t.Fatal(err)
	}
	unnamed, err := e.EffectiveRoutes(other.ID)
	if err != nil {
		t.Fatal(err)
	}
	has := func(c *Computed, prefix, hop string) bool {
		for _, r := range c.Routes() {
			if r.Prefix == pfx(prefix) && r.NextHopType == hop {
				return true
			}
		}
		return false
	}
	if !has(named, "10.0.2.0/24", model.NextHopVNetPeering) || has(named, "10.0.0.0/16", model.NextHopVNetPeering) {
		t.Errorf("named subnet: want a peering route for snet-pe's prefix only, got %v", named.Routes())
	}
	if !has(named, "10.0.2.5/32", model.NextHopInterfaceEndpoint) {
		t.Errorf("named subnet: the endpoint's /32 is missing: %v", named.Routes())
	}
	if has(unnamed, "10.0.2.0/24", model.NextHopVNetPeering) || has(unnamed, "10.0.2.5/32", model.NextHopInterfaceEndpoint) {
		t.Errorf("subnet the peering does not name got its routes: %v", unnamed.Routes())
	}
}

// The /32 of a private endpoint in unsynced space is not programmed across
// the peering; one in synced space is.
func TestPrivateEndpointRouteNeedsSyncedSpace(t *testing.T) {
	for _, synced := range []bool{false, true} {
		h := newHubSpoke()
		hubGainsSpace(h, synced)
		c, err := EffectiveRoutes(h.net, h.aks.ID)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range c.Routes() {
			found = found || r.Prefix == pfx("10.5.0.5/32")
		}
		if found != synced {
			t.Errorf("synced=%v: /32 of pe-new programmed=%v", synced, found)
		}
	}
}
