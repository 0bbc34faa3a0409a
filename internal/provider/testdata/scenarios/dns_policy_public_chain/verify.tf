cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry {
  hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
}
enforce = false
