#!/usr/bin/env bash
# Copyright (c) The pullpath authors
# SPDX-License-Identifier: MPL-2.0
#
# Self-installing toolchain for the pullpath provider.
#
#   scripts/tools.sh <tool>      ensure <tool> is installed, print its path
#   scripts/tools.sh all         ensure every tool, print "name path" lines
#   scripts/tools.sh cache-dir   print the cache directory
#
# Tools: tofu, terraform, terraform-latest, golangci-lint, tfplugindocs,
# cli-config. `terraform` is the oldest Terraform the provider supports
# (1.5.x); `terraform-latest` is the newest release the Go module proxy
# serves. The acceptance tests run on every CLI listed by `clis`.
#
# Everything is built from source with the machine's Go toolchain through the
# Go module proxy (no release download), and cached outside the repository in
# ${PULLPATH_CACHE:-$HOME/.cache/pullpath}, one directory per tool and version.
# A cached binary is reused when it reports the pinned version. Builds write to
# a temporary name and are renamed into place, so an interrupted build never
# leaves a binary that looks finished. Concurrent callers are serialised with
# flock, per tool.
#
# Progress goes to stderr; stdout carries only the answer, so
#   TOFU="$(scripts/tools.sh tofu)"
# works in scripts and Makefiles.
#
# The file may also be sourced; the functions ensure_<tool> print the path.

set -euo pipefail

TOFU_VERSION="1.12.6"
TERRAFORM_VERSION="1.5.7"
TERRAFORM_LATEST_VERSION="1.13.3"
GOLANGCI_LINT_VERSION="2.15.0"
TFPLUGINDOCS_VERSION="0.25.0"

PULLPATH_CACHE="${PULLPATH_CACHE:-$HOME/.cache/pullpath}"

_log() { printf 'tools.sh: %s\n' "$*" >&2; }
_die() { _log "error: $*"; exit 1; }

_cache() {
	mkdir -p "$PULLPATH_CACHE/locks"
	printf '%s' "$PULLPATH_CACHE"
}

# _with_lock NAME CMD...: run CMD while holding the lock NAME (blocking).
_with_lock() {
	local name="$1"
	shift
	local lock
	lock="$(_cache)/locks/$name.lock"
	(
		flock 9
		"$@"
	) 9>"$lock"
}

# _go_mod_version BIN MODULE: the module version recorded in a Go binary's
# build info (empty when BIN is not a Go binary or lacks it).
_go_mod_version() {
	go version -m "$1" 2>/dev/null | awk -v m="$2" '$1 == "mod" && $2 == m { print $3 }'
}

# _wait_foreign BUILD_CMDLINE: wait while a build of the same tool started
# outside this script (by hand, with the same output path) is still running,
# rather than starting a second one next to it.
_wait_foreign() {
	local pattern="$1" waited=0
	while pgrep -f -- "$pattern" >/dev/null 2>&1; do
		((waited % 60 == 0)) && _log "waiting for a running '$pattern' to finish"
		sleep 5
		waited=$((waited + 5))
	done
}

# _go_install MODULE/PKG VERSION GOBIN: go install a tool into GOBIN,
# through a temporary GOBIN renamed into place.
_go_install() {
	local pkg="$1" ver="$2" bindir="$3"
	local name tmp
	name="$(basename "$pkg")"
	tmp="$(mktemp -d "$(dirname "$bindir")/.$(basename "$bindir").XXXXXX")"
	_log "installing $pkg@$ver (go install; first time takes a few minutes)"
	local start=$SECONDS
	# Run outside any module so the project's go.mod and GOFLAGS play no part.
	(cd "$tmp" && GOFLAGS='' GOBIN="$tmp" go install "$pkg@$ver" >&2) ||
		{ rm -rf "$tmp"; _die "go install $pkg@$ver failed"; }
	mkdir -p "$bindir"
	mv -f "$tmp/$name" "$bindir/$name"
	rm -rf "$tmp"
	_log "installed $bindir/$name in $((SECONDS - start))s"
}

# ---------------------------------------------------------------- OpenTofu

_tofu_ok() {
	[[ -x "$1" ]] || return 1
	local out
	out="$(TF_CLI_CONFIG_FILE="$(ensure_cli_config)" "$1" version 2>/dev/null)" || return 1
	[[ "${out%%$'\n'*}" == "OpenTofu v$TOFU_VERSION" ]]
}

# _build_module_source MODULE VERSION NAME PKG LDFLAGS OUT: build PKG of
# MODULE@vVERSION into OUT from a copy of the module source, after running
# the function PATCH (optional) in the copy. For modules
# whose go.mod has replace directives (OpenTofu, Terraform since 1.6):
# `go install module@version` refuses those. The source is copied into the
# cache and built there with `go build`; it stays in a fixed place so the Go
# build cache can be reused.
_build_module_source() {
	local module="$1" ver="$2" name="$3" pkg="$4" ldflags="$5" out="$6" patch="${7:-}"
	local cache src moddir start=$SECONDS
	cache="$(_cache)"
	src="$cache/src/$name-$ver"
	moddir="$(cd "$cache" && GOFLAGS='' go mod download -json "$module@v$ver" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
	[[ -n "$moddir" && -f "$moddir/go.mod" ]] || _die "go mod download of $module v$ver failed"

	# A complete copy carries a marker. An unmarked copy (interrupted, or made
	# by hand) is kept if it equals the module, otherwise made anew.
	if [[ ! -f "$src/.pullpath-complete" ]]; then
		if [[ -z "$patch" && -d "$src" ]] && diff -rq "$moddir" "$src" >/dev/null 2>&1; then
			chmod -R u+w "$src"
		else
			local tmpsrc
			mkdir -p "$cache/src"
			tmpsrc="$(mktemp -d "$cache/src/.$name-$ver.XXXXXX")"
			cp -a "$moddir/." "$tmpsrc/"
			chmod -R u+w "$tmpsrc"
			if [[ -n "$patch" ]]; then
				(cd "$tmpsrc" && "$patch") || { rm -rf "$tmpsrc"; _die "patching the source of $module v$ver failed"; }
			fi
			rm -rf "$src"
			mv "$tmpsrc" "$src"
		fi
		touch "$src/.pullpath-complete"
	fi

	mkdir -p "$(dirname "$out")"
	local tmpbin="$out.tmp.$$"
	if ! (cd "$src" && GOFLAGS='' go build -ldflags "$ldflags" -o "$tmpbin" "$pkg" >&2); then
		rm -f "$tmpbin"
		_die "go build of $module v$ver failed"
	fi
	mv -f "$tmpbin" "$out"
	_log "built $out in $((SECONDS - start))s"
}

_tofu_build() {
	local out
	out="$(_cache)/tofu-$TOFU_VERSION/tofu"
	_wait_foreign "go build -o $out "
	_tofu_ok "$out" && return 0
	_log "building OpenTofu v$TOFU_VERSION from source (cold: about 10 minutes on 2 cores)"
	# version.dev=no drops the "-dev" suffix, as OpenTofu's release build does;
	# the version string then equals the release ("OpenTofu v1.12.6").
	_build_module_source github.com/opentofu/opentofu "$TOFU_VERSION" opentofu ./cmd/tofu \
		"-X github.com/opentofu/opentofu/version.dev=no" "$out"
	_tofu_ok "$out" || _die "built $out but it does not report OpenTofu v$TOFU_VERSION"
}

ensure_tofu() {
	local out
	out="$(_cache)/tofu-$TOFU_VERSION/tofu"
	_tofu_ok "$out" || _with_lock tofu _tofu_build
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- Terraform

_terraform_ok() {
	[[ -x "$1" ]] || return 1
	[[ "$(_go_mod_version "$1" github.com/hashicorp/terraform)" == "v$TERRAFORM_VERSION" ]] || return 1
	local out
	out="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE="$(ensure_cli_config)" "$1" version 2>/dev/null)" || return 1
	[[ "${out%%$'\n'*}" == "Terraform v$TERRAFORM_VERSION" ]]
}

_terraform_build() {
	local bindir
	bindir="$(_cache)/terraform-$TERRAFORM_VERSION"
	_wait_foreign "go install github.com/hashicorp/terraform@v$TERRAFORM_VERSION"
	_terraform_ok "$bindir/terraform" && return 0
	_go_install github.com/hashicorp/terraform "v$TERRAFORM_VERSION" "$bindir"
	_terraform_ok "$bindir/terraform" || _die "installed $bindir/terraform but it does not report v$TERRAFORM_VERSION"
}

ensure_terraform() {
	local out
	out="$(_cache)/terraform-$TERRAFORM_VERSION/terraform"
	_terraform_ok "$out" || _with_lock terraform _terraform_build
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- Terraform (newest)

# Terraform since 1.6 has replace directives in its go.mod, so, like
# OpenTofu, it is built from a copy of the module source. version.dev=no
# gives the release's version string ("Terraform v1.13.3").
_terraform_latest_ok() {
	[[ -x "$1" ]] || return 1
	local out
	out="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE="$(ensure_cli_config)" "$1" version 2>/dev/null)" || return 1
	[[ "${out%%$'\n'*}" == "Terraform v$TERRAFORM_LATEST_VERSION" ]]
}

# The module zip of Terraform leaves out its nested modules, and the proxy
# does not serve them: the remote-state backends azurerm, consul, cos, gcs,
# kubernetes, oci, oss, pg and s3 are modules of their own under
# internal/backend/remote-state, reached through replace directives. The
# build drops them from go.mod and from the backend table
# (internal/backend/init/init.go); everything else, the local, http,
# inmem and remote/cloud backends included, is Terraform's own source. The
# acceptance tests use local state. The binary is for testing only.
_terraform_drop_nested_backends() {
	local b mods=(azure consul cos gcs kubernetes oci oss pg s3)
	for b in "${mods[@]}"; do
		GOFLAGS='' go mod edit \
			-dropreplace "github.com/hashicorp/terraform/internal/backend/remote-state/$b" \
			-droprequire "github.com/hashicorp/terraform/internal/backend/remote-state/$b"
	done
	local init=internal/backend/init/init.go
	sed -i -E \
		-e '/^[[:space:]]*backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3) "github.com\/hashicorp\/terraform\/internal\/backend\/remote-state\//d' \
		-e '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)\.New\(\)/d' \
		"$init"
	! grep -qE 'backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)\b' "$init"
}

_terraform_latest_build() {
	local out
	out="$(_cache)/terraform-$TERRAFORM_LATEST_VERSION/terraform"
	_terraform_latest_ok "$out" && return 0
	_log "building Terraform v$TERRAFORM_LATEST_VERSION from source (cold: about 6 minutes on 2 cores)"
	_build_module_source github.com/hashicorp/terraform "$TERRAFORM_LATEST_VERSION" terraform . \
		"-X github.com/hashicorp/terraform/version.dev=no" "$out" _terraform_drop_nested_backends
	_terraform_latest_ok "$out" || _die "built $out but it does not report Terraform v$TERRAFORM_LATEST_VERSION"
}

ensure_terraform_latest() {
	local out
	out="$(_cache)/terraform-$TERRAFORM_LATEST_VERSION/terraform"
	_terraform_latest_ok "$out" || _with_lock "terraform-$TERRAFORM_LATEST_VERSION" _terraform_latest_build
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- golangci-lint

_golangci_lint_ok() {
	[[ -x "$1" ]] &&
		[[ "$(_go_mod_version "$1" github.com/golangci/golangci-lint/v2)" == "v$GOLANGCI_LINT_VERSION" ]]
}

_golangci_lint_build() {
	local bindir
	bindir="$(_cache)/golangci-lint-$GOLANGCI_LINT_VERSION"
	_golangci_lint_ok "$bindir/golangci-lint" && return 0
	_go_install github.com/golangci/golangci-lint/v2/cmd/golangci-lint "v$GOLANGCI_LINT_VERSION" "$bindir"
	_golangci_lint_ok "$bindir/golangci-lint" || _die "installed golangci-lint but it is not v$GOLANGCI_LINT_VERSION"
}

ensure_golangci_lint() {
	local out
	out="$(_cache)/golangci-lint-$GOLANGCI_LINT_VERSION/golangci-lint"
	_golangci_lint_ok "$out" || _with_lock golangci-lint _golangci_lint_build
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- tfplugindocs

_tfplugindocs_ok() {
	[[ -x "$1" ]] &&
		[[ "$(_go_mod_version "$1" github.com/hashicorp/terraform-plugin-docs)" == "v$TFPLUGINDOCS_VERSION" ]]
}

_tfplugindocs_build() {
	local bindir
	bindir="$(_cache)/tfplugindocs-$TFPLUGINDOCS_VERSION"
	_tfplugindocs_ok "$bindir/tfplugindocs" && return 0
	_go_install github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs "v$TFPLUGINDOCS_VERSION" "$bindir"
	_tfplugindocs_ok "$bindir/tfplugindocs" || _die "installed tfplugindocs but it is not v$TFPLUGINDOCS_VERSION"
}

ensure_tfplugindocs() {
	local out
	out="$(_cache)/tfplugindocs-$TFPLUGINDOCS_VERSION/tfplugindocs"
	_tfplugindocs_ok "$out" || _with_lock tfplugindocs _tfplugindocs_build
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- CLI config

# A CLI configuration file for OpenTofu and Terraform, to point
# TF_CLI_CONFIG_FILE at. It keeps the user's ~/.terraformrc / ~/.tofurc out of
# tests and tooling; and an existing, valid file keeps OpenTofu from printing a
# warning about a missing one, which would break version parsing in
# terraform-plugin-testing. It holds only a plugin cache directory.
ensure_cli_config() {
	local cache rc
	cache="$(_cache)"
	rc="$cache/tf.rc"
	if [[ ! -f "$rc" ]]; then
		mkdir -p "$cache/plugin-cache"
		local tmp
		tmp="$(mktemp "$rc.XXXXXX")"
		cat >"$tmp" <<EOF
# CLI configuration for OpenTofu and Terraform used by the pullpath toolchain
# (scripts/tools.sh). Do not add provider_installation here: each caller that
# needs dev_overrides writes its own file.
plugin_cache_dir = "$cache/plugin-cache"
EOF
		mv -f "$tmp" "$rc"
	fi
	mkdir -p "$cache/plugin-cache"
	printf '%s\n' "$rc"
}

# ---------------------------------------------------------------- main

_usage() {
	cat >&2 <<EOF
usage: $0 <tofu|terraform|terraform-latest|golangci-lint|tfplugindocs|cli-config|all|clis|cache-dir|versions>

  clis   the CLIs the acceptance tests run on, one name a line (for acc-env.sh)
EOF
	exit 2
}

_main() {
	[[ $# -eq 1 ]] || _usage
	command -v go >/dev/null || _die "go is required on PATH"
	case "$1" in
	tofu) ensure_tofu ;;
	terraform) ensure_terraform ;;
	terraform-latest) ensure_terraform_latest ;;
	clis) printf '%s\n' tofu terraform terraform-latest ;;
	golangci-lint) ensure_golangci_lint ;;
	tfplugindocs) ensure_tfplugindocs ;;
	cli-config) ensure_cli_config ;;
	cache-dir) _cache && echo ;;
	versions)
		printf 'tofu %s\nterraform %s\nterraform-latest %s\ngolangci-lint %s\ntfplugindocs %s\n' \
			"$TOFU_VERSION" "$TERRAFORM_VERSION" "$TERRAFORM_LATEST_VERSION" "$GOLANGCI_LINT_VERSION" "$TFPLUGINDOCS_VERSION"
		;;
	all)
		printf 'cli-config %s\n' "$(ensure_cli_config)"
		printf 'golangci-lint %s\n' "$(ensure_golangci_lint)"
		printf 'tfplugindocs %s\n' "$(ensure_tfplugindocs)"
		printf 'terraform %s\n' "$(ensure_terraform)"
		printf 'terraform-latest %s\n' "$(ensure_terraform_latest)"
		printf 'tofu %s\n' "$(ensure_tofu)"
		;;
	*) _usage ;;
	esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
	_main "$@"
fi
