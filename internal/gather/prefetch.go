// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// prefetchPoolDNS starts, beside the network closure, the forwarding
// ruleset reads (listDnsForwardingRulesets, a POST that can take seconds)
// that discoverDNS will make for the pools' own VNets, so that they do not
// wait for the whole closure (hub, gateway, BGP actions). It decides with
// the inputs discoverDNS uses (model.PoolDNSServers): a pool whose DNS servers,
// or any of whose NICs' DNS servers, are set or not yet known is skipped,
// and so is a VNet with custom DNS servers; what remains is exactly a read
// discoverDNS makes. Reads are memoised, so nothing is requested twice.
func (r *Reader) prefetchPoolDNS(ctx context.Context, pools []*model.NodePool) {
	var vnets []model.ResourceID
	for _, p := range pools {
		if p.SubnetID.IsZero() || len(p.DNSServers) > 0 || len(p.NICs) < len(p.NICIDs) {
			continue
		}
		custom := false
		for _, nic := range p.NICs {
			custom = custom || nic == nil || len(nic.DNSServers) > 0
		}
		if !custom {
			vnets = appendUniqueID(vnets, p.SubnetID.Parent())
		}
	}
	each(ctx, r, vnets, func(ctx context.Context, id model.ResourceID) {
		v, err := r.VNet(ctx, id)
		if err != nil || v == nil || len(v.DNSServers) > 0 {
			return
		}
		_, _ = r.Rulesets(ctx, v.ID)
	})
}
