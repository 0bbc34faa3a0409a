// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// nicUnreadable: pe-acr keeps its FQDNs on its NIC (customDnsConfigs empty,
// as with a DNS zone group) and reading that NIC was refused.
func nicUnreadable(f *model.Facts) {
	f.Network.PrivateEndpoint(peID).DNSConfigs = nil
	delete(f.Network.NICs, peNICID.Key())
	f.Gaps.Add(model.Gap{ResourceID: peNICID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/read"})
}

// A private endpoint whose FQDNs could not be read is missing evidence, not
// a public path: the registry's approved connection says public DNS sends
// its names to privatelink.azurecr.io, and the lookup goes on from there.
func TestUnknownPrivateEndpointFQDNs(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
		check   func(t *testing.T, res Result, tr *fakeTracer)
	}{
		{
			name:   "NIC unreadable, customDnsConfigs empty: EVIDENCE_PERMISSION_DENIED, the zone's address is traced",
			mutate: nicUnreadable, want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				for _, host := range []string{loginHost, dataHostWE} {
					p := pathOf(t, res, "system", host)
					if p.Verdict != model.Unverified {
						t.Errorf("%s: verdict %s", host, p.Verdict)
					}
					requireContains(t, p.Resolution, "CNAME contosoreg.", ".privatelink.azurecr.io (public DNS: the registry's private endpoint connection is approved")
				}
				if p := pathOf(t, res, "system", loginHost); p.Address != "10.0.2.5" {
					t.Errorf("login address %q, want the zone's record 10.0.2.5", p.Address)
				}
				fs := findingsWith(res, model.EvidencePermissionDenied)
				if len(fs) != 4 || !fs[0].ResourceID.Equal(peNICID) || fs[0].NodePool == "" || fs[0].Endpoint == "" {
					t.Fatalf("want one finding per pool and host naming the NIC, got %+v", fs)
				}
				requireContains(t, fs[0].Message, "Microsoft.Network/networkInterfaces/read", "private endpoint pe-acr serves")
				if len(tr.queries) != 4 {
					t.Errorf("traced %d flows, want the 4 paths to the zone's addresses", len(tr.queries))
				}
			},
		},
		{
			name: "private endpoint itself unreadable, connection approved: the alias is followed, unverified",
			mutate: func(f *model.Facts) {
				delete(f.Network.PrivateEndpoints, peID.Key())
				delete(f.Network.NICs, peNICID.Key())
				f.Gaps.Add(model.Gap{ResourceID: peID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/privateEndpoints/read"})
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if p := pathOf(t, res, "user", dataHostWE); p.Address != "10.0.2.6" {
					t.Errorf("data address %q, want the zone's record 10.0.2.6", p.Address)
				}
				if f := findingsWith(res, model.EvidencePermissionDenied)[0]; !f.ResourceID.Equal(peID) {
					t.Errorf("resource %s, want the private endpoint", f.ResourceID)
				}
			},
		},
		{
			name: "a second endpoint with unknown FQDNs may serve a new replica: no ENDPOINT_DATA_NOT_COVERED",
			mutate: func(f *model.Facts) {
				addReplica(f, false)
				zone(f).Records["contosoreg.northeurope.data"] = &model.RecordSet{Name: "contosoreg.northeurope.data", Type: "A", Addrs: ips("10.0.2.7")}
				ne := id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr-ne")
				neNIC := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/pe-acr-ne.nic")
				f.Network.PrivateEndpoints[ne.Key()] = &model.PrivateEndpoint{ID: ne, Name: "pe-acr-ne", SubnetID: peSubnetID, NICIDs: []model.ResourceID{neNIC},
					Connections: []model.PrivateLinkConnection{{TargetID: registryID, GroupIDs: []string{"registry"}, Status: "Approved"}}}
				f.Registry.PrivateEndpointConnections = append(f.Registry.PrivateEndpointConnections,
					model.RegistryPEConnection{ID: registryID + "/privateEndpointConnections/pe-acr-ne.conn", PrivateEndpointID: ne, Status: "Approved"})
				f.Gaps.Add(model.Gap{ResourceID: neNIC, Kind: model.GapUnavailable})
			},
			want: []model.Code{model.EvidenceUnavailable}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if p := pathOf(t, res, "system", dataHostNE); p.Address != "10.0.2.7" || p.Verdict != model.Unverified {
					t.Errorf("path %+v", p)
				}
				if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Reachable {
					t.Errorf("the data endpoint pe-acr serves is %s", p.Verdict)
				}
			},
		},
		{
			name: "unknown FQDNs and a zone not linked: DNS_ZONE_NOT_LINKED for the login server (every registry endpoint serves it), unverified for the data endpoint",
			mutate: func(f *model.Facts) {
				nicUnreadable(f)
				unlinkSpoke(f)
			},
			want: []model.Code{model.DNSZoneNotLinked, model.EvidencePermissionDenied}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				forbidCodes(t, res, model.EndpointPublicAccessDenied)
				for _, f := range findingsWith(res, model.DNSZoneNotLinked) {
					if f.Endpoint != loginHost {
						t.Errorf("DNS_ZONE_NOT_LINKED on %s, whose alias rests on the unread endpoint", f.Endpoint)
					}
				}
				if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Unverified {
					t.Errorf("data endpoint path %s", p.Verdict)
				}
			},
		},
		{
			name: "unknown FQDNs and no record for the data endpoint: whether the endpoint serves it is unknown, so no DNS_RECORD_MISSING",
			mutate: func(f *model.Facts) {
				nicUnreadable(f)
				delete(zone(f).Records, "contosoreg.westeurope.data")
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if p := pathOf(t, res, "user", dataHostWE); p.Verdict != model.Unverified || p.Address != "" {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name: "unknown FQDNs and no record for the login server: DNS_RECORD_MISSING stands (every registry endpoint serves it)",
			mutate: func(f *model.Facts) {
				nicUnreadable(f)
				delete(zone(f).Records, "contosoreg")
			},
			want: []model.Code{model.DNSRecordMissing, model.EvidencePermissionDenied}, verdict: model.Unreachable,
		},
		// Negative cases: the rule does not apply.
		{
			name: "NIC read and listing no FQDN: the endpoint serves nothing, the public answer is determined",
			mutate: func(f *model.Facts) {
				f.Network.PrivateEndpoint(peID).DNSConfigs = nil
			},
			want: []model.Code{model.EndpointPublicAccessDenied}, verdict: model.Unreachable,
		},
		{
			name: "NIC unreadable but customDnsConfigs published: the FQDNs are known, no alias from missing evidence",
			mutate: func(f *model.Facts) {
				delete(f.Network.NICs, peNICID.Key())
				f.Gaps.Add(model.Gap{ResourceID: peNICID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/read"})
			},
			// The gap no rule consumed is still reported once (the fake
			// tracer does not ask for the endpoint's /32 route).
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				p := pathOf(t, res, "system", loginHost)
				requireContains(t, p.Resolution, "CNAME contosoreg.privatelink.azurecr.io (public DNS)")
				if fs := findingsWith(res, model.EvidencePermissionDenied); len(fs) != 1 || fs[0].NodePool != "" {
					t.Errorf("want the unconsumed gap once, without a pool: %+v", fs)
				}
			},
		},
		{
			name: "unknown FQDNs but the connection is pending: ENDPOINT_PRIVATE_ENDPOINT_NOT_APPROVED, from the registry's view",
			mutate: func(f *model.Facts) {
				nicUnreadable(f)
				f.Registry.PrivateEndpointConnections[0].Status = "Pending"
			},
			want: []model.Code{model.EndpointPENotApproved, model.EvidencePermissionDenied}, verdict: model.Unreachable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
			tr := &fakeTracer{}
			res := Verify(f, tr)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			if tt.check != nil {
				tt.check(t, res, tr)
			}
		})
	}
}
