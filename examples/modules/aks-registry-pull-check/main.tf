data "pullpath_verification" "this" {
  cluster_id            = var.cluster_id
  node_pools            = var.node_pools
  registry_id           = var.registry_id
  zone_subscription_ids = length(var.zone_subscription_ids) > 0 ? var.zone_subscription_ids : null
  enforce               = var.enforce
  fail_on_unverified    = var.fail_on_unverified
  declared_in           = var.declared_in

  # Findings the owners have decided to live with, each with a reason and
  # an expiry: they no longer decide the verdict, and every plan lists them.
  dynamic "accept" {
    for_each = var.accept
    content {
      code        = accept.value.code
      reason      = accept.value.reason
      expires     = accept.value.expires
      resource_id = accept.value.resource_id
      node_pool   = accept.value.node_pool
      endpoint    = accept.value.endpoint
    }
  }

  # Any registry other than Azure Container Registry: the hosts a pull
  # touches and, where no private DNS zone resolves them, their addresses.
  dynamic "registry" {
    for_each = var.registry_id == null ? [1] : []
    content {
      hosts     = var.registry_hosts
      addresses = length(var.registry_addresses) > 0 ? var.registry_addresses : null
    }
  }

  timeouts {
    read = var.read_timeout
  }

  lifecycle {
    precondition {
      condition     = (var.registry_id == null) != (length(var.registry_hosts) == 0)
      error_message = "Set exactly one of registry_id (an Azure Container Registry) and registry_hosts (any other registry)."
    }
    precondition {
      condition     = var.registry_id == null || length(var.registry_addresses) == 0
      error_message = "registry_addresses only applies to registry_hosts; an Azure Container Registry's addresses are read from its private endpoints and DNS zones."
    }
    precondition {
      condition     = var.registry_id != null || alltrue([for h in keys(var.registry_addresses) : contains([for x in var.registry_hosts : lower(x)], lower(h))])
      error_message = "Every key of registry_addresses must be one of registry_hosts."
    }
  }
}
