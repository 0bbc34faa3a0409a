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

  # A short warning: the verdict and the codes that decide it, one line.
  # The whole report (paths, hops, every fix) is the summary attribute: show
  # it with `terraform console` or an output, not on every plan.
  assert {
    condition = data.pullpath_verification.acr.verdict == "reachable"
    error_message = format("Registry pull path %s: %s. See the summary attribute of data.pullpath_verification.acr for each path and fix.",
      data.pullpath_verification.acr.verdict,
      join(", ", distinct([for f in data.pullpath_verification.acr.findings : "${f.code} (${f.owner})" if f.severity != "info"])),
    )
  }
}
