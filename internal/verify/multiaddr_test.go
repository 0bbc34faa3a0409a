// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A record set with several addresses: a node may get any of them, so each
// is traced, and one failing address fails the host.
func TestEveryAddressOfARecordIsTraced(t *testing.T) {
	harborZone := id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/corp.example")
	harbor := func(addrs ...string) func(f *model.Facts) {
		return func(f *model.Facts) {
			f.Registry = nil
			f.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}}
			f.DNS.Zones[harborZone.Key()] = &model.PrivateZone{ID: harborZone, Name: "corp.example", LinksKnown: true, RecordsKnown: true,
				Links:   []model.ZoneLink{{VNetID: spokeID}},
				Records: map[string]*model.RecordSet{"harbor": {Type: "A", Addrs: ips(addrs...)}}}
		}
	}
	// secondPE adds a second approved private endpoint that serves the
	// login server at 10.0.4.5 and puts both addresses in the record.
	secondPE := func(f *model.Facts) {
		pe2 := id("/resourceGroups/rg-other/providers/Microsoft.Network/privateEndpoints/pe-acr-2")
		f.Network.PrivateEndpoints[pe2.Key()] = &model.PrivateEndpoint{ID: pe2, Name: "pe-acr-2",
			Connections: []model.PrivateLinkConnection{{TargetID: registryID, GroupIDs: []string{"registry"}, Status: "Approved"}},
			DNSConfigs:  []model.FQDNAddresses{{FQDN: loginHost, Addresses: ips("10.0.4.5")}}}
		f.Registry.PrivateEndpointConnections = append(f.Registry.PrivateEndpointConnections,
			model.RegistryPEConnection{ID: registryID + "/privateEndpointConnections/pe-acr-2.conn", PrivateEndpointID: pe2, Status: "Approved"})
		zone(f).Records["contosoreg"].Addrs = ips("10.0.2.5", "10.0.4.5")
	}
	tests := []struct {
		name    string
		mutate  []func(f *model.Facts)
		tracer  *fakeTracer
		want    []model.Code
		verdict model.Verdict
		check   func(t *testing.T, res Result, tr *fakeTracer)
	}{
		{
			name: "both addresses routable: reachable, both traced and shown", mutate: []func(*model.Facts){harbor("192.168.10.21", "192.168.10.20")},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				p := pathOf(t, res, "system", "harbor.corp.example")
				if p.Address != "192.168.10.20, 192.168.10.21" {
					t.Errorf("address %q", p.Address)
				}
				want := []string{"192.168.10.20: subnet vnet-spoke/snet-aks → 192.168.10.20", "192.168.10.21: subnet vnet-spoke/snet-aks → 192.168.10.21"}
				if !slices.Equal(p.Hops, want) {
					t.Errorf("hops %q, want %q", p.Hops, want)
				}
				requireTraced(t, tr, "192.168.10.20", "192.168.10.21")
			},
		},
		{
			name: "the second address is dropped: the host fails although the first works", mutate: []func(*model.Facts){harbor("192.168.10.20", "192.168.10.21")},
			tracer:  &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("192.168.10.21"): blackhole("192.168.10.21")}},
			want:    []model.Code{model.RouteBlackhole},
			verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				fs := findingsWith(res, model.RouteBlackhole)
				if len(fs) == 0 {
					t.Fatal("no ROUTE_BLACKHOLE")
				}
				requireContains(t, fs[0].Message, "harbor.corp.example (192.168.10.21, one of 192.168.10.20, 192.168.10.21 the name resolves to")
				if p := pathOf(t, res, "user", "harbor.corp.example"); p.Verdict != model.Unreachable {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name:   "one address is not the registry's private endpoint: DNS_RECORD_MISMATCH naming it",
			mutate: []func(*model.Facts){func(f *model.Facts) { zone(f).Records["contosoreg"].Addrs = ips("10.0.2.5", "10.0.2.9") }},
			want:   []model.Code{model.DNSRecordMismatch}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				fs := findingsWith(res, model.DNSRecordMismatch)
				if len(fs) == 0 {
					t.Fatal("no DNS_RECORD_MISMATCH")
				}
				f := fs[0]
				requireContains(t, f.Message, "to 10.0.2.5, 10.0.2.9", "at 10.0.2.5 only", "may get 10.0.2.9")
				requireContains(t, f.Remediation, "to 10.0.2.5")
				for _, q := range tr.queries {
					if q.Port == 443 && (q.Dest == ip("10.0.2.9") || q.Dest == ip("10.0.2.5")) {
						t.Errorf("traced %s although the name does not resolve right", q.Dest)
					}
				}
			},
		},
		{
			name: "two private endpoints in the record, both routable", mutate: []func(*model.Facts){secondPE},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				requireTraced(t, tr, "10.0.2.5", "10.0.4.5")
			},
		},
		{
			name: "two private endpoints in the record, the second not routable from the nodes", mutate: []func(*model.Facts){secondPE},
			tracer:  &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.4.5"): blackhole("10.0.4.5")}},
			want:    []model.Code{model.RouteBlackhole},
			verdict: model.Unreachable,
		},
		{
			name: "two private endpoints in the record, the second not approved", mutate: []func(*model.Facts){secondPE, func(f *model.Facts) {
				f.Registry.PrivateEndpointConnections[1].Status = "Pending"
			}},
			want: []model.Code{model.EndpointPENotApproved}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if fs := findingsWith(res, model.EndpointPENotApproved); len(fs) == 0 || !fs[0].ResourceID.Equal(registryID+"/privateEndpointConnections/pe-acr-2.conn") {
					t.Errorf("findings %+v", fs)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			for _, m := range tt.mutate {
				m(&f)
			}
			tr := tt.tracer
			if tr == nil {
				tr = &fakeTracer{}
			}
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

func requireTraced(t *testing.T, tr *fakeTracer, dests ...string) {
	t.Helper()
	for _, d := range dests {
		found := false
		for _, q := range tr.queries {
			found = found || (q.Port == 443 && q.Dest == ip(d))
		}
		if !found {
			t.Errorf("no TCP 443 route query to %s: %+v", d, tr.queries)
		}
	}
}
