// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"strings"
	"testing"
)

// TestFirewallDNSOfParentPolicy: a child policy's DNS settings decide where
// its parent's agree; where they differ, which applies is undocumented
// (Inheritance); a parent not read leaves them unknown.
func TestFirewallDNSOfParentPolicy(t *testing.T) {
	const sub = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"
	child, parent := ResourceID(sub+"firewallPolicies/child"), ResourceID(sub+"firewallPolicies/parent")
	fw := &AzureFirewall{ID: ResourceID(sub + "azureFirewalls/fw"), Name: "fw", PolicyID: child}
	dns := []netip.Addr{netip.MustParseAddr("10.0.3.4")}
	for _, tc := range []struct {
		name          string
		child, parent *FirewallPolicy
		known, proxy  bool
		inherited     bool
		from          ResourceID
	}{
		{name: "no parent: its own", child: &FirewallPolicy{ID: child, Name: "child", DNSProxyEnabled: true}, known: true, proxy: true, from: child},
		{name: "parent agrees", child: &FirewallPolicy{ID: child, Name: "child", BasePolicyID: parent, DNSProxyEnabled: true, DNSServers: dns},
			parent: &FirewallPolicy{ID: parent, Name: "parent", DNSProxyEnabled: true, DNSServers: dns}, known: true, proxy: true, from: child},
		{name: "both off agree", child: &FirewallPolicy{ID: child, Name: "child", BasePolicyID: parent},
			parent: &FirewallPolicy{ID: parent, Name: "parent"}, known: true, from: child},
		{name: "parent on, child off: undocumented", child: &FirewallPolicy{ID: child, Name: "child", BasePolicyID: parent},
			parent: &FirewallPolicy{ID: parent, Name: "parent", DNSProxyEnabled: true}, known: true, inherited: true, from: child},
		{name: "both on, other servers: undocumented", child: &FirewallPolicy{ID: child, Name: "child", BasePolicyID: parent, DNSProxyEnabled: true},
			parent: &FirewallPolicy{ID: parent, Name: "parent", DNSProxyEnabled: true, DNSServers: dns}, known: true, proxy: true, inherited: true, from: child},
		{name: "parent not read: unknown, the parent named", child: &FirewallPolicy{ID: child, Name: "child", BasePolicyID: parent, DNSProxyEnabled: true}, from: parent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := NewNetwork()
			n.AddFirewallPolicy(tc.child)
			if tc.parent != nil {
				n.AddFirewallPolicy(tc.parent)
			}
			got := n.FirewallDNSOf(fw)
			if got.Known != tc.known || got.Proxy != tc.proxy || (got.Inheritance != "") != tc.inherited || !got.From.Equal(tc.from) {
				t.Fatalf("got %+v", got)
			}
			if tc.inherited && !strings.Contains(got.Inheritance, "parent") {
				t.Errorf("inheritance %q names no parent", got.Inheritance)
			}
		})
	}
}
