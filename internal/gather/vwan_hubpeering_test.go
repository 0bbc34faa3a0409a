package gather

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestAddHubsCompletesHubPeering: a connected VNet's peering to its hub's
// VNet that records no peeringState and no remote address space (a
// snapshot written by hand) is read as Azure keeps it while the hub
// connection exists: Connected, towards the hub's address prefix; a
// recorded state and space are kept as they are, and a peering to
// another VNet is left alone.
func TestAddHubsCompletesHubPeering(t *testing.T) {
	const sub = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"
	hubVNet := model.ResourceID("/subscriptions/m/resourceGroups/RG_hub_1/providers/Microsoft.Network/virtualNetworks/HV_hub_1")
	spoke := model.ResourceID(sub + "virtualNetworks/spoke")
	hubPfx := netip.MustParsePrefix("10.100.0.0/23")
	build := func(hubPeering *model.Peering) (*model.Network, *model.Peering) {
		n := model.NewNetwork()
		other := &model.Peering{ID: model.ResourceID(string(spoke) + "/virtualNetworkPeerings/to-other"), Name: "to-other", VNetID: spoke,
			RemoteVNetID: model.ResourceID(sub + "virtualNetworks/other"), AccessUnrecorded: true}
		n.AddVNet(&model.VNet{ID: spoke, Name: "spoke", AddressSpace: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16")},
			Peerings: []*model.Peering{hubPeering, other}})
		hub := &model.VirtualHub{ID: model.ResourceID(sub + "virtualHubs/hub"), Name: "hub", AddressPrefix: hubPfx, HubVNetID: hubVNet,
			Connections: []*model.HubConnection{{ID: model.ResourceID(sub + "virtualHubs/hub/hubVirtualNetworkConnections/c"), Name: "c", RemoteVNetID: spoke}}}
		addHubs(n, []*model.VirtualHub{hub})
		return n, other
	}
	t.Run("unrecorded", func(t *testing.T) {
		p := &model.Peering{ID: model.ResourceID(string(spoke) + "/virtualNetworkPeerings/RemoteVnetToHubPeering_1"), VNetID: spoke, RemoteVNetID: hubVNet, AccessUnrecorded: true}
		_, other := build(p)
		if !p.AllowVirtualNetworkAccess {
			t.Errorf("a hub peering without allowVirtualNetworkAccess allows access, as Azure keeps it")
		}
		if !p.Connected() {
			t.Errorf("state %q: a hub peering without peeringState is Connected while its hub connection exists", p.State)
		}
		if len(p.RemoteAddressSpace) != 1 || p.RemoteAddressSpace[0] != hubPfx || len(p.RemoteCurrentAddressSpace) != 1 {
			t.Errorf("remote space %v / %v, want the hub's prefix %s", p.RemoteAddressSpace, p.RemoteCurrentAddressSpace, hubPfx)
		}
		if other.State != "" || len(other.RemoteAddressSpace) != 0 || other.AllowVirtualNetworkAccess {
			t.Errorf("a peering to another VNet must be left as recorded: %+v", other)
		}
	})
	t.Run("recorded", func(t *testing.T) {
		old := netip.MustParsePrefix("10.200.0.0/23")
		p := &model.Peering{ID: model.ResourceID(string(spoke) + "/virtualNetworkPeerings/RemoteVnetToHubPeering_1"), VNetID: spoke, RemoteVNetID: hubVNet,
			State: "Disconnected", RemoteAddressSpace: []netip.Prefix{old}}
		build(p)
		if p.AllowVirtualNetworkAccess {
			t.Errorf("a recorded allowVirtualNetworkAccess false must be kept")
		}
		if p.State != "Disconnected" || len(p.RemoteAddressSpace) != 1 || p.RemoteAddressSpace[0] != old || len(p.RemoteCurrentAddressSpace) != 0 {
			t.Errorf("a recorded hub peering must be kept: %+v", p)
		}
	})
}
