// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"reflect"
	"strings"
	"testing"
)

func TestIPConfigurationOwners(t *testing.T) {
	const hub = "/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/"
	s := &Subnet{IPConfigurationIDs: []ResourceID{
		hub + "azureFirewalls/fw-hub/azureFirewallIpConfigurations/ipconfig1",
		hub + "azureFirewalls/fw-hub/azureFirewallIpConfigurations/ipconfig2",
		hub + "networkInterfaces/nic-nva/ipConfigurations/ipconfig1",
		hub + "virtualHubs/rs-hub/ipConfigurations/ipconfig1",
	}}
	if got, want := s.IPConfigurationOwners("azureFirewallIpConfigurations"), []ResourceID{hub + "azureFirewalls/fw-hub"}; !reflect.DeepEqual(got, want) {
		t.Errorf("firewalls %v, want %v", got, want)
	}
	if got, want := s.IPConfigurationOwners("IPCONFIGURATIONS"), []ResourceID{hub + "networkInterfaces/nic-nva", hub + "virtualHubs/rs-hub"}; !reflect.DeepEqual(got, want) {
		t.Errorf("owners of ipConfigurations %v, want %v", got, want)
	}
	if got := (&Subnet{}).IPConfigurationOwners("ipConfigurations"); got != nil {
		t.Errorf("a subnet without ip configurations: %v", got)
	}
}

// A VNet's Route Servers are the virtual hubs whose ip configurations its
// RouteServerSubnet lists, once each; ip configurations of anything else,
// or in another subnet, name none.
func TestVNetRouteServerIDs(t *testing.T) {
	const net = "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/"
	v := &VNet{Subnets: []*Subnet{
		{Name: "routeserversubnet", IPConfigurationIDs: []ResourceID{
			net + "virtualHubs/rs-hub/ipConfigurations/ipconfig1",
			net + "VIRTUALHUBS/rs-hub/ipConfigurations/ipconfig2",
			net + "networkInterfaces/nic/ipConfigurations/c",
			net + "virtualHubs/rs-hub/hubVirtualNetworkConnections/c/ipConfigurations/x",
		}},
		{Name: "snet-nva", IPConfigurationIDs: []ResourceID{net + "virtualHubs/other/ipConfigurations/ipconfig1"}},
	}}
	if got, want := v.RouteServerIDs(), []ResourceID{net + "virtualHubs/rs-hub"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RouteServerIDs = %v, want %v", got, want)
	}
	if got := (&VNet{}).RouteServerIDs(); got != nil {
		t.Errorf("a VNet without RouteServerSubnet names %v", got)
	}
	if got := (*VNet)(nil).RouteServerIDs(); got != nil {
		t.Errorf("a nil VNet names %v", got)
	}
}

// The peering back is the remote VNet's peering whose remote is this VNet
// (ids compared as ARM does); a remote VNet that was not read leaves it
// unknown, one that was read and has none makes it missing.
func TestPeeringBack(t *testing.T) {
	const (
		hub   = ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/hub")
		spoke = ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/spoke")
		other = ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/other")
	)
	out := &Peering{Name: "spoke-to-hub", VNetID: spoke, RemoteVNetID: hub}
	back := &Peering{Name: "hub-to-spoke", VNetID: hub, RemoteVNetID: ResourceID(strings.ToUpper(string(spoke)))}
	elsewhere := &Peering{Name: "hub-to-other", VNetID: hub, RemoteVNetID: other}

	n := NewNetwork()
	if rev, known := n.PeeringBack(spoke, out); rev != nil || known {
		t.Errorf("remote not read: %v, %v; want nil, unknown", rev, known)
	}
	n.AddVNet(&VNet{ID: hub, Peerings: []*Peering{nil, elsewhere}})
	if rev, known := n.PeeringBack(spoke, out); rev != nil || !known {
		t.Errorf("remote without a peering back: %v, %v; want nil, known", rev, known)
	}
	n.AddVNet(&VNet{ID: hub, Peerings: []*Peering{elsewhere, back}})
	if rev, known := n.PeeringBack(spoke, out); rev != back || !known {
		t.Errorf("peering back = %v, %v; want %s", rev, known, back.Name)
	}
	if got := (*VNet)(nil).PeeringTo(hub); got != nil {
		t.Errorf("a nil VNet has peering %v", got)
	}
}

func TestIsTopLevel(t *testing.T) {
	for id, want := range map[ResourceID]bool{
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualHubs/rs":                    true,
		"/subscriptions/s/resourceGroups/g/providers/microsoft.network/VIRTUALHUBS/rs/":                   true,
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualHubs/rs/ipConfigurations/c": false,
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualHubs/rs":                    false,
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/rs":                false,
		"/subscriptions/s/providers/Microsoft.Network/virtualHubs/rs":                                     true,
		"/subscriptions/s/resourceGroups/g/providers/x.y/t/n/providers/Microsoft.Network/virtualHubs/rs":  true,
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualHubs":                       false,
		"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualHubs/rs/effectiveRoutes":    false,
		"/providers/Microsoft.Network/virtualHubs/rs":                                                     false,
		"virtualHubs/rs": false,
		"":               false,
	} {
		if got := id.IsTopLevel("Microsoft.Network", "virtualHubs"); got != want {
			t.Errorf("%q.IsTopLevel = %v, want %v", id, got, want)
		}
	}
}

func TestPrivateEndpointASGs(t *testing.T) {
	const net = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"
	asgPE, asgNIC := ResourceID(net+"applicationSecurityGroups/asg-pe"), ResourceID(net+"applicationSecurityGroups/asg-nic")
	nicID := ResourceID(net + "networkInterfaces/pe.nic")
	withNIC := &Network{NICs: map[string]*NIC{nicID.Key(): {ID: nicID, ASGIDs: []ResourceID{asgNIC, asgPE}}}}
	for _, tc := range []struct {
		name         string
		n            *Network
		pe           PrivateEndpoint
		want         []ResourceID
		wantComplete bool
	}{
		{"the endpoint's groups and its NIC's, once each", withNIC, PrivateEndpoint{ASGIDs: []ResourceID{asgPE}, NICIDs: []ResourceID{nicID}}, []ResourceID{asgPE, asgNIC}, true},
		{"the endpoint's groups alone when its NIC has none", &Network{NICs: map[string]*NIC{nicID.Key(): {ID: nicID}}}, PrivateEndpoint{ASGIDs: []ResourceID{asgPE}, NICIDs: []ResourceID{nicID}}, []ResourceID{asgPE}, true},
		{"an unread NIC leaves the membership incomplete", &Network{}, PrivateEndpoint{ASGIDs: []ResourceID{asgPE}, NICIDs: []ResourceID{nicID}}, []ResourceID{asgPE}, false},
		{"no NIC named: incomplete", &Network{}, PrivateEndpoint{}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, complete := tc.n.PrivateEndpointASGs(&tc.pe)
			if !reflect.DeepEqual(got, tc.want) || complete != tc.wantComplete {
				t.Errorf("got %v complete %v, want %v complete %v", got, complete, tc.want, tc.wantComplete)
			}
		})
	}
}
