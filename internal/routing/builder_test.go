package routing

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Builders for model networks in tests. Names and prefixes mirror the
// scenarios in internal/provider/testdata/scenarios (vnet-hub 10.0.0.0/16 with GatewaySubnet,
// snet-nva, snet-pe, snet-dns-in; vnet-spoke 10.1.0.0/16 with snet-aks;
// vpngw 10.0.0.30 learning 192.168.0.0/16 from 192.168.255.1; nva
// 10.0.1.4; private endpoint pe-acr 10.0.2.5 and 10.0.2.6).

const testSub = "/subscriptions/00000000-0000-0000-0000-000000000001"

func rid(rg, typ, name string) model.ResourceID {
	return model.ResourceID(testSub + "/resourceGroups/" + rg + "/providers/Microsoft.Network/" + typ + "/" + name)
}

type builder struct{ net *model.Network }

func newBuilder() *builder { return &builder{net: model.NewNetwork()} }

func (b *builder) vnet(rg, name string, space ...string) *model.VNet {
	v := &model.VNet{ID: rid(rg, "virtualNetworks", name), Name: name, Location: "westeurope"}
	for _, s := range space {
		v.AddressSpace = append(v.AddressSpace, pfx(s))
	}
	b.net.AddVNet(v)
	return v
}

func (b *builder) subnet(v *model.VNet, name string, prefixes ...string) *model.Subnet {
	s := &model.Subnet{ID: v.ID + model.ResourceID("/subnets/"+name), VNetID: v.ID, Name: name, PrivateEndpointNetworkPolicies: "Disabled"}
	for _, p := range prefixes {
		s.Prefixes = append(s.Prefixes, pfx(p))
	}
	v.Subnets = append(v.Subnets, s)
	b.net.Subnets[s.ID.Key()] = s
	return s
}

// side adds one side of a peering, Connected, in sync, access and forwarded
// traffic allowed; tests flip flags on the result.
func (b *builder) side(from, to *model.VNet, name string) *model.Peering {
	p := &model.Peering{
		ID: from.ID + model.ResourceID("/virtualNetworkPeerings/"+name), Name: name, VNetID: from.ID, RemoteVNetID: to.ID,
		State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
		RemoteAddressSpace: append([]netip.Prefix(nil), to.AddressSpace...), RemoteCurrentAddressSpace: append([]netip.Prefix(nil), to.AddressSpace...),
	}
	from.Peerings = append(from.Peerings, p)
	return p
}

// peer connects two VNets both ways.
func (b *builder) peer(a, c *model.VNet, ab, ca string) (*model.Peering, *model.Peering) {
	return b.side(a, c, ab), b.side(c, a, ca)
}

func (b *builder) routeTable(rg, name string, disableBGP bool, routes ...model.Route) *model.RouteTable {
	rt := &model.RouteTable{ID: rid(rg, "routeTables", name), Name: name, DisableBGPRoutePropagation: disableBGP}
	for _, r := range routes {
		r.Source, r.State = "", "" // as read from a route table: no source/state
		rt.Routes = append(rt.Routes, r)
	}
	b.net.RouteTables[rt.ID.Key()] = rt
	return rt
}

func (b *builder) attach(s *model.Subnet, rt *model.RouteTable) { s.RouteTableID = rt.ID }

func (b *builder) nic(rg, name string, s *model.Subnet, forwarding bool, ips ...string) *model.NIC {
	n := &model.NIC{ID: rid(rg, "networkInterfaces", name), Name: name, SubnetID: s.ID, IPForwarding: forwarding}
	for _, a := range ips {
		n.PrivateIPs = append(n.PrivateIPs, ip(a))
	}
	b.net.NICs[n.ID.Key()] = n
	return n
}

func (b *builder) privateEndpoint(rg, name string, s *model.Subnet, ips ...string) *model.PrivateEndpoint {
	pe := &model.PrivateEndpoint{ID: rid(rg, "privateEndpoints", name), Name: name, SubnetID: s.ID}
	n := b.nic(rg, name+".nic", s, false, ips...)
	n.PrivateEndpointID = pe.ID
	pe.NICIDs = []model.ResourceID{n.ID}
	b.net.PrivateEndpoints[pe.ID.Key()] = pe
	s.PrivateEndpointIDs = append(s.PrivateEndpointIDs, pe.ID)
	return pe
}

// gateway adds a BGP VPN gateway with its learned routes (its own VNet's
// space as origin Network, as getLearnedRoutes shows it).
func (b *builder) gateway(rg, name string, v *model.VNet, addr string, learned ...model.GatewayRoute) *model.Gateway {
	gw := &model.Gateway{
		ID: rid(rg, "virtualNetworkGateways", name), Name: name, VNetID: v.ID, Type: "Vpn", BGPEnabled: true,
		PrivateIPs: []netip.Addr{ip(addr)}, LearnedKnown: true, StaticPrefixesKnown: true,
		Advertised: map[netip.Addr][]model.GatewayRoute{}, AdvertisedKnown: true,
	}
	for _, s := range v.AddressSpace {
		gw.Learned = append(gw.Learned, model.GatewayRoute{Prefix: s, SourcePeer: ip(addr), Origin: "Network"})
	}
	gw.Learned = append(gw.Learned, learned...)
	b.net.Gateways[gw.ID.Key()] = gw
	return gw
}

func ebgp(prefix, peer string) model.GatewayRoute {
	return model.GatewayRoute{Prefix: pfx(prefix), NextHop: ip(peer), SourcePeer: ip(peer), Origin: "EBgp", ASPath: "65010"}
}

// hubSpoke is the topology shared by the route scenarios.
type hubSpoke struct {
	*builder
	hub, spoke                         *model.VNet
	gwSubnet, nvaSubnet, peSubnet, dns *model.Subnet
	aks                                *model.Subnet
	hubToSpoke, spokeToHub             *model.Peering
	gw                                 *model.Gateway
	nva                                *model.NIC
	pe                                 *model.PrivateEndpoint
}

// newHubSpoke is baseline_ok: hub and spoke peered both ways (the hub side
// allows gateway transit, the spoke side does not use it), a BGP VPN gateway
// in the hub that learned 192.168.0.0/16 and advertises the hub's space, an
// NVA with IP forwarding, and the registry's private endpoint in snet-pe.
func newHubSpoke() *hubSpoke {
	b := newBuilder()
	h := &hubSpoke{builder: b}
	h.hub = b.vnet("rg-hub", "vnet-hub", "10.0.0.0/16")
	h.gwSubnet = b.subnet(h.hub, "GatewaySubnet", "10.0.0.0/27")
	h.nvaSubnet = b.subnet(h.hub, "snet-nva", "10.0.1.0/24")
	h.peSubnet = b.subnet(h.hub, "snet-pe", "10.0.2.0/24")
	h.dns = b.subnet(h.hub, "snet-dns-in", "10.0.3.0/28")
	h.spoke = b.vnet("rg-spoke", "vnet-spoke", "10.1.0.0/16")
	h.aks = b.subnet(h.spoke, "snet-aks", "10.1.0.0/22")
	h.hubToSpoke, h.spokeToHub = b.peer(h.hub, h.spoke, "hub-to-spoke", "spoke-to-hub")
	h.hubToSpoke.AllowGatewayTransit = true
	h.gw = b.gateway("rg-hub", "vpngw", h.hub, "10.0.0.30", ebgp("192.168.0.0/16", "192.168.255.1"))
	h.gw.Advertised[ip("192.168.255.1")] = []model.GatewayRoute{{Prefix: pfx("10.0.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp", ASPath: "65515"}}
	h.nva = b.nic("rg-hub", "nic-vm-nva", h.nvaSubnet, true, "10.0.1.4")
	h.pe = b.privateEndpoint("rg-hub", "pe-acr", h.peSubnet, "10.0.2.5", "10.0.2.6")
	return h
}

// useTransit turns on gateway transit for the spoke, and makes the hub
// gateway advertise the spoke's space (as Azure does once transit is on).
func (h *hubSpoke) useTransit() {
	h.spokeToHub.UseRemoteGateways = true
	h.gw.Advertised[ip("192.168.255.1")] = append(h.gw.Advertised[ip("192.168.255.1")],
		model.GatewayRoute{Prefix: pfx("10.1.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp", ASPath: "65515"})
}

func codes(fs []Finding) []model.Code {
	out := make([]model.Code, len(fs))
	for i, f := range fs {
		out[i] = f.Code
	}
	return out
}
