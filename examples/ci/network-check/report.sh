#!/usr/bin/env bash
# Print the markdown report of the pull-path check, for a job summary or a
# pull request comment: a headline, a table of every verification with its
# outcome, and the Markdown report each verification wrote into the
# provider's report_dir (<cluster>.<registry>.md: verdict, the Mermaid
# diagram, the findings with the planned change that causes each, and the
# summary), in name order.
#
#   report.sh REPORT_DIR GATE_LOG [GATE_EXIT] >report.md
#
# REPORT_DIR is the PULLPATH_REPORT_DIR of the gate `CLI plan` (enforce =
# true), run just before into an empty directory. The provider writes the
# reports before an error fails the plan, also for a verification that
# failed closed (a mistyped cluster id, a 403, an outage of Azure Resource
# Manager: outcome not_checked), so nothing is planned again. GATE_LOG is
# the gate's output (with -no-color); GATE_EXIT its exit status.
#
# The headline says that every node pool can still pull only when all of
# these hold: the gate exited 0 (when GATE_EXIT is given), every
# verification the gate read ("data.pullpath_verification...: Reading..."
# in GATE_LOG) wrote a JSON report, and every report's outcome is pass
# (docs/guides/ci-reports.md, "Outcome"). Anything else is said as what it
# is: a report missing, a verification not checked, a path broken.
#
# The output stays under 60,000 characters (a pull request comment holds
# 65,536): a cluster's report that does not fit is named, not cut.
#
# Exit status: 0 when the headline says the check passed, 1 when it says
# anything else (the report is printed either way), 2 on a usage error.
set -uo pipefail

dir="${1:?usage: report.sh REPORT_DIR GATE_LOG [GATE_EXIT]}"
gate_log="${2:?usage: report.sh REPORT_DIR GATE_LOG [GATE_EXIT]}"
gate_exit="${3:-}"
limit=60000

shopt -s nullglob
reports=("$dir"/*.json)

# The verifications the gate read: Terraform and OpenTofu print one
# "<address>: Reading..." line per data source read.
expected="$(grep -Eo '^data\.pullpath_verification\.[^:]+: Reading\.\.\.' "$gate_log" 2>/dev/null | sort -u | wc -l)"
found=${#reports[@]}

# A top-level field of a JSON report (pullpath.report/v1, indented by two
# spaces; the fields of paths and findings are deeper).
field_of() {
	sed -n "s/^  \"$2\": \"\([a-z_]*\)\",\$/\1/p" "$1" | head -n 1
}

pass=0 failed=0 not_checked=0
rows=()
for json in "${reports[@]}"; do
	name="$(basename "$json" .json)"
	outcome="$(field_of "$json" outcome)"
	verdict="$(field_of "$json" verdict)"
	case "$outcome" in
	pass) pass=$((pass + 1)) ;;
	fail) failed=$((failed + 1)) ;;
	*) not_checked=$((not_checked + 1)) outcome="${outcome:-not_checked (no outcome in the report)}" ;;
	esac
	rows+=("| \`$name\` | $outcome | $verdict |")
done
missing=$((expected > found ? expected - found : 0))
total=$((expected > found ? expected : found))

status=1
if ((found == 0)); then
	headline="## Pull path: the check did not run"
elif ((missing > 0 || not_checked > 0)); then
	headline="## Pull path: not checked: $((missing + not_checked)) of $total verifications checked nothing"
elif ((failed > 0)); then
	headline="## Pull path: a node pool cannot pull after this plan"
elif [[ -n $gate_exit && $gate_exit != 0 ]]; then
	headline="## Pull path: the check failed (exit $gate_exit) although every report passed"
else
	headline="## Pull path: every node pool can still pull after this plan"
	status=0
fi

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
{
	echo "$headline"
	echo
	echo "$found of $total verifications wrote a report: $pass pass, $failed fail, $not_checked not checked, $missing missing."
	if ((found > 0)); then
		echo
		echo "| report | outcome | verdict |"
		echo "|---|---|---|"
		printf '%s\n' "${rows[@]}"
	fi
	if ((found == 0 || missing > 0)) || [[ $status != 0 && -n $gate_exit && $gate_exit != 0 && $failed == 0 && $not_checked == 0 ]]; then
		echo
		echo "The end of the check's output:"
		echo
		echo '```text'
		tail -c 8000 "$gate_log" 2>/dev/null | sed 's/^```/` ``/' || echo "(no output: $gate_log is missing)"
		echo '```'
	fi
} >"$out"

size=$(wc -m <"$out")
cat "$out"
left=()
for json in "${reports[@]}"; do
	md="${json%.json}.md"
	[[ -f $md ]] || continue
	n=$(wc -m <"$md")
	if ((size + n + 2 <= limit - 500)); then
		echo
		cat "$md"
		size=$((size + n + 1))
	else
		left+=("$(basename "$md")")
	fi
done
if ((${#left[@]} > 0)); then
	echo
	echo "Left out to fit a pull request comment (the job summary and the pullpath-reports artifact have them): ${left[*]}."
fi
exit "$status"
