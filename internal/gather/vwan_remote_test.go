package gather

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestMarkRemoteEndpoints(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/"
	local := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	remote := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-remote")
	nicLocal := model.ResourceID(sub + "rg/providers/Microsoft.Network/networkInterfaces/nic-local")
	nicRemote := model.ResourceID(sub + "rg/providers/Microsoft.Network/networkInterfaces/nic-remote")
	nicUnread := model.ResourceID(sub + "rg/providers/Microsoft.Network/networkInterfaces/nic-unread")
	peUnread := model.ResourceID(sub + "rg/providers/Microsoft.Network/privateEndpoints/pe-unread")
	pes := []*model.PrivateEndpoint{
		{ID: model.ResourceID(sub + "rg/providers/Microsoft.Network/privateEndpoints/pe-local"), SubnetID: local + "/subnets/pe", NICIDs: []model.ResourceID{nicLocal}},
		{ID: model.ResourceID(sub + "rg/providers/Microsoft.Network/privateEndpoints/pe-remote"), SubnetID: remote + "/subnets/pe", NICIDs: []model.ResourceID{nicRemote, nicUnread}},
	}
	reg := &model.Registry{}
	for _, pe := range pes {
		reg.PrivateEndpointConnections = append(reg.PrivateEndpointConnections, model.RegistryPEConnection{PrivateEndpointID: pe.ID})
	}
	reg.PrivateEndpointConnections = append(reg.PrivateEndpointConnections, model.RegistryPEConnection{PrivateEndpointID: peUnread})
	build := func(withHub bool) *model.Network {
		n := model.NewNetwork()
		n.AddVNet(&model.VNet{ID: local, Name: "vnet-spoke"})
		n.NICs[nicLocal.Key()] = &model.NIC{ID: nicLocal, PrivateIPs: []netip.Addr{netip.MustParseAddr("10.1.2.5")}}
		n.NICs[nicRemote.Key()] = &model.NIC{ID: nicRemote, PrivateIPs: []netip.Addr{netip.MustParseAddr("10.3.2.5")}}
		if withHub {
			n.VirtualHubs["hub"] = &model.VirtualHub{ID: model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualHubs/hub")}
		}
		markRemoteEndpoints(n, reg, pes)
		return n
	}
	n := build(true)
	a := netip.MustParseAddr("10.3.2.5")
	if got := n.RemoteAddresses[a]; !got.VNetID.Equal(remote) || got.What != model.RemotePrivateEndpoint || len(n.RemoteAddresses) != 1 || !n.Pending.Has(model.RemoteHubOf(remote, a)) {
		t.Fatalf("remote endpoint addresses %v, pending %v", n.RemoteAddresses, n.Pending.Sorted())
	}
	if len(n.UnresolvedEndpoints) != 2 || !n.UnresolvedEndpoints[0].Equal(peUnread) || !n.UnresolvedEndpoints[1].Equal(nicUnread) {
		t.Fatalf("unresolved %v", n.UnresolvedEndpoints)
	}
	// Nodes not connected to a hub: nothing is marked.
	if n := build(false); len(n.RemoteAddresses) > 0 || len(n.Pending) > 0 || len(n.UnresolvedEndpoints) > 0 {
		t.Fatalf("without a hub: %v %v %v", n.RemoteAddresses, n.Pending, n.UnresolvedEndpoints)
	}
}

// A DNS server address the resolver search found at an inbound endpoint of
// a resolver in a VNet outside the closure is marked as a private
// endpoint's is: pending while the nodes are hub spokes, never for a VNet
// the closure holds, and not without a hub.
func TestMarkRemoteResolvers(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/"
	local := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	remote := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-dns")
	far, near := netip.MustParseAddr("10.3.3.4"), netip.MustParseAddr("10.1.9.4")
	found := map[netip.Addr]model.ResourceID{far: remote, near: local}
	build := func(withHub bool) *model.Network {
		n := model.NewNetwork()
		n.AddVNet(&model.VNet{ID: local, Name: "vnet-spoke"})
		if withHub {
			n.VirtualHubs["hub"] = &model.VirtualHub{ID: model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualHubs/hub")}
		}
		markRemoteResolvers(n, found)
		return n
	}
	n := build(true)
	if got := n.RemoteAddresses[far]; !got.VNetID.Equal(remote) || got.What != model.RemoteResolverInbound || len(n.RemoteAddresses) != 1 {
		t.Fatalf("remote addresses %v", n.RemoteAddresses)
	}
	if !n.Pending.Has(model.RemoteHubOf(remote, far)) || len(n.Pending) != 1 {
		t.Fatalf("pending %v", n.Pending.Sorted())
	}
	if n := build(false); len(n.RemoteAddresses) > 0 || len(n.Pending) > 0 {
		t.Fatalf("without a hub: %v %v", n.RemoteAddresses, n.Pending)
	}
}

// TestMarkPeerHubs: a VNet of the closure peered with a Virtual WAN hub's
// VNet whose hub no read lists (an NVA VNet the nodes' VNet is peered
// with) has its hub pending; a VNet whose hub was read, a VNet peered with
// no hub VNet and the hub VNet stand-in itself are not marked.
func TestMarkPeerHubs(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/"
	hv := model.ResourceID("/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-weu_1/providers/Microsoft.Network/virtualNetworks/HV_hub-weu_1")
	transit := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-transit")
	spoke := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	hubID := model.ResourceID(sub + "rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu")
	for _, c := range []struct {
		name     string
		hubRead  bool
		want     []model.ResourceID
		notWant  []model.ResourceID
		standsIn bool
	}{
		{name: "the NVA VNet's hub not read: pending", want: []model.ResourceID{transit}, notWant: []model.ResourceID{spoke}},
		{name: "its hub read (negative)", hubRead: true, notWant: []model.ResourceID{transit, spoke}},
		{name: "the hub VNet stand-in is never marked (negative)", hubRead: true, standsIn: true, notWant: []model.ResourceID{transit, spoke, hv}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := model.NewNetwork()
			n.AddVNet(&model.VNet{ID: spoke, Name: "vnet-spoke", Peerings: []*model.Peering{{RemoteVNetID: transit}}})
			n.AddVNet(&model.VNet{ID: transit, Name: "vnet-transit", Peerings: []*model.Peering{{RemoteVNetID: spoke}, {RemoteVNetID: hv}}})
			if c.hubRead {
				n.VirtualHubs[hubID.Key()] = &model.VirtualHub{ID: hubID, HubVNetID: hv, ConnectionsKnown: true,
					Connections: []*model.HubConnection{{ID: hubID + "/hubVirtualNetworkConnections/conn-transit", RemoteVNetID: transit}}}
			}
			if c.standsIn {
				n.AddVNet(&model.VNet{ID: hv, Name: hv.Name(), Peerings: []*model.Peering{{RemoteVNetID: transit}}})
			}
			markPeerHubs(n)
			for _, id := range c.want {
				if !n.Pending.Has(model.PeerHubOf(id)) {
					t.Errorf("%s: hub not pending: %v", id.Name(), n.Pending.Sorted())
				}
			}
			for _, id := range c.notWant {
				if n.Pending.Has(model.PeerHubOf(id)) {
					t.Errorf("%s: hub pending: %v", id.Name(), n.Pending.Sorted())
				}
			}
		})
	}
}

// TestMarkRemoteEndpointsBehindPeerHub: nodes in an NVA spoke (no hub read,
// the hub of the NVA VNet they are peered with pending) may reach a
// private endpoint in a spoke of that hub or of another hub of its Virtual
// WAN: its address outside the closure is marked as with a hub read; with
// neither a hub nor a pending peer hub it is not.
func TestMarkRemoteEndpointsBehindPeerHub(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/"
	local := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	transit := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-transit")
	remote := model.ResourceID(sub + "rg/providers/Microsoft.Network/virtualNetworks/vnet-shared")
	nic := model.ResourceID(sub + "rg/providers/Microsoft.Network/networkInterfaces/nic-pe")
	a := netip.MustParseAddr("10.2.2.5")
	pes := []*model.PrivateEndpoint{{ID: model.ResourceID(sub + "rg/providers/Microsoft.Network/privateEndpoints/pe"), SubnetID: remote + "/subnets/pe", NICIDs: []model.ResourceID{nic}}}
	for _, pending := range []bool{true, false} {
		n := model.NewNetwork()
		n.AddVNet(&model.VNet{ID: local})
		n.AddVNet(&model.VNet{ID: transit})
		n.NICs[nic.Key()] = &model.NIC{ID: nic, PrivateIPs: []netip.Addr{a}}
		if pending {
			n.Pending.Add(model.PeerHubOf(transit))
		}
		markRemoteEndpoints(n, nil, pes)
		if got := n.Pending.Has(model.RemoteHubOf(remote, a)); got != pending {
			t.Errorf("peer hub pending %v: endpoint address marked %v (%v)", pending, got, n.Pending.Sorted())
		}
	}
}
