cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry {
  hosts     = ["harbor.onprem.example"]
  addresses = { "harbor.onprem.example" = "192.168.10.5" }
}
enforce = false
