// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Instance-level public IPs (docs/design/azure-behaviour.md, "Instance-level
// public IPs"): a scale-set pool with enableNodePublicIP and no
// nodePublicIPPrefixID gives every instance a public IP of its own, which
// its flows to public addresses leave through. One list per scale set
// (…/virtualMachineScaleSets/{v}/publicipaddresses) answers the addresses
// of all its instances.

// instancePublicIPPools are the pools whose instance public IPs a registry
// that admits listed ranges needs: scale-set pools with node public IPs,
// no prefix, a scale set found, on a subnet without a NAT gateway (a NAT
// gateway takes precedence over instance public IPs).
func instancePublicIPPools(n *model.Network, pools []*model.NodePool) []*model.NodePool {
	var out []*model.NodePool
	for _, p := range pools {
		if !p.NodePublicIP || !p.NodePublicIPPrefixID.IsZero() || p.ScaleSetID.IsZero() {
			continue
		}
		if s := n.Subnet(p.SubnetID); s != nil && !s.NATGatewayID.IsZero() {
			continue
		}
		out = append(out, p)
	}
	return out
}

// instancePublicIPs reads the instance-level public IPs of pool's scale
// set into the pool (InstancePublicIPs, InstancePublicIPsList,
// InstancePublicIPsRead). A failed read leaves InstancePublicIPsRead
// false with the gap recorded on the list.
func (r *Reader) instancePublicIPs(ctx context.Context, pool *model.NodePool) {
	ss := pool.ScaleSetID
	coll := child(ss, "publicipaddresses")
	pool.InstancePublicIPsList = coll
	a, err := parseTyped(ss, "Microsoft.Compute", "virtualMachineScaleSets")
	if err != nil {
		r.record(coll, permVMSSPublicIPList, err)
		return
	}
	list, err := read(r, "list", coll, permVMSSPublicIPList, func() ([]*model.PublicAddress, error) {
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		raw, err := collect(ctx, r, f.NewPublicIPAddressesClient().NewListVirtualMachineScaleSetPublicIPAddressesPager(a.ResourceGroup, a.Names[0], nil),
			func(p armnetwork.PublicIPAddressesClientListVirtualMachineScaleSetPublicIPAddressesResponse) []*armnetwork.PublicIPAddress {
				return p.Value
			})
		if err != nil {
			return nil, err
		}
		var out []*model.PublicAddress
		for _, ip := range raw {
			if ip == nil {
				continue
			}
			a, err := publicIPFromSDK(ip)
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(a.ID.Key(), ss.Key()+"/") {
				// Only the scale set's own instances hold its list's
				// addresses; anything else is not evidence about them.
				continue
			}
			out = append(out, a)
		}
		return out, nil
	})
	if err != nil {
		return
	}
	pool.InstancePublicIPs = list
	pool.InstancePublicIPsRead = true
}
