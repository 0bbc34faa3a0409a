# The clusters whose pull path the network must not break. Replace with
# yours; these are the cluster and registry of examples/demo, so that the
# configuration also plans offline against that demo's snapshots
# (PULLPATH_SNAPSHOT_FILE=../../demo/broken.json).
clusters = {
  aks-prod = {
    cluster_id  = "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/resourceGroups/rg-aks-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod"
    registry_id = "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/resourceGroups/rg-acr-prod/providers/Microsoft.ContainerRegistry/registries/contosoprod"

    # Findings the owners live with, each until a date. For example, a hub
    # whose DNS servers are VMs the provider cannot look into:
    #
    #   accept = [{
    #     code        = "DNS_FORWARDER_UNVERIFIED"
    #     resource_id = "/subscriptions/…/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-dns1"
    #     reason      = "vm-dns1 forwards privatelink.azurecr.io to 168.63.129.16 (NET-118)"
    #     expires     = "2027-06-30"
    #   }]
    accept = []
  }
}
