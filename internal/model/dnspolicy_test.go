// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "testing"

// TestDNSPoliciesOf: a DNS view gather built answers for the VNets it read
// and not for another (its gap is under DNSPoliciesAction); a view built
// by hand (nil map) applies no policy.
func TestDNSPoliciesOf(t *testing.T) {
	vnet := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/spoke")
	other := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/hub")
	d := NewDNS()
	if p, ok := d.DNSPoliciesOf(vnet); !ok || len(p.Policies) != 0 {
		t.Errorf("hand-built view: %v %v, want read with no policy", p, ok)
	}
	d.Policies = map[string]*VNetDNSPolicies{vnet.Key(): {VNetID: vnet, Policies: []*DNSSecurityPolicy{{ID: "p", Name: "p", RulesKnown: true}}}}
	if p, ok := d.DNSPoliciesOf(ResourceID(string(vnet))); !ok || len(p.Policies) != 1 {
		t.Errorf("read VNet: %v %v", p, ok)
	}
	if _, ok := d.DNSPoliciesOf(other); ok {
		t.Error("a VNet not read answered as read")
	}
	if got, want := DNSPoliciesAction(vnet), vnet+"/listDnsResolverPolicies"; got != want {
		t.Errorf("DNSPoliciesAction = %s, want %s", got, want)
	}
	if got := (&DNSSecurityPolicy{ID: "/x/dnsResolverPolicies/p"}).RulesID(); got != "/x/dnsResolverPolicies/p/dnsSecurityRules" {
		t.Errorf("RulesID = %s", got)
	}
}
