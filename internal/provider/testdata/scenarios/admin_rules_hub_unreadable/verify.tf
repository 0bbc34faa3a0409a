cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry {
  hosts     = ["harbor.corp.example"]
  addresses = { "harbor.corp.example" = "10.0.1.4" }
}
enforce = false
