package routing

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// "Routes added statically take precedence over dynamically learned routes
// for the same prefixes" ("About virtual hub routing"): a static route of
// the associated table for the very prefix a connection propagates there
// decides where the spoke's traffic goes.
func TestHubStaticRouteWinsOverPropagatedSamePrefix(t *testing.T) {
	f := newVWAN()
	fw := f.withFirewall()
	f.def.Routes = []model.HubRoute{{Name: "shared-via-fw", Destinations: []netip.Prefix{pfx("10.2.0.0/16")}, NextHop: f.hub.FirewallID}}
	e := NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "10.2.1.4")
	if !ok || r.Prefix != pfx("10.2.0.0/16") || r.NextHopIP != fw {
		t.Fatalf("route to the shared spoke = %+v (from hub %v), want 10.2.0.0/16 to the hub firewall %s (static route shared-via-fw)", r, ok, fw)
	}
}

// A less specific static route does not beat a propagated prefix: longest
// prefix match still applies ("Scenario: Azure Firewall - custom": the
// VNets' more specific propagated routes keep VNet-to-VNet traffic
// direct), while a destination nothing propagates follows the static route.
func TestHubStaticRouteLessSpecificLosesToPropagated(t *testing.T) {
	f := newVWAN()
	fw := f.withFirewall()
	f.def.Routes = []model.HubRoute{{Name: "private_traffic", Destinations: []netip.Prefix{pfx("10.0.0.0/8")}, NextHop: f.hub.FirewallID}}
	e := NewEngine(f.b.net, Options{})
	r, ok := hubRoute(t, e, f.aks, "10.2.1.4")
	if !ok || r.Prefix != pfx("10.2.0.0/16") || r.NextHopIP != ip("10.100.0.68") {
		t.Fatalf("route to the shared spoke = %+v (from hub %v), want the propagated 10.2.0.0/16 to the hub router", r, ok)
	}
	r, ok = hubRoute(t, e, f.aks, "10.3.0.4")
	if !ok || r.Prefix != pfx("10.0.0.0/8") || r.NextHopIP != fw {
		t.Fatalf("route to 10.3.0.4 = %+v (from hub %v), want 10.0.0.0/8 to the hub firewall %s", r, ok, fw)
	}
}

// A static route to a hub firewall that was not read still claims its
// prefix: the propagated route for the same prefix is not taken instead,
// so the destination is unverified, never reachable directly.
func TestHubStaticRouteToUnreadFirewallClaimsPrefix(t *testing.T) {
	f := newVWAN()
	f.hub.FirewallID = rid("rg-vwan", "azureFirewalls", "fw-hub-weu") // not read
	f.def.Routes = []model.HubRoute{{Name: "shared-via-fw", Destinations: []netip.Prefix{pfx("10.2.0.0/16")}, NextHop: f.hub.FirewallID}}
	e := NewEngine(f.b.net, Options{})
	if r, ok := hubRoute(t, e, f.aks, "10.2.1.4"); ok {
		t.Fatalf("the propagated route stands in for a static route to an unread firewall: %+v", r)
	}
	res := e.Trace(f.aks.ID, ip("10.2.1.4"))
	if res.Verdict == model.Reachable {
		t.Fatalf("trace through an unread hub firewall = %v, want not reachable (findings %+v gaps %+v)", res.Verdict, res.Findings, res.Gaps)
	}
	named := false
	for _, g := range res.Gaps {
		if g.ResourceID.Equal(f.hub.FirewallID) {
			named = true
		}
	}
	if !named {
		t.Fatalf("the unread firewall is not named: gaps %+v", res.Gaps)
	}
}
