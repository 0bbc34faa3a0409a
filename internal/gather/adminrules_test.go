// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestAdminRulesReadInRounds: the facts hold the security admin rules of
// the node VNet and leave those of every other VNet pending, unread; the
// evidence reader reads exactly the one asked for, and a VNet read, failed
// or pending is never marked again.
func TestAdminRulesReadInRounds(t *testing.T) {
	r, ct := newReader(t, "baseline_ok")
	f, err := r.VerificationFacts(testCtx(t), VerificationRequest{ClusterID: aks1, RegistryID: acr})
	if err != nil {
		t.Fatal(err)
	}
	n := f.Network
	if _, read := n.AdminRules[vnetSpoke.Key()]; !read {
		t.Fatalf("the node VNet's admin rules were not read with the facts: %v", n.AdminRules)
	}
	if n.Pending.Has(model.AdminRulesEvidenceOf(vnetSpoke)) {
		t.Error("the node VNet's admin rules are pending although they were read")
	}
	hub := model.AdminRulesEvidenceOf(vnetHub)
	if !n.Pending.Has(hub) {
		t.Fatalf("the hub's admin rules are not pending after the facts: %v", n.Pending.Sorted())
	}
	if c := ct.count("POST", model.AdminRulesAction(vnetHub)); c != 0 {
		t.Fatalf("the hub's admin rules were read %d times before a path reached the hub", c)
	}
	if got := r.ReadVerificationEvidence(testCtx(t), &f, []model.Evidence{hub}); got != 1 || n.Pending.Has(hub) {
		t.Fatalf("reading the hub's admin rules settled %d, still pending %v", got, n.Pending.Sorted())
	}
	if c := ct.count("POST", model.AdminRulesAction(vnetHub)); c != 1 {
		t.Errorf("the hub's admin rules were read %d times, want 1", c)
	}
	if _, read := n.AdminRules[vnetHub.Key()]; !read {
		t.Errorf("the hub's admin rules are not in the network after the read")
	}
	requireNoGaps(t, r)
	// Read already: marking again leaves them alone.
	markAdminRulesPending(n, []model.ResourceID{vnetHub, vnetSpoke})
	if n.Pending.Has(hub) || n.Pending.Has(model.AdminRulesEvidenceOf(vnetSpoke)) {
		t.Errorf("read admin rules marked pending again: %v", n.Pending.Sorted())
	}
	// A failed read is a gap, not pending again.
	other := model.ResourceID(string(vnetHub) + "-2")
	n.Gaps.Add(model.Gap{ResourceID: model.AdminRulesAction(other), Kind: model.GapPermissionDenied})
	markAdminRulesPending(n, []model.ResourceID{other})
	if n.Pending.Has(model.AdminRulesEvidenceOf(other)) {
		t.Error("admin rules whose read failed were marked pending again")
	}
	// A network built without admin rules carries none to mark.
	bare := model.NewNetwork()
	bare.AdminRules = nil
	markAdminRulesPending(bare, []model.ResourceID{vnetHub})
	if bare.Pending.Has(hub) {
		t.Error("a network without admin rules had them marked pending")
	}
}
