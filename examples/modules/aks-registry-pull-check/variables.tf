variable "cluster_id" {
  description = "Resource id of the AKS cluster whose node pools must be able to pull (…/providers/Microsoft.ContainerService/managedClusters/NAME)."
  type        = string

  validation {
    condition     = can(regex("(?i)^/subscriptions/[0-9a-f-]{36}/resourceGroups/[^/]+/providers/Microsoft\\.ContainerService/managedClusters/[^/]+$", var.cluster_id))
    error_message = "cluster_id must be the resource id of an AKS cluster: /subscriptions/<guid>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>."
  }
}

variable "registry_id" {
  description = "Resource id of the Azure Container Registry the nodes pull from. Set this, or registry_hosts for any other registry (not both)."
  type        = string
  default     = null

  validation {
    condition     = var.registry_id == null || can(regex("(?i)^/subscriptions/[0-9a-f-]{36}/resourceGroups/[^/]+/providers/Microsoft\\.ContainerRegistry/registries/[^/]+$", var.registry_id))
    error_message = "registry_id must be the resource id of an Azure Container Registry: /subscriptions/<guid>/resourceGroups/<rg>/providers/Microsoft.ContainerRegistry/registries/<name>."
  }
}

variable "registry_hosts" {
  description = "For a registry that is not an Azure Container Registry (Harbor, Artifactory, Nexus, …): every hostname a pull touches, in order — login, auth realm, blob or redirect hosts. Names only, no scheme, port or path."
  type        = list(string)
  default     = []
  nullable    = false

  validation {
    condition     = alltrue([for h in var.registry_hosts : can(regex("^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$", h))])
    error_message = "registry_hosts must be plain hostnames such as harbor.corp.example (no scheme, port, path or wildcard)."
  }

  validation {
    condition     = length(distinct([for h in var.registry_hosts : lower(h)])) == length(var.registry_hosts)
    error_message = "registry_hosts must not repeat a hostname."
  }
}

variable "registry_addresses" {
  description = "Addresses (hostname → IP) of registry_hosts that no Azure private DNS zone resolves, e.g. names served by an on-premises DNS server. Keys must be among registry_hosts."
  type        = map(string)
  default     = {}
  nullable    = false

  validation {
    condition     = alltrue([for ip in values(var.registry_addresses) : can(cidrhost("${ip}/32", 0)) || can(cidrhost("${ip}/128", 0))])
    error_message = "Every value of registry_addresses must be an IPv4 or IPv6 address (no prefix length)."
  }
}

variable "node_pools" {
  description = "Names of the node pools to check; null (the default) checks every pool, including pools at zero nodes. A pool that can host the workload and is left out can still break a rollout."
  type        = set(string)
  default     = null

  validation {
    condition     = var.node_pools == null || try(length(var.node_pools) > 0 && alltrue([for p in var.node_pools : can(regex("^[a-z][a-z0-9]{0,11}$", p))]), false)
    error_message = "node_pools must be null (every pool) or a non-empty set of AKS node pool names (lower-case letters and digits, starting with a letter, at most 12 characters)."
  }
}

variable "zone_subscription_ids" {
  description = "Subscriptions that hold the private DNS zones (e.g. a central connectivity subscription), for identities that may not use Azure Resource Graph. Empty (the default): Resource Graph finds the zones linked to the node VNets in every subscription the identity can read. Set: these subscriptions (and the cluster's and the registry's) are searched instead, and a zone not found there is unverified."
  type        = set(string)
  default     = []
  nullable    = false

  validation {
    condition     = alltrue([for s in var.zone_subscription_ids : can(regex("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", s))])
    error_message = "zone_subscription_ids must be subscription ids (GUIDs), not resource ids."
  }
}

variable "enforce" {
  description = "When true, any finding of severity error fails the plan (one diagnostic, grouped by owner). When false, nothing fails: use the outputs, e.g. in a check block."
  type        = bool
  default     = true
  nullable    = false
}

variable "fail_on_unverified" {
  description = "When true (and enforce is true), verdict unverified fails the plan too: missing evidence — a permission the plan's identity lacks, a DNS server whose forwarding cannot be read — must not pass silently."
  type        = bool
  default     = false
  nullable    = false
}

variable "read_timeout" {
  description = "How long the verification may read Azure Resource Manager, as a duration (\"5m\", \"90s\")."
  type        = string
  default     = "5m"
  nullable    = false

  validation {
    condition     = can(regex("^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$", var.read_timeout))
    error_message = "read_timeout must be a duration such as \"90s\", \"5m\" or \"1h\"."
  }
}

variable "accept" {
  description = "Findings the owners have decided to live with (the accept blocks of pullpath_verification): each with code, a non-empty reason, expires (YYYY-MM-DD, at most 366 days ahead) and optional matchers resource_id, node_pool and endpoint (all given must match). A matched finding becomes a note that no longer decides the verdict and is listed in every plan and report; an expired block accepts nothing and says so; a node_pool the verification does not check is an error."
  type = list(object({
    code        = string
    reason      = string
    expires     = string
    resource_id = optional(string)
    node_pool   = optional(string)
    endpoint    = optional(string)
  }))
  default  = []
  nullable = false
}

variable "declared_in" {
  description = "The file of the repository that the SARIF report (with the provider's report_dir) anchors this verification's results in, relative to the directory Terraform runs in. null (the default): the first .tf file there that declares a pullpath_verification, else main.tf there; set it to the file of the module call, e.g. \"main.tf\", when this module is installed from a registry."
  type        = string
  default     = null
}
