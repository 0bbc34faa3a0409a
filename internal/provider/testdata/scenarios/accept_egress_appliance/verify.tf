cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
registry {
  hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
}
enforce = false
accept {
  code        = "EGRESS_UNVERIFIED"
  resource_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva"
  reason      = "vm-nva is the security team's appliance; it allows mcr.microsoft.com and *.data.mcr.microsoft.com on 443 (NET-42)"
  expires     = "2026-12-31"
}
