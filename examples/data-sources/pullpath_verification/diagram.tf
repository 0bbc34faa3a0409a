# The pull paths as a Mermaid flowchart, for a pull request comment or a CI
# job summary. Read only (enforce = false) so that the plan, and with it the
# output, exists even when a path is broken; the check after it fails the
# job.
data "pullpath_verification" "drawn" {
  cluster_id  = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1"
  registry_id = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
  enforce     = false
}

output "pull_path_diagram" {
  description = "Mermaid flowchart of node pools, resolver, hostnames, hops and addresses."
  value       = data.pullpath_verification.drawn.diagram
}

output "pull_path_verdict" {
  value = data.pullpath_verification.drawn.verdict
}
