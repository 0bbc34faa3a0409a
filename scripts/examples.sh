#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Examples check (make examples-check): the configurations users copy must
# work as documented, through OpenTofu and Terraform, offline.
#
#   1. every root configuration under examples/ci and examples/modules/usage
#      installs its modules and validates;
#   2. examples/quickstart, the first configuration of README.md, copied
#      alone to a directory of its own, plans against the demo's snapshots:
#      fixed.json passes, broken.json fails with DNS_RECORD_MISSING;
#   3. examples/ci/network-check, the check a network repository runs on its
#      pull requests, copied alone to infra/network/pull-path-check as
#      examples/ci/README.md says, planned against the demo's fixed snapshot:
#      a. without a plan file it passes (verdict reachable);
#      b. with scripts/testdata/demo-zone-link-deleted.plan.json, a saved plan
#         that deletes the node VNet's link to privatelink.azurecr.io, it
#         fails with DNS_ZONE_NOT_LINKED blamed on that change ("after this
#         plan: <address>"), before anything is applied;
#      c. both plans write the report files of aks-prod.contosoprod (JSON,
#         SARIF, Markdown) into PULLPATH_REPORT_DIR, the failing one before
#         it fails, and report.sh turns them into the markdown report with
#         the diagram and the planned change, without planning again.
#
# Nothing is written into the example directories: the examples are copied
# to a temporary directory and planned there, each where its README puts it
# (examples/modules/usage with its relative module source kept).
# EXAMPLES_CLI=tofu or terraform runs one CLI only.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/pullpath-examples.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

rc="$(bash "$root/scripts/dev-overrides.sh" "$tmp/dev")"
cp -R "$root/examples" "$tmp/examples"
# Copied alone, where the READMEs put them: a path outside the directory
# (a relative module source) breaks here as it would for a user.
check="$tmp/infra/network/pull-path-check"
mkdir -p "$(dirname "$check")"
cp -R "$root/examples/ci/network-check" "$check"
quickstart="$tmp/quickstart"
cp -R "$root/examples/quickstart" "$quickstart"
# The demo's cluster and registry (examples/demo/main.tf).
demo_cluster="/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod"
demo_registry="/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/resourceGroups/rg-acr-prod/providers/Microsoft.ContainerRegistry/registries/contosoprod"
export TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
unset PULLPATH_SNAPSHOT_FILE PULLPATH_RECORD_FILE PULLPATH_PLANNED_CHANGES_FILE

fail() {
	echo "examples.sh: $*" >&2
	exit 1
}

# The report files of the network-check's one verification.
report_name=aks-prod.contosoprod

# check_reports CLI DIR VERDICT: the three report files of report_name are
# in DIR, the JSON in format pullpath.report/v1 with that verdict, the SARIF
# log in version 2.1.0, the Markdown with the diagram. (The tests validate
# them against their schemas: internal/provider/report_dir_test.go.)
check_reports() {
	local cli="$1" dir="$2" verdict="$3" ext
	for ext in json sarif md; do
		[[ -s "$dir/$report_name.$ext" ]] || { ls -la "$dir" 2>&1; fail "$cli: no report file $report_name.$ext in PULLPATH_REPORT_DIR"; }
	done
	grep -q '"format": "pullpath.report/v1"' "$dir/$report_name.json" && grep -q "^  \"verdict\": \"$verdict\"," "$dir/$report_name.json" ||
		{ head -c 2000 "$dir/$report_name.json"; fail "$cli: $report_name.json is not a pullpath.report/v1 report with verdict $verdict"; }
	grep -q '"version": "2.1.0"' "$dir/$report_name.sarif" || fail "$cli: $report_name.sarif is not SARIF 2.1.0"
	grep -q '```mermaid' "$dir/$report_name.md" || fail "$cli: $report_name.md has no diagram"
}

check_cli() {
	local cli="$1" bin dir name log
	bin="$(bash "$root/scripts/tools.sh" "$cli")"
	echo "==== $("$bin" version | head -n 1)"
	for dir in "$check" "$tmp"/examples/modules/usage; do
		name="${dir#"$tmp"/}"
		[[ $dir == "$check" ]] && name="examples/ci/network-check, copied alone to infra/network/pull-path-check"
		export TF_DATA_DIR="$tmp/$cli-$(basename "$dir")"
		# `get` installs the local modules only: no provider download.
		"$bin" -chdir="$dir" get -no-color >"$tmp/get.log" 2>&1 || { cat "$tmp/get.log"; fail "$cli get failed in $name"; }
		"$bin" -chdir="$dir" validate -no-color >"$tmp/validate.log" 2>&1 || { cat "$tmp/validate.log"; fail "$cli validate failed in $name"; }
		echo "  $name: validates"
	done

	# The first configuration of README.md, against the demo's snapshots.
	dir="$quickstart"
	export TF_DATA_DIR="$tmp/$cli-quickstart"
	log="$tmp/$cli-quickstart-fixed.log"
	PULLPATH_SNAPSHOT_FILE="$root/examples/demo/fixed.json" "$bin" -chdir="$dir" plan -no-color -lock=false \
		-var "cluster_id=$demo_cluster" -var "registry_id=$demo_registry" >"$log" 2>&1 ||
		{ cat "$log"; fail "$cli: examples/quickstart against demo/fixed.json should pass"; }
	grep -q 'reachable' "$log" && ! grep -Eq 'unreachable|unverified' "$log" ||
		{ cat "$log"; fail "$cli: examples/quickstart: the summary does not say reachable"; }
	log="$tmp/$cli-quickstart-broken.log"
	if PULLPATH_SNAPSHOT_FILE="$root/examples/demo/broken.json" "$bin" -chdir="$dir" plan -no-color -lock=false \
		-var "cluster_id=$demo_cluster" -var "registry_id=$demo_registry" >"$log" 2>&1; then
		cat "$log"
		fail "$cli: examples/quickstart against demo/broken.json should fail"
	fi
	grep -q 'DNS_RECORD_MISSING' "$log" || { cat "$log"; fail "$cli: examples/quickstart against demo/broken.json: no DNS_RECORD_MISSING"; }
	echo "  quickstart (README.md), copied alone: passes on demo/fixed.json, fails on demo/broken.json with DNS_RECORD_MISSING"

	dir="$check"
	export TF_DATA_DIR="$tmp/$cli-network-check"
	export PULLPATH_SNAPSHOT_FILE="$root/examples/demo/fixed.json"

	log="$tmp/$cli-noplan.log"
	reports="$tmp/$cli-reports-noplan"
	PULLPATH_REPORT_DIR="$reports" \
		"$bin" -chdir="$dir" plan -no-color -lock=false -out="$tmp/$cli-noplan.tfplan" >"$log" 2>&1 || { cat "$log"; fail "$cli: network-check without a plan file should pass"; }
	grep -q 'verdict *= *"reachable"' "$log" || { cat "$log"; fail "$cli: network-check without a plan file: verdict is not reachable"; }
	check_reports "$cli" "$reports" reachable
	echo "  network-check, no plan file: passes, verdict reachable, report files written"

	log="$tmp/$cli-plan.log"
	reports="$tmp/$cli-reports-plan"
	if PULLPATH_PLANNED_CHANGES_FILE="$root/scripts/testdata/demo-zone-link-deleted.plan.json" PULLPATH_REPORT_DIR="$reports" \
		"$bin" -chdir="$dir" plan -no-color -lock=false >"$log" 2>&1; then
		cat "$log"
		fail "$cli: network-check with a plan that deletes the zone link should fail"
	fi
	{ grep -q 'DNS_ZONE_NOT_LINKED' "$log" && grep -qi 'after this plan: azurerm_private_dns_zone_virtual_network_link.spoke' "$log"; } ||
		{ cat "$log"; fail "$cli: the failure does not blame azurerm_private_dns_zone_virtual_network_link.spoke"; }
	check_reports "$cli" "$reports" unreachable
	grep -q '"code": "DNS_ZONE_NOT_LINKED"' "$reports/$report_name.json" &&
		grep -q '"planned_change": "azurerm_private_dns_zone_virtual_network_link.spoke"' "$reports/$report_name.json" ||
		{ cat "$reports/$report_name.json"; fail "$cli: the JSON report of the failed plan lacks DNS_ZONE_NOT_LINKED blamed on the zone link"; }
	echo "  network-check, plan deleting the zone link: fails, DNS_ZONE_NOT_LINKED after this plan: azurerm_private_dns_zone_virtual_network_link.spoke; report files written before the failure"

	# report.sh as the pipelines call it, after the failed gate: from the
	# report files, without planning again.
	(cd "$dir" && bash report.sh "$reports" "$log" >"$tmp/$cli-report.md" 2>"$tmp/$cli-report.err") ||
		{ cat "$tmp/$cli-report.err"; fail "$cli: report.sh failed"; }
	grep -q '^## Pull path: a node pool cannot pull after this plan' "$tmp/$cli-report.md" &&
		grep -q '```mermaid' "$tmp/$cli-report.md" && grep -q 'azurerm_private_dns_zone_virtual_network_link.spoke' "$tmp/$cli-report.md" ||
		{ cat "$tmp/$cli-report.err" "$tmp/$cli-report.md"; fail "$cli: report.sh wrote no headline, no diagram or no planned change"; }
	echo "  report.sh: markdown report with the diagram and the planned change ($(wc -l <"$tmp/$cli-report.md") lines)"
	unset PULLPATH_SNAPSHOT_FILE
}

for cli in ${EXAMPLES_CLI:-tofu terraform}; do
	check_cli "$cli"
done
echo "examples.sh: every example works as documented"
