#!/usr/bin/env bash
# Print the markdown report of the pull-path check, for a job summary or a
# pull request comment: the headline (the worst verdict over every
# verification) and the Markdown report each verification wrote into the
# provider's report_dir (<cluster>.<registry>.md: verdict, the Mermaid
# diagram, the findings with the planned change that causes each, and the
# summary), in name order.
#
#   report.sh REPORT_DIR GATE_LOG >report.md
#
# REPORT_DIR is the PULLPATH_REPORT_DIR of the gate `CLI plan` (enforce =
# true), run just before into an empty directory. The provider writes the
# reports before an enforce error fails the plan, so a failed gate has them
# too: nothing is planned again. GATE_LOG is the gate's output: when no
# report was written (the plan failed before any verification finished:
# authentication, an unreadable plan file, a cluster that cannot be read),
# the report is the end of that log. The exit status is 0 whenever a report
# was printed: passing or failing the job is the gate's business.
set -uo pipefail

dir="${1:?usage: report.sh REPORT_DIR GATE_LOG}"
gate_log="${2:?usage: report.sh REPORT_DIR GATE_LOG}"

shopt -s nullglob
reports=("$dir"/*.md)

if ((${#reports[@]} == 0)); then
	echo "### Pull path: the check did not run"
	echo
	echo "The plan of the check configuration failed before any verdict; the end of its output:"
	echo
	echo '```text'
	tail -c 20000 "$gate_log" 2>/dev/null || echo "(no output: $gate_log is missing)"
	echo '```'
	exit 0
fi

# The top-level verdict of a JSON report (pullpath.report/v1, indented by
# two spaces; the verdicts of paths are deeper).
verdict_of() {
	sed -n 's/^  "verdict": "\([a-z]*\)",$/\1/p' "$1" | head -n 1
}

worst=reachable
for md in "${reports[@]}"; do
	case "$(verdict_of "${md%.md}.json")" in
	unreachable) worst=unreachable ;;
	unverified) [[ $worst == reachable ]] && worst=unverified ;;
	reachable) ;;
	*) [[ $worst == reachable ]] && worst=unverified ;; # no JSON report: nothing proven
	esac
done

case "$worst" in
reachable) echo "## Pull path: every node pool can still pull after this plan" ;;
unverified) echo "## Pull path: not verified: evidence is missing or known only after apply" ;;
*) echo "## Pull path: a node pool cannot pull after this plan" ;;
esac
for md in "${reports[@]}"; do
	echo
	cat "$md"
done
