// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// TestSubnetListsWhatThePlanAttaches: a subnet's ipConfigurations (and
// privateEndpoints) after the plan are Azure's less the NICs the plan
// deletes or moves away, plus the NICs the plan creates in it, read as the
// subnet, as a VNet's embedded subnet and in a list of subnets; a NIC whose
// subnet is known only after apply leaves the list unknown; a plan without
// NIC changes passes the read through.
func TestSubnetListsWhatThePlanAttaches(t *testing.T) {
	nodes := ovVNet + "/subnets/nodes"
	oldNIC := ovRG + "/providers/Microsoft.Network/networkInterfaces/nic-old"
	newNIC := ovRG + "/providers/Microsoft.Network/networkInterfaces/nic-nva"
	newPE := ovRG + "/providers/Microsoft.Network/privateEndpoints/pe-acr"
	nicPut := func(subnet string, unknown ...string) planned.Op {
		return planned.Op{Address: "azurerm_network_interface.nva", Type: "azurerm_network_interface", Kind: planned.OpPut, ID: newNIC, Unknown: unknown,
			Body: map[string]any{"id": newNIC, "name": "nic-nva", "properties": map[string]any{"enableIPForwarding": true, "ipConfigurations": []any{
				map[string]any{"id": newNIC + "/ipConfigurations/ipconfig1", "name": "ipconfig1", "properties": map[string]any{"subnet": map[string]any{"id": subnet}, "privateIPAddress": "10.1.0.4"}}}}}}
	}
	oldDeleted := planned.Op{Address: "azurerm_network_interface.old", Type: "azurerm_network_interface", Kind: planned.OpDelete, ID: oldNIC}
	peDeleted := planned.Op{Address: "azurerm_private_endpoint.acr", Type: "azurerm_private_endpoint", Kind: planned.OpDelete, ID: newPE}
	azureSubnet := `{"id":"` + nodes + `","name":"nodes","properties":{"addressPrefix":"10.1.0.0/24","ipConfigurations":[{"id":"` + oldNIC + `/ipConfigurations/ipconfig1"}],` +
		`"privateEndpoints":[{"id":"` + newPE + `"}]}}`

	for _, tc := range []struct {
		name        string
		ops         []planned.Op
		wantCfgs    []string
		wantPEs     []string
		wantUnknown bool
		wantServed  []string
	}{
		{"a new NIC in the subnet is listed", []planned.Op{nicPut(nodes)},
			[]string{oldNIC + "/ipConfigurations/ipconfig1", newNIC + "/ipConfigurations/ipconfig1"}, []string{newPE}, false, []string{"azurerm_network_interface.nva"}},
		{"a deleted NIC is not", []planned.Op{oldDeleted},
			[]string{}, []string{newPE}, false, []string{"azurerm_network_interface.old"}},
		{"a new NIC in another subnet changes nothing", []planned.Op{nicPut(ovVNet + "/subnets/other")},
			[]string{oldNIC + "/ipConfigurations/ipconfig1"}, []string{newPE}, false, nil},
		{"a new NIC whose subnet is known after apply: unknown", []planned.Op{nicPut("", "properties.ipConfigurations.subnet.id")},
			nil, nil, true, []string{"azurerm_network_interface.nva"}},
		{"a deleted private endpoint is not listed", []planned.Op{peDeleted},
			[]string{oldNIC + "/ipConfigurations/ipconfig1"}, nil, false, []string{"azurerm_private_endpoint.acr"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, how := range []string{"subnet", "vnet", "list"} {
				arm := newMapARM()
				arm.bodies[strings.ToLower(nodes)] = azureSubnet
				arm.bodies[strings.ToLower(ovVNet+"/subnets")] = `{"value":[` + azureSubnet + `]}`
				arm.bodies[strings.ToLower(ovVNet)] = `{"id":"` + ovVNet + `","name":"vnet-spoke","properties":{"addressSpace":{"addressPrefixes":["10.1.0.0/16"]},"subnets":[` + azureSubnet + `]}}`
				cl, _ := overlayClients(t, arm, tc.ops...)
				f, err := cl.Network(ovSub)
				if err != nil {
					t.Fatal(err)
				}
				ctx, served := TrackPlannedChanges(context.Background())
				var cfgs, pes []string
				switch how {
				case "subnet":
					resp, gerr := f.NewSubnetsClient().Get(ctx, "rg-net", "vnet-spoke", "nodes", nil)
					err = gerr
					if err == nil {
						for _, c := range resp.Properties.IPConfigurations {
							cfgs = append(cfgs, *c.ID)
						}
						for _, p := range resp.Properties.PrivateEndpoints {
							pes = append(pes, *p.ID)
						}
					}
				case "vnet":
					resp, gerr := f.NewVirtualNetworksClient().Get(ctx, "rg-net", "vnet-spoke", nil)
					err = gerr
					if err == nil {
						for _, c := range resp.Properties.Subnets[0].Properties.IPConfigurations {
							cfgs = append(cfgs, *c.ID)
						}
						for _, p := range resp.Properties.Subnets[0].Properties.PrivateEndpoints {
							pes = append(pes, *p.ID)
						}
					}
				case "list":
					pager := f.NewSubnetsClient().NewListPager("rg-net", "vnet-spoke", nil)
					page, perr := pager.NextPage(ctx)
					err = perr
					if err == nil {
						for _, c := range page.Value[0].Properties.IPConfigurations {
							cfgs = append(cfgs, *c.ID)
						}
						for _, p := range page.Value[0].Properties.PrivateEndpoints {
							pes = append(pes, *p.ID)
						}
					}
				}
				var u *azure.PlannedValueUnknownError
				if got := errors.As(err, &u); got != tc.wantUnknown {
					t.Fatalf("%s: err = %v, want unknown %v", how, err, tc.wantUnknown)
				}
				if tc.wantUnknown {
					if !strings.Contains(u.Address, "azurerm_network_interface.nva") {
						t.Errorf("%s: unknown names %q", how, u.Address)
					}
					continue
				}
				if tc.wantCfgs != nil && !slices.Equal(orNone(cfgs), tc.wantCfgs) {
					t.Errorf("%s: ipConfigurations = %v, want %v", how, cfgs, tc.wantCfgs)
				}
				if !slices.Equal(pes, tc.wantPEs) {
					t.Errorf("%s: privateEndpoints = %v, want %v", how, pes, tc.wantPEs)
				}
				if got := served(); !slices.Equal(got, tc.wantServed) && !(len(got) == 0 && len(tc.wantServed) == 0) {
					t.Errorf("%s: served = %v, want %v", how, got, tc.wantServed)
				}
			}
		})
	}
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestNewNICsOfAPlanAreInTheirSubnet: the NICs an azurerm 3.x plan
// creates (planned's fixture) are listed by the subnet they are created
// in, so that the lookup of a next-hop address finds them.
func TestNewNICsOfAPlanAreInTheirSubnet(t *testing.T) {
	data, err := os.ReadFile("../../planned/testdata/gaps/plan_v3_nic_create.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planned.Parse(data, planned.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hub := "/subscriptions/" + ovSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
	arm := newMapARM()
	arm.bodies[strings.ToLower(hub+"/subnets/snet-nva")] = `{"id":"` + hub + `/subnets/snet-nva","name":"snet-nva","properties":{"addressPrefix":"10.0.1.0/24"}}`
	cl, _ := overlayClients(t, arm, plan.Ops...)
	f, err := cl.Network(ovSub)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.NewSubnetsClient().Get(context.Background(), "rg-hub", "vnet-hub", "snet-nva", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range resp.Properties.IPConfigurations {
		got = append(got, strings.TrimPrefix(*c.ID, "/subscriptions/"+ovSub+"/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/"))
	}
	if want := []string{"nic-nva2/ipConfigurations/ipconfig1", "nic-nva3/ipConfigurations/ipconfig1", "nic-dns/ipConfigurations/ipconfig1"}; !slices.Equal(got, want) {
		t.Errorf("snet-nva lists %v, want %v", got, want)
	}
	nic, err := f.NewInterfacesClient().Get(context.Background(), "rg-hub", "nic-nva2", nil)
	if err != nil || nic.Properties.EnableIPForwarding == nil || *nic.Properties.EnableIPForwarding {
		t.Errorf("new NIC read: %v, forwarding %v (want false: Azure's default)", err, nic.Properties)
	}
}
