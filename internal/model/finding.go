package model

// Code is a finding code from the public catalogue. Codes are a contract:
// users match on them in check blocks, postconditions and CI, so a code is
// never renamed; new ones may be added.
type Code string

// The catalogue (docs/design/findings.md).
const (
	RouteBlackhole              Code = "ROUTE_BLACKHOLE"
	RouteInvalid                Code = "ROUTE_INVALID"
	RouteGatewayTransitMissing  Code = "ROUTE_GATEWAY_TRANSIT_MISSING"
	RouteBGPPropagationDisabled Code = "ROUTE_BGP_PROPAGATION_DISABLED"
	RoutePeeringNotConnected    Code = "ROUTE_PEERING_NOT_CONNECTED"
	RoutePeeringAccessDisabled  Code = "ROUTE_PEERING_ACCESS_DISABLED"
	RoutePeeringNotSynced       Code = "ROUTE_PEERING_NOT_SYNCED"
	RoutePeeringSubnetExcluded  Code = "ROUTE_PEERING_SUBNET_EXCLUDED"
	RouteHubNotPropagated       Code = "ROUTE_HUB_NOT_PROPAGATED"
	RouteNotTransitive          Code = "ROUTE_NOT_TRANSITIVE"
	RouteForwardedTrafficBlock  Code = "ROUTE_FORWARDED_TRAFFIC_BLOCKED"
	RouteNVAForwardingDisabled  Code = "ROUTE_NVA_FORWARDING_DISABLED"
	RouteNVAUnreachable         Code = "ROUTE_NVA_UNREACHABLE"
	RouteFirewallDenied         Code = "ROUTE_FIREWALL_DENIED"
	RouteNextHopAbsent          Code = "ROUTE_NEXT_HOP_ABSENT"
	SecurityOutboundDenied      Code = "SECURITY_RULE_OUTBOUND_DENIED"
	SecurityInboundDenied       Code = "SECURITY_RULE_INBOUND_DENIED"
	SecurityUnverified          Code = "SECURITY_RULE_UNVERIFIED"
	ReturnRouteMissing          Code = "RETURN_ROUTE_MISSING"
	ReturnRouteAsymmetric       Code = "RETURN_ROUTE_ASYMMETRIC"
	ReturnRouteUnverified       Code = "RETURN_ROUTE_UNVERIFIED"
	EgressNoOutbound            Code = "EGRESS_NO_OUTBOUND"
	EgressFirewallDenied        Code = "EGRESS_FIREWALL_DENIED"
	EgressFirewallNoSNAT        Code = "EGRESS_FIREWALL_NO_SNAT"
	EgressUnverified            Code = "EGRESS_UNVERIFIED"
	ProxyBypassMissing          Code = "PROXY_BYPASS_MISSING"
	EgressProxyUnverified       Code = "EGRESS_PROXY_UNVERIFIED"
	DNSZoneNotLinked            Code = "DNS_ZONE_NOT_LINKED"
	DNSRecordMissing            Code = "DNS_RECORD_MISSING"
	DNSRecordMismatch           Code = "DNS_RECORD_MISMATCH"
	DNSServerUnreachable        Code = "DNS_SERVER_UNREACHABLE"
	DNSForwarderUnverified      Code = "DNS_FORWARDER_UNVERIFIED"
	DNSProxyDisabled            Code = "DNS_PROXY_DISABLED"
	DNSForwardingRuleDiverts    Code = "DNS_FORWARDING_RULE_DIVERTS"
	DNSResolvesPublic           Code = "DNS_RESOLVES_PUBLIC"
	EndpointDataNotCovered      Code = "ENDPOINT_DATA_NOT_COVERED"
	EndpointPENotApproved       Code = "ENDPOINT_PRIVATE_ENDPOINT_NOT_APPROVED"
	EndpointPublicAccessDenied  Code = "ENDPOINT_PUBLIC_ACCESS_DENIED"
	EndpointPublicIPNotAllowed  Code = "ENDPOINT_PUBLIC_IP_NOT_ALLOWED"
	EndpointUnresolved          Code = "ENDPOINT_UNRESOLVED"
	IdentityPullRoleMissing     Code = "IDENTITY_PULL_ROLE_MISSING"
	IdentityABACRoleRequired    Code = "IDENTITY_ABAC_ROLE_REQUIRED"
	IdentityRoleCondition       Code = "IDENTITY_ROLE_CONDITION"
	IdentityAnonymousPull       Code = "IDENTITY_ANONYMOUS_PULL_DISABLED"
	TLSNameNotCovered           Code = "TLS_NAME_NOT_COVERED"
	TLSInspectionCAUntrusted    Code = "TLS_INSPECTION_CA_UNTRUSTED"
	TLSInspectionUnverified     Code = "TLS_INSPECTION_UNVERIFIED"
	CoverageAcceptanceExpired   Code = "COVERAGE_ACCEPTANCE_EXPIRED"
	CoverageAcceptanceUnused    Code = "COVERAGE_ACCEPTANCE_UNUSED"
	CoverageRoutesComputed      Code = "COVERAGE_ROUTES_COMPUTED"
	CoverageModelDrift          Code = "COVERAGE_MODEL_DRIFT"
	CoverageFeatureUnmodelled   Code = "COVERAGE_FEATURE_UNMODELLED"
	CoverageIdentityNotChecked  Code = "COVERAGE_IDENTITY_NOT_CHECKED"
	CoveragePlannedUnknown      Code = "COVERAGE_PLANNED_VALUE_UNKNOWN"
	CoveragePlannedUnsupported  Code = "COVERAGE_PLANNED_CHANGE_UNSUPPORTED"
	CoveragePlannedOffPath      Code = "COVERAGE_PLANNED_CHANGES_OFF_PATH"
	EvidencePermissionDenied    Code = "EVIDENCE_PERMISSION_DENIED"
	EvidenceNotFound            Code = "EVIDENCE_NOT_FOUND"
	EvidenceUnavailable         Code = "EVIDENCE_UNAVAILABLE"
)

// Severity of a finding.
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Condition is the link of the chain a finding is about.
type Condition string

// Conditions.
const (
	ConditionRoute       Condition = "route"
	ConditionReturnRoute Condition = "return_route"
	// ConditionEgress is the way out to a public address: the appliance,
	// firewall or gateway on it and the public IPs the nodes leave through.
	ConditionEgress      Condition = "egress"
	ConditionDNS         Condition = "dns"
	ConditionEndpoint    Condition = "endpoint"
	ConditionTLSIdentity Condition = "tls_identity"
	ConditionCoverage    Condition = "coverage"
	ConditionEvidence    Condition = "evidence"
)

// Owner is the team that acts on a finding.
type Owner string

// Owners.
const (
	OwnerNetwork  Owner = "network"
	OwnerDNS      Owner = "dns"
	OwnerRegistry Owner = "registry"
	OwnerIdentity Owner = "identity"
	OwnerOperator Owner = "operator"
)

// CodeInfo is a code's fixed place in the catalogue.
type CodeInfo struct {
	Severity  Severity
	Condition Condition
	Owner     Owner
	// Unverifying codes make the verdict unverified (marked (u) in the catalogue).
	Unverifying bool
}

// Catalogue maps every code to its severity, condition and owner.
var Catalogue = map[Code]CodeInfo{
	RouteBlackhole:              {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteInvalid:                {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteGatewayTransitMissing:  {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteBGPPropagationDisabled: {SeverityError, ConditionRoute, OwnerNetwork, false},
	RoutePeeringNotConnected:    {SeverityError, ConditionRoute, OwnerNetwork, false},
	RoutePeeringAccessDisabled:  {SeverityError, ConditionRoute, OwnerNetwork, false},
	RoutePeeringNotSynced:       {SeverityError, ConditionRoute, OwnerNetwork, false},
	RoutePeeringSubnetExcluded:  {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteHubNotPropagated:       {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteNotTransitive:          {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteForwardedTrafficBlock:  {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteNVAForwardingDisabled:  {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteNVAUnreachable:         {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteFirewallDenied:         {SeverityError, ConditionRoute, OwnerNetwork, false},
	RouteNextHopAbsent:          {SeverityError, ConditionRoute, OwnerNetwork, false},
	SecurityOutboundDenied:      {SeverityError, ConditionRoute, OwnerNetwork, false},
	SecurityInboundDenied:       {SeverityError, ConditionRoute, OwnerNetwork, false},
	SecurityUnverified:          {SeverityWarning, ConditionRoute, OwnerNetwork, true},
	ReturnRouteMissing:          {SeverityError, ConditionReturnRoute, OwnerNetwork, false},
	ReturnRouteAsymmetric:       {SeverityError, ConditionReturnRoute, OwnerNetwork, false},
	ReturnRouteUnverified:       {SeverityWarning, ConditionReturnRoute, OwnerNetwork, true},
	EgressNoOutbound:            {SeverityError, ConditionEgress, OwnerNetwork, false},
	EgressFirewallDenied:        {SeverityError, ConditionEgress, OwnerNetwork, false},
	EgressFirewallNoSNAT:        {SeverityError, ConditionEgress, OwnerNetwork, false},
	EgressUnverified:            {SeverityWarning, ConditionEgress, OwnerNetwork, true},
	ProxyBypassMissing:          {SeverityError, ConditionEgress, OwnerNetwork, false},
	EgressProxyUnverified:       {SeverityWarning, ConditionEgress, OwnerNetwork, true},
	DNSZoneNotLinked:            {SeverityError, ConditionDNS, OwnerDNS, false},
	DNSRecordMissing:            {SeverityError, ConditionDNS, OwnerDNS, false},
	DNSRecordMismatch:           {SeverityError, ConditionDNS, OwnerDNS, false},
	DNSServerUnreachable:        {SeverityError, ConditionDNS, OwnerDNS, false},
	DNSForwarderUnverified:      {SeverityWarning, ConditionDNS, OwnerDNS, true},
	DNSProxyDisabled:            {SeverityError, ConditionDNS, OwnerDNS, false},
	DNSForwardingRuleDiverts:    {SeverityWarning, ConditionDNS, OwnerDNS, true},
	DNSResolvesPublic:           {SeverityWarning, ConditionDNS, OwnerDNS, false},
	EndpointDataNotCovered:      {SeverityError, ConditionEndpoint, OwnerRegistry, false},
	EndpointPENotApproved:       {SeverityError, ConditionEndpoint, OwnerRegistry, false},
	EndpointPublicAccessDenied:  {SeverityError, ConditionEndpoint, OwnerRegistry, false},
	EndpointPublicIPNotAllowed:  {SeverityError, ConditionEndpoint, OwnerRegistry, false},
	EndpointUnresolved:          {SeverityWarning, ConditionEndpoint, OwnerRegistry, true},
	IdentityPullRoleMissing:     {SeverityError, ConditionTLSIdentity, OwnerIdentity, false},
	IdentityABACRoleRequired:    {SeverityError, ConditionTLSIdentity, OwnerIdentity, false},
	IdentityRoleCondition:       {SeverityWarning, ConditionTLSIdentity, OwnerIdentity, true},
	IdentityAnonymousPull:       {SeverityError, ConditionTLSIdentity, OwnerRegistry, false},
	TLSNameNotCovered:           {SeverityError, ConditionTLSIdentity, OwnerIdentity, false},
	TLSInspectionCAUntrusted:    {SeverityError, ConditionTLSIdentity, OwnerNetwork, false},
	TLSInspectionUnverified:     {SeverityWarning, ConditionTLSIdentity, OwnerNetwork, true},
	// An expired accept block is a warning that does not make the verdict
	// unverified: the findings it no longer accepts decide the verdict.
	CoverageAcceptanceExpired:  {SeverityWarning, ConditionCoverage, OwnerOperator, false},
	CoverageAcceptanceUnused:   {SeverityInfo, ConditionCoverage, OwnerOperator, false},
	CoverageRoutesComputed:     {SeverityInfo, ConditionCoverage, OwnerOperator, false},
	CoverageModelDrift:         {SeverityWarning, ConditionCoverage, OwnerOperator, false},
	CoverageFeatureUnmodelled:  {SeverityWarning, ConditionCoverage, OwnerOperator, true},
	CoverageIdentityNotChecked: {SeverityInfo, ConditionCoverage, OwnerOperator, false},
	CoveragePlannedUnknown:     {SeverityWarning, ConditionCoverage, OwnerOperator, true},
	CoveragePlannedUnsupported: {SeverityWarning, ConditionCoverage, OwnerOperator, false},
	CoveragePlannedOffPath:     {SeverityInfo, ConditionCoverage, OwnerOperator, false},
	EvidencePermissionDenied:   {SeverityWarning, ConditionEvidence, OwnerOperator, true},
	EvidenceNotFound:           {SeverityWarning, ConditionEvidence, OwnerOperator, true},
	EvidenceUnavailable:        {SeverityWarning, ConditionEvidence, OwnerOperator, true},
}

// Finding is one conclusion about one node pool and (where it applies) one
// registry hostname.
type Finding struct {
	Code        Code
	Severity    Severity
	Condition   Condition
	Owner       Owner
	NodePool    string
	Endpoint    string
	ResourceID  ResourceID
	Message     string
	Remediation string
	// PlannedChange is the address of the planned change (or changes,
	// ", "-joined) that causes the finding: it appears only with the plan
	// of planned_changes_file. Empty without a plan or when the finding
	// does not depend on it.
	PlannedChange string
	// Accepted is set when an accept block of the verification accepted
	// the finding (its severity is then info, and it does not decide any
	// verdict); nil otherwise.
	Accepted *Accepted
}

// NewFinding fills severity, condition and owner from the catalogue.
func NewFinding(code Code, pool, endpoint string, resource ResourceID, message, remediation string) Finding {
	info := Catalogue[code]
	return Finding{
		Code: code, Severity: info.Severity, Condition: info.Condition, Owner: info.Owner,
		NodePool: pool, Endpoint: endpoint, ResourceID: resource,
		Message: message, Remediation: remediation,
	}
}

// Verdict of a verification or of one path.
type Verdict string

// Verdicts.
const (
	Reachable   Verdict = "reachable"
	Unreachable Verdict = "unreachable"
	Unverified  Verdict = "unverified"
)

// VerdictOf applies the catalogue's rule: unreachable if any error; else
// unverified if any evidence warning or unverifying code; else reachable.
// Accepted findings decide nothing. A warning of another condition that is
// not marked unverifying (COVERAGE_ACCEPTANCE_EXPIRED, DNS_RESOLVES_PUBLIC,
// COVERAGE_MODEL_DRIFT, …) leaves the verdict as it is.
func VerdictOf(findings []Finding) Verdict {
	v := Reachable
	for _, f := range findings {
		if f.Accepted != nil {
			continue
		}
		if f.Severity == SeverityError {
			return Unreachable
		}
		if Catalogue[f.Code].Unverifying || (f.Severity == SeverityWarning && f.Condition == ConditionEvidence) {
			v = Unverified
		}
	}
	return v
}
