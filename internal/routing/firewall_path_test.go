package routing

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// withFirewall adds AzureFirewallSubnet 10.0.4.0/26 to the hub, holding
// Azure Firewall fw-hub at 10.0.4.4 (listed by the subnet, read), and
// returns the subnet and the firewall.
func withFirewall(h *hubSpoke) (*model.Subnet, *model.AzureFirewall) {
	s := h.subnet(h.hub, "AzureFirewallSubnet", "10.0.4.0/26")
	fw := &model.AzureFirewall{ID: rid("rg-hub", "azureFirewalls", "fw-hub"), Name: "fw-hub", PrivateIPs: []netip.Addr{ip("10.0.4.4")}, SubnetIDs: []model.ResourceID{s.ID}}
	s.IPConfigurationIDs = []model.ResourceID{fw.ID + "/azureFirewallIpConfigurations/ipconfig1"}
	s.IPConfigurationsRead = true
	h.net.AddFirewall(fw)
	return s, fw
}

func TestNextHopAbsent(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		verdict model.Verdict
		absent  bool
	}{
		{name: "running firewall holds the address", verdict: model.Reachable,
			setup: func(h *hubSpoke) { withFirewall(h) }},
		{name: "stopped firewall: the subnet lists no ip configuration", verdict: model.Unreachable, absent: true,
			setup: func(h *hubSpoke) {
				s, fw := withFirewall(h)
				s.IPConfigurationIDs, fw.PrivateIPs = nil, nil
			}},
		{name: "the subnet lists only a firewall read with another address", verdict: model.Unreachable, absent: true,
			setup: func(h *hubSpoke) {
				_, fw := withFirewall(h)
				fw.PrivateIPs = []netip.Addr{ip("10.0.4.5")}
			}},
		{name: "the firewall the subnet lists was not read: not concluded", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				_, fw := withFirewall(h)
				delete(h.net.Firewalls, fw.ID.Key())
			}},
		{name: "a subnet whose answer was not read is never taken as empty", verdict: model.Reachable,
			setup: func(h *hubSpoke) {
				s, fw := withFirewall(h)
				s.IPConfigurationIDs, s.IPConfigurationsRead, fw.PrivateIPs = nil, false, nil
			}},
		{name: "a load balancer frontend may hold it: not concluded", verdict: model.Unverified,
			setup: func(h *hubSpoke) {
				s := h.subnet(h.hub, "snet-ilb", "10.0.4.0/26")
				s.IPConfigurationIDs = []model.ResourceID{rid("rg-hub", "loadBalancers", "ilb") + "/frontendIPConfigurations/fe"}
				s.IPConfigurationsRead = true
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			_, app, _ := withSpoke2(h)
			c.setup(h)
			h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			h.attach(app, h.routeTable("rg-spoke2", "rt-app", false, udr("fw", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			res := Trace(h.net, h.aks.ID, ip("10.2.1.4"), Options{})
			if res.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s: %v %v", res.Verdict, c.verdict, res.Findings, res.Gaps)
			}
			got := slices.Contains(codes(res.Findings), model.RouteNextHopAbsent)
			if got != c.absent {
				t.Errorf("ROUTE_NEXT_HOP_ABSENT %v, want %v: %v", got, c.absent, res.Findings)
			}
			if c.absent && !strings.Contains(res.Findings[0].Message, "10.0.4.4") {
				t.Errorf("message does not name the next hop: %s", res.Findings[0].Message)
			}
		})
	}
}

// peInSpoke2 adds private endpoint pe-spoke2 (10.2.2.5) in spoke2,
// behind the firewall: the node subnet sends 10.2.0.0/16 to 10.0.4.4.
func peInSpoke2(h *hubSpoke) {
	_, _, _ = withSpoke2(h)
	withFirewall(h)
	s2 := h.net.VNet(rid("rg-spoke2", "virtualNetworks", "vnet-spoke2"))
	peSub := h.subnet(s2, "snet-pe", "10.2.2.0/24")
	peSub.PrivateEndpointNetworkPolicies = "Enabled" // the UDR overrides the endpoint's /32 route
	h.privateEndpoint("rg-spoke2", "pe-spoke2", peSub, "10.2.2.5")
	h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
}

func natAll(n SourceNAT) NATFunc {
	return func(Appliance) (SourceNAT, string) { return n, "as the test says" }
}

func TestReturnWithNAT(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(h *hubSpoke)
		dst     string
		nat     NATFunc
		verdict model.Verdict
		code    model.Code
		say     string
	}{
		{name: "private endpoint, nothing known of the appliance: unverified as before", setup: peInSpoke2, dst: "10.2.2.5",
			verdict: model.Unverified, code: model.ReturnRouteUnverified},
		{name: "private endpoint, the firewall translates: symmetric", setup: peInSpoke2, dst: "10.2.2.5",
			nat: natAll(NATTranslated), verdict: model.Reachable},
		{name: "private endpoint, the firewall keeps the node address: asymmetric, and says what fixes it", setup: peInSpoke2, dst: "10.2.2.5",
			nat: natAll(NATNone), verdict: model.Unreachable, code: model.ReturnRouteAsymmetric, say: "application rule"},
		{name: "private endpoint, translation unknown: unverified", setup: peInSpoke2, dst: "10.2.2.5",
			nat: natAll(NATUnknown), verdict: model.Unverified, code: model.ReturnRouteUnverified},
		{name: "VM in spoke2 without a route back through the firewall, translated: symmetric",
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			}, dst: "10.2.1.4", nat: natAll(NATTranslated), verdict: model.Reachable},
		{name: "VM in spoke2 with no route back at all, not translated: return route missing",
			setup: func(h *hubSpoke) {
				withSpoke2(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			}, dst: "10.2.1.4", nat: natAll(NATNone), verdict: model.Unreachable, code: model.ReturnRouteMissing},
		{name: "VM in the hub whose replies go straight back over the peering, not translated: asymmetric, and says what fixes it",
			setup: func(h *hubSpoke) {
				hubVM(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.0.5.0/24", model.NextHopVirtualAppliance, "10.0.4.4")))
			}, dst: "10.0.5.4", nat: natAll(NATNone), verdict: model.Unreachable, code: model.ReturnRouteAsymmetric, say: "SNAT"},
		{name: "VM in the hub whose replies go straight back over the peering, translated: symmetric",
			setup: func(h *hubSpoke) {
				hubVM(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.0.5.0/24", model.NextHopVirtualAppliance, "10.0.4.4")))
			}, dst: "10.0.5.4", nat: natAll(NATTranslated), verdict: model.Reachable},
		{name: "VM in the hub, translation unknown: unverified, not asymmetric",
			setup: func(h *hubSpoke) {
				hubVM(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.0.5.0/24", model.NextHopVirtualAppliance, "10.0.4.4")))
			}, dst: "10.0.5.4", nat: natAll(NATUnknown), verdict: model.Unverified, code: model.ReturnRouteUnverified},
		{name: "VM in spoke2, translated, but spoke2 cannot reach the firewall's address: return route missing",
			setup: func(h *hubSpoke) {
				_, app, _ := withSpoke2(h)
				withFirewall(h)
				h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("fw", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
				h.attach(app, h.routeTable("rg-spoke2", "rt-app", false, udr("drop-hub", "10.0.4.0/24", model.NextHopNone, "")))
			}, dst: "10.2.1.4", nat: natAll(NATTranslated), verdict: model.Unreachable, code: model.ReturnRouteMissing},
		{name: "two firewalls in a row, both translate: replies go to the second, which returns them to the first: symmetric",
			setup: func(h *hubSpoke) { fwChain(h, false) }, dst: "10.2.2.5", nat: natAll(NATTranslated), verdict: model.Reachable},
		{name: "two firewalls in a row, both translate, but the second cannot reach the first's address: return route missing",
			setup: func(h *hubSpoke) { fwChain(h, true) }, dst: "10.2.2.5", nat: natAll(NATTranslated), verdict: model.Unreachable, code: model.ReturnRouteMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHubSpoke()
			c.setup(h)
			e := NewEngine(h.net, Options{})
			res := e.ReturnWithNAT(e.Trace(h.aks.ID, ip(c.dst)), c.nat)
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: %v %v (return %q)", res.Verdict, c.verdict, res.Findings, res.Gaps, res.Return.Note)
			}
			if c.code != "" && !slices.Contains(codes(res.Findings), c.code) {
				t.Errorf("missing %s in %v", c.code, res.Findings)
			}
			if c.say != "" {
				found := false
				for _, f := range res.Findings {
					found = found || strings.Contains(f.Message, c.say)
				}
				if !found {
					t.Errorf("no finding says %q: %v", c.say, res.Findings)
				}
			}
		})
	}
}

// fwChain is peInSpoke2 with a second Azure Firewall, fw-two (10.2.4.4), in
// spoke2's AzureFirewallSubnet: the hub firewall's subnet sends spoke2 to
// it. spoke2 is peered with the hub only, so fw-two reaches fw-hub's
// address (not the node's); dropHub takes that route away.
func fwChain(h *hubSpoke, dropHub bool) {
	peInSpoke2(h)
	s2 := h.net.VNet(rid("rg-spoke2", "virtualNetworks", "vnet-spoke2"))
	fs := h.subnet(s2, "AzureFirewallSubnet", "10.2.4.0/26")
	fw := &model.AzureFirewall{ID: rid("rg-spoke2", "azureFirewalls", "fw-two"), Name: "fw-two", PrivateIPs: []netip.Addr{ip("10.2.4.4")}, SubnetIDs: []model.ResourceID{fs.ID}}
	fs.IPConfigurationIDs = []model.ResourceID{fw.ID + "/azureFirewallIpConfigurations/ipconfig1"}
	fs.IPConfigurationsRead = true
	h.net.AddFirewall(fw)
	hubFw := h.net.Subnet(h.hub.ID + "/subnets/AzureFirewallSubnet")
	h.attach(hubFw, h.routeTable("rg-hub", "rt-fw", false, udr("spoke2-via-fw-two", "10.2.0.0/16", model.NextHopVirtualAppliance, "10.2.4.4")))
	if dropHub {
		h.attach(fs, h.routeTable("rg-spoke2", "rt-fw-two", false, udr("drop-hub", "10.0.4.0/24", model.NextHopNone, "")))
	}
}
