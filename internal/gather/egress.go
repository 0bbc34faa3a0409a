// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// NATGateway reads a NAT gateway with its public IP addresses and prefixes.
func (r *Reader) NATGateway(ctx context.Context, id model.ResourceID) (*model.NATGateway, error) {
	return read(r, "natgateway", id, permNATGatewayRead, func() (*model.NATGateway, error) {
		resp, err := networkGet(ctx, r, id, "natGateways", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.NatGatewaysClientGetResponse, error) {
			return f.NewNatGatewaysClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return natGatewayFromSDK(&resp.NatGateway)
	})
}

// PublicAddress reads a public IP address (…/publicIPAddresses/{n}) or a
// public IP prefix (…/publicIPPrefixes/{n}), as the id says.
func (r *Reader) PublicAddress(ctx context.Context, id model.ResourceID) (*model.PublicAddress, error) {
	if a, err := parseID(id); err == nil && isType(a, "Microsoft.Network", "publicIPPrefixes") {
		return read(r, "publicipprefix", id, permPublicIPPrefixRead, func() (*model.PublicAddress, error) {
			resp, err := networkGet(ctx, r, id, "publicIPPrefixes", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.PublicIPPrefixesClientGetResponse, error) {
				return f.NewPublicIPPrefixesClient().Get(ctx, rg, name, nil)
			})
			if err != nil {
				return nil, err
			}
			return publicIPPrefixFromSDK(&resp.PublicIPPrefix)
		})
	}
	return read(r, "publicip", id, permPublicIPRead, func() (*model.PublicAddress, error) {
		resp, err := networkGet(ctx, r, id, "publicIPAddresses", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.PublicIPAddressesClientGetResponse, error) {
			return f.NewPublicIPAddressesClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return publicIPFromSDK(&resp.PublicIPAddress)
	})
}

// egressAddresses reads the public addresses the nodes' flows to public
// addresses may leave through, for a registry that admits listed IP
// ranges only (model.Registry.IPRulesApply): the NAT gateways of the pool
// subnets, the nodes' public IP prefixes, the instance-level public IPs of
// pools whose nodes get them from no prefix (instancePublicIPs), the
// cluster load balancer's or managed NAT gateway's outbound IPs for pools
// without a NAT gateway or a prefix, and the
// public IPs (or subnet NAT gateways) of the Azure Firewalls in the
// network. Which of them a flow uses depends on its route, which only
// verification follows: the ids go to Network.SpeculativeReads, so that a
// failure counts only where a conclusion used it.
func (r *Reader) egressAddresses(ctx context.Context, n *model.Network, cl *model.Cluster, pools []*model.NodePool) {
	var nats, addrs []model.ResourceID
	needOutbound := false
	for _, p := range pools {
		s := n.Subnet(p.SubnetID)
		switch {
		case s == nil:
		case !s.NATGatewayID.IsZero():
			nats = appendUniqueID(nats, s.NATGatewayID)
		case p.NodePublicIP && !p.NodePublicIPPrefixID.IsZero():
			addrs = appendUniqueID(addrs, p.NodePublicIPPrefixID)
		default:
			// A pool whose nodes get public IPs from no prefix needs the
			// cluster's outbound IPs too: the addresses those hold are
			// addresses its instances cannot hold.
			needOutbound = true
		}
	}
	instancePools := instancePublicIPPools(n, pools)
	if cl != nil && needOutbound {
		switch strings.ToLower(cl.Outbound.EffectiveType()) {
		case strings.ToLower(model.OutboundLoadBalancer):
			for _, id := range cl.Outbound.LoadBalancerIPIDs {
				addrs = appendUniqueID(addrs, id)
			}
		case strings.ToLower(model.OutboundManagedNATGateway):
			for _, id := range cl.Outbound.NATGatewayIPIDs {
				addrs = appendUniqueID(addrs, id)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.Firewalls)) {
		fw := n.Firewalls[k]
		nat := false
		for _, sid := range fw.SubnetIDs {
			if s := n.Subnet(sid); s != nil && !s.NATGatewayID.IsZero() {
				nats, nat = appendUniqueID(nats, s.NATGatewayID), true
			}
		}
		if !nat {
			for _, id := range fw.PublicIPAddressIDs {
				addrs = appendUniqueID(addrs, id)
			}
		}
	}

	got, _ := mapEach(ctx, r, nats, r.NATGateway)
	for _, g := range got {
		if g == nil {
			continue
		}
		n.AddNATGateway(g)
		for _, id := range g.PublicIPIDs {
			addrs = appendUniqueID(addrs, id)
		}
	}
	var public []*model.PublicAddress
	all(ctx, r,
		func(ctx context.Context) { public, _ = mapEach(ctx, r, addrs, r.PublicAddress) },
		func(ctx context.Context) {
			each(ctx, r, instancePools, func(ctx context.Context, p *model.NodePool) { r.instancePublicIPs(ctx, p) })
		},
	)
	for _, a := range public {
		if a != nil {
			n.AddPublicAddress(a)
		}
	}
	n.SpeculativeReads = append(append(n.SpeculativeReads, nats...), addrs...)
	for _, p := range instancePools {
		n.SpeculativeReads = append(n.SpeculativeReads, p.InstancePublicIPsList)
	}
}
