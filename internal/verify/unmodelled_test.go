// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
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
