package routing

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// withSpoke2 adds vnet-spoke2 (10.2.0.0/16) peered with the hub, holding a
// VM-hosted registry at 10.2.1.4 (nic-app).
func withSpoke2(h *hubSpoke) (*model.VNet, *model.Subnet, *model.Peering) {
	s2 := h.vnet("rg-spoke2", "vnet-spoke2", "10.2.0.0/16")
	app := h.subnet(s2, "snet-app", "10.2.1.0/24")
	h.nic("rg-spoke2", "nic-app", app, false, "10.2.1.4")
	_, s2ToHub := h.peer(h.hub, s2, "hub-to-spoke2", "spoke2-to-hub")
	return s2, app, s2ToHub
}

// viaNVA sends spoke ↔ spoke2 through the hub NVA with UDRs on both sides.
func viaNVA(h *hubSpoke, app *model.Subnet) {
	h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("spoke2-via-nva", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
	h.attach(app, h.routeTable("rg-spoke2", "rt-app", false, udr("spoke-via-nva", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
}

// hubVM adds a VM at 10.0.5.4 in hub subnet snet-vm.
func hubVM(h *hubSpoke) *model.Subnet {
	s := h.subnet(h.hub, "snet-vm", "10.0.5.0/24")
	h.nic("rg-hub", "nic-vm", s, false, "10.0.5.4")
	return s
}

func TestTraceRules(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		dst     string
		verdict model.Verdict
		must    []model.Code
		mustNot []model.Code
		check   func(t *testing.T, h *hubSpoke, res Result)
	}{
		// Peering: not transitive.
		{name: "spoke to spoke through the hub's peerings is not transitive", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { withSpoke2(h) },
			must:  []model.Code{model.RouteNotTransitive}, mustNot: []model.Code{model.RouteBlackhole}},
		{name: "a direct peering reaches it (negative)", dst: "10.2.1.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				s2, _, _ := withSpoke2(h)
				h.peer(h.spoke, s2, "spoke-to-spoke2", "spoke2-to-spoke")
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Arrival.Kind != ArrivalNIC || res.Arrival.NICID.Name() != "nic-app" || !res.Return.Checked || res.Return.Verdict != model.Reachable {
					t.Errorf("arrival %+v return %+v", res.Arrival, res.Return)
				}
			}},
		{name: "UDRs through the hub NVA on both sides reach it (negative)", dst: "10.2.1.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) { _, app, _ := withSpoke2(h); viaNVA(h, app) },
			check: func(t *testing.T, h *hubSpoke, res Result) {
				want := []string{
					"subnet vnet-spoke/snet-aks → route 10.2.0.0/16 VirtualAppliance 10.0.1.4 (route table rt-aks route spoke2-via-nva) → appliance nic-vm-nva 10.0.1.4 in vnet-hub/snet-nva",
					"subnet vnet-hub/snet-nva → route 10.2.0.0/16 VNetPeering (peering hub-to-spoke2) → vnet-spoke2/snet-app (nic-app 10.2.1.4)",
				}
				if !slices.Equal(res.Path(), want) {
					t.Errorf("path %q", res.Path())
				}
				if len(res.Appliances) != 1 || len(res.Return.Appliances) != 1 {
					t.Errorf("both directions cross the NVA: %v / %v", res.Appliances, res.Return.Appliances)
				}
			}},
		// Forwarded traffic.
		{name: "forwarded traffic refused by the receiving peering", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				_, app, s2ToHub := withSpoke2(h)
				viaNVA(h, app)
				s2ToHub.AllowForwardedTraffic = false
			},
			must: []model.Code{model.RouteForwardedTrafficBlock},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Findings[0].Resource.Name() != "spoke2-to-hub" {
					t.Errorf("resource %s", res.Findings[0].Resource)
				}
			}},
		{name: "the sending side's flag does not matter (negative)", dst: "10.2.1.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				_, app, _ := withSpoke2(h)
				viaNVA(h, app)
				h.hub.PeeringTo(rid("rg-spoke2", "virtualNetworks", "vnet-spoke2")).AllowForwardedTraffic = false
				h.hubToSpoke.AllowForwardedTraffic = false
			}},
		// Appliances.
		{name: "NVA without IP forwarding drops", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { _, app, _ := withSpoke2(h); viaNVA(h, app); h.nva.IPForwarding = false },
			must:  []model.Code{model.RouteNVAForwardingDisabled},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !res.Findings[0].Resource.Equal(h.nva.ID) {
					t.Errorf("resource %s", res.Findings[0].Resource)
				}
			}},
		{name: "NVA address in no VNet", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("x", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.50.0.4")))
			},
			must: []model.Code{model.RouteNVAUnreachable}},
		{name: "NVA in a VNet the nodes are not peered with", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				other := h.vnet("rg-x", "vnet-other", "10.7.0.0/16")
				h.nic("rg-x", "nic-nva2", h.subnet(other, "snet-nva", "10.7.0.0/24"), true, "10.7.0.4")
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("x", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.7.0.4")))
			},
			must: []model.Code{model.RouteNVAUnreachable}},
		{name: "NVA in a VNet whose peering is Initiated: the peering is the cause", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				h.spokeToHub.State = "Initiated"
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("x", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.RoutePeeringNotConnected}, mustNot: []model.Code{model.RouteNVAUnreachable}},
		{name: "invalid destination address", dst: "", verdict: model.Unverified},
		{name: "NVA address in a peered VNet but in no subnet", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("x", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.200.4")))
			},
			must: []model.Code{model.RouteNVAUnreachable}},
		{name: "Azure Firewall (no NIC in AzureFirewallSubnet) forwards", dst: "10.2.1.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				_, app, _ := withSpoke2(h)
				h.subnet(h.hub, "AzureFirewallSubnet", "10.0.4.0/26")
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
				h.attach(app, h.routeTable("rg-spoke2", "rt-app", false, udr("fw", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !strings.Contains(res.Path()[0], "Azure Firewall 10.0.4.4 in vnet-hub/AzureFirewallSubnet") {
					t.Errorf("path %q", res.Path())
				}
			}},
		{name: "appliance address without a known NIC is unverified", dst: "10.2.1.4", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				_, app, _ := withSpoke2(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("ilb", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.9")))
				h.attach(app, h.routeTable("rg-spoke2", "rt-app", false, udr("ilb", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.9")))
			}},
		{name: "routing loop between two appliances", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				nva2Subnet := h.subnet(h.hub, "snet-nva2", "10.0.6.0/24")
				h.nic("rg-hub", "nic-nva2", nva2Subnet, true, "10.0.6.4")
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("a", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.attach(h.nvaSubnet, h.routeTable("rg-hub", "rt-nva", false, udr("b", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.6.4")))
				h.attach(nva2Subnet, h.routeTable("rg-hub", "rt-nva2", false, udr("c", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.RouteBlackhole},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !strings.Contains(res.Findings[0].Message, "routing loop") {
					t.Errorf("message %q", res.Findings[0].Message)
				}
			}},
		// Return path.
		{name: "one-way UDR: the reply from spoke2 is not transitive", dst: "10.2.1.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("spoke2-via-nva", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.ReturnRouteMissing}, mustNot: []model.Code{model.RouteNotTransitive},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !strings.Contains(res.Findings[0].Message, "not transitive") {
					t.Errorf("the return finding should carry its cause: %q", res.Findings[0].Message)
				}
			}},
		{name: "hub peering not synced with the spoke's new prefix: no way back", dst: "10.0.5.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				hubVM(h)
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("10.9.0.0/16"))
				h.aks.Prefixes = []netip.Prefix{pfx("10.9.0.0/22")}
				h.hubToSpoke.RemoteCurrentAddressSpace = h.spoke.AddressSpace
				h.spokeToHub.SyncLevel, h.hubToSpoke.SyncLevel = "RemoteNotInSync", "LocalNotInSync"
			},
			must: []model.Code{model.ReturnRouteMissing}},
		{name: "forward through the NVA, reply direct: asymmetric", dst: "10.0.5.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				hubVM(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("vm-via-nva", "10.0.5.0/24", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.ReturnRouteAsymmetric}},
		{name: "reply through the same NVA: symmetric (negative)", dst: "10.0.5.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				vm := hubVM(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("vm-via-nva", "10.0.5.0/24", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.attach(vm, h.routeTable("rg-hub", "rt-vm", false, udr("spoke-via-nva", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			}},
		{name: "private endpoint through an appliance: return depends on SNAT", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("hub-via-nva", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.ReturnRouteUnverified}, mustNot: []model.Code{model.ReturnRouteAsymmetric},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				f := res.Findings[0]
				for _, want := range []string{"source-NAT", "Azure Firewall application rules always do", "10.0.1.4"} {
					if !strings.Contains(f.Message, want) {
						t.Errorf("message lacks %q: %s", want, f.Message)
					}
				}
				if len(res.Hops) != 2 || res.Arrival.Kind != ArrivalPrivateEndpoint {
					t.Errorf("path %q", res.Path())
				}
			}},
		{name: "policies off: the /32 beats the broader UDR and bypasses the appliance", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("hub-via-nva", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Hops) != 1 || len(res.Appliances) != 0 || res.Arrival.PrivateEndpointID.Name() != "pe-acr" {
					t.Errorf("path %q", res.Path())
				}
			}},
		{name: "private endpoint in the nodes' own VNet", dst: "10.1.8.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.privateEndpoint("rg-spoke", "pe-local", h.subnet(h.spoke, "snet-pe", "10.1.8.0/24"), "10.1.8.4")
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Path()[0] != "subnet vnet-spoke/snet-aks → route 10.1.8.4/32 InterfaceEndpoint (private endpoint pe-local) → vnet-spoke/snet-pe (private endpoint pe-local 10.1.8.4)" {
					t.Errorf("path %q", res.Path())
				}
			}},
		{name: "private endpoint without appliance: replies bypass route tables (negative)", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				// Even a hub route table that would drop the spoke does not matter to PE replies.
				h.attach(h.peSubnet, h.routeTable("rg-hub", "rt-pe", false, udr("drop", "10.1.0.0/16", model.NextHopNone, "")))
			}},
		// Gateways.
		{name: "BGP propagation disabled on the node subnet", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.useTransit(); h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true)) },
			must:  []model.Code{model.RouteBGPPropagationDisabled}, mustNot: []model.Code{model.RouteBlackhole, model.RouteGatewayTransitMissing}},
		{name: "BGP propagation disabled beside a UDR less specific than the None route", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true, udr("half-via-nva", "128.0.0.0/1", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			must: []model.Code{model.RouteBGPPropagationDisabled}, mustNot: []model.Code{model.RouteBlackhole, model.RouteGatewayTransitMissing},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				want := "no UDR as specific as 192.168.0.0/16 covers it (route 128.0.0.0/1 VirtualAppliance 10.0.1.4 (route table rt-aks route half-via-nva) is less specific and loses by longest prefix match)"
				if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, want) {
					t.Errorf("findings %v", res.Findings)
				}
			}},
		{name: "BGP propagation disabled beside a 0.0.0.0/0 UDR: the UDR removes the private None routes, the appliance forwards", dst: "192.168.10.20",
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true, udr("default-via-nva", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			},
			verdict: model.Unreachable,
			must:    []model.Code{model.ReturnRouteAsymmetric},
			mustNot: []model.Code{model.RouteBlackhole, model.RouteBGPPropagationDisabled, model.RouteGatewayTransitMissing},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if p := res.Path(); !strings.Contains(strings.Join(p, " "), "10.0.1.4") {
					t.Errorf("the flow must go to the appliance: %q", p)
				}
			}},
		{name: "BGP propagation disabled, no UDR at all: the message says so (negative)", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.useTransit(); h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true)) },
			must:  []model.Code{model.RouteBGPPropagationDisabled},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, "disables BGP route propagation and no UDR covers it,") ||
					strings.Contains(res.Findings[0].Message, "less specific") {
					t.Errorf("findings %v", res.Findings)
				}
			}},
		{name: "… unless a UDR covers it (negative)", dst: "192.168.10.20", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true, udr("onprem", "192.168.0.0/16", model.NextHopVirtualNetworkGateway, "")))
			}},
		{name: "hub lacks allowGatewayTransit", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.useTransit(); h.hubToSpoke.AllowGatewayTransit = false },
			must:  []model.Code{model.RouteGatewayTransitMissing},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !res.Findings[0].Resource.Equal(h.hubToSpoke.ID) {
					t.Errorf("the hub peering is what to change, got %s", res.Findings[0].Resource)
				}
			}},
		{name: "transit missing and propagation disabled: one finding naming both", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true)) },
			must:  []model.Code{model.RouteGatewayTransitMissing}, mustNot: []model.Code{model.RouteBGPPropagationDisabled},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, "also disables BGP route propagation") {
					t.Errorf("findings %v", res.Findings)
				}
			}},
		{name: "UDR to a gateway that no longer exists is Invalid", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				delete(h.net.Gateways, h.gw.ID.Key())
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem", "192.168.0.0/16", model.NextHopVirtualNetworkGateway, "")))
			},
			must: []model.Code{model.RouteInvalid}, mustNot: []model.Code{model.RouteBlackhole}},
		{name: "UDR to the hub gateway without transit: the cause is transit", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem", "192.168.0.0/16", model.NextHopVirtualNetworkGateway, "")))
			},
			must: []model.Code{model.RouteGatewayTransitMissing}, mustNot: []model.Code{model.RouteInvalid}},
		{name: "gateway without a route for the destination", dst: "172.31.0.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem", "172.31.0.0/16", model.NextHopVirtualNetworkGateway, "")))
			},
			must: []model.Code{model.RouteBlackhole}},
		{name: "on-premises reply: the gateway does not advertise the node prefix", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.Advertised[ip("192.168.255.1")] = h.gw.Advertised[ip("192.168.255.1")][:1]
			},
			must: []model.Code{model.ReturnRouteMissing}},
		{name: "on-premises reply: advertised routes not read", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.useTransit(); h.gw.AdvertisedKnown = false },
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Gaps) != 1 || !res.Gaps[0].ResourceID.Equal(h.gw.ID) {
					t.Errorf("gaps %v", res.Gaps)
				}
			}},
		{name: "on-premises behind a static local network gateway: unverified", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				h.useTransit()
				h.gw.BGPEnabled, h.gw.Learned = false, h.gw.Learned[:1]
				h.gw.StaticPrefixes = []netip.Prefix{pfx("192.168.0.0/16")}
			},
			must: []model.Code{model.ReturnRouteUnverified}},
		{name: "forced through the hub NVA to on-premises, reply bypasses it", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem-via-nva", "192.168.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.gw.Advertised[ip("192.168.255.1")] = append(h.gw.Advertised[ip("192.168.255.1")], model.GatewayRoute{Prefix: pfx("10.1.0.0/16")})
			},
			must: []model.Code{model.ReturnRouteAsymmetric}},
		{name: "… and back through it with a GatewaySubnet UDR (negative)", dst: "192.168.10.20", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem-via-nva", "192.168.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.attach(h.gwSubnet, h.routeTable("rg-hub", "rt-gw", false, udr("spoke-via-nva", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
				h.gw.Advertised[ip("192.168.255.1")] = append(h.gw.Advertised[ip("192.168.255.1")], model.GatewayRoute{Prefix: pfx("10.1.0.0/16")})
			}},
		// Peering states.
		{name: "spoke side denies access", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.spokeToHub.AllowVirtualNetworkAccess = false },
			must:  []model.Code{model.RoutePeeringAccessDisabled}, mustNot: []model.Code{model.RouteBlackhole}},
		{name: "hub side denies access", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.hubToSpoke.AllowVirtualNetworkAccess = false },
			must:  []model.Code{model.RoutePeeringAccessDisabled},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !res.Findings[0].Resource.Equal(h.hubToSpoke.ID) {
					t.Errorf("resource %s", res.Findings[0].Resource)
				}
			}},
		{name: "hub side Disconnected", dst: "10.0.2.5", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.hubToSpoke.State = "Disconnected" },
			must:  []model.Code{model.RoutePeeringNotConnected},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if f := res.Findings[0]; !f.Resource.Equal(h.hubToSpoke.ID) || !strings.Contains(f.Message, "hub-to-spoke is Disconnected") {
					t.Errorf("finding %+v", f)
				}
			}},
		{name: "new hub prefix not synced on the spoke side", dst: "10.5.0.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.hub.AddressSpace = append(h.hub.AddressSpace, pfx("10.5.0.0/16"))
				h.nic("rg-hub", "nic-new", h.subnet(h.hub, "snet-new", "10.5.0.0/24"), false, "10.5.0.4")
				h.spokeToHub.RemoteCurrentAddressSpace = h.hub.AddressSpace
				h.spokeToHub.SyncLevel = "LocalNotInSync"
				h.hubToSpoke.SyncLevel = "RemoteNotInSync"
			},
			must: []model.Code{model.RoutePeeringNotSynced}, mustNot: []model.Code{model.RouteBlackhole}},
		{name: "… synced (negative)", dst: "10.5.0.4", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.hub.AddressSpace = append(h.hub.AddressSpace, pfx("10.5.0.0/16"))
				h.nic("rg-hub", "nic-new", h.subnet(h.hub, "snet-new", "10.5.0.0/24"), false, "10.5.0.4")
				h.spokeToHub.RemoteAddressSpace, h.spokeToHub.RemoteCurrentAddressSpace = h.hub.AddressSpace, h.hub.AddressSpace
			}},
		{name: "synced prefix the hub no longer has", dst: "10.6.0.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.spokeToHub.RemoteAddressSpace = append(h.spokeToHub.RemoteAddressSpace, pfx("10.6.0.0/16"))
			},
			must: []model.Code{model.RoutePeeringNotSynced}},
		// Plain drops.
		{name: "private address outside every known network", dst: "10.77.0.1", verdict: model.Unreachable,
			must: []model.Code{model.RouteBlackhole},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !res.Findings[0].Resource.Equal(h.aks.ID) {
					t.Errorf("without a route table the subnet is what to change: %s", res.Findings[0].Resource)
				}
			}},
		{name: "a VNet that is not peered at all", dst: "10.7.0.4", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.subnet(h.vnet("rg-x", "vnet-other", "10.7.0.0/16"), "snet", "10.7.0.0/24") },
			must:  []model.Code{model.RouteBlackhole}, mustNot: []model.Code{model.RouteNotTransitive},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if !strings.Contains(res.Findings[0].Message, "not peered with vnet-spoke") {
					t.Errorf("message %q", res.Findings[0].Message)
				}
			}},
		{name: "address in the hub's space but in no subnet", dst: "10.0.200.4", verdict: model.Unreachable,
			must: []model.Code{model.RouteBlackhole}},
		{name: "public destination over the Internet", dst: "20.50.1.1", verdict: model.Reachable,
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Arrival.Kind != ArrivalInternet {
					t.Errorf("arrival %v", res.Arrival)
				}
			}},
		{name: "private destination sent to the Internet", dst: "10.50.0.1", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("inet", "10.50.0.0/16", model.NextHopInternet, "")))
			},
			must: []model.Code{model.RouteBlackhole}},
		{name: "IPv6 unique local address over ::/0 Internet", dst: "fd00:99::1", verdict: model.Unreachable,
			setup: func(h *hubSpoke) {
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("fd00:1::/48"))
				h.aks.Prefixes = append(h.aks.Prefixes, pfx("fd00:1::/64"))
			},
			must: []model.Code{model.RouteBlackhole}},
		{name: "IPv6 inside the VNet", dst: "fd00:1::7", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("fd00:1::/48"))
				h.aks.Prefixes = append(h.aks.Prefixes, pfx("fd00:1::/64"))
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Source != ip("fd00:1::4") {
					t.Errorf("source of the IPv6 flow: %s", res.Source)
				}
			}},
		{name: "service endpoint carries a public destination", dst: "20.60.1.1", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.50.0.4")))
				h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", PrefixesKnown: true, Prefixes: []netip.Prefix{pfx("20.60.0.0/17")}}}
			},
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if res.Arrival.Kind != ArrivalServiceEndpoint {
					t.Errorf("arrival %v", res.Arrival)
				}
			}},
		// Missing evidence.
		{name: "peered VNet not read", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) { delete(h.net.VNets, h.hub.ID.Key()) }},
		{name: "route table not read", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.aks.RouteTableID = rid("rg-spoke", "routeTables", "rt-secret") }},
		{name: "gateway learned routes not read, destination inside the peering: still reachable", dst: "10.0.2.5", verdict: model.Reachable,
			setup: func(h *hubSpoke) { h.useTransit(); h.gw.LearnedKnown, h.gw.Learned = false, nil }},
		{name: "gateway learned routes not read, on-premises destination: unverified, the drop only suspected", dst: "192.168.10.20", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.useTransit(); h.gw.LearnedKnown, h.gw.Learned = false, nil },
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Gaps) != 1 || !res.Gaps[0].ResourceID.Equal(h.gw.ID) || len(res.Findings) != 0 || len(res.Suspected) != 1 {
					t.Errorf("gaps %v findings %v suspected %v", res.Gaps, res.Findings, res.Suspected)
				}
			}},
		{name: "learned routes of a gateway that does not reach the spoke: the drop is certain", dst: "192.168.10.20", verdict: model.Unreachable,
			setup: func(h *hubSpoke) { h.gw.LearnedKnown, h.gw.Learned = false, nil },
			must:  []model.Code{model.RouteBlackhole}},
		{name: "route table not read: a drop is only suspected", dst: "10.77.0.1", verdict: model.Unverified,
			setup: func(h *hubSpoke) { h.aks.RouteTableID = rid("rg-spoke", "routeTables", "rt-secret") },
			check: func(t *testing.T, h *hubSpoke, res Result) {
				if len(res.Suspected) != 1 || res.Suspected[0].Code != model.RouteBlackhole {
					t.Errorf("suspected %v", res.Suspected)
				}
			}},
		{name: "source subnet not read", dst: "10.0.2.5", verdict: model.Unverified,
			setup: func(h *hubSpoke) { delete(h.net.Subnets, h.aks.ID.Key()) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			if c.setup != nil {
				c.setup(h)
			}
			var dst netip.Addr
			if c.dst != "" {
				dst = ip(c.dst)
			}
			res := Trace(h.net, h.aks.ID, dst, Options{})
			if res.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s\nfindings %v\ngaps %v\npath %q\nreturn %q", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Path(), res.Return.Note)
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
			if c.verdict == model.Unreachable && len(res.Findings) == 0 {
				t.Errorf("unreachable without a finding")
			}
			if len(res.Findings) > 0 && c.check == nil && len(c.must) > 0 && res.Findings[0].Code != c.must[0] {
				t.Errorf("first finding %s, want %s", res.Findings[0].Code, c.must[0])
			}
			for _, f := range res.Findings {
				if f.Resource.IsZero() || f.Message == "" {
					t.Errorf("finding %s lacks resource or message", f.Code)
				}
			}
			if c.check != nil && !t.Failed() {
				c.check(t, h, res)
			}
		})
	}
}

// A reply from on-premises crossing into the spoke without gateway transit
// (the forward path went through the hub NVA) is forwarded traffic for the
// spoke's peering.
func TestGatewayReplyWithoutTransitIsForwardedTraffic(t *testing.T) {
	for _, allow := range []bool{true, false} {
		h := newHubSpoke()
		h.spokeToHub.AllowForwardedTraffic = allow
		h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("onprem-via-nva", "192.168.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
		h.attach(h.gwSubnet, h.routeTable("rg-hub", "rt-gw", false, udr("spoke", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4")))
		h.gw.Advertised[ip("192.168.255.1")] = append(h.gw.Advertised[ip("192.168.255.1")], model.GatewayRoute{Prefix: pfx("10.1.0.0/16")})
		res := Trace(h.net, h.aks.ID, ip("192.168.10.20"), Options{})
		want := model.Reachable
		if !allow {
			want = model.Unreachable
		}
		if res.Verdict != want {
			t.Errorf("allowForwardedTraffic %v: verdict %s, findings %v", allow, res.Verdict, res.Findings)
		}
	}
	// With transit the reply crosses under gateway transit, whatever the flag.
	h := newHubSpoke()
	h.useTransit()
	h.spokeToHub.AllowForwardedTraffic = false
	if res := Trace(h.net, h.aks.ID, ip("192.168.10.20"), Options{}); res.Verdict != model.Reachable {
		t.Errorf("transit: verdict %s, findings %v", res.Verdict, res.Findings)
	}
}

func TestTraceFromSourceAndUnknownSource(t *testing.T) {
	h := newHubSpoke()
	hubVM(h)
	e := NewEngine(h.net, Options{})
	if res := e.TraceFrom(h.aks.ID, ip("10.1.0.77"), ip("10.0.5.4")); res.Source != ip("10.1.0.77") || res.Verdict != model.Reachable ||
		res.Return.Hops[0].Text != "subnet vnet-hub/snet-vm → route 10.1.0.0/16 VNetPeering (peering hub-to-spoke) → vnet-spoke/snet-aks (10.1.0.77)" {
		t.Errorf("source %s verdict %s return %+v", res.Source, res.Verdict, res.Return.Hops)
	}
	h.aks.Prefixes = nil
	if res := Trace(h.net, h.aks.ID, ip("10.0.5.4"), Options{}); res.Verdict != model.Unverified {
		t.Errorf("unknown node address: verdict %s", res.Verdict)
	}
}

// An Engine is shared by the pools × hostnames of one verification.
func TestEngineConcurrentUse(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	_, app, _ := withSpoke2(h)
	viaNVA(h, app)
	e := NewEngine(h.net, Options{})
	done := make(chan model.Verdict)
	dsts := []string{"10.0.2.5", "10.2.1.4", "192.168.10.20", "10.0.2.6"}
	for i := 0; i < 16; i++ {
		go func(d string) { done <- e.Trace(h.aks.ID, ip(d)).Verdict }(dsts[i%len(dsts)])
	}
	for i := 0; i < 16; i++ {
		if v := <-done; v != model.Reachable {
			t.Errorf("verdict %s", v)
		}
	}
}
