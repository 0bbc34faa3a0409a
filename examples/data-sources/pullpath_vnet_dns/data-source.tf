# What resolver do the nodes of an AKS pool really use? The node subnet's
# virtual network decides, unless the node's network interface overrides it.
data "pullpath_vnet_dns" "aks" {
  virtual_network_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"

  # Optional: a node's NIC (here a scale-set instance of an AKS pool).
  network_interface_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-12345678-vmss/virtualMachines/0/networkInterfaces/aks-system-12345678-vmss"

  timeouts {
    read = "2m"
  }
}

output "node_dns_servers" {
  value = data.pullpath_vnet_dns.aks.effective_dns_servers
}

# DNS servers Azure cannot describe (a VM, on-premises): their forwarding of
# privatelink.azurecr.io must be checked by their owner.
output "uninspectable_dns_servers" {
  value = [
    for s in data.pullpath_vnet_dns.aks.servers : s.address
    if contains(["vm", "external", "unknown"], s.kind)
  ]
}

# Forwarding rules that could send the registry's names elsewhere.
output "azurecr_forwarding_rules" {
  value = flatten([
    for rs in data.pullpath_vnet_dns.aks.forwarding_rulesets : [
      for r in rs.rules : "${rs.name}/${r.name}: ${r.domain} -> ${join(", ", r.targets)}"
      if r.state == "Enabled" && endswith(r.domain, "azurecr.io.")
    ]
  ])
}
