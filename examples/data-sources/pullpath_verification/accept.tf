# The hub's third-party appliance (not an Azure Firewall) decides what
# leaves: Azure cannot show its rules, so every path through it is
# EGRESS_UNVERIFIED. Once its owners confirm it allows the hosts, accept the
# finding until a date at most a year ahead, and fail on anything else that
# is unverified.
data "pullpath_verification" "mcr_via_appliance" {
  cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"

  registry {
    hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
  }

  fail_on_unverified = true

  accept {
    code        = "EGRESS_UNVERIFIED"
    resource_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva"
    reason      = "vm-nva allows mcr.microsoft.com and *.data.mcr.microsoft.com on TCP 443 (security team, NET-42)"
    expires     = "2027-03-31"
  }
}
