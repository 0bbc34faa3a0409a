#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Run every Go fuzz target of the module for FUZZTIME each (default 10s).
# Targets are discovered with `go test -list '^Fuzz'` per package, so a new
# FuzzXxx function is picked up without editing anything.
#
#   FUZZTIME=30s scripts/fuzz.sh [packages...]   (default packages: ./...)
#
# A failing input is written by Go to the package's testdata/fuzz/FuzzXxx/
# directory; commit it, so that `go test` replays it from then on.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME="${FUZZTIME:-10s}"
pkgs=("$@")
[[ ${#pkgs[@]} -gt 0 ]] || pkgs=(./...)

total=0
failed=()

# shutdown_race LOG: the target's only failure is the bare deadline error of
# the fuzzing coordinator, with no failing input written.
shutdown_race() {
	grep -q '^    context deadline exceeded$' "$1" && ! grep -q 'Failing input written' "$1" && ! grep -q -- '--- FAIL: .* (0\.' "$1"
}
for pkg in $(go list "${pkgs[@]}"); do
	# -list prints matching names, then "ok <pkg> <time>"; packages without
	# test files print nothing that starts with "Fuzz".
	if ! listing="$(go test -list '^Fuzz' "$pkg" 2>&1)"; then
		echo "$listing"
		failed+=("$pkg (go test -list failed)")
		continue
	fi
	targets="$(grep -E '^Fuzz[A-Za-z0-9_]*$' <<<"$listing" || true)"
	for target in $targets; do
		total=$((total + 1))
		echo "--- fuzz $pkg $target ($FUZZTIME)"
		log="$(mktemp)"
		if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tee "$log"; then
			:
		elif shutdown_race "$log" && go test -count=1 -run "^${target}\$" "$pkg"; then
			# Go 1.26's fuzzing coordinator can fail a target at the end of
			# a -fuzztime window with a bare "context deadline exceeded" when
			# a worker is slow to stop (go.dev/issue/75804, fixed in Go
			# 1.27). No input was written and the corpus replays clean, so
			# nothing was found.
			echo "fuzz: $target: coordinator shutdown race at the deadline (go.dev/issue/75804), no failing input; corpus replays clean"
		else
			failed+=("$pkg $target")
		fi
		rm -f "$log"
	done
done

if [[ $total -eq 0 && ${#failed[@]} -eq 0 ]]; then
	echo "fuzz: no fuzz targets found"
	exit 0
fi
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "fuzz: failures ($total targets found):"
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
echo "fuzz: all $total targets ran $FUZZTIME without failure"
