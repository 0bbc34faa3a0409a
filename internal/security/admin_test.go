// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func admin(cfg, name string, prio int32, dir, access string, dst ...string) model.SecurityAdminRule {
	return model.SecurityAdminRule{
		ID:     model.ResourceID(sub + "networkManagers/nm/securityAdminConfigurations/" + cfg + "/ruleCollections/rc/rules/" + name),
		Access: access, Direction: dir, Priority: prio, Protocol: "Tcp",
		Sources: []string{"*"}, Destinations: dst, SourcePorts: []string{"0-65535"}, DestinationPorts: []string{"443"},
	}
}

func TestEvaluateAdmin(t *testing.T) {
	pe := "10.0.2.5/32"
	for _, tc := range []struct {
		name  string
		rules []model.SecurityAdminRule
		dir   string
		flow  Flow
		want  Outcome
		rule  string
		tag   string
	}{
		{name: "no rule: the groups decide", dir: Outbound, flow: nodeFlow("Tcp", pe, 443), want: Passed},
		{name: "deny matching the destination", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyLateral", 10, Outbound, "Deny", "10.0.0.0/8")},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyLateral"},
		{name: "deny of another destination does not match", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyOther", 10, Outbound, "Deny", "172.16.0.0/12")},
			flow: nodeFlow("Tcp", pe, 443), want: Passed},
		{name: "deny of the other direction does not apply", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyIn", 10, Inbound, "Deny", "10.0.0.0/8")},
			flow: nodeFlow("Tcp", pe, 443), want: Passed},
		{name: "deny of another protocol does not match", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyLateral", 10, Outbound, "Deny", "10.0.0.0/8")},
			flow: nodeFlow("Udp", pe, 443), want: Passed},
		{name: "always allow", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "AlwaysAllowAcr", 10, Outbound, "AlwaysAllow", "10.0.2.0/24")},
			flow: nodeFlow("Tcp", pe, 443), want: AlwaysAllowed, rule: "AlwaysAllowAcr"},
		{name: "allow leaves the flow to the groups", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "AllowAcr", 10, Outbound, "Allow", "10.0.2.0/24")},
			flow: nodeFlow("Tcp", pe, 443), want: Passed},
		{name: "priority: allow before deny", dir: Outbound, rules: []model.SecurityAdminRule{
			admin("c", "DenyLateral", 20, Outbound, "Deny", "10.0.0.0/8"), admin("c", "AllowAcr", 10, Outbound, "Allow", "10.0.2.0/24")},
			flow: nodeFlow("Tcp", pe, 443), want: Passed},
		{name: "priority: deny before always allow", dir: Outbound, rules: []model.SecurityAdminRule{
			admin("c", "AlwaysAllowAcr", 20, Outbound, "AlwaysAllow", "10.0.2.0/24"), admin("c", "DenyLateral", 10, Outbound, "Deny", "10.0.0.0/8")},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyLateral"},
		{name: "a service tag decided by the space", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyInternet", 10, Outbound, "Deny", "Internet")},
			flow: nodeFlow("Tcp", "", 443), want: Denied, rule: "DenyInternet"},
		{name: "a service tag without members is undecided", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "DenyCloud", 10, Outbound, "Deny", "AzureCloud")},
			flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "DenyCloud", tag: "AzureCloud"},
		{name: "an unknown access value is undecided, never allowed", dir: Outbound, rules: []model.SecurityAdminRule{admin("c", "Odd", 10, Outbound, "Audit", "10.0.0.0/8")},
			flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "Odd", tag: "access Audit"},
		{name: "configurations that agree", dir: Outbound, rules: []model.SecurityAdminRule{
			admin("a", "DenyLateral", 10, Outbound, "Deny", "10.0.0.0/8"), admin("b", "Other", 10, Outbound, "Deny", "172.16.0.0/12")},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyLateral"},
		{name: "configurations that disagree are undecided", dir: Outbound, rules: []model.SecurityAdminRule{
			admin("a", "DenyLateral", 10, Outbound, "Deny", "10.0.0.0/8"), admin("b", "AlwaysAllowAcr", 10, Outbound, "AlwaysAllow", "10.0.2.0/24")},
			flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "AlwaysAllowAcr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := EvaluateAdmin(tc.rules, tc.dir, tc.flow, spokeSpace)
			if d.Outcome != tc.want || d.Rule.Rule() != tc.rule && tc.rule != "" || tc.tag != "" && d.Tag != tc.tag {
				t.Errorf("got %s rule %q tag %q, want %s rule %q tag %q", d.Outcome, d.Rule.Rule(), d.Tag, tc.want, tc.rule, tc.tag)
			}
		})
	}
}
