// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// networkUnmodelled are the unmodelled settings of the network resources
// the path goes through, each resource once:
//   - the subnets: the node subnet, the proxy's, every subnet a hop lies in
//     or whose route led to a hop; with each its VNet and its route table
//     (a destination subnet's table routes the replies);
//   - the network interfaces: the pool's nodes' (every node pulls), the
//     proxy's, and every interface a hop names (an appliance, the
//     destination), with a private endpoint's interfaces;
//   - the security groups, peerings (both sides), gateways (with their
//     connections), NAT gateways and Azure Firewalls its hops name, with
//     a firewall's policy chain and the policies' rule collection groups.
func (r *run) networkUnmodelled(pc *poolCtx, p *pathState) []model.UnmodelledSetting {
	n := r.f.Network
	var out []model.UnmodelledSetting
	seen := map[string]bool{}
	once := func(id model.ResourceID) bool {
		if id.IsZero() || seen[id.Key()] {
			return false
		}
		seen[id.Key()] = true
		return true
	}
	nic := func(id model.ResourceID) {
		if x := n.NIC(id); x != nil && once(x.ID) {
			out = append(out, x.Unmodelled...)
		}
	}
	subnet := func(s *model.Subnet) {
		if s == nil || !once(s.ID) {
			return
		}
		out = append(out, s.Unmodelled...)
		if v := n.VNet(s.VNetID); v != nil && once(v.ID) {
			out = append(out, v.Unmodelled...)
		}
		if rt := n.RouteTable(s.RouteTableID); rt != nil && once(rt.ID) {
			out = append(out, rt.Unmodelled...)
		}
	}
	firewall := func(fw *model.AzureFirewall) {
		if fw == nil || !once(fw.ID) {
			return
		}
		out = append(out, fw.Unmodelled...)
		for id := fw.PolicyID; !id.IsZero(); {
			pol := n.FirewallPolicy(id)
			if pol == nil || !once(pol.ID) {
				break
			}
			out = append(out, pol.Unmodelled...)
			for _, g := range pol.RuleCollectionGroups {
				out = append(out, g.Unmodelled...)
			}
			id = pol.BasePolicyID
		}
	}
	pools := []*poolCtx{pc}
	if pp := pc.proxy; pp != nil {
		pools = append(pools, pp.pc)
	}
	for _, c := range pools {
		subnet(c.subnet)
		if c.pool != nil {
			for _, x := range c.pool.NICs {
				if x != nil {
					nic(x.ID)
				}
			}
		}
	}
	for _, s := range p.steps {
		subnet(n.Subnet(s.SubnetID))
		subnet(n.Subnet(s.From))
		id := s.ResourceID
		if id.IsZero() {
			continue
		}
		nic(id)
		if pe := n.PrivateEndpoint(id); pe != nil {
			for _, x := range pe.NICIDs {
				nic(x)
			}
		}
		firewall(n.Firewall(id))
		if g := n.Gateway(id); g != nil && once(g.ID) {
			out = append(out, g.Unmodelled...)
		}
		if g := n.NATGateway(id); g != nil && once(g.ID) {
			out = append(out, g.Unmodelled...)
		}
		if s.Kind == model.HopPeering {
			// The peering crossed and its other side, which the replies
			// cross.
			if v := n.VNet(id.Parent()); v != nil {
				for _, pe := range v.Peerings {
					if pe == nil || !pe.ID.Equal(id) {
						continue
					}
					if once(pe.ID) {
						out = append(out, pe.Unmodelled...)
					}
					if rev, _ := n.PeeringBack(v.ID, pe); rev != nil && once(rev.ID) {
						out = append(out, rev.Unmodelled...)
					}
				}
			}
		}
	}
	return out
}
