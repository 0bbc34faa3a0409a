// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"sort"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// BlameGap is an evidence finding of a verification the what-if blame
// compared the result with (the network as it is now, without the plan,
// or without one planned change) that the result does not have: a read
// only that verification made failed, so what it says about the
// finding's node pool (every pool when it names none) is incomplete.
type BlameGap struct {
	// Finding is the compared verification's evidence finding.
	Finding model.Finding
	// Without is the planned change left out, "" for the whole plan.
	Without string
}

// WithBlameGaps adds to res, for every gap, an evidence finding of the
// same code, node pool, host and resource saying that the read failed
// while reading the network the result was compared with, and that which
// planned change causes the findings of that node pool is not concluded
// (docs/design/what-if.md, "Blame"). Like every evidence finding it makes
// the verdict unverified, never reachable, unless an accept block accepts
// it as it would the same finding of the result: the blocks apply to it,
// and the findings about the blocks (an unused block that now accepts a
// gap, say) are decided again. The summary is rendered again. A gap whose
// finding the result already has adds nothing.
func WithBlameGaps(f model.Facts, res Result, gaps []BlameGap) Result {
	if len(gaps) == 0 {
		return res
	}
	var findings []model.Finding
	for _, fd := range res.Findings {
		if res.accepts != nil && (fd.Code == model.CoverageAcceptanceExpired || fd.Code == model.CoverageAcceptanceUnused) {
			continue // decided again below, with the gaps
		}
		findings = append(findings, fd)
	}
	if res.accepts != nil {
		t := *res.accepts
		t.accepted = append([]int(nil), t.accepted...)
		t.matched = append([][]model.Finding(nil), t.matched...)
		t.refused = append([][]model.Finding(nil), t.refused...)
		for _, g := range gaps {
			findings = append(findings, t.add(blameGapFinding(g)))
		}
		res.accepts = &t
		findings = append(sortFindings(findings), t.blockFindings()...)
		sort.SliceStable(findings, func(i, j int) bool { return findingLess(findings[i], findings[j]) })
	} else {
		for _, g := range gaps {
			findings = append(findings, blameGapFinding(g))
		}
		findings = sortFindings(findings)
	}
	res.Findings = findings
	res.Verdict = model.VerdictOf(res.Findings)
	res.Summary = summary(&f, res)
	return res
}

// blameGapFinding is the result's finding for a gap of a compared
// verification: its code and place, what was compared, the compared
// verification's own words about the read, and what is not concluded.
func blameGapFinding(g BlameGap) model.Finding {
	fd := g.Finding
	compared := "as it is now, without the plan"
	if g.Without != "" {
		compared = "without the planned change " + g.Without
	}
	whose := "of every node pool"
	if fd.NodePool != "" {
		whose = "of node pool " + fd.NodePool
	}
	msg := fmt.Sprintf("To tell which findings planned_changes_file causes, the network was also verified %s, and there a read failed: %s "+
		"Whether the plan causes the findings %s, and which planned change does (planned_change), is therefore not concluded.",
		compared, fd.Message, whose)
	return model.NewFinding(fd.Code, fd.NodePool, fd.Endpoint, fd.ResourceID, msg, fd.Remediation)
}
