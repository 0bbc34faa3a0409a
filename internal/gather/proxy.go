// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// proxyPoolName names the stand-in pool gather reads the proxy's side
// with (its NIC, security group, DNS servers, egress); it never reaches
// the facts' pools.
const proxyPoolName = "(cluster HTTPS proxy)"

// proxyHost finds what holds the address of the cluster's HTTPS proxy
// (httpProxyConfig.httpsProxy given as an IP address): the network
// interface of a VNet in the closure of the node subnets whose private
// address it is. The network is then read again with the proxy's subnet
// as a seed too (the session's cache answers what was read already), so
// its routes, peerings and security groups are in it. A proxy given by
// name, outside the VNets read, or at an address no NIC holds (a load
// balancer frontend, an Azure Firewall) gives nil: verification then
// reports that the proxy's side cannot be read.
func (r *Reader) proxyHost(ctx context.Context, n *model.Network, cl *model.Cluster, seeds []model.ResourceID) (*model.Network, *model.ProxyHost, *model.NodePool) {
	if cl == nil || cl.HTTPProxy == nil {
		return n, nil, nil
	}
	ep, ok, err := cl.HTTPProxy.Endpoint()
	if !ok || err != nil || !ep.Addr.IsValid() {
		return n, nil, nil
	}
	v := vnetHolding(n, ep.Addr)
	if v == nil {
		return n, nil, nil
	}
	found, _ := r.NICByAddress(ctx, v, ep.Addr)
	if found == nil || found.SubnetID.IsZero() {
		// No NIC holds it, or one could not be read: includeNICAt
		// records the gap on the address.
		var mu sync.Mutex
		r.includeNICAt(ctx, n, &mu, v, ep.Addr)
		return n, nil, nil
	}
	if !containsID(seeds, found.SubnetID) {
		if wider, _ := r.Network(ctx, append(append([]model.ResourceID(nil), seeds...), found.SubnetID)); wider != nil {
			n = wider
		}
	}
	var mu sync.Mutex
	r.includeNICAt(ctx, n, &mu, v, ep.Addr)
	nic := nicHolding(n, ep.Addr)
	if nic == nil {
		return n, nil, nil
	}
	pool := &model.NodePool{Name: proxyPoolName, SubnetID: nic.SubnetID, NICIDs: []model.ResourceID{nic.ID}, NICsKnown: true}
	return n, &model.ProxyHost{Addr: ep.Addr, NICID: nic.ID}, pool
}

// containsID reports whether ids holds id.
func containsID(ids []model.ResourceID, id model.ResourceID) bool {
	for _, have := range ids {
		if have.Equal(id) {
			return true
		}
	}
	return false
}
