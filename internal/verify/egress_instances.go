// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Instance-level public IPs (docs/design/azure-behaviour.md,
// "Instance-level public IPs"): a pool with enableNodePublicIP and no
// nodePublicIPPrefixID gives each node a public IP of its own, from no
// range the pool names. Its flows to public addresses leave through that
// address (unless the subnet has a NAT gateway). The addresses the
// instances hold now are read from their scale set; even unread, an
// instance's address is its own public IP resource's, so it is none of
// the addresses other public IP resources hold.

// instanceEgress fills the sources of a flow that leaves through the
// instance-level public IPs of pool (no prefix): the addresses its
// instances hold now, or why they are not known.
func (r *run) instanceEgress(pool *model.NodePool, res *egressResult) {
	res.instances = pool
	switch {
	case pool.InstancePublicIPsRead && len(pool.InstancePublicIPs) > 0:
		var names []string
		for _, a := range pool.InstancePublicIPs {
			label := instanceIPLabel(a)
			names = append(names, instanceWord(a.ID))
			if !a.Prefix.IsValid() {
				res.unknown = label + " has no address allocated"
				continue
			}
			res.sources = append(res.sources, egressSource{label: label, addr: a.Prefix})
		}
		res.steps = []model.Hop{egressStep(model.HopEgress, pool.ScaleSetID, "out through each node's own public IP ("+strings.Join(slices.Compact(names), ", ")+" of scale set "+pool.ScaleSetID.Name()+" now)")}
	case pool.InstancePublicIPsRead:
		res.unknown = "no instance of scale set " + pool.ScaleSetID.Name() + " holds a public IP now, and each node gets one of its own when it is created, from no prefix the pool names"
	case pool.InstancePublicIPsList.IsZero():
		res.unknown = "each node gets a public IP of its own when it is created, from no prefix the pool names, and no scale set of the pool was found to read its instances' addresses from"
	default:
		res.unknown = "each node has a public IP of its own, from no prefix the pool names, and the addresses its instances hold could not be read"
		if gap, ok := r.gaps.Lookup(pool.InstancePublicIPsList); ok && gap.Kind == model.GapPlannedUnknown {
			res.unknown = "each node gets a public IP of its own, from no prefix the pool names, and the planned changes give the pool nodes whose addresses are known only after apply"
		}
	}
}

// instanceIPRules applies the registry's IP rules to a flow that leaves
// through instance-level public IPs whose addresses are not known
// (eg.instances, no sources). When every address the rules admit is held
// by another public IP resource the provider read (the load balancer's
// outbound IPs, a NAT gateway's, an Azure Firewall's, another pool's
// prefix), no instance can hold one of them: the registry refuses the
// nodes whatever their addresses are (ENDPOINT_PUBLIC_IP_NOT_ALLOWED).
// Otherwise a failed read of the addresses is evidence, and addresses
// unknown by nature leave the flow unverified (EGRESS_UNVERIFIED).
func (r *run) instanceIPRules(pc *poolCtx, h model.PullHost, eg egressResult, what string) []model.Finding {
	reg := r.f.Registry
	pool := eg.instances
	if holders, ok := r.rulesHeldElsewhere(reg.IPRules); ok && !reg.DualStackEndpoints() {
		held := "every address they admit is held by another public IP resource: " + strings.Join(holders, "; ")
		if len(reg.IPRules) == 0 {
			held = "they admit no address at all"
		}
		msg := fmt.Sprintf("%s reaches the %s %s at its public address through %s. Registry %s admits public clients only from %s (network rule set default action Deny), and %s. An instance-level public IP is an address of its own, which no other public IP resource holds, so none of the nodes' addresses is among them (%s); the registry refuses the connection (403, \"client with IP ... is not allowed access\"), and %s.",
			pc.label, h.Kind, h.Name, eg.via, reg.Name, rangeWords(reg.IPRules), held, eg.unknown, consequence(h))
		fix := fmt.Sprintf("Give pool %s's nodes a way out registry %s admits: create the pool with a public IP prefix (nodePublicIPPrefixID) and add the prefix to the registry's IP rules, or attach a NAT gateway whose public IP the rules admit to subnet %s (it takes precedence over the nodes' own public IPs), or reach %s over a private endpoint. Listing the nodes' current addresses is no lasting fix: a node created later (scale-out, upgrade, reimage) gets a new one. Credentials and imagePullSecrets are irrelevant: the registry refuses the address before any credential is checked.",
			pool.Name, reg.Name, pc.subnet.Name, h.Name)
		return []model.Finding{model.NewFinding(model.EndpointPublicIPNotAllowed, pc.pool.Name, h.Name, reg.ID, msg, fix)}
	}
	if !pool.InstancePublicIPsRead && !pool.InstancePublicIPsList.IsZero() {
		return []model.Finding{r.evidence(pc.pool.Name, h.Name, pool.InstancePublicIPsList,
			"the instance-level public IPs of scale set "+pool.ScaleSetID.Name()+" ("+what+")")}
	}
	return r.egressUnverified(pc, h, reg.ID,
		fmt.Sprintf("registry %s admits public clients only from %s (network rule set default action Deny), and the nodes leave through %s, whose public address is not known: %s. Whether the registry admits them is unverified.",
			reg.Name, rangeWords(reg.IPRules), eg.via, eg.unknown),
		fmt.Sprintf("Give pool %s's nodes public addresses from a range the registry can admit: create the pool with a public IP prefix (nodePublicIPPrefixID) and add it to registry %s's IP rules, or attach a NAT gateway with a public IP or prefix to subnet %s and add that; or reach %s over a private endpoint.", pool.Name, reg.Name, pc.subnet.Name, h.Name)).findings
}

// rulesHeldElsewhere reports whether every address of the IP rules is held
// by a public IP address or prefix resource the provider read (or an
// address a firewall reports as its own), with those holders in words.
func (r *run) rulesHeldElsewhere(rules []netip.Prefix) ([]string, bool) {
	type holder struct {
		prefix netip.Prefix
		label  string
	}
	var held []holder
	n := r.f.Network
	if n == nil {
		return nil, false
	}
	for _, k := range slices.Sorted(maps.Keys(n.PublicAddresses)) {
		a := n.PublicAddresses[k]
		if a.Prefix.IsValid() {
			held = append(held, holder{a.Prefix, r.holderLabel(a)})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.Firewalls)) {
		fw := n.Firewalls[k]
		for _, ip := range fw.PublicIPs {
			held = append(held, holder{netip.PrefixFrom(ip, ip.BitLen()), "Azure Firewall " + fw.Name + " (" + ip.String() + ")"})
		}
	}
	prefixes := make([]netip.Prefix, len(held))
	for i, h := range held {
		prefixes[i] = h.prefix
	}
	var words []string
	for _, q := range rules {
		if !coveredBy(q, prefixes) {
			return nil, false
		}
		var by []string
		for _, h := range held {
			if h.prefix.Overlaps(q) && !slices.Contains(by, h.label) {
				by = append(by, h.label)
			}
		}
		words = append(words, prefixWord(q)+" by "+strings.Join(by, " and "))
	}
	return words, true
}

// holderLabel says what a public IP address or prefix resource is to the
// flows: the cluster's outbound IP, a NAT gateway's, a firewall's.
func (r *run) holderLabel(a *model.PublicAddress) string {
	what := kindOfAddress(a.ID) + " " + a.Name + " (" + prefixWord(a.Prefix) + ")"
	if cl := r.f.Cluster; cl != nil {
		if slices.ContainsFunc(cl.Outbound.LoadBalancerIPIDs, a.ID.Equal) {
			return "cluster " + cl.Name + "'s load balancer outbound " + what
		}
		if slices.ContainsFunc(cl.Outbound.NATGatewayIPIDs, a.ID.Equal) {
			return "cluster " + cl.Name + "'s managed NAT gateway " + what
		}
	}
	n := r.f.Network
	for _, k := range slices.Sorted(maps.Keys(n.NATGateways)) {
		if g := n.NATGateways[k]; slices.ContainsFunc(g.PublicIPIDs, a.ID.Equal) {
			return "NAT gateway " + g.Name + "'s " + what
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.Firewalls)) {
		if fw := n.Firewalls[k]; slices.ContainsFunc(fw.PublicIPAddressIDs, a.ID.Equal) {
			return "Azure Firewall " + fw.Name + "'s " + what
		}
	}
	return what
}

// instanceIPLabel names an instance-level public IP by its instance.
func instanceIPLabel(a *model.PublicAddress) string {
	return "public IP " + a.Name + " of " + instanceWord(a.ID)
}

// instanceWord is "instance {i}" from an id under
// …/virtualMachineScaleSets/{v}/virtualMachines/{i}/….
func instanceWord(id model.ResourceID) string {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		if strings.EqualFold(segs[i], "virtualMachines") {
			return "instance " + segs[i+1]
		}
	}
	return "an instance"
}
