# Private DNS zones usually live in a central connectivity subscription.
data "pullpath_private_dns_links" "spoke" {
  virtual_network_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
  zone_subscription_ids = [
    "00000000-0000-0000-0000-000000000001",
    "00000000-0000-0000-0000-000000000002",
  ]
}

output "linked_zones" {
  value = { for z in data.pullpath_private_dns_links.spoke.zones : z.name => z.link_name }
}

# Nodes that use Azure DNS resolve the registry privately only if the
# privatelink.azurecr.io zone is linked to their virtual network.
check "acr_zone_linked" {
  assert {
    condition = data.pullpath_private_dns_links.spoke.complete == false || contains(
      [for z in data.pullpath_private_dns_links.spoke.zones : z.name],
      "privatelink.azurecr.io"
    )
    error_message = "privatelink.azurecr.io is not linked to vnet-spoke: its nodes resolve the registry publicly."
  }
}
