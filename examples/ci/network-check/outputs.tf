locals {
  verdicts = { for name, check in data.pullpath_verification.cluster : name => check.verdict }

  # The worst verdict over every cluster.
  verdict = (
    contains(values(local.verdicts), "unreachable") ? "unreachable" :
    contains(values(local.verdicts), "unverified") ? "unverified" :
    "reachable"
  )

  headline = {
    reachable   = "every node pool can still pull after this plan"
    unverified  = "not verified: evidence is missing or known only after apply"
    unreachable = "a node pool cannot pull after this plan"
  }

  # Findings caused by a change of the plan: per cluster, one markdown line
  # per planned change and code, with the node pools it breaks.
  blamed_pools = {
    for name, check in data.pullpath_verification.cluster : name => {
      for f in check.findings :
      format("`%s`: `%s` (owner %s)", f.planned_change, f.code, f.owner) => coalesce(f.node_pool, "-")...
      if f.planned_change != null && f.severity != "info"
    }
  }
  blamed = {
    for name, changes in local.blamed_pools : name => [
      for line in sort(keys(changes)) : "- ${line}, node pools ${join(", ", sort(distinct(changes[line])))}"
    ]
  }
}

output "verdict" {
  description = "The worst verdict over every cluster: reachable, unverified or unreachable."
  value       = local.verdict
}

output "verdicts" {
  description = "The verdict of each cluster, by its name in var.clusters."
  value       = local.verdicts
}

output "summary" {
  description = "The human-readable report of every cluster (paths, then findings grouped by owner; a finding caused by the plan says so)."
  value       = join("\n\n", [for name in sort(keys(data.pullpath_verification.cluster)) : "== ${name}: ${data.pullpath_verification.cluster[name].verdict}\n${data.pullpath_verification.cluster[name].summary}"])
}

output "diagram" {
  description = "The pull paths of each cluster as a Mermaid flowchart, by its name in var.clusters."
  value       = { for name, check in data.pullpath_verification.cluster : name => check.diagram }
}

output "report" {
  description = "Markdown for a pull request comment or job summary: the verdict, the planned changes that break a path, and per cluster the diagram and the summary."
  value = join("\n", concat(
    [
      "### Pull path: ${local.headline[local.verdict]}",
      "",
      "| cluster | verdict |",
      "|---|---|",
    ],
    [for name in sort(keys(local.verdicts)) : "| `${name}` | ${local.verdicts[name]} |"],
    flatten([
      for name in sort(keys(local.blamed)) : concat(
        ["", "**${name}**: planned changes that break the path:", ""],
        local.blamed[name],
      ) if length(local.blamed[name]) > 0
    ]),
    flatten([
      for name in sort(keys(data.pullpath_verification.cluster)) : [
        "",
        "#### ${name}: ${data.pullpath_verification.cluster[name].verdict}",
        "",
        "```mermaid",
        trimspace(data.pullpath_verification.cluster[name].diagram),
        "```",
        "",
        "<details><summary>summary</summary>",
        "",
        "```text",
        trimspace(data.pullpath_verification.cluster[name].summary),
        "```",
        "",
        "</details>",
      ]
    ]),
  ))
}
