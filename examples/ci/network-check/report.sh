#!/usr/bin/env bash
# Print the markdown report of the pull-path check: the verdict, the planned
# changes that break a path, and per cluster the Mermaid diagram and the
# summary. For a job summary or a pull request comment.
#
#   report.sh CLI GATE_LOG >report.md    (in the check configuration)
#
# CLI is terraform or tofu; GATE_LOG the output of the gate
# `CLI plan -out=check.tfplan` (enforce = true), run just before with the
# same environment (PULLPATH_PLANNED_CHANGES_FILE, ARM_*). When the gate
# passed, the report comes from check.tfplan. When it failed, check.tfplan is
# missing or an errored plan without outputs; the check is planned once more
# (report.tfplan) with enforce = false (the same reads, nothing fails) to
# report what is broken. When even that plan fails
# (authentication, an unreadable plan file, an input), the report is the
# end of the gate's log. The exit status is 0 whenever a report was printed:
# passing or failing the job is the gate's business.
set -uo pipefail

cli="${1:?usage: report.sh terraform|tofu GATE_LOG}"
gate_log="${2:?usage: report.sh terraform|tofu GATE_LOG}"

# The report output of a plan file; empty when the plan has none (an
# errored plan, as both CLIs write it when the gate fails, has no outputs).
report_of() {
	[[ -s "$1" ]] && "$cli" show -json "$1" | jq -r '.planned_values.outputs.report.value // empty'
}

report="$(report_of check.tfplan)"
if [[ -z "$report" ]]; then
	rm -f report.tfplan
	"$cli" plan -input=false -lock=false -no-color \
		-var enforce=false -var fail_on_unverified=false \
		-out=report.tfplan >report-plan.txt 2>&1 || true
	report="$(report_of report.tfplan)"
fi

if [[ -n "$report" ]]; then
	printf '%s\n' "$report"
else
	echo "### Pull path: the check did not run"
	echo
	echo "The plan of the check configuration failed before any verdict; the end of its output:"
	echo
	echo '```text'
	tail -c 20000 "$gate_log" 2>/dev/null || echo "(no output: $gate_log is missing)"
	echo '```'
fi
