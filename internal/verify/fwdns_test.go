// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// nodeGroup puts network security group nsg-aks with rules on the node
// subnet.
func nodeGroup(f *model.Facts, rules ...model.SecurityRule) {
	nsgID := id("/resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks")
	f.Network.SecurityGroups[nsgID.Key()] = &model.SecurityGroup{ID: nsgID, Name: "nsg-aks", Rules: rules}
	f.Network.Subnet(aksSubnetID).NSGID = nsgID
}

func platformDNSRule(name string, priority int32, access, proto string) model.SecurityRule {
	return model.SecurityRule{Name: name, Priority: priority, Direction: "Outbound", Access: access, Protocol: proto,
		SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"AzurePlatformDNS"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"53"}}
}

// TestAzureDNSUnderSecurityGroups: a deny on the AzurePlatformDNS tag stops
// Azure DNS (SECURITY_RULE_OUTBOUND_DENIED, nothing resolves); the default
// rules, an allow first, or a deny of everything else leave it alone.
func TestAzureDNSUnderSecurityGroups(t *testing.T) {
	denyAll := model.SecurityRule{Name: "DenyInternet", Priority: 4000, Direction: "Outbound", Access: "Deny", Protocol: "*",
		SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{"Internet"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"*"}}
	tests := []struct {
		name    string
		rules   []model.SecurityRule
		verdict model.Verdict
	}{
		{"deny on the tag", []model.SecurityRule{platformDNSRule("DenyAzureDNS", 200, "Deny", "*")}, model.Unreachable},
		{"deny of UDP on the tag", []model.SecurityRule{platformDNSRule("DenyAzureDNSUdp", 200, "Deny", "Udp")}, model.Unreachable},
		{"default rules only", nil, model.Reachable},
		{"allow before the deny", []model.SecurityRule{platformDNSRule("DenyAzureDNS", 200, "Deny", "*"), platformDNSRule("AllowAzureDNS", 100, "Allow", "*")}, model.Reachable},
		{"deny of the Internet does not touch platform DNS", []model.SecurityRule{denyAll}, model.Reachable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			nodeGroup(&f, tc.rules...)
			res := Verify(f, &fakeTracer{})
			if v := model.VerdictOf(res.Findings); v != tc.verdict {
				t.Fatalf("verdict %s, want %s:\n%s", v, tc.verdict, res.Summary)
			}
			if tc.verdict == model.Reachable {
				forbidCodes(t, res, model.SecurityOutboundDenied, model.SecurityUnverified)
				return
			}
			onlyCodes(t, res, model.SecurityOutboundDenied)
			fs := findingsWith(res, model.SecurityOutboundDenied)
			if len(fs) != 2 || fs[0].Endpoint != "168.63.129.16" {
				t.Fatalf("one finding per pool on Azure DNS: %+v", fs)
			}
			requireContains(t, fs[0].Message, "nsg-aks", tc.rules[0].Name, "168.63.129.16", "AzurePlatformDNS", "not subject to route tables")
			requireContains(t, fs[0].Remediation, "AzurePlatformDNS")
		})
	}
	t.Run("a group that could not be read", func(t *testing.T) {
		f := baselineFacts()
		nodeGroup(&f)
		nsgID := f.Network.Subnet(aksSubnetID).NSGID
		delete(f.Network.SecurityGroups, nsgID.Key())
		f.Gaps.Add(model.Gap{ResourceID: nsgID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkSecurityGroups/read"})
		res := Verify(f, &fakeTracer{})
		if v := model.VerdictOf(res.Findings); v != model.Unverified {
			t.Fatalf("verdict %s:\n%s", v, res.Summary)
		}
		found := false
		for _, f := range findingsWith(res, model.EvidencePermissionDenied) {
			found = found || f.Endpoint == "168.63.129.16"
		}
		if !found {
			t.Errorf("the gap is named on the Azure DNS check:\n%s", res.Summary)
		}
	})
}

// addDNSFirewall makes fw-hub (10.0.4.4, policy fwpol-hub) the spoke's DNS
// server, with the proxy as given, and leaves the zone linked to the hub
// only.
func addDNSFirewall(f *model.Facts, proxy bool, servers ...string) {
	addFirewall(f, "")
	p := f.Network.FirewallPolicy(fwPolicyID)
	p.DNSProxyEnabled, p.DNSServers = proxy, ips(servers...)
	setSpokeDNS(f, "10.0.4.4")
	unlinkSpoke(f)
}

// TestFirewallDNSProxy: the nodes' DNS server is a firewall's private
// address.
func TestFirewallDNSProxy(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(f *model.Facts)
		tracer  *fakeTracer
		verdict model.Verdict
		want    []model.Code
		check   func(t *testing.T, res Result)
	}{
		{name: "proxy off", mutate: func(f *model.Facts) { addDNSFirewall(f, false) }, verdict: model.Unreachable, want: []model.Code{model.DNSProxyDisabled},
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.DNSProxyDisabled)
				if len(fs) != 2 || fs[0].ResourceID != fwPolicyID || fs[0].Endpoint != "10.0.4.4" {
					t.Fatalf("%+v", fs)
				}
				requireContains(t, fs[0].Message, "fw-hub", "fwpol-hub", "enableProxy", "off by default")
				requireContains(t, fs[0].Remediation, "--enable-dns-proxy true", "not the cause")
			}},
		{name: "proxy on: Azure DNS from the hub, whose zone link answers", mutate: func(f *model.Facts) { addDNSFirewall(f, true) }, verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				p := pathOf(t, res, "system", loginHost)
				if p.Address != "10.0.2.5" || !strings.Contains(p.Resolver, "Azure Firewall fw-hub, DNS proxy to Azure DNS from vnet-hub") {
					t.Fatalf("%+v", p)
				}
			}},
		{name: "proxy on, zone linked to neither", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true)
			z := zone(f)
			z.Links = nil
		}, verdict: model.Unreachable, want: []model.Code{model.DNSZoneNotLinked}},
		{name: "proxy on, forwarding to Azure DNS explicitly", mutate: func(f *model.Facts) { addDNSFirewall(f, true, "168.63.129.16") }, verdict: model.Reachable},
		{name: "proxy on, forwarding to a resolver inbound endpoint in the hub", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true, "10.0.3.4")
			addResolver(f, "dnspr-hub", hubID, "10.0.3.4")
		}, verdict: model.Reachable},
		{name: "proxy on, forwarding to a DNS VM", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true, "10.0.1.10")
			addDNSVM(f, "vm-dns", "10.0.1.10")
		}, verdict: model.Unverified, want: []model.Code{model.DNSForwarderUnverified},
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSForwarderUnverified)[0].Message, "fw-hub", "10.0.1.10")
			}},
		{name: "policy not read", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true)
			delete(f.Network.FirewallPolicies, fwPolicyID.Key())
			f.Gaps.Add(model.Gap{ResourceID: fwPolicyID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/firewallPolicies/read"})
		}, verdict: model.Unverified, want: []model.Code{model.EvidencePermissionDenied},
			check: func(t *testing.T, res Result) {
				forbidCodes(t, res, model.DNSProxyDisabled)
			}},
		{name: "a parent policy with the same DNS settings: the proxy answers as its own say", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true)
			withParentDNS(f, true)
		}, verdict: model.Reachable},
		{name: "a parent policy with the same DNS settings, proxy off in both: DNS_PROXY_DISABLED", mutate: func(f *model.Facts) {
			addDNSFirewall(f, false)
			withParentDNS(f, false)
		}, verdict: model.Unreachable, want: []model.Code{model.DNSProxyDisabled}},
		{name: "proxy off in the policy, on in its parent: undocumented inheritance, unverified, never DNS_PROXY_DISABLED", mutate: func(f *model.Facts) {
			addDNSFirewall(f, false)
			withParentDNS(f, true)
		}, verdict: model.Unverified, want: []model.Code{model.DNSForwarderUnverified},
			check: func(t *testing.T, res Result) {
				forbidCodes(t, res, model.DNSProxyDisabled)
				requireContains(t, findingsWith(res, model.DNSForwarderUnverified)[0].Message, "fwpol-base", "fwpol-hub", "inherits DNS settings")
			}},
		{name: "proxy on in the policy, forwarding elsewhere in its parent: unverified", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true)
			withParentDNS(f, true, "10.0.1.10")
		}, verdict: model.Unverified, want: []model.Code{model.DNSForwarderUnverified}},
		{name: "the parent policy not read: evidence, never a conclusion", mutate: func(f *model.Facts) {
			addDNSFirewall(f, false)
			withParentDNS(f, true)
			delete(f.Network.FirewallPolicies, fwBasePolicyID.Key())
			f.Gaps.Add(model.Gap{ResourceID: fwBasePolicyID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/firewallPolicies/read"})
		}, verdict: model.Unverified, want: []model.Code{model.EvidencePermissionDenied},
			check: func(t *testing.T, res Result) {
				forbidCodes(t, res, model.DNSProxyDisabled)
				if e := findingsWith(res, model.EvidencePermissionDenied)[0]; !e.ResourceID.Equal(fwBasePolicyID) {
					t.Errorf("evidence on %s", e.ResourceID)
				}
			}},
		{name: "the DNS query does not reach the firewall", mutate: func(f *model.Facts) { addDNSFirewall(f, false) },
			tracer: &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.4.4"): blackhole("10.0.4.4")}}, verdict: model.Unreachable,
			want: []model.Code{model.DNSServerUnreachable},
			check: func(t *testing.T, res Result) {
				forbidCodes(t, res, model.DNSProxyDisabled)
			}},
		{name: "classic rules, proxy on", mutate: func(f *model.Facts) {
			addDNSFirewall(f, false)
			fw := f.Network.Firewall(fwID)
			fw.PolicyID, fw.DNSProxyEnabled = "", true
		}, verdict: model.Reachable},
		{name: "classic rules, proxy off", mutate: func(f *model.Facts) {
			addDNSFirewall(f, true)
			f.Network.Firewall(fwID).PolicyID = ""
		}, verdict: model.Unreachable, want: []model.Code{model.DNSProxyDisabled},
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSProxyDisabled)[0].Message, "Network.DNS.EnableProxy")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			tc.mutate(&f)
			res := verifyFake(t, f, tc.tracer)
			if v := model.VerdictOf(res.Findings); v != tc.verdict {
				t.Fatalf("verdict %s, want %s:\n%s", v, tc.verdict, res.Summary)
			}
			requireCodes(t, res, tc.want...)
			if tc.verdict == model.Reachable {
				forbidCodes(t, res, model.DNSProxyDisabled, model.DNSForwarderUnverified, model.DNSZoneNotLinked)
			}
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

// TestTLSInspection: a rule that allows the registry and terminates TLS.
func TestTLSInspection(t *testing.T) {
	inspecting := func(targets ...string) model.FirewallRule {
		return model.FirewallRule{Name: "allow-acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
			Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: targets, TerminateTLS: true}
	}
	setup := func(rule model.FirewallRule, cas int) (*run, *model.AzureFirewall, string, *model.Facts) {
		f := baselineFacts()
		publicRegistry(&f)
		addFirewall(&f, "20.80.0.1")
		allowFirewall(&f, rule)
		f.Network.FirewallPolicy(fwPolicyID).TLSInspectionCA = model.FirewallCA{Name: "fw-ca", KeyVaultSecretID: "https://kv-hub.vault.azure.net/secrets/fw-ca"}
		f.Cluster.CustomCATrustCertificates = cas
		r := &run{f: &f, gaps: mergeGaps(&f), used: map[string]bool{}, ep: newEndpoints(&f)}
		h := f.PullHosts()[0]
		return r, f.Network.Firewall(fwID), h.Name, &f
	}
	decide := func(r *run, fw *model.AzureFirewall, host string) ([]model.Finding, bool) {
		return r.firewallDecision("system", fw, []netip.Prefix{pfx("10.1.0.0/22")}, host, "")
	}

	r, fw, host, _ := setup(inspecting(loginHost, "*.blob.core.windows.net"), 0)
	fs, allowed := decide(r, fw, host)
	if !allowed || len(fs) != 1 || fs[0].Code != model.TLSInspectionCAUntrusted || fs[0].Severity != model.SeverityError || fs[0].ResourceID != fwPolicyID {
		t.Fatalf("no custom CA: %v %+v", allowed, fs)
	}
	requireContains(t, fs[0].Message, "fw-hub", "allow-acr", "terminateTLS", "fw-ca", "x509: certificate signed by unknown authority")
	requireContains(t, fs[0].Remediation, "exclude", "--custom-ca-trust-certificates", "accept block")

	r, fw, host, _ = setup(inspecting(loginHost), 1)
	fs, allowed = decide(r, fw, host)
	if !allowed || len(fs) != 1 || fs[0].Code != model.TLSInspectionUnverified {
		t.Fatalf("a custom CA: %v %+v", allowed, fs)
	}

	r, fw, host, _ = setup(inspecting("*.contoso.com"), 0)
	f := r.f
	p := f.Network.FirewallPolicy(fwPolicyID)
	col := &p.RuleCollectionGroups[0].Collections[0]
	col.Rules = append(col.Rules, model.FirewallRule{Name: "allow-acr-plain", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}})
	if fs, allowed := decide(r, fw, host); !allowed || len(fs) != 0 {
		t.Fatalf("inspection of other hosts only: %v %+v", allowed, fs)
	}

	// Through a whole verification: the pull breaks at TLS.
	_, _, _, facts := setup(inspecting(loginHost, "*.blob.core.windows.net"), 0)
	res := Verify(*facts, exitThrough(fwSubnetID, "", "10.0.4.4"))
	if v := model.VerdictOf(res.Findings); v != model.Unreachable {
		t.Fatalf("verdict %s:\n%s", v, res.Summary)
	}
	requireCodes(t, res, model.TLSInspectionCAUntrusted)
	forbidCodes(t, res, model.EgressFirewallDenied, model.EgressUnverified)
}

// fwBasePolicyID is the parent of fwpol-hub in the DNS proxy tests.
var fwBasePolicyID = id("/resourceGroups/rg-security/providers/Microsoft.Network/firewallPolicies/fwpol-base")

// withParentDNS gives fw-hub's policy the parent fwpol-base with these DNS
// settings.
func withParentDNS(f *model.Facts, proxy bool, servers ...string) {
	f.Network.FirewallPolicy(fwPolicyID).BasePolicyID = fwBasePolicyID
	f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwBasePolicyID, Name: "fwpol-base", DNSProxyEnabled: proxy, DNSServers: ips(servers...)})
}
