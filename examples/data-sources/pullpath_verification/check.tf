# Report only: a check block never blocks a plan or an apply. Terraform and
# OpenTofu read the scoped data source after every plan and apply and show a
# failed assertion as a warning, so a broken pull path is visible on every
# run without stopping the run that is about to fix it.
check "registry_pull_path" {
  data "pullpath_verification" "acr" {
    cluster_id  = azurerm_kubernetes_cluster.aks.id
    registry_id = azurerm_container_registry.acr.id
    enforce     = false
  }

  assert {
    condition     = data.pullpath_verification.acr.verdict == "reachable"
    error_message = data.pullpath_verification.acr.summary
  }
}
