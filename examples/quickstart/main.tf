terraform {
  required_version = ">= 1.5.0"
  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }
}

# Credentials as for azurerm: the Azure CLI login, or ARM_* variables in CI.
provider "pullpath" {}

# The cluster and the registry exist already: another configuration
# created them. Pass their ids (-var, a .tfvars file, TF_VAR_*).
variable "cluster_id" { type = string }
variable "registry_id" { type = string }

# Any error finding fails the plan (enforce defaults to true), with every
# finding addressed to the team that fixes it.
data "pullpath_verification" "aks" {
  cluster_id  = var.cluster_id
  registry_id = var.registry_id
}

output "summary" {
  value = data.pullpath_verification.aks.summary
}
