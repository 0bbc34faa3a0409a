output "verdict" {
  description = "reachable (every checked node pool can pull every registry hostname), unreachable (at least one error finding) or unverified (no error, but evidence is missing)."
  value       = data.pullpath_verification.this.verdict
}

output "reachable" {
  description = "True exactly when verdict is reachable."
  value       = data.pullpath_verification.this.reachable
}

output "findings" {
  description = "Every finding: code, severity, condition, owner, node_pool, endpoint, resource_id, message, remediation. Codes are stable; match on them, not on messages."
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
