# Calls the aks-registry-pull-check module for cluster aks-prod and registry
# contosoprod. The provider reads the demo's snapshot so that this example
# plans offline; against live Azure, drop snapshot_file and authenticate as
# for azurerm (Azure CLI, or ARM_USE_OIDC / ARM_CLIENT_ID / ARM_TENANT_ID /
# ARM_SUBSCRIPTION_ID in CI).

terraform {
  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }
}

provider "pullpath" {
  snapshot_file = "${path.module}/../../demo/fixed.json"
}

locals {
  subscription = "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c"
}

# Gate: any error finding fails the plan, naming the owner of the fix.
module "pull_check" {
  source = "../aks-registry-pull-check"

  cluster_id  = "${local.subscription}/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod"
  registry_id = "${local.subscription}/resourceGroups/rg-acr-prod/providers/Microsoft.ContainerRegistry/registries/contosoprod"

  # Missing evidence (a read the plan's identity may not do) fails too.
  fail_on_unverified = true
}

# Report only: the GPU pool (at zero nodes) against an on-premises mirror
# that is not an Azure Container Registry. enforce = false never fails the
# plan; the check block below turns the verdict into a warning instead.
module "mirror_check" {
  source = "../aks-registry-pull-check"

  cluster_id         = "${local.subscription}/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod"
  node_pools         = ["gpu"]
  registry_hosts     = ["harbor.corp.example"]
  registry_addresses = { "harbor.corp.example" = "192.168.40.12" }
  enforce            = false
}

check "mirror_pull_path" {
  assert {
    condition     = module.mirror_check.verdict != "unreachable"
    error_message = "The gpu pool cannot pull from harbor.corp.example: ${join(", ", keys(module.mirror_check.findings_by_owner))} must act (module.mirror_check.summary has each path and fix)."
  }
}

output "verdict" {
  value = module.pull_check.verdict
}

output "findings_by_owner" {
  value = module.pull_check.findings_by_owner
}

output "mirror_verdict" {
  value = module.mirror_check.verdict
}
