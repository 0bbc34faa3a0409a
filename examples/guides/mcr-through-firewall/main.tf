# A new node of every pool must be able to pull the system images AKS runs
# from Microsoft Container Registry: node bootstrap, scale-out and upgrades
# depend on it. With the node subnets' 0.0.0.0/0 sent to a hub Azure
# Firewall (outbound type userDefinedRouting), the firewall's rules decide.
data "pullpath_verification" "mcr" {
  cluster_id = azurerm_kubernetes_cluster.aks.id

  # MCR's login host and the data endpoint of the cluster's region, where
  # layer downloads are redirected.
  registry {
    hosts = [
      "mcr.microsoft.com",
      "${azurerm_kubernetes_cluster.aks.location}.data.mcr.microsoft.com",
    ]
  }

  # Fail the plan on EGRESS_FIREWALL_DENIED (and any other error), and on an
  # unverified verdict: a firewall rule the provider cannot decide, or a
  # firewall policy it may not read, must not pass silently.
  enforce            = true
  fail_on_unverified = true
}

# The rule that makes it pass: the AzureKubernetesService FQDN tag covers
# mcr.microsoft.com and *.data.mcr.microsoft.com (and the other hosts AKS
# needs), for HTTPS from the node subnets.
resource "azurerm_firewall_policy_rule_collection_group" "aks" {
  name               = "aks-egress"
  firewall_policy_id = azurerm_firewall_policy.hub.id
  priority           = 300

  application_rule_collection {
    name     = "aks-required"
    priority = 200
    action   = "Allow"

    rule {
      name                  = "aks-fqdn-tag"
      source_ip_groups      = [azurerm_ip_group.aks_nodes.id]
      destination_fqdn_tags = ["AzureKubernetesService"]
      protocols {
        type = "Https"
        port = 443
      }
    }
  }
}

output "mcr_bootstrap" {
  value = data.pullpath_verification.mcr.summary
}
