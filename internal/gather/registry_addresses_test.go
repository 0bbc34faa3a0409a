// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"net/netip"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The addresses whose NICs verification looks for: A records of the zones
// read and declared addresses, in a stable order; other record types are
// not addresses.
func TestRegistryAddresses(t *testing.T) {
	a := netip.MustParseAddr
	d := model.NewDNS()
	d.Zones["z2"] = &model.PrivateZone{Name: "corp.example", Records: map[string]*model.RecordSet{
		"harbor": {Name: "harbor", Type: "A", Addrs: []netip.Addr{a("10.0.1.20")}},
		"alias":  {Name: "alias", Type: "CNAME"},
	}}
	d.Zones["z1"] = &model.PrivateZone{Name: "privatelink.azurecr.io", Records: map[string]*model.RecordSet{
		"contosoreg": {Name: "contosoreg", Type: "A", Addrs: []netip.Addr{a("10.0.2.5")}},
	}}
	declared := &model.DeclaredRegistry{Hosts: []string{"b.example", "a.example"},
		Addresses: map[string]netip.Addr{"b.example": a("10.0.1.31"), "a.example": a("10.0.1.30")}}
	got := registryAddresses(d, declared)
	want := []netip.Addr{a("10.0.2.5"), a("10.0.1.20"), a("10.0.1.30"), a("10.0.1.31")}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := registryAddresses(model.NewDNS(), nil); len(got) != 0 {
		t.Fatalf("no zones, no declared registry: %v", got)
	}
}

// IncludeNICsAt finds the NIC behind an address of the network (the DNS
// server VM), skips addresses that are already NICs or outside it, and
// records an address whose subnet's NICs could not be read as unknown.
func TestIncludeNICsAt(t *testing.T) {
	addrs := []netip.Addr{ip("10.0.1.10"), ip("10.0.2.5"), ip("192.168.10.20")}

	r, _ := newReader(t, "custom_dns_vm")
	n, err := r.Network(testCtx(t), idList(snetAKS))
	if err != nil {
		t.Fatal(err)
	}
	r.IncludeNICsAt(testCtx(t), n, addrs)
	if nic := n.NIC(dnsNIC); nic == nil {
		t.Fatalf("DNS server NIC not added: %v", keys(n.NICs))
	}
	if len(n.AddressGaps) != 0 {
		t.Errorf("address gaps %v", n.AddressGaps)
	}

	s, err := snapshot.Load(filepath.Join("testdata", "custom_dns_vm.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Faults == nil {
		s.Faults = map[string]snapshot.Fault{}
	}
	s.Faults["GET "+string(dnsNIC)] = snapshot.Fault{Status: 403}
	r, _ = newReaderFrom(t, s)
	n, err = r.Network(testCtx(t), idList(snetAKS))
	if err != nil {
		t.Fatal(err)
	}
	r.IncludeNICsAt(testCtx(t), n, addrs)
	g, ok := n.AddressGaps[ip("10.0.1.10")]
	if !ok || g.Kind != model.GapPermissionDenied || !g.ResourceID.Equal(snetNVA) || g.Permission != permNICRead {
		t.Fatalf("address gap %+v (found %v)", g, ok)
	}
	if _, ok := n.AddressGaps[ip("192.168.10.20")]; ok {
		t.Error("an address outside the network needs no NIC")
	}
}
