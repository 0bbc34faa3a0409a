// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"sort"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// DNSServerKind is what a DNS server a node uses is, as far as Resource
// Manager can describe it (docs/design/azure-behaviour.md, D5 and D6).
type DNSServerKind int

const (
	// DNSServerAzure is Azure-provided DNS (168.63.129.16): it answers from
	// the private DNS zones linked to the asking VNet, after the forwarding
	// rulesets linked to it.
	DNSServerAzure DNSServerKind = iota
	// DNSServerResolverInbound is an inbound endpoint of a DNS private
	// resolver: it answers as Azure DNS does in the resolver's VNet.
	DNSServerResolverInbound
	// DNSServerNIC is an address a network interface holds: a DNS server on
	// a VM (or a scale-set instance, or a NIC attached to none), or the NIC
	// of a private endpoint. Its forwarding cannot be read from Azure.
	DNSServerNIC
	// DNSServerUnidentified is an address in a known VNet that no resolver
	// endpoint or network interface was found holding (or the lookup
	// failed): a load balancer frontend, an appliance without a NIC of its
	// own, or a host that could not be read. Its forwarding cannot be read.
	DNSServerUnidentified
	// DNSServerExternal is outside every known VNet: on-premises (through
	// a gateway) or public. Its forwarding cannot be read.
	DNSServerExternal
)

// DNSEvidence is what classification looks at. Order matters where two
// candidates hold the same address: the first one wins.
type DNSEvidence struct {
	// VNets are the known VNets (model.KnownVNetsOf).
	VNets model.KnownVNets
	// Resolvers are the DNS private resolvers whose inbound endpoints were
	// read.
	Resolvers []*model.Resolver
	// NICs are the network interfaces that were read.
	NICs []*model.NIC
	// LookupGaps are addresses whose network interface was looked for but
	// could not be determined (a NIC there could not be read).
	LookupGaps map[netip.Addr]model.Gap
	// SearchGaps are addresses in no known VNet whose search for a DNS
	// private resolver inbound endpoint holding them failed
	// (model.DNS.ResolverSearchGaps).
	SearchGaps map[netip.Addr]model.Gap
}

// DNSEvidenceOf is the evidence the facts of a verification hold: every
// VNet read (by id) and the VNets they peer with, every resolver (by id),
// every network interface (by id) and the addresses whose NIC lookup
// failed.
func DNSEvidenceOf(f *model.Facts) DNSEvidence {
	var ev DNSEvidence
	if f.Network != nil {
		vnets := make([]*model.VNet, 0, len(f.Network.VNets))
		for _, v := range f.Network.VNets {
			vnets = append(vnets, v)
		}
		sort.Slice(vnets, func(i, j int) bool { return vnets[i].ID.Key() < vnets[j].ID.Key() })
		ev.VNets = model.KnownVNetsOf(vnets)
		for _, nic := range f.Network.NICs {
			ev.NICs = append(ev.NICs, nic)
		}
		sort.Slice(ev.NICs, func(i, j int) bool { return ev.NICs[i].ID.Key() < ev.NICs[j].ID.Key() })
		ev.LookupGaps = f.Network.AddressGaps
	}
	if f.DNS != nil {
		ev.Resolvers = sortedResolvers(f.DNS)
		ev.SearchGaps = f.DNS.ResolverSearchGaps
	}
	return ev
}

// DNSServer is one classified DNS server address.
type DNSServer struct {
	Addr netip.Addr
	Kind DNSServerKind
	// VNet is the known VNet whose space holds the address (InVNet).
	VNet   model.KnownVNet
	InVNet bool
	// Resolver and Endpoint are the resolver and its inbound endpoint
	// (DNSServerResolverInbound).
	Resolver *model.Resolver
	Endpoint model.ResolverEndpoint
	// NIC is the network interface holding the address (DNSServerNIC).
	NIC *model.NIC
	// Gap is why the lookup of what holds the address failed
	// (DNSServerUnidentified), when it did.
	Gap *model.Gap
}

// Opaque reports a server whose forwarding cannot be read from Azure:
// whether it answers the registry names with their private addresses is
// unverified.
func (s DNSServer) Opaque() bool {
	return s.Kind != DNSServerAzure && s.Kind != DNSServerResolverInbound
}

// ClassifyDNSServer says what the DNS server at a is, in this order: Azure
// DNS; an inbound endpoint of a resolver of the evidence; an address a NIC
// of the evidence holds; an address in a known VNet that nothing was found
// holding, or outside every known VNet where the search for a resolver
// holding it failed; anything else is outside every known VNet.
func ClassifyDNSServer(a netip.Addr, ev DNSEvidence) DNSServer {
	out := DNSServer{Addr: a}
	if a == model.AzureDNS {
		out.Kind = DNSServerAzure
		return out
	}
	out.VNet, out.InVNet = ev.VNets.Holding(a)
	for _, rs := range ev.Resolvers {
		if rs == nil {
			continue
		}
		if in, ok := rs.InboundAt(a); ok {
			out.Kind, out.Resolver, out.Endpoint = DNSServerResolverInbound, rs, in
			return out
		}
	}
	for _, nic := range ev.NICs {
		if nic != nil && containsAddr(nic.PrivateIPs, a) {
			out.Kind, out.NIC = DNSServerNIC, nic
			return out
		}
	}
	if out.InVNet {
		out.Kind = DNSServerUnidentified
		if g, failed := ev.LookupGaps[a]; failed {
			out.Gap = &g
		}
		return out
	}
	if g, failed := ev.SearchGaps[a]; failed {
		// Outside every known VNet, but the search for a resolver there
		// failed: unknown, never "outside Azure".
		out.Kind, out.Gap = DNSServerUnidentified, &g
		return out
	}
	out.Kind = DNSServerExternal
	return out
}
