// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
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

// TestProxyBehindLoadBalancer: a proxy at an internal load balancer's
// frontend is followed through the rule for its port to a single backend
// (its security groups on the backend port, then the proxy's leg from
// it); no rule, several backends or a backend given by address is
// unverified, never reachable.
func TestProxyBehindLoadBalancer(t *testing.T) {
	lbID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/loadBalancers/lb-proxy")
	otherNIC := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-proxy2")
	tests := []struct {
		name   string
		lb     model.ProxyLoadBalancer
		byDest map[netip.Addr]RouteResult
		want   model.Verdict
		codes  []model.Code
		forbid []model.Code
		hop    string
	}{
		{name: "one backend, both legs pass",
			lb:     model.ProxyLoadBalancer{Rule: "proxy-3128", BackendPort: 3128, Backends: []model.ResourceID{proxyNICID}, BackendsKnown: true},
			want:   model.Reachable,
			forbid: []model.Code{model.EgressProxyUnverified, model.ProxyBypassMissing},
			hop:    "to the proxy's backend (load balancer lb-proxy, rule proxy-3128)"},
		{name: "no rule for the proxy's port",
			lb:    model.ProxyLoadBalancer{},
			want:  model.Unverified,
			codes: []model.Code{model.EgressProxyUnverified}},
		{name: "the backend cannot be reached from the nodes",
			lb:     model.ProxyLoadBalancer{Rule: "proxy-3128", BackendPort: 8080, Backends: []model.ResourceID{proxyNICID}, BackendsKnown: true},
			byDest: map[netip.Addr]RouteResult{ip("10.0.1.4"): blackhole("10.0.1.4")},
			want:   model.Unreachable,
			codes:  []model.Code{model.RouteBlackhole},
			forbid: []model.Code{model.EgressProxyUnverified}},
		{name: "the frontend cannot be reached from the nodes",
			lb:     model.ProxyLoadBalancer{Rule: "proxy-3128", BackendPort: 3128, Backends: []model.ResourceID{proxyNICID}, BackendsKnown: true},
			byDest: map[netip.Addr]RouteResult{ip("10.0.1.10"): blackhole("10.0.1.10")},
			want:   model.Unreachable,
			codes:  []model.Code{model.RouteBlackhole}},
		{name: "several backends",
			lb:    model.ProxyLoadBalancer{Rule: "proxy-3128", BackendPort: 3128, Backends: []model.ResourceID{proxyNICID, otherNIC}, BackendsKnown: true},
			want:  model.Unverified,
			codes: []model.Code{model.EgressProxyUnverified}},
		{name: "a backend given by address",
			lb:    model.ProxyLoadBalancer{Rule: "proxy-3128", BackendPort: 3128},
			want:  model.Unverified,
			codes: []model.Code{model.EgressProxyUnverified}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			withProxy(&f, []string{"10.0.0.0/8"}, true)
			f.Cluster.HTTPProxy.HTTPSProxy = "http://10.0.1.10:3128"
			lb := tc.lb
			lb.ID, lb.Name, lb.Frontend = lbID, "lb-proxy", "fe-proxy"
			f.Proxy = &model.ProxyHost{Addr: ip("10.0.1.10"), LoadBalancer: &lb}
			if lb.BackendsKnown && len(lb.Backends) == 1 {
				f.Proxy.NICID = proxyNICID
			}
			res := verifyFake(t, f, &fakeTracer{byDest: tc.byDest})
			for _, host := range []string{loginHost, dataHostWE} {
				p := pathOf(t, res, "system", host)
				if p.Verdict != tc.want {
					t.Errorf("%s: verdict %s, want %s (codes %v)", host, p.Verdict, tc.want, codesOf(res))
				}
				if tc.hop != "" && !strings.Contains(strings.Join(p.Hops, "\n"), tc.hop) {
					t.Errorf("%s: hops %q lack %q", host, p.Hops, tc.hop)
				}
			}
			requireCodes(t, res, tc.codes...)
			forbidCodes(t, res, tc.forbid...)
		})
	}
}
