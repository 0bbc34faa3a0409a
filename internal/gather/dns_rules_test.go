// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// withSpokeRuleset adds a DNS private resolver with inbound endpoint
// 10.0.3.4 in the hub and a forwarding ruleset linked to the spoke with one
// rule for domain, forwarding to target.
func withSpokeRuleset(t *testing.T, domain, target string) (*Reader, *countingTransport) {
	t.Helper()
	resolver := hubRG + "/providers/Microsoft.Network/dnsResolvers/dnspr"
	ruleset := hubRG + "/providers/Microsoft.Network/dnsForwardingRulesets/rs"
	return withSnapshot(t, "baseline_ok", func(m map[string]any) {
		acts := m["actions"].(map[string]any)
		acts["POST "+string(vnetHub)+"/listDnsResolvers"] = map[string]any{"value": []any{map[string]any{"id": resolver}}}
		acts["POST "+string(vnetSpoke)+"/listDnsForwardingRulesets"] = map[string]any{"value": []any{
			map[string]any{"id": ruleset, "properties": map[string]any{"virtualNetworkLink": map[string]any{"id": ruleset + "/virtualNetworkLinks/spoke"}}}}}
		res := m["resources"].([]any)
		for _, s := range []string{
			`{"id":"` + resolver + `","name":"dnspr","type":"Microsoft.Network/dnsResolvers","location":"westeurope","properties":{"virtualNetwork":{"id":"` + string(vnetHub) + `"}}}`,
			`{"id":"` + resolver + `/inboundEndpoints/in","name":"in","type":"Microsoft.Network/dnsResolvers/inboundEndpoints","location":"westeurope",
			  "properties":{"ipConfigurations":[{"subnet":{"id":"` + string(vnetHub) + `/subnets/snet-dns-in"},"privateIpAddress":"10.0.3.4"}]}}`,
			`{"id":"` + ruleset + `","name":"rs","type":"Microsoft.Network/dnsForwardingRulesets","location":"westeurope","properties":{}}`,
			`{"id":"` + ruleset + `/forwardingRules/r","name":"r","type":"Microsoft.Network/dnsForwardingRulesets/forwardingRules",
			  "properties":{"domainName":"` + domain + `","targetDnsServers":[{"ipAddress":"` + target + `","port":53}],"forwardingRuleState":"Enabled"}}`,
			`{"id":"` + ruleset + `/virtualNetworkLinks/spoke","name":"spoke","type":"Microsoft.Network/dnsForwardingRulesets/virtualNetworkLinks",
			  "properties":{"virtualNetwork":{"id":"` + string(vnetSpoke) + `"}}}`,
		} {
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				t.Fatal(err)
			}
			res = append(res, v)
		}
		m["resources"] = res
	})
}

// The wildcard rule "." covers every name a pull resolves: gather follows
// it to the resolver it targets (and reads that VNet's rulesets), exactly as
// it follows a rule for the registry domain; a rule for another domain is
// not followed.
func TestVerificationFactsWildcardForwardingRule(t *testing.T) {
	tests := []struct {
		name, domain, target string
		followed             bool
		verdict              model.Verdict
		code                 model.Code
	}{
		{"wildcard to the hub resolver", ".", "10.0.3.4", true, model.Reachable, ""},
		{"registry domain to the hub resolver", "azurecr.io.", "10.0.3.4", true, model.Reachable, ""},
		{"other domain to the hub resolver", "corp.example.", "10.0.3.4", false, model.Reachable, ""},
		{"wildcard to on-premises", ".", "192.168.1.53", false, model.Unverified, model.DNSForwardingRuleDiverts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ct := withSpokeRuleset(t, tt.domain, tt.target)
			_, res := verifyFacts(t, r, acrRequest)
			requireNoGaps(t, r)
			resolvers, rulesets := ct.count("POST", vnetHub+"/listDnsResolvers"), ct.count("POST", vnetHub+"/listDnsForwardingRulesets")
			if got := resolvers == 1 && rulesets == 1; got != tt.followed {
				t.Errorf("hub resolvers read %d times, hub rulesets %d times; want followed = %v", resolvers, rulesets, tt.followed)
			}
			if res.Verdict != tt.verdict || (tt.code != "" && !codes(res)[tt.code]) {
				t.Errorf("verdict %s, codes %v; want %s with %q\n%s", res.Verdict, codes(res), tt.verdict, tt.code, res.Summary)
			}
		})
	}
}
