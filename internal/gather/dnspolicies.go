// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// dnsPolicyRead is what reading a VNet's DNS security policies gives: the
// policies with their rules, and the domain lists the rules name that
// could be read.
type dnsPolicyRead struct {
	Linked *model.VNetDNSPolicies
	Lists  []*model.DNSDomainList
}

// DNSPolicies reads the DNS security policies linked to a VNet (the
// VNet's listDnsResolverPolicies action), each with its DNS traffic rules
// and the domain lists they name. A failed list is a gap under
// model.DNSPoliciesAction; a policy whose rules, or a domain list that,
// could not be read is a gap of its own (the policy's RulesKnown is false,
// the list is missing from Lists), returned with what was read.
func (r *Reader) DNSPolicies(ctx context.Context, vnetID model.ResourceID) (dnsPolicyRead, error) {
	return read(r, "dns policies", model.DNSPoliciesAction(vnetID), permListDNSPolicies, func() (dnsPolicyRead, error) {
		a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
		if err != nil {
			return dnsPolicyRead{}, err
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return dnsPolicyRead{}, err
		}
		refs, err := collectAction(ctx, r, f.NewPoliciesClient().NewListByVirtualNetworkPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.PoliciesClientListByVirtualNetworkResponse) []*armdnsresolver.SubResource {
				return p.Value
			})
		if err != nil {
			return dnsPolicyRead{}, err
		}
		out := dnsPolicyRead{Linked: &model.VNetDNSPolicies{VNetID: vnetID}}
		lists := map[string]bool{}
		var errs []error
		for _, ref := range refs {
			id := rid(ref.ID)
			if id.IsZero() {
				continue
			}
			p, err := r.dnsPolicy(ctx, id)
			out.Linked.Policies = append(out.Linked.Policies, p)
			if err != nil {
				errs = append(errs, err)
			}
			for _, rule := range p.Rules {
				for _, l := range rule.DomainLists {
					if lists[l.Key()] {
						continue
					}
					lists[l.Key()] = true
					dl, err := r.domainList(ctx, l)
					if err != nil {
						errs = append(errs, err)
						continue
					}
					out.Lists = append(out.Lists, dl)
				}
			}
		}
		sort.Slice(out.Lists, func(i, j int) bool { return out.Lists[i].ID.Key() < out.Lists[j].ID.Key() })
		if err := joinErrs(errs); err != nil {
			return out, partialError{err}
		}
		return out, nil
	})
}

// dnsPolicy reads a policy's DNS traffic rules; a failure is a gap under
// the rules collection and the policy is returned with RulesKnown false.
func (r *Reader) dnsPolicy(ctx context.Context, id model.ResourceID) (*model.DNSSecurityPolicy, error) {
	type result struct {
		p   *model.DNSSecurityPolicy
		err error
	}
	res, _ := once(r, memoKey("dns policy", id), func() (result, error) {
		out := &model.DNSSecurityPolicy{ID: id, Name: id.Name()}
		a, err := parseTyped(id, "Microsoft.Network", "dnsResolverPolicies")
		if err != nil {
			return result{out, r.fail(out.RulesID(), permDNSSecurityRuleRead, err)}, nil
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return result{out, r.fail(out.RulesID(), permDNSSecurityRuleRead, err)}, nil
		}
		rules, err := collect(ctx, r, f.NewDNSSecurityRulesClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.DNSSecurityRulesClientListResponse) []*armdnsresolver.DNSSecurityRule {
				return p.Value
			})
		if err != nil {
			return result{out, r.fail(out.RulesID(), permDNSSecurityRuleRead, err)}, nil
		}
		for _, rule := range rules {
			conv, err := dnsSecurityRuleFromSDK(rule)
			if err != nil {
				out.Rules = nil
				return result{out, r.fail(out.RulesID(), permDNSSecurityRuleRead, err)}, nil
			}
			out.Rules = append(out.Rules, conv)
		}
		sort.SliceStable(out.Rules, func(i, j int) bool { return out.Rules[i].Priority < out.Rules[j].Priority })
		out.RulesKnown = true
		return result{out, nil}, nil
	})
	return res.p, res.err
}

// domainList reads a DNS domain list.
func (r *Reader) domainList(ctx context.Context, id model.ResourceID) (*model.DNSDomainList, error) {
	return read(r, "dns domain list", id, permDNSDomainListRead, func() (*model.DNSDomainList, error) {
		a, err := parseTyped(id, "Microsoft.Network", "dnsResolverDomainLists")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := f.NewDomainListsClient().Get(ctx, a.ResourceGroup, a.Names[0], nil)
		release()
		if err != nil {
			return nil, err
		}
		return domainListFromSDK(id, &resp.DomainList), nil
	})
}

// dnsSecurityRuleFromSDK converts a DNS traffic rule. A rule without a
// priority cannot be placed among the others: the read fails rather than
// guess its place.
func dnsSecurityRuleFromSDK(v *armdnsresolver.DNSSecurityRule) (model.DNSSecurityRule, error) {
	out := model.DNSSecurityRule{ID: rid(v.ID), Name: str(v.Name)}
	p := v.Properties
	if p == nil || p.Priority == nil {
		return out, fmt.Errorf("DNS traffic rule %q has no priority", out.Name)
	}
	out.Priority = int(*p.Priority)
	if p.Action != nil && p.Action.ActionType != nil {
		out.Action = string(*p.Action.ActionType)
	}
	if p.DNSSecurityRuleState != nil {
		out.State = string(*p.DNSSecurityRuleState)
	}
	for _, l := range p.DNSResolverDomainLists {
		if l != nil && str(l.ID) != "" {
			out.DomainLists = append(out.DomainLists, rid(l.ID))
		}
	}
	return out, nil
}

// domainListFromSDK converts a domain list. A list whose domains are not in
// the resource (a large domain list gives only domainsUrl, a download link
// that is never followed, stored or logged) is Large: its domains are
// unknown.
func domainListFromSDK(id model.ResourceID, v *armdnsresolver.DomainList) *model.DNSDomainList {
	out := &model.DNSDomainList{ID: id, Name: id.Name()}
	if v.Properties == nil || v.Properties.Domains == nil {
		out.Large = true
		return out
	}
	for _, d := range v.Properties.Domains {
		if d != nil && strings.TrimSpace(*d) != "" {
			out.Domains = append(out.Domains, strings.TrimSpace(*d))
		}
	}
	return out
}
