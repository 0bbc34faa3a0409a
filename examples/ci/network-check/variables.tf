variable "planned_changes_file" {
  description = "Path of the JSON of the network configuration's saved plan (terraform show -json tfplan, or tofu show -json tfplan). null (the default): the provider reads PULLPATH_PLANNED_CHANGES_FILE, and without it Azure as it is now."
  type        = string
  default     = null
}

variable "report_dir" {
  description = "Directory into which every verification writes its report files (<cluster>.<registry>.json, .sarif, .md and .junit.xml), before an error fails the plan, also when it fails closed. null (the default): the provider reads PULLPATH_REPORT_DIR, and without it writes no files."
  type        = string
  default     = null
}

variable "clusters" {
  description = "The clusters whose node pools must keep pulling, by a short name used in the outputs: each with its AKS cluster id, the Azure Container Registry id it pulls from, optionally the node pools to check (null: every pool, including pools at zero nodes) and the findings its owners accept (accept: code, reason, expires YYYY-MM-DD at most 366 days ahead, and optional matchers resource_id, node_pool, endpoint; see pullpath_verification's accept blocks)."
  type = map(object({
    cluster_id  = string
    registry_id = string
    node_pools  = optional(set(string))
    accept = optional(list(object({
      code        = string
      reason      = string
      expires     = string
      resource_id = optional(string)
      node_pool   = optional(string)
      endpoint    = optional(string)
    })), [])
  }))

  validation {
    condition     = length(var.clusters) > 0
    error_message = "clusters must name at least one cluster; a check of nothing would always pass."
  }
}

variable "zone_subscription_ids" {
  description = "Subscriptions that hold the private DNS zones, for identities that may not use Azure Resource Graph; empty (the default): Resource Graph finds them."
  type        = set(string)
  default     = []
  nullable    = false
}

variable "enforce" {
  description = "When true (the default), an error finding fails the plan. The pipelines set it to false only to write the report of a check that already failed."
  type        = bool
  default     = true
  nullable    = false
}

variable "fail_on_unverified" {
  description = "When true, verdict unverified fails the plan too: a planned value known only after apply, or a read the identity may not do, must not pass as reachable."
  type        = bool
  default     = true
  nullable    = false
}
