// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// TestSecondFirewallSeesTranslatedSource: a flow crosses fw-hub
// (10.0.4.4, in 10.0.4.0/26) and then a second Azure Firewall, fw-two
// (10.0.5.4). Each firewall's rules are matched against the source it
// receives: the node addresses at the first; at the second, fw-hub's
// addresses when fw-hub translated the source (an application rule), the
// node addresses when it did not (a network rule to a private address
// inside its SNAT private ranges), and both when its translation is not
// known.
func TestSecondFirewallSeesTranslatedSource(t *testing.T) {
	app := model.FirewallRule{Name: "acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}}
	network := model.FirewallRule{Name: "pe", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/22"},
		IPProtocols: []string{"TCP"}, DestinationPorts: []string{"443"}, DestinationAddresses: []string{"10.0.2.0/24"}}
	second := func(src string) model.FirewallRule {
		return model.FirewallRule{Name: "from-" + src, Kind: model.FirewallNetworkRule, SourceAddresses: []string{src},
			IPProtocols: []string{"TCP"}, DestinationPorts: []string{"443"}, DestinationAddresses: []string{"10.0.2.5"}}
	}
	fw2ID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-two")
	pol2ID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-two")
	fw2Subnet := id("/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-two/subnets/AzureFirewallSubnet")
	for _, tc := range []struct {
		name       string
		first      model.FirewallRule
		firstSNAT  []string // SNAT private ranges of fwpol-hub; nil: the default
		unknownNAT bool     // fwpol-hub's SNAT private ranges cannot be read as addresses
		second     []model.FirewallRule
		want       firewall.Verdict // of the second firewall
		sources    string           // what the second firewall receives
		say        string           // in the finding of a deny
	}{
		{name: "first translates, second allows only the first's addresses: allowed", first: app,
			second: []model.FirewallRule{second("10.0.4.0/26")}, want: firewall.Allowed, sources: "10.0.4.0/26"},
		{name: "first translates, second allows only the node addresses: denied (negative)", first: app,
			second: []model.FirewallRule{second("10.1.0.0/22")}, want: firewall.Denied, sources: "10.0.4.0/26",
			say: "the addresses of Azure Firewall fw-hub, which translated the source"},
		{name: "first does not translate, second allows the node addresses: allowed", first: network,
			second: []model.FirewallRule{second("10.1.0.0/22")}, want: firewall.Allowed, sources: "10.1.0.0/22"},
		{name: "first does not translate, second allows only the first's addresses: denied (negative)", first: network,
			second: []model.FirewallRule{second("10.0.4.0/26")}, want: firewall.Denied, sources: "10.1.0.0/22", say: "from 10.1.0.0/22:"},
		{name: "first's translation unknown, second allows one source only: unverified, never denied", first: network, unknownNAT: true,
			second: []model.FirewallRule{second("10.0.4.0/26")}, want: firewall.Unverified, sources: "10.1.0.0/22 10.0.4.0/26"},
		{name: "first's translation unknown, second allows neither: denied (negative)", first: network, unknownNAT: true,
			second: []model.FirewallRule{second("10.9.0.0/24")}, want: firewall.Denied, sources: "10.1.0.0/22 10.0.4.0/26",
			say: "whose translation of the source is not known"},
		{name: "first's translation unknown, second allows both: allowed", first: network, unknownNAT: true,
			second: []model.FirewallRule{second("10.0.4.0/26"), second("10.1.0.0/22")}, want: firewall.Allowed, sources: "10.1.0.0/22 10.0.4.0/26"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inspectedEndpoint(&tc.first)
			f.Network.FirewallPolicy(fwPolicyID).SNAT.PrivateRanges = tc.firstSNAT
			if tc.unknownNAT {
				f.Network.FirewallPolicy(fwPolicyID).SNAT.PrivateRanges = []string{"not-a-range"}
			}
			f.Network.AddFirewall(&model.AzureFirewall{ID: fw2ID, Name: "fw-two", PrivateIPs: ips("10.0.5.4"), SubnetIDs: []model.ResourceID{fw2Subnet}, PolicyID: pol2ID})
			f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: pol2ID, Name: "fwpol-two", RuleCollectionGroupsKnown: true,
				RuleCollectionGroups: []model.FirewallRuleCollectionGroup{{ID: pol2ID + "/ruleCollectionGroups/g", Name: "g", Priority: 300,
					Collections: []model.FirewallRuleCollection{{Name: "c", Priority: 200, Action: "Allow", Rules: tc.second}}}}})
			res := routing.Result{
				Appliances: []routing.Appliance{{IP: ip("10.0.4.4"), VNetID: hubID, SubnetID: fwSubnetID}, {IP: ip("10.0.5.4"), VNetID: fw2Subnet.Parent(), SubnetID: fw2Subnet}},
				Arrival:    routing.Arrival{Kind: routing.ArrivalPrivateEndpoint},
			}
			q := RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Dest: ip("10.0.2.5"), Host: loginHost, Protocol: "Tcp", Port: 443}
			cs := firewallCrossings(f.Network, q, res)
			if len(cs) != 2 {
				t.Fatalf("crossings %d, want 2", len(cs))
			}
			if cs[0].decision.Verdict != firewall.Allowed || prefixWords(cs[0].flow.Sources) != prefixWords(f.Network.Subnet(aksSubnetID).Prefixes) {
				t.Errorf("first firewall: %s from %v", cs[0].decision.Verdict, cs[0].flow.Sources)
			}
			var got []string
			for _, p := range cs[1].flow.Sources {
				got = append(got, p.String())
			}
			if strings.Join(got, " ") != tc.sources {
				t.Errorf("second firewall receives %v, want %s", got, tc.sources)
			}
			if cs[1].decision.Verdict != tc.want {
				t.Errorf("second firewall: %s, want %s (%+v)", cs[1].decision.Verdict, tc.want, cs[1].decision)
			}
			if tc.want == firewall.Denied {
				fd := routeFirewallDenied(q, cs[1])
				if fd.Code != model.RouteFirewallDenied || !strings.Contains(fd.Message, "fw-two") || !strings.Contains(fd.Message, tc.say) {
					t.Errorf("finding %s: %s", fd.Code, fd.Message)
				}
			}
		})
	}
}
