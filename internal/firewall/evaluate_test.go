// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const (
	polHub    = model.ResourceID("/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-hub")
	polBase   = model.ResourceID("/subscriptions/s/resourceGroups/rg-sec/providers/Microsoft.Network/firewallPolicies/fwpol-base")
	ipgNodes  = model.ResourceID("/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/ipGroups/ipg-aks-nodes")
	loginHost = "contosoreg.azurecr.io"
	dataHost  = "contosoreg.westeurope.data.azurecr.io"
	acrTag    = "AzureContainerRegistry.WestEurope"
)

var nodes = []netip.Prefix{netip.MustParsePrefix("10.1.0.0/22")}

func appRule(name string, targets ...string) model.FirewallRule {
	return model.FirewallRule{Name: name, Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/16"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: targets}
}

func netRule(name string, dests ...string) model.FirewallRule {
	return model.FirewallRule{Name: name, Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"},
		IPProtocols: []string{"TCP"}, DestinationPorts: []string{"443"}, DestinationAddresses: dests}
}

func collection(name string, priority int32, action string, rules ...model.FirewallRule) model.FirewallRuleCollection {
	return model.FirewallRuleCollection{Name: name, Priority: priority, Action: action, Rules: rules}
}

func group(policy model.ResourceID, name string, priority int32, cols ...model.FirewallRuleCollection) model.FirewallRuleCollectionGroup {
	return model.FirewallRuleCollectionGroup{ID: policy + "/ruleCollectionGroups/" + model.ResourceID(name), Name: name, Priority: priority, Collections: cols}
}

func policy(id, base model.ResourceID, groups ...model.FirewallRuleCollectionGroup) *model.FirewallPolicy {
	return &model.FirewallPolicy{ID: id, Name: id.Name(), BasePolicyID: base, RuleCollectionGroups: groups, RuleCollectionGroupsKnown: true}
}

func firewallWith(pol model.ResourceID) *model.AzureFirewall {
	return &model.AzureFirewall{ID: "/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-hub",
		Name: "fw-hub", PolicyID: pol, PrivateIPs: []netip.Addr{netip.MustParseAddr("10.0.4.4")}}
}

func rulesOf(ps ...*model.FirewallPolicy) Rules {
	r := Rules{Policies: map[string]*model.FirewallPolicy{}, IPGroups: map[string]*model.IPGroup{}}
	for _, p := range ps {
		r.Policies[p.ID.Key()] = p
	}
	return r
}

func flowTo(host, tag string) Flow {
	return Flow{Sources: nodes, Host: host, ServiceTag: tag}
}

type evalCase struct {
	name    string
	fw      *model.AzureFirewall
	rules   Rules
	flow    Flow
	verdict Verdict
	// rule is the name of the deciding rule ("" for none).
	rule string
	// denied are the denied sources (Denied).
	denied string
	// missing are the names of the resources that could not be read.
	missing []string
	// why is a part of an undecided rule's reason.
	why string
}

func (tc evalCase) run(t *testing.T) {
	t.Helper()
	d := Evaluate(tc.fw, tc.rules, tc.flow)
	if d.Verdict != tc.verdict {
		t.Fatalf("verdict %s, want %s: %+v", d.Verdict, tc.verdict, d)
	}
	got := ""
	if d.Rule != nil {
		got = d.Rule.Rule
	}
	if got != tc.rule {
		t.Errorf("deciding rule %q, want %q (%+v)", got, tc.rule, d.Rule)
	}
	if tc.verdict == Denied {
		want := tc.denied
		if want == "" {
			want = fmt.Sprint(tc.flow.Sources)
		}
		if fmt.Sprint(d.DeniedSources) != want {
			t.Errorf("denied sources %v, want %s", d.DeniedSources, want)
		}
	}
	var missing []string
	for _, id := range d.Missing {
		missing = append(missing, id.Name())
	}
	if fmt.Sprint(missing) != fmt.Sprint(tc.missing) && !(len(missing) == 0 && len(tc.missing) == 0) {
		t.Errorf("missing %v, want %v", missing, tc.missing)
	}
	if tc.why != "" {
		var whys []string
		for _, u := range d.Undecided {
			whys = append(whys, u.Why)
		}
		if !strings.Contains(strings.Join(whys, " | "), tc.why) {
			t.Errorf("undecided reasons %q do not say %q", whys, tc.why)
		}
	}
	if tc.verdict != Allowed && tc.fw != nil && d.Allow == "" {
		t.Error("no hint of the rule that would allow the flow")
	}
}

func TestEvaluateApplicationRules(t *testing.T) {
	loginOnly := rulesOf(policy(polHub, "", group(polHub, "DefaultApplicationRuleCollectionGroup", 300,
		collection("acr", 200, "Allow", appRule("allow-login", loginHost)))))
	wildcard := rulesOf(policy(polHub, "", group(polHub, "apps", 300,
		collection("acr", 200, "Allow", appRule("allow-acr", "*.azurecr.io")))))
	for _, tc := range []evalCase{
		{name: "login allowed by its exact FQDN", fw: firewallWith(polHub), rules: loginOnly, flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "allow-login"},
		{name: "data endpoint denied by default", fw: firewallWith(polHub), rules: loginOnly, flow: flowTo(dataHost, acrTag), verdict: Denied},
		{name: "a *. wildcard allows login and data", fw: firewallWith(polHub), rules: wildcard, flow: flowTo(dataHost, acrTag), verdict: Allowed, rule: "allow-acr"},
		{name: "a *. wildcard does not allow another domain", fw: firewallWith(polHub), rules: wildcard, flow: flowTo("mcr.microsoft.com", ""), verdict: Denied},
		{name: "Http:80 does not allow HTTPS", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied,
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 200, "Allow", func() model.FirewallRule {
				r := appRule("http-only", loginHost)
				r.Protocols = []model.FirewallAppProtocol{{Type: "Http", Port: 80}}
				return r
			}())))),
		},
		{name: "Https on another port does not allow 443", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied,
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 200, "Allow", func() model.FirewallRule {
				r := appRule("https-8443", loginHost)
				r.Protocols = []model.FirewallAppProtocol{{Type: "Https", Port: 8443}}
				return r
			}())))),
		},
		{name: "a web category is undecided", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Unverified, why: "web category",
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("web", 200, "Allow", func() model.FirewallRule {
				r := appRule("tech")
				r.WebCategories = []string{"ComputersAndTechnology"}
				return r
			}())))),
		},
		{name: "the storage behind a registry: *.blob.core.windows.net allows every account", fw: firewallWith(polHub), flow: flowTo("*.blob.core.windows.net", "Storage.WestEurope"), verdict: Allowed, rule: "blob",
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("storage", 200, "Allow", appRule("blob", "*.blob.core.windows.net"))))),
		},
		{name: "one named account does not cover an account ARM does not name", fw: firewallWith(polHub), flow: flowTo("*.blob.core.windows.net", "Storage.WestEurope"), verdict: Unverified, rule: "",
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("storage", 200, "Allow", appRule("acct", "acct.blob.core.windows.net"))))),
			why:   "may cover some but not all",
		},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestEvaluateFQDNTags(t *testing.T) {
	aks := appRule("aks")
	aks.TargetFQDNs, aks.FQDNTags = nil, []string{"AzureKubernetesService"}
	rules := rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("aks", 200, "Allow", aks))))
	for _, tc := range []evalCase{
		{name: "mcr.microsoft.com", fw: firewallWith(polHub), rules: rules, flow: flowTo("mcr.microsoft.com", ""), verdict: Allowed, rule: "aks"},
		{name: "MCR data", fw: firewallWith(polHub), rules: rules, flow: flowTo("westeurope.data.mcr.microsoft.com", ""), verdict: Allowed, rule: "aks"},
		{name: "an ACR registry is not in the AKS tag", fw: firewallWith(polHub), rules: rules, flow: flowTo(loginHost, acrTag), verdict: Denied},
	} {
		t.Run(tc.name, tc.run)
	}
	other := appRule("wu")
	other.TargetFQDNs, other.FQDNTags = nil, []string{"WindowsUpdate"}
	evalCase{name: "an undocumented tag", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Unverified, why: "WindowsUpdate",
		rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("wu", 200, "Allow", other))))}.run(t)
}

func TestEvaluateNetworkRules(t *testing.T) {
	one := func(r model.FirewallRule) Rules {
		return rulesOf(policy(polHub, "", group(polHub, "net", 200, collection("net", 100, "Allow", r))))
	}
	udp := netRule("udp-any", "*")
	udp.IPProtocols = []string{"UDP"}
	port80 := netRule("http", "*")
	port80.DestinationPorts = []string{"80"}
	anyProto := netRule("any", "AzureContainerRegistry")
	anyProto.IPProtocols, anyProto.DestinationPorts = []string{"Any"}, []string{"1-65535"}
	fqdn := netRule("mcr-fqdn")
	fqdn.DestinationAddresses, fqdn.DestinationFQDNs = nil, []string{"mcr.microsoft.com"}
	proxied := firewallWith(polHub)
	proxied.DNSProxyEnabled = true

	for _, tc := range []evalCase{
		{name: "the registry's regional service tag", fw: firewallWith(polHub), rules: one(netRule("acr", acrTag)), flow: flowTo(dataHost, acrTag), verdict: Allowed, rule: "acr"},
		{name: "the service tag without region covers every region", fw: firewallWith(polHub), rules: one(netRule("acr", "AzureContainerRegistry")), flow: flowTo(dataHost, acrTag), verdict: Allowed, rule: "acr"},
		{name: "Any protocol and a port range", fw: firewallWith(polHub), rules: one(anyProto), flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "any"},
		{name: "another region's tag does not", fw: firewallWith(polHub), rules: one(netRule("acr-ne", "AzureContainerRegistry.NorthEurope")), flow: flowTo(dataHost, acrTag), verdict: Denied},
		{name: "another service's tag is undecided", fw: firewallWith(polHub), rules: one(netRule("monitor", "AzureMonitor")), flow: flowTo(dataHost, acrTag), verdict: Unverified, why: "service tag discovery API"},
		{name: "a tag against a host without a known tag is undecided", fw: firewallWith(polHub), rules: one(netRule("acr", "AzureContainerRegistry")), flow: flowTo("registry.example.com", ""), verdict: Unverified},
		{name: "public addresses against an unknown public IP are undecided", fw: firewallWith(polHub), rules: one(netRule("ips", "20.50.0.0/16")), flow: flowTo(loginHost, acrTag), verdict: Unverified, why: "not in Resource Manager"},
		{name: "private addresses never hold a public one", fw: firewallWith(polHub), rules: one(netRule("private", "10.0.0.0/8", "192.168.0.0/16")), flow: flowTo(loginHost, acrTag), verdict: Denied},
		{name: "every address", fw: firewallWith(polHub), rules: one(netRule("all", "0.0.0.0/0")), flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "all"},
		{name: "UDP does not carry HTTPS", fw: firewallWith(polHub), rules: one(udp), flow: flowTo(loginHost, acrTag), verdict: Denied},
		{name: "port 80 is not 443", fw: firewallWith(polHub), rules: one(port80), flow: flowTo(loginHost, acrTag), verdict: Denied},
		{name: "a destination FQDN with the DNS proxy", fw: proxied, rules: one(fqdn), flow: flowTo("mcr.microsoft.com", ""), verdict: Allowed, rule: "mcr-fqdn"},
		{name: "a destination FQDN without the DNS proxy", fw: firewallWith(polHub), rules: one(fqdn), flow: flowTo("mcr.microsoft.com", ""), verdict: Unverified, why: "DNS proxy, which is off"},
		{name: "a destination FQDN of another name", fw: proxied, rules: one(fqdn), flow: flowTo("westeurope.data.mcr.microsoft.com", ""), verdict: Denied},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestEvaluateOrder(t *testing.T) {
	denyAll := netRule("deny-internet", "*")
	for _, tc := range []evalCase{
		{
			name: "network rules come before application rules, whatever the group priorities",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-internet",
			rules: rulesOf(policy(polHub, "",
				group(polHub, "apps", 100, collection("acr", 100, "Allow", appRule("allow-login", loginHost))),
				group(polHub, "net", 400, collection("deny", 4000, "Deny", denyAll)))),
		},
		{
			name: "groups by priority: the lower number first",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "allow-acr",
			rules: rulesOf(policy(polHub, "",
				group(polHub, "late", 500, collection("deny", 100, "Deny", netRule("deny-acr", acrTag))),
				group(polHub, "early", 200, collection("allow", 900, "Allow", netRule("allow-acr", acrTag))))),
		},
		{
			name: "collections by priority within a group",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-acr",
			rules: rulesOf(policy(polHub, "",
				group(polHub, "one", 200,
					collection("allow", 300, "Allow", appRule("allow-login", loginHost)),
					collection("deny", 250, "Deny", appRule("deny-acr", "*.azurecr.io"))))),
		},
		{
			name: "a parent policy's rules come before the child's",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-registries",
			rules: rulesOf(
				policy(polBase, "", group(polBase, "base", 65000, collection("deny", 65000, "Deny", appRule("deny-registries", "*.azurecr.io")))),
				policy(polHub, polBase, group(polHub, "apps", 100, collection("acr", 100, "Allow", appRule("allow-login", loginHost))))),
		},
		{
			name: "a parent's allow decides before the child's deny",
			fw:   firewallWith(polHub), flow: flowTo(dataHost, acrTag), verdict: Allowed, rule: "allow-acr",
			rules: rulesOf(
				policy(polBase, "", group(polBase, "base", 300, collection("acr", 300, "Allow", netRule("allow-acr", "AzureContainerRegistry")))),
				policy(polHub, polBase, group(polHub, "net", 100, collection("deny", 100, "Deny", denyAll)))),
		},
		{
			name: "the child's network deny comes before the parent's application allow",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-internet",
			rules: rulesOf(
				policy(polBase, "", group(polBase, "base", 100, collection("acr", 100, "Allow", appRule("allow-login", loginHost)))),
				policy(polHub, polBase, group(polHub, "net", 400, collection("deny", 400, "Deny", denyAll)))),
		},
		{
			name: "an undecided allow before an allow that decides changes nothing",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "allow-login",
			rules: rulesOf(policy(polHub, "",
				group(polHub, "net", 200, collection("monitor", 100, "Allow", netRule("monitor", "AzureMonitor"))),
				group(polHub, "apps", 300, collection("acr", 100, "Allow", appRule("allow-login", loginHost))))),
		},
		{
			name: "an undecided deny before an allow leaves it unverified",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Unverified, rule: "allow-login", why: "AzureMonitor",
			rules: rulesOf(policy(polHub, "",
				group(polHub, "net", 200, collection("monitor", 100, "Deny", netRule("deny-monitor", "AzureMonitor"))),
				group(polHub, "apps", 300, collection("acr", 100, "Allow", appRule("allow-login", loginHost))))),
		},
		{
			name: "an undecided deny before the default deny is still a deny",
			fw:   firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied,
			rules: rulesOf(policy(polHub, "", group(polHub, "net", 200, collection("monitor", 100, "Deny", netRule("deny-monitor", "AzureMonitor"))))),
		},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestEvaluateSources(t *testing.T) {
	half := appRule("half", loginHost)
	half.SourceAddresses = []string{"10.1.0.0/23"}
	viaGroup := appRule("nodes", loginHost)
	viaGroup.SourceAddresses, viaGroup.SourceIPGroupIDs = nil, []model.ResourceID{ipgNodes}
	withGroup := rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 100, "Allow", viaGroup))))
	withGroup.IPGroups[ipgNodes.Key()] = &model.IPGroup{ID: ipgNodes, Name: "ipg-aks-nodes", Addresses: []string{"10.1.0.0-10.1.3.255"}}
	withoutGroup := rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 100, "Allow", viaGroup))))
	other := appRule("other-spoke", loginHost)
	other.SourceAddresses = []string{"10.2.0.0/16"}
	denyHalf := appRule("deny-half", "*.azurecr.io")
	denyHalf.SourceAddresses = []string{"10.1.2.0/23"}

	for _, tc := range []evalCase{
		{name: "a rule covering part of the node subnet denies the rest", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, denied: "[10.1.2.0/23]",
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 100, "Allow", half))))},
		{name: "an IP group holding the nodes", fw: firewallWith(polHub), rules: withGroup, flow: flowTo(loginHost, acrTag), verdict: Allowed, rule: "nodes"},
		{name: "an IP group that could not be read", fw: firewallWith(polHub), rules: withoutGroup, flow: flowTo(loginHost, acrTag), verdict: Unverified, missing: []string{"ipg-aks-nodes"}},
		{name: "a rule for other sources", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied,
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300, collection("acr", 100, "Allow", other))))},
		{name: "a deny for part of the nodes before an allow for all", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-half", denied: "[10.1.2.0/23]",
			rules: rulesOf(policy(polHub, "", group(polHub, "apps", 300,
				collection("deny", 100, "Deny", denyHalf), collection("acr", 200, "Allow", appRule("allow-login", loginHost)))))},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestEvaluateMissingRules(t *testing.T) {
	unlisted := policy(polHub, "")
	unlisted.RuleCollectionGroupsKnown = false
	parentDenies := policy(polBase, "", group(polBase, "base", 100, collection("deny", 100, "Deny", netRule("deny-internet", "*"))))
	childUnlisted := policy(polHub, polBase)
	childUnlisted.RuleCollectionGroupsKnown = false
	loopA := policy(polHub, polBase, group(polHub, "apps", 300, collection("acr", 100, "Allow", appRule("allow-login", loginHost))))
	loopB := policy(polBase, polHub)

	for _, tc := range []evalCase{
		{name: "the firewall's policy could not be read", fw: firewallWith(polHub), rules: rulesOf(), flow: flowTo(loginHost, acrTag), verdict: Unverified, missing: []string{"fwpol-hub"}},
		{name: "its rule collection groups could not be listed", fw: firewallWith(polHub), rules: rulesOf(unlisted), flow: flowTo(loginHost, acrTag), verdict: Unverified, missing: []string{"ruleCollectionGroups"}},
		{name: "the parent policy could not be read", fw: firewallWith(polHub), flow: flowTo(loginHost, acrTag), verdict: Unverified, missing: []string{"fwpol-base"}, rule: "allow-login",
			rules: rulesOf(policy(polHub, polBase, group(polHub, "apps", 300, collection("acr", 100, "Allow", appRule("allow-login", loginHost)))))},
		{name: "a parent's deny decides although the child's rules are unknown", fw: firewallWith(polHub), rules: rulesOf(parentDenies, childUnlisted), flow: flowTo(loginHost, acrTag), verdict: Denied, rule: "deny-internet"},
		{name: "a parent chain that loops", fw: firewallWith(polHub), rules: rulesOf(loopA, loopB), flow: flowTo(loginHost, acrTag), verdict: Unverified, rule: "allow-login", why: "loop"},
		{name: "no firewall", fw: nil, flow: flowTo(loginHost, acrTag), verdict: Unverified},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestEvaluateClassicRules(t *testing.T) {
	fw := firewallWith("")
	fw.NetworkRuleCollections = []model.FirewallRuleCollection{
		collection("allow-acr", 300, "Allow", netRule("acr", "AzureContainerRegistry")),
		collection("deny-acr-ne", 200, "Deny", netRule("acr-ne", "AzureContainerRegistry.NorthEurope")),
	}
	evalCase{name: "classic: network collections by priority", fw: fw, rules: Rules{},
		flow: flowTo(dataHost, acrTag), verdict: Allowed, rule: "acr"}.run(t)
	evalCase{name: "classic: the lower priority number first", fw: fw, rules: Rules{},
		flow: flowTo("contosoreg.northeurope.data.azurecr.io", "AzureContainerRegistry.NorthEurope"), verdict: Denied, rule: "acr-ne"}.run(t)

	apps := firewallWith("")
	apps.ApplicationRuleCollections = []model.FirewallRuleCollection{
		collection("allow-mcr", 200, "Allow", appRule("mcr", "mcr.microsoft.com")),
		collection("deny-all", 100, "Deny", appRule("everything", "*")),
	}
	evalCase{name: "classic: application collections by priority", fw: apps, rules: Rules{},
		flow: flowTo("mcr.microsoft.com", ""), verdict: Denied, rule: "everything"}.run(t)
	d := Evaluate(apps, Rules{}, flowTo("mcr.microsoft.com", ""))
	if d.Rule == nil || !strings.HasPrefix(d.Rule.String(), "classic application rule everything") || !strings.Contains(d.Allow, "classic rule collection of firewall fw-hub") {
		t.Errorf("classic rule named %v, hint %q", d.Rule, d.Allow)
	}
}

func TestDecisionNamesRuleAndHint(t *testing.T) {
	rules := rulesOf(policy(polHub, "", group(polHub, "DefaultApplicationRuleCollectionGroup", 300,
		collection("acr", 200, "Allow", appRule("allow-login", loginHost)),
		collection("deny-rest", 900, "Deny", appRule("deny-rest", "*")))))
	d := Evaluate(firewallWith(polHub), rules, flowTo(dataHost, acrTag))
	if d.Verdict != Denied || d.Rule == nil {
		t.Fatalf("%+v", d)
	}
	want := "application rule deny-rest (collection deny-rest, priority 900, Deny; group DefaultApplicationRuleCollectionGroup, priority 300; policy fwpol-hub)"
	if d.Rule.String() != want {
		t.Errorf("rule %q\nwant %q", d.Rule.String(), want)
	}
	for _, part := range []string{"10.1.0.0/22", "Https:443", "target FQDN " + dataHost, "service tag " + acrTag, "firewall policy fwpol-hub", "processed before " + want} {
		if !strings.Contains(d.Allow, part) {
			t.Errorf("hint %q lacks %q", d.Allow, part)
		}
	}
	mcr := Evaluate(firewallWith(polHub), rules, flowTo("mcr.microsoft.com", ""))
	if !strings.Contains(mcr.Allow, "FQDN tag AzureKubernetesService") {
		t.Errorf("the hint for an MCR host does not offer the AKS FQDN tag: %q", mcr.Allow)
	}
}
