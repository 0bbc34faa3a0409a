// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestAdminRulesOfAnotherVNet: the security admin rules of a VNet a path
// enters (here the hub, holding a registry VM or the registry's private
// endpoint) decide at that point when they were read; while they are
// pending the path needs them and is unverified, never reachable; a failed
// or missing read is evidence; a private endpoint is exempt, and a flow
// that leaves through the hub's gateway has no destination in the hub, so
// the hub's rules are neither needed nor applied for them.
func TestAdminRulesOfAnotherVNet(t *testing.T) {
	vmNICID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-registry")
	registryVM := func(f *model.Facts) {
		f.Registry, f.RoleAssignments = nil, nil
		f.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}, Addresses: map[string]netip.Addr{"harbor.corp.example": ip("10.0.1.4")}}
		f.Network.NICs[vmNICID.Key()] = &model.NIC{ID: vmNICID, Name: "nic-vm-registry", SubnetID: hubID + "/subnets/snet-nva", PrivateIPs: ips("10.0.1.4")}
	}
	hubRule := func(name, port string) func(f *model.Facts) {
		return func(f *model.Facts) {
			f.Network.AdminRules[hubID.Key()] = &model.AdminRules{VNetID: hubID, Rules: []model.SecurityAdminRule{{
				ID:     "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-platform/providers/Microsoft.Network/networkManagers/avnm/securityAdminConfigurations/cfg/ruleCollections/rc/rules/" + model.ResourceID(name),
				Access: "Deny", Direction: "Inbound", Priority: 10, Protocol: "Tcp",
				Sources: []string{"10.1.0.0/16"}, Destinations: []string{"10.0.0.0/16"}, SourcePorts: []string{"0-65535"}, DestinationPorts: []string{port},
			}}}
		}
	}
	// gateway_transit_missing with the transit fixed: harbor.corp.example
	// on premises behind the hub's VPN gateway, reachable.
	onPremises := func(f *model.Facts) {
		g := gatewayFacts()
		g.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
		gw := g.Network.Gateway(hubGatewayID)
		peer := ip("192.168.255.1")
		gw.Advertised[peer] = append(gw.Advertised[peer], model.GatewayRoute{Prefix: pfx("10.1.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp"})
		g.Network.AdminRules = f.Network.AdminRules
		*f = g
	}
	pending := func(f *model.Facts) { f.Network.Pending.Add(model.AdminRulesEvidenceOf(hubID)) }
	refused := func(f *model.Facts) {
		f.Network.Gaps.Add(model.Gap{ResourceID: model.AdminRulesAction(hubID), Kind: model.GapPermissionDenied,
			Permission: model.ActionAdminRules.Action, Detail: "403"})
		f.Gaps = f.Network.Gaps
	}
	tests := []struct {
		name     string
		edits    []func(*model.Facts)
		verdict  model.Verdict
		code     model.Code
		contains []string
		needs    bool
	}{
		{"registry VM, hub rule denies HTTPS from the spoke", []func(*model.Facts){registryVM, hubRule("DenySpokeHttpsIn", "443")},
			model.Unreachable, model.SecurityAdminRuleDenied, []string{"DenySpokeHttpsIn", "vnet-hub", "inbound", "at the destination"}, false},
		{"registry VM, hub rule for another port", []func(*model.Facts){registryVM, hubRule("DenySpokeSshIn", "22")}, model.Reachable, "", nil, false},
		{"registry VM, hub rules pending: needed, unverified", []func(*model.Facts){registryVM, pending}, model.Unverified, model.EvidenceUnavailable, []string{"vnet-hub"}, true},
		{"registry VM, hub rules refused: evidence", []func(*model.Facts){registryVM, refused}, model.Unverified, model.EvidencePermissionDenied, nil, false},
		{"registry VM, hub rules never read: not assumed absent", []func(*model.Facts){registryVM}, model.Unverified, "", nil, false},
		{"private endpoint in the hub: exempt from a denying hub rule", []func(*model.Facts){hubRule("DenySpokeHttpsIn", "443")}, model.Reachable, "", nil, false},
		{"private endpoint in the hub: exempt, the pending hub rules are not needed", []func(*model.Facts){pending}, model.Reachable, "", nil, false},
		{"on premises through the hub's gateway: no destination in the hub, its pending rules are not needed", []func(*model.Facts){onPremises, pending}, model.Reachable, "", nil, false},
		{"on premises through the hub's gateway: a denying hub rule does not apply", []func(*model.Facts){onPremises, hubRule("DenySpokeHttpsIn", "443")}, model.Reachable, "", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			f.Network.AdminRules = map[string]*model.AdminRules{spokeID.Key(): {VNetID: spokeID}}
			for _, e := range tc.edits {
				e(&f)
			}
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			needed := false
			for _, ev := range res.Needs {
				needed = needed || ev.Key() == model.AdminRulesEvidenceOf(hubID).Key()
			}
			if needed != tc.needs {
				t.Errorf("needs %v; want the hub's admin rules needed: %v", res.Needs, tc.needs)
			}
			if tc.code == "" {
				return
			}
			fs := findingsOf(res, tc.code)
			if len(fs) == 0 {
				t.Fatalf("no %s in %+v", tc.code, res.Findings)
			}
			for _, want := range tc.contains {
				if !strings.Contains(fs[0].Message, want) {
					t.Errorf("message %q lacks %q", fs[0].Message, want)
				}
			}
			if tc.code != model.SecurityAdminRuleDenied && !strings.Contains(string(fs[0].ResourceID), "listNetworkManagerEffectiveSecurityAdminRules") {
				t.Errorf("the evidence finding names %s, not the hub's admin rules read", fs[0].ResourceID)
			}
		})
	}
}
