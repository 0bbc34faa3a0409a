// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestDomainCovers: a domain list entry covers itself and every name below
// it (the DNS hierarchy), "." covers every name, names compare without
// case and trailing dot, a label suffix that is no parent domain does not
// match, and wildcard entries are decided only where that is documented.
func TestDomainCovers(t *testing.T) {
	cases := []struct {
		entry, name string
		want        tri
	}{
		{"azurecr.io.", "contosoreg.westeurope.data.azurecr.io", triYes},
		{"azurecr.io", "contosoreg.azurecr.io", triYes},
		{"AzureCR.io.", "CONTOSOREG.azurecr.io.", triYes},
		{"contosoreg.azurecr.io.", "contosoreg.azurecr.io", triYes},
		{".", "contosoreg.azurecr.io", triYes},
		{"contosoreg.azurecr.io.", "contosoreg.westeurope.data.azurecr.io", triNo},
		{"privatelink.azurecr.io.", "contosoreg.azurecr.io", triNo},
		{"cr.io.", "contosoreg.azurecr.io", triNo},
		{"azurecr.io.", "azurecr.io.evil.example", triNo},
		{"contoso.com.", "contosoreg.azurecr.io", triNo},
		{"*.azurecr.io", "contosoreg.azurecr.io", triYes},
		{"*.azurecr.io", "azurecr.io", triMaybe},
		{"*.azurecr.io", "mcr.microsoft.com", triNo},
		{"contoso*.azurecr.io", "contosoreg.azurecr.io", triMaybe},
		{"", "contosoreg.azurecr.io", triNo},
	}
	for _, c := range cases {
		if got := domainCovers(c.entry, c.name); got != c.want {
			t.Errorf("domainCovers(%q, %q) = %d, want %d", c.entry, c.name, got, c.want)
		}
	}
}

// TestDecideDNSPolicy: rules by priority, the first enabled rule whose
// domain lists match a name of the chain decides; Block blocks, Allow and
// Alert pass; disabled rules do not apply; what cannot be decided (a large
// list, a list not read, the rules not read, an unknown action or state,
// a public CNAME chain not read) leaves the outcome open only where it
// could change it.
func TestDecideDNSPolicy(t *testing.T) {
	const base = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"
	list := func(name string, domains ...string) *model.DNSDomainList {
		return &model.DNSDomainList{ID: model.ResourceID(base + "dnsResolverDomainLists/" + name), Name: name, Domains: domains}
	}
	lists := map[string]*model.DNSDomainList{}
	for _, l := range []*model.DNSDomainList{
		list("acr", "azurecr.io."),
		list("login", "contosoreg.azurecr.io."),
		list("privatelink", "privatelink.azurecr.io."),
		list("all", "."),
		list("other", "malicious.contoso.com."),
		{ID: model.ResourceID(base + "dnsResolverDomainLists/huge"), Name: "huge", Large: true},
	} {
		lists[l.ID.Key()] = l
	}
	ref := func(name string) model.ResourceID { return model.ResourceID(base + "dnsResolverDomainLists/" + name) }
	rule := func(name string, prio int, action, state string, ls ...string) model.DNSSecurityRule {
		r := model.DNSSecurityRule{ID: model.ResourceID(base + "dnsResolverPolicies/p/dnsSecurityRules/" + name), Name: name, Priority: prio, Action: action, State: state}
		for _, l := range ls {
			r.DomainLists = append(r.DomainLists, ref(l))
		}
		return r
	}
	pol := func(rules ...model.DNSSecurityRule) *model.DNSSecurityPolicy {
		return &model.DNSSecurityPolicy{ID: model.ResourceID(base + "dnsResolverPolicies/p"), Name: "p", Rules: rules, RulesKnown: true}
	}
	data := []string{"contosoreg.westeurope.data.azurecr.io", "contosoreg.westeurope.data.privatelink.azurecr.io"}
	login := []string{"contosoreg.azurecr.io", "contosoreg.privatelink.azurecr.io"}
	cases := []struct {
		name     string
		p        *model.DNSSecurityPolicy
		chain    []string
		openTail bool
		want     policyOutcome
		rule     string
	}{
		{"block on the registry domain", pol(rule("block-acr", 200, "Block", "Enabled", "acr")), data, false, policyBlocks, "block-acr"},
		{"login allowed above, data endpoint still blocked", pol(rule("allow-login", 100, "Allow", "Enabled", "login"), rule("block-acr", 200, "Block", "Enabled", "acr")), data, false, policyBlocks, "block-acr"},
		{"login allowed above, login passes", pol(rule("allow-login", 100, "Allow", "Enabled", "login"), rule("block-acr", 200, "Block", "Enabled", "acr")), login, false, policyPasses, "allow-login"},
		{"allow above block by priority, listed out of order", pol(rule("block-all", 300, "Block", "Enabled", "all"), rule("allow-acr", 100, "Allow", "Enabled", "acr")), data, false, policyPasses, "allow-acr"},
		{"block above allow by priority", pol(rule("allow-acr", 300, "Allow", "Enabled", "acr"), rule("block-all", 100, "Block", "Enabled", "all")), data, false, policyBlocks, "block-all"},
		{"alert passes", pol(rule("alert-acr", 100, "Alert", "Enabled", "acr")), data, false, policyPasses, "alert-acr"},
		{"disabled block does not apply", pol(rule("block-acr", 100, "Block", "Disabled", "acr")), data, false, policyPasses, ""},
		{"block of another domain", pol(rule("block-other", 100, "Block", "Enabled", "other")), data, false, policyPasses, ""},
		{"block of a CNAME target (privatelink)", pol(rule("block-pl", 100, "Block", "Enabled", "privatelink")), login, false, policyBlocks, "block-pl"},
		{"large list that may block", pol(rule("block-huge", 100, "Block", "Enabled", "huge")), data, false, policyUndecided, ""},
		{"large list under an allow that decides", pol(rule("allow-acr", 100, "Allow", "Enabled", "acr"), rule("block-huge", 200, "Block", "Enabled", "huge")), data, false, policyPasses, "allow-acr"},
		{"large allow list above a sure block", pol(rule("allow-huge", 100, "Allow", "Enabled", "huge"), rule("block-acr", 200, "Block", "Enabled", "acr")), data, false, policyUndecided, ""},
		{"domain list not read", pol(rule("block-x", 100, "Block", "Enabled", "unread")), data, false, policyUndecided, ""},
		{"unknown action that applies", pol(rule("redirect", 100, "Redirect", "Enabled", "acr")), data, false, policyUndecided, ""},
		{"unknown state of a block", pol(rule("block-acr", 100, "Block", "", "acr")), data, false, policyUndecided, ""},
		{"public chain not read, block elsewhere", pol(rule("block-other", 100, "Block", "Enabled", "other")), []string{"mcr.microsoft.com"}, true, policyUndecided, ""},
		{"public chain not read, allow decides first", pol(rule("allow-acr", 100, "Allow", "Enabled", "acr"), rule("block-other", 200, "Block", "Enabled", "other")), login[:1], true, policyPasses, "allow-acr"},
		{"public chain not read, only allow rules", pol(rule("allow-other", 100, "Allow", "Enabled", "other")), []string{"mcr.microsoft.com"}, true, policyPasses, ""},
		{"no rules", pol(), data, false, policyPasses, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := decideDNSPolicy(c.p, lists, c.chain, c.openTail)
			if d.Outcome != c.want {
				t.Fatalf("outcome %d, want %d (open %v, missing %v)", d.Outcome, c.want, d.Open, d.Missing)
			}
			got := ""
			if d.Rule != nil && d.Outcome != policyUndecided {
				got = d.Rule.Name
			}
			if got != c.rule {
				t.Errorf("decided by %q, want %q", got, c.rule)
			}
			if c.want == policyUndecided && len(d.Open)+len(d.Missing) == 0 {
				t.Errorf("undecided without saying why")
			}
			if c.want != policyUndecided && len(d.Open)+len(d.Missing) != 0 {
				t.Errorf("decided but open: %v %v", d.Open, d.Missing)
			}
		})
	}
	t.Run("rules not read", func(t *testing.T) {
		p := pol(rule("allow-acr", 100, "Allow", "Enabled", "acr"))
		p.RulesKnown = false
		d := decideDNSPolicy(p, lists, data, false)
		if d.Outcome != policyUndecided || len(d.Missing) != 1 || d.Missing[0] != p.RulesID() {
			t.Fatalf("got %+v, want undecided for want of %s", d, p.RulesID())
		}
	})
}
