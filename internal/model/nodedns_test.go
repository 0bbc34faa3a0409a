// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"slices"
	"testing"
)

func addrList(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

// Azure's precedence: the scale set's NIC configuration, then a NIC's own
// servers, then the VNet's; a level that sets none defers to the next, and
// nothing set means Azure-provided DNS.
func TestNodeDNSServers(t *testing.T) {
	vnetCustom := &VNet{DNSServers: addrList("10.0.1.10")}
	vnetDefault := &VNet{}
	nicCustom := &NIC{Name: "nic-custom", DNSServers: addrList("10.9.9.9", "168.63.129.16")}
	nicNone := &NIC{Name: "nic-none"}
	tests := []struct {
		name      string
		scaleSet  []netip.Addr
		nics      []*NIC
		vnet      *VNet
		want      []netip.Addr
		source    DNSSource
		nic       *NIC
		wantAzure bool
	}{
		{"azure default", nil, nil, vnetDefault, addrList("168.63.129.16"), DNSFromAzureDefault, nil, true},
		{"no vnet read means azure default", nil, nil, nil, addrList("168.63.129.16"), DNSFromAzureDefault, nil, true},
		{"vnet custom", nil, nil, vnetCustom, addrList("10.0.1.10"), DNSFromVNet, nil, false},
		{"nic without servers uses the vnet's", nil, []*NIC{nicNone}, vnetCustom, addrList("10.0.1.10"), DNSFromVNet, nil, false},
		{"nic overrides vnet", nil, []*NIC{nicCustom}, vnetCustom, addrList("10.9.9.9", "168.63.129.16"), DNSFromNIC, nicCustom, true},
		{"first nic that sets servers wins", nil, []*NIC{nil, nicNone, nicCustom}, vnetDefault, addrList("10.9.9.9", "168.63.129.16"), DNSFromNIC, nicCustom, true},
		{"nic overrides azure default", nil, []*NIC{{DNSServers: addrList("10.9.9.9")}}, vnetDefault, addrList("10.9.9.9"), DNSFromNIC, nil, false},
		{"scale set configuration overrides nics", addrList("10.7.7.7"), []*NIC{nicCustom}, vnetCustom, addrList("10.7.7.7"), DNSFromScaleSet, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NodeDNSServers(tt.scaleSet, tt.nics, tt.vnet)
			if !slices.Equal(got.Servers, tt.want) || got.Source != tt.source {
				t.Errorf("NodeDNSServers = %v from %d; want %v from %d", got.Servers, got.Source, tt.want, tt.source)
			}
			if tt.nic != nil && got.NIC != tt.nic {
				t.Errorf("NIC = %+v, want %s", got.NIC, tt.nic.Name)
			}
			if got.UsesAzureDNS() != tt.wantAzure {
				t.Errorf("UsesAzureDNS() = %v", !tt.wantAzure)
			}
		})
	}
	// The servers are a copy: callers may not change the model through them.
	got := NodeDNSServers(nil, nil, vnetCustom)
	got.Servers[0] = netip.MustParseAddr("1.1.1.1")
	if vnetCustom.DNSServers[0] != netip.MustParseAddr("10.0.1.10") {
		t.Error("NodeDNSServers returned the model's own slice")
	}
}

// A pool's NICs count whether read with the pool or into the network.
func TestPoolDNSServers(t *testing.T) {
	n := NewNetwork()
	nicID := ResourceID("/subscriptions/s/resourceGroups/mc/providers/Microsoft.Network/networkInterfaces/nic-0")
	n.NICs[nicID.Key()] = &NIC{ID: nicID, Name: "nic-0", DNSServers: addrList("10.0.1.11")}
	vnet := &VNet{DNSServers: addrList("10.0.1.10")}
	if got := PoolDNSServers(&NodePool{NICIDs: []ResourceID{nicID}}, vnet, n); got.Source != DNSFromNIC || got.NIC.Name != "nic-0" {
		t.Errorf("NIC read into the network: %+v", got)
	}
	if got := PoolDNSServers(&NodePool{NICIDs: []ResourceID{nicID}}, vnet, nil); got.Source != DNSFromVNet {
		t.Errorf("without the network the NIC is unknown and the VNet's servers apply: %+v", got)
	}
	pool := &NodePool{NICs: []*NIC{{Name: "read", DNSServers: addrList("10.0.1.12")}}, NICIDs: []ResourceID{nicID}}
	if got := PoolDNSServers(pool, vnet, n); got.NIC.Name != "read" {
		t.Errorf("the pool's own NICs come first: %+v", got)
	}
}
