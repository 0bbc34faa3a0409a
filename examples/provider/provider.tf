terraform {
  required_providers {
    pullpath = {
      source  = "pullpath/pullpath"
      version = "~> 1.0"
    }
  }
}

# Live Azure: credentials as for azurerm/azapi. Here the Azure CLI login
# (the default) is used; in CI, set ARM_TENANT_ID, ARM_CLIENT_ID and
# ARM_USE_OIDC=true (or ARM_CLIENT_SECRET) instead of arguments.
provider "pullpath" {
  subscription_id = "00000000-0000-0000-0000-000000000000"
}

# Offline: answer every read from an ARM snapshot, no credentials needed.
# provider "pullpath" {
#   snapshot_file = "${path.module}/snapshot.json"
# }

# Service principal with a client secret from the environment:
# provider "pullpath" {
#   subscription_id = "00000000-0000-0000-0000-000000000000"
#   tenant_id       = "11111111-1111-1111-1111-111111111111"
#   client_id       = "22222222-2222-2222-2222-222222222222"
#   # client_secret from ARM_CLIENT_SECRET
#   use_cli = false
# }
