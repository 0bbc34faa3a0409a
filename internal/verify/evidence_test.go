// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Missing evidence never becomes reachable: every path that depended on it
// is unverified, and the finding names the resource and the permission.
func TestEvidence(t *testing.T) {
	deniedSubnet := model.Gap{ResourceID: aksSubnetID, Kind: model.GapPermissionDenied,
		Permission: "Microsoft.Network/virtualNetworks/subnets/read", Detail: "HTTP 403 AuthorizationFailed"}
	tests := []factsCase{
		{
			name: "node subnet refused",
			mutate: func(f *model.Facts) {
				delete(f.Network.Subnets, aksSubnetID.Key())
				f.Network.Gaps.Add(deniedSubnet)
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingsWith(res, model.EvidencePermissionDenied)
				if len(e) != 2 || e[0].Endpoint != "" || !e[0].ResourceID.Equal(aksSubnetID) {
					t.Fatalf("want one finding per pool on the subnet, got %+v", e)
				}
				requireContains(t, e[0].Message, "Microsoft.Network/virtualNetworks/subnets/read", "snet-aks", "unverified")
				requireContains(t, e[0].Remediation, "Microsoft.Network/virtualNetworks/subnets/read")
			},
		},
		{
			name: "node VNet refused: the subnet's absence is explained by the VNet's gap",
			mutate: func(f *model.Facts) {
				delete(f.Network.VNets, spokeID.Key())
				delete(f.Network.Subnets, aksSubnetID.Key())
				f.Network.Gaps.Add(model.Gap{ResourceID: spokeID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"})
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				for _, e := range res.Findings {
					if e.Code == model.EvidencePermissionDenied && (e.NodePool == "" || !e.ResourceID.Equal(spokeID)) {
						t.Errorf("finding %+v, want it on each pool, naming the VNet", e)
					}
				}
			},
		},
		{
			name:   "a pool without subnet",
			mutate: func(f *model.Facts) { f.Pools[1].SubnetID = "" },
			want:   []model.Code{model.EvidenceNotFound}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Reachable {
					t.Errorf("the other pool is %s", p.Verdict)
				}
			},
		},
		{
			name:   "node subnet absent without a recorded gap",
			mutate: func(f *model.Facts) { delete(f.Network.Subnets, aksSubnetID.Key()) },
			want:   []model.Code{model.EvidenceNotFound}, verdict: model.Unverified,
		},
		{
			name: "a gap no rule consumed is reported once, without a pool",
			mutate: func(f *model.Facts) {
				f.Gaps.Add(model.Gap{ResourceID: hubGatewayID, Kind: model.GapUnavailable, Detail: "HTTP 429 after retries"})
			},
			want: []model.Code{model.EvidenceUnavailable}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingsWith(res, model.EvidenceUnavailable)
				if len(e) != 1 || e[0].NodePool != "" {
					t.Errorf("findings %+v", e)
				}
				for _, p := range res.Paths {
					if p.Verdict != model.Reachable {
						t.Errorf("path %s × %s is %s; the gap was not on it", p.NodePool, p.Host, p.Verdict)
					}
				}
			},
		},
		{
			name: "a gap the route engine depended on lands on the path",
			mutate: func(f *model.Facts) {
				f.Network.Gaps.Add(model.Gap{ResourceID: hubID, Kind: model.GapNotFound, Detail: "HTTP 404"})
			},
			tracer: &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.6"): {Gaps: []model.Gap{{ResourceID: hubID}}}}},
			want:   []model.Code{model.EvidenceNotFound}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingsWith(res, model.EvidenceNotFound)
				if len(e) != 2 || e[0].Endpoint != dataHostWE {
					t.Fatalf("want one finding per pool on the data endpoint, got %+v", e)
				}
				requireContains(t, e[0].Message, "HTTP 404", "route from the node subnet")
				if p := pathOf(t, res, "user", dataHostWE); p.Verdict != model.Unverified {
					t.Errorf("path %s", p.Verdict)
				}
				if p := pathOf(t, res, "user", loginHost); p.Verdict != model.Reachable {
					t.Errorf("login path %s", p.Verdict)
				}
			},
		},
		{
			name: "a private endpoint the registry names but nobody could read",
			mutate: func(f *model.Facts) {
				f.Registry.PrivateEndpointConnections = append(f.Registry.PrivateEndpointConnections,
					model.RegistryPEConnection{ID: registryID + "/privateEndpointConnections/other", PrivateEndpointID: peID + "-other", Status: "Approved"})
				f.Gaps.Add(model.Gap{ResourceID: peID + "-other", Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/privateEndpoints/read"})
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
		},
	}
	runFactsCases(t, tests)
}

func TestGapFindingKinds(t *testing.T) {
	tests := []struct {
		kind model.GapKind
		code model.Code
		want string
	}{
		{model.GapPermissionDenied, model.EvidencePermissionDenied, "Microsoft.Network/virtualNetworks/read"},
		{model.GapNotFound, model.EvidenceNotFound, "not found"},
		{model.GapUnavailable, model.EvidenceUnavailable, "kept failing"},
	}
	for _, tt := range tests {
		f := gapFinding(model.Gap{ResourceID: hubID, Kind: tt.kind, Permission: "Microsoft.Network/virtualNetworks/read"}, "system", loginHost, "the hub")
		if f.Code != tt.code || f.NodePool != "system" || f.Endpoint != loginHost || !f.ResourceID.Equal(hubID) {
			t.Errorf("%s: finding %+v", tt.kind, f)
		}
		requireContains(t, f.Message, tt.want, "vnet-hub", "unverified")
	}
}
