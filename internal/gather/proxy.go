// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
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
	found, nerr := r.NICByAddress(ctx, v, ep.Addr)
	var plb *model.ProxyLoadBalancer
	if found == nil && nerr == nil {
		// No NIC holds it: an internal load balancer's frontend may.
		var backend *model.NIC
		plb, backend = r.proxyLoadBalancer(ctx, n, v, ep.Addr, ep.Port)
		if plb != nil {
			if backend == nil || backend.SubnetID.IsZero() {
				return n, &model.ProxyHost{Addr: ep.Addr, LoadBalancer: plb}, nil
			}
			found = backend
		}
	}
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
	at := ep.Addr
	if plb != nil {
		// The backend's own address, in the VNet that holds it.
		at = found.PrivateIPs[0]
		if v = vnetHolding(n, at); v == nil {
			return n, &model.ProxyHost{Addr: ep.Addr, LoadBalancer: plb}, nil
		}
	}
	r.includeNICAt(ctx, n, &mu, v, at)
	nic := nicHolding(n, at)
	if nic == nil {
		if plb != nil {
			return n, &model.ProxyHost{Addr: ep.Addr, LoadBalancer: plb}, nil
		}
		return n, nil, nil
	}
	pool := &model.NodePool{Name: proxyPoolName, SubnetID: nic.SubnetID, NICIDs: []model.ResourceID{nic.ID}, NICsKnown: true}
	return n, &model.ProxyHost{Addr: ep.Addr, NICID: nic.ID, LoadBalancer: plb}, pool
}

// proxyLoadBalancer finds the internal load balancer whose frontend holds
// addr, among the frontends the subnets of v containing addr list in
// their ipConfigurations, and what it forwards the proxy's port to: the
// rule, the backend port and the backends' NICs. The backend NIC is
// returned when it is exactly one NIC, read; otherwise the proxy's side
// is not followed (verification says so). Nil when no frontend holds
// addr; a load balancer or backend NIC that could not be read is a gap
// on addr, which verification names as evidence.
func (r *Reader) proxyLoadBalancer(ctx context.Context, n *model.Network, v *model.VNet, addr netip.Addr, port int) (*model.ProxyLoadBalancer, *model.NIC) {
	var lbs []model.ResourceID
	for _, s := range v.Subnets {
		in := false
		for _, p := range s.Prefixes {
			in = in || p.Contains(addr)
		}
		if !in {
			continue
		}
		for _, c := range s.IPConfigurationIDs {
			if id := loadBalancerOfFrontend(c); id != "" {
				lbs = appendUniqueID(lbs, id)
			}
		}
	}
	for _, id := range lbs {
		lb, err := r.LoadBalancer(ctx, id)
		if err != nil || lb == nil {
			g := azure.Gap(id, permLoadBalancerRead, err)
			g.Detail = "this load balancer's frontend may hold " + addr.String() + ", the address of the cluster's HTTPS proxy, but it could not be read: " + g.Detail
			n.AddAddressGap(addr, g)
			continue
		}
		fe := lb.Frontend(addr)
		if fe == nil {
			continue
		}
		out := &model.ProxyLoadBalancer{ID: lb.ID, Name: lb.Name, Frontend: fe.Name}
		rule, bport := lb.RuleFor(fe.ID, port)
		if rule == nil {
			return out, nil
		}
		out.Rule, out.BackendPort = rule.Name, bport
		// A floating-IP rule delivers the frontend's address to the
		// backend, which the backend's side is not evaluated with.
		out.BackendsKnown = !rule.FloatingIP && len(rule.PoolIDs) > 0
		for _, pid := range rule.PoolIDs {
			pool := lb.Pool(pid)
			if pool == nil || pool.ByAddress {
				out.BackendsKnown = false
				continue
			}
			for _, c := range pool.IPConfigurationIDs {
				if nic := nicOfIPConfig(c); !nic.IsZero() {
					out.Backends = appendUniqueID(out.Backends, nic)
				} else {
					out.BackendsKnown = false
				}
			}
		}
		if !out.BackendsKnown || len(out.Backends) != 1 {
			return out, nil
		}
		nic, err := r.NIC(ctx, out.Backends[0])
		if err != nil {
			g := azure.Gap(out.Backends[0], nicPermission(out.Backends[0]), err)
			g.Detail = "the backend of load balancer " + lb.Name + " behind the cluster's HTTPS proxy " + addr.String() + " could not be read: " + g.Detail
			n.AddAddressGap(addr, g)
			return out, nil
		}
		if nic == nil || len(nic.PrivateIPs) == 0 {
			return out, nil
		}
		return out, nic
	}
	return nil, nil
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
