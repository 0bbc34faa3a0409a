// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// MaxMarkdown is the most characters Markdown returns: a pull request
// comment holds at most 65,536, and the shipped pipelines add a headline.
const MaxMarkdown = 60000

// Markdown is the report for a pull request comment or a CI job summary
// (GitHub's $GITHUB_STEP_SUMMARY, Azure DevOps' task.uploadsummary): a
// heading with the verdict, the accepted findings, what was verified, the
// paths as the Mermaid diagram of the `diagram` attribute, a table of the
// findings with one row per cause (as the summary groups them: the pools
// and hosts one cause concerns share a row), and the `summary` text folded
// away. A verification that checked nothing says so first, with each
// cause. Text from Azure (names, messages) is escaped so that it cannot
// break the table or inject HTML.
//
// The result is at most MaxMarkdown characters and always whole Markdown:
// when the full report is longer, the parts that do not fit are left out
// whole (the folded summary, then table rows from the end, then the
// diagram), each replaced by a line saying so and where to find it (the
// JSON report), so no cut leaves a <details> block or a code fence open.
func Markdown(r Report) []byte {
	head := markdownHead(r)
	diagramPart := "\n### Paths\n\n" + fenced("mermaid", r.Diagram)
	rows, tableHead := findingRows(r)
	summaryPart := "\n<details><summary>Summary</summary>\n\n" + fenced("text", r.Summary) + "\n</details>\n"
	table := func(n int) string {
		var b strings.Builder
		b.WriteString("\n### Findings\n\n")
		if len(rows) == 0 {
			if r.Outcome == OutcomeNotChecked {
				b.WriteString("None: nothing was checked.\n")
			} else {
				b.WriteString("No findings.\n")
			}
			return b.String()
		}
		b.WriteString(tableHead)
		for _, row := range rows[:n] {
			b.WriteString(row)
		}
		if n < len(rows) {
			fmt.Fprintf(&b, "\n%d more causes are not shown here, to fit a pull request comment: the JSON report "+
				"(`%s.json`) and the `summary` attribute have every finding.\n", len(rows)-n, escape(Name(r)))
		}
		return b.String()
	}
	const summaryLeftOut = "\nThe summary is left out here, to fit a pull request comment: it is the `summary` " +
		"attribute and the JSON report's `summary`.\n"
	const diagramLeftOut = "\n### Paths\n\nThe diagram is left out here, to fit a pull request comment: it is the " +
		"`diagram` attribute and the JSON report's `diagram`.\n"
	fits := func(parts ...string) bool {
		n := 0
		for _, p := range parts {
			n += utf8.RuneCountInString(p)
		}
		return n <= MaxMarkdown
	}
	full := table(len(rows))
	switch {
	case fits(head, diagramPart, full, summaryPart):
		return []byte(head + diagramPart + full + summaryPart)
	case fits(head, diagramPart, full, summaryLeftOut):
		return []byte(head + diagramPart + full + summaryLeftOut)
	}
	// Rows from the end, keeping the diagram while at least one row fits
	// beside it; then without the diagram.
	for _, d := range []string{diagramPart, diagramLeftOut} {
		n := len(rows)
		if d == diagramPart {
			n-- // whole, it did not fit beside the diagram
		}
		for ; n >= 1; n-- {
			if t := table(n); fits(head, d, t, summaryLeftOut) {
				return []byte(head + d + t + summaryLeftOut)
			}
		}
	}
	out := head + diagramLeftOut + table(0) + summaryLeftOut
	if !fits(out) {
		// Only a head of tens of thousands of characters (thousands of
		// node subnets) gets here: cut it at a line, outside any block.
		out = cutAtLine(head, MaxMarkdown-utf8.RuneCountInString(diagramLeftOut+summaryLeftOut)-200) +
			"\n…the list is cut here, to fit a pull request comment.\n" + diagramLeftOut + summaryLeftOut
	}
	return []byte(out)
}

// markdownHead is the heading, the counts and the policy, the accepted
// findings, the causes of a verification that checked nothing, and what
// was verified.
func markdownHead(r Report) string {
	var b strings.Builder
	if r.Outcome == OutcomeNotChecked {
		fmt.Fprintf(&b, "## pullpath: %s: ⛔ not checked\n\n", escape(r.Title()))
		b.WriteString("**The verification failed closed and checked no path; the plan fails.** Outcome `not_checked`:\n\n")
		for _, c := range r.NotChecked {
			arg := ""
			if c.Argument != "" {
				arg = "`" + escapeCode(c.Argument) + "`: "
			}
			fmt.Fprintf(&b, "- %s**%s**: %s\n", arg, escape(c.Cause), escape(c.Detail))
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "## pullpath: %s: %s %s\n\n", escape(r.Title()), verdictMark(r.Verdict), r.Verdict)
		fmt.Fprintf(&b, "**%s.** %s\n\n", countsText(r.Counts, acceptedCount(r.Findings)), policyText(r.Policy))
		if lines := acceptedLines(r.Findings); len(lines) > 0 {
			b.WriteString("Accepted findings (an `accept` block matched each; they do not decide the verdict):\n\n")
			for _, l := range lines {
				b.WriteString(l)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(subjectText(r))
	return b.String()
}

// modelOf is a report finding as verify groups it.
func modelOf(f Finding) model.Finding {
	out := model.Finding{Code: f.Code, Severity: f.Severity, Condition: f.Condition, Owner: f.Owner,
		NodePool: f.NodePool, Endpoint: f.Endpoint, ResourceID: model.ResourceID(f.ResourceID),
		Message: f.Message, Remediation: f.Remediation}
	if f.PlannedChange != nil {
		out.PlannedChange = *f.PlannedChange
	}
	return out
}

// causes groups the report's findings by cause (verify.ByCause), each
// group in the report's order; an accepted finding is a cause of its own
// kind (it never shares a row with one that is not).
func causes(fs []Finding) [][]Finding {
	var accepted, other []Finding
	for _, f := range fs {
		if f.Accepted != nil {
			accepted = append(accepted, f)
		} else {
			other = append(other, f)
		}
	}
	var out [][]Finding
	for _, part := range [][]Finding{other, accepted} {
		ms := make([]model.Finding, len(part))
		byKey := map[string][]Finding{}
		for i, f := range part {
			ms[i] = modelOf(f)
			k := findingKey(f)
			byKey[k] = append(byKey[k], f)
		}
		for _, g := range verify.ByCause(ms) {
			group := make([]Finding, 0, len(g))
			for _, m := range g {
				k := findingKey(Finding{Code: m.Code, NodePool: m.NodePool, Endpoint: m.Endpoint, ResourceID: string(m.ResourceID),
					Message: m.Message, Remediation: m.Remediation})
				group = append(group, byKey[k][0])
				byKey[k] = byKey[k][1:]
			}
			out = append(out, group)
		}
	}
	return out
}

// findingKey identifies a finding among the report's.
func findingKey(f Finding) string {
	return strings.Join([]string{string(f.Code), f.NodePool, f.Endpoint, f.ResourceID, f.Message, f.Remediation}, "\x00")
}

// findingRows is the findings table: its head, and one row per cause with
// the pools and hosts it concerns. A cause seen from several pools shows
// the first finding's message (the others differ in the pool's name only,
// or say the same of another host).
func findingRows(r Report) (rows []string, head string) {
	head = "| severity | code | owner | where | what is wrong | fix |\n|---|---|---|---|---|---|\n"
	for _, g := range causes(r.Findings) {
		ms := make([]model.Finding, len(g))
		for i, f := range g {
			ms[i] = modelOf(f)
		}
		f := g[0]
		msg := messageCell(f)
		if len(g) > 1 {
			msg += fmt.Sprintf("<br>(%d findings of this cause)", len(g))
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", severityCell(f), codeCell(f.Code), f.Owner,
			escape(verify.Where(ms...)), msg, escape(f.Remediation)))
	}
	return rows, head
}

// acceptedCount is how many findings an accept block matched.
func acceptedCount(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Accepted != nil {
			n++
		}
	}
	return n
}

// acceptedLines is one Markdown list item per accepted cause: the code,
// where, until when and why.
func acceptedLines(fs []Finding) []string {
	var out []string
	for _, g := range causes(fs) {
		f := g[0]
		if f.Accepted == nil {
			continue
		}
		ms := make([]model.Finding, len(g))
		for i, x := range g {
			ms[i] = modelOf(x)
		}
		out = append(out, fmt.Sprintf("- `%s` (%s), accepted until %s: %s\n", f.Code, escape(verify.Where(ms...)),
			escape(f.Accepted.Expires), escape(f.Accepted.Reason)))
	}
	return out
}

// cutAtLine is the longest prefix of s of at most n characters that ends
// at a line break.
func cutAtLine(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:max(0, n)])
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		return cut[:i+1]
	}
	return ""
}

// verdictMark is a sign for the verdict that reads at a glance.
func verdictMark(v model.Verdict) string {
	switch v {
	case model.Reachable:
		return "✅"
	case model.Unreachable:
		return "❌"
	default:
		return "⚠️"
	}
}

// countsText is "2 errors, 1 warning, 0 notes", and how many of them an
// accept block matched: "…, 3 notes (1 accepted)".
func countsText(c Counts, accepted int) string {
	word := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	out := word(c.Error, "error") + ", " + word(c.Warning, "warning") + ", " + word(c.Info, "note")
	if accepted > 0 {
		out += fmt.Sprintf(" (%d accepted)", accepted)
	}
	return out
}

// policyText says whether the plan fails, and why.
func policyText(p Policy) string {
	switch {
	case p.FailsPlan && p.FailOnUnverified:
		return "The plan fails (`enforce`, `fail_on_unverified`)."
	case p.FailsPlan:
		return "The plan fails (`enforce`)."
	case !p.Enforce:
		return "The plan does not fail on findings (`enforce = false`)."
	default:
		return "The plan does not fail."
	}
}

// subjectText lists what was verified and where the report comes from.
func subjectText(r Report) string {
	var b strings.Builder
	s := r.Subject
	if s.ClusterID != nil {
		fmt.Fprintf(&b, "- cluster: `%s`\n", escapeCode(*s.ClusterID))
	}
	for _, id := range s.NodeSubnetIDs {
		fmt.Fprintf(&b, "- node subnet: `%s`\n", escapeCode(id))
	}
	if len(s.NodePools) > 0 {
		fmt.Fprintf(&b, "- node pools: %s\n", escape(strings.Join(s.NodePools, ", ")))
	}
	if s.RegistryID != nil {
		fmt.Fprintf(&b, "- registry: `%s`\n", escapeCode(*s.RegistryID))
	}
	if len(s.RegistryHosts) > 0 {
		fmt.Fprintf(&b, "- registry hosts: %s\n", escape(strings.Join(s.RegistryHosts, ", ")))
	}
	if pc := r.PlannedChanges; pc != nil {
		fmt.Fprintf(&b, "- read as after the saved plan: %d changes applied, %d read as they are now\n", len(pc.Applied), len(pc.NotApplied))
	}
	fmt.Fprintf(&b, "- pullpath %s, %s, %d ARM requests in %d ms\n", escape(r.ProviderVersion), r.GeneratedAt, r.Stats.ARMRequests, r.Stats.DurationMS)
	return b.String()
}

// severityCell is the severity, and the acceptance of an accepted finding.
func severityCell(f Finding) string {
	if f.Accepted == nil {
		return string(f.Severity)
	}
	return fmt.Sprintf("%s (accepted until %s: %s)", f.Severity, escape(f.Accepted.Expires), escape(f.Accepted.Reason))
}

// codeCell links the code to its section of the troubleshooting guide.
func codeCell(c model.Code) string {
	return fmt.Sprintf("[`%s`](%s)", c, helpURI(c))
}

// messageCell is the message, and the planned change that causes it.
func messageCell(f Finding) string {
	out := escape(f.Message)
	if f.PlannedChange != nil {
		out += "<br>after the planned change " + escape(*f.PlannedChange)
	}
	return out
}

// cellEscaper keeps text inside one table cell and out of HTML.
var cellEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", "|", "\\|", "\r\n", "<br>", "\n", "<br>", "`", "\\`",
)

// escape makes text safe in a table cell or a line of Markdown.
func escape(s string) string { return cellEscaper.Replace(s) }

// escapeCode makes text safe inside a `code span` (ids have no backticks,
// but a name from Azure is not trusted to).
func escapeCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

// fenced is text in a code block of the given language, fenced with more
// backticks than the text holds in a row.
func fenced(lang, text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + fence + "\n"
}
