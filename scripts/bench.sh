#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Benchmarks of the internal packages.
#
#   scripts/bench.sh                    # every benchmark, default bench time
#   BENCH=Verification BENCHTIME=5x COUNT=6 scripts/bench.sh > new.txt
#   (compare two runs with benchstat old.txt new.txt)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
args=(-run '^$' -bench "${BENCH:-.}" -benchmem -count "${COUNT:-1}")
[[ -z "${BENCHTIME:-}" ]] || args+=(-benchtime "$BENCHTIME")

go test "${args[@]}" ./internal/...
