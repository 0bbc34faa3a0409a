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
#         SARIF, Markdown, JUnit XML) into PULLPATH_REPORT_DIR, the failing
#         one before it fails, and report.sh turns them into the markdown
#         report with the diagram and the planned change, without planning
#         again; the SARIF log meets GitHub code scanning's requirements
#         (every result in infra/network/pull-path-check/main.tf at the line
#         of the verification) and the JUnit XML parses, a test case per
#         node pool × hostname, a failure per error finding;
#      d. with a second cluster whose id is mistyped, the plan fails, BOTH
#         verifications write their reports (the mistyped one with outcome
#         not_checked, argument cluster_id), and report.sh says "not
#         checked" and exits 1: it never publishes success over a
#         verification that checked nothing;
#   4. examples/modules/aks-registry-pull-check, called with accept blocks
#      against the demo's broken snapshot: the accepted errors pass the plan
#      and are listed in its output and in the Markdown headline; an accept
#      block whose node_pool names no pool is an error on that attribute.
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
# The copy is a repository of its own, as the user's is: SARIF paths are
# relative to its root.
git init -q "$tmp"
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

# Accept blocks of the examples expire within 366 days of the plan.
expires="$(date -u -d '+180 days' +%F)"

# The report files of the network-check's one verification.
report_name=aks-prod.contosoprod

# check_reports CLI DIR VERDICT OUTCOME [NAME]: the four report files of
# NAME (default report_name) are in DIR, the JSON in format
# pullpath.report/v1 with that verdict and outcome, the SARIF log in
# version 2.1.0 meeting GitHub code scanning's requirements, the Markdown
# with the diagram (or, not checked, saying so), the JUnit XML parsed. (The
# tests validate them against their schemas: internal/report and
# internal/provider/report_dir_test.go.)
check_reports() {
	local cli="$1" dir="$2" verdict="$3" outcome="$4" name="${5:-$report_name}" ext
	for ext in json sarif md junit.xml; do
		[[ -s "$dir/$name.$ext" ]] || { ls -la "$dir" 2>&1; fail "$cli: no report file $name.$ext in PULLPATH_REPORT_DIR"; }
	done
	jq -e --arg v "$verdict" --arg o "$outcome" '.format == "pullpath.report/v1" and .verdict == $v and .outcome == $o' \
		"$dir/$name.json" >/dev/null || { head -c 2000 "$dir/$name.json"; fail "$cli: $name.json is not a pullpath.report/v1 report with verdict $verdict, outcome $outcome"; }
	# GitHub code scanning: version 2.1.0, and every result anchored in a
	# file of the repository (artifactLocation.uri relative to its root) at
	# a line; here the check's main.tf at its pullpath_verification block.
	local line
	line="$(grep -n '^data "pullpath_verification"' "$check/main.tf" | head -n 1 | cut -d: -f1)"
	jq -e --argjson line "$line" '.version == "2.1.0" and (.runs | length) == 1 and
		(.runs[0].tool.driver.name | length) > 0 and
		all(.runs[0].tool.driver.rules[]; (.id | length) > 0 and (.shortDescription.text | length) > 0 and (.fullDescription.text | length) > 0 and (.help.text | length) > 0) and
		all(.runs[0].results[]; (.ruleId | length) > 0 and (.message.text | length) > 0 and (.partialFingerprints | length) > 0 and
			(.locations | length) >= 1 and (.locations | length) <= 10 and
			all(.locations[]; .physicalLocation.artifactLocation.uri == "infra/network/pull-path-check/main.tf" and .physicalLocation.region.startLine == $line))' \
		"$dir/$name.sarif" >/dev/null || { head -c 3000 "$dir/$name.sarif"; fail "$cli: $name.sarif does not meet GitHub code scanning's requirements"; }
	if [[ $outcome == not_checked ]]; then
		grep -q 'not checked' "$dir/$name.md" || fail "$cli: $name.md does not say that nothing was checked"
	else
		grep -q '```mermaid' "$dir/$name.md" || fail "$cli: $name.md has no diagram"
	fi
	(($(wc -m <"$dir/$name.md") <= 60000)) || fail "$cli: $name.md is longer than a pull request comment"
	# JUnit as a test reporter parses it: one suite, a case per path (or
	# one "verification" case), a failure per error finding on its path.
	python3 - "$dir/$name" <<'PY' || fail "$cli: $name.junit.xml does not match its JSON report"
import json, sys, xml.etree.ElementTree as ET
base = sys.argv[1]
rep = json.load(open(base + ".json"))
root = ET.parse(base + ".junit.xml").getroot()
suites = root.findall("testsuite")
assert root.tag == "testsuites" and len(suites) == 1, "one testsuite"
cases = [c for c in suites[0].findall("testcase") if c.get("name") != "verification"]
assert len(cases) == len(rep["paths"]), (len(cases), len(rep["paths"]))
hosts = {p["host"] for p in rep["paths"]}
for c in cases:
    pool = c.get("classname").rsplit(".", 1)[1]
    errors = [f for f in rep["findings"] if f["severity"] == "error" and f["node_pool"] in ("", pool)
              and (f["endpoint"] not in hosts or f["endpoint"] == c.get("name"))]
    assert len(c.findall("failure")) == len(errors), (pool, c.get("name"), len(errors))
if rep["outcome"] == "not_checked":
    assert suites[0].find("testcase").find("error") is not None, "not_checked has an error"
PY
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
	check_reports "$cli" "$reports" reachable pass
	echo "  network-check, no plan file: passes, verdict reachable, report files written (SARIF as GitHub requires, JUnit parsed)"

	log="$tmp/$cli-plan.log"
	reports="$tmp/$cli-reports-plan"
	if PULLPATH_PLANNED_CHANGES_FILE="$root/scripts/testdata/demo-zone-link-deleted.plan.json" PULLPATH_REPORT_DIR="$reports" \
		"$bin" -chdir="$dir" plan -no-color -lock=false >"$log" 2>&1; then
		cat "$log"
		fail "$cli: network-check with a plan that deletes the zone link should fail"
	fi
	{ grep -q 'DNS_ZONE_NOT_LINKED' "$log" && grep -qi 'after this plan: azurerm_private_dns_zone_virtual_network_link.spoke' "$log"; } ||
		{ cat "$log"; fail "$cli: the failure does not blame azurerm_private_dns_zone_virtual_network_link.spoke"; }
	check_reports "$cli" "$reports" unreachable fail
	grep -q '"code": "DNS_ZONE_NOT_LINKED"' "$reports/$report_name.json" &&
		grep -q '"planned_change": "azurerm_private_dns_zone_virtual_network_link.spoke"' "$reports/$report_name.json" ||
		{ cat "$reports/$report_name.json"; fail "$cli: the JSON report of the failed plan lacks DNS_ZONE_NOT_LINKED blamed on the zone link"; }
	echo "  network-check, plan deleting the zone link: fails, DNS_ZONE_NOT_LINKED after this plan: azurerm_private_dns_zone_virtual_network_link.spoke; report files written before the failure"

	# report.sh as the pipelines call it, after the failed gate: from the
	# report files, without planning again.
	if (cd "$dir" && bash report.sh "$reports" "$log" 1 >"$tmp/$cli-report.md" 2>"$tmp/$cli-report.err"); then
		cat "$tmp/$cli-report.md"
		fail "$cli: report.sh exits 0 for a failed check"
	fi
	grep -q '^## Pull path: a node pool cannot pull after this plan' "$tmp/$cli-report.md" &&
		grep -q '```mermaid' "$tmp/$cli-report.md" && grep -q 'azurerm_private_dns_zone_virtual_network_link.spoke' "$tmp/$cli-report.md" ||
		{ cat "$tmp/$cli-report.err" "$tmp/$cli-report.md"; fail "$cli: report.sh wrote no headline, no diagram or no planned change"; }
	echo "  report.sh: markdown report with the diagram and the planned change ($(wc -l <"$tmp/$cli-report.md") lines)"

	# A fail-closed verification among several: the second cluster's id is
	# mistyped (aks-prdo). Both write their reports.
	log="$tmp/$cli-typo.log"
	reports="$tmp/$cli-reports-typo"
	cat >"$tmp/typo.tfvars" <<TFVARS
clusters = {
  aks-prod = { cluster_id = "$demo_cluster", registry_id = "$demo_registry" }
  aks-typo = { cluster_id = "${demo_cluster%aks-prod}aks-prdo", registry_id = "$demo_registry" }
}
TFVARS
	if PULLPATH_REPORT_DIR="$reports" "$bin" -chdir="$dir" plan -no-color -lock=false -var-file="$tmp/typo.tfvars" >"$log" 2>&1; then
		cat "$log"
		fail "$cli: network-check with a mistyped cluster id should fail"
	fi
	check_reports "$cli" "$reports" reachable pass
	check_reports "$cli" "$reports" unverified not_checked aks-prdo.contosoprod
	jq -e '.not_checked[0].argument == "cluster_id" and (.not_checked[0].detail | test("aks-prdo"))' "$reports/aks-prdo.contosoprod.json" >/dev/null ||
		{ cat "$reports/aks-prdo.contosoprod.json"; fail "$cli: the not_checked report does not name cluster_id and the cluster"; }
	if (cd "$dir" && bash report.sh "$reports" "$log" 1 >"$tmp/$cli-typo-report.md"); then
		cat "$tmp/$cli-typo-report.md"
		fail "$cli: report.sh exits 0 with a verification that checked nothing"
	fi
	grep -q '^## Pull path: not checked: 1 of 2 verifications checked nothing' "$tmp/$cli-typo-report.md" &&
		! grep -q 'every node pool can still pull' "$tmp/$cli-typo-report.md" ||
		{ cat "$tmp/$cli-typo-report.md"; fail "$cli: report.sh does not say that a verification checked nothing"; }
	# A report that is missing altogether (deleted here) is counted too.
	rm "$reports"/aks-prdo.contosoprod.*
	(cd "$dir" && bash report.sh "$reports" "$log" 1 >"$tmp/$cli-missing-report.md") && fail "$cli: report.sh exits 0 with a report missing"
	grep -q '^## Pull path: not checked: 1 of 2' "$tmp/$cli-missing-report.md" && grep -q '1 missing' "$tmp/$cli-missing-report.md" ||
		{ cat "$tmp/$cli-missing-report.md"; fail "$cli: report.sh does not count the missing report"; }
	echo "  network-check, a mistyped cluster among two: fails; both write reports (aks-prdo: not_checked, cluster_id); report.sh: not checked, exit 1; a missing report is counted"
	unset PULLPATH_SNAPSHOT_FILE

	# The module with accept blocks, against the broken demo: both errors
	# accepted, the plan passes and says so.
	dir="$tmp/accept"
	mkdir -p "$dir"
	accept_root "$dir" system
	export TF_DATA_DIR="$tmp/$cli-accept"
	log="$tmp/$cli-accept.log"
	reports="$tmp/$cli-reports-accept"
	"$bin" -chdir="$dir" get -no-color >/dev/null 2>&1 || fail "$cli get failed in the accept root"
	PULLPATH_REPORT_DIR="$reports" "$bin" -chdir="$dir" plan -no-color -lock=false >"$log" 2>&1 ||
		{ cat "$log"; fail "$cli: the module with accept blocks for every error should pass"; }
	grep -q 'Registry pull path: 6 accepted findings' "$log" && grep -q 'DNS_RECORD_MISSING' "$log" && grep -q 'NET-7' "$log" ||
		{ cat "$log"; fail "$cli: the plan output does not list the accepted findings"; }
	grep -q 'notes (6 accepted)' "$reports/$report_name.md" && grep -q "accepted until $expires: the northeurope replica" "$reports/$report_name.md" ||
		{ head -c 3000 "$reports/$report_name.md"; fail "$cli: the Markdown headline does not list the accepted findings"; }
	accept_root "$dir" sytem
	if "$bin" -chdir="$dir" plan -no-color -lock=false >"$log" 2>&1; then
		cat "$log"
		fail "$cli: an accept block naming no node pool should fail"
	fi
	grep -q 'Accept block names no node pool of the verification' "$log" && grep -q '"sytem"' "$log" ||
		{ cat "$log"; fail "$cli: the error does not name the accept block's node_pool"; }
	echo "  module with accept blocks: accepted errors pass and are listed (plan output, Markdown); node_pool \"sytem\" is an error"
}

# accept_root DIR POOL: a root module calling the copied module against the
# broken demo, accepting its two errors, the second for node pool POOL.
accept_root() {
	local dir="$1" pool="$2"
	cat >"$dir/main.tf" <<TF
terraform {
  required_providers {
    pullpath = { source = "pullpath/pullpath" }
  }
}

provider "pullpath" {
  snapshot_file = "$root/examples/demo/broken.json"
}

module "pull_check" {
  source      = "../examples/modules/aks-registry-pull-check"
  cluster_id  = "$demo_cluster"
  registry_id = "$demo_registry"
  accept = [
    {
      code     = "DNS_RECORD_MISSING"
      endpoint = "contosoprod.northeurope.data.azurecr.io"
      reason   = "the northeurope replica serves no pool until the failover test (NET-7)"
      expires  = "$expires"
    },
    {
      code      = "IDENTITY_PULL_ROLE_MISSING"
      node_pool = "$pool"
      reason    = "AcrPull is assigned by the platform pipeline after this plan (NET-8)"
      expires   = "$expires"
    },
    {
      code    = "IDENTITY_PULL_ROLE_MISSING"
      reason  = "AcrPull is assigned by the platform pipeline after this plan (NET-8)"
      expires = "$expires"
    },
  ]
}
TF
}

for cli in ${EXAMPLES_CLI:-tofu terraform}; do
	check_cli "$cli"
done
echo "examples.sh: every example works as documented"
