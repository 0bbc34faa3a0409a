// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestInstancePublicIPPools: only pools whose nodes leave through public
// IPs of their own from no prefix have their instances' addresses read:
// not a pool with a prefix (the prefix is read), without node public IPs,
// without a scale set found, or on a subnet with a NAT gateway (which
// takes precedence over instance public IPs).
func TestInstancePublicIPPools(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/"
	const ss = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/MC/providers/Microsoft.Compute/virtualMachineScaleSets/"
	n := model.NewNetwork()
	plain := &model.Subnet{ID: sub + "plain", Name: "plain"}
	natted := &model.Subnet{ID: sub + "nat", Name: "nat", NATGatewayID: "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/natGateways/ng"}
	n.Subnets[plain.ID.Key()], n.Subnets[natted.ID.Key()] = plain, natted
	tests := []struct {
		name string
		pool model.NodePool
		want bool
	}{
		{"node public IPs from no prefix", model.NodePool{NodePublicIP: true, SubnetID: plain.ID, ScaleSetID: ss + "a"}, true},
		{"subnet not read: still read", model.NodePool{NodePublicIP: true, SubnetID: sub + "other", ScaleSetID: ss + "a"}, true},
		{"no node public IPs", model.NodePool{SubnetID: plain.ID, ScaleSetID: ss + "a"}, false},
		{"from a prefix", model.NodePool{NodePublicIP: true, NodePublicIPPrefixID: "/subscriptions/x/resourceGroups/y/providers/Microsoft.Network/publicIPPrefixes/p", SubnetID: plain.ID, ScaleSetID: ss + "a"}, false},
		{"no scale set found", model.NodePool{NodePublicIP: true, SubnetID: plain.ID}, false},
		{"a NAT gateway on the subnet", model.NodePool{NodePublicIP: true, SubnetID: natted.ID, ScaleSetID: ss + "a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.pool
			got := len(instancePublicIPPools(n, []*model.NodePool{&p})) == 1
			if got != tt.want {
				t.Errorf("read %v, want %v", got, tt.want)
			}
		})
	}
}
