// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

var (
	rulesetID  = id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsForwardingRulesets/rs-hub")
	regionZone = id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/westeurope.data.privatelink.azurecr.io")
)

// The resolver a node really uses: NIC-level settings (the scale set's, then
// a NIC's) override the VNet's; none means Azure DNS. Messages say which
// setting applied.
func TestPoolDNSServersAndOrigin(t *testing.T) {
	vnet := &model.VNet{Name: "vnet-spoke", DNSServers: ips("10.0.1.10")}
	n := model.NewNetwork()
	nicID := model.ResourceID("/nic-0")
	n.NICs[nicID.Key()] = &model.NIC{ID: nicID, Name: "nic-0", DNSServers: ips("10.0.1.11")}
	tests := []struct {
		name       string
		pool       *model.NodePool
		vnet       *model.VNet
		want       []netip.Addr
		wantOrigin string
	}{
		{"scale set NIC configuration wins", &model.NodePool{DNSServers: ips("10.0.1.12"), NICIDs: []model.ResourceID{nicID}}, vnet, ips("10.0.1.12"),
			"the scale set's NIC DNS settings"},
		{"NIC setting overrides the VNet", &model.NodePool{NICIDs: []model.ResourceID{nicID}}, vnet, ips("10.0.1.11"), "NIC nic-0 DNS settings"},
		{"read NICs of the pool count too", &model.NodePool{NICs: []*model.NIC{{Name: "x", DNSServers: ips("10.0.1.13")}}}, vnet, ips("10.0.1.13"), "NIC x DNS settings"},
		{"VNet DNS servers", &model.NodePool{}, vnet, ips("10.0.1.10"), "the DNS servers of vnet-spoke"},
		{"empty means Azure-provided DNS", &model.NodePool{}, &model.VNet{Name: "v"}, []netip.Addr{model.AzureDNS}, "Azure-provided DNS (v sets no DNS servers)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := model.PoolDNSServers(tt.pool, tt.vnet, n)
			if !reflect.DeepEqual(got.Servers, tt.want) {
				t.Errorf("got %v, want %v", got.Servers, tt.want)
			}
			if o := dnsOrigin(got, tt.vnet); o != tt.wantOrigin {
				t.Errorf("origin %q, want %q", o, tt.wantOrigin)
			}
		})
	}
}

func TestZoneResolution(t *testing.T) {
	tests := []factsCase{
		{
			name: "zone linked to the node VNet answers with the private endpoint address", mutate: func(*model.Facts) {},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				p := pathOf(t, res, "system", dataHostWE)
				if p.Address != "10.0.2.6" {
					t.Errorf("address %q", p.Address)
				}
				requireContains(t, p.Resolution, "CNAME contosoreg.westeurope.data.privatelink.azurecr.io", "zone privatelink.azurecr.io, linked to vnet-spoke")
			},
		},
		{
			name:   "zone linked only to the hub: DNS_ZONE_NOT_LINKED, not also ENDPOINT_PUBLIC_ACCESS_DENIED",
			mutate: unlinkSpoke, want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.DNSZoneNotLinked)
				if len(f) != 4 {
					t.Fatalf("want one finding per pool and host, got %d", len(f))
				}
				if !f[0].ResourceID.Equal(zoneID) {
					t.Errorf("resource %s, want the zone to link", f[0].ResourceID)
				}
				requireContains(t, f[0].Message, "linked only to vnet-hub", "vnet-spoke", "public address")
				requireContains(t, f[0].Remediation, "Link zone privatelink.azurecr.io to vnet-spoke", "credentials")
				if p := pathOf(t, res, "user", loginHost); p.Address != "" || len(p.Hops) != 0 {
					t.Errorf("a path whose name does not resolve has no address or hops: %+v", p)
				}
			},
		},
		{
			name:   "no zone exists at all: DNS_ZONE_NOT_LINKED on the VNet",
			mutate: func(f *model.Facts) { delete(f.DNS.Zones, zoneID.Key()) }, want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				if f := findingsWith(res, model.DNSZoneNotLinked)[0]; !f.ResourceID.Equal(spokeID) {
					t.Errorf("resource %s, want the VNet", f.ResourceID)
				}
			},
		},
		{
			name:    "record missing: DNS_RECORD_MISSING on the data endpoint only",
			mutate:  func(f *model.Facts) { delete(zone(f).Records, "contosoreg.westeurope.data") },
			want:    []model.Code{model.DNSRecordMissing},
			verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.DNSRecordMissing)
				if len(f) != 2 || f[0].Endpoint != dataHostWE || !f[0].ResourceID.Equal(zoneID) {
					t.Fatalf("want one finding per pool on %s at the zone, got %+v", dataHostWE, f)
				}
				requireContains(t, f[0].Message, "no record contosoreg.westeurope.data", "NXDOMAIN", "after the manifest succeeded")
				requireContains(t, f[0].Remediation, "contosoreg.westeurope.data → 10.0.2.6 (private endpoint pe-acr)")
				if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Reachable {
					t.Errorf("login path %s, want reachable", p.Verdict)
				}
			},
		},
		{
			name: "record missing under NxDomainRedirect falls back to public: still DNS_RECORD_MISSING",
			mutate: func(f *model.Facts) {
				delete(zone(f).Records, "contosoreg.westeurope.data")
				zone(f).Links[1].ResolutionPolicy = "NxDomainRedirect"
			},
			want: []model.Code{model.DNSRecordMissing}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSRecordMissing)[0].Message, "NxDomainRedirect")
			},
		},
		{
			name:   "record points elsewhere: DNS_RECORD_MISMATCH",
			mutate: func(f *model.Facts) { zone(f).Records["contosoreg"].Addrs = ips("10.0.2.9") },
			want:   []model.Code{model.DNSRecordMismatch}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.DNSRecordMismatch)[0]
				requireContains(t, f.Message, "10.0.2.9", "10.0.2.5", "pe-acr")
				if f.Endpoint != loginHost {
					t.Errorf("endpoint %s", f.Endpoint)
				}
			},
		},
		{
			name: "a more specific per-region zone answers the data endpoint",
			mutate: func(f *model.Facts) {
				delete(zone(f).Records, "contosoreg.westeurope.data")
				f.DNS.Zones[regionZone.Key()] = &model.PrivateZone{ID: regionZone, Name: "westeurope.data.privatelink.azurecr.io", LinksKnown: true, RecordsKnown: true,
					Links:   []model.ZoneLink{{VNetID: spokeID}},
					Records: map[string]*model.RecordSet{"contosoreg": {Type: "A", Addrs: ips("10.0.2.6")}}}
			},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, pathOf(t, res, "system", dataHostWE).Resolution, "zone westeurope.data.privatelink.azurecr.io")
			},
		},
		{
			name: "the most specific linked zone is authoritative: its missing record is not filled from the parent zone",
			mutate: func(f *model.Facts) {
				f.DNS.Zones[regionZone.Key()] = &model.PrivateZone{ID: regionZone, Name: "westeurope.data.privatelink.azurecr.io", LinksKnown: true, RecordsKnown: true,
					Links: []model.ZoneLink{{VNetID: spokeID}}, Records: map[string]*model.RecordSet{}}
			},
			want: []model.Code{model.DNSRecordMissing}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				if f := findingsWith(res, model.DNSRecordMissing)[0]; !f.ResourceID.Equal(regionZone) {
					t.Errorf("resource %s, want the region zone", f.ResourceID)
				}
			},
		},
		{
			name: "a CNAME record in the zone is followed",
			mutate: func(f *model.Facts) {
				zone(f).Records["contosoreg"] = &model.RecordSet{Type: "CNAME", CNAME: "acr-login.privatelink.azurecr.io."}
				zone(f).Records["acr-login"] = &model.RecordSet{Type: "A", Addrs: ips("10.0.2.5")}
			},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, pathOf(t, res, "system", loginHost).Resolution, "CNAME acr-login.privatelink.azurecr.io", "A 10.0.2.5")
			},
		},
		{
			name: "a CNAME loop ends as unverified, not as a hang",
			mutate: func(f *model.Facts) {
				zone(f).Records["contosoreg"] = &model.RecordSet{Type: "CNAME", CNAME: "loop.privatelink.azurecr.io"}
				zone(f).Records["loop"] = &model.RecordSet{Type: "CNAME", CNAME: "contosoreg.privatelink.azurecr.io"}
			},
			want: []model.Code{model.EvidenceUnavailable}, verdict: model.Unverified,
		},
		{
			name: "a wildcard record answers",
			mutate: func(f *model.Facts) {
				delete(zone(f).Records, "contosoreg.westeurope.data")
				zone(f).Records["*.westeurope.data"] = &model.RecordSet{Type: "A", Addrs: ips("10.0.2.6")}
			},
			verdict: model.Reachable,
		},
	}
	runFactsCases(t, tests)
}

func TestCustomDNSServers(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(f *model.Facts)
		tracer  *fakeTracer
		want    []model.Code
		verdict model.Verdict
		check   func(t *testing.T, res Result, tr *fakeTracer)
	}{
		{
			name:    "Azure DNS needs no route and no forwarder check",
			mutate:  func(*model.Facts) {},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				for _, q := range tr.queries {
					if q.Port == 53 {
						t.Errorf("traced DNS to %s", q.Dest)
					}
				}
			},
		},
		{
			name:    "a plain VM as DNS server: DNS_FORWARDER_UNVERIFIED, paths continue with the private endpoint address",
			mutate:  func(f *model.Facts) { addDNSVM(f, "vm-dns", "10.0.1.10"); setSpokeDNS(f, "10.0.1.10") },
			want:    []model.Code{model.DNSForwarderUnverified},
			verdict: model.Unverified,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				p := pathOf(t, res, "user", dataHostWE)
				if p.Address != "10.0.2.6" || p.Verdict != model.Unverified || p.Resolver != "10.0.1.10 (vm vm-dns)" {
					t.Errorf("path %+v", p)
				}
				fs := findingsWith(res, model.DNSForwarderUnverified)
				if len(fs) != 2 || fs[0].Endpoint != "10.0.1.10" {
					t.Errorf("want one finding per pool for the server, got %+v", fs)
				}
				requireContains(t, fs[0].Message, "vm-dns", "vnet-spoke")
				requireDNSQuery(t, tr, "10.0.1.10")
			},
		},
		{
			name:    "an on-premises DNS server is unverified too",
			mutate:  func(f *model.Facts) { setSpokeDNS(f, "192.168.1.53") },
			want:    []model.Code{model.DNSForwarderUnverified},
			verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				requireContains(t, pathOf(t, res, "system", loginHost).Resolver, "outside Azure")
			},
		},
		{
			name: "a DNS server in a peered VNet that was not read is a host there, not outside Azure",
			mutate: func(f *model.Facts) {
				far := id("/resourceGroups/rg-far/providers/Microsoft.Network/virtualNetworks/vnet-far")
				spoke := f.Network.VNet(spokeID)
				spoke.Peerings = append(spoke.Peerings, &model.Peering{Name: "spoke-to-far", VNetID: spokeID, RemoteVNetID: far,
					State: "Connected", AllowVirtualNetworkAccess: true, RemoteAddressSpace: pfxs("10.5.0.0/16")})
				setSpokeDNS(f, "10.5.0.53")
			},
			want:    []model.Code{model.DNSForwarderUnverified},
			verdict: model.Unverified,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if r := pathOf(t, res, "system", loginHost).Resolver; r != "10.5.0.53 (host in vnet-far, not a known resolver)" {
					t.Errorf("resolver %q", r)
				}
			},
		},
		{
			name:    "no route to the DNS server: DNS_SERVER_UNREACHABLE, no name resolves",
			mutate:  func(f *model.Facts) { addDNSVM(f, "vm-dns", "10.0.1.10"); setSpokeDNS(f, "10.0.1.10") },
			tracer:  &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.1.10"): blackhole("10.0.1.10")}},
			want:    []model.Code{model.DNSServerUnreachable},
			verdict: model.Unreachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				f := findingsWith(res, model.DNSServerUnreachable)[0]
				if f.Endpoint != "10.0.1.10" || !f.ResourceID.Equal(rtAKSID) {
					t.Errorf("finding %+v", f)
				}
				requireContains(t, f.Message, "quarantine-hub", "ROUTE_BLACKHOLE")
				for _, p := range res.Paths {
					if p.Address != "" || p.Verdict != model.Unreachable {
						t.Errorf("path %+v", p)
					}
				}
				for _, q := range tr.queries {
					if q.Port == 443 {
						t.Errorf("traced %s although nothing resolves", q.Dest)
					}
				}
			},
		},
		{
			name: "a resolver inbound endpoint answers from the zones linked to its own VNet",
			mutate: func(f *model.Facts) {
				addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
				setSpokeDNS(f, "10.0.3.4")
				unlinkSpoke(f)
			},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				p := pathOf(t, res, "system", loginHost)
				requireContains(t, p.Resolver, "dns private resolver dnspr-hub")
				requireContains(t, p.Resolution, "linked to vnet-hub")
				requireDNSQuery(t, tr, "10.0.3.4")
			},
		},
		{
			name: "an inbound endpoint whose VNet is not linked: DNS_ZONE_NOT_LINKED names the resolver's VNet",
			mutate: func(f *model.Facts) {
				addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
				setSpokeDNS(f, "10.0.3.4")
				zone(f).Links = zone(f).Links[1:] // spoke only
			},
			want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				requireContains(t, findingsWith(res, model.DNSZoneNotLinked)[0].Remediation, "to vnet-hub")
			},
		},
		{
			name: "behind an unreadable resolver, a declared host without address stays unresolved",
			mutate: func(f *model.Facts) {
				setSpokeDNS(f, "192.168.1.53")
				f.Registry = nil
				f.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}}
			},
			want:    []model.Code{model.DNSForwarderUnverified},
			verdict: model.Unverified,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				if p := res.Paths[0]; p.Address != "" || len(p.Hops) != 0 {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name: "behind an unreadable resolver, a registry without private endpoint is reached publicly",
			mutate: func(f *model.Facts) {
				setSpokeDNS(f, "192.168.1.53")
				publicRegistry(f)
			},
			want: []model.Code{model.DNSForwarderUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result, tr *fakeTracer) {
				for _, q := range tr.queries {
					if q.Port == 443 && !q.Public {
						t.Errorf("query %+v, want public", q)
					}
				}
			},
		},
		{
			name: "a secondary server that is unreachable is an error although the first answers",
			mutate: func(f *model.Facts) {
				addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
				setSpokeDNS(f, "10.0.3.4", "10.0.3.5")
			},
			tracer: &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.3.5"): blackhole("10.0.3.5")}},
			want:   []model.Code{model.DNSServerUnreachable}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result, _ *fakeTracer) {
				if p := pathOf(t, res, "system", loginHost); p.Address != "10.0.2.5" {
					t.Errorf("the first server still answers: %+v", p)
				}
			},
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

func requireDNSQuery(t *testing.T, tr *fakeTracer, server string) {
	t.Helper()
	for _, q := range tr.queries {
		if q.Dest == ip(server) && q.Port == 53 && q.Protocol == "Udp" && q.SubnetID.Equal(aksSubnetID) {
			return
		}
	}
	t.Errorf("no UDP 53 route query from the node subnet to %s: %+v", server, tr.queries)
}

func TestForwardingRulesets(t *testing.T) {
	onPrem := netip.MustParseAddrPort("192.168.1.53:53")
	inbound := netip.MustParseAddrPort("10.0.3.4:53")
	ruleset := func(linked []model.ResourceID, rules ...model.ForwardingRule) func(f *model.Facts) {
		return func(f *model.Facts) {
			addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
			f.DNS.Rulesets[rulesetID.Key()] = &model.Ruleset{ID: rulesetID, Name: "rs-hub", LinkedVNets: linked, Rules: rules}
		}
	}
	tests := []struct {
		name    string
		mutate  func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
	}{
		{"a rule for azurecr.io to on-premises diverts the registry names",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			[]model.Code{model.DNSForwardingRuleDiverts}, model.Unverified},
		{"a rule for the private link zone diverts too",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "pl", DomainName: "privatelink.azurecr.io.", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			[]model.Code{model.DNSForwardingRuleDiverts}, model.Unverified},
		{"a rule to an inbound endpoint whose VNet is linked keeps the answer verifiable",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "pl", DomainName: "privatelink.azurecr.io.", Targets: []netip.AddrPort{inbound}, Enabled: true}),
			nil, model.Reachable},
		{"a disabled rule is ignored",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Targets: []netip.AddrPort{onPrem}}),
			nil, model.Reachable},
		{"a rule for another domain is ignored",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "corp", DomainName: "corp.example.", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			nil, model.Reachable},
		{"a ruleset not linked to the node VNet is ignored",
			ruleset([]model.ResourceID{hubID}, model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			nil, model.Reachable},
		{"a rule to an inbound endpoint in a VNet linked to the same ruleset loops",
			ruleset([]model.ResourceID{spokeID, hubID}, model.ForwardingRule{Name: "pl", DomainName: "azurecr.io.", Targets: []netip.AddrPort{inbound}, Enabled: true}),
			[]model.Code{model.DNSForwardingRuleDiverts}, model.Unverified},
		{"the wildcard rule \".\" to on-premises diverts every registry name",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "all", DomainName: ".", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			[]model.Code{model.DNSForwardingRuleDiverts}, model.Unverified},
		{"the wildcard rule to an inbound endpoint whose VNet is linked keeps the answer verifiable",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "all", DomainName: ".", Targets: []netip.AddrPort{inbound}, Enabled: true}),
			nil, model.Reachable},
		{"a more specific rule to an inbound endpoint wins over the wildcard rule to on-premises",
			ruleset([]model.ResourceID{spokeID},
				model.ForwardingRule{Name: "all", DomainName: ".", Targets: []netip.AddrPort{onPrem}, Enabled: true},
				model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Targets: []netip.AddrPort{inbound}, Enabled: true}),
			nil, model.Reachable},
		{"the wildcard rule to on-premises wins over nothing: a disabled specific rule leaves it in charge",
			ruleset([]model.ResourceID{spokeID},
				model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Targets: []netip.AddrPort{inbound}},
				model.ForwardingRule{Name: "all", DomainName: ".", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			[]model.Code{model.DNSForwardingRuleDiverts}, model.Unverified},
		{"a disabled wildcard rule is ignored",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "all", DomainName: ".", Targets: []netip.AddrPort{onPrem}}),
			nil, model.Reachable},
		{"a rule without a domain covers nothing",
			ruleset([]model.ResourceID{spokeID}, model.ForwardingRule{Name: "none", Targets: []netip.AddrPort{onPrem}, Enabled: true}),
			nil, model.Reachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			for _, d := range findingsWith(res, model.DNSForwardingRuleDiverts) {
				if !d.ResourceID.Equal(rulesetID) {
					t.Errorf("resource %s, want the ruleset", d.ResourceID)
				}
			}
		})
	}
}

// The wildcard rule's finding says that it sends every name away, and its
// remedy is a more specific rule, not narrowing the wildcard.
func TestWildcardForwardingRuleMessage(t *testing.T) {
	f := baselineFacts()
	addResolver(&f, "dnspr-hub", hubID, "10.0.3.4")
	f.DNS.Rulesets[rulesetID.Key()] = &model.Ruleset{ID: rulesetID, Name: "rs-hub", LinkedVNets: []model.ResourceID{spokeID},
		Rules: []model.ForwardingRule{{Name: "all", DomainName: ".", Targets: []netip.AddrPort{netip.MustParseAddrPort("192.168.1.53:53")}, Enabled: true}}}
	res := verifyFake(t, f, nil)
	d := findingsWith(res, model.DNSForwardingRuleDiverts)
	if len(d) == 0 || len(d) != len(res.Paths) {
		t.Fatalf("want one finding per pool and host, got %d for %d paths", len(d), len(res.Paths))
	}
	requireContains(t, d[0].Message, `sends "." (every name) (rule all)`, "192.168.1.53 (outside Azure)")
	requireContains(t, d[0].Remediation, "Add a rule for azurecr.io. to ruleset rs-hub", "more specific rule wins over the wildcard rule all")
	for _, p := range res.Paths {
		if p.Verdict != model.Unverified {
			t.Errorf("path %s × %s %s, want unverified", p.NodePool, p.Host, p.Verdict)
		}
	}
}

// Missing DNS evidence makes resolution unverified; it never becomes
// DNS_ZONE_NOT_LINKED (or reachable) by default.
func TestDNSEvidence(t *testing.T) {
	zoneListGap := model.Gap{ResourceID: id("/providers/Microsoft.Network/privateDnsZones"), Kind: model.GapPermissionDenied,
		Permission: "Microsoft.Network/privateDnsZones/read", Detail: "HTTP 403 AuthorizationFailed"}
	tests := []struct {
		name   string
		mutate func(f *model.Facts)
		want   []model.Code
	}{
		{"zone list incomplete and no linked zone found", func(f *model.Facts) {
			unlinkSpoke(f)
			f.DNS.ZoneSearchComplete = false
			f.DNS.Gaps.Add(zoneListGap)
		}, []model.Code{model.EvidencePermissionDenied}},
		{"zone list incomplete without a recorded gap", func(f *model.Facts) {
			unlinkSpoke(f)
			f.DNS.ZoneSearchComplete = false
		}, []model.Code{model.EvidenceUnavailable}},
		{"zone links unreadable", func(f *model.Facts) {
			zone(f).LinksKnown = false
			zone(f).Links = nil
		}, []model.Code{model.EvidenceNotFound}},
		{"zone records unreadable", func(f *model.Facts) {
			zone(f).RecordsKnown = false
			f.DNS.Gaps.Add(model.Gap{ResourceID: zoneID + "/ALL", Kind: model.GapUnavailable, Detail: "HTTP 503"})
		}, []model.Code{model.EvidenceUnavailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != model.Unverified {
				t.Errorf("verdict %s, want unverified", res.Verdict)
			}
			for _, p := range res.Paths {
				if p.Verdict == model.Reachable {
					t.Errorf("path %s × %s reachable on missing evidence", p.NodePool, p.Host)
				}
			}
		})
	}
	f := baselineFacts()
	unlinkSpoke(&f)
	f.DNS.ZoneSearchComplete = false
	f.DNS.Gaps.Add(zoneListGap)
	e := findingsWith(verifyFake(t, f, nil), model.EvidencePermissionDenied)[0]
	requireContains(t, e.Message, "Microsoft.Network/privateDnsZones/read", "refused")
}
