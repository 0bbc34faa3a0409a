// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The open world (docs/design/open-world.md): a setting of a resource a
// path goes through that can change a pull and that the provider does not
// evaluate (gather's open-world table) makes the path
// COVERAGE_FEATURE_UNMODELLED, unverified and never reachable. A path
// goes through the cluster, its node pool, the node subnet and VNet, the
// registry, and every subnet, VNet and Azure Firewall its hops name (the
// proxy's too, for a proxied pull); the resolver that answers the nodes'
// lookup of the host, the zone links and resolvers that lookup went
// through; every Virtual WAN hub its hops cross, with the connections of
// the VNets on the path to that hub and their associated route tables.

// unmodelledFindings are the path's COVERAGE_FEATURE_UNMODELLED findings.
func (r *run) unmodelledFindings(pc *poolCtx, p *pathState) []model.Finding {
	var settings []model.UnmodelledSetting
	if cl := r.f.Cluster; cl != nil {
		settings = append(settings, cl.Unmodelled...)
	}
	settings = append(settings, pc.pool.Unmodelled...)
	if res, ok := pc.resolved[p.host.Name]; ok {
		settings = append(settings, res.Unmodelled...)
	}
	subnets := []*model.Subnet{pc.subnet}
	if pp := pc.proxy; pp != nil {
		subnets = append(subnets, pp.pc.subnet)
	}
	var firewalls []model.ResourceID
	for _, s := range p.steps {
		if !s.SubnetID.IsZero() {
			subnets = append(subnets, r.f.Network.Subnet(s.SubnetID))
		}
		if s.Kind == model.HopFirewall && !s.ResourceID.IsZero() {
			firewalls = append(firewalls, s.ResourceID)
		}
	}
	seen := map[string]bool{}
	for _, s := range subnets {
		if s == nil || seen[s.ID.Key()] {
			continue
		}
		seen[s.ID.Key()] = true
		settings = append(settings, s.Unmodelled...)
		if v := r.f.Network.VNet(s.VNetID); v != nil && !seen[v.ID.Key()] {
			seen[v.ID.Key()] = true
			settings = append(settings, v.Unmodelled...)
		}
	}
	for _, id := range firewalls {
		if fw := r.f.Network.Firewall(id); fw != nil && !seen[fw.ID.Key()] {
			seen[fw.ID.Key()] = true
			settings = append(settings, fw.Unmodelled...)
		}
	}
	settings = append(settings, r.hubSettings(pc, p, subnets)...)
	if reg := r.f.Registry; reg != nil {
		settings = append(settings, reg.Unmodelled...)
	}
	settings = append(settings, r.networkUnmodelled(pc, p)...)
	var out []model.Finding
	reported := map[string]bool{}
	for _, u := range settings {
		// A resource reached twice (its subnet named by two hops) is
		// reported once.
		k := u.Resource.Key() + "\x00" + u.Property
		if reported[k] {
			continue
		}
		reported[k] = true
		msg := fmt.Sprintf("%s → %s: %s has %s = %s, which %s. The provider reads this setting but does not evaluate it, so the path is unverified, never reachable.",
			pc.label, p.host.Name, capitalize(u.Resource.Label()), u.Property, u.Value, whyWords(u.Why))
		fix := fmt.Sprintf("Check by hand what %s does to pulls from node pool %s (a test pull from a fresh node shows it). Once confirmed harmless, accept it with an accept block for COVERAGE_FEATURE_UNMODELLED on %s.", u.Property, pc.pool.Name, u.Resource)
		f := model.NewFinding(model.CoverageFeatureUnmodelled, pc.pool.Name, p.host.Name, u.Resource, msg, fix)
		if !p.has(f) {
			out = append(out, f)
		}
	}
	return out
}

// whyWords turns a classification's reason into words after "which".
func whyWords(why string) string {
	return "can change the pull: " + why
}

// hubSettings are the unmodelled settings of the Virtual WAN hubs the
// path crosses (a peering of a hub's VNet, or a hop in it: the hub's
// firewall), of the connections to those hubs of the VNets on the path
// (the node VNet, the VNets of the subnets its hops name) and of the route
// tables those connections are associated with.
func (r *run) hubSettings(pc *poolCtx, p *pathState, subnets []*model.Subnet) []model.UnmodelledSetting {
	n := r.f.Network
	if n == nil || len(n.VirtualHubs) == 0 {
		return nil
	}
	var hubs []*model.VirtualHub
	addHub := func(h *model.VirtualHub) {
		for _, have := range hubs {
			if have == h {
				return
			}
		}
		hubs = append(hubs, h)
	}
	vnets := []model.ResourceID{}
	if pc.vnet != nil {
		vnets = append(vnets, pc.vnet.ID)
	}
	for _, s := range subnets {
		if s != nil {
			vnets = append(vnets, s.VNetID)
		}
	}
	for _, s := range p.steps {
		for _, id := range []model.ResourceID{s.SubnetID, s.From} {
			if !id.IsZero() {
				vnets = append(vnets, id.Parent())
			}
		}
		if s.Kind != model.HopPeering || s.ResourceID.IsZero() {
			continue
		}
		// A peering of a connected VNet to its hub's VNet names the hub;
		// the stand-in hub VNet's peerings are the hub's connections.
		owner := s.ResourceID.Parent()
		if h := n.VirtualHub(owner); h != nil {
			addHub(h)
			continue
		}
		if v := n.VNet(owner); v != nil {
			for _, pe := range v.Peerings {
				if pe.ID.Equal(s.ResourceID) && !pe.VirtualHubID.IsZero() {
					if h := n.VirtualHub(pe.VirtualHubID); h != nil {
						addHub(h)
					}
				}
			}
		}
	}
	for _, v := range vnets {
		if h := n.HubByVNet(v); h != nil {
			addHub(h)
		}
	}
	var out []model.UnmodelledSetting
	seen := map[string]bool{}
	for _, h := range hubs {
		out = append(out, h.Unmodelled...)
		for _, v := range vnets {
			c := h.Connection(v)
			if c == nil || seen[c.ID.Key()] {
				continue
			}
			seen[c.ID.Key()] = true
			out = append(out, c.Unmodelled...)
			if t := h.RouteTable(h.AssociatedTable(c)); t != nil && !seen[t.ID.Key()] {
				seen[t.ID.Key()] = true
				out = append(out, t.Unmodelled...)
			}
		}
	}
	return out
}
