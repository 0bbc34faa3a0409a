#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Print the environment for acceptance tests against one CLI:
#
#   eval "$(scripts/acc-env.sh tofu)"       # OpenTofu
#   eval "$(scripts/acc-env.sh terraform)"  # Terraform 1.5.x, the oldest supported
#   eval "$(scripts/acc-env.sh terraform-latest)"  # the newest Terraform built
#   go test ./... -run '^TestAcc' -count=1
#
# The CLI is built into the tool cache first if needed (scripts/tools.sh).
#
# What terraform-plugin-testing v1.16.0 reads, and why each line is here:
#  - TF_ACC=1: resource.Test runs only with it (resource.UnitTest runs always).
#  - TF_ACC_TERRAFORM_PATH: the exact binary to run. With it set the harness
#    uses only that file (hc-install fs.AnyVersion{ExactBinPath}); it never
#    searches PATH and never asks checkpoint/releases.hashicorp.com.
#  - TF_ACC_TERRAFORM_VERSION is unset: with it set and the path missing, the
#    harness would try to download that version.
#  - CHECKPOINT_DISABLE=1: the harness sets it for its own process anyway; set
#    here too so anything else run from this shell stays offline.
#  - TF_CLI_CONFIG_FILE: a fixed, existing CLI config (no ~/.terraformrc or
#    ~/.tofurc of the user). When TF_CLI_CONFIG_FILE names a missing file,
#    OpenTofu prints a warning on stdout before `tofu version` output, and the
#    harness fails with "unable to parse version".
#  - TF_ACC_PROVIDER_NAMESPACE / TF_ACC_PROVIDER_HOST (OpenTofu only): the
#    harness writes `required_providers { pullpath = { source =
#    "<host>/<namespace>/pullpath" } }` into every test config that has no
#    `terraform {}` block, and reattaches the in-process provider under that
#    address. Terraform's default (registry.terraform.io, namespaces "-" and
#    "hashicorp") matches what Terraform infers; OpenTofu's implicit host is
#    registry.opentofu.org, so it gets registry.opentofu.org/pullpath/pullpath.
#    Test configs must therefore not declare a `terraform {}` block.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

case "${1:-}" in
tofu | terraform | terraform-latest)
	bin="$(bash "$here/tools.sh" "$1")"
	;;
*)
	echo "usage: $0 <$(bash "$here/tools.sh" clis | paste -sd '|')>" >&2
	exit 2
	;;
esac
rc="$(bash "$here/tools.sh" cli-config)"

q() { printf '%q' "$1"; }

echo "export TF_ACC=1"
echo "export TF_ACC_TERRAFORM_PATH=$(q "$bin")"
echo "unset TF_ACC_TERRAFORM_VERSION"
echo "export TF_CLI_CONFIG_FILE=$(q "$rc")"
echo "export CHECKPOINT_DISABLE=1"
echo "export TF_IN_AUTOMATION=1"
if [[ "$1" == tofu ]]; then
	echo "export TF_ACC_PROVIDER_NAMESPACE=pullpath"
	echo "export TF_ACC_PROVIDER_HOST=registry.opentofu.org"
else
	echo "unset TF_ACC_PROVIDER_NAMESPACE TF_ACC_PROVIDER_HOST"
fi
