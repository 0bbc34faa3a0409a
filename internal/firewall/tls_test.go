// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestInspecting: a decision names the rules that allow the flow and
// terminate TLS for it, and only those.
func TestInspecting(t *testing.T) {
	inspect := func(r model.FirewallRule) model.FirewallRule { r.TerminateTLS = true; return r }
	tests := []struct {
		name    string
		cols    []model.FirewallRuleCollection
		verdict Verdict
		want    []string
	}{
		{"an inspecting rule allows the registry", []model.FirewallRuleCollection{
			collection("acr", 200, "Allow", inspect(appRule("allow-acr", "*.azurecr.io")))}, Allowed, []string{"allow-acr"}},
		{"an inspecting rule on other hosts only", []model.FirewallRuleCollection{
			collection("web", 100, "Allow", inspect(appRule("inspect-web", "*.contoso.com"))),
			collection("acr", 200, "Allow", appRule("allow-acr", "*.azurecr.io"))}, Allowed, nil},
		{"a rule without inspection comes first", []model.FirewallRuleCollection{
			collection("acr", 100, "Allow", appRule("allow-acr", "contosoreg.azurecr.io")),
			collection("all", 200, "Allow", inspect(appRule("inspect-all", "*")))}, Allowed, nil},
		{"a network rule allows before the inspecting application rule", []model.FirewallRuleCollection{
			collection("net", 300, "Allow", netRule("acr-tag", acrTag)),
			collection("acr", 100, "Allow", inspect(appRule("allow-acr", "*.azurecr.io")))}, Allowed, nil},
		{"a denied flow is not inspected", []model.FirewallRuleCollection{
			collection("deny", 100, "Deny", inspect(appRule("deny-acr", "*.azurecr.io")))}, Denied, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var app, net []model.FirewallRuleCollection
			for _, c := range tc.cols {
				if c.Rules[0].Kind == model.FirewallNetworkRule {
					net = append(net, c)
				} else {
					app = append(app, c)
				}
			}
			groups := []model.FirewallRuleCollectionGroup{group(polHub, "apps", 300, app...)}
			if len(net) > 0 {
				groups = append(groups, group(polHub, "nets", 200, net...))
			}
			d := Evaluate(firewallWith(polHub), rulesOf(policy(polHub, "", groups...)), flowTo(loginHost, acrTag))
			if d.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s (%+v)", d.Verdict, tc.verdict, d)
			}
			var got []string
			for _, r := range d.Inspecting {
				if !r.TerminateTLS {
					t.Errorf("%s listed without TerminateTLS", r)
				}
				got = append(got, r.Rule)
			}
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Fatalf("inspecting %v, want %v", got, tc.want)
			}
		})
	}
}

// TestInspectingPartOfTheNodes: a rule that inspects the flows of part of
// the node subnet is named, although another rule allows the rest.
func TestInspectingPartOfTheNodes(t *testing.T) {
	half := appRule("inspect-half", "*.azurecr.io")
	half.TerminateTLS, half.SourceAddresses = true, []string{"10.1.0.0/23"}
	pol := policy(polHub, "", group(polHub, "apps", 300,
		collection("a", 100, "Allow", half),
		collection("b", 200, "Allow", appRule("allow-rest", "*.azurecr.io"))))
	d := Evaluate(firewallWith(polHub), rulesOf(pol), Flow{Sources: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/22")}, Host: loginHost})
	if d.Verdict != Allowed || len(d.Inspecting) != 1 || d.Inspecting[0].Rule != "inspect-half" {
		t.Fatalf("%+v", d)
	}
}

// TestTerminatesTLS: only an application rule on HTTPS with terminateTLS
// inspects.
func TestTerminatesTLS(t *testing.T) {
	app := appRule("a", "*.azurecr.io")
	app.TerminateTLS = true
	httpOnly := app
	httpOnly.Protocols = []model.FirewallAppProtocol{{Type: "Http", Port: 80}}
	net := netRule("n", acrTag)
	net.TerminateTLS = true
	plain := appRule("p", "*.azurecr.io")
	for _, tc := range []struct {
		name string
		rule *model.FirewallRule
		want bool
	}{{"https application rule", &app, true}, {"http only", &httpOnly, false}, {"network rule", &net, false}, {"without terminateTLS", &plain, false}, {"nil", nil, false}} {
		if got := terminatesTLS(tc.rule); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
