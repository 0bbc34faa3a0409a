# Pull-path check of a network repository's pull requests: proves that every
# node pool of the clusters below can still pull from its registry once the
# network plan of the pull request is applied, and fails the plan (the
# pipeline, the pull request) before that apply when it could not.
#
# It lives beside the network configuration, e.g. infra/network/pull-path-check,
# and runs after that configuration's plan:
#
#   cd infra/network
#   terraform plan -out tfplan && terraform show -json tfplan > plan.json
#   cd pull-path-check
#   terraform init
#   PULLPATH_PLANNED_CHANGES_FILE=$PWD/../plan.json terraform plan
#
# (OpenTofu: `tofu show -json tfplan`; the check reads either CLI's plan.)
# docs/guides/what-if.md explains what the provider does with the plan, and
# ../network-github-actions.yml and ../network-azure-pipelines.yml run it.

terraform {
  # Data source preconditions: Terraform 1.5 or OpenTofu 1.6 and later.
  required_version = ">= 1.5.0"

  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }

  # No backend is needed: this configuration has no resources, only data
  # sources read at plan time, and is never applied.
}

# Authentication as for azurerm: in CI, ARM_USE_OIDC with ARM_CLIENT_ID,
# ARM_TENANT_ID and ARM_SUBSCRIPTION_ID (a read-only identity, see
# docs/guides/permissions.md); on a workstation, the Azure CLI login.
provider "pullpath" {
  # Every read answers as Azure will be after the plan is applied: what it
  # creates or updates as planned, what it deletes as gone, the rest live.
  # null: PULLPATH_PLANNED_CHANGES_FILE, or no plan (Azure as it is).
  planned_changes_file = var.planned_changes_file
  # Each verification writes <cluster>.<registry>.json, .sarif, .md and
  # .junit.xml here, before an error fails the plan, also when it fails
  # closed (outcome not_checked): report.sh and the pipelines read them.
  # null: PULLPATH_REPORT_DIR, or no reports.
  report_dir = var.report_dir
}

# One verification per cluster. The check is this directory alone: copy it
# anywhere (infra/network/pull-path-check in the pipelines) and it works,
# with no module path to keep in step.
data "pullpath_verification" "cluster" {
  for_each = var.clusters

  cluster_id            = each.value.cluster_id
  registry_id           = each.value.registry_id
  node_pools            = each.value.node_pools
  zone_subscription_ids = length(var.zone_subscription_ids) > 0 ? var.zone_subscription_ids : null

  # Findings the owners live with, per cluster (clusters.auto.tfvars): with
  # fail_on_unverified = true, a hub whose custom DNS VM forwards in a way
  # Azure cannot show (DNS_FORWARDER_UNVERIFIED) would fail every pull
  # request without one. An accepted finding no longer decides the verdict;
  # every plan and report lists it, and its block expires.
  dynamic "accept" {
    for_each = coalesce(each.value.accept, [])
    content {
      code        = accept.value.code
      reason      = accept.value.reason
      expires     = accept.value.expires
      resource_id = accept.value.resource_id
      node_pool   = accept.value.node_pool
      endpoint    = accept.value.endpoint
    }
  }

  # Any error finding fails the plan: the pull request cannot merge a
  # network change that breaks a node pool's pull path.
  enforce = var.enforce
  # A value known only after apply, or a read the identity may not do,
  # leaves the verdict unverified; with true that fails the plan too.
  fail_on_unverified = var.fail_on_unverified
}
