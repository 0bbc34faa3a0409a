cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry {
  hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
}
enforce = false
accept {
  code    = "EGRESS_UNVERIFIED"
  reason  = "vm-nva allows the registry hosts (NET-42)"
  expires = "2026-06-14"
}
