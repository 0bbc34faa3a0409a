// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// CheckPlatformDNS evaluates the network security groups on the nodes'
// queries to Azure-provided DNS (model.AzureDNS, UDP then TCP 53). The flow
// goes to the host's virtual IP, so no route table applies to it and
// nothing is traced; only the node's outbound groups (NIC, then subnet)
// can stop it, and only by a rule on the AzurePlatformDNS service tag
// (security.PlatformDNSChain; docs/design/azure-behaviour.md, "Azure DNS
// under network security groups"). A denial is SECURITY_RULE_OUTBOUND_DENIED,
// a rule that cannot be decided SECURITY_RULE_UNVERIFIED, a group that
// could not be read a gap. sf.Dest, Protocol and Port are set here.
func CheckPlatformDNS(n *model.Network, sf SecurityFlow, spaces func(model.ResourceID) security.Space) SecurityResult {
	var out SecurityResult
	subnet := n.Subnet(sf.SubnetID)
	if subnet == nil {
		return out
	}
	sf.Dest, sf.Public, sf.Port = model.AzureDNS, false, 53
	groups, gaps := nodeOutboundGroups(n, sf, subnet, spaces)
	if len(gaps) > 0 {
		out.Gaps = uniqueGaps(gaps)
		return out
	}
	flow := security.Flow{Port: 53, Source: security.Endpoint{Prefixes: subnet.Prefixes}}
	if sf.NIC != nil {
		flow.Source.ASGs, flow.Source.ASGsKnown = sf.NIC.ASGIDs, true
	}
	for _, proto := range []string{"Udp", "Tcp"} {
		f, pf := flow, sf
		f.Protocol, pf.Protocol = proto, proto
		if !out.step(security.PlatformDNSChain(f, groups), f, pf, security.Outbound, "node") {
			return out
		}
	}
	return out
}

// checkPlatformDNS checks the pool's queries to Azure-provided DNS
// (CheckPlatformDNS). A security group that denies them makes the server
// unreachable: its SECURITY_RULE_OUTBOUND_DENIED finding gains what the
// denial does to name resolution. Undecided rules and gaps are kept; the
// server then still answers the paths, which those findings leave
// unverified.
func (r *run) checkPlatformDNS(pc *poolCtx, res *resolver) {
	sf := SecurityFlow{SubnetID: pc.subnet.ID, NICGroupID: pc.pool.NSGID}
	_, sf.NIC = poolSource(RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID}, r.f.Network)
	if r.spaces == nil {
		r.spaces = SpacesOf(r.f.Network)
	}
	sr := CheckPlatformDNS(r.f.Network, sf, r.spaces)
	endpoint := res.Addr.String()
	for _, gap := range sr.Gaps {
		if known, ok := r.gaps.Lookup(gap.ResourceID); ok {
			gap = known // the failed read itself, not only its absence
		}
		r.used[gap.ResourceID.Key()] = true
		pc.shared = append(pc.shared, gapFinding(gap, pc.pool.Name, endpoint, "the security rules on DNS queries from the node subnet to "+res.name()))
	}
	for _, f := range inContext(pc, "DNS server "+res.name(), "", sr.Findings) {
		f.NodePool, f.Endpoint = pc.pool.Name, endpoint
		if f.Code == model.SecurityOutboundDenied {
			res.Reachable = false
			f.Message = fmt.Sprintf("%s Queries to Azure DNS are not subject to route tables, but a rule on the AzurePlatformDNS service tag blocks them; without an answer from %s (set by %s), the registry names do not resolve.",
				ensurePeriod(f.Message), res.name(), pc.dnsOrigin)
			f.Remediation = ensurePeriod(f.Remediation) + " Or remove the rule on AzurePlatformDNS, or point the nodes at a DNS server whose traffic the groups allow. Routes, peerings and private DNS zone links are not the cause; a pod dnsConfig or a hosts entry does not change the node's resolver."
		}
		pc.shared = append(pc.shared, f)
	}
}
