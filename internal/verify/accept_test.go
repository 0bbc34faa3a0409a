// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const acceptToday = model.Date("2026-06-15")

// applianceFacts is the appliance hub: every path of both pools leaves
// through a third-party appliance, so each is unverified
// (EGRESS_UNVERIFIED on the appliance's NIC), with accept blocks.
func applianceFacts(blocks ...model.Acceptance) (model.Facts, *fakeTracer) {
	f := baselineFacts()
	publicRegistry(&f)
	loadBalancerEgress(&f, "-")
	f.Acceptances = model.Acceptances{Blocks: blocks, Today: acceptToday, Named: []model.ResourceID{clusterID, registryID}}
	return f, exitThrough(nvaSubnetID, nvaNICID, "10.0.1.4")
}

func egressBlock(edit func(*model.Acceptance)) model.Acceptance {
	b := model.Acceptance{Code: model.EgressUnverified, Reason: "appliance owned by the security team, ticket NET-42", Expires: "2026-12-31"}
	if edit != nil {
		edit(&b)
	}
	return b
}

// TestAcceptMatchers: a block accepts the findings of its code whose
// resource, node pool and endpoint equal the ones it gives (case-
// insensitively, all given must match), and the verdict and the paths'
// verdicts follow the findings it leaves.
func TestAcceptMatchers(t *testing.T) {
	f, tr := applianceFacts()
	plain := Verify(f, tr)
	all := findingsWith(plain, model.EgressUnverified)
	if len(all) != 4 || plain.Verdict != model.Unverified {
		t.Fatalf("appliance facts: want 4 EGRESS_UNVERIFIED and unverified, got %v %s", codesOf(plain), plain.Verdict)
	}
	host := all[0].Endpoint
	tests := []struct {
		name string
		edit func(*model.Acceptance)
		// accepted is which findings (pool/endpoint) the block accepts.
		accepted func(model.Finding) bool
		verdict  model.Verdict
		unused   bool
	}{
		{name: "code only: every finding of the code", accepted: func(model.Finding) bool { return true }, verdict: model.Reachable},
		{name: "node pool, in another case", edit: func(b *model.Acceptance) { b.NodePool = "USER" },
			accepted: func(x model.Finding) bool { return x.NodePool == "user" }, verdict: model.Unverified},
		{name: "endpoint, in another case and with a trailing dot", edit: func(b *model.Acceptance) { b.Endpoint = strings.ToUpper(host) + "." },
			accepted: func(x model.Finding) bool { return x.Endpoint == host }, verdict: model.Unverified},
		{name: "resource id, in another case", edit: func(b *model.Acceptance) { b.ResourceID = model.ResourceID(strings.ToUpper(string(nvaNICID))) },
			accepted: func(model.Finding) bool { return true }, verdict: model.Reachable},
		{name: "pool and endpoint together: only that pool's host", edit: func(b *model.Acceptance) { b.NodePool, b.Endpoint = "system", host },
			accepted: func(x model.Finding) bool { return x.NodePool == "system" && x.Endpoint == host }, verdict: model.Unverified},
		{name: "another resource: nothing", edit: func(b *model.Acceptance) { b.ResourceID = nvaNICID + "2" },
			accepted: func(model.Finding) bool { return false }, verdict: model.Unverified, unused: true},
		{name: "a pool that matches and a host that does not: nothing", edit: func(b *model.Acceptance) { b.NodePool, b.Endpoint = "user", "other.example.com" },
			accepted: func(model.Finding) bool { return false }, verdict: model.Unverified, unused: true},
		{name: "another code: nothing", edit: func(b *model.Acceptance) { b.Code = model.RouteBlackhole },
			accepted: func(model.Finding) bool { return false }, verdict: model.Unverified, unused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, tr := applianceFacts(egressBlock(tt.edit))
			res := Verify(f, tr)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			fs := findingsWith(res, model.EgressUnverified)
			if len(fs) != 4 {
				t.Fatalf("accepting must keep every finding and its code: %d EGRESS_UNVERIFIED", len(fs))
			}
			for _, x := range fs {
				want := tt.accepted(x)
				switch {
				case want && (x.Accepted == nil || x.Severity != model.SeverityInfo):
					t.Errorf("%s: not accepted (severity %s)", Where(x), x.Severity)
				case want && (x.Accepted.Reason != "appliance owned by the security team, ticket NET-42" || x.Accepted.Expires != "2026-12-31"):
					t.Errorf("%s: accepted %+v, want the block's reason and expiry", Where(x), *x.Accepted)
				case !want && (x.Accepted != nil || x.Severity != model.SeverityWarning):
					t.Errorf("%s: accepted by a block that does not match it", Where(x))
				}
			}
			for _, p := range res.Paths {
				var open bool
				for _, x := range fs {
					if x.NodePool == p.NodePool && x.Endpoint == p.Host && x.Accepted == nil {
						open = true
					}
				}
				want := model.Reachable
				if open {
					want = model.Unverified
				}
				if p.Verdict != want {
					t.Errorf("path %s → %s: verdict %s, want %s", p.NodePool, p.Host, p.Verdict, want)
				}
			}
			if got := len(findingsWith(res, model.CoverageAcceptanceUnused)) == 1; got != tt.unused {
				t.Errorf("COVERAGE_ACCEPTANCE_UNUSED reported %v, want %v: %v", got, tt.unused, codesOf(res))
			}
			if len(findingsWith(res, model.CoverageAcceptanceExpired)) != 0 {
				t.Errorf("a block in force reported as expired")
			}
		})
	}
}

// TestAcceptExpiry: a block is in force through its expires day and
// expired from the next; an expired block accepts nothing, and its warning
// alone leaves the verdict to the other findings.
func TestAcceptExpiry(t *testing.T) {
	t.Run("on the expiry day the block is in force", func(t *testing.T) {
		f, tr := applianceFacts(egressBlock(func(b *model.Acceptance) { b.Expires = acceptToday }))
		res := Verify(f, tr)
		if res.Verdict != model.Reachable || len(findingsWith(res, model.CoverageAcceptanceExpired)) != 0 {
			t.Errorf("verdict %s, codes %v", res.Verdict, codesOf(res))
		}
	})
	t.Run("the day after, it is expired and the findings decide again", func(t *testing.T) {
		f, tr := applianceFacts(egressBlock(func(b *model.Acceptance) { b.Expires = acceptToday.AddDays(-1) }))
		res := Verify(f, tr)
		if res.Verdict != model.Unverified {
			t.Errorf("verdict %s, want unverified", res.Verdict)
		}
		for _, x := range findingsWith(res, model.EgressUnverified) {
			if x.Accepted != nil || x.Severity != model.SeverityWarning {
				t.Errorf("%s accepted by an expired block", Where(x))
			}
		}
		exp := findingsWith(res, model.CoverageAcceptanceExpired)
		if len(exp) != 1 || exp[0].Severity != model.SeverityWarning || exp[0].Owner != model.OwnerOperator {
			t.Fatalf("want one COVERAGE_ACCEPTANCE_EXPIRED warning, got %+v", exp)
		}
		requireContains(t, exp[0].Message, "2026-06-14", "2026-06-15", "EGRESS_UNVERIFIED", "ticket NET-42", "decide the verdict again")
		if len(findingsWith(res, model.CoverageAcceptanceUnused)) != 0 {
			t.Errorf("an expired block is reported as expired, not also unused")
		}
	})
	t.Run("an expired block alone does not make a reachable verdict unverified", func(t *testing.T) {
		f := baselineFacts()
		f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{egressBlock(func(b *model.Acceptance) { b.Expires = "2025-01-01" })}}
		res := verifyFake(t, f, nil)
		if res.Verdict != model.Reachable {
			t.Errorf("verdict %s, want reachable: %v", res.Verdict, codesOf(res))
		}
		exp := findingsWith(res, model.CoverageAcceptanceExpired)
		if len(exp) != 1 {
			t.Fatalf("codes %v", codesOf(res))
		}
		requireContains(t, exp[0].Message, "matches no finding today either")
		for _, p := range res.Paths {
			if p.Verdict != model.Reachable {
				t.Errorf("path %s → %s: %s", p.NodePool, p.Host, p.Verdict)
			}
		}
	})
	t.Run("without a day, no block is judged", func(t *testing.T) {
		f, tr := applianceFacts(egressBlock(nil))
		f.Acceptances.Today = ""
		res := Verify(f, tr)
		if res.Verdict != model.Unverified || len(findingsWith(res, model.CoverageAcceptanceUnused)) != 0 {
			t.Errorf("verdict %s, codes %v", res.Verdict, codesOf(res))
		}
	})
}

// TestAcceptUnused: a block in force that accepts nothing is reported
// (info), saying why; the verdict does not change.
func TestAcceptUnused(t *testing.T) {
	t.Run("matches nothing", func(t *testing.T) {
		f := baselineFacts()
		f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{egressBlock(nil)}}
		res := verifyFake(t, f, nil)
		u := findingsWith(res, model.CoverageAcceptanceUnused)
		if res.Verdict != model.Reachable || len(u) != 1 || u[0].Severity != model.SeverityInfo {
			t.Fatalf("verdict %s, unused %+v", res.Verdict, u)
		}
		requireContains(t, u[0].Message, `code = "EGRESS_UNVERIFIED"`, "matches no finding")
	})
	t.Run("a second block matching what the first accepts", func(t *testing.T) {
		f, tr := applianceFacts(egressBlock(nil), egressBlock(func(b *model.Acceptance) { b.NodePool = "user" }))
		res := Verify(f, tr)
		u := findingsWith(res, model.CoverageAcceptanceUnused)
		if res.Verdict != model.Reachable || len(u) != 1 || u[0].NodePool != "user" {
			t.Fatalf("verdict %s, unused %+v", res.Verdict, u)
		}
		requireContains(t, u[0].Message, "an earlier accept block already accepts")
	})
	t.Run("two blocks that match nothing are two findings", func(t *testing.T) {
		f := baselineFacts()
		f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{
			egressBlock(nil), egressBlock(func(b *model.Acceptance) { b.Code = model.RouteBlackhole }),
		}}
		if u := findingsWith(verifyFake(t, f, nil), model.CoverageAcceptanceUnused); len(u) != 2 {
			t.Errorf("unused findings %d, want 2", len(u))
		}
	})
}

// TestAcceptError: an accepted error decides no verdict either: the path
// it stopped is reachable as accepted.
func TestAcceptError(t *testing.T) {
	f := baselineFacts()
	tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): blackhole("10.0.2.5"), ip("10.0.2.6"): blackhole("10.0.2.6")}}
	if res := verifyFake(t, f, tr); res.Verdict != model.Unreachable {
		t.Fatalf("blackhole facts: verdict %s", res.Verdict)
	}
	f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{{Code: model.RouteBlackhole, Reason: "pool drained", Expires: "2026-07-01"}}}
	tr.queries = nil
	res := verifyFake(t, f, tr)
	if res.Verdict != model.Reachable {
		t.Errorf("verdict %s, want reachable: %v", res.Verdict, codesOf(res))
	}
	for _, x := range findingsWith(res, model.RouteBlackhole) {
		if x.Accepted == nil || x.Severity != model.SeverityInfo {
			t.Errorf("%s not accepted", Where(x))
		}
	}
	for _, p := range res.Paths {
		if p.Verdict != model.Reachable {
			t.Errorf("path %s → %s: %s", p.NodePool, p.Host, p.Verdict)
		}
	}
	// An accepted finding is no cause of a failure, but it is not silent:
	// the diagnostics list it on a line of its own.
	if r := FailureReport(res); strings.Contains(r, "] ROUTE_BLACKHOLE") || !strings.Contains(r, "Accepted findings") {
		t.Errorf("the failure report lists an accepted finding as a cause, or not at all:\n%s", r)
	}
	if r := AcceptedReport(res.Findings); !strings.Contains(r, "ROUTE_BLACKHOLE — node pool") || !strings.Contains(r, "until 2026-07-01 — pool drained") {
		t.Errorf("the accepted findings are not listed:\n%s", r)
	}
	if AcceptedReport(nil) != "" {
		t.Error("AcceptedReport of no accepted finding is not empty")
	}
}

// TestUnacceptable: evidence about a resource the verification is asked
// about (or a child resource of it) cannot be accepted; other evidence,
// extension resources and other codes can.
func TestUnacceptable(t *testing.T) {
	named := []model.ResourceID{clusterID, registryID}
	tests := []struct {
		code     model.Code
		resource model.ResourceID
		refused  bool
	}{
		{model.EvidenceNotFound, clusterID, true},
		{model.EvidencePermissionDenied, model.ResourceID(strings.ToUpper(string(registryID))), true},
		{model.EvidenceNotFound, clusterID + "/agentPools/gpu", true},
		{model.EvidenceUnavailable, registryID + "/replications", true},
		{model.EvidencePermissionDenied, registryID + "/providers/Microsoft.Authorization/roleAssignments", false},
		{model.EvidenceNotFound, registryID + "2", false},
		{model.EvidencePermissionDenied, nvaNICID, false},
		{model.EvidenceNotFound, "", false},
		{model.EgressUnverified, registryID, false},
		{model.CoverageAcceptanceUnused, "", true},
		{model.CoverageAcceptanceExpired, "", true},
	}
	for _, tt := range tests {
		if got := Unacceptable(tt.code, tt.resource, named) != ""; got != tt.refused {
			t.Errorf("Unacceptable(%s, %s) = %v, want %v", tt.code, tt.resource, got, tt.refused)
		}
	}
}

// TestAcceptRefusesNamedEvidence: a block matching evidence about the
// cluster leaves it as it is, the finding says why, and the block is
// unused with the reason; evidence about another resource is accepted.
func TestAcceptRefusesNamedEvidence(t *testing.T) {
	aboutPool := model.NewFinding(model.EvidenceNotFound, "gpu", "", clusterID+"/agentPools/gpu", "node pool gpu not found", "Check node_pools.")
	aboutNIC := model.NewFinding(model.EvidencePermissionDenied, "user", "", nvaNICID, "nic-vm-nva refused", "Grant Reader.")
	acc := model.Acceptances{Today: acceptToday, Named: []model.ResourceID{clusterID, registryID}, Blocks: []model.Acceptance{
		{Code: model.EvidenceNotFound, Reason: "pool being created", Expires: "2026-07-01"},
		{Code: model.EvidencePermissionDenied, Reason: "the hub NIC is another tenant's", Expires: "2026-07-01"},
	}}
	out, blocks, _ := acceptAll([]model.Finding{aboutPool, aboutNIC}, acc)
	if out[0].Accepted != nil || out[0].Severity != model.SeverityWarning {
		t.Errorf("evidence about the cluster's pool was accepted")
	}
	requireContains(t, out[0].Remediation, "Check node_pools.", "cannot accept it", "asked to check")
	if out[1].Accepted == nil || out[1].Severity != model.SeverityInfo {
		t.Errorf("evidence about another resource was not accepted")
	}
	if len(blocks) != 1 || blocks[0].Code != model.CoverageAcceptanceUnused {
		t.Fatalf("block findings %+v", blocks)
	}
	requireContains(t, blocks[0].Message, "cannot be accepted", "EVIDENCE_NOT_FOUND on node pool gpu")
	if model.VerdictOf(out) != model.Unverified {
		t.Errorf("verdict %s: the refused evidence must still decide", model.VerdictOf(out))
	}
}

// TestAcceptedSummary: the summary lists accepted findings one line per
// code, reason and expiry with every pool and host it concerns, and not
// among the findings by owner.
func TestAcceptedSummary(t *testing.T) {
	f, tr := applianceFacts(egressBlock(nil))
	res := Verify(f, tr)
	requireContains(t, res.Summary, "Accepted findings", "EGRESS_UNVERIFIED — node pools system, user → ", "until 2026-12-31 — appliance owned by the security team, ticket NET-42")
	if _, byOwner, _ := strings.Cut(res.Summary, "Findings by owner"); strings.Contains(byOwner, "EGRESS_UNVERIFIED") {
		t.Errorf("accepted findings listed again by owner:\n%s", res.Summary)
	}
	if n := strings.Count(res.Summary, "EGRESS_UNVERIFIED — node pool"); n != 1 {
		t.Errorf("%d accepted entries, want one folded over both pools:\n%s", n, res.Summary)
	}
	plain, _ := applianceFacts()
	if s := Verify(plain, tr).Summary; strings.Contains(s, "Accepted findings") {
		t.Errorf("a summary without accept blocks lists accepted findings")
	}
}

// TestAcceptBlameGaps: an evidence finding the what-if blame adds after
// Verify (WithBlameGaps) is accepted by a block that matches it, as the
// same finding of the result would be: the verdict stays reachable and the
// block is no longer reported unused. A block that does not match it
// leaves it deciding the verdict, and stays unused.
func TestAcceptBlameGaps(t *testing.T) {
	gap := BlameGap{Finding: model.NewFinding(model.EvidencePermissionDenied, "system", "", nvaNICID,
		"reading network interface nic-vm-nva was refused.", "Grant Reader on it.")}
	block := func(resource model.ResourceID) model.Acceptance {
		return model.Acceptance{Code: model.EvidencePermissionDenied, ResourceID: resource, Reason: "another tenant's appliance", Expires: "2026-07-01"}
	}
	t.Run("matching block accepts the gap", func(t *testing.T) {
		f := baselineFacts()
		f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{block(nvaNICID)}}
		res := verifyFake(t, f, nil)
		if u := findingsWith(res, model.CoverageAcceptanceUnused); len(u) != 1 {
			t.Fatalf("before the gap: unused %+v, want the block unused", u)
		}
		got := WithBlameGaps(f, res, []BlameGap{gap})
		ev := findingsWith(got, model.EvidencePermissionDenied)
		if len(ev) != 1 || ev[0].Accepted == nil || ev[0].Severity != model.SeverityInfo {
			t.Fatalf("blame gap not accepted: %+v", ev)
		}
		requireContains(t, ev[0].Message, "there a read failed")
		if u := findingsWith(got, model.CoverageAcceptanceUnused); len(u) != 0 {
			t.Errorf("the block that accepts the gap is still reported unused: %+v", u)
		}
		if got.Verdict != model.Reachable {
			t.Errorf("verdict %s, want reachable (the only problem is accepted)", got.Verdict)
		}
		if u := findingsWith(res, model.CoverageAcceptanceUnused); len(u) != 1 {
			t.Errorf("WithBlameGaps changed the result it was given: unused %+v", u)
		}
	})
	t.Run("other block leaves it deciding", func(t *testing.T) {
		f := baselineFacts()
		f.Acceptances = model.Acceptances{Today: acceptToday, Blocks: []model.Acceptance{block(registryID)}}
		got := WithBlameGaps(f, verifyFake(t, f, nil), []BlameGap{gap})
		ev := findingsWith(got, model.EvidencePermissionDenied)
		if len(ev) != 1 || ev[0].Accepted != nil || ev[0].Severity != model.SeverityWarning {
			t.Fatalf("blame gap: %+v, want it unaccepted", ev)
		}
		if u := findingsWith(got, model.CoverageAcceptanceUnused); len(u) != 1 {
			t.Errorf("unused %+v, want the block still unused", u)
		}
		if got.Verdict != model.Unverified {
			t.Errorf("verdict %s, want unverified", got.Verdict)
		}
	})
}
