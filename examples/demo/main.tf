# Demo: verify the pull path of AKS cluster aks-prod to registry contosoprod
# offline, from an ARM snapshot of a hub-spoke network (README.md has the
# story). No Azure account is needed: every read is answered from the file.
#
#   tofu plan -var snapshot=broken   # fails: DNS record and pull role missing
#   tofu plan -var snapshot=fixed    # passes: every pool can pull
#
# `make demo` runs both with the provider built from this tree.

terraform {
  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }
}

variable "snapshot" {
  description = "State of the network to verify: \"broken\" (broken.json) or \"fixed\" (fixed.json)."
  type        = string
  default     = "broken"

  validation {
    condition     = contains(["broken", "fixed"], var.snapshot)
    error_message = "The snapshot must be \"broken\" or \"fixed\"."
  }
}

provider "pullpath" {
  snapshot_file = "${path.module}/${var.snapshot}.json"
}

locals {
  subscription = "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c"
}

data "pullpath_verification" "aks_prod" {
  cluster_id  = "${local.subscription}/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod"
  registry_id = "${local.subscription}/resourceGroups/rg-acr-prod/providers/Microsoft.ContainerRegistry/registries/contosoprod"

  # Every node pool (system, user and the gpu pool at zero nodes) is
  # checked; any finding of severity error fails the plan.
  enforce = true
}

output "verdict" {
  description = "reachable, unreachable or unverified."
  value       = data.pullpath_verification.aks_prod.verdict
}

output "summary" {
  description = "The paths (node pool × registry hostname) and the findings by owner."
  value       = data.pullpath_verification.aks_prod.summary
}

output "stats" {
  description = "ARM requests the verification made (answered from the snapshot) and its duration."
  value       = data.pullpath_verification.aks_prod.stats
}
