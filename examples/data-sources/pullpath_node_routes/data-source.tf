# Every address a pull connects to: the registry's private endpoint
# addresses (login server and the data endpoint of every region).
data "pullpath_registry_endpoints" "acr" {
  registry_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
}

# The routes of every node pool of the cluster, and where a packet from a
# node goes for each address: the registry's, and an on-premises mirror
# (harbor.corp.example) behind the hub's VPN gateway.
data "pullpath_node_routes" "aks" {
  cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
  destinations = concat(
    distinct(flatten([for e in data.pullpath_registry_endpoints.acr.endpoints : e.private_addresses])),
    ["192.168.10.20"],
  )
}

# Per node pool and destination: the route the nodes' subnet selects, the
# path, and the verdict.
output "node_routes" {
  value = {
    for t in data.pullpath_node_routes.aks.traces : "${t.node_pool} -> ${t.destination}" => {
      verdict      = t.verdict
      route_source = t.route_source
      route        = t.selected_route == null ? "no route" : "${t.selected_route.address_prefix} ${t.selected_route.next_hop_type}"
      hops         = t.hops
    }
  }
}

# What is broken, by whom, and what to change.
output "route_findings" {
  value = [
    for f in data.pullpath_node_routes.aks.findings :
    "${f.severity} ${f.code} (${coalesce(f.node_pool, "-")} -> ${coalesce(f.destination, "-")}): ${f.message}"
    if f.severity != "info"
  ]
}

# Security rules on the paths (TCP 443, the pull's flow): the hops list every
# network security group passed (node NIC and subnet, appliances, the
# destination's subnet and NIC); a denial names the group, rule and priority.
output "security_denials" {
  value = [
    for f in data.pullpath_node_routes.aks.findings :
    "${f.code} ${f.resource_id} (${coalesce(f.node_pool, "-")} -> ${f.destination}): ${f.message}"
    if startswith(f.code, "SECURITY_RULE_")
  ]
}

# The effective (or computed) route table of each pool, as Azure lists it.
output "route_tables" {
  value = {
    for s in data.pullpath_node_routes.aks.route_sets : s.node_pool => [
      for r in s.routes : "${r.address_prefix} ${r.next_hop_type}${r.next_hop_ip == null ? "" : " ${r.next_hop_ip}"} ${r.state}"
    ]
  }
}

check "nodes_reach_registry" {
  assert {
    condition     = alltrue([for t in data.pullpath_node_routes.aks.traces : t.verdict == "reachable"])
    error_message = "A node pool has no working route to an address the image pull needs; see output route_findings."
  }
}
