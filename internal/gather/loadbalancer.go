// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// LoadBalancer reads a load balancer's frontends, load-balancing rules
// and backend pools (the proxy behind an internal load balancer).
func (r *Reader) LoadBalancer(ctx context.Context, id model.ResourceID) (*model.LoadBalancer, error) {
	return read(r, "loadbalancer", id, permLoadBalancerRead, func() (*model.LoadBalancer, error) {
		resp, err := networkGet(ctx, r, id, "loadBalancers", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.LoadBalancersClientGetResponse, error) {
			return f.NewLoadBalancersClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return loadBalancerFromSDK(&resp.LoadBalancer), nil
	})
}

// loadBalancerFromSDK keeps what a proxy behind the load balancer needs.
func loadBalancerFromSDK(lb *armnetwork.LoadBalancer) *model.LoadBalancer {
	out := &model.LoadBalancer{ID: rid(lb.ID), Name: str(lb.Name)}
	p := lb.Properties
	if p == nil {
		return out
	}
	for _, fe := range p.FrontendIPConfigurations {
		if fe == nil {
			continue
		}
		f := model.LBFrontend{ID: rid(fe.ID), Name: str(fe.Name)}
		if fe.Properties != nil {
			if a, err := netip.ParseAddr(str(fe.Properties.PrivateIPAddress)); err == nil {
				f.Addr = a
			}
		}
		out.Frontends = append(out.Frontends, f)
	}
	for _, ru := range p.LoadBalancingRules {
		if ru == nil || ru.Properties == nil {
			continue
		}
		rp := ru.Properties
		m := model.LBRule{Name: str(ru.Name), FrontendPort: int(i32(rp.FrontendPort)), BackendPort: int(i32(rp.BackendPort)), FloatingIP: boolv(rp.EnableFloatingIP)}
		if rp.Protocol != nil {
			m.Protocol = string(*rp.Protocol)
		}
		if rp.FrontendIPConfiguration != nil {
			m.FrontendID = rid(rp.FrontendIPConfiguration.ID)
		}
		if rp.BackendAddressPool != nil {
			m.PoolIDs = appendUniqueID(m.PoolIDs, rid(rp.BackendAddressPool.ID))
		}
		for _, bp := range rp.BackendAddressPools {
			if bp != nil {
				m.PoolIDs = appendUniqueID(m.PoolIDs, rid(bp.ID))
			}
		}
		out.Rules = append(out.Rules, m)
	}
	for _, bp := range p.BackendAddressPools {
		if bp == nil {
			continue
		}
		pool := model.LBBackendPool{ID: rid(bp.ID), Name: str(bp.Name)}
		if bp.Properties != nil {
			for _, c := range bp.Properties.BackendIPConfigurations {
				if c != nil && c.ID != nil {
					pool.IPConfigurationIDs = appendUniqueID(pool.IPConfigurationIDs, rid(c.ID))
				}
			}
			for _, a := range bp.Properties.LoadBalancerBackendAddresses {
				// An address given directly (not through a NIC's ip
				// configuration) is a backend the provider cannot follow.
				if a != nil && a.Properties != nil && a.Properties.IPAddress != nil && a.Properties.NetworkInterfaceIPConfiguration == nil {
					pool.ByAddress = true
				}
			}
		}
		out.Pools = append(out.Pools, pool)
	}
	return out
}

// loadBalancerOfFrontend is the load balancer an ip configuration id
// names when it is a frontend's (…/loadBalancers/{lb}/frontendIPConfigurations/{fe}),
// empty otherwise.
func loadBalancerOfFrontend(ipConfigID model.ResourceID) model.ResourceID {
	s := string(ipConfigID)
	i := strings.LastIndex(strings.ToLower(s), "/frontendipconfigurations/")
	if i < 0 {
		return ""
	}
	lb := model.ResourceID(s[:i])
	a, err := parseID(lb)
	if err != nil || !isType(a, "Microsoft.Network", "loadBalancers") {
		return ""
	}
	return lb
}
