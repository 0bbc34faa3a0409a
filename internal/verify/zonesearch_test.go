// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const graphQuery = model.ResourceID("/providers/Microsoft.ResourceGraph/resources")

var searchedSubs = []string{"00000000-0000-0000-0000-000000000001"}

// graphAnswered: Resource Graph returned the zone links to the spoke in
// every subscription the identity can read.
func graphAnswered(f *model.Facts) {
	f.DNS.LinkSearch = model.ZoneLinkSearch{Query: graphQuery, Everywhere: map[string]bool{spokeID.Key(): true}, Subscriptions: searchedSubs}
}

// graphRefused: the Resource Graph query was refused.
func graphRefused(f *model.Facts) {
	f.DNS.LinkSearch = model.ZoneLinkSearch{Query: graphQuery, Subscriptions: searchedSubs}
	f.Gaps.Add(model.Gap{ResourceID: graphQuery, Kind: model.GapPermissionDenied, Permission: "Microsoft.ResourceGraph/resources/read"})
}

// subscriptionsNamed: zone_subscription_ids replaced Resource Graph.
func subscriptionsNamed(f *model.Facts) {
	f.DNS.LinkSearch = model.ZoneLinkSearch{Declared: true, Subscriptions: append(searchedSubs, "00000000-0000-0000-0000-0000000000dd")}
}

func noZone(f *model.Facts) { delete(f.DNS.Zones, zoneID.Key()) }

// A zone that was not found is "not linked" only when every subscription
// was searched for zones linked to the VNet.
func TestZoneSearchCompleteness(t *testing.T) {
	tests := []struct {
		name    string
		mutate  []func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
		check   func(t *testing.T, res Result)
	}{
		{
			name:   "Resource Graph searched everywhere, no zone: DNS_ZONE_NOT_LINKED on the VNet",
			mutate: []func(*model.Facts){graphAnswered, noZone}, want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.DNSZoneNotLinked)[0]
				if !f.ResourceID.Equal(spokeID) {
					t.Errorf("resource %s", f.ResourceID)
				}
				requireContains(t, f.Message, "in any subscription the identity can read (Azure Resource Graph)")
			},
		},
		{
			name:   "Resource Graph searched everywhere, zone linked only to the hub: DNS_ZONE_NOT_LINKED on the zone",
			mutate: []func(*model.Facts){graphAnswered, unlinkSpoke}, want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
		},
		{
			name:   "Resource Graph refused, no zone found: unverified by its gap, never DNS_ZONE_NOT_LINKED",
			mutate: []func(*model.Facts){graphRefused, noZone}, want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EvidencePermissionDenied)
				if len(fs) != 4 || !fs[0].ResourceID.Equal(graphQuery) || fs[0].NodePool == "" {
					t.Fatalf("want one finding per pool and host on the query, got %+v", fs)
				}
				requireContains(t, fs[0].Message, "Microsoft.ResourceGraph/resources/read", "contosoreg.privatelink.azurecr.io", "vnet-spoke", searchedSubs[0])
				requireContains(t, fs[0].Remediation, " zone_subscription_ids") // the name of the argument, not its deprecated one
				// The path goes on with the private endpoint's address.
				if p := pathOf(t, res, "system", loginHost); p.Address != "10.0.2.5" || p.Verdict != model.Unverified {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name:   "Resource Graph refused, a zone found but not linked: another subscription's zone may be linked, unverified",
			mutate: []func(*model.Facts){graphRefused, unlinkSpoke}, want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
		},
		{
			name:   "Resource Graph refused, the zone found is linked: answers, but the refusal is still reported once",
			mutate: []func(*model.Facts){graphRefused}, want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EvidencePermissionDenied)
				if len(fs) != 1 || fs[0].NodePool != "" {
					t.Fatalf("want the unused gap once, without a pool: %+v", fs)
				}
				requireContains(t, fs[0].Message, "more specific name")
				requireContains(t, fs[0].Remediation, " zone_subscription_ids") // the name of the argument, not its deprecated one
				if p := pathOf(t, res, "user", dataHostWE); p.Address != "10.0.2.6" || p.Verdict != model.Reachable {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name:   "subscriptions named, no zone there: EVIDENCE_NOT_FOUND on the VNet, not DNS_ZONE_NOT_LINKED",
			mutate: []func(*model.Facts){subscriptionsNamed, noZone}, want: []model.Code{model.EvidenceNotFound}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.EvidenceNotFound)[0]
				if !f.ResourceID.Equal(spokeID) {
					t.Errorf("resource %s", f.ResourceID)
				}
				requireContains(t, f.Message, "00000000-0000-0000-0000-0000000000dd", "because zone_subscription_ids is set", "unverified")
				requireContains(t, f.Remediation, "Add the subscription", "privatelink.azurecr.io")
			},
		},
		{
			name:   "subscriptions named, the zone there is not linked: DNS_ZONE_NOT_LINKED, saying where it looked",
			mutate: []func(*model.Facts){subscriptionsNamed, unlinkSpoke}, want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSZoneNotLinked)[0].Message, "in the subscriptions searched (00000000-0000-0000-0000-000000000001, 00000000-0000-0000-0000-0000000000dd)")
			},
		},
		{
			name: "Resource Graph found a linked zone that could not be read: unverified by that zone's gap, not DNS_ZONE_NOT_LINKED",
			mutate: []func(*model.Facts){graphAnswered, noZone, func(f *model.Facts) {
				f.DNS.LinkSearch.Unread = []model.ResourceID{zoneID}
				f.Gaps.Add(model.Gap{ResourceID: zoneID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/privateDnsZones/read"})
			}},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				if f := findingsWith(res, model.EvidencePermissionDenied)[0]; !f.ResourceID.Equal(zoneID) || f.NodePool == "" {
					t.Errorf("finding %+v", f)
				}
			},
		},
		{
			name: "an unread zone for another name changes nothing: DNS_ZONE_NOT_LINKED (negative)",
			mutate: []func(*model.Facts){graphAnswered, noZone, func(f *model.Facts) {
				other := id("/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net")
				f.DNS.LinkSearch.Unread = []model.ResourceID{other}
			}},
			want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
		},
		{
			name:   "subscriptions named, the zone there is linked: reachable",
			mutate: []func(*model.Facts){subscriptionsNamed}, verdict: model.Reachable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			for _, m := range tt.mutate {
				m(&f)
			}
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}
