// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Markdown is the report for a pull request comment or a CI job summary
// (GitHub's $GITHUB_STEP_SUMMARY, Azure DevOps' task.uploadsummary): a
// heading with the verdict, what was verified, the paths as the Mermaid
// diagram of the `diagram` attribute, a table of the findings, and the
// `summary` text folded away. Text from Azure (names, messages) is escaped
// so that it cannot break the table or inject HTML.
func Markdown(r Report) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "## pullpath: %s: %s %s\n\n", escape(r.Title()), verdictMark(r.Verdict), r.Verdict)
	fmt.Fprintf(&b, "**%s.** %s\n\n", countsText(r.Counts), policyText(r.Policy))
	b.WriteString(subjectText(r))
	b.WriteString("\n### Paths\n\n")
	b.WriteString(fenced("mermaid", r.Diagram))
	b.WriteString("\n### Findings\n\n")
	if len(r.Findings) == 0 {
		b.WriteString("No findings.\n")
	} else {
		b.WriteString("| severity | code | owner | where | what is wrong | fix |\n|---|---|---|---|---|---|\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", severityCell(f), codeCell(f.Code), f.Owner,
				escape(verify.Where(model.Finding{NodePool: f.NodePool, Endpoint: f.Endpoint})), messageCell(f), escape(f.Remediation))
		}
	}
	b.WriteString("\n<details><summary>Summary</summary>\n\n")
	b.WriteString(fenced("text", r.Summary))
	b.WriteString("\n</details>\n")
	return []byte(b.String())
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

// countsText is "2 errors, 1 warning, 0 notes".
func countsText(c Counts) string {
	word := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	return word(c.Error, "error") + ", " + word(c.Warning, "warning") + ", " + word(c.Info, "note")
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
