// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The hub firewall of the firewall tests: rt-aks sends 0.0.0.0/0 to it;
// its policy fwpol-hub (DNS proxy on) inherits from fwpol-base; the
// application rule allowing the login server takes its sources from the IP
// group ipg-aks-nodes; nothing allows the data endpoint.
const (
	fwHub        = model.ResourceID(hubRG + "/providers/Microsoft.Network/azureFirewalls/fw-hub")
	fwSubnet     = vnetHub + "/subnets/AzureFirewallSubnet"
	fwPolicy     = model.ResourceID(hubRG + "/providers/Microsoft.Network/firewallPolicies/fwpol-hub")
	fwBasePolicy = model.ResourceID(sub + "/resourceGroups/rg-security/providers/Microsoft.Network/firewallPolicies/fwpol-base")
	fwIPGroup    = model.ResourceID(hubRG + "/providers/Microsoft.Network/ipGroups/ipg-aks-nodes")
	fwAppGroup   = fwPolicy + "/ruleCollectionGroups/DefaultApplicationRuleCollectionGroup"
	fwBaseGroup  = fwBasePolicy + "/ruleCollectionGroups/platform"
	loginHost    = "contosoreg.azurecr.io"
	dataHost     = "contosoreg.westeurope.data.azurecr.io"
)

const firewallResources = `[
 {"id": "` + string(fwHub) + `", "name": "fw-hub", "type": "Microsoft.Network/azureFirewalls", "location": "westeurope",
  "properties": {
   "sku": {"name": "AZFW_VNet", "tier": "Standard"},
   "ipConfigurations": [{"name": "ipconfig1", "id": "` + string(fwHub) + `/azureFirewallIpConfigurations/ipconfig1",
     "properties": {"privateIPAddress": "10.0.4.4", "subnet": {"id": "` + string(fwSubnet) + `"},
       "publicIPAddress": {"id": "` + hubRG + `/providers/Microsoft.Network/publicIPAddresses/pip-fw-hub"}}}],
   "firewallPolicy": {"id": "` + string(fwPolicy) + `"},
   "networkRuleCollections": [], "applicationRuleCollections": [], "natRuleCollections": []}},
 {"id": "` + string(fwPolicy) + `", "name": "fwpol-hub", "type": "Microsoft.Network/firewallPolicies", "location": "westeurope",
  "properties": {"basePolicy": {"id": "` + string(fwBasePolicy) + `"}, "dnsSettings": {"enableProxy": true},
   "ruleCollectionGroups": [{"id": "` + string(fwAppGroup) + `"}]}},
 {"id": "` + string(fwAppGroup) + `", "name": "DefaultApplicationRuleCollectionGroup",
  "type": "Microsoft.Network/firewallPolicies/ruleCollectionGroups",
  "properties": {"priority": 300, "ruleCollections": [
   {"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "acr", "priority": 200, "action": {"type": "Allow"},
    "rules": [{"ruleType": "ApplicationRule", "name": "allow-login", "sourceIpGroups": ["` + string(fwIPGroup) + `"],
      "protocols": [{"protocolType": "Https", "port": 443}], "targetFqdns": ["` + loginHost + `"]}]},
   {"ruleCollectionType": "FirewallPolicyNatRuleCollection", "name": "dnat", "priority": 100, "action": {"type": "DNAT"},
    "rules": [{"ruleType": "NatRule", "name": "ssh", "sourceAddresses": ["*"], "destinationAddresses": ["20.1.2.3"],
      "destinationPorts": ["22"], "ipProtocols": ["TCP"], "translatedAddress": "10.0.1.4", "translatedPort": "22"}]}]}},
 {"id": "` + string(fwBasePolicy) + `", "name": "fwpol-base", "type": "Microsoft.Network/firewallPolicies", "location": "westeurope",
  "properties": {"dnsSettings": {"enableProxy": false}}},
 {"id": "` + string(fwBaseGroup) + `", "name": "platform", "type": "Microsoft.Network/firewallPolicies/ruleCollectionGroups",
  "properties": {"priority": 100, "ruleCollections": [
   {"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "ntp", "priority": 100, "action": {"type": "Allow"},
    "rules": [{"ruleType": "NetworkRule", "name": "ntp", "sourceAddresses": ["10.0.0.0/8"], "destinationAddresses": ["*"],
      "destinationPorts": ["123"], "ipProtocols": ["UDP"]}]}]}},
 {"id": "` + string(fwIPGroup) + `", "name": "ipg-aks-nodes", "type": "Microsoft.Network/ipGroups", "location": "westeurope",
  "properties": {"ipAddresses": ["10.1.0.0/22", "10.1.8.0/24"]}}
]`

// withFirewallHub turns udr_blackhole into the hub firewall topology.
func withFirewallHub(t *testing.T, m map[string]any) {
	t.Helper()
	var extra []any
	if err := json.Unmarshal([]byte(firewallResources), &extra); err != nil {
		t.Fatal(err)
	}
	res := m["resources"].([]any)
	for _, r := range res {
		obj := r.(map[string]any)
		id := model.ResourceID(obj["id"].(string))
		props, _ := obj["properties"].(map[string]any)
		switch {
		case id.Equal(rtAKS):
			props["routes"] = []any{map[string]any{"name": "default-via-fw", "id": string(rtAKS) + "/routes/default-via-fw",
				"properties": map[string]any{"addressPrefix": "0.0.0.0/0", "nextHopType": "VirtualAppliance", "nextHopIpAddress": "10.0.4.4"}}}
		case id.Equal(vnetHub):
			props["subnets"] = append(props["subnets"].([]any), map[string]any{"name": "AzureFirewallSubnet", "id": string(fwSubnet),
				"properties": map[string]any{"addressPrefix": "10.0.4.0/26",
					"ipConfigurations": []any{map[string]any{"id": string(fwHub) + "/azureFirewallIpConfigurations/ipconfig1"}}}})
		}
	}
	m["resources"] = append(res, extra...)
}

// firewallFlow is a pull flow of the system pool's nodes.
func firewallFlow(host string) firewall.Flow {
	return firewall.Flow{Sources: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/22")}, Host: host, ServiceTag: "AzureContainerRegistry.WestEurope"}
}

func TestVerificationFactsReadFirewall(t *testing.T) {
	r, ct := withSnapshot(t, "udr_blackhole", func(m map[string]any) { withFirewallHub(t, m) })
	f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	// The firewall is read with the facts; its rules only for a path that
	// crosses it, and never before.
	rules := model.FirewallRulesOf(fwHub)
	if !f.Network.Pending.Has(rules) {
		t.Fatalf("the firewall's rules are not pending after the facts: %v", f.Network.Pending.Sorted())
	}
	for _, read := range []model.ResourceID{fwPolicy, fwBasePolicy, fwIPGroup} {
		if c := ct.count("GET", read); c != 0 {
			t.Errorf("GET %s sent %d times before a path crossed the firewall, want 0", read, c)
		}
	}
	if got := r.ReadVerificationEvidence(testCtx(t), &f, []model.Evidence{rules}); got != 1 || f.Network.Pending.Has(rules) {
		t.Fatalf("reading the firewall's rules settled %d, still pending %v", got, f.Network.Pending.Sorted())
	}
	requireNoGaps(t, r)
	n := f.Network
	fw := n.FirewallByPrivateIP(ip("10.0.4.4"))
	if fw == nil || !fw.ID.Equal(fwHub) {
		t.Fatalf("firewall by 10.0.4.4 = %+v (firewalls %v)", fw, keys(n.Firewalls))
	}
	if !fw.PolicyID.Equal(fwPolicy) || !fw.DNSProxyEnabled || fw.SKUTier != "Standard" || len(fw.PublicIPAddressIDs) != 1 || !fw.SubnetIDs[0].Equal(fwSubnet) {
		t.Errorf("firewall = %+v", fw)
	}
	pol, base := n.FirewallPolicy(fwPolicy), n.FirewallPolicy(fwBasePolicy)
	if pol == nil || base == nil || !pol.BasePolicyID.Equal(fwBasePolicy) || base.DNSProxyEnabled || !pol.RuleCollectionGroupsKnown {
		t.Fatalf("policies = %+v / %+v", pol, base)
	}
	if len(pol.RuleCollectionGroups) != 1 || pol.RuleCollectionGroups[0].Priority != 300 || len(pol.RuleCollectionGroups[0].Collections) != 1 {
		t.Fatalf("groups of the child policy (the DNAT collection left out) = %+v", pol.RuleCollectionGroups)
	}
	rule := pol.RuleCollectionGroups[0].Collections[0].Rules[0]
	if rule.Kind != model.FirewallApplicationRule || rule.Protocols[0] != (model.FirewallAppProtocol{Type: "Https", Port: 443}) || !rule.SourceIPGroupIDs[0].Equal(fwIPGroup) {
		t.Errorf("rule = %+v", rule)
	}
	if g := n.IPGroup(fwIPGroup); g == nil || !reflect.DeepEqual(g.Addresses, []string{"10.1.0.0/22", "10.1.8.0/24"}) {
		t.Errorf("IP group = %+v", g)
	}
	for _, read := range []model.ResourceID{fwHub, fwPolicy, fwBasePolicy, fwPolicy + "/ruleCollectionGroups", fwBasePolicy + "/ruleCollectionGroups", fwIPGroup} {
		if c := ct.count("GET", read); c != 1 {
			t.Errorf("GET %s sent %d times, want 1", read, c)
		}
	}

	// What was read decides: login allowed by its rule, data denied.
	read := firewall.RulesOf(n)
	if d := firewall.Evaluate(fw, read, firewallFlow(loginHost)); d.Verdict != firewall.Allowed || d.Rule.Rule != "allow-login" {
		t.Errorf("login: %+v", d)
	}
	if d := firewall.Evaluate(fw, read, firewallFlow(dataHost)); d.Verdict != firewall.Denied || d.Rule != nil {
		t.Errorf("data: %+v", d)
	}
	if got := firewall.Evaluate(fw, read, firewallFlow(loginHost)).Policies; len(got) != 2 || !got[0].Equal(fwBasePolicy) {
		t.Errorf("policy chain = %v, want the parent first", got)
	}
}

func TestFirewallsBehindPrivateRoutes(t *testing.T) {
	// A route for the hub's private range through the firewall: the
	// firewall decides that flow too (spoke to hub, private endpoints), so
	// it is read with the facts; what decides its rules stays pending until
	// a path crosses it.
	r, ct := withSnapshot(t, "udr_blackhole", func(m map[string]any) {
		withFirewallHub(t, m)
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(rtAKS) {
				route := obj["properties"].(map[string]any)["routes"].([]any)[0].(map[string]any)["properties"].(map[string]any)
				route["addressPrefix"] = "10.0.0.0/16"
			}
		}
	})
	f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Network.Firewalls) != 1 || ct.count("GET", fwHub) != 1 {
		t.Errorf("firewalls %v (%d reads), want fw-hub read once for a private route", keys(f.Network.Firewalls), ct.count("GET", fwHub))
	}
	if fw := f.Network.Firewall(fwHub); fw != nil && !fw.PolicyID.IsZero() && !f.Network.Pending.Has(model.FirewallRulesOf(fw.ID)) {
		t.Error("the firewall's rules are read before any path crosses it")
	}
}

func TestFirewallFoundByListWithoutIPConfigurations(t *testing.T) {
	r, ct := withSnapshot(t, "udr_blackhole", func(m map[string]any) {
		withFirewallHub(t, m)
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(vnetHub) {
				subnets := obj["properties"].(map[string]any)["subnets"].([]any)
				delete(subnets[len(subnets)-1].(map[string]any)["properties"].(map[string]any), "ipConfigurations")
			}
		}
	})
	f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	if f.Network.Firewall(fwHub) == nil || ct.count("GET", hubRG+"/providers/Microsoft.Network/azureFirewalls") != 1 || ct.count("GET", fwHub) != 0 {
		t.Errorf("firewalls %v; the group's list read %d times, the firewall %d times",
			keys(f.Network.Firewalls), ct.count("GET", hubRG+"/providers/Microsoft.Network/azureFirewalls"), ct.count("GET", fwHub))
	}
}

// An AzureFirewallSubnet whose answer lists no ip configuration has its
// firewall looked up among those of its resource group; when that list
// fails, which firewall holds the next hop address is unknown, and the
// address carries the list's gap (never "nothing holds it").
func TestFirewallListFailureIsAnAddressGap(t *testing.T) {
	list := model.ResourceID(hubRG + "/providers/Microsoft.Network/azureFirewalls")
	for _, tc := range []struct {
		name  string
		fault bool
	}{{"the list fails: the address carries its gap", true}, {"the list answers: no gap on the address (negative)", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := withSnapshot(t, "udr_blackhole", func(m map[string]any) {
				withFirewallHub(t, m)
				for _, res := range m["resources"].([]any) {
					obj := res.(map[string]any)
					if model.ResourceID(obj["id"].(string)).Equal(vnetHub) {
						subnets := obj["properties"].(map[string]any)["subnets"].([]any)
						delete(subnets[len(subnets)-1].(map[string]any)["properties"].(map[string]any), "ipConfigurations")
					}
				}
				if tc.fault {
					m["faults"] = map[string]any{"GET " + string(list): map[string]any{"status": 403, "code": "AuthorizationFailed"}}
				}
			})
			f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
			if err != nil {
				t.Fatal(err)
			}
			g, ok := f.Network.AddressGaps[netip.MustParseAddr("10.0.4.4")]
			if ok != tc.fault {
				t.Fatalf("address gap %v (%+v), want %v", ok, g, tc.fault)
			}
			if tc.fault && (!g.ResourceID.Equal(list) || g.Kind != model.GapPermissionDenied || g.Permission != permFirewallRead || !strings.Contains(g.Detail, "10.0.4.4")) {
				t.Errorf("gap %+v, want the refused list of %s naming 10.0.4.4", g, list)
			}
		})
	}
}

func TestFirewallConversions(t *testing.T) {
	var extra []json.RawMessage
	if err := json.Unmarshal([]byte(firewallResources), &extra); err != nil {
		t.Fatal(err)
	}
	classic := `{"id": "` + string(fwHub) + `", "name": "fw-hub", "properties": {
	  "additionalProperties": {"Network.DNS.EnableProxy": "true"},
	  "hubIPAddresses": {"privateIPAddress": "10.0.4.4", "publicIPs": {"addresses": [{"address": "20.1.2.3"}], "count": 1}},
	  "networkRuleCollections": [{"name": "net", "properties": {"priority": 200, "action": {"type": "Allow"},
	    "rules": [{"name": "acr", "sourceAddresses": ["10.1.0.0/16"], "destinationAddresses": ["AzureContainerRegistry"],
	      "destinationPorts": ["443"], "protocols": ["TCP"]}]}}],
	  "applicationRuleCollections": [{"name": "app", "properties": {"priority": 300, "action": {"type": "Deny"},
	    "rules": [{"name": "all", "sourceAddresses": ["*"], "targetFqdns": ["*"], "protocols": [{"protocolType": "Https", "port": 443}]}]}}]}}`
	fw, err := firewallFromSDK(sdk[armnetwork.AzureFirewall](t, []byte(classic)))
	if err != nil {
		t.Fatal(err)
	}
	if !fw.DNSProxyEnabled || fw.PrivateIPs[0] != ip("10.0.4.4") || fw.PublicIPs[0] != ip("20.1.2.3") ||
		len(fw.NetworkRuleCollections) != 1 || fw.NetworkRuleCollections[0].Rules[0].IPProtocols[0] != "TCP" ||
		fw.ApplicationRuleCollections[0].Action != "Deny" || fw.ApplicationRuleCollections[0].Rules[0].Protocols[0].Port != 443 {
		t.Errorf("classic firewall = %+v", fw)
	}

	// Malformed answers name the resource and what is wrong.
	for _, tc := range []struct {
		name, body, want string
		conv             func([]byte) error
	}{
		{"collection without priority", `{"id": "` + string(fwHub) + `", "properties": {"networkRuleCollections": [{"name": "net", "properties": {"action": {"type": "Allow"}}}]}}`,
			"rule collection net (properties.networkRuleCollections[0]) has no priority", convFirewall},
		{"collection without action", `{"id": "` + string(fwHub) + `", "properties": {"applicationRuleCollections": [{"name": "app", "properties": {"priority": 100}}]}}`,
			"has no action", convFirewall},
		{"bad private address", `{"id": "` + string(fwHub) + `", "properties": {"ipConfigurations": [{"properties": {"privateIPAddress": "10.0.4"}}]}}`,
			"privateIPAddress", convFirewall},
		{"group without priority", `{"id": "` + string(fwAppGroup) + `", "name": "g", "properties": {"ruleCollections": []}}`,
			"rule collection group g has no priority", convGroup},
		{"unknown collection type", `{"id": "` + string(fwAppGroup) + `", "name": "g", "properties": {"priority": 100, "ruleCollections": [{"ruleCollectionType": "FirewallPolicyFutureRuleCollection", "name": "x", "priority": 1}]}}`,
			"properties.ruleCollections[0] is a rule collection of a type this provider does not know", convGroup},
		{"unknown rule type", `{"id": "` + string(fwAppGroup) + `", "name": "g", "properties": {"priority": 100, "ruleCollections": [{"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "x", "priority": 1, "action": {"type": "Allow"}, "rules": [{"ruleType": "FutureRule", "name": "r"}]}]}}`,
			"properties.ruleCollections[0].rules[0] is a rule of a type a filter rule collection cannot hold", convGroup},
		{"rule without name", `{"id": "` + string(fwAppGroup) + `", "name": "g", "properties": {"priority": 100, "ruleCollections": [{"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "x", "priority": 1, "action": {"type": "Allow"}, "rules": [{"ruleType": "NetworkRule"}]}]}}`,
			"rules[0] has no name", convGroup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.conv([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "/subscriptions/") {
				t.Errorf("err = %v, want one naming the resource and %q", err, tc.want)
			}
		})
	}
}

func convFirewall(b []byte) error {
	var v armnetwork.AzureFirewall
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	_, err := firewallFromSDK(&v)
	return err
}

func convGroup(b []byte) error {
	var v armnetwork.FirewallPolicyRuleCollectionGroup
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	_, err := ruleCollectionGroupFromSDK(&v)
	return err
}

// TestFirewallReadsFaultMatrix faults every firewall read of the hub
// topology with every fault class: a fault that ends after retries changes
// nothing; a persistent one, or a malformed answer, is a gap on that
// resource (with the permission a 403 needs), and the firewall's decision
// for the login server, which the rules allow, becomes unverified, never
// allowed.
func TestFirewallReadsFaultMatrix(t *testing.T) {
	reads := []struct {
		path       model.ResourceID
		permission string
		// malformed is an answer with status 200 that is not what the
		// API promises.
		malformed string
	}{
		{fwHub, permFirewallRead, `{"id": "` + string(fwHub) + `", "name": "fw-hub", "properties": {"ipConfigurations": [{"properties": {"privateIPAddress": "10.0.4.4"}}], "firewallPolicy": {"id": "` + string(fwPolicy) + `"}, "networkRuleCollections": [{"name": "x", "properties": {"priority": "high"}}]}}`},
		{fwPolicy, permFirewallPolicyRead, `{"id": "` + string(fwPolicy) + `", "properties": {"dnsSettings": {"enableProxy": "yes"}}}`},
		{fwBasePolicy, permFirewallPolicyRead, `{"id": "` + string(fwBasePolicy) + `", "properties": {"basePolicy": "fwpol-root"}}`},
		{fwPolicy + "/ruleCollectionGroups", permRuleCollectionGroupRead, `{"value": [{"id": "` + string(fwAppGroup) + `", "name": "DefaultApplicationRuleCollectionGroup", "properties": {"ruleCollections": []}}]}`},
		{fwBasePolicy + "/ruleCollectionGroups", permRuleCollectionGroupRead, `{"value": [{"id": "` + string(fwBaseGroup) + `", "properties": {"priority": 100, "ruleCollections": [{"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "ntp", "priority": 100}]}}]}`},
		{fwIPGroup, permIPGroupRead, `{"id": "` + string(fwIPGroup) + `", "properties": {"ipAddresses": "10.1.0.0/22"}}`},
	}
	classes := []struct {
		name      string
		fault     func(body string) map[string]any
		transient bool
		kind      model.GapKind
	}{
		{"403", func(string) map[string]any { return map[string]any{"status": 403} }, false, model.GapPermissionDenied},
		{"404", func(string) map[string]any { return map[string]any{"status": 404} }, false, model.GapNotFound},
		{"429x2", func(string) map[string]any { return map[string]any{"status": 429, "retry_after_ms": 1, "times": 2} }, true, ""},
		{"500x2", func(string) map[string]any { return map[string]any{"status": 500, "retry_after_ms": 1, "times": 2} }, true, ""},
		{"500always", func(string) map[string]any { return map[string]any{"status": 500, "retry_after_ms": 1} }, false, model.GapUnavailable},
		{"notjson", func(string) map[string]any {
			return map[string]any{"status": 200, "body": "<html><body><h1>502 Bad Gateway</h1></body></html>"}
		}, false, model.GapUnavailable},
		{"malformed", func(body string) map[string]any { return map[string]any{"status": 200, "body": body} }, false, model.GapUnavailable},
	}
	for _, rd := range reads {
		for _, fc := range classes {
			_, short, _ := strings.Cut(string(rd.path), "/providers/Microsoft.Network/")
			t.Run(fc.name+" "+short, func(t *testing.T) {
				t.Parallel()
				r, _ := withSnapshot(t, "udr_blackhole", func(m map[string]any) {
					withFirewallHub(t, m)
					m["faults"] = map[string]any{"GET " + string(rd.path): fc.fault(rd.malformed)}
				})
				f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
				if err != nil {
					t.Fatal(err)
				}
				r.ReadAllEvidence(testCtx(t), &f) // as for a path that crosses the firewall
				fw := f.Network.Firewall(fwHub)
				login := firewall.Evaluate(fw, firewall.RulesOf(f.Network), firewallFlow(loginHost))
				if fc.transient {
					requireNoGaps(t, r)
					if login.Verdict != firewall.Allowed {
						t.Errorf("a fault that ends after retries changed the decision: %+v", login)
					}
					return
				}
				if login.Verdict == firewall.Allowed {
					t.Fatalf("the login server is allowed although %s failed (%s): %+v", rd.path, fc.name, login)
				}
				var gap *model.Gap
				for _, g := range f.Gaps.Sorted() {
					if g.ResourceID.Equal(rd.path) || strings.HasPrefix(g.ResourceID.Key(), rd.path.Key()+"/") {
						gap = &g
					}
				}
				if gap == nil {
					t.Fatalf("no gap names %s: %+v", rd.path, f.Gaps.Sorted())
				}
				if gap.Kind != fc.kind || gap.Permission != rd.permission {
					t.Errorf("gap %+v, want kind %s and permission %s", *gap, fc.kind, rd.permission)
				}
				// The decision names what is missing, where the gap is.
				named := fw == nil && rd.path.Equal(fwHub)
				for _, id := range login.Missing {
					named = named || id.Equal(gap.ResourceID) || strings.HasPrefix(gap.ResourceID.Key(), id.Key()+"/")
				}
				if !named {
					t.Errorf("the decision's missing resources %v do not lead to the gap on %s", login.Missing, gap.ResourceID)
				}
			})
		}
	}
}

// TestFirewallRecordingReplays: a recording of the firewall reads replays
// to the same firewall, policies and IP groups, with no read missing.
func TestFirewallRecordingReplays(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "udr_blackhole.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	withFirewallHub(t, m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := snapshot.NewRecorder(replay)
	live := New(azure.NewClients(azure.Options{
		Transport:  rec,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
	}))
	want, err := live.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	live.ReadAllEvidence(testCtx(t), &want)
	r, _ := newReaderFrom(t, rec.Snapshot())
	got, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	r.ReadAllEvidence(testCtx(t), &got)
	requireNoGaps(t, r)
	if len(got.Network.Firewalls) != 1 || len(got.Network.FirewallPolicies) != 2 || len(got.Network.IPGroups) != 1 {
		t.Fatalf("replayed firewalls %v, policies %v, IP groups %v", keys(got.Network.Firewalls), keys(got.Network.FirewallPolicies), keys(got.Network.IPGroups))
	}
	for _, pair := range [][2]any{
		{got.Network.Firewalls, want.Network.Firewalls},
		{got.Network.FirewallPolicies, want.Network.FirewallPolicies},
		{got.Network.IPGroups, want.Network.IPGroups},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("replay of the recording differs:\n got %s\nwant %s", jsonString(pair[0]), jsonString(pair[1]))
		}
	}
}

func jsonString(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}
