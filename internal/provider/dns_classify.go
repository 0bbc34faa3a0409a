// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Kinds of DNS server, as reported in pullpath_vnet_dns.servers[*].kind.
// They answer the question docs/design/azure-behaviour.md asks about a node's resolver: can
// Azure describe what it does with the registry's names?
const (
	// dnsKindAzure is Azure-provided DNS (168.63.129.16): it answers from
	// the private DNS zones linked to the asking VNet.
	dnsKindAzure = "azure_dns"
	// dnsKindResolverInbound is an inbound endpoint of a DNS private
	// resolver: Azure DNS of the resolver's VNet, plus its rulesets.
	dnsKindResolverInbound = "private_resolver_inbound"
	// dnsKindVM is a NIC's address in a known VNet: a DNS server on a VM,
	// whose forwarding ARM cannot show.
	dnsKindVM = "vm"
	// dnsKindExternal is outside every known VNet: on-premises or public.
	dnsKindExternal = "external"
	// dnsKindUnknown is inside a known VNet but no NIC or resolver was found
	// for it (or the lookup failed).
	dnsKindUnknown = "unknown"
)

// DNSServerKinds lists the kinds, for schema descriptions and tests.
var DNSServerKinds = []string{dnsKindAzure, dnsKindResolverInbound, dnsKindVM, dnsKindExternal, dnsKindUnknown}

// effectiveDNS is what a node's resolver is, following Azure's precedence:
// the NIC's own DNS servers override the VNet's; an empty VNet list means
// Azure-provided DNS. source says which of the three applied
// ("network_interface", "virtual_network", "azure_default").
func effectiveDNS(vnet *model.VNet, nic *model.NIC) (servers []netip.Addr, source string) {
	switch {
	case nic != nil && len(nic.DNSServers) > 0:
		return slices.Clone(nic.DNSServers), "network_interface"
	case vnet != nil && len(vnet.DNSServers) > 0:
		return slices.Clone(vnet.DNSServers), "virtual_network"
	default:
		return []netip.Addr{model.AzureDNS}, "azure_default"
	}
}

// usesAzureDNS reports whether any effective server is Azure-provided DNS:
// then the zones linked to the VNet decide (for that server's answers).
func usesAzureDNS(servers []netip.Addr) bool {
	return slices.Contains(servers, model.AzureDNS)
}

// dnsServer is one classified DNS server address.
type dnsServer struct {
	Address netip.Addr
	Kind    string
	// ResourceID is what serves the address: the resolver's inbound
	// endpoint, or the VM (the NIC when it is attached to none).
	ResourceID model.ResourceID
	// NetworkInterfaceID is the NIC holding the address (kind vm).
	NetworkInterfaceID model.ResourceID
	// VirtualNetworkID is the known VNet whose address space holds it.
	VirtualNetworkID model.ResourceID
	// Note says what the kind means for this server, in words.
	Note string
}

// knownVNet is a VNet whose address space classification may use: the
// VNet itself and every VNet it peers with (whose space is known from the
// remote VNet, or from the peering when the remote could not be read).
type knownVNet struct {
	ID     model.ResourceID
	Space  []netip.Prefix
	Peered bool
}

// dnsSurroundings is everything classification looks at. Addresses are
// keyed by netip.Addr so that textual variants compare equal.
type dnsSurroundings struct {
	VNets []knownVNet
	// Inbound maps the address of each resolver inbound endpoint in the
	// known VNets to that endpoint.
	Inbound map[netip.Addr]model.ResolverEndpoint
	// NICs maps an address to the NIC found holding it; NICGaps holds the
	// lookups that failed (the address then stays unknown, not external).
	NICs    map[netip.Addr]*model.NIC
	NICGaps map[netip.Addr]model.Gap
}

// vnetHolding returns the known VNet whose space holds a, if any.
func (s dnsSurroundings) vnetHolding(a netip.Addr) (knownVNet, bool) {
	for _, v := range s.VNets {
		for _, p := range v.Space {
			if p.Contains(a) {
				return v, true
			}
		}
	}
	return knownVNet{}, false
}

// classifyDNSServer applies the kind rules in order: Azure DNS, a resolver
// inbound endpoint, a NIC (VM) in a known VNet, an address in a known VNet
// that nothing was found for, and finally anything outside every known VNet.
func classifyDNSServer(a netip.Addr, s dnsSurroundings) dnsServer {
	out := dnsServer{Address: a}
	if a == model.AzureDNS {
		out.Kind = dnsKindAzure
		out.Note = "Azure-provided DNS: answers from the private DNS zones linked to the virtual network the query comes from."
		return out
	}
	vnet, inKnown := s.vnetHolding(a)
	if inKnown {
		out.VirtualNetworkID = vnet.ID
	}
	if ep, ok := s.Inbound[a]; ok {
		out.Kind = dnsKindResolverInbound
		out.ResourceID = ep.ID
		out.Note = fmt.Sprintf("Inbound endpoint %s of a DNS private resolver: answers like Azure DNS from the zones linked to the resolver's virtual network, after its forwarding rulesets.", ep.ID.Name())
		return out
	}
	if nic, ok := s.NICs[a]; ok && nic != nil {
		out.NetworkInterfaceID = nic.ID
		if nic.PrivateEndpointID != "" {
			// Not a DNS server at all; say so rather than calling it a VM.
			out.Kind = dnsKindUnknown
			out.ResourceID = nic.PrivateEndpointID
			out.Note = fmt.Sprintf("The address belongs to private endpoint %s, which does not serve DNS.", nic.PrivateEndpointID.Name())
			return out
		}
		out.Kind = dnsKindVM
		out.ResourceID = nic.VMID
		if out.ResourceID == "" {
			out.ResourceID = nic.ID
		}
		out.Note = fmt.Sprintf("A DNS server on a virtual machine (NIC %s): Azure cannot show how it forwards the registry's names; check that it forwards privatelink zones to Azure DNS from a linked virtual network or to a private resolver inbound endpoint.", nic.ID.Name())
		return out
	}
	if inKnown {
		out.Kind = dnsKindUnknown
		if gap, failed := s.NICGaps[a]; failed {
			out.Note = fmt.Sprintf("The address is in virtual network %s, but the lookup of what holds it failed (%s).", vnet.ID.Name(), gapSummary(gap))
		} else {
			out.Note = fmt.Sprintf("The address is in virtual network %s, but no network interface or resolver endpoint there holds it.", vnet.ID.Name())
		}
		return out
	}
	out.Kind = dnsKindExternal
	out.Note = "The address is outside every known virtual network (on-premises or public): Azure cannot show how it resolves the registry's names."
	return out
}

// gapSummary is a gap in a few words, for notes.
func gapSummary(g model.Gap) string {
	switch g.Kind {
	case model.GapPermissionDenied:
		if g.Permission != "" {
			return "permission denied; needs " + g.Permission
		}
		return "permission denied"
	case model.GapNotFound:
		return "not found"
	default:
		if g.Detail != "" {
			return g.Detail
		}
		return "unavailable"
	}
}
