#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Documentation pipeline (tfplugindocs, pinned in scripts/tools.sh).
#
#   scripts/docs.sh generate   format examples/, regenerate docs/ in place
#   scripts/docs.sh check      fail (with a diff) when docs/ is stale or an
#                              example is unformatted; tfplugindocs validate;
#                              go test ./internal/doccheck (Mermaid blocks
#                              parse, codes tables match the catalogue)
#   scripts/docs.sh schema F   write the provider schema JSON to F
#
# tfplugindocs would normally build the provider and run `terraform init`
# against the registry, which needs the network. Instead the provider is
# built here, OpenTofu loads it through a dev_overrides CLI config (no init),
# `tofu providers schema -json` exports the schema, and tfplugindocs reads it
# with --providers-schema. tfplugindocs v0.25.0 looks the schema up under the
# key "pullpath" or "registry.terraform.io/hashicorp/pullpath" only, so the
# key registry.terraform.io/pullpath/pullpath is renamed to "pullpath".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools=(bash "$root/scripts/tools.sh")
provider_name=pullpath
source_address=registry.terraform.io/pullpath/pullpath

tmp="$(mktemp -d "${TMPDIR:-/tmp}/pullpath-docs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

tofu="$("${tools[@]}" tofu)"
# The machine may point TF_CLI_CONFIG_FILE at a missing file; OpenTofu then
# prints a warning on stdout. Use the toolchain's own CLI config.
TF_CLI_CONFIG_FILE="$("${tools[@]}" cli-config)"
export TF_CLI_CONFIG_FILE
tfplugindocs="$("${tools[@]}" tfplugindocs)"

# schema OUT: the provider schema, keyed as tfplugindocs expects.
schema() {
	local out="$1" rc
	rc="$(bash "$root/scripts/dev-overrides.sh" "$tmp/dev")"
	mkdir -p "$tmp/schema-config"
	cat >"$tmp/schema-config/main.tf" <<EOF
terraform {
  required_providers {
    $provider_name = {
      source = "$source_address"
    }
  }
}
EOF
	# stdout is the JSON document; the dev_overrides warning goes to stderr.
	(cd "$tmp/schema-config" &&
		TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 \
			"$tofu" providers schema -json >"$tmp/schema.raw.json" 2>"$tmp/schema.stderr") || {
		cat "$tmp/schema.stderr" >&2
		echo "docs.sh: tofu providers schema -json failed" >&2
		exit 1
	}
	if ! grep -q "\"provider_schemas\":{\"$source_address\":" "$tmp/schema.raw.json"; then
		echo "docs.sh: no schema for $source_address in the output of tofu providers schema -json:" >&2
		head -c 2000 "$tmp/schema.raw.json" >&2
		exit 1
	fi
	sed "s|\"provider_schemas\":{\"$source_address\":|\"provider_schemas\":{\"$provider_name\":|" \
		"$tmp/schema.raw.json" >"$out"
}

# render DIR SCHEMA: run tfplugindocs generate on a provider directory.
render() {
	"$tfplugindocs" generate \
		--provider-dir "$1" \
		--provider-name "$provider_name" \
		--providers-schema "$2" \
		--rendered-website-dir docs \
		--examples-dir examples \
		--website-source-dir templates \
		--website-temp-dir "$tmp/website"
}

validate() {
	"$tfplugindocs" validate \
		--provider-dir "$root" \
		--provider-name "$provider_name" \
		--providers-schema "$1"
}

cmd="${1:-}"
case "$cmd" in
generate)
	if [[ -d "$root/examples" ]]; then
		"$tofu" fmt -recursive "$root/examples" >/dev/null
	fi
	schema "$tmp/schema.json"
	render "$root" "$tmp/schema.json"
	validate "$tmp/schema.json"
	echo "docs.sh: docs/ regenerated"
	;;
check)
	status=0
	if [[ -d "$root/examples" ]] && ! "$tofu" fmt -check -recursive -diff "$root/examples"; then
		echo "docs.sh: examples/ is not formatted; run: make generate" >&2
		status=1
	fi
	schema "$tmp/schema.json"
	# Regenerate into a copy of the inputs and compare with docs/.
	mkdir -p "$tmp/tree"
	for d in templates examples docs; do
		if [[ -d "$root/$d" ]]; then cp -a "$root/$d" "$tmp/tree/$d"; fi
	done
	render "$tmp/tree" "$tmp/schema.json" >"$tmp/render.log" 2>&1 || {
		cat "$tmp/render.log" >&2
		exit 1
	}
	if ! diff -ruN "$root/docs" "$tmp/tree/docs" >"$tmp/docs.diff"; then
		cat "$tmp/docs.diff"
		echo "docs.sh: docs/ is stale (diff above: current -> regenerated); run: make generate" >&2
		status=1
	fi
	validate "$tmp/schema.json" || status=1
	# Mermaid blocks parse, codes tables list the catalogue (internal/doccheck).
	(cd "$root" && go test -count=1 ./internal/doccheck/) || {
		echo "docs.sh: the documentation disagrees with the code (go test ./internal/doccheck above)" >&2
		status=1
	}
	if [[ $status -eq 0 ]]; then echo "docs.sh: docs/ is up to date and valid"; fi
	exit "$status"
	;;
schema)
	schema "${2:?usage: $0 schema OUT}"
	;;
*)
	echo "usage: $0 <generate|check|schema OUT>" >&2
	exit 2
	;;
esac
