data "pullpath_vnet_peerings" "spoke" {
  virtual_network_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
}

# A peering carries traffic only when both sides exist and are Connected.
output "broken_peerings" {
  value = {
    for p in data.pullpath_vnet_peerings.spoke.peerings : p.name => {
      state   = p.state
      reverse = p.reverse.status
      detail  = p.reverse.detail
    }
    if p.state != "Connected" || p.reverse.status != "present" || p.reverse.state != "Connected"
  }
}

# Gateway transit to an on-premises registry needs use_remote_gateways here
# and allow_gateway_transit on the hub's side.
output "gateway_transit" {
  value = {
    for p in data.pullpath_vnet_peerings.spoke.peerings : p.name =>
    p.use_remote_gateways && coalesce(p.reverse.allow_gateway_transit, false)
  }
}

check "spoke_peerings_connected" {
  assert {
    condition = alltrue([
      for p in data.pullpath_vnet_peerings.spoke.peerings :
      p.state == "Connected" && p.reverse.status == "present"
    ])
    error_message = "A peering of vnet-spoke is not connected on both sides."
  }
}
