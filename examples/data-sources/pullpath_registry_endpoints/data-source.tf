data "pullpath_registry_endpoints" "acr" {
  registry_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
}

# Every hostname a pull touches, with the private addresses that serve it:
# the login server and one data endpoint per region.
output "registry_hosts" {
  value = {
    for e in data.pullpath_registry_endpoints.acr.endpoints : e.host => {
      kind    = e.kind
      region  = e.region
      address = e.private_addresses
    }
  }
}

# A data endpoint without a private address while the login server has one:
# manifests work, layer downloads fail.
output "uncovered_data_endpoints" {
  value = [
    for e in data.pullpath_registry_endpoints.acr.endpoints : e.host
    if e.kind == "data" && length(e.private_addresses) == 0
  ]
}

output "private_endpoints_not_approved" {
  value = [
    for pe in data.pullpath_registry_endpoints.acr.private_endpoints : pe.name
    if pe.connection_status != "Approved"
  ]
}
