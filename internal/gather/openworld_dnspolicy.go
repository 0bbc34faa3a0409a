// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"reflect"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
)

// The open-world classification of the DNS security policy models read
// (dnspolicies.go): the DNS traffic rules and the domain lists they name.
// The policy resource itself is known only by the id its VNet's
// listDnsResolverPolicies gives.
func init() {
	meta := func(extra map[string]propertyClass) map[string]propertyClass {
		out := map[string]propertyClass{
			"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta),
			"Etag": irr(whyMeta), "SystemData": irr(whyMeta),
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	openWorld[reflect.TypeOf(armdnsresolver.DNSSecurityRule{})] = meta(map[string]propertyClass{
		"Properties": evIn("the rule's settings, below"),
	})
	openWorld[reflect.TypeOf(armdnsresolver.DNSSecurityRuleProperties{})] = map[string]propertyClass{
		"Action":                 evIn("what the rule does with a query it applies to, below"),
		"DNSResolverDomainLists": ev("the domain lists whose domains the rule applies to (DNS security policies, D8)"),
		"Priority":               ev("the order rules are evaluated in, lower first (D8)"),
		"DNSSecurityRuleState":   ev("a Disabled rule does not apply; a state other than Enabled or Disabled is not understood (D8)"),
		"ProvisioningState":      irr(whyState),
	}
	openWorld[reflect.TypeOf(armdnsresolver.DNSSecurityRuleAction{})] = map[string]propertyClass{
		"ActionType": ev("Block fails the query, Allow and Alert answer it; another value is not understood (D8)"),
	}
	openWorld[reflect.TypeOf(armdnsresolver.DomainList{})] = meta(map[string]propertyClass{
		"Properties": evIn("the list's settings, below"),
	})
	openWorld[reflect.TypeOf(armdnsresolver.DomainListProperties{})] = map[string]propertyClass{
		"Domains":           ev("the domains a rule matches the queried name and its CNAME chain against, by DNS hierarchy (D8)"),
		"DomainsURL":        ev("a large domain list gives only this download link, never followed: a rule over it is undecided (D8)"),
		"ProvisioningState": irr(whyState),
		"ResourceGUID":      irr(whyMeta),
	}
}
