// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestDNSPoliciesToModel: policies by name, rules by priority, each rule's
// domains from its lists without repeats; domains_complete is false for a
// large list or one not read; a policy whose rules were not read has null
// rules, never an empty list that would read as "no rule".
func TestDNSPoliciesToModel(t *testing.T) {
	const base = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"
	l := func(n string) model.ResourceID { return model.ResourceID(base + "dnsResolverDomainLists/" + n) }
	lists := []*model.DNSDomainList{
		{ID: l("acr"), Name: "acr", Domains: []string{"azurecr.io."}},
		{ID: l("both"), Name: "both", Domains: []string{"contoso.com.", "azurecr.io."}},
		{ID: l("huge"), Name: "huge", Large: true},
	}
	in := []*model.DNSSecurityPolicy{
		{ID: base + "dnsResolverPolicies/zeta", Name: "zeta", RulesKnown: true, Rules: []model.DNSSecurityRule{
			{Name: "block", Priority: 300, Action: "Block", State: "Enabled", DomainLists: []model.ResourceID{l("acr"), l("both")}},
			{Name: "allow", Priority: 100, Action: "Allow", State: "Enabled", DomainLists: []model.ResourceID{l("huge")}},
			{Name: "alert", Priority: 200, Action: "Alert", State: "Disabled", DomainLists: []model.ResourceID{l("unread")}},
		}},
		{ID: base + "dnsResolverPolicies/alpha", Name: "alpha"},
	}
	got := dnsPoliciesToModel(in, lists)
	if len(got) != 2 || got[0].Name.ValueString() != "alpha" || got[1].Name.ValueString() != "zeta" {
		t.Fatalf("policies %v", got)
	}
	if got[0].Rules != nil {
		t.Errorf("rules not read must be null, got %v", got[0].Rules)
	}
	var names []string
	for _, r := range got[1].Rules {
		names = append(names, r.Name.ValueString())
	}
	if !slices.Equal(names, []string{"allow", "alert", "block"}) {
		t.Errorf("rule order %v", names)
	}
	block := got[1].Rules[2]
	if !slices.Equal(block.Domains, []string{"azurecr.io.", "contoso.com."}) || !block.DomainsComplete.ValueBool() || block.Priority.ValueInt64() != 300 {
		t.Errorf("block rule %+v", block)
	}
	if got[1].Rules[0].DomainsComplete.ValueBool() || got[1].Rules[1].DomainsComplete.ValueBool() {
		t.Error("a large or unread list must make domains incomplete")
	}
}
