#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Benchmarks (make bench):
#
#  (a) the Go benchmarks of route lookup and evaluation (no I/O), with
#      lookups per second;
#  (b) an end-to-end plan through OpenTofu (dev_overrides, the provider built
#      from this tree) on a large generated topology (internal/testsupport/gentopo/cmd:
#      20 node pools on 5 subnets in 3 spokes, a hub gateway with 10,000
#      learned BGP routes, 4 registry replicas, 50 ms per read, 2 s per
#      action), with the default concurrency and with concurrency 1:
#      wall time, stats.duration_ms, the lower bound and the ratio, requests
#      versus distinct reads, and the provider's peak RSS.
#
#   scripts/bench.sh                      # (a) and (b)
#   BENCH_E2E=0 scripts/bench.sh          # (a) only
#   BENCH_GO=0 scripts/bench.sh           # (b) only
#   BENCH=Lookup BENCHTIME=5x COUNT=6 scripts/bench.sh   # (a) filtered, for benchstat
#   LATENCY_MS=50 ACTION_LATENCY_MS=2000 POOLS=20 SUBNETS=5 SPOKES=3 \
#     REPLICAS=4 BGP_ROUTES=10000 scripts/bench.sh       # (b) sizes (these are the defaults)
#
# The lower bound is the longest chain of dependent requests the provider
# must make, each costing its simulated latency (a read L = latency_ms, an
# action L + A with A = action_latency_ms). From the gather code's
# dependency graph (internal/gather/facts.go, network.go):
#
#   cluster GET (its agentPoolProfiles name the node subnets)      L
#   → node (spoke) VNet GET (its peerings name the hub)            L
#   → hub VNet GET (its GatewaySubnet names the gateway)           L
#   → gateway GET (learned routes, BGP peers)                      L
#   → getBgpPeerStatus POST (the peers to ask)                     L + A
#   → getAdvertisedRoutes POST per peer                            L + A
#                                                          = 7L + 2A
#
# Every other chain is shorter: the registry side (registry → private
# endpoint → NIC, hub VNet) is 3–4 L; DNS (zones list → links, records;
# node VNet → listDnsResolvers/listDnsForwardingRulesets) is at most
# 3L + A; getLearnedRoutes runs beside getBgpPeerStatus.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

banner() { printf '\n==== %s\n\n' "$*"; }

# ------------------------------------------------------------------ (a)
if [[ "${BENCH_GO:-1}" != 0 ]]; then
banner "(a) Go benchmarks: route lookup (internal/routing) and evaluation (internal/gather, verify.Run)"
args=(-run '^$' -bench "${BENCH:-Lookup10k|NewTable10k|TraceHubSpoke|VerifyLargeTopology}" -benchmem -count "${COUNT:-1}")
[[ -z "${BENCHTIME:-}" ]] || args+=(-benchtime "$BENCHTIME")
benchlog="$(mktemp "${TMPDIR:-/tmp}/pullpath-bench.XXXXXX")"
go test "${args[@]}" ./internal/routing/ ./internal/gather/ | tee "$benchlog"
awk '/^BenchmarkLookup/ {
	for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") ns = $i
	printf "  %-28s %6.1f M lookups/s (one goroutine)\n", $1, 1000 / ns
}' "$benchlog"
rm -f "$benchlog"
fi

[[ "${BENCH_E2E:-1}" != 0 ]] || exit 0

# ------------------------------------------------------------------ (b)
L="${LATENCY_MS:-50}"
A="${ACTION_LATENCY_MS:-2000}"
tofu="$(bash scripts/tools.sh tofu)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/pullpath-bench-e2e.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

banner "(b) end-to-end plan through $(TF_CLI_CONFIG_FILE="$(bash scripts/tools.sh cli-config)" "$tofu" version | head -n 1)"
rc="$(bash scripts/dev-overrides.sh "$tmp/dev")"
mapfile -t ids < <(go run ./internal/testsupport/gentopo/cmd -pools "${POOLS:-20}" -subnets "${SUBNETS:-5}" -spokes "${SPOKES:-3}" \
	-replicas "${REPLICAS:-4}" -bgp-routes "${BGP_ROUTES:-10000}" -dns-zones "${DNS_ZONES:-1}" \
	-latency-ms "$L" -action-latency-ms "$A" -seed "${SEED:-1}" -o "$tmp/topology.json")
mkdir -p "$tmp/cfg"
# conc_config N: the plan's configuration with max_concurrent_reads = N.
# Besides the verification, two more data sources read the same network
# at the same time (Terraform reads independent data sources in parallel):
# the provider's session cache must answer their reads from the one request
# each resource costs, so requests stay equal to distinct reads.
conc_config() {
	cat >"$tmp/cfg/main.tf" <<TF
terraform {
  required_providers {
    pullpath = { source = "pullpath/pullpath" }
  }
}
provider "pullpath" {
  snapshot_file        = "$tmp/topology.json"
  max_concurrent_reads = $1
}
data "pullpath_verification" "bench" {
  cluster_id  = "${ids[0]}"
  registry_id = "${ids[1]}"
  enforce     = true
}
data "pullpath_vnet_peerings" "bench" {
  virtual_network_id = "${ids[0]%%/resourceGroups/*}/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
}
data "pullpath_registry_endpoints" "bench" {
  registry_id = "${ids[1]}"
}
output "verdict" { value = data.pullpath_verification.bench.verdict }
output "stats"   { value = data.pullpath_verification.bench.stats }
output "peerings" { value = length(data.pullpath_vnet_peerings.bench.peerings) }
TF
}

export TF_CLI_CONFIG_FILE="$rc" TF_DATA_DIR="$tmp/data" TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
unset PULLPATH_SNAPSHOT_FILE PULLPATH_RECORD_FILE
lower_ms=$((7 * L + 2 * A))

# peak_rss PID: the highest VmHWM (kB) of the provider processes started
# under PID (the CLI), sampled until PID exits.
peak_rss() {
	local cli="$1" max=0 kids pid hwm
	while kill -0 "$cli" 2>/dev/null; do
		kids="$(pgrep -P "$cli" 2>/dev/null || true)"
		for pid in $kids; do
			[[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == terraform-provi* ]] || continue
			hwm="$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)"
			((${hwm:-0} > max)) && max="$hwm"
		done
		sleep 0.05
	done
	echo "$max"
}

# run_plan NAME CONCURRENCY
run_plan() {
	local name="$1" conc="$2" start end status=0 rss
	rm -f "$tmp/$name.stats"
	conc_config "$conc"
	start="$(date +%s%N)"
	PULLPATH_BENCH_STATS_FILE="$tmp/$name.stats" \
		"$tofu" -chdir="$tmp/cfg" plan -no-color -input=false -lock=false -refresh=true \
		-out="$tmp/$name.tfplan" >"$tmp/$name.log" 2>&1 &
	local cli=$!
	rss="$(peak_rss "$cli")"
	wait "$cli" || status=$?
	end="$(date +%s%N)"
	if [[ $status -ne 0 ]]; then
		cat "$tmp/$name.log"
		echo "bench: the plan ($name) failed (exit $status)" >&2
		exit 1
	fi
	local wall_ms=$(((end - start) / 1000000))
	"$tofu" -chdir="$tmp/cfg" show -json "$tmp/$name.tfplan" >"$tmp/$name.json"
	python3 - "$tmp/$name.json" "$tmp/$name.stats" "$name" "$conc" "$wall_ms" "$lower_ms" "$rss" <<'PY'
import json, sys
plan, statsf, name, conc, wall, lower, rss = sys.argv[1:]
out = json.load(open(plan))["planned_values"]["outputs"]
stats, verdict = out["stats"]["value"], out["verdict"]["value"]
lines = [json.loads(l) for l in open(statsf)] if statsf else []
rep = lines[-1] if lines else {}
wall, lower, rss = int(wall), int(lower), int(rss)
print(f"  {name} (max_concurrent_reads={conc}): verdict {verdict}")
print(f"    plan wall time        {wall} ms (tofu plan, process start to exit)")
print(f"    stats.duration_ms     {stats['duration_ms']} ms (the data source read)")
print(f"    lower bound           {lower} ms (7 x latency + 2 x action latency)")
print(f"    ratio                 {wall/lower:.2f} x wall, {stats['duration_ms']/lower:.2f} x duration_ms (target <= 1.5)")
print(f"    requests              {rep.get('requests','?')} sent for {rep.get('distinct','?')} distinct reads by the three data sources together "
      f"(replay; the verification's stats.arm_requests: {stats['arm_requests']}, its other reads came from the provider's cache)")
print(f"    provider peak RSS     {rss/1024:.1f} MB (VmHWM; target <= 150)")
PY
}

echo "topology: ${POOLS:-20} pools, ${SUBNETS:-5} subnets, ${SPOKES:-3} spokes, ${REPLICAS:-4} replicas," \
	"${BGP_ROUTES:-10000} learned routes; latency ${L} ms per read, ${A} ms per action"
run_plan default "${MAX_CONCURRENT_READS:-8}"
run_plan serial 1
