// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Reads in rounds (docs/design/architecture.md, "A plan, from arguments to
// findings"): VerificationFacts and NodeRouteFacts read what every path
// needs and leave evidence that only some paths need pending
// (model.Network.Pending, marked where the read would have been). An
// evaluation reports the pending evidence its paths reached (its Needs);
// ReadEvidence reads exactly that, and the caller evaluates again.
//
// A new kind of evidence read this way needs three things: its kind in
// model (evidence.go), the place the read is marked pending instead of
// made, and its reader in evidenceReaders below, which reads it into the
// network (through the memoised reads, so nothing is read twice) and
// leaves a gap when the read fails, like any read.

// evidenceReader reads one pending evidence into n; mu guards n.
type evidenceReader func(r *Reader, ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence)

// evidenceReaders read each kind of pending evidence.
var evidenceReaders = map[model.EvidenceKind]evidenceReader{
	model.EvidenceAdminRules:         (*Reader).readAdminRules,
	model.EvidenceAdvertisedRoutes:   (*Reader).readAdvertisedRoutes,
	model.EvidenceApplianceNIC:       (*Reader).readApplianceNIC,
	model.EvidenceFirewallRules:      (*Reader).readFirewallRules,
	model.EvidenceHubEffectiveRoutes: (*Reader).readHubEffectiveRoutes,
	model.EvidenceRemoteHub:          (*Reader).readRemoteHub,
	model.EvidencePeerHub:            (*Reader).readPeerHub,
}

// ReadEvidence reads the evidence an evaluation needs that is pending in n
// (the rest of needs is ignored), concurrently within the Reader's bound,
// and takes it out of n.Pending: read, or failed and recorded as a gap.
// n.Gaps is refreshed. It returns how many pending entries it settled;
// 0 means another evaluation would need the same again.
func (r *Reader) ReadEvidence(ctx context.Context, n *model.Network, needs []model.Evidence) int {
	var todo []model.Evidence
	for _, ev := range needs {
		if n.Pending.Has(ev) {
			todo = append(todo, ev)
		}
	}
	var mu sync.Mutex
	each(ctx, r, todo, func(ctx context.Context, ev model.Evidence) {
		if read := evidenceReaders[ev.Kind]; read != nil {
			read(r, ctx, n, &mu, ev)
		}
	})
	for _, ev := range todo {
		// An unknown kind is settled too: evaluation then treats it as
		// not read, which is a gap, never reachable.
		n.Pending.Done(ev)
	}
	n.Gaps = r.Gaps()
	return len(todo)
}

// ReadVerificationEvidence is ReadEvidence for the facts of a
// verification: the gaps of the facts, their network and their DNS view
// are refreshed together, as VerificationFacts leaves them.
func (r *Reader) ReadVerificationEvidence(ctx context.Context, f *model.Facts, needs []model.Evidence) int {
	if f.Network == nil {
		return 0
	}
	settled := r.ReadEvidence(ctx, f.Network, needs)
	gaps := r.Gaps()
	f.Gaps, f.Network.Gaps = gaps, gaps
	if f.DNS != nil {
		f.DNS.Gaps = gaps
	}
	return settled
}

// ReadAllEvidence reads every pending evidence of n, as if every path
// reached it: what gathering read before it was done in rounds. Benchmarks
// compare against it; the provider never needs it.
func (r *Reader) ReadAllEvidence(ctx context.Context, f *model.Facts) {
	// Reading evidence may mark more pending (a remote hub's firewall
	// rules): read until nothing is left.
	for f.Network != nil && len(f.Network.Pending) > 0 {
		if r.ReadVerificationEvidence(ctx, f, f.Network.Pending.Sorted()) == 0 {
			return
		}
	}
}

// readAdvertisedRoutes fills in what a gateway advertises to its BGP
// peers, on a copy of the gateway (the Reader's is shared).
func (r *Reader) readAdvertisedRoutes(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	gw := n.Gateway(ev.ID)
	mu.Unlock()
	if gw == nil {
		return
	}
	routes, known := r.AdvertisedRoutes(ctx, gw)
	cp := *gw
	cp.Advertised, cp.AdvertisedKnown = routes, known
	mu.Lock()
	n.Gateways[cp.ID.Key()] = &cp
	mu.Unlock()
}

// readApplianceNIC adds the NIC holding an appliance's address, with its
// security group. No NIC there (a load balancer frontend, Azure Firewall)
// adds nothing; a NIC of the subnet that could not be read is a gap on it.
func (r *Reader) readApplianceNIC(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	v := n.VNet(ev.ID)
	mu.Unlock()
	nic, err := r.NICByAddress(ctx, v, ev.Addr)
	if err != nil || nic == nil {
		return
	}
	mu.Lock()
	n.NICs[nic.ID.Key()] = nic
	mu.Unlock()
	if !nic.NSGID.IsZero() {
		r.includeSecurityGroup(ctx, n, mu, nic.NSGID)
	}
}
