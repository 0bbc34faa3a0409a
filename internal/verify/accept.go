// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The accept blocks of pullpath_verification (model.Acceptances), applied
// to the findings once they are computed and before any verdict:
//
//   - a block matches a finding of its code whose resource, node pool and
//     endpoint equal the block's resource_id, node_pool and endpoint, each
//     given one compared case-insensitively (all given must match; an
//     omitted one matches anything);
//   - the first block in configuration order that is in force (today is on
//     or before its expires day) and matches a finding accepts it: the
//     finding keeps its code, gets Accepted (the block's reason and
//     expiry) and severity info, and decides no verdict (model.VerdictOf),
//     neither the verification's nor its path's — a path whose only
//     problems were accepted is reachable, as accepted, not as proven;
//   - an evidence finding about a resource the verification was asked
//     about (Acceptances.Named: the cluster or the node subnets, the
//     registry, and their child resources) cannot be accepted: a check that
//     cannot read what it was asked about proves nothing. A block matching
//     it leaves it as it is and the finding says why;
//   - a block past its expires day accepts nothing and is reported as
//     COVERAGE_ACCEPTANCE_EXPIRED (a warning that decides no verdict: the
//     findings it matched decide again);
//   - a block in force that accepts no finding is reported as
//     COVERAGE_ACCEPTANCE_UNUSED (info), saying why when it matched only
//     findings that cannot be accepted.
//
// Accepting depends only on the blocks, the day and the finding's code,
// pool, endpoint and resource, so the same facts give the same findings.

// acceptance is the outcome of the blocks for one finding.
type acceptance struct {
	finding model.Finding
	// by is the block that accepted it, -1 when none did.
	by int
	// matched are the blocks that match it (in force or expired),
	// refused those of them that may not accept it.
	matched, refused []int
}

// acceptOne applies the blocks to one finding.
func acceptOne(f model.Finding, acc model.Acceptances) acceptance {
	out := acceptance{finding: f, by: -1}
	if acc.Today.IsZero() {
		return out
	}
	for i, b := range acc.Blocks {
		if !acceptMatches(b, f) {
			continue
		}
		out.matched = append(out.matched, i)
		if b.Expired(acc.Today) || out.by >= 0 {
			continue
		}
		if why := Unacceptable(f.Code, f.ResourceID, acc.Named); why != "" {
			out.refused = append(out.refused, i)
			continue
		}
		out.by = i
		out.finding.Severity = model.SeverityInfo
		out.finding.Accepted = &model.Accepted{Reason: b.Reason, Expires: b.Expires}
	}
	if len(out.refused) > 0 && out.by < 0 {
		b := acc.Blocks[out.refused[0]]
		out.finding.Remediation += fmt.Sprintf(" (The block %s matches this finding but cannot accept it: %s)",
			b.Label(), Unacceptable(f.Code, f.ResourceID, acc.Named))
	}
	return out
}

// acceptMatches reports whether block b matches finding f: the same code,
// and every matcher the block gives equal to the finding's, ignoring case
// (and a trailing dot of a hostname).
func acceptMatches(b model.Acceptance, f model.Finding) bool {
	if b.Code != f.Code {
		return false
	}
	if !b.ResourceID.IsZero() && !b.ResourceID.Equal(f.ResourceID) {
		return false
	}
	if b.NodePool != "" && !strings.EqualFold(b.NodePool, f.NodePool) {
		return false
	}
	if b.Endpoint != "" && !strings.EqualFold(strings.TrimSuffix(b.Endpoint, "."), strings.TrimSuffix(f.Endpoint, ".")) {
		return false
	}
	return true
}

// Unacceptable says why a finding of code about resource cannot be
// accepted, "" when it can: an evidence finding (EVIDENCE_*) about one of
// the named resources or a child resource of one (…/agentPools/x,
// …/replications; not an extension resource under /providers/), and the
// findings about accept blocks themselves. The data source asks the same
// of a block at validation, when the block's resource_id names the
// resource.
func Unacceptable(code model.Code, resource model.ResourceID, named []model.ResourceID) string {
	switch code {
	case model.CoverageAcceptanceExpired, model.CoverageAcceptanceUnused:
		return string(code) + " is about an accept block itself: change or delete that block instead"
	}
	if model.Catalogue[code].Condition != model.ConditionEvidence || resource.IsZero() {
		return ""
	}
	for _, n := range named {
		if n.IsZero() {
			continue
		}
		rest, under := strings.CutPrefix(resource.Key(), n.Key())
		if rest == "" || (under && strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "/providers/")) {
			return fmt.Sprintf("it is about %s, which this verification was asked to check, and a verification that cannot read "+
				"what it was asked about proves nothing; fix the read (the id, or the identity's permission) instead", n)
		}
	}
	return ""
}

// acceptAll applies the blocks to every finding, keeping their order, and
// returns the findings about the blocks themselves (expired, unused), one
// per block that needs one, in block order, with the tally they were
// decided from (WithBlameGaps adds findings to it later).
func acceptAll(fs []model.Finding, acc model.Acceptances) (out, blocks []model.Finding, t *acceptTally) {
	t = newAcceptTally(acc)
	out = make([]model.Finding, len(fs))
	for i, f := range fs {
		out[i] = t.add(f)
	}
	return out, t.blockFindings(), t
}

// acceptTally is what the blocks did to the findings so far: per block,
// how many findings it accepted and which it matched or was refused. The
// block findings depend on every finding of the result, so a finding added
// after Verify (a what-if blame gap) goes through the same tally.
type acceptTally struct {
	acc              model.Acceptances
	accepted         []int
	matched, refused [][]model.Finding
}

func newAcceptTally(acc model.Acceptances) *acceptTally {
	return &acceptTally{acc: acc, accepted: make([]int, len(acc.Blocks)),
		matched: make([][]model.Finding, len(acc.Blocks)), refused: make([][]model.Finding, len(acc.Blocks))}
}

// add applies the blocks to f, counts what they did, and returns f as they
// leave it.
func (t *acceptTally) add(f model.Finding) model.Finding {
	a := acceptOne(f, t.acc)
	if a.by >= 0 {
		t.accepted[a.by]++
	}
	for _, b := range a.matched {
		t.matched[b] = append(t.matched[b], f)
	}
	for _, b := range a.refused {
		t.refused[b] = append(t.refused[b], f)
	}
	return a.finding
}

// blockFindings are the findings about the blocks (expired, unused), one
// per block that needs one, in block order.
func (t *acceptTally) blockFindings() []model.Finding {
	if t.acc.Today.IsZero() {
		return nil
	}
	var blocks []model.Finding
	for i, b := range t.acc.Blocks {
		switch {
		case b.Expired(t.acc.Today):
			blocks = append(blocks, expiredFinding(b, t.acc.Today, t.matched[i]))
		case t.accepted[i] == 0:
			blocks = append(blocks, unusedFinding(b, t.matched[i], t.refused[i], t.acc.Named))
		}
	}
	return blocks
}

// expiredFinding is COVERAGE_ACCEPTANCE_EXPIRED for block b.
func expiredFinding(b model.Acceptance, today model.Date, matched []model.Finding) model.Finding {
	msg := fmt.Sprintf("The block %s expired on %s (today is %s, UTC): it accepts nothing any more", b.Label(), b.Expires, today)
	if len(matched) > 0 {
		msg += fmt.Sprintf(", so the %s it matches (%s) decide the verdict again", plural(len(matched), "finding"), findingsWhere(matched))
	} else {
		msg += ", and it matches no finding today either"
	}
	msg += ". It was accepted because: " + strings.TrimRight(b.Reason, ".") + "."
	fix := "Fix what the findings say, then delete the block; or, if the owners decide to live with them longer, " +
		"set expires to a new date (at most 366 days ahead) with the reason. This warning does not make the verdict unverified by itself."
	if len(matched) == 0 {
		fix = "Delete the block: the problem it accepted is gone."
	}
	return model.NewFinding(model.CoverageAcceptanceExpired, b.NodePool, b.Endpoint, b.ResourceID, msg, fix)
}

// unusedFinding is COVERAGE_ACCEPTANCE_UNUSED for block b, which is in
// force and accepted nothing.
func unusedFinding(b model.Acceptance, matched, refused []model.Finding, named []model.ResourceID) model.Finding {
	msg := fmt.Sprintf("The block %s (until %s) matches no finding of this verification: the problem it accepted is gone, "+
		"or its matchers name another resource, pool or host than the findings do.", b.Label(), b.Expires)
	fix := "Delete the block; if the finding is expected to come back, compare its code, resource_id, node_pool and endpoint with the findings."
	switch {
	case len(refused) > 0:
		msg = fmt.Sprintf("The block %s (until %s) accepts nothing: the only findings it matches (%s) cannot be accepted, because %s.",
			b.Label(), b.Expires, findingsWhere(refused), Unacceptable(refused[0].Code, refused[0].ResourceID, named))
		fix = "Delete the block and fix the read the findings name."
	case len(matched) > 0:
		// Every finding it matches was accepted by an earlier block.
		msg = fmt.Sprintf("The block %s (until %s) accepts nothing: an earlier accept block already accepts every finding it matches (%s).",
			b.Label(), b.Expires, findingsWhere(matched))
		fix = "Delete one of the two blocks."
	}
	return model.NewFinding(model.CoverageAcceptanceUnused, b.NodePool, b.Endpoint, b.ResourceID, msg, fix)
}

// findingsWhere lists findings as "CODE on node pool p, host; …", each once.
func findingsWhere(fs []model.Finding) string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		s := string(f.Code) + " on " + Where(f)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// writeAccepted writes the accepted findings folded: one entry per code,
// reason and expiry, with every pool and host it concerns (Where).
func writeAccepted(p *page, fs []model.Finding) {
	type key struct {
		code          model.Code
		reason        string
		expires       model.Date
		plannedChange string
	}
	var order []key
	groups := map[key][]model.Finding{}
	for _, f := range fs {
		if f.Accepted == nil {
			continue
		}
		k := key{f.Code, f.Accepted.Reason, f.Accepted.Expires, f.PlannedChange}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	if len(order) == 0 {
		return
	}
	p.blank()
	p.para("", "  ", "Accepted findings (accept blocks; they decide no verdict)")
	for _, k := range order {
		p.para("  ", "    ", fmt.Sprintf("%s — %s — until %s — %s", k.code, Where(groups[k]...), k.expires, k.reason))
	}
}

// notAccepted are the findings no accept block accepted, in order.
func notAccepted(fs []model.Finding) []model.Finding {
	out := make([]model.Finding, 0, len(fs))
	for _, f := range fs {
		if f.Accepted == nil {
			out = append(out, f)
		}
	}
	return out
}

// acceptPaths gives every path with an accepted finding the verdict of its
// findings as the blocks leave them (model.VerdictOf skips the accepted
// ones); other paths keep theirs.
func (r *run) acceptPaths() {
	acc := r.f.Acceptances
	if len(acc.Blocks) == 0 || acc.Today.IsZero() {
		return
	}
	for i := range r.paths {
		fs := make([]model.Finding, len(r.pathFindings[i]))
		changed := false
		for j, f := range r.pathFindings[i] {
			fs[j] = acceptOne(f, acc).finding
			changed = changed || fs[j].Accepted != nil
		}
		if changed {
			r.paths[i].Verdict = model.VerdictOf(fs)
		}
	}
}
