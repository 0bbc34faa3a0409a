// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

const (
	ssCluster = "/subscriptions/" + ovSub + "/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks1"
	ssNodeRG  = "/subscriptions/" + ovSub + "/resourceGroups/MC_rg-aks_aks1"
	ssVMSS    = ssNodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-1234-vmss"
	ssPIP     = ssVMSS + "/virtualMachines/0/networkInterfaces/nic/ipConfigurations/ipconfig1/publicIPAddresses/pub1"
)

// scaleSetARM is mapARM with an AKS cluster (node resource group
// MC_rg-aks_aks1), its pools system (node public IPs, no prefix) and user
// (none), pool system's scale set and the public IP its instance holds.
func scaleSetARM() *mapARM {
	arm := newMapARM()
	add := func(id, body string) { arm.bodies[strings.ToLower(id)] = body }
	add(ssCluster, `{"id":"`+ssCluster+`","name":"aks1","properties":{"nodeResourceGroup":"MC_rg-aks_aks1"}}`)
	add(ssCluster+"/agentPools", `{"value":[{"id":"`+ssCluster+`/agentPools/system","name":"system","properties":{"enableNodePublicIP":true,"count":2}},`+
		`{"id":"`+ssCluster+`/agentPools/user","name":"user","properties":{"enableNodePublicIP":false}}]}`)
	add(ssNodeRG+"/providers/Microsoft.Compute/virtualMachineScaleSets", `{"value":[{"id":"`+ssVMSS+`","name":"aks-system-1234-vmss","tags":{"aks-managed-poolName":"system"},"properties":{}}]}`)
	add(ssVMSS+"/publicipaddresses", `{"value":[{"id":"`+ssPIP+`","name":"pub1","properties":{"ipAddress":"20.60.0.4"}}]}`)
	return arm
}

func poolOp(kind planned.OpKind, pool string, props map[string]any, unknown ...string) planned.Op {
	id := ssCluster + "/agentPools/" + pool
	return planned.Op{Address: "azurerm_kubernetes_cluster_node_pool." + pool, Type: "azurerm_kubernetes_cluster_node_pool", Kind: kind, ID: id,
		Body: map[string]any{"id": id, "name": pool, "properties": props}, Unknown: unknown}
}

// TestOverlayScaleSetPublicIPs: the instance-level public IPs of a pool's
// scale set are unknown until apply when the plan changes the pool's node
// public IP settings, and Azure's answer otherwise.
func TestOverlayScaleSetPublicIPs(t *testing.T) {
	tests := []struct {
		name    string
		ops     []planned.Op
		unknown string // a word the unknown member must hold; "" for Azure's answer
		arm     func(*mapARM)
	}{
		{name: "the pool's nodes lose their public IPs", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": false})},
			unknown: "enableNodePublicIP true → false"},
		{name: "the pool's nodes get a prefix", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": true, "nodePublicIPPrefixID": "/subscriptions/x/resourceGroups/y/providers/Microsoft.Network/publicIPPrefixes/p"})},
			unknown: "nodePublicIPPrefixID none →"},
		{name: "a setting known only after apply", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": true}, "properties.nodePublicIPPrefixID")},
			unknown: "nodePublicIPPrefixID known only after apply"},
		{name: "a merge patch of the setting", ops: []planned.Op{poolOp(planned.OpPatch, "system", map[string]any{"enableNodePublicIP": false})},
			unknown: "enableNodePublicIP true → false"},
		{name: "the pool changes, not its public IP settings", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": true, "count": 5})}},
		{name: "a merge patch that does not name them", ops: []planned.Op{poolOp(planned.OpPatch, "system", map[string]any{"count": 5})}},
		{name: "another pool's settings change", ops: []planned.Op{poolOp(planned.OpPut, "user", map[string]any{"enableNodePublicIP": true})}},
		{name: "the scale sets cannot be listed: the scale set may be the pool's", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": false})},
			unknown: "enableNodePublicIP true → false", arm: func(a *mapARM) {
				delete(a.bodies, strings.ToLower(ssNodeRG+"/providers/Microsoft.Compute/virtualMachineScaleSets"))
			}},
		{name: "the cluster's node resource group is another one", ops: []planned.Op{poolOp(planned.OpPut, "system", map[string]any{"enableNodePublicIP": false})},
			arm: func(a *mapARM) {
				a.bodies[strings.ToLower(ssCluster)] = `{"id":"` + ssCluster + `","name":"aks1","properties":{"nodeResourceGroup":"MC_other"}}`
			}},
		{name: "a new pool", ops: []planned.Op{poolOp(planned.OpPut, "gpu", map[string]any{"enableNodePublicIP": true})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arm := scaleSetARM()
			if tt.arm != nil {
				tt.arm(arm)
			}
			cl, _ := overlayClients(t, arm, tt.ops...)
			f, err := cl.Network(ovSub)
			if err != nil {
				t.Fatal(err)
			}
			ctx, served := TrackPlannedChanges(context.Background())
			page, err := f.NewPublicIPAddressesClient().NewListVirtualMachineScaleSetPublicIPAddressesPager("MC_rg-aks_aks1", "aks-system-1234-vmss", nil).NextPage(ctx)
			var u *azure.PlannedValueUnknownError
			if tt.unknown == "" {
				if err != nil {
					t.Fatalf("want Azure's answer, got %v", err)
				}
				if len(page.Value) != 1 || *page.Value[0].Properties.IPAddress != "20.60.0.4" {
					t.Errorf("answer %+v", page.Value)
				}
				if s := served(); len(s) != 0 {
					t.Errorf("served %v", s)
				}
				return
			}
			if !errors.As(err, &u) {
				t.Fatalf("want the addresses unknown until apply, got %v", err)
			}
			if u.Address != tt.ops[0].Address || !strings.Contains(strings.Join(u.Members, " "), tt.unknown) || !strings.Contains(strings.Join(u.Members, " "), "node pool system") {
				t.Errorf("unknown %+v", u)
			}
			if s := served(); len(s) != 1 || s[0] != tt.ops[0].Address {
				t.Errorf("served %v", s)
			}
		})
	}
}
