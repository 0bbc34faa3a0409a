// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestUnmodelledSettingsUnverifyTheirPaths: a setting the provider does
// not evaluate makes the paths through its resource unverified, never
// reachable; paths that do not go through it are untouched, and an error
// still decides its path.
func TestUnmodelledSettingsUnverifyTheirPaths(t *testing.T) {
	setting := func(res model.ResourceID) []model.UnmodelledSetting {
		return []model.UnmodelledSetting{{Resource: res, Property: "properties.localDNSProfile", Value: "mode Required", Why: "LocalDNS answers the node's queries"}}
	}
	tests := []struct {
		name   string
		edit   func(f *model.Facts)
		system model.Verdict
		user   model.Verdict
	}{
		{"none", func(*model.Facts) {}, model.Reachable, model.Reachable},
		{"on the user pool only", func(f *model.Facts) { f.Pools[1].Unmodelled = setting(clusterID + "/agentPools/user") }, model.Reachable, model.Unverified},
		{"on the cluster", func(f *model.Facts) { f.Cluster.Unmodelled = setting(clusterID) }, model.Unverified, model.Unverified},
		{"on the node VNet", func(f *model.Facts) { f.Network.VNet(spokeID).Unmodelled = setting(spokeID) }, model.Unverified, model.Unverified},
		{"on a subnet no path uses", func(f *model.Facts) {
			f.Network.Subnet(hubID + "/subnets/snet-dns-in").Unmodelled = setting(hubID + "/subnets/snet-dns-in")
		}, model.Reachable, model.Reachable},
		{"an error still decides", func(f *model.Facts) {
			f.Pools[1].Unmodelled = setting(clusterID + "/agentPools/user")
			f.Registry.PrivateEndpointConnections[0].Status = "Rejected"
			f.Network.PrivateEndpoints[peID.Key()].Connections[0].Status = "Rejected"
		}, model.Unreachable, model.Unreachable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			tc.edit(&f)
			res := verifyFake(t, f, nil)
			if got := pathOf(t, res, "system", loginHost).Verdict; got != tc.system {
				t.Errorf("system: %s, want %s (codes %v)", got, tc.system, codesOf(res))
			}
			if got := pathOf(t, res, "user", loginHost).Verdict; got != tc.user {
				t.Errorf("user: %s, want %s (codes %v)", got, tc.user, codesOf(res))
			}
			if tc.user == model.Unverified {
				requireCodes(t, res, model.CoverageFeatureUnmodelled)
				fs := findingsWith(res, model.CoverageFeatureUnmodelled)
				requireContains(t, fs[0].Message, "properties.localDNSProfile = mode Required")
			}
		})
	}
}

// TestNetworkUnmodelledSettingsFollowThePath: a network resource's
// unmodelled setting unverifies exactly the paths through it: a node's
// interface only its pool's paths, the private endpoint's interface and
// the peering crossed (either side) every path to the endpoint; an
// interface, a route table or a firewall policy no path goes through
// leaves every path reachable.
func TestNetworkUnmodelledSettingsFollowThePath(t *testing.T) {
	setting := func(res model.ResourceID, prop string) []model.UnmodelledSetting {
		return []model.UnmodelledSetting{{Resource: res, Property: prop, Value: "true", Why: "it can change the pull"}}
	}
	nvaNICID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
	rtID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/routeTables/rt-pe")
	fwID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-other")
	polID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-other")
	peering := func(f *model.Facts, vnet model.ResourceID) *model.Peering { return f.Network.VNet(vnet).Peerings[0] }
	tests := []struct {
		name   string
		edit   func(f *model.Facts) model.ResourceID
		system model.Verdict
		user   model.Verdict
	}{
		{"on a system node's interface", func(f *model.Facts) model.ResourceID {
			nic := f.Pools[0].NICs[1]
			nic.Unmodelled = setting(nic.ID, "properties.disableTcpStateTracking")
			return nic.ID
		}, model.Unverified, model.Reachable},
		{"on the private endpoint's interface", func(f *model.Facts) model.ResourceID {
			f.Network.NIC(peNICID).Unmodelled = setting(peNICID, "properties.disableTcpStateTracking")
			return peNICID
		}, model.Unverified, model.Unverified},
		{"on the peering crossed", func(f *model.Facts) model.ResourceID {
			p := peering(f, spokeID)
			p.Unmodelled = setting(p.ID, "properties.enableOnlyIPv6Peering")
			return p.ID
		}, model.Unverified, model.Unverified},
		{"on the peering the replies cross", func(f *model.Facts) model.ResourceID {
			p := peering(f, hubID)
			p.Unmodelled = setting(p.ID, "properties.enableOnlyIPv6Peering")
			return p.ID
		}, model.Unverified, model.Unverified},
		{"on the endpoint subnet's route table", func(f *model.Facts) model.ResourceID {
			f.Network.Subnet(peSubnetID).RouteTableID = rtID
			f.Network.RouteTables[rtID.Key()] = &model.RouteTable{ID: rtID, Name: "rt-pe", Unmodelled: setting(rtID, "properties.routes[0].properties.hasBgpOverride")}
			return rtID
		}, model.Unverified, model.Unverified},
		{"on an interface no path uses", func(f *model.Facts) model.ResourceID {
			f.Network.NICs[nvaNICID.Key()] = &model.NIC{ID: nvaNICID, Name: "nic-vm-nva", SubnetID: hubID + "/subnets/snet-nva", PrivateIPs: ips("10.0.1.4"),
				Unmodelled: setting(nvaNICID, "properties.disableTcpStateTracking")}
			return ""
		}, model.Reachable, model.Reachable},
		{"on a route table of a subnet no path uses", func(f *model.Facts) model.ResourceID {
			f.Network.Subnet(hubID + "/subnets/snet-dns-in").RouteTableID = rtID
			f.Network.RouteTables[rtID.Key()] = &model.RouteTable{ID: rtID, Name: "rt-pe", Unmodelled: setting(rtID, "properties.routes[0].properties.hasBgpOverride")}
			return ""
		}, model.Reachable, model.Reachable},
		{"on the policy of a firewall no path crosses", func(f *model.Facts) model.ResourceID {
			f.Network.Firewalls[fwID.Key()] = &model.AzureFirewall{ID: fwID, Name: "fw-other", PolicyID: polID}
			f.Network.FirewallPolicies[polID.Key()] = &model.FirewallPolicy{ID: polID, Name: "fwpol-other", Unmodelled: setting(polID, "properties.intrusionDetection")}
			return ""
		}, model.Reachable, model.Reachable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			if f.Network.RouteTables == nil {
				f.Network.RouteTables = map[string]*model.RouteTable{}
			}
			if f.Network.Firewalls == nil {
				f.Network.Firewalls = map[string]*model.AzureFirewall{}
			}
			if f.Network.FirewallPolicies == nil {
				f.Network.FirewallPolicies = map[string]*model.FirewallPolicy{}
			}
			res := tc.edit(&f)
			// The route engine's answer for the endpoint's addresses: across
			// the spoke's peering to the private endpoint in snet-pe.
			toPE := RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → peering spoke-to-hub → private endpoint pe-acr"},
				Steps: []model.Hop{
					{Kind: model.HopPeering, Name: "spoke-to-hub", ResourceID: peering(&f, spokeID).ID, From: aksSubnetID, Label: "peering spoke-to-hub"},
					{Kind: model.HopPrivateEndpoint, Name: "pe-acr", ResourceID: peID, SubnetID: peSubnetID, Label: "private endpoint pe-acr"},
				}}
			tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{netip.MustParseAddr("10.0.2.5"): toPE, netip.MustParseAddr("10.0.2.6"): toPE}}
			out := verifyFake(t, f, tr)
			if got := pathOf(t, out, "system", loginHost).Verdict; got != tc.system {
				t.Errorf("system: %s, want %s (codes %v)", got, tc.system, codesOf(out))
			}
			if got := pathOf(t, out, "user", loginHost).Verdict; got != tc.user {
				t.Errorf("user: %s, want %s (codes %v)", got, tc.user, codesOf(out))
			}
			fs := findingsWith(out, model.CoverageFeatureUnmodelled)
			if res.IsZero() {
				if len(fs) != 0 {
					t.Errorf("COVERAGE_FEATURE_UNMODELLED on a resource no path uses: %v", fs[0].Message)
				}
				return
			}
			if len(fs) == 0 {
				t.Fatal("no COVERAGE_FEATURE_UNMODELLED")
			}
			for _, x := range fs {
				if !x.ResourceID.Equal(res) {
					t.Errorf("finding on %s, want %s", x.ResourceID, res)
				}
			}
		})
	}
}
