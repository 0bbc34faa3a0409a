package gather

import (
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// TestHubConnectionStaticRoutesConfig: propagateStaticRoutes (true unless
// set false) and vnetLocalRouteOverrideCriteria (Contains unless Equal)
// of routingConfiguration.vnetRoutes.staticRoutesConfig.
func TestHubConnectionStaticRoutesConfig(t *testing.T) {
	for _, tc := range []struct {
		name         string
		cfg          string
		notPropagate bool
		bypass       bool
	}{
		{"absent", ``, false, false},
		{"defaults", `,"staticRoutesConfig":{"propagateStaticRoutes":true,"vnetLocalRouteOverrideCriteria":"Contains"}`, false, false},
		{"not propagated", `,"staticRoutesConfig":{"propagateStaticRoutes":false}`, true, false},
		{"equal", `,"staticRoutesConfig":{"vnetLocalRouteOverrideCriteria":"Equal"}`, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/h/hubVirtualNetworkConnections/c","name":"c",
				"properties":{"routingConfiguration":{"vnetRoutes":{"staticRoutes":[{"name":"nva","addressPrefixes":["10.3.0.0/16"],"nextHopIpAddress":"10.2.3.4"}]` + tc.cfg + `}}}}`
			var c armnetwork.HubVirtualNetworkConnection
			if err := json.Unmarshal([]byte(body), &c); err != nil {
				t.Fatal(err)
			}
			got, err := hubConnectionFromSDK(&c)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.StaticRoutes) != 1 || got.StaticRoutes[0].NextHopIP != ip("10.2.3.4") {
				t.Fatalf("static routes %+v", got.StaticRoutes)
			}
			if got.StaticRoutesNotPropagated != tc.notPropagate || got.BypassStaticRoutesInVNet != tc.bypass {
				t.Fatalf("not propagated %v bypass %v, want %v %v", got.StaticRoutesNotPropagated, got.BypassStaticRoutesInVNet, tc.notPropagate, tc.bypass)
			}
		})
	}
}

// TestRoutingIntentPolicyWithoutNextHop: a routing policy that names no
// next hop (a snapshot written by hand) is listed as such, never read as
// no policy; one that names its next hop is the hub's private or Internet
// next hop.
func TestRoutingIntentPolicyWithoutNextHop(t *testing.T) {
	const fw = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/azureFirewalls/fw"
	body := `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/h/routingIntent/ri","properties":{"routingPolicies":[
		{"destinations":["PrivateTraffic"]},
		{"name":"InternetTrafficPolicy","destinations":["Internet"],"nextHop":"` + fw + `"}]}}`
	var ri armnetwork.RoutingIntent
	if err := json.Unmarshal([]byte(body), &ri); err != nil {
		t.Fatal(err)
	}
	got := routingIntentFromSDK(&ri)
	if len(got.NoNextHop) != 1 || got.NoNextHop[0] != "PrivateTraffic" || !got.PrivateNextHop.IsZero() {
		t.Errorf("policy without next hop: NoNextHop %v private %q", got.NoNextHop, got.PrivateNextHop)
	}
	if string(got.InternetNextHop) != fw || len(got.UnknownPolicies) != 0 {
		t.Errorf("Internet policy with its next hop: %q unknown %v", got.InternetNextHop, got.UnknownPolicies)
	}
}

// TestHubConnectionInternetSecurityUnrecorded: a connection without
// enableInternetSecurity is marked unrecorded (Azure documents no
// default); a recorded false or true is not.
func TestHubConnectionInternetSecurityUnrecorded(t *testing.T) {
	for _, tc := range []struct {
		field               string
		enabled, unrecorded bool
	}{{``, false, true}, {`,"enableInternetSecurity":false`, false, false}, {`,"enableInternetSecurity":true`, true, false}} {
		body := `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/h/hubVirtualNetworkConnections/c","name":"c","properties":{"provisioningState":"Succeeded"` + tc.field + `}}`
		var c armnetwork.HubVirtualNetworkConnection
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			t.Fatal(err)
		}
		got, err := hubConnectionFromSDK(&c)
		if err != nil {
			t.Fatal(err)
		}
		if got.EnableInternetSecurity != tc.enabled || got.InternetSecurityUnrecorded != tc.unrecorded {
			t.Errorf("%q: enabled %v unrecorded %v, want %v %v", tc.field, got.EnableInternetSecurity, got.InternetSecurityUnrecorded, tc.enabled, tc.unrecorded)
		}
	}
}
