// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
)

func prefixList(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

const (
	knownSpoke ResourceID = "/subscriptions/x/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
	knownHub   ResourceID = "/subscriptions/x/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
)

// Known VNets: the read ones with their own space, first; then the VNets
// they peer with, with the space the peering shows.
func TestKnownVNetsOf(t *testing.T) {
	vnet := &VNet{ID: knownSpoke, Name: "vnet-spoke", AddressSpace: prefixList("10.1.0.0/16"), Peerings: []*Peering{
		// Remote read: its own space wins over the peering's copy.
		{RemoteVNetID: knownHub, RemoteAddressSpace: prefixList("10.0.0.0/16")},
		// Remote not read: the current space from the peering, else the synced one.
		{RemoteVNetID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/a",
			RemoteAddressSpace: prefixList("10.2.0.0/16"), RemoteCurrentAddressSpace: prefixList("10.2.0.0/15")},
		{RemoteVNetID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/b",
			RemoteAddressSpace: prefixList("10.4.0.0/16")},
		// A second peering to the hub, and a peering without remote, add nothing.
		{RemoteVNetID: ResourceID(strings.ToUpper(string(knownHub)))},
		nil,
		{},
	}}
	hub := &VNet{ID: knownHub, Name: "vnet-hub", AddressSpace: prefixList("10.0.0.0/16", "172.16.0.0/24")}

	got := KnownVNetsOf([]*VNet{vnet, nil, hub})
	want := []struct {
		name, space string
		peered      bool
	}{
		{"vnet-spoke", "[10.1.0.0/16]", false},
		{"vnet-hub", "[10.0.0.0/16 172.16.0.0/24]", false},
		{"a", "[10.2.0.0/15]", true},
		{"b", "[10.4.0.0/16]", true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d vnets, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Name != w.name || fmt.Sprint(got[i].Space) != w.space || got[i].Peered != w.peered {
			t.Errorf("vnet %d = %s %v peered %v, want %+v", i, got[i].Name, got[i].Space, got[i].Peered, w)
		}
	}

	// Alone, the spoke knows the hub from its peering.
	got = KnownVNetsOf([]*VNet{vnet})
	if len(got) != 4 || got[1].ID != knownHub || !got[1].Peered || fmt.Sprint(got[1].Space) != "[10.0.0.0/16]" {
		t.Errorf("spoke alone: %+v", got)
	}
}

// The first known VNet whose space holds an address holds it; an address
// outside every space is held by none.
func TestKnownVNetsHolding(t *testing.T) {
	vs := KnownVNets{
		{ID: knownSpoke, Space: prefixList("10.1.0.0/16")},
		{ID: knownHub, Space: prefixList("10.0.0.0/16", "172.16.0.0/24")},
		{ID: "/subscriptions/x/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/overlap", Space: prefixList("10.0.0.0/8")},
	}
	for _, tt := range []struct {
		addr string
		want ResourceID
	}{
		{"10.1.2.3", knownSpoke},
		{"172.16.0.9", knownHub},
		{"10.0.255.255", knownHub}, // the first of two holders
		{"10.9.0.1", vs[2].ID},
		{"172.16.1.1", ""},
		{"192.168.1.1", ""},
	} {
		got, ok := vs.Holding(netip.MustParseAddr(tt.addr))
		if ok != (tt.want != "") || got.ID != tt.want {
			t.Errorf("Holding(%s) = %q, %v; want %q", tt.addr, got.ID, ok, tt.want)
		}
	}
	if _, ok := KnownVNets(nil).Holding(netip.MustParseAddr("10.0.0.1")); ok {
		t.Error("no known VNet holds nothing")
	}
}

// A resolver serves an address only at one of its inbound endpoints.
func TestResolverInboundAt(t *testing.T) {
	r := &Resolver{Inbound: []ResolverEndpoint{{Name: "in-a", Address: netip.MustParseAddr("10.0.3.4")}, {Name: "in-b", Address: netip.MustParseAddr("10.0.3.8")}}}
	if in, ok := r.InboundAt(netip.MustParseAddr("10.0.3.8")); !ok || in.Name != "in-b" {
		t.Errorf("10.0.3.8: %+v %v", in, ok)
	}
	if _, ok := r.InboundAt(netip.MustParseAddr("10.0.3.5")); ok {
		t.Error("10.0.3.5 is no inbound endpoint")
	}
	if _, ok := (*Resolver)(nil).InboundAt(netip.MustParseAddr("10.0.3.4")); ok {
		t.Error("a nil resolver has no endpoint")
	}
}
