#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Demo (make demo): build the provider from this tree and plan examples/demo
# twice, offline, against its two ARM snapshots:
#
#   1. broken.json  the plan must FAIL, with DNS_RECORD_MISSING for
#                   contosoprod.northeurope.data.azurecr.io among the findings;
#   2. fixed.json   the plan must PASS; the verdict, summary and stats
#                   outputs are printed.
#
# The exit status is 0 only if both happened, so `make demo` is itself a
# check. No Azure account, no network and no `init` are needed: the provider
# is loaded through a dev_overrides CLI config (scripts/dev-overrides.sh),
# and nothing is written into the example directory.
#
#   scripts/demo.sh                       # with OpenTofu (scripts/tools.sh tofu)
#   DEMO_CLI=terraform scripts/demo.sh    # the same with Terraform
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
demo_dir="$root/examples/demo"
cli="${DEMO_CLI:-tofu}"

# What the broken plan must report (a finding code and its hostname).
expect_code="DNS_RECORD_MISSING"
expect_host="contosoprod.northeurope.data.azurecr.io"

case "$cli" in
tofu | terraform) bin="$(bash "$root/scripts/tools.sh" "$cli")" ;;
*)
	echo "demo.sh: DEMO_CLI must be tofu or terraform" >&2
	exit 2
	;;
esac

tmp="$(mktemp -d "${TMPDIR:-/tmp}/pullpath-demo.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

banner() { printf '\n==== %s\n\n' "$*"; }

banner "building the provider"
rc="$(bash "$root/scripts/dev-overrides.sh" "$tmp/dev")"

export TF_CLI_CONFIG_FILE="$rc"
export TF_DATA_DIR="$tmp/data"
export TF_IN_AUTOMATION=1
export TF_INPUT=0
export CHECKPOINT_DISABLE=1
# The demo must not depend on the caller's environment: the snapshot
# answers every read, and no ARM_* variable or login is consulted.
unset PULLPATH_SNAPSHOT_FILE PULLPATH_RECORD_FILE

# The plans run with -no-color so that the output reads the same in a
# terminal, in a CI log and in examples/demo/README.md.
#
# drop_dev_overrides_warning: copy stdin to stdout without the warning about
# provider development overrides, which is the same in every run and says
# nothing about the demo (it runs from "Warning: Provider development
# overrides are in effect" to the paragraph ending in "releases."), with runs
# of empty lines squeezed to one and none at the start or the end.
drop_dev_overrides_warning() {
	awk '
		!started && /^$/ { next }
		{ started = 1 }
		/^Warning: Provider development overrides are in effect/ { skip = 1; next }
		skip && /releases\.$/ { skip = 0; eatblank = 1; next }
		skip { next }
		eatblank && /^$/ { eatblank = 0; next }
		{ eatblank = 0; print }
	' | awk '/^$/ { blank = 1; next } { if (blank) print ""; blank = 0; print }'
}

# plan STATE: plan examples/demo against STATE.json; output in $tmp/STATE.log
# (shown without the dev_overrides warning), plan file in $tmp/STATE.tfplan;
# returns the CLI's exit status.
plan() {
	local state="$1" status=0
	"$bin" -chdir="$demo_dir" plan -no-color -input=false -lock=false \
		-var "snapshot=$state" -out="$tmp/$state.tfplan" >"$tmp/$state.log" 2>&1 || status=$?
	drop_dev_overrides_warning <"$tmp/$state.log"
	return "$status"
}

ok=1
echo "using $("$bin" version | head -n 1)"

banner "1/2 broken.json: a new replica without its DNS record, AcrPull on the wrong identity (expected: plan FAILS)"
broken_status=0
plan broken || broken_status=$?
if [[ $broken_status -eq 0 ]]; then
	banner "UNEXPECTED: the plan of broken.json succeeded; it must fail"
	ok=0
elif ! grep -q "$expect_code" "$tmp/broken.log" || ! grep -q "$expect_host" "$tmp/broken.log"; then
	banner "UNEXPECTED: the plan of broken.json failed (exit $broken_status), but without $expect_code for $expect_host"
	ok=0
else
	banner "as expected: the plan of broken.json FAILED (exit $broken_status) with $expect_code for $expect_host"
fi

banner "2/2 fixed.json: the record added, AcrPull for the kubelet identity (expected: plan PASSES)"
fixed_status=0
plan fixed || fixed_status=$?
if [[ $fixed_status -ne 0 ]]; then
	banner "UNEXPECTED: the plan of fixed.json failed (exit $fixed_status); it must pass"
	ok=0
else
	# The plan only reads data sources; applying it records their values in
	# a throwaway state, so that the verdict can be checked as an output.
	verdict=""
	if "$bin" -chdir="$demo_dir" apply -no-color -input=false -lock=false \
		-state="$tmp/fixed.tfstate" "$tmp/fixed.tfplan" >"$tmp/apply.log" 2>&1; then
		verdict="$("$bin" -chdir="$demo_dir" output -no-color -state="$tmp/fixed.tfstate" -raw verdict)"
	else
		cat "$tmp/apply.log"
	fi
	if [[ $verdict != reachable ]]; then
		banner "UNEXPECTED: the plan of fixed.json passed, but the verdict is '$verdict', not reachable"
		ok=0
	else
		banner "as expected: the plan of fixed.json PASSED, verdict reachable"
	fi
fi

if [[ $ok -ne 1 ]]; then
	echo "demo: FAILED (see UNEXPECTED above)" >&2
	exit 1
fi
echo "demo: OK (broken.json fails the plan, fixed.json passes)"
