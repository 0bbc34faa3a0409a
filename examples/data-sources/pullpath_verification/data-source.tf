# Every node pool of the cluster (at zero nodes too) must be able to pull
# from the registry: each hostname a pull touches is resolved through the
# nodes' own resolver, routed there and back, and checked for private
# endpoint approval, TLS name and the kubelet identity's pull role. Any
# finding of severity error fails the plan with one report by owner.
data "pullpath_verification" "acr" {
  cluster_id  = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
  registry_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"

  # Private DNS zones kept in a central connectivity subscription are found
  # through Azure Resource Graph. Where the plan's identity may not use
  # Resource Graph, name the subscriptions that hold the zones instead:
  # zone_subscription_ids = ["00000000-0000-0000-0000-000000000002"]
}

# Any other registry: the hosts a pull touches, and the addresses of those
# that no Azure private DNS zone resolves. Only the user pool is checked;
# missing evidence (a DNS server whose forwarding cannot be read, a refused
# read) fails the plan too.
data "pullpath_verification" "harbor" {
  cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
  node_pools = ["user"]

  registry {
    hosts     = ["harbor.corp.example", "harbor-blobs.corp.example"]
    addresses = { "harbor-blobs.corp.example" = "192.168.10.21" }
  }

  fail_on_unverified = true

  timeouts {
    read = "10m"
  }
}

output "pull_path" {
  description = "Paths (node pool × hostname) and findings by owner."
  value       = data.pullpath_verification.acr.summary
}
