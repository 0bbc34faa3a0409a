// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"

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
// the verdict unverified, never reachable; the summary is rendered again.
// A gap whose finding the result already has adds nothing.
func WithBlameGaps(f model.Facts, res Result, gaps []BlameGap) Result {
	if len(gaps) == 0 {
		return res
	}
	findings := append([]model.Finding(nil), res.Findings...)
	for _, g := range gaps {
		findings = append(findings, blameGapFinding(g))
	}
	res.Findings = sortFindings(findings)
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
