// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Values a planned change leaves unknown, per value (docs/design/what-if.md,
// "Unknown values").
//
// A read made with azure.WithKnownPart gets, from the what-if overlay, the
// body of a resource the plan leaves partly unknown without the unknown
// members, and the list of those members (dotted paths, each with the
// resource whose body holds it: the resource read or a child it embeds).
// plannedFacts maps each member to the fact of the model object it is,
// and is the one place that does. A member mapped to noFact is read by no
// rule, so its value changes nothing the provider evaluates; a member the
// table does not list makes the whole resource unknown, as a read without
// the known part (sound by default: a member is added here only with the
// rules that read its fact asking for it, see model.UnknownFacts).
var plannedFacts = map[string]map[string]model.Fact{
	"microsoft.network/virtualnetworks": {
		// model.NodeDNSServers (the nodes of the VNet, when their NICs
		// set none) and, through it, verify's resolvers.
		"properties.dhcpOptions.dnsServers": model.FactDNSServers,
	},
	"microsoft.network/virtualnetworks/subnets": {
		// routing's private endpoint routes (route-table policies) and
		// verify's security at a private endpoint (security group
		// policies), only for a subnet that holds a private endpoint.
		"properties.privateEndpointNetworkPolicies": model.FactPrivateEndpointNetworkPolicies,
		// Private Link services are not on any pull path.
		"properties.privateLinkServiceNetworkPolicies": noFact,
	},
}

// noFact marks a member no rule reads.
const noFact model.Fact = ""

// factOf is the fact a member of a resource of id's type is, and whether
// the table knows the member.
func factOf(id, member string) (model.Fact, bool) {
	p, err := ids.Parse(id)
	if err != nil {
		return noFact, false
	}
	f, ok := plannedFacts[strings.ToLower(p.Type())][member]
	return f, ok
}

// unknownFacts sorts the unknown values of one read (azure.WithKnownPart)
// into the facts of the objects they belong to, calling mark for each
// unknown fact with its gap. It reports false when some value maps to no
// fact the table knows, or to an object at names not among those the
// read gave (has): the whole answer is then unknown (u, as the error of
// the read), and nothing is marked.
func unknownFacts(u *azure.PlannedValueUnknownError, has func(id model.ResourceID) bool, mark func(id model.ResourceID, f model.Fact, gap model.Gap)) bool {
	type fact struct {
		id model.ResourceID
		f  model.Fact
		v  azure.PlannedUnknownValue
	}
	var facts []fact
	for _, v := range u.Values {
		f, known := factOf(v.ID, v.Member)
		switch {
		case !known:
			return false
		case f == noFact:
			continue
		case !has(model.ResourceID(v.ID)):
			return false
		}
		facts = append(facts, fact{model.ResourceID(v.ID), f, v})
	}
	for _, x := range facts {
		mark(x.id, x.f, azure.Gap(x.id, "", &azure.PlannedValueUnknownError{ID: x.v.ID, Address: x.v.Address, Members: []string{x.v.Member}}))
	}
	return true
}

// markVNetUnknown records on v and its subnets the facts u leaves unknown,
// or returns u when the whole VNet is unknown (see unknownFacts).
func markVNetUnknown(v *model.VNet, u *azure.PlannedValueUnknownError) error {
	if u == nil {
		return nil
	}
	subnet := func(id model.ResourceID) *model.Subnet {
		for _, s := range v.Subnets {
			if s != nil && s.ID.Equal(id) {
				return s
			}
		}
		return nil
	}
	has := func(id model.ResourceID) bool { return v.ID.Equal(id) || subnet(id) != nil }
	mark := func(id model.ResourceID, f model.Fact, gap model.Gap) {
		var facts *model.UnknownFacts
		if v.ID.Equal(id) {
			facts = &v.Unknown
		} else {
			facts = &subnet(id).Unknown
		}
		if *facts == nil {
			*facts = model.UnknownFacts{}
		}
		if prev, ok := (*facts)[f]; ok {
			// Several changes leave one fact unknown: name them all.
			gap.Planned = joinAddresses(prev.Planned, gap.Planned)
		}
		(*facts)[f] = gap
	}
	if !unknownFacts(u, has, mark) {
		return u
	}
	return nil
}

// joinAddresses joins two ", "-joined lists of addresses, sorted, each
// once.
func joinAddresses(a, b string) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(strings.Split(a, ", "), strings.Split(b, ", ")...) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
