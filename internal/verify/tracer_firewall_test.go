// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// inspectedEndpoint is baselineFacts with the node subnet's route for the
// hub (10.0.0.0/16, as broad as the VNet holding the private endpoint, so
// that it overrides the endpoint's /32 route) sent to Azure Firewall
// fw-hub (10.0.4.4), whose one rule is rule (none when rule is nil).
func inspectedEndpoint(rule *model.FirewallRule) model.Facts {
	f := baselineFacts()
	addFirewall(&f, "")
	f.Network.Subnet(fwSubnetID).IPConfigurationsRead = true
	rules := []model.FirewallRule{}
	if rule != nil {
		rules = append(rules, *rule)
	}
	f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwPolicyID, Name: "fwpol-hub", RuleCollectionGroupsKnown: true,
		RuleCollectionGroups: []model.FirewallRuleCollectionGroup{{ID: fwPolicyID + "/ruleCollectionGroups/g", Name: "g", Priority: 300,
			Collections: []model.FirewallRuleCollection{{Name: "c", Priority: 200, Action: "Allow", Rules: rules}}}}})
	rt := &model.RouteTable{ID: id("/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks"), Name: "rt-aks",
		Routes: []model.Route{{Name: "hub-via-fw", Prefix: pfx("10.0.0.0/16"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.4.4"),
			OriginID: id("/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks/routes/hub-via-fw")}}}
	f.Network.RouteTables[rt.ID.Key()] = rt
	f.Network.Subnet(aksSubnetID).RouteTableID = rt.ID
	// Route tables apply to the endpoint's subnet, so the UDR /24 overrides
	// the endpoint's /32 route.
	f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "Enabled"
	return f
}

func TestFirewallOnPrivatePath(t *testing.T) {
	app := model.FirewallRule{Name: "acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}}
	network := model.FirewallRule{Name: "pe", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/22"},
		IPProtocols: []string{"TCP"}, DestinationPorts: []string{"443"}, DestinationAddresses: []string{"10.0.2.0/24"}}
	webCategory := model.FirewallRule{Name: "web", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, WebCategories: []string{"ComputersAndTechnology"}}
	for _, tc := range []struct {
		name    string
		rule    *model.FirewallRule
		mutate  func(f *model.Facts)
		want    []model.Code
		notWant []model.Code
		needs   bool
		say     []string
	}{
		{name: "an application rule allows, and translates: no finding", rule: &app,
			notWant: []model.Code{model.RouteFirewallDenied, model.ReturnRouteAsymmetric, model.ReturnRouteUnverified}},
		{name: "a network rule allows without translation: asymmetric, an application rule would fix it", rule: &network,
			want: []model.Code{model.ReturnRouteAsymmetric}, notWant: []model.Code{model.RouteFirewallDenied}, say: []string{"application rule", "fw-hub"}},
		{name: "nothing allows: ROUTE_FIREWALL_DENIED, and no return path judged",
			want: []model.Code{model.RouteFirewallDenied}, notWant: []model.Code{model.ReturnRouteAsymmetric, model.ReturnRouteUnverified},
			say: []string{"fw-hub", "fwpol-hub", "10.0.2.5", "TCP 443", "10.1.0.0/22", "application rule"}},
		{name: "an undecidable rule: unverified, never reachable", rule: &webCategory,
			want: []model.Code{model.SecurityUnverified}, notWant: []model.Code{model.RouteFirewallDenied}},
		{name: "rules not read yet: a need and a gap", rule: &app,
			mutate: func(f *model.Facts) { f.Network.Pending.Add(model.FirewallRulesOf(fwID)) }, needs: true,
			notWant: []model.Code{model.RouteFirewallDenied}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inspectedEndpoint(tc.rule)
			if tc.mutate != nil {
				tc.mutate(&f)
			}
			tr := NewRoutingTracer(routing.Options{})
			rr := tr.Trace(f.Network, RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Dest: ip("10.0.2.5"), Host: loginHost, Protocol: "Tcp", Port: 443})
			var got []model.Code
			for _, fd := range rr.Findings {
				got = append(got, fd.Code)
			}
			for _, c := range tc.want {
				if !slices.Contains(got, c) {
					t.Errorf("missing %s in %v", c, rr.Findings)
				}
			}
			for _, c := range tc.notWant {
				if slices.Contains(got, c) {
					t.Errorf("unexpected %s in %v", c, rr.Findings)
				}
			}
			for _, s := range tc.say {
				found := false
				for _, fd := range rr.Findings {
					found = found || strings.Contains(fd.Message+fd.Remediation, s)
				}
				if !found {
					t.Errorf("no finding says %q: %v", s, rr.Findings)
				}
			}
			if tc.needs != (len(rr.Needs) > 0 && len(rr.Gaps) > 0) {
				t.Errorf("needs %v gaps %v", rr.Needs, rr.Gaps)
			}
			if len(tc.want) == 0 && !tc.needs && len(rr.Gaps) > 0 {
				t.Errorf("unexpected gaps %v", rr.Gaps)
			}
		})
	}
}

func TestFirewallNoSNAT(t *testing.T) {
	tagRule := model.FirewallRule{Name: "acr-tag", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"},
		IPProtocols: []string{"TCP"}, DestinationAddresses: []string{"AzureContainerRegistry"}, DestinationPorts: []string{"443"}}
	for _, tc := range []struct {
		name   string
		rule   *model.FirewallRule
		ranges []string
		want   model.Code
	}{
		{name: "network rule, never SNAT", rule: &tagRule, ranges: []string{"0.0.0.0/0"}, want: model.EgressFirewallNoSNAT},
		{name: "network rule, default ranges", rule: &tagRule},
		{name: "network rule, a public range listed: unknown", rule: &tagRule, ranges: []string{"20.0.0.0/8"}, want: model.EgressUnverified},
		{name: "application rule, never SNAT", ranges: []string{"0.0.0.0/0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			publicRegistry(&f)
			addFirewall(&f, "20.80.0.1")
			if tc.rule != nil {
				allowFirewall(&f, *tc.rule)
			}
			f.Network.FirewallPolicy(fwPolicyID).SNAT.PrivateRanges = tc.ranges
			r := &run{f: &f, gaps: mergeGaps(&f), used: map[string]bool{}, ep: newEndpoints(&f)}
			pc := r.newPoolCtx(f.Pools[0])
			h := f.PullHosts()[0]
			fd, ok := r.firewallSNATFinding(pc, h, f.Network.Firewall(fwID))
			if ok != (tc.want != "") || (ok && fd.Code != tc.want) {
				t.Fatalf("finding %v %+v, want %s", ok, fd, tc.want)
			}
			if tc.want == model.EgressFirewallNoSNAT && !strings.Contains(fd.Remediation, "application rule") {
				t.Errorf("the fix does not name the application rule: %s", fd.Remediation)
			}
		})
	}
}

// A stopped Azure Firewall leaves its subnet without ip configurations:
// nothing holds the next hop (ROUTE_NEXT_HOP_ABSENT). When the list of the
// resource group's firewalls, which gather reads to find the firewall of
// such a subnet, failed, a firewall may hold the address all the same: the
// path is unverified and names the list.
func TestStoppedFirewallWithFailedList(t *testing.T) {
	list := id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls")
	app := model.FirewallRule{Name: "acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}}
	for _, tc := range []struct {
		name       string
		listFailed bool
	}{{"the list failed: unverified, the list is the gap", true}, {"the list answered: ROUTE_NEXT_HOP_ABSENT (negative)", false}} {
		t.Run(tc.name, func(t *testing.T) {
			f := inspectedEndpoint(&app)
			delete(f.Network.Firewalls, fwID.Key())
			f.Network.Subnet(fwSubnetID).IPConfigurationIDs = nil
			if tc.listFailed {
				f.Network.AddAddressGap(ip("10.0.4.4"), model.Gap{ResourceID: list, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/azureFirewalls/read"})
			}
			tr := NewRoutingTracer(routing.Options{})
			rr := tr.Trace(f.Network, RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Dest: ip("10.0.2.5"), Host: loginHost, Protocol: "Tcp", Port: 443})
			absent := slices.ContainsFunc(rr.Findings, func(fd model.Finding) bool { return fd.Code == model.RouteNextHopAbsent })
			named := slices.ContainsFunc(rr.Gaps, func(g model.Gap) bool { return g.ResourceID.Equal(list) })
			if absent == tc.listFailed || named != tc.listFailed {
				t.Errorf("ROUTE_NEXT_HOP_ABSENT %v, list named %v; findings %v gaps %v", absent, named, rr.Findings, rr.Gaps)
			}
		})
	}
}

// TestTLSInspectionOnPrivatePath: a private endpoint reached through an
// Azure Firewall whose application rule terminates TLS on the registry
// hosts gets what the public path gets (tlsInspectionFindings): no custom
// CA on the cluster is TLS_INSPECTION_CA_UNTRUSTED, some is
// TLS_INSPECTION_UNVERIFIED; a rule without inspection, or a flow the
// firewall denies, says nothing about TLS.
func TestTLSInspectionOnPrivatePath(t *testing.T) {
	rule := func(inspect bool, targets ...string) *model.FirewallRule {
		return &model.FirewallRule{Name: "acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
			Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: targets, TerminateTLS: inspect}
	}
	for _, tc := range []struct {
		name    string
		rule    *model.FirewallRule
		cas     int
		verdict model.Verdict
		want    []model.Code
		notWant []model.Code
	}{
		{name: "inspected, no custom CA: TLS_INSPECTION_CA_UNTRUSTED on every host", rule: rule(true, loginHost, dataHostWE),
			verdict: model.Unreachable, want: []model.Code{model.TLSInspectionCAUntrusted}, notWant: []model.Code{model.TLSInspectionUnverified, model.RouteFirewallDenied}},
		{name: "inspected, custom CAs: TLS_INSPECTION_UNVERIFIED", rule: rule(true, loginHost, dataHostWE), cas: 2,
			want: []model.Code{model.TLSInspectionUnverified}, notWant: []model.Code{model.TLSInspectionCAUntrusted}},
		{name: "allowed without inspection: nothing about TLS (negative)", rule: rule(false, loginHost, dataHostWE),
			verdict: model.Reachable, notWant: []model.Code{model.TLSInspectionCAUntrusted, model.TLSInspectionUnverified}},
		{name: "inspection of the login server only, the data endpoint denied: the deny, and TLS for the login server only (negative)", rule: rule(true, loginHost),
			verdict: model.Unreachable, want: []model.Code{model.RouteFirewallDenied, model.TLSInspectionCAUntrusted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inspectedEndpoint(tc.rule)
			f.Cluster.CustomCATrustCertificates = tc.cas
			res := Verify(f, NewRoutingTracer(routing.Options{}))
			if tc.verdict != "" && res.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s\n%s", res.Verdict, tc.verdict, res.Summary)
			}
			requireCodes(t, res, tc.want...)
			forbidCodes(t, res, tc.notWant...)
			for _, fd := range res.Findings {
				switch fd.Code {
				case model.TLSInspectionCAUntrusted, model.TLSInspectionUnverified:
					if fd.NodePool == "" || fd.Endpoint == "" || !fd.ResourceID.Equal(fwPolicyID) {
						t.Errorf("finding %+v: a pool, a host and the policy", fd)
					}
					if fd.Endpoint == dataHostWE && len(tc.rule.TargetFQDNs) == 1 {
						t.Errorf("the data endpoint is denied, never inspected: %+v", fd)
					}
					requireContains(t, fd.Message, "fw-hub", "terminateTLS", fd.Endpoint)
				case model.RouteFirewallDenied:
					if fd.Endpoint != dataHostWE {
						t.Errorf("deny on %s", fd.Endpoint)
					}
				}
			}
			if tc.cas == 0 && len(tc.want) > 0 && tc.want[0] == model.TLSInspectionCAUntrusted {
				n := 0
				for _, fd := range findingsWith(res, model.TLSInspectionCAUntrusted) {
					if fd.NodePool == "system" && fd.Endpoint == loginHost {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%d TLS_INSPECTION_CA_UNTRUSTED for system → %s, want one (both addresses' traces say the same)", n, loginHost)
				}
			}
		})
	}
}

// TestDestinationGroupSeesTranslatedSource: a flow an Azure Firewall
// translates (an application rule) reaches the private endpoint from the
// firewall's subnet, so the endpoint subnet's security group (network
// policies on) judges the firewall's addresses, not the nodes'; a flow it
// does not translate (a network rule to a private range) keeps the node
// addresses.
func TestDestinationGroupSeesTranslatedSource(t *testing.T) {
	app := &model.FirewallRule{Name: "acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost, dataHostWE}}
	network := &model.FirewallRule{Name: "pe", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/22"},
		IPProtocols: []string{"TCP"}, DestinationPorts: []string{"443"}, DestinationAddresses: []string{"10.0.2.0/24"}}
	onlyFirewall := []model.SecurityRule{
		secRule("AllowFirewall", 100, "Inbound", "Allow", "Tcp", "10.0.4.0/26", "*", "443"),
		secRule("DenyAll", 4000, "Inbound", "Deny", "*", "*", "*", "*"),
	}
	denyFirewall := []model.SecurityRule{
		secRule("DenyFirewall", 100, "Inbound", "Deny", "Tcp", "10.0.4.0/26", "*", "443"),
	}
	onlyNodes := []model.SecurityRule{
		secRule("AllowNodes", 100, "Inbound", "Allow", "Tcp", "10.1.0.0/22", "*", "443"),
		secRule("DenyAll", 4000, "Inbound", "Deny", "*", "*", "*", "*"),
	}
	for _, tc := range []struct {
		name       string
		rule       *model.FirewallRule
		rules      []model.SecurityRule
		denied     bool
		asymmetric bool
		mention    string
	}{
		{name: "application rule, the group allows only the firewall subnet: reachable", rule: app, rules: onlyFirewall},
		{name: "application rule, the group denies the firewall subnet: denied", rule: app, rules: denyFirewall, denied: true, mention: "10.0.4.0/26"},
		{name: "application rule, the group allows only the node subnet: the firewall's addresses are denied (negative)", rule: app, rules: onlyNodes, denied: true, mention: "10.0.4.0/26"},
		{name: "network rule without translation: the return path fails first, the group is not judged (negative)", rule: network, rules: onlyFirewall, asymmetric: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inspectedEndpoint(tc.rule)
			withNSG(f, peSubnetID, nsgPEID, tc.rules...)
			tr := NewRoutingTracer(routing.Options{})
			rr := tr.Trace(f.Network, RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Dest: ip("10.0.2.5"), Host: loginHost, Protocol: "Tcp", Port: 443})
			denied := slices.ContainsFunc(rr.Findings, func(fd model.Finding) bool { return fd.Code == model.SecurityInboundDenied })
			if denied != tc.denied {
				t.Fatalf("SECURITY_RULE_INBOUND_DENIED %v, want %v: %v", denied, tc.denied, rr.Findings)
			}
			if tc.mention != "" {
				for _, fd := range rr.Findings {
					if fd.Code == model.SecurityInboundDenied {
						requireContains(t, fd.Message, tc.mention)
					}
				}
			}
			if tc.asymmetric != slices.ContainsFunc(rr.Findings, func(fd model.Finding) bool { return fd.Code == model.ReturnRouteAsymmetric }) {
				t.Errorf("RETURN_ROUTE_ASYMMETRIC: want %v: %v", tc.asymmetric, rr.Findings)
			}
			if !tc.denied && !tc.asymmetric {
				for _, fd := range rr.Findings {
					if fd.Severity == model.SeverityError || fd.Code == model.SecurityUnverified {
						t.Errorf("unexpected %s: %s", fd.Code, fd.Message)
					}
				}
			}
		})
	}
}
