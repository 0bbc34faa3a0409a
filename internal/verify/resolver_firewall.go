// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// FirewallDNSKind is what an Azure Firewall's private address is as a DNS
// server: what its DNS proxy does (docs/design/azure-behaviour.md, "Azure
// Firewall DNS proxy").
type FirewallDNSKind int

const (
	// FirewallDNSSettingsUnknown: the DNS settings could not be read (the
	// firewall's policy, or its parent policy); what answers there is
	// unknown.
	FirewallDNSSettingsUnknown FirewallDNSKind = iota
	// FirewallDNSProxyOff: the DNS proxy is off (the default): nothing
	// answers DNS at the address.
	FirewallDNSProxyOff
	// FirewallDNSToAzure: the proxy forwards to Azure DNS, asked from
	// VNetID (the firewall's VNet): the zones linked to it answer.
	FirewallDNSToAzure
	// FirewallDNSToResolvers: the proxy forwards to DNS private resolver
	// inbound endpoints (and maybe Azure DNS) that all answer from VNetID.
	FirewallDNSToResolvers
	// FirewallDNSUnverified: the proxy is on, but what answers cannot be
	// concluded (Reason says why).
	FirewallDNSUnverified
)

// FirewallDNSReason is why a firewall's DNS proxy is FirewallDNSUnverified.
type FirewallDNSReason int

const (
	// FirewallDNSInheritance: the firewall's policy and its parent policy
	// disagree on the DNS settings (model.FirewallDNS.Inheritance).
	FirewallDNSInheritance FirewallDNSReason = iota + 1
	// FirewallDNSOpaqueServers: the proxy forwards to servers whose
	// forwarding Azure cannot describe (Opaque).
	FirewallDNSOpaqueServers
	// FirewallDNSManyVNets: the servers answer from different VNets.
	FirewallDNSManyVNets
	// FirewallDNSNoVNet: the proxy asks Azure DNS from a firewall in no VNet
	// Resource Manager shows (a Virtual WAN hub's).
	FirewallDNSNoVNet
)

// FirewallDNSServer is what the private address of an Azure Firewall is as
// a DNS server (ClassifyFirewallDNS).
type FirewallDNSServer struct {
	Kind     FirewallDNSKind
	Firewall *model.AzureFirewall
	// Settings are the firewall's DNS settings (model.Network.FirewallDNSOf).
	Settings model.FirewallDNS
	// VNetID is the VNet whose linked private DNS zones (and forwarding
	// rulesets) answer: FirewallDNSToAzure and FirewallDNSToResolvers.
	VNetID model.ResourceID
	// Via is where the proxy forwards, in words: "Azure DNS", or the
	// servers' addresses.
	Via string
	// Reason is why the answers are unverified (FirewallDNSUnverified).
	Reason FirewallDNSReason
	// Opaque are the servers whose forwarding Azure cannot describe
	// (FirewallDNSOpaqueServers).
	Opaque []string
}

// Why says, for FirewallDNSUnverified, why the answers are not concluded,
// in words that follow "but".
func (s FirewallDNSServer) Why() string {
	switch s.Reason {
	case FirewallDNSInheritance:
		return s.Settings.Inheritance
	case FirewallDNSOpaqueServers:
		return "it forwards to " + s.Via + ", and Azure cannot describe the forwarding of " + strings.Join(s.Opaque, ", ")
	case FirewallDNSManyVNets:
		return "it forwards to " + s.Via + ", which answer from different VNets, and the firewall may ask any of them"
	case FirewallDNSNoVNet:
		return "it forwards to " + s.Via + " from a firewall that is not in a VNet Resource Manager shows (a Virtual WAN hub)"
	}
	return ""
}

// ClassifyFirewallDNS says what the private address of fw is as a DNS
// server, from its DNS settings dns (model.Network.FirewallDNSOf) and the
// evidence that classifies the servers its proxy forwards to
// (docs/design/azure-behaviour.md, "Azure Firewall DNS proxy"):
//
//   - settings not read: FirewallDNSSettingsUnknown, never concluded;
//   - a parent policy whose DNS settings differ from the policy's
//     (model.FirewallDNS.Inheritance: undocumented which applies):
//     unverified;
//   - proxy off (the default): nothing answers on port 53 there;
//   - proxy on without servers: Azure DNS, asked from the firewall's VNet,
//     so the zones linked to that VNet (and its forwarding rulesets)
//     answer, as for a resolver inbound endpoint there;
//   - proxy on with servers: they are classified as the nodes' own would
//     be (ClassifyDNSServer): Azure DNS (from the firewall's VNet) or
//     resolver inbound endpoints that answer from one VNet decide; a
//     server whose forwarding Azure cannot describe, servers that answer
//     from different VNets, or Azure DNS from a firewall in no VNet (a
//     Virtual WAN hub's) leave the answers unverified.
func ClassifyFirewallDNS(fw *model.AzureFirewall, dns model.FirewallDNS, ev DNSEvidence) FirewallDNSServer {
	out := FirewallDNSServer{Firewall: fw, Settings: dns, Via: "Azure DNS"}
	if len(dns.Servers) > 0 {
		out.Via = joinAddrs(dns.Servers)
	}
	switch {
	case !dns.Known:
		out.Kind = FirewallDNSSettingsUnknown
		return out
	case dns.Inheritance != "":
		out.Kind, out.Reason = FirewallDNSUnverified, FirewallDNSInheritance
		return out
	case !dns.Proxy:
		out.Kind = FirewallDNSProxyOff
		return out
	}
	fwVNet := model.FirewallVNet(fw)
	var vnets []model.ResourceID
	resolvers := false
	for _, s := range dns.Servers {
		c := ClassifyDNSServer(s, ev)
		switch c.Kind {
		case DNSServerAzure:
			vnets = appendUniqueResourceID(vnets, fwVNet)
		case DNSServerResolverInbound:
			vnets = appendUniqueResourceID(vnets, c.Resolver.VNetID)
			resolvers = true
		default:
			out.Opaque = append(out.Opaque, s.String())
		}
	}
	if len(dns.Servers) == 0 {
		vnets = []model.ResourceID{fwVNet}
	}
	switch {
	case len(out.Opaque) == 0 && len(vnets) == 1 && !vnets[0].IsZero():
		out.Kind, out.VNetID = FirewallDNSToAzure, vnets[0]
		if resolvers {
			out.Kind = FirewallDNSToResolvers
		}
	case len(out.Opaque) > 0:
		out.Kind, out.Reason = FirewallDNSUnverified, FirewallDNSOpaqueServers
	case len(vnets) > 1:
		out.Kind, out.Reason = FirewallDNSUnverified, FirewallDNSManyVNets
	default:
		out.Kind, out.Reason = FirewallDNSUnverified, FirewallDNSNoVNet
	}
	return out
}

// firewallResolver describes a DNS server that is an Azure Firewall's
// private address: the firewall's DNS proxy, if it is on. What it answers
// is decided by checkFirewallDNS once the route there is known to work.
func firewallResolver(addr netip.Addr, fw *model.AzureFirewall) *resolver {
	return &resolver{Addr: addr, Kind: resolverOpaque, Resource: fw.ID, Reachable: true, firewall: fw,
		Label: fmt.Sprintf("%s (Azure Firewall %s, DNS proxy)", addr, fw.Name)}
}

// checkFirewallDNS turns what the DNS proxy of the firewall at res.Addr
// answers (ClassifyFirewallDNS) into the resolver the paths use and its
// findings:
//
//   - settings not read: the evidence finding; the answers are assumed,
//     never concluded;
//   - proxy off: DNS_PROXY_DISABLED, and the server is unreachable;
//   - proxy to Azure DNS or to resolvers answering from one VNet: the
//     server answers as a resolver inbound endpoint in that VNet;
//   - unverified: DNS_FORWARDER_UNVERIFIED, the answers assumed.
func (r *run) checkFirewallDNS(pc *poolCtx, res *resolver) {
	fw := res.firewall
	c := ClassifyFirewallDNS(fw, r.f.Network.FirewallDNSOf(fw), r.dnsEvidence())
	dns := c.Settings
	switch c.Kind {
	case FirewallDNSSettingsUnknown:
		pc.shared = append(pc.shared, r.evidence(pc.pool.Name, res.Addr.String(), dns.From,
			"the DNS proxy setting of Azure Firewall "+fw.Name+" (whether it answers DNS at "+res.Addr.String()+", and from where)"))
		return
	case FirewallDNSProxyOff:
		res.Reachable = false
		pc.shared = append(pc.shared, r.proxyDisabledFinding(pc, res, dns))
		return
	case FirewallDNSToAzure, FirewallDNSToResolvers:
		res.Kind, res.VNetID = resolverInbound, c.VNetID
		res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy to %s from %s)", res.Addr, fw.Name, c.Via, c.VNetID.Name())
		return
	}
	if c.Reason == FirewallDNSInheritance {
		// Which settings the firewall uses is undocumented: the paths
		// assume it answers, unverified.
		res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy)", res.Addr, fw.Name)
		msg := fmt.Sprintf("%s resolves through the DNS proxy of Azure Firewall %s at %s, set by %s, but %s. Whether it answers DNS there, and from where, is unverified, and the paths assume it answers the registry names with their private addresses.",
			pc.label, fw.Name, res.Addr, pc.dnsOrigin, dns.Inheritance)
		fix := fmt.Sprintf("Give firewall policy %s the DNS settings the firewall must use (`az network firewall policy update --name %s --resource-group <group> --enable-dns-proxy true`, with the same servers as its parent or none), so that the child and the parent agree. Check from a node (not a pod): `nslookup <registry name> %s`.", dns.From.Name(), dns.From.Name(), res.Addr)
		pc.shared = append(pc.shared, model.NewFinding(model.DNSForwarderUnverified, pc.pool.Name, res.Addr.String(), dns.From, msg, fix))
		return
	}
	fix := fmt.Sprintf("Let the firewall's DNS proxy forward to Azure DNS (no custom DNS servers in its settings) from a VNet linked to the registry's private DNS zone, or to a DNS private resolver inbound endpoint whose VNet is linked, which the provider can verify. Check from a node (not a pod): `nslookup <registry name> %s`.", res.Addr)
	if c.Reason == FirewallDNSNoVNet {
		// No private DNS zone can be linked to a virtual hub ("Guide to
		// Private Link and DNS in Azure Virtual WAN"): the proxy answers
		// private names only through a resolver in a spoke.
		fix = fmt.Sprintf("A private DNS zone cannot be linked to a Virtual WAN hub: set the DNS servers of the firewall's policy to the inbound endpoint of a DNS private resolver in a VNet connected to the hub and linked to the registry's private DNS zone, which the provider can verify, or let the nodes' VNet use that inbound endpoint directly. Check from a node (not a pod): `nslookup <registry name> %s`.", res.Addr)
	}
	res.Label = fmt.Sprintf("%s (Azure Firewall %s, DNS proxy to %s)", res.Addr, fw.Name, c.Via)
	msg := fmt.Sprintf("%s resolves through the DNS proxy of Azure Firewall %s at %s, set by %s, but %s; whether it answers the registry names with their private addresses is unverified, and the paths assume it does.",
		pc.label, fw.Name, res.Addr, pc.dnsOrigin, c.Why())
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
