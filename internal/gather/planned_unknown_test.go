// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"errors"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// unknownPatch is a planned patch of id that leaves members unknown.
func unknownPatch(address string, id model.ResourceID, members ...string) planned.Op {
	return planned.Op{Address: address, Type: "azurerm_test", Kind: planned.OpPatch, ID: string(id),
		Body: map[string]any{"properties": map[string]any{}}, Unknown: members}
}

// A value the plan leaves unknown is unknown as the fact it is, on the
// object that holds it; the rest of the VNet is read as after the plan.
func TestVNetUnknownPerFact(t *testing.T) {
	r, _ := newPlannedReader(t, "baseline_ok",
		unknownPatch("azurerm_virtual_network_dns_servers.spoke", vnetSpoke, "properties.dhcpOptions.dnsServers"),
		unknownPatch("azurerm_subnet.aks", snetAKS, "properties.privateEndpointNetworkPolicies", "properties.privateLinkServiceNetworkPolicies"))
	v, err := r.VNet(testCtx(t), vnetSpoke)
	if err != nil {
		t.Fatalf("VNet: %v, want the known part", err)
	}
	requireNoGaps(t, r)
	g, ok := v.Unknown.Of(model.FactDNSServers)
	if !ok || g.Kind != model.GapPlannedUnknown || g.Planned != "azurerm_virtual_network_dns_servers.spoke" || !g.ResourceID.Equal(vnetSpoke) {
		t.Errorf("VNet DNS servers: %+v %v, want unknown naming the change", g, ok)
	}
	if len(v.DNSServers) != 0 {
		t.Errorf("unknown DNS servers hold %v, want none (never the value before the plan)", v.DNSServers)
	}
	if len(v.AddressSpace) == 0 || len(v.Subnets) == 0 || len(v.Peerings) == 0 {
		t.Errorf("the known part is missing: %+v", v)
	}
	for _, s := range v.Subnets {
		g, ok := s.Unknown.Of(model.FactPrivateEndpointNetworkPolicies)
		switch {
		case s.ID.Equal(snetAKS) && (!ok || g.Planned != "azurerm_subnet.aks" || !g.ResourceID.Equal(snetAKS) || s.PrivateEndpointNetworkPolicies != ""):
			t.Errorf("subnet %s: policies %q, unknown %+v %v, want unknown naming azurerm_subnet.aks", s.Name, s.PrivateEndpointNetworkPolicies, g, ok)
		case !s.ID.Equal(snetAKS) && (ok || len(s.Unknown) > 0):
			t.Errorf("subnet %s has unknown facts %+v, want none", s.Name, s.Unknown)
		}
	}
}

// A member the table does not map (the address space) leaves the whole
// VNet unknown, as a read without the known part: a gap naming the change.
func TestVNetUnknownUnmappedMemberIsTheWholeVNet(t *testing.T) {
	for name, op := range map[string]planned.Op{
		"own":   unknownPatch("azurerm_virtual_network.spoke", vnetSpoke, "properties.dhcpOptions.dnsServers", "properties.addressSpace.addressPrefixes"),
		"child": unknownPatch("azurerm_subnet.aks", snetAKS, "properties.routeTable.id"),
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := newPlannedReader(t, "baseline_ok", op)
			v, err := r.VNet(testCtx(t), vnetSpoke)
			var u *azure.PlannedValueUnknownError
			if v != nil || !errors.As(err, &u) {
				t.Fatalf("VNet = %v, %v; want the whole VNet unknown", v, err)
			}
			g, ok := r.Gaps().Lookup(vnetSpoke)
			if !ok || g.Kind != model.GapPlannedUnknown || g.Planned != op.Address {
				t.Errorf("gap = %+v %v, want planned_unknown naming %s", g, ok, op.Address)
			}
		})
	}
}

// The table: mapped members become facts, members no rule reads are
// dropped, anything else (or an object the answer does not hold) makes
// the whole answer unknown.
func TestUnknownFactsTable(t *testing.T) {
	v := &model.VNet{ID: vnetSpoke, Subnets: []*model.Subnet{{ID: snetAKS, VNetID: vnetSpoke, Name: "snet-aks"}}}
	val := func(id model.ResourceID, member string) azure.PlannedUnknownValue {
		return azure.PlannedUnknownValue{ID: string(id), Member: member, Address: "azurerm_x.y"}
	}
	cases := []struct {
		name   string
		values []azure.PlannedUnknownValue
		whole  bool
		vnet   []model.Fact
		subnet []model.Fact
	}{
		{"dns servers", []azure.PlannedUnknownValue{val(vnetSpoke, "properties.dhcpOptions.dnsServers")}, false, []model.Fact{model.FactDNSServers}, nil},
		{"subnet policies", []azure.PlannedUnknownValue{val(snetAKS, "properties.privateEndpointNetworkPolicies")}, false, nil, []model.Fact{model.FactPrivateEndpointNetworkPolicies}},
		{"read by no rule", []azure.PlannedUnknownValue{val(snetAKS, "properties.privateLinkServiceNetworkPolicies")}, false, nil, nil},
		{"not in the table", []azure.PlannedUnknownValue{val(vnetSpoke, "properties.dhcpOptions.dnsServers"), val(snetAKS, "properties.addressPrefix")}, true, nil, nil},
		{"a subnet's member on the VNet", []azure.PlannedUnknownValue{val(vnetSpoke, "properties.privateEndpointNetworkPolicies")}, true, nil, nil},
		{"a subnet the answer lacks", []azure.PlannedUnknownValue{val(vnetSpoke+"/subnets/other", "properties.privateEndpointNetworkPolicies")}, true, nil, nil},
		{"the embedded list", []azure.PlannedUnknownValue{val(vnetSpoke, "properties.subnets")}, true, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cv := cloneVNet(v)
			sub := *v.Subnets[0]
			cv.Subnets = []*model.Subnet{&sub}
			u := &azure.PlannedValueUnknownError{ID: string(vnetSpoke), Address: "azurerm_x.y", Members: []string{"m"}, Values: c.values}
			err := markVNetUnknown(cv, u)
			if (err != nil) != c.whole {
				t.Fatalf("err = %v, want whole VNet unknown: %v", err, c.whole)
			}
			if c.whole && (len(cv.Unknown) > 0 || len(sub.Unknown) > 0) {
				t.Errorf("a whole unknown VNet marked facts: %+v %+v", cv.Unknown, sub.Unknown)
			}
			for _, f := range c.vnet {
				if _, ok := cv.Unknown.Of(f); !ok {
					t.Errorf("VNet fact %s not unknown", f)
				}
			}
			for _, f := range c.subnet {
				if _, ok := sub.Unknown.Of(f); !ok {
					t.Errorf("subnet fact %s not unknown", f)
				}
			}
			if len(cv.Unknown) != len(c.vnet) || len(sub.Unknown) != len(c.subnet) {
				t.Errorf("unknown facts: VNet %+v, subnet %+v", cv.Unknown, sub.Unknown)
			}
		})
	}
}
