// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// publicRegistry turns the baseline registry into one without private
// endpoints or data endpoints: login server and blob storage are public.
func publicRegistry(f *model.Facts) {
	f.Registry.DataEndpointEnabled = false
	f.Registry.DataEndpointHosts = nil
	f.Registry.PrivateEndpointConnections = nil
	f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Allow"
	delete(f.Network.PrivateEndpoints, peID.Key())
}

func TestEndpointCoverage(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(f *model.Facts)
		tracer  *fakeTracer
		want    []model.Code
		verdict model.Verdict
		check   func(t *testing.T, res Result, tr *fakeTracer)
	}{
		{
			name: "a replica whose data endpoint the private endpoint serves", mutate: func(f *model.Facts) { addReplica(f, true) },
			verdict: model.Reachable,
		},
		{
			name:   "a replica added after the private endpoint: ENDPOINT_DATA_NOT_COVERED on its data endpoint only",
			mutate: func(f *model.Facts) { addReplica(f, false) }, want: []model.Code{model.EndpointDataNotCovered}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				fs := findingsWith(res, model.EndpointDataNotCovered)
				if len(fs) != 2 || fs[0].Endpoint != dataHostNE || !fs[0].ResourceID.Equal(registryID) || fs[0].Owner != model.OwnerRegistry {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "10.0.2.5", "pe-acr", "307")
				requireContains(t, fs[0].Remediation, "northeurope", "cannot help")
				if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Reachable {
					t.Errorf("the covered data endpoint is %s", p.Verdict)
				}
			},
		},
		{
			name: "served by the private endpoint but missing in the zone is DNS, not registry",
			mutate: func(f *model.Facts) {
				addReplica(f, true)
				delete(zone(f).Records, "contosoreg.northeurope.data")
			},
			want: []model.Code{model.DNSRecordMissing}, verdict: model.Unreachable,
		},
		{
			name: "private endpoint connection pending: ENDPOINT_PRIVATE_ENDPOINT_NOT_APPROVED on the connection",
			mutate: func(f *model.Facts) {
				f.Registry.PrivateEndpointConnections[0].Status = "Pending"
				f.Network.PrivateEndpoint(peID).Connections[0].Status = "Pending"
			},
			want: []model.Code{model.EndpointPENotApproved}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				f := findingsWith(res, model.EndpointPENotApproved)[0]
				if !f.ResourceID.Equal(peConnID) {
					t.Errorf("resource %s, want the registry's connection", f.ResourceID)
				}
				requireContains(t, f.Message, "Pending")
				if len(tr.queries) != 0 {
					t.Errorf("traced %d flows to an endpoint that carries no traffic", len(tr.queries))
				}
			},
		},
		{
			name: "the registry's view of the connection wins over the endpoint's",
			mutate: func(f *model.Facts) {
				f.Registry.PrivateEndpointConnections[0].Status = "Rejected"
			},
			want: []model.Code{model.EndpointPENotApproved}, verdict: model.Unreachable,
		},
		{
			name: "pending connection without DNS configs still names the approval",
			mutate: func(f *model.Facts) {
				f.Registry.PrivateEndpointConnections[0].Status = "Pending"
				pe := f.Network.PrivateEndpoint(peID)
				pe.Connections[0].Status = "Pending"
				pe.DNSConfigs = nil
			},
			want: []model.Code{model.EndpointPENotApproved}, verdict: model.Unreachable,
		},
		{
			name:   "public registry: login server and blob storage over the Internet",
			mutate: publicRegistry, verdict: model.Reachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				if got := hostNamesOf(res, "system"); len(got) != 2 || got[1] != "*.blob.core.windows.net" {
					t.Errorf("hosts %v", got)
				}
				for _, q := range tr.queries {
					if !q.Public || q.Dest.IsValid() {
						t.Errorf("query %+v, want a public destination", q)
					}
				}
				if p := pathOf(t, res, "system", loginHost); p.Address != "" || p.Resolution == "" {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name:   "public registry whose Internet route is dropped",
			mutate: publicRegistry,
			tracer: &fakeTracer{public: &RouteResult{Findings: blackhole("the registry's public address").Findings}},
			want:   []model.Code{model.RouteBlackhole}, verdict: model.Unreachable,
		},
		{
			name: "no private endpoint and public access disabled: ENDPOINT_PUBLIC_ACCESS_DENIED",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Registry.PublicNetworkAccess = "Disabled"
			},
			want: []model.Code{model.EndpointPublicAccessDenied}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if fs := findingsWith(res, model.EndpointPublicAccessDenied); len(fs) != 2 || fs[0].Endpoint != loginHost {
					t.Errorf("want the login server of each pool (blob storage is not behind the registry firewall), got %+v", fs)
				}
				requireContains(t, findingsWith(res, model.EndpointPublicAccessDenied)[0].Message, "publicNetworkAccess is Disabled")
			},
		},
		{
			name: "public access disabled wins over a network rule set that would admit the nodes",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Disabled", "Deny"
				f.Registry.IPRules = pfxs("0.0.0.0/0")
			},
			want: []model.Code{model.EndpointPublicAccessDenied}, verdict: model.Unreachable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
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

func hostNamesOf(res Result, pool string) []string {
	var out []string
	for _, p := range res.Paths {
		if p.NodePool == pool {
			out = append(out, p.Host)
		}
	}
	return out
}

func TestDeclaredRegistry(t *testing.T) {
	declared := func(hosts []string, addrs map[string]netip.Addr) func(f *model.Facts) {
		return func(f *model.Facts) {
			f.Registry = nil
			f.Declared = &model.DeclaredRegistry{Hosts: hosts, Addresses: addrs}
		}
	}
	corpZone := func(linked ...model.ResourceID) func(f *model.Facts) {
		return func(f *model.Facts) {
			z := &model.PrivateZone{ID: corpZoneID, Name: "corp.example", LinksKnown: true, RecordsKnown: true,
				Records: map[string]*model.RecordSet{"harbor": {Type: "A", Addrs: ips("192.168.10.20")}}}
			for _, v := range linked {
				z.Links = append(z.Links, model.ZoneLink{VNetID: v})
			}
			f.DNS.Zones[corpZoneID.Key()] = z
		}
	}
	tests := []struct {
		name    string
		mutate  []func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
		address string
	}{
		{"declared address", []func(*model.Facts){declared([]string{"harbor.corp.example"}, map[string]netip.Addr{"Harbor.corp.example": ip("192.168.10.20")})},
			nil, model.Reachable, "192.168.10.20"},
		{"resolved by a linked private zone", []func(*model.Facts){declared([]string{"harbor.corp.example"}, nil), corpZone(spokeID)},
			nil, model.Reachable, "192.168.10.20"},
		{"neither zone nor address: ENDPOINT_UNRESOLVED", []func(*model.Facts){declared([]string{"harbor.corp.example"}, nil)},
			[]model.Code{model.EndpointUnresolved}, model.Unverified, ""},
		{"zone holding it not linked to the node VNet: DNS_ZONE_NOT_LINKED", []func(*model.Facts){declared([]string{"harbor.corp.example"}, nil), corpZone(hubID)},
			[]model.Code{model.DNSZoneNotLinked}, model.Unreachable, ""},
		{"linked zone without the record: DNS_RECORD_MISSING", []func(*model.Facts){declared([]string{"registry.corp.example"}, nil), corpZone(spokeID)},
			[]model.Code{model.DNSRecordMissing}, model.Unreachable, ""},
		{"no pull identity check for a registry that is not an ACR", []func(*model.Facts){declared([]string{"harbor.corp.example"}, map[string]netip.Addr{"harbor.corp.example": ip("192.168.10.20")}),
			func(f *model.Facts) { f.RoleAssignments = nil }}, nil, model.Reachable, "192.168.10.20"},
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
			if p := res.Paths[0]; p.Address != tt.address {
				t.Errorf("address %q, want %q", p.Address, tt.address)
			}
		})
	}
}
