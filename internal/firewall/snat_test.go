// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func privateFlow(host, dest string) Flow {
	return Flow{Sources: nodes, Host: host, Dest: netip.MustParseAddr(dest)}
}

func TestEvaluatePrivateDestination(t *testing.T) {
	rules := func(rs ...model.FirewallRule) Rules {
		return rulesOf(policy(polHub, "", group(polHub, "g", 300, collection("c", 200, "Allow", rs...))))
	}
	for _, tc := range []evalCase{
		{name: "network rule to the endpoint's subnet allows", fw: firewallWith(polHub), rules: rules(netRule("pe", "10.2.2.0/24")),
			flow: privateFlow(loginHost, "10.2.2.5"), verdict: Allowed, rule: "pe"},
		{name: "network rule to another subnet: default deny", fw: firewallWith(polHub), rules: rules(netRule("other", "10.2.3.0/24")),
			flow: privateFlow(loginHost, "10.2.2.5"), verdict: Denied},
		{name: "a service tag holds no private address", fw: firewallWith(polHub), rules: rules(netRule("tag", "AzureContainerRegistry")),
			flow: privateFlow(loginHost, "10.2.2.5"), verdict: Denied},
		{name: "VirtualNetwork cannot be decided", fw: firewallWith(polHub), rules: rules(netRule("vnet", "VirtualNetwork")),
			flow: privateFlow(loginHost, "10.2.2.5"), verdict: Unverified, why: "VirtualNetwork"},
		{name: "application rules apply to private destinations", fw: firewallWith(polHub), rules: rules(appRule("acr", loginHost)),
			flow: privateFlow(loginHost, "10.2.2.5"), verdict: Allowed, rule: "acr"},
		{name: "application rules do not filter UDP", fw: firewallWith(polHub), rules: rules(appRule("acr", loginHost)),
			flow: Flow{Sources: nodes, Dest: netip.MustParseAddr("10.0.1.10"), Port: 53, Protocol: "Udp"}, verdict: Denied},
		{name: "a UDP 53 network rule allows a DNS query", fw: firewallWith(polHub),
			rules: rules(model.FirewallRule{Name: "dns", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"}, IPProtocols: []string{"UDP"}, DestinationPorts: []string{"53"}, DestinationAddresses: []string{"10.0.1.10"}}),
			flow:  Flow{Sources: nodes, Dest: netip.MustParseAddr("10.0.1.10"), Port: 53, Protocol: "Udp"}, verdict: Allowed, rule: "dns"},
		{name: "a TCP rule does not allow UDP", fw: firewallWith(polHub), rules: rules(netRule("tcp", "10.0.1.10")),
			flow: Flow{Sources: nodes, Dest: netip.MustParseAddr("10.0.1.10"), Port: 53, Protocol: "Udp"}, verdict: Denied},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestDeniedPrivateFlowHint(t *testing.T) {
	d := Evaluate(firewallWith(polHub), rulesOf(policy(polHub, "")), privateFlow(loginHost, "10.2.2.5"))
	if d.Verdict != Denied || !strings.Contains(d.Allow, "10.2.2.5") || !strings.Contains(d.Allow, "application rule") {
		t.Errorf("decision %s, hint %q", d.Verdict, d.Allow)
	}
}

func TestSourceNAT(t *testing.T) {
	app := Decision{Verdict: Allowed, Rule: &RuleRef{Rule: "a", Kind: model.FirewallApplicationRule, Action: "Allow"}}
	net := Decision{Verdict: Allowed, Rule: &RuleRef{Rule: "n", Kind: model.FirewallNetworkRule, Action: "Allow"}}
	public := Flow{Sources: nodes, Host: loginHost}
	for _, tc := range []struct {
		name     string
		settings model.FirewallSNAT
		known    bool
		d        Decision
		flow     Flow
		want     Translation
	}{
		{"application rules always translate", model.FirewallSNAT{PrivateRanges: []string{"0.0.0.0/0"}}, true, app, privateFlow(loginHost, "10.2.2.5"), Translated},
		{"network rule, private destination inside the default ranges", model.FirewallSNAT{}, true, net, privateFlow(loginHost, "10.2.2.5"), NotTranslated},
		{"network rule, private destination outside the listed ranges", model.FirewallSNAT{PrivateRanges: []string{"192.168.0.0/16"}}, true, net, privateFlow(loginHost, "10.2.2.5"), Translated},
		{"IANAPrivateRanges stands for the defaults", model.FirewallSNAT{PrivateRanges: []string{"IANAPrivateRanges"}}, true, net, privateFlow(loginHost, "172.16.0.4"), NotTranslated},
		{"255.255.255.255/32 always translates", model.FirewallSNAT{PrivateRanges: []string{"255.255.255.255/32"}}, true, net, privateFlow(loginHost, "10.2.2.5"), Translated},
		{"network rule, public destination, default ranges", model.FirewallSNAT{}, true, net, public, Translated},
		{"network rule, public destination, never SNAT", model.FirewallSNAT{PrivateRanges: []string{"0.0.0.0/0"}}, true, net, public, NotTranslated},
		{"network rule, public destination, a listed public range may hold it", model.FirewallSNAT{PrivateRanges: []string{"20.0.0.0/8"}}, true, net, public, TranslationUnknown},
		{"auto-learned ranges may hold a destination outside the listed ones", model.FirewallSNAT{AutoLearn: true}, true, net, privateFlow(loginHost, "198.18.0.4"), TranslationUnknown},
		{"auto-learned ranges do not change a destination inside the listed ones", model.FirewallSNAT{AutoLearn: true}, true, net, privateFlow(loginHost, "10.2.2.5"), NotTranslated},
		{"settings not read", model.FirewallSNAT{}, false, net, privateFlow(loginHost, "10.2.2.5"), TranslationUnknown},
		{"malformed ranges", model.FirewallSNAT{PrivateRanges: []string{"ten"}}, true, net, privateFlow(loginHost, "10.2.2.5"), TranslationUnknown},
		{"a denied flow has no translation", model.FirewallSNAT{}, true, Decision{Verdict: Denied}, privateFlow(loginHost, "10.2.2.5"), TranslationUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SourceNAT(tc.settings, tc.known, tc.d, tc.flow)
			if got.Translation != tc.want {
				t.Errorf("translation %s, want %s (%s)", got.Translation, tc.want, got.Why)
			}
			if got.Why == "" {
				t.Error("no reason given")
			}
		})
	}
}
