// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallResolver describes a DNS server that is an Azure Firewall's
// private address: the firewall's DNS proxy, if it is on. What it answers
// is decided by checkFirewallDNS once the route there is known to work.
func firewallResolver(addr netip.Addr, fw *model.AzureFirewall) *resolver {
	return &resolver{Addr: addr, Kind: resolverOpaque, Resource: fw.ID, Reachable: true, firewall: fw,
		Label: fmt.Sprintf("%s (Azure Firewall %s, DNS proxy)", addr, fw.Name)}
}

// checkFirewallDNS decides what the DNS proxy of the firewall at res.Addr
// answers (docs/design/azure-behaviour.md, "Azure Firewall DNS proxy"):
//
//   - settings not read (the firewall's policy, or its parent policy,
//     could not be read): the evidence finding; the answers are assumed,
//     never concluded;
//   - a parent policy whose DNS settings differ from the policy's
//     (model.FirewallDNS.Inheritance: undocumented which applies):
//     DNS_FORWARDER_UNVERIFIED, the answers assumed;
//   - proxy off (the default): DNS_PROXY_DISABLED, nothing answers on port
//     53 there, and the server is unreachable;
//   - proxy on without servers: Azure DNS, asked from the firewall's VNet,
//     so the zones linked to that VNet (and its forwarding rulesets)
//     answer, as for a resolver inbound endpoint there;
//   - proxy on with servers: they are classified as the nodes' own would
//     be (ClassifyDNSServer): Azure DNS (from the firewall's VNet) or
//     resolver inbound endpoints that answer from one VNet decide; a
//     server whose forwarding Azure cannot describe, or servers that
//     answer from different VNets, leave the answers unverified
//     (DNS_FORWARDER_UNVERIFIED).
func (r *run) checkFirewallDNS(pc *poolCtx, res *resolver) {
	fw := res.firewall
	dns := r.f.Network.FirewallDNSOf(fw)
	fwVNet := model.FirewallVNet(fw)
	switch {
	case !dns.Known:
		pc.shared = append(pc.shared, r.evidence(pc.pool.Name, res.Addr.String(), dns.From,
			"the DNS proxy setting of Azure Firewall "+fw.Name+" (whether it answers DNS at "+res.Addr.String()+", and from where)"))
		return
	case dns.Inheritance != "":
		// Which settings the firewall uses is undocumented: the paths
		// assume it answers, unverified.
		res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy)", res.Addr, fw.Name)
		msg := fmt.Sprintf("%s resolves through the DNS proxy of Azure Firewall %s at %s, set by %s, but %s. Whether it answers DNS there, and from where, is unverified, and the paths assume it answers the registry names with their private addresses.",
			pc.label, fw.Name, res.Addr, pc.dnsOrigin, dns.Inheritance)
		fix := fmt.Sprintf("Give firewall policy %s the DNS settings the firewall must use (`az network firewall policy update --name %s --resource-group <group> --enable-dns-proxy true`, with the same servers as its parent or none), so that the child and the parent agree. Check from a node (not a pod): `nslookup <registry name> %s`.", dns.From.Name(), dns.From.Name(), res.Addr)
		pc.shared = append(pc.shared, model.NewFinding(model.DNSForwarderUnverified, pc.pool.Name, res.Addr.String(), dns.From, msg, fix))
		return
	case !dns.Proxy:
		res.Reachable = false
		pc.shared = append(pc.shared, r.proxyDisabledFinding(pc, res, dns))
		return
	}
	var vnets []model.ResourceID
	var opaque []string
	for _, s := range dns.Servers {
		c := ClassifyDNSServer(s, r.dnsEvidence())
		switch c.Kind {
		case DNSServerAzure:
			vnets = appendUniqueResourceID(vnets, fwVNet)
		case DNSServerResolverInbound:
			vnets = appendUniqueResourceID(vnets, c.Resolver.VNetID)
		default:
			opaque = append(opaque, s.String())
		}
	}
	if len(dns.Servers) == 0 {
		vnets = []model.ResourceID{fwVNet}
	}
	via := "Azure DNS"
	if len(dns.Servers) > 0 {
		via = joinAddrs(dns.Servers)
	}
	if len(opaque) == 0 && len(vnets) == 1 && !vnets[0].IsZero() {
		res.Kind, res.VNetID = resolverInbound, vnets[0]
		res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy to %s from %s)", res.Addr, fw.Name, via, vnets[0].Name())
		return
	}
	why := "it forwards to " + via
	fix := fmt.Sprintf("Let the firewall's DNS proxy forward to Azure DNS (no custom DNS servers in its settings) from a VNet linked to the registry's private DNS zone, or to a DNS private resolver inbound endpoint whose VNet is linked, which the provider can verify. Check from a node (not a pod): `nslookup <registry name> %s`.", res.Addr)
	switch {
	case len(opaque) > 0:
		why += ", and Azure cannot describe the forwarding of " + strings.Join(opaque, ", ")
	case len(vnets) > 1:
		why += ", which answer from different VNets, and the firewall may ask any of them"
	default:
		why += " from a firewall that is not in a VNet Resource Manager shows (a Virtual WAN hub)"
		// No private DNS zone can be linked to a virtual hub ("Guide to
		// Private Link and DNS in Azure Virtual WAN"): the proxy answers
		// private names only through a resolver in a spoke.
		fix = fmt.Sprintf("A private DNS zone cannot be linked to a Virtual WAN hub: set the DNS servers of the firewall's policy to the inbound endpoint of a DNS private resolver in a VNet connected to the hub and linked to the registry's private DNS zone, which the provider can verify, or let the nodes' VNet use that inbound endpoint directly. Check from a node (not a pod): `nslookup <registry name> %s`.", res.Addr)
	}
	res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy to %s)", res.Addr, fw.Name, via)
	msg := fmt.Sprintf("%s resolves through the DNS proxy of Azure Firewall %s at %s, set by %s, but %s; whether it answers the registry names with their private addresses is unverified, and the paths assume it does.",
		pc.label, fw.Name, res.Addr, pc.dnsOrigin, why)
	pc.shared = append(pc.shared, model.NewFinding(model.DNSForwarderUnverified, pc.pool.Name, res.Addr.String(), dns.From, msg, fix))
}

// proxyDisabledFinding is DNS_PROXY_DISABLED: the nodes ask a firewall
// whose DNS proxy is off.
func (r *run) proxyDisabledFinding(pc *poolCtx, res *resolver, dns model.FirewallDNS) model.Finding {
	fw := res.firewall
	setting, fix := "the classic setting Network.DNS.EnableProxy of firewall "+fw.Name+" is not true",
		fmt.Sprintf("Turn on the firewall's DNS proxy (`az network firewall update --name %s --resource-group <group> --enable-dns-proxy true`)", fw.Name)
	if !fw.PolicyID.IsZero() {
		setting = "dnsSettings.enableProxy of its firewall policy " + dns.From.Name() + " is off"
		fix = fmt.Sprintf("Turn on the DNS proxy in firewall policy %s (`az network firewall policy update --name %s --resource-group <group> --enable-dns-proxy true`)", dns.From.Name(), dns.From.Name())
	}
	msg := fmt.Sprintf("%s uses the DNS server %s, set by %s, which is the private address of Azure Firewall %s; its DNS proxy is off (%s; the proxy is off by default), so nothing answers DNS there and the registry names do not resolve.",
		pc.label, res.Addr, pc.dnsOrigin, fw.Name, setting)
	fix += fmt.Sprintf(", so that it answers on port 53 and forwards to Azure DNS; or point the nodes at Azure DNS or a DNS private resolver inbound endpoint instead of %s. Routes, network security groups and private DNS zone links are not the cause: the firewall does not listen on port 53 while the proxy is off.", res.Addr)
	return model.NewFinding(model.DNSProxyDisabled, pc.pool.Name, res.Addr.String(), dns.From, msg, fix)
}

func appendUniqueResourceID(list []model.ResourceID, id model.ResourceID) []model.ResourceID {
	for _, x := range list {
		if x.Equal(id) {
			return list
		}
	}
	return append(list, id)
}
