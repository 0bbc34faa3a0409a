# A fresh node must reach the Microsoft Container Registry for the cluster's
# own images. The hosts resolve publicly; the verification follows each node
# pool's route for public addresses and what the flow leaves through (NAT
# gateway, load balancer, Azure Firewall, another appliance, on-premises).
# Replace westeurope with the cluster's region.
data "pullpath_verification" "mcr" {
  cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"

  registry {
    hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
  }

  # A way out whose rules Azure cannot show (an appliance, forced
  # tunnelling) is unverified: fail the plan on it as well.
  fail_on_unverified = true
}

output "mcr_hosts_to_allow" {
  description = "What a device on the way out must allow, when the verdict is unverified."
  value = [
    for f in data.pullpath_verification.mcr.findings : f.message
    if f.code == "EGRESS_UNVERIFIED"
  ]
}
