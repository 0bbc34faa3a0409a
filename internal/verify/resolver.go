// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// resolverKind is what a DNS server the nodes use is, as far as Azure can
// describe it.
type resolverKind int

const (
	// resolverAzureDNS is Azure-provided DNS (168.63.129.16): it answers
	// from the private zones linked to the node's VNet and applies the
	// forwarding rulesets linked to it.
	resolverAzureDNS resolverKind = iota
	// resolverInbound is an inbound endpoint of a DNS private resolver: it
	// answers as Azure DNS does in the resolver's VNet.
	resolverInbound
	// resolverOpaque is a VM, an appliance or an on-premises server: its
	// forwarding cannot be read from Azure.
	resolverOpaque
)

// resolver is one DNS server the nodes of a pool use.
type resolver struct {
	Addr  netip.Addr
	Kind  resolverKind
	Label string
	// Name is how messages call it: "Azure DNS (168.63.129.16)" or Label.
	Name string
	// VNetID is the VNet whose zone links and rulesets decide the answers
	// (the node VNet for Azure DNS, the resolver's VNet for an inbound
	// endpoint); empty for an opaque server.
	VNetID model.ResourceID
	// Resource is the VM, NIC or resolver behind the address, when known.
	Resource model.ResourceID
	// Reachable is false when the route engine found an error on the way
	// from the node subnet to the server (UDP 53).
	Reachable bool
	// firewall is the Azure Firewall whose private address the server is
	// (its DNS proxy: resolver_firewall.go), nil otherwise.
	firewall *model.AzureFirewall
	// searchGap is why what the server is stays unknown: it lies in no
	// known VNet and the search for a DNS private resolver there failed.
	searchGap *model.Gap
}

// dnsOrigin says, for messages, where a pool's DNS servers come from.
func dnsOrigin(d model.NodeDNS, vnet *model.VNet) string {
	switch d.Source {
	case model.DNSFromScaleSet:
		return "the scale set's NIC DNS settings"
	case model.DNSFromNIC:
		return "NIC " + d.NIC.Name + " DNS settings"
	case model.DNSFromVNet:
		return "the DNS servers of " + vnet.Name
	default:
		return "Azure-provided DNS (" + vnet.Name + " sets no DNS servers)"
	}
}

// poolResolvers describes every DNS server of the pool, traces a route to
// each custom one, and records the pool-level findings: an unreachable
// server (DNS_SERVER_UNREACHABLE) and a server whose forwarding Azure cannot
// describe (DNS_FORWARDER_UNVERIFIED). The first reachable server answers
// the pool's lookups; nodes fail over to the next only on timeouts.
func (r *run) poolResolvers(pc *poolCtx) {
	servers := model.PoolDNSServers(pc.pool, pc.vnet, r.f.Network)
	pc.dnsOrigin = dnsOrigin(servers, pc.vnet)
	for _, addr := range servers.Servers {
		res := r.describeResolver(pc, addr)
		if res.Kind != resolverAzureDNS {
			r.checkResolverRoute(pc, res)
		} else {
			r.checkPlatformDNS(pc, res)
		}
		switch {
		case res.firewall != nil && res.Reachable:
			r.checkFirewallDNS(pc, res)
		case res.searchGap != nil && res.Reachable:
			r.used[res.searchGap.ResourceID.Key()] = true
			pc.shared = append(pc.shared, gapFinding(*res.searchGap, pc.pool.Name, res.Addr.String(),
				fmt.Sprintf("what the DNS server %s (set by %s) is: it lies in no VNet that was read, and only the search for DNS private resolver inbound endpoints across the subscriptions can tell whether it is one", res.Addr, pc.dnsOrigin)))
		case res.Kind == resolverOpaque && res.Reachable:
			pc.shared = append(pc.shared, r.forwarderUnverifiedFinding(pc, res))
		}
		pc.resolvers = append(pc.resolvers, res)
		if pc.answering == nil && res.Reachable {
			pc.answering = res
		}
	}
}

// dnsEvidence is what DNS servers are classified against (DNSEvidenceOf),
// built once per run.
func (r *run) dnsEvidence() DNSEvidence {
	if r.dnsEv == nil {
		ev := DNSEvidenceOf(r.f)
		r.dnsEv = &ev
	}
	return *r.dnsEv
}

// describeResolver says what the server at addr is (ClassifyDNSServer).
func (r *run) describeResolver(pc *poolCtx, addr netip.Addr) *resolver {
	if fw := r.f.Network.FirewallByPrivateIP(addr); fw != nil && addr != model.AzureDNS {
		return firewallResolver(addr, fw)
	}
	s := ClassifyDNSServer(addr, r.dnsEvidence())
	switch s.Kind {
	case DNSServerAzure:
		return &resolver{Addr: addr, Kind: resolverAzureDNS, Label: "azure_dns " + addr.String(), Name: "Azure DNS (" + addr.String() + ")", VNetID: pc.vnet.ID, Reachable: true}
	case DNSServerResolverInbound:
		return &resolver{Addr: addr, Kind: resolverInbound, VNetID: s.Resolver.VNetID, Resource: s.Resolver.ID, Reachable: true,
			Label: fmt.Sprintf("%s (dns private resolver %s, inbound endpoint %s)", addr, s.Resolver.Name, s.Endpoint.Name)}
	}
	res := &resolver{Addr: addr, Kind: resolverOpaque, Reachable: true}
	switch s.Kind {
	case DNSServerNIC:
		res.Resource = s.NIC.ID
		if !s.NIC.VMID.IsZero() {
			res.Resource = s.NIC.VMID
			res.Label = fmt.Sprintf("%s (vm %s)", addr, s.NIC.VMID.Name())
		} else {
			res.Label = fmt.Sprintf("%s (nic %s)", addr, s.NIC.Name)
		}
	case DNSServerUnidentified:
		res.Label = fmt.Sprintf("%s (host in %s, not a known resolver)", addr, s.VNet.Name)
		if !s.InVNet {
			res.Label = fmt.Sprintf("%s (unknown: in no VNet that was read, and the search for DNS private resolvers failed)", addr)
			res.searchGap = s.Gap
		}
	default:
		res.Label = fmt.Sprintf("%s (outside Azure: on-premises or external)", addr)
	}
	return res
}

// checkResolverRoute traces DNS (UDP and TCP 53) from the node subnet to a
// custom DNS server. An error on the way makes the server unreachable: a
// route that drops it goes into one DNS_SERVER_UNREACHABLE finding (the
// server is the dns owner's choice; the message names the route), a
// security group or security admin rule that denies it is reported as its
// SECURITY_RULE_*_DENIED or SECURITY_ADMIN_RULE_DENIED finding alone (network owner; not also as
// DNS_SERVER_UNREACHABLE, which means "no route"). Warnings are kept as
// they are.
func (r *run) checkResolverRoute(pc *poolCtx, res *resolver) {
	rr := r.trace(pc, RouteQuery{Pool: pc.pool, SubnetID: pc.subnet.ID, Dest: res.Addr, Protocol: "Udp", Port: 53}, res.Addr.String())
	var cause, shown *model.Finding
	fs := inContext(pc, "DNS server "+res.Label, "", rr.Findings)
	for i, f := range fs {
		if f.Severity == model.SeverityError {
			if cause == nil {
				cause, shown = &rr.Findings[i], &fs[i]
			}
			continue
		}
		pc.shared = append(pc.shared, f)
	}
	if cause == nil {
		return
	}
	res.Reachable = false
	if cause.Code == model.SecurityOutboundDenied || cause.Code == model.SecurityInboundDenied || cause.Code == model.SecurityAdminRuleDenied {
		// A security rule is the cause, not a missing route: the catalogue
		// reports each problem once, by its most specific code, and
		// DNS_SERVER_UNREACHABLE means "no route". The security finding
		// names the group (or the security admin rule), the rule, its
		// priority and the flow; it gains what the denial does to name
		// resolution.
		f := *shown
		f.Message = fmt.Sprintf("%s Without an answer from %s (set by %s), the registry names do not resolve.",
			ensurePeriod(f.Message), res.Label, pc.dnsOrigin)
		rules := "the groups"
		if cause.Code == model.SecurityAdminRuleDenied {
			rules = "the security admin rules and the groups"
		}
		f.Remediation = ensurePeriod(f.Remediation) + " Or point the nodes at a DNS server whose traffic " + rules + " allow. A pod dnsConfig or a hosts entry does not change the node's resolver."
		pc.shared = append(pc.shared, f)
		return
	}
	msg := fmt.Sprintf("%s uses the DNS server %s, set by %s, but DNS traffic from the node subnet does not get there: %s (%s). Without an answer, the registry names do not resolve.",
		pc.label, res.Label, pc.dnsOrigin, strings.TrimSuffix(cause.Message, "."), cause.Code)
	fix := fmt.Sprintf("For the route to %s: %s Or point the nodes at a DNS server they can reach. A pod dnsConfig or a hosts entry does not change the node's resolver.",
		res.Addr, ensurePeriod(cause.Remediation))
	pc.shared = append(pc.shared, model.NewFinding(model.DNSServerUnreachable, pc.pool.Name, res.Addr.String(), cause.ResourceID, msg, fix))
}

// forwarderUnverifiedFinding: a custom DNS server Azure cannot describe.
func (r *run) forwarderUnverifiedFinding(pc *poolCtx, res *resolver) model.Finding {
	zone := r.cloud.PrivateLinkZone
	if r.f.Registry == nil {
		zone = "the registry's zone"
	}
	msg := fmt.Sprintf("%s resolves through %s, set by %s. Its forwarding cannot be read from Azure, so whether it answers the registry names with their private addresses is unverified; the paths assume it does.",
		pc.label, res.Label, pc.dnsOrigin)
	fix := fmt.Sprintf("Make sure %s forwards %s to Azure DNS (168.63.129.16) from a VNet linked to the zone, or to a DNS private resolver inbound endpoint whose VNet is linked; or use Azure-provided DNS or the resolver's inbound endpoint as the VNet's DNS server, which the provider can verify. Check from a node (not a pod): `nslookup <registry name> %s`.",
		res.Addr, zone, res.Addr)
	return model.NewFinding(model.DNSForwarderUnverified, pc.pool.Name, res.Addr.String(), res.Resource, msg, fix)
}

// resolverLabel is the pool's resolver list for the paths table.
func (pc *poolCtx) resolverLabel() string {
	labels := make([]string, len(pc.resolvers))
	for i, res := range pc.resolvers {
		labels[i] = res.Label
	}
	return strings.Join(labels, ", ")
}

// name is how messages call the resolver.
func (res *resolver) name() string {
	if res.Name != "" {
		return res.Name
	}
	return res.Label
}

func ensurePeriod(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
