terraform {
  # Data source preconditions and check blocks: Terraform 1.5 or OpenTofu 1.6
  # and later.
  required_version = ">= 1.5.0"

  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }
}
