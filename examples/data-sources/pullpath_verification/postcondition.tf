# The cluster is created in this configuration, so its id is unknown at
# plan time: the verification is read during apply, after the cluster
# exists. With enforce = false the read itself never fails the apply that
# creates the cluster; the gate below fails instead, listing the errors, and
# whatever depends on the gate (the workloads) is not deployed. Later plans
# read the verification at plan time and fail on the gate until the
# findings are fixed.
data "pullpath_verification" "acr" {
  cluster_id  = azurerm_kubernetes_cluster.aks.id
  registry_id = azurerm_container_registry.acr.id
  enforce     = false
}

resource "terraform_data" "registry_pull_gate" {
  input = data.pullpath_verification.acr.verdict

  lifecycle {
    postcondition {
      condition = self.output != "unreachable"
      error_message = join("\n", concat(
        ["The node pools of ${azurerm_kubernetes_cluster.aks.name} cannot pull from ${azurerm_container_registry.acr.login_server}:"],
        [
          for f in data.pullpath_verification.acr.findings :
          "- [${f.owner}] ${f.code} (${f.node_pool}, ${f.endpoint}): ${f.message} Fix: ${f.remediation}"
          if f.severity == "error"
        ],
      ))
    }
  }
}

# Deploy workloads only once the nodes can pull their images.
resource "helm_release" "app" {
  name       = "app"
  chart      = "oci://${azurerm_container_registry.acr.login_server}/charts/app"
  depends_on = [terraform_data.registry_pull_gate]
}
