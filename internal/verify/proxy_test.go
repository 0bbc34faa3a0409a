// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// proxyNICID is vm-proxy's NIC in the hub's snet-nva.
var proxyNICID = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-proxy")

// withProxy gives the baseline cluster an HTTPS proxy at 10.0.1.4:3128
// and, when held, the NIC that holds it (as gather found it).
func withProxy(f *model.Facts, noProxy []string, held bool) {
	f.Cluster.HTTPProxy = &model.HTTPProxy{HTTPProxy: "http://10.0.1.4:3128", HTTPSProxy: "http://10.0.1.4:3128", NoProxy: noProxy}
	if held {
		f.Network.NICs[proxyNICID.Key()] = &model.NIC{ID: proxyNICID, Name: "nic-vm-proxy", SubnetID: nvaSubnetID, PrivateIPs: ips("10.0.1.4")}
		f.Proxy = &model.ProxyHost{Addr: ip("10.0.1.4"), NICID: proxyNICID}
	}
}

// TestProxiedPulls: which hostnames go to the proxy, and what each leg
// decides.
func TestProxiedPulls(t *testing.T) {
	tests := []struct {
		name    string
		noProxy []string
		held    bool
		edit    func(f *model.Facts, tr *fakeTracer)
		want    map[string]model.Verdict // host → verdict of pool system
		codes   []model.Code
		forbid  []model.Code
	}{
		{name: "bypassed by the registry domain", noProxy: []string{".azurecr.io"}, held: true,
			want:   map[string]model.Verdict{loginHost: model.Reachable, dataHostWE: model.Reachable},
			forbid: []model.Code{model.ProxyBypassMissing, model.EgressProxyUnverified}},
		{name: "proxied, the proxy's VNet is linked", noProxy: []string{"10.0.0.0/8"}, held: true,
			want:   map[string]model.Verdict{loginHost: model.Reachable, dataHostWE: model.Reachable},
			forbid: []model.Code{model.ProxyBypassMissing, model.EgressProxyUnverified}},
		{name: "data endpoint proxied, the proxy resolves it publicly", noProxy: []string{"contosoreg.azurecr.io"}, held: true,
			edit: func(f *model.Facts, _ *fakeTracer) {
				z := f.DNS.Zones[zoneID.Key()]
				z.Links = []model.ZoneLink{zoneLink("link-spoke", spokeID)}
			},
			want:   map[string]model.Verdict{loginHost: model.Reachable, dataHostWE: model.Unreachable},
			codes:  []model.Code{model.ProxyBypassMissing},
			forbid: []model.Code{model.EndpointPublicAccessDenied, model.DNSZoneNotLinked}},
		{name: "proxy not held by a NIC read", noProxy: nil, held: false,
			want:  map[string]model.Verdict{loginHost: model.Unverified, dataHostWE: model.Unverified},
			codes: []model.Code{model.EgressProxyUnverified}},
		{name: "proxy unreachable from the nodes", noProxy: nil, held: true,
			edit: func(_ *model.Facts, tr *fakeTracer) {
				tr.byDest = map[netip.Addr]RouteResult{ip("10.0.1.4"): blackhole("10.0.1.4")}
			},
			want:   map[string]model.Verdict{loginHost: model.Unreachable, dataHostWE: model.Unreachable},
			codes:  []model.Code{model.RouteBlackhole},
			forbid: []model.Code{model.ProxyBypassMissing, model.EgressProxyUnverified}},
		{name: "wildcard entry AKS does not support", noProxy: []string{"*.azurecr.io"}, held: true,
			want:  map[string]model.Verdict{loginHost: model.Unverified, dataHostWE: model.Unverified},
			codes: []model.Code{model.EgressProxyUnverified}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			withProxy(&f, tc.noProxy, tc.held)
			tr := &fakeTracer{}
			if tc.edit != nil {
				tc.edit(&f, tr)
			}
			res := verifyFake(t, f, tr)
			for host, want := range tc.want {
				if got := pathOf(t, res, "system", host).Verdict; got != want {
					t.Errorf("%s: verdict %s, want %s (codes %v)", host, got, want, codesOf(res))
				}
			}
			requireCodes(t, res, tc.codes...)
			forbidCodes(t, res, tc.forbid...)
		})
	}
}

// TestProxyBypassMissingNamesTheEntry: the finding names the proxy, why
// the entries do not match, and the entry to add.
func TestProxyBypassMissingNamesTheEntry(t *testing.T) {
	f := baselineFacts()
	withProxy(&f, []string{"contosoreg.azurecr.io", "10.0.0.0/8"}, true)
	f.DNS.Zones[zoneID.Key()].Links = []model.ZoneLink{zoneLink("link-spoke", spokeID)}
	res := verifyFake(t, f, nil)
	fs := findingsWith(res, model.ProxyBypassMissing)
	if len(fs) == 0 {
		t.Fatalf("no PROXY_BYPASS_MISSING; codes %v", codesOf(res))
	}
	requireContains(t, fs[0].Message, "http://10.0.1.4:3128", "contosoreg.azurecr.io matches only itself and its subdomains", "10.0.0.0/8 is an address range", "10.0.2.6")
	requireContains(t, fs[0].Remediation, `"contosoreg.westeurope.data.azurecr.io"`, "noProxy")
}
