cluster_id  = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
enforce     = false
accept {
  code      = "EGRESS_UNVERIFIED"
  node_pool = "user"
  reason    = "the user pool went out through the old appliance (NET-42)"
  expires   = "2026-09-30"
}
