// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// FailureReport is the detail of the diagnostic that fails a plan, short
// enough to read in a CI log, every line at most DiagnosticWidth columns:
// the verdict; the findings that decide it, one entry per cause (ByCause)
// by owner in chain order, each with the pools and hosts it concerns, what
// is wrong (the message of its first finding: the concrete route, record
// or rule), the fix and the resource; the accepted findings, one line
// each; the codes of the other warnings; and where the detail is (the
// summary and findings attributes, the report_dir files). Other notes are
// left out.
func FailureReport(res Result) string {
	p := &page{width: DiagnosticWidth}
	switch res.Verdict {
	case model.Unreachable:
		p.para("", "", "The node pools cannot pull from the registry: a fresh node would fail before the pod exists.")
	case model.Unverified:
		p.para("", "", "Whether the node pools can pull from the registry is unverified: some evidence is missing or cannot be read from Azure.")
	default:
		p.para("", "", "Every node pool can pull from the registry.")
	}
	deciding, others := decidingFindings(res)
	causes := 0
	for _, g := range byOwner(deciding) {
		causes += len(ByCause(g.findings))
	}
	p.para("", "", fmt.Sprintf("Verdict %s: %s from %s.", res.Verdict, plural(len(deciding), string(severityOf(deciding))), plural(causes, "cause")))
	for _, g := range byOwner(deciding) {
		for _, c := range ByCause(g.findings) {
			p.blank()
			writeCause(p, "", "["+string(g.owner)+"]", c, causeMessage)
		}
	}
	writeAccepted(p, res.Findings)
	p.blank()
	if len(others) > 0 {
		p.para("", "", fmt.Sprintf("Also %s that %s not decide the verdict: %s.", plural(len(others), "warning"), doOrDoes(len(others)), codeList(others)))
	}
	p.para("", "", "Detail: the summary attribute has each path with its lookup and hops and what "+
		"each finding sees; the findings attribute has every field; with report_dir set, so do "+
		"the report files there.")
	return p.String()
}

// WarningReport is the detail of the warning diagnostic of one cause
// (ByCause) when the plan does not fail: owner, code, the pools and hosts
// it concerns, the message of its first finding, the fix and the resource.
func WarningReport(c []model.Finding) string {
	p := &page{width: DiagnosticWidth}
	writeCause(p, "", "["+string(c[0].Owner)+"]", c, causeDetail)
	return p.String()
}

// AcceptedReport lists the findings accept blocks matched, one line per
// cause: the code, the pools and hosts, until when and why. "" when no
// finding was accepted. A plan that passes because of them says so.
func AcceptedReport(fs []model.Finding) string {
	p := &page{width: DiagnosticWidth}
	writeAccepted(p, fs)
	return strings.Trim(p.String(), "\n")
}

// decidingFindings splits the errors and warnings of res: those that
// decide its verdict (model.VerdictOf of the finding alone is the verdict)
// and the others. Notes are in neither.
func decidingFindings(res Result) (deciding, others []model.Finding) {
	for _, f := range res.Findings {
		switch {
		case f.Severity == model.SeverityInfo:
		case res.Verdict != model.Reachable && model.VerdictOf([]model.Finding{f}) == res.Verdict:
			deciding = append(deciding, f)
		default:
			others = append(others, f)
		}
	}
	return deciding, others
}

// severityOf names what the deciding findings are: errors, or warnings.
func severityOf(fs []model.Finding) model.Severity {
	for _, f := range fs {
		if f.Severity == model.SeverityError {
			return model.SeverityError
		}
	}
	return model.SeverityWarning
}

// codeList is the distinct codes of fs in order, with how many findings
// each has when more than one: "DNS_RESOLVES_PUBLIC (2), EVIDENCE_NOT_FOUND".
func codeList(fs []model.Finding) string {
	var codes []model.Code
	count := map[model.Code]int{}
	for _, f := range fs {
		if count[f.Code] == 0 {
			codes = append(codes, f.Code)
		}
		count[f.Code]++
	}
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = string(c)
		if count[c] > 1 {
			parts[i] += fmt.Sprintf(" (%d)", count[c])
		}
	}
	return strings.Join(parts, ", ")
}

func doOrDoes(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}
