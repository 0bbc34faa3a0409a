package routing

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// find returns the computed route with that prefix and next hop type.
func find(c *Computed, prefix, hop string) (model.Route, bool) {
	for _, r := range c.Routes() {
		if r.Prefix == pfx(prefix) && r.NextHopType == hop {
			return r, true
		}
	}
	return model.Route{}, false
}

func mustCompute(t *testing.T, net *model.Network, subnet model.ResourceID) *Computed {
	t.Helper()
	c, err := EffectiveRoutes(net, subnet)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// routeState is the state of a route, "absent" when there is none.
func routeState(c *Computed, prefix, hop string) string {
	if r, ok := find(c, prefix, hop); ok {
		return r.State
	}
	return "absent"
}

func TestEffectiveRoutesRules(t *testing.T) {
	const active, inv, absent = model.RouteStateActive, model.RouteStateInvalid, "absent"
	type want struct {
		prefix, hop, state string
	}
	cases := []struct {
		name   string
		mutate func(h *hubSpoke)
		subnet func(h *hubSpoke) *model.Subnet
		want   []want
	}{
		{"VNet space is VnetLocal, peered space VNetPeering", nil, nil, []want{
			{"10.1.0.0/16", model.NextHopVnetLocal, active}, {"10.0.0.0/16", model.NextHopVNetPeering, active}}},
		{"every prefix of a multi-prefix VNet", func(h *hubSpoke) { h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("10.9.0.0/16")) }, nil, []want{
			{"10.1.0.0/16", model.NextHopVnetLocal, active}, {"10.9.0.0/16", model.NextHopVnetLocal, active}}},
		{"global peering is VNetGlobalPeering", func(h *hubSpoke) { h.spokeToHub.Global = true }, nil, []want{
			{"10.0.0.0/16", model.NextHopVNetGlobalPeering, active}, {"10.0.0.0/16", model.NextHopVNetPeering, absent}}},
		{"Initiated peering adds no route", func(h *hubSpoke) { h.spokeToHub.State = "Initiated" }, nil, []want{
			{"10.0.0.0/16", model.NextHopVNetPeering, absent}, {"10.0.2.5/32", model.NextHopInterfaceEndpoint, absent}}},
		{"peering without access adds no route", func(h *hubSpoke) { h.spokeToHub.AllowVirtualNetworkAccess = false }, nil, []want{
			{"10.0.0.0/16", model.NextHopVNetPeering, absent}}},
		{"routes follow the synced space, not the current one", func(h *hubSpoke) {
			h.hub.AddressSpace = append(h.hub.AddressSpace, pfx("10.5.0.0/16"))
			h.spokeToHub.RemoteCurrentAddressSpace = h.hub.AddressSpace
			h.spokeToHub.SyncLevel = "LocalNotInSync"
		}, nil, []want{{"10.0.0.0/16", model.NextHopVNetPeering, active}, {"10.5.0.0/16", model.NextHopVNetPeering, absent}}},
		{"private endpoint /32 in its own VNet and in the peered VNet", nil, nil, []want{
			{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}, {"10.0.2.6/32", model.NextHopInterfaceEndpoint, active}}},
		{"private endpoint in the subnet's own VNet", nil, func(h *hubSpoke) *model.Subnet { return h.nvaSubnet }, []want{
			{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}}},
		{"no private endpoint route from an unpeered VNet", func(h *hubSpoke) {
			other := h.vnet("rg-x", "vnet-other", "10.7.0.0/16")
			h.privateEndpoint("rg-x", "pe-other", h.subnet(other, "snet-pe", "10.7.2.0/24"), "10.7.2.4")
		}, nil, []want{{"10.7.2.4/32", model.NextHopInterfaceEndpoint, absent}}},
		{"UDR as broad as the PE's VNet invalidates the /32 under RouteTableEnabled", func(h *hubSpoke) {
			h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("hub", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, inv}, {"10.0.0.0/16", model.NextHopVNetPeering, inv}}},
		{"… and under Enabled, with a broader UDR", func(h *hubSpoke) {
			h.peSubnet.PrivateEndpointNetworkPolicies = "Enabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("all10", "10.0.0.0/8", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, inv}}},
		{"policies Disabled: the UDR does not invalidate", func(h *hubSpoke) {
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("hub", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}}},
		{"NetworkSecurityGroupEnabled only: the UDR does not invalidate", func(h *hubSpoke) {
			h.peSubnet.PrivateEndpointNetworkPolicies = "NetworkSecurityGroupEnabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("hub", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}}},
		{"a UDR narrower than the PE's VNet does not invalidate", func(h *hubSpoke) {
			h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("pe-subnet", "10.0.2.0/24", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}}},
		{"a 0.0.0.0/0 UDR never invalidates", func(h *hubSpoke) {
			h.peSubnet.PrivateEndpointNetworkPolicies = "Enabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("default", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
		}, nil, []want{{"10.0.2.5/32", model.NextHopInterfaceEndpoint, active}, {"0.0.0.0/0", model.NextHopInternet, inv}}},
		{"the VNet's own gateway propagates its learned routes, not its own space", nil, func(h *hubSpoke) *model.Subnet { return h.nvaSubnet }, []want{
			{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, active}, {"192.168.0.0/16", model.NextHopNone, inv},
			{"10.0.0.0/16", model.NextHopVirtualNetworkGateway, absent}}},
		{"gateway transit with both flags", func(h *hubSpoke) { h.useTransit() }, nil, []want{
			{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, active}}},
		{"no transit without useRemoteGateways", nil, nil, []want{
			{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, absent}, {"192.168.0.0/16", model.NextHopNone, active}}},
		{"no transit without allowGatewayTransit", func(h *hubSpoke) { h.useTransit(); h.hubToSpoke.AllowGatewayTransit = false }, nil, []want{
			{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, absent}}},
		{"BGP propagation disabled keeps gateway routes out", func(h *hubSpoke) {
			h.useTransit()
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", true))
		}, nil, []want{{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, absent}, {"192.168.0.0/16", model.NextHopNone, active}}},
		{"static local network gateway prefixes are gateway routes", func(h *hubSpoke) {
			h.useTransit()
			h.gw.StaticPrefixes = []netip.Prefix{pfx("172.30.0.0/16")}
		}, nil, []want{{"172.30.0.0/16", model.NextHopVirtualNetworkGateway, active}}},
		{"UDRs: appliance, Internet, None, VnetLocal; same-prefix defaults Invalid", func(h *hubSpoke) {
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false,
				udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4"), udr("inet", "20.0.0.0/8", model.NextHopInternet, ""),
				udr("drop", "10.0.0.0/8", model.NextHopNone, ""), udr("local", "10.1.0.0/16", model.NextHopVnetLocal, "")))
		}, nil, []want{
			{"0.0.0.0/0", model.NextHopVirtualAppliance, active}, {"0.0.0.0/0", model.NextHopInternet, inv}, {"20.0.0.0/8", model.NextHopInternet, active},
		}},
		{"a UDR to VirtualNetworkGateway without any gateway is Invalid", func(h *hubSpoke) {
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("onprem", "172.30.0.0/16", model.NextHopVirtualNetworkGateway, "")))
		}, nil, []want{{"172.30.0.0/16", model.NextHopVirtualNetworkGateway, inv}}},
		{"… but Active with gateway transit", func(h *hubSpoke) {
			h.useTransit()
			h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("onprem", "172.30.0.0/16", model.NextHopVirtualNetworkGateway, "")))
		}, nil, []want{{"172.30.0.0/16", model.NextHopVirtualNetworkGateway, active}}},
		{"service endpoint routes", func(h *hubSpoke) {
			h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", PrefixesKnown: true, Prefixes: []netip.Prefix{pfx("20.60.0.0/17")}}}
		}, nil, []want{{"20.60.0.0/17", model.NextHopServiceEndpoint, active}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			if c.mutate != nil {
				c.mutate(h)
			}
			sub := h.aks
			if c.subnet != nil {
				sub = c.subnet(h)
			}
			comp := mustCompute(t, h.net, sub.ID)
			if strings.HasPrefix(c.name, "UDRs:") {
				// Two VnetLocal routes for 10.1.0.0/16: the UDR wins, the system route is Invalid.
				for _, r := range comp.Routes() {
					if r.Prefix == pfx("10.1.0.0/16") && (r.Source == model.RouteSourceUser) != (r.State == model.RouteStateActive) {
						t.Errorf("10.1.0.0/16 %s is %s", r.Source, r.State)
					}
				}
			}
			for _, w := range c.want {
				if got := routeState(comp, w.prefix, w.hop); got != w.state {
					t.Errorf("%s %s: %s, want %s", w.prefix, w.hop, got, w.state)
				}
			}
			for _, r := range comp.Routes() {
				if r.Origin == "" {
					t.Errorf("route %s %s has no origin", r.Prefix, r.NextHopType)
				}
			}
		})
	}
}

// Each computed route says where it came from, for evidence.
func TestEffectiveRouteOrigins(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	rt := h.routeTable("rg-spoke", "rt-aks", false, udr("to-fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4"))
	h.attach(h.aks, rt)
	comp := mustCompute(t, h.net, h.aks.ID)
	for _, c := range []struct {
		prefix, hop, origin string
		id                  model.ResourceID
	}{
		{"10.1.0.0/16", model.NextHopVnetLocal, "address space of vnet-spoke", h.spoke.ID},
		{"10.0.0.0/16", model.NextHopVNetPeering, "peering spoke-to-hub", h.spokeToHub.ID},
		{"10.0.2.5/32", model.NextHopInterfaceEndpoint, "private endpoint pe-acr", h.pe.ID},
		{"192.168.0.0/16", model.NextHopVirtualNetworkGateway, "gateway vpngw (learned from 192.168.255.1, EBgp)", h.gw.ID},
		{"0.0.0.0/0", model.NextHopVirtualAppliance, "route table rt-aks route to-fw", rt.ID},
	} {
		r, ok := find(comp, c.prefix, c.hop)
		if !ok || r.Origin != c.origin || !r.OriginID.Equal(c.id) {
			t.Errorf("%s %s: origin %q %s, want %q %s", c.prefix, c.hop, r.Origin, r.OriginID, c.origin, c.id)
		}
	}
	if r, _ := find(comp, "192.168.0.0/16", model.NextHopVirtualNetworkGateway); r.NextHopIP != ip("10.0.0.30") {
		t.Errorf("gateway routes need the gateway's address as next hop, got %s", r.NextHopIP)
	}
}

// Missing facts are gaps, scoped to the destinations they can change.
func TestEffectiveRoutesGaps(t *testing.T) {
	t.Run("subnet not read", func(t *testing.T) {
		h := newHubSpoke()
		missing := h.spoke.ID + "/subnets/snet-gone"
		h.net.Gaps.Add(model.Gap{ResourceID: missing, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/subnets/read"})
		_, err := EffectiveRoutes(h.net, missing)
		var ge *GapError
		if !errors.As(err, &ge) || ge.Gap.Kind != model.GapPermissionDenied {
			t.Fatalf("want the reader's gap, got %v", err)
		}
	})
	t.Run("VNet not read", func(t *testing.T) {
		h := newHubSpoke()
		delete(h.net.VNets, h.spoke.ID.Key())
		if _, err := EffectiveRoutes(h.net, h.aks.ID); err == nil {
			t.Fatal("want an error")
		}
	})
	t.Run("route table not read: every destination", func(t *testing.T) {
		h := newHubSpoke()
		h.aks.RouteTableID = rid("rg-spoke", "routeTables", "rt-gone")
		comp := mustCompute(t, h.net, h.aks.ID)
		if len(comp.GapsFor(ip("10.0.2.5"))) != 1 || len(comp.GapsFor(ip("8.8.8.8"))) != 1 {
			t.Errorf("gaps %v", comp.Gaps)
		}
	})
	t.Run("peered VNet not read: only its space", func(t *testing.T) {
		h := newHubSpoke()
		delete(h.net.VNets, h.hub.ID.Key())
		comp := mustCompute(t, h.net, h.aks.ID)
		if len(comp.GapsFor(ip("10.0.2.5"))) == 0 {
			t.Errorf("the hub's private endpoints are unknown: want a gap for 10.0.2.5")
		}
		if g := comp.GapsFor(ip("8.8.8.8")); len(g) != 0 {
			t.Errorf("no gap expected for 8.8.8.8, got %v", g)
		}
		if r, ok := find(comp, "10.0.0.0/16", model.NextHopVNetPeering); !ok || r.State != model.RouteStateActive {
			t.Errorf("the peering route rests on the synced space and stays")
		}
	})
	t.Run("learned routes not read: not inside protected space", func(t *testing.T) {
		h := newHubSpoke()
		h.useTransit()
		h.gw.LearnedKnown, h.gw.Learned = false, nil
		comp := mustCompute(t, h.net, h.aks.ID)
		if g := comp.GapsFor(ip("192.168.10.20")); len(g) != 1 || !g[0].ResourceID.Equal(h.gw.ID) {
			t.Errorf("on-premises destination: want the gateway gap, got %v", g)
		}
		if g := comp.GapsFor(ip("10.0.2.5")); len(g) != 0 {
			t.Errorf("BGP cannot override the peering route: no gap expected, got %v", g)
		}
	})
	t.Run("service tag UDR and unresolved service endpoint: public destinations only", func(t *testing.T) {
		h := newHubSpoke()
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "acr", ServiceTag: "AzureContainerRegistry", NextHopType: model.NextHopInternet}))
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}}}
		comp := mustCompute(t, h.net, h.aks.ID)
		if g := comp.GapsFor(ip("20.60.1.1")); len(g) != 1 {
			t.Errorf("public destination over Internet: only the service tag matters, got %v", g)
		}
		if g := comp.GapsFor(ip("10.0.2.5")); len(g) != 0 {
			t.Errorf("private destination: want none, got %v", g)
		}
		kept := false
		for _, r := range comp.Routes() {
			kept = kept || (r.ServiceTag == "AzureContainerRegistry" && strings.Contains(r.Origin, "route acr"))
		}
		if !kept {
			t.Error("the service-tag route must stay listed")
		}
	})
	t.Run("unresolved service endpoint matters only where the route is not Internet", func(t *testing.T) {
		h := newHubSpoke()
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}}}
		if g := mustCompute(t, h.net, h.aks.ID).GapsFor(ip("20.60.1.1")); len(g) != 0 {
			t.Errorf("default route to the Internet: no gap expected, got %v", g)
		}
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
		if g := mustCompute(t, h.net, h.aks.ID).GapsFor(ip("20.60.1.1")); len(g) != 1 {
			t.Errorf("forced tunnel: the service endpoint would bypass the appliance, want a gap, got %v", g)
		}
	})
	t.Run("private endpoint NIC not read: its addresses come from customDnsConfigs", func(t *testing.T) {
		h := newHubSpoke()
		delete(h.net.NICs, h.pe.NICIDs[0].Key())
		h.pe.DNSConfigs = []model.FQDNAddresses{{FQDN: "contosoreg.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.5")}}}
		comp := mustCompute(t, h.net, h.aks.ID)
		if routeState(comp, "10.0.2.5/32", model.NextHopInterfaceEndpoint) != model.RouteStateActive || len(comp.Gaps) != 0 {
			t.Errorf("want the /32 from customDnsConfigs and no gap; gaps %v", comp.Gaps)
		}
		h.pe.DNSConfigs = nil
		comp = mustCompute(t, newHubSpokeWithout(h), h.aks.ID)
		if len(comp.GapsFor(ip("10.0.2.9"))) == 0 {
			t.Errorf("without NIC or DNS configs the addresses are a gap")
		}
	})
}

// newHubSpokeWithout returns the same network (helper for readability).
func newHubSpokeWithout(h *hubSpoke) *model.Network { return h.net }
