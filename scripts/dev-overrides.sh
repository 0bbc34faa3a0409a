#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Build the provider from this tree and write a CLI configuration that makes
# OpenTofu and Terraform use that binary for pullpath/pullpath without
# `init` and without any registry (dev_overrides).
#
#   rc="$(scripts/dev-overrides.sh DIR)"     # binary in DIR/plugins, config DIR/tf.rc
#   TF_CLI_CONFIG_FILE="$rc" tofu -chdir=examples/demo plan
#
# The override covers both addresses the provider is known by: OpenTofu's
# implicit registry.opentofu.org/pullpath/pullpath (config `source =
# "pullpath/pullpath"` under OpenTofu) and registry.terraform.io/pullpath/pullpath.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: $0 DIR}"
mkdir -p "$dir/plugins"
dir="$(cd "$dir" && pwd)"

(cd "$root" && go build -ldflags "-X main.version=${VERSION:-dev}" -o "$dir/plugins/terraform-provider-pullpath" .) >&2

cat >"$dir/tf.rc" <<RC
provider_installation {
  dev_overrides {
    "registry.opentofu.org/pullpath/pullpath"   = "$dir/plugins"
    "registry.terraform.io/pullpath/pullpath"   = "$dir/plugins"
  }
  # Any other provider would come from its registry; this project needs none.
  direct {}
}
RC
printf '%s\n' "$dir/tf.rc"
