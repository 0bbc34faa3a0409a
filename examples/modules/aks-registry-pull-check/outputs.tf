output "verdict" {
  description = "reachable (every checked node pool can pull every registry hostname), unreachable (at least one error finding) or unverified (no error, but evidence is missing)."
  value       = data.pullpath_verification.this.verdict
}

output "reachable" {
  description = "True exactly when verdict is reachable."
  value       = data.pullpath_verification.this.reachable
}

output "findings" {
  description = "Every finding: code, severity, condition, owner, node_pool, endpoint, resource_id, message, remediation, and planned_change (the address of the planned change that causes it, with the provider's planned_changes_file; null otherwise). Codes are stable; match on them, not on messages."
  value       = data.pullpath_verification.this.findings
}

output "findings_by_owner" {
  description = "Codes of the error and warning findings, grouped by the owner who acts (network, dns, registry, identity, operator)."
  value = {
    for owner, codes in {
      for f in data.pullpath_verification.this.findings : f.owner => f.code... if f.severity != "info"
    } : owner => sort(distinct(codes))
  }
}

output "paths" {
  description = "One object per node pool × hostname: address, resolver, route source, hops and verdict."
  value       = data.pullpath_verification.this.paths
}

output "summary" {
  description = "Human-readable report: the paths, then the findings grouped by owner."
  value       = data.pullpath_verification.this.summary
}

output "diagram" {
  description = "The paths as a Mermaid flowchart (node pools, resolver, hostnames, addresses and the hops between; failing edges labelled with their code). Put it in a ```mermaid block of a pull request comment or job summary: GitHub and Azure DevOps render it."
  value       = data.pullpath_verification.this.diagram
}
