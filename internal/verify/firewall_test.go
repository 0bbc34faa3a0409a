// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

var (
	fwID       = id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-hub")
	fwPolicyID = id("/resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-hub")
	fwBaseID   = id("/resourceGroups/rg-security/providers/Microsoft.Network/firewallPolicies/fwpol-base")
	fwIPGroup  = id("/resourceGroups/rg-hub/providers/Microsoft.Network/ipGroups/ipg-aks-nodes")
)

const acrTagWE = "AzureContainerRegistry.WestEurope"

// firewallFacts is the baseline with a hub firewall whose policy (child of
// fwpol-base) allows the login server from the node subnet and nothing
// else.
func firewallFacts() (model.Facts, *model.AzureFirewall) {
	f := baselineFacts()
	fw := &model.AzureFirewall{ID: fwID, Name: "fw-hub", PrivateIPs: ips("10.0.4.4"), PolicyID: fwPolicyID}
	f.Network.AddFirewall(fw)
	f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwBaseID, Name: "fwpol-base", RuleCollectionGroupsKnown: true})
	f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwPolicyID, Name: "fwpol-hub", BasePolicyID: fwBaseID, RuleCollectionGroupsKnown: true,
		RuleCollectionGroups: []model.FirewallRuleCollectionGroup{{ID: fwPolicyID + "/ruleCollectionGroups/apps", Name: "apps", Priority: 300,
			Collections: []model.FirewallRuleCollection{{Name: "acr", Priority: 200, Action: "Allow", Rules: []model.FirewallRule{{
				Name: "allow-login", Kind: model.FirewallApplicationRule, SourceIPGroupIDs: []model.ResourceID{fwIPGroup},
				Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}}}}}}}})
	f.Network.AddIPGroup(&model.IPGroup{ID: fwIPGroup, Name: "ipg-aks-nodes", Addresses: []string{"10.1.0.0/16"}})
	return f, fw
}

func newTestRun(f *model.Facts) *run {
	return &run{f: f, gaps: mergeGaps(f), used: map[string]bool{}}
}

func TestEvaluateFirewallEgress(t *testing.T) {
	nodes := pfxs("10.1.0.0/22")

	t.Run("allowed: no finding", func(t *testing.T) {
		f, fw := firewallFacts()
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if !ok || len(fs) != 0 {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
	})

	t.Run("denied by default: the firewall, the policy chain, the host and the rule that would allow it", func(t *testing.T) {
		f, fw := firewallFacts()
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, dataHostWE, acrTagWE)
		if ok || len(fs) != 1 || fs[0].Code != model.EgressFirewallDenied || fs[0].Severity != model.SeverityError ||
			fs[0].Condition != model.ConditionEgress || fs[0].Owner != model.OwnerNetwork {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		e := fs[0]
		if e.NodePool != "system" || e.Endpoint != dataHostWE || !e.ResourceID.Equal(fwPolicyID) {
			t.Errorf("finding on %s/%s/%s", e.NodePool, e.Endpoint, e.ResourceID)
		}
		requireContains(t, e.Message, "Azure Firewall fw-hub (10.0.4.4)", "firewall policy fwpol-hub, with parent policy fwpol-base",
			dataHostWE, "10.1.0.0/22", "no rule allows it")
		requireContains(t, e.Remediation, "application rule", "target FQDN "+dataHostWE, "Https:443", "service tag "+acrTagWE,
			"in firewall policy fwpol-hub", "will not help")
	})

	t.Run("denied by a rule of the parent policy: the finding is on that policy and names the rule", func(t *testing.T) {
		f, fw := firewallFacts()
		base := f.Network.FirewallPolicy(fwBaseID)
		base.RuleCollectionGroups = []model.FirewallRuleCollectionGroup{{Name: "guardrails", Priority: 65000,
			Collections: []model.FirewallRuleCollection{{Name: "no-registries", Priority: 65000, Action: "Deny", Rules: []model.FirewallRule{{
				Name: "deny-acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"*"},
				Protocols: []model.FirewallAppProtocol{{Type: "Https"}}, TargetFQDNs: []string{"*.azurecr.io"}}}}}}}
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 1 || fs[0].Code != model.EgressFirewallDenied || !fs[0].ResourceID.Equal(fwBaseID) {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		requireContains(t, fs[0].Message, "application rule deny-acr", "policy fwpol-base) denies it first")
		requireContains(t, fs[0].Remediation, "processed before application rule deny-acr", "or narrow that rule")
	})

	t.Run("denied for part of the node subnet", func(t *testing.T) {
		f, fw := firewallFacts()
		f.Network.IPGroup(fwIPGroup).Addresses = []string{"10.1.0.0/23"}
		fs, _ := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if len(fs) != 1 || fs[0].Code != model.EgressFirewallDenied {
			t.Fatalf("findings %+v", fs)
		}
		requireContains(t, fs[0].Message, "from 10.1.2.0/23 (part of the node subnet 10.1.0.0/22)")
	})

	t.Run("a rule that cannot be decided: unverified, naming it, the host and the port", func(t *testing.T) {
		f, fw := firewallFacts()
		pol := f.Network.FirewallPolicy(fwPolicyID)
		pol.RuleCollectionGroups = append(pol.RuleCollectionGroups, model.FirewallRuleCollectionGroup{Name: "net", Priority: 200,
			Collections: []model.FirewallRuleCollection{{Name: "egress", Priority: 100, Action: "Allow", Rules: []model.FirewallRule{{
				Name: "partner-ips", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"*"}, IPProtocols: []string{"TCP"},
				DestinationPorts: []string{"443"}, DestinationAddresses: []string{"20.50.0.0/16"}}}}}})
		r := newTestRun(&f)
		fs, ok := r.evaluateFirewallEgress("system", fw, nodes, dataHostWE, acrTagWE)
		if ok || len(fs) != 1 || fs[0].Code != model.EgressUnverified || fs[0].Severity != model.SeverityWarning {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		requireContains(t, fs[0].Message, "network rule partner-ips", "20.50.0.0/16", "must allow HTTPS (TCP 443) to "+dataHostWE+" from 10.1.0.0/22", "never reachable")
		if model.VerdictOf(fs) != model.Unverified {
			t.Errorf("verdict %s", model.VerdictOf(fs))
		}
	})

	t.Run("a policy that could not be read: unverified, with the evidence naming it and the permission", func(t *testing.T) {
		f, fw := firewallFacts()
		delete(f.Network.FirewallPolicies, fwBaseID.Key())
		f.Gaps.Add(model.Gap{ResourceID: fwBaseID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/firewallPolicies/read", Detail: "HTTP 403 AuthorizationFailed"})
		r := newTestRun(&f)
		fs, ok := r.evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 2 || fs[0].Code != model.EgressUnverified || fs[1].Code != model.EvidencePermissionDenied {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		requireContains(t, fs[0].Message, "firewall policy fwpol-base could not be read", "application rule allow-login")
		requireContains(t, fs[1].Message, "Microsoft.Network/firewallPolicies/read", string(fwBaseID), "Azure Firewall fw-hub")
		if len(r.unusedGapFindings()) != 0 {
			t.Error("the policy's gap is reported again as unused")
		}
	})

	t.Run("rule collection groups that could not be listed, one of them malformed", func(t *testing.T) {
		f, fw := firewallFacts()
		pol := f.Network.FirewallPolicy(fwPolicyID)
		pol.RuleCollectionGroups, pol.RuleCollectionGroupsKnown = nil, false
		bad := fwPolicyID + "/ruleCollectionGroups/apps"
		f.Gaps.Add(model.Gap{ResourceID: bad, Kind: model.GapUnavailable, Detail: "rule collection acr has no priority"})
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 2 || fs[1].Code != model.EvidenceUnavailable || !fs[1].ResourceID.Equal(bad) {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		requireContains(t, fs[1].Message, "has no priority")
	})

	t.Run("an IP group that is simply absent", func(t *testing.T) {
		f, fw := firewallFacts()
		delete(f.Network.IPGroups, fwIPGroup.Key())
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 2 || fs[1].Code != model.EvidenceNotFound || !fs[1].ResourceID.Equal(fwIPGroup) {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
	})

	t.Run("MCR through the AKS FQDN tag", func(t *testing.T) {
		f, fw := firewallFacts()
		rule := &f.Network.FirewallPolicy(fwPolicyID).RuleCollectionGroups[0].Collections[0].Rules[0]
		rule.TargetFQDNs, rule.FQDNTags = nil, []string{"AzureKubernetesService"}
		for _, host := range []string{"mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"} {
			if fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, host, ""); !ok || len(fs) != 0 {
				t.Errorf("%s: allowed %v, findings %+v", host, ok, fs)
			}
		}
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 1 || fs[0].Code != model.EgressFirewallDenied {
			t.Errorf("an ACR host through the AKS tag alone: allowed %v, findings %+v", ok, fs)
		}
	})

	t.Run("classic rules: the finding is on the firewall", func(t *testing.T) {
		f, fw := firewallFacts()
		fw.PolicyID = ""
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", fw, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 1 || !fs[0].ResourceID.Equal(fwID) {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
		requireContains(t, fs[0].Message, "classic rules")
		requireContains(t, fs[0].Remediation, "classic rule collection of firewall fw-hub")
	})

	t.Run("no firewall read", func(t *testing.T) {
		f, _ := firewallFacts()
		fs, ok := newTestRun(&f).evaluateFirewallEgress("system", nil, nodes, loginHost, acrTagWE)
		if ok || len(fs) != 1 || fs[0].Code != model.EgressUnverified {
			t.Fatalf("allowed %v, findings %+v", ok, fs)
		}
	})
}
