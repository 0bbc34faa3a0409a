// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"slices"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestDNSSecurityRuleFromSDK: priority, action, state and domain lists are
// taken as Azure stores them (open strings); a rule without a priority
// cannot be ordered and fails the read.
func TestDNSSecurityRuleFromSDK(t *testing.T) {
	const list = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolverDomainLists/dl"
	in := &armdnsresolver.DNSSecurityRule{ID: to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolverPolicies/p/dnsSecurityRules/r"), Name: to.Ptr("r"),
		Properties: &armdnsresolver.DNSSecurityRuleProperties{
			Priority:               to.Ptr[int32](150),
			Action:                 &armdnsresolver.DNSSecurityRuleAction{ActionType: to.Ptr(armdnsresolver.ActionType("Redirect"))},
			DNSSecurityRuleState:   to.Ptr(armdnsresolver.DNSSecurityRuleStateDisabled),
			DNSResolverDomainLists: []*armdnsresolver.SubResource{{ID: to.Ptr(list)}, nil, {}},
		}}
	got, err := dnsSecurityRuleFromSDK(in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Priority != 150 || got.Action != "Redirect" || got.State != "Disabled" || !slices.Equal(got.DomainLists, []model.ResourceID{list}) || got.Name != "r" {
		t.Errorf("got %+v", got)
	}
	in.Properties.Priority = nil
	if _, err := dnsSecurityRuleFromSDK(in); err == nil {
		t.Error("a rule without a priority was converted")
	}
	if _, err := dnsSecurityRuleFromSDK(&armdnsresolver.DNSSecurityRule{Name: to.Ptr("x")}); err == nil {
		t.Error("a rule without properties was converted")
	}
}

// TestDomainListFromSDK: the domains as stored; a list without domains (a
// large domain list: only its download link) is Large, and the link is
// not kept.
func TestDomainListFromSDK(t *testing.T) {
	id := model.ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolverDomainLists/dl")
	got := domainListFromSDK(id, &armdnsresolver.DomainList{Properties: &armdnsresolver.DomainListProperties{Domains: []*string{to.Ptr("azurecr.io."), to.Ptr(" "), nil, to.Ptr(" contoso.com. ")}}})
	if got.Large || !slices.Equal(got.Domains, []string{"azurecr.io.", "contoso.com."}) || got.Name != "dl" {
		t.Errorf("got %+v", got)
	}
	large := domainListFromSDK(id, &armdnsresolver.DomainList{Properties: &armdnsresolver.DomainListProperties{DomainsURL: to.Ptr("https://example.invalid/list?sig=secret")}})
	if !large.Large || len(large.Domains) != 0 {
		t.Errorf("large list: got %+v", large)
	}
	if none := domainListFromSDK(id, &armdnsresolver.DomainList{}); !none.Large {
		t.Errorf("a list without properties must not be read as empty: %+v", none)
	}
}
