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
	SecurityAdminRuleDenied     Code = "SECURITY_ADMIN_RULE_DENIED"
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
	DNSPolicyBlocked            Code = "DNS_POLICY_BLOCKED"
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

// CodeInfo is one code of the catalogue with every column: its fixed
// place (severity, condition, owner, the (u) mark) and its help text.
type CodeInfo struct {
	Code      Code
	Severity  Severity
	Condition Condition
	Owner     Owner
	// Unverifying codes make the verdict unverified (marked (u) in the catalogue).
	Unverifying bool
	// Meaning is what the code means, and Guidance how it is usually
	// fixed: the help text of its SARIF rule. The finding's own message
	// and remediation name the concrete resources; this is the general
	// guidance, and the troubleshooting guide has the causes.
	Meaning, Guidance string
}

// catalogue is every code of the catalogue, one row each with every
// column: its place (severity, condition, owner, the (u) mark) and its
// help (what it means and how it is usually fixed: the SARIF rule's help
// text). The order is the documentation's: CodesByCondition follows it.
var catalogue = []CodeInfo{
	// Catalogue maps every code to its severity, condition and owner.
	{Code: RouteBlackhole, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The route selected for the registry address drops the packet (next hop None, including the default None routes for private ranges outside the VNet).",
		Guidance: "Add or fix a route that carries the address (a peering, a UDR to the hub appliance or gateway), or remove the UDR that drops it."},
	{Code: RouteInvalid, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The route that would carry the registry address is in state Invalid for the node subnet.",
		Guidance: "Make the route's next hop exist for the subnet (for example a gateway reachable through the peering), or replace the route."},
	{Code: RouteGatewayTransitMissing, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The address is behind a hub gateway, but the spoke peering lacks useRemoteGateways or the hub peering lacks allowGatewayTransit.",
		Guidance: "Enable allowGatewayTransit on the hub side and useRemoteGateways on the spoke side of the peering."},
	{Code: RouteBGPPropagationDisabled, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "Gateway routes would cover the address, but the node subnet's route table disables BGP route propagation and no UDR covers it.",
		Guidance: "Enable gateway route propagation on the node subnet's route table, or add a UDR for the address."},
	{Code: RoutePeeringNotConnected, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The path needs a virtual network peering that is not Connected on both sides.",
		Guidance: "Create or re-create the missing side of the peering so that both sides are Connected."},
	{Code: RoutePeeringAccessDisabled, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The path needs a peering with allowVirtualNetworkAccess false.",
		Guidance: "Set allowVirtualNetworkAccess to true on both sides of the peering."},
	{Code: RoutePeeringNotSynced, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The address lies in remote address space the peering has not synced.",
		Guidance: "Sync the peering (resync after the remote VNet's address space changed)."},
	{Code: RoutePeeringSubnetExcluded, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The peering connects only some subnets, and the destination's subnet or the nodes' subnet is not among them.",
		Guidance: "Add the subnet to the peering's local or remote subnet names, or peer the complete virtual networks."},
	{Code: RouteHubNotPropagated, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "In Virtual WAN, the destination's hub connection (or the connection whose static route leads to it) does not propagate its prefixes, or its static routes, to the route table the nodes' connection is associated with, so the nodes have no route to it.",
		Guidance: "Add that route table (or one of its labels) to the propagated route tables of the destination's hub connection; for a static route, also set propagateStaticRoutes on that connection (or add the prefix to the route table with next hop the connection)."},
	{Code: RouteNotTransitive, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The address is in a VNet peered only with a VNet the nodes are peered with; peering is not transitive and no UDR sends the traffic through an appliance.",
		Guidance: "Peer the two VNets directly, or route the address through a hub appliance or Azure Firewall with a UDR."},
	{Code: RouteForwardedTrafficBlock, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "Traffic forwarded by an appliance enters a peering whose receiving side lacks allowForwardedTraffic.",
		Guidance: "Enable allowForwardedTraffic on the receiving side of the peering."},
	{Code: RouteNVAForwardingDisabled, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The VirtualAppliance next hop's network interface has IP forwarding disabled.",
		Guidance: "Enable IP forwarding on the appliance's network interface."},
	{Code: RouteNVAUnreachable, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The VirtualAppliance next hop address is not in any network the node subnet reaches.",
		Guidance: "Point the route at an appliance address in the node VNet or a peered VNet."},
	{Code: RouteFirewallDenied, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "A private path (spoke to spoke, to a private endpoint, to on-premises, to a DNS server) crosses an Azure Firewall whose rules allow no TCP 443 (TCP/UDP 53 for DNS) from the node addresses to that destination; a firewall denies every flow no rule allows, east-west included.",
		Guidance: "Add a rule to the firewall policy (or classic rule collection) that allows the flow, preferably an application rule for HTTPS, which also source-NATs and keeps the flow symmetric."},
	{Code: RouteNextHopAbsent, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The selected route's VirtualAppliance next hop address is held by nothing: no NIC, load balancer frontend or Azure Firewall IP configuration (a stopped, deallocated firewall has none).",
		Guidance: "Start the firewall or appliance that held the address, or point the route at an address that is in use."},
	{Code: SecurityOutboundDenied, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "A network security group on the node NIC or subnet (or leaving an appliance) denies the flow: TCP 443 to the registry address, TCP/UDP 53 to a DNS server.",
		Guidance: "Add an outbound allow rule with a higher priority (lower number) than the denying rule."},
	{Code: SecurityInboundDenied, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "A network security group at the destination (registry or private endpoint subnet where NSG policies apply, DNS server, appliance) denies the flow from the node subnet.",
		Guidance: "Add an inbound allow rule from the node subnet with a higher priority than the denying rule."},
	{Code: SecurityAdminRuleDenied, Severity: SeverityError, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "An Azure Virtual Network Manager security admin rule in effect on the node VNet, an appliance's VNet or the destination VNet denies the flow; admin rules are evaluated before network security groups, so no group can allow it (private endpoints are not subject to them).",
		Guidance: "Ask the network manager's owners to allow the flow in the security admin configuration (an Allow or AlwaysAllow rule with a lower priority number, or a narrower Deny) and deploy it; changing network security groups will not help."},
	{Code: SecurityUnverified, Severity: SeverityWarning, Condition: ConditionRoute, Owner: OwnerNetwork, Unverifying: true,
		Meaning:  "A security rule that decides the flow uses a service tag or application security group whose members cannot be resolved.",
		Guidance: "Use address prefixes in the rule, or grant the read that resolves the tag; the verdict stays unverified until then."},
	{Code: ReturnRouteMissing, Severity: SeverityError, Condition: ConditionReturnRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The registry side has no route back to the node subnet (one-way peering, spoke prefix not advertised, …).",
		Guidance: "Give the destination side a route back to the node subnet (peering, UDR, BGP advertisement)."},
	{Code: ReturnRouteAsymmetric, Severity: SeverityError, Condition: ConditionReturnRoute, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The forward path crosses an appliance that the return path bypasses, so a stateful device drops the replies.",
		Guidance: "Route both directions through the same appliance, or have it source-NAT the flow."},
	{Code: ReturnRouteUnverified, Severity: SeverityWarning, Condition: ConditionReturnRoute, Owner: OwnerNetwork, Unverifying: true,
		Meaning:  "The return path leaves what Azure Resource Manager shows (static local network gateway, on-premises, an appliance to a private endpoint) and cannot be read.",
		Guidance: "Confirm the return route on the device or network that owns it."},
	{Code: EgressNoOutbound, Severity: SeverityError, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "A public registry address is needed but the nodes have no outbound path to the internet.",
		Guidance: "Give the nodes a way out (NAT gateway, load balancer outbound, a route to a firewall), or make the registry private to them."},
	{Code: EgressFirewallDenied, Severity: SeverityError, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The path to a public registry address crosses an Azure Firewall whose rules allow no TCP 443 to that hostname from the node addresses.",
		Guidance: "Add an application or network rule that allows TCP 443 to the hostname from the node prefixes."},
	{Code: EgressFirewallNoSNAT, Severity: SeverityError, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "An Azure Firewall allows the flow to a public registry address by a network rule, but its SNAT private ranges cover that address, so the packet leaves with a private source address and gets no answer.",
		Guidance: "Remove the public range from the firewall's SNAT private ranges (0.0.0.0/0 means never SNAT), or allow the registry with an application rule, which always SNATs."},
	{Code: EgressUnverified, Severity: SeverityWarning, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: true,
		Meaning:  "The path to a public address crosses an appliance, a firewall whose rules cannot be read, or a gateway to on-premises.",
		Guidance: "Allow the listed hostnames on TCP 443 on that device and confirm it there."},
	{Code: ProxyBypassMissing, Severity: SeverityError, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "The cluster sends a registry hostname to its HTTP(S) proxy (no noProxy entry matches it by the rules containerd applies), and from the proxy the pull fails, while the nodes themselves resolve the name to the registry's private endpoint.",
		Guidance: "Add the named hostname to the cluster's noProxy (httpProxyConfig), so the nodes reach it direct over the private path; allowing it on the proxy does not help while the proxy's network cannot reach the private endpoint."},
	{Code: EgressProxyUnverified, Severity: SeverityWarning, Condition: ConditionEgress, Owner: OwnerNetwork, Unverifying: true,
		Meaning:  "The cluster sends a registry hostname to its HTTP(S) proxy and what happens beyond the proxy cannot be read (a proxy outside Azure, or one no network interface of a VNet read holds).",
		Guidance: "Confirm on the proxy that it allows CONNECT to the named hostnames on port 443, or add them to noProxy to send them direct."},
	{Code: DNSZoneNotLinked, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "The resolver the nodes use answers from no private DNS zone that holds the registry names, so they resolve publicly and the public path fails.",
		Guidance: "Link the private DNS zone (privatelink.azurecr.io) to the VNet whose resolver the nodes use."},
	{Code: DNSResolvesPublic, Severity: SeverityWarning, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "The nodes resolve a registry hostname to its public address although a private endpoint serves it; pulls work, but off the private path.",
		Guidance: "Link the private DNS zone to the resolving VNet if the private path is intended."},
	{Code: DNSRecordMissing, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "The linked private DNS zone has no record for the hostname.",
		Guidance: "Add the record (for example through the private endpoint's DNS zone group)."},
	{Code: DNSRecordMismatch, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "The record's address differs from the private endpoint's address for that name.",
		Guidance: "Point the record at the private endpoint's address (a DNS zone group keeps it in step)."},
	{Code: DNSServerUnreachable, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "A custom DNS server the nodes use has no route from the node subnet.",
		Guidance: "Give the node subnet a route to the DNS server, or change the VNet's DNS servers."},
	{Code: DNSForwarderUnverified, Severity: SeverityWarning, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: true,
		Meaning:  "A custom DNS server is not a resolver Azure can describe (VM, on-premises); its forwarding cannot be read.",
		Guidance: "Confirm on that server that the registry's zone is forwarded to Azure DNS (168.63.129.16) through the VNet linked to the private zone."},
	{Code: DNSProxyDisabled, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "A DNS server the nodes use is an Azure Firewall's private address, but the firewall's DNS proxy is off, so nothing answers on port 53 there.",
		Guidance: "Enable DNS proxy in the firewall policy's DNS settings, or give the nodes a DNS server that answers."},
	{Code: DNSPolicyBlocked, Severity: SeverityError, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: false,
		Meaning:  "A DNS security policy linked to the VNet whose Azure DNS answers the nodes blocks a registry hostname: its highest-priority enabled rule whose domain lists match the name (or a name of its CNAME chain) by DNS hierarchy has action Block, so the query fails.",
		Guidance: "Add an Allow rule at a higher priority (a lower number) for the registry's domains, remove the registry domain from the blocking domain list, or disable the rule; routes, security groups and firewalls do not help, the name never resolves."},
	{Code: DNSForwardingRuleDiverts, Severity: SeverityWarning, Condition: ConditionDNS, Owner: OwnerDNS, Unverifying: true,
		Meaning:  "A DNS forwarding ruleset linked to the node VNet sends the registry domain to other servers.",
		Guidance: "Remove or fix the forwarding rule, or confirm that its target servers resolve the registry privately."},
	{Code: EndpointDataNotCovered, Severity: SeverityError, Condition: ConditionEndpoint, Owner: OwnerRegistry, Unverifying: false,
		Meaning:  "A data endpoint (one per replica region) has no private address while the login server has one: manifests work, layers fail.",
		Guidance: "Add the region's data endpoint to the registry's private endpoint (re-create it after adding the replica)."},
	{Code: EndpointPENotApproved, Severity: SeverityError, Condition: ConditionEndpoint, Owner: OwnerRegistry, Unverifying: false,
		Meaning:  "The registry's private endpoint connection is not Approved.",
		Guidance: "Approve the private endpoint connection on the registry."},
	{Code: EndpointPublicAccessDenied, Severity: SeverityError, Condition: ConditionEndpoint, Owner: OwnerRegistry, Unverifying: false,
		Meaning:  "A hostname resolves to a public address while the registry denies public network access.",
		Guidance: "Make the name resolve to the private endpoint (DNS), or allow public access from the nodes."},
	{Code: EndpointPublicIPNotAllowed, Severity: SeverityError, Condition: ConditionEndpoint, Owner: OwnerRegistry, Unverifying: false,
		Meaning:  "The registry allows public access only from listed IP ranges, and the public IPs the nodes leave through are not among them.",
		Guidance: "Add the nodes' egress IPs to the registry's network rules, or use a private endpoint."},
	{Code: EndpointUnresolved, Severity: SeverityWarning, Condition: ConditionEndpoint, Owner: OwnerRegistry, Unverifying: true,
		Meaning:  "A declared hostname's address cannot be determined from Azure or from the configuration.",
		Guidance: "Give the address in the registry block's addresses, or a private DNS zone that holds the name."},
	{Code: IdentityPullRoleMissing, Severity: SeverityError, Condition: ConditionTLSIdentity, Owner: OwnerIdentity, Unverifying: false,
		Meaning:  "The kubelet identity holds no pull role at or above the registry scope.",
		Guidance: "Assign AcrPull (or, for ABAC registries, Container Registry Repository Reader) to the kubelet identity on the registry."},
	{Code: IdentityABACRoleRequired, Severity: SeverityError, Condition: ConditionTLSIdentity, Owner: OwnerIdentity, Unverifying: false,
		Meaning:  "The registry uses ABAC repository permissions; AcrPull is not honoured there.",
		Guidance: "Assign Container Registry Repository Reader to the kubelet identity."},
	{Code: IdentityRoleCondition, Severity: SeverityWarning, Condition: ConditionTLSIdentity, Owner: OwnerIdentity, Unverifying: true,
		Meaning:  "The pull role assignment carries an ABAC condition (for example limiting repositories); pulls outside it are refused.",
		Guidance: "Check that the condition admits the repositories the cluster pulls."},
	{Code: IdentityAnonymousPull, Severity: SeverityError, Condition: ConditionTLSIdentity, Owner: OwnerRegistry, Unverifying: false,
		Meaning:  "pull_credentials is anonymous, but the registry does not allow anonymous pull.",
		Guidance: "Enable anonymous pull on the registry, or use the kubelet identity or an image pull secret."},
	{Code: TLSNameNotCovered, Severity: SeverityError, Condition: ConditionTLSIdentity, Owner: OwnerIdentity, Unverifying: false,
		Meaning:  "The name the nodes use is not covered by the registry certificate (for example a privatelink name).",
		Guidance: "Pull by the registry's own name (<registry>.azurecr.io); DNS maps it to the private endpoint."},
	{Code: TLSInspectionCAUntrusted, Severity: SeverityError, Condition: ConditionTLSIdentity, Owner: OwnerNetwork, Unverifying: false,
		Meaning:  "An Azure Firewall Premium rule on the path terminates TLS for a registry hostname and the nodes trust no custom CA, so the re-signed certificate fails validation.",
		Guidance: "Exclude the registry hostnames from TLS inspection, or trust the firewall's intermediate CA on the nodes (AKS custom CA trust)."},
	{Code: TLSInspectionUnverified, Severity: SeverityWarning, Condition: ConditionTLSIdentity, Owner: OwnerNetwork, Unverifying: true,
		Meaning:  "A firewall rule on the path terminates TLS for a registry hostname and the cluster trusts custom CAs that cannot be compared with the firewall's CA.",
		Guidance: "Confirm that the firewall's intermediate CA is among the cluster's custom CAs, or exclude the registry hostnames from inspection."},
	{Code: CoverageRoutesComputed, Severity: SeverityInfo, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "Routes for the pool were computed from configuration: scale-set instances and pools at zero nodes have no effective-route API (and a Virtual WAN hub whose effective routes could not be read is computed from its configuration).",
		Guidance: "Nothing to fix: this says how the routes were obtained."},
	{Code: CoverageModelDrift, Severity: SeverityWarning, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "Computed routes and the NIC's effective routes disagree for an endpoint.",
		Guidance: "Compare the effective routes with the configuration; the effective routes decide."},
	{Code: CoverageIdentityNotChecked, Severity: SeverityInfo, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "The nodes do not pull with the kubelet identity (image pull secret), so its roles were not checked.",
		Guidance: "Nothing to fix: make sure the pull secret's credentials can pull."},
	{Code: CoveragePlannedUnknown, Severity: SeverityWarning, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: true,
		Meaning:  "A planned change sets a value the path depends on that is known only after apply.",
		Guidance: "Plan again after apply, or set the value so that it is known at plan time."},
	{Code: CoveragePlannedUnsupported, Severity: SeverityWarning, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "The plan changes a resource type the provider does not translate; it is read as it is now.",
		Guidance: "Verify again after apply to see the change's effect."},
	{Code: CoveragePlannedOffPath, Severity: SeverityInfo, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "The plan's changes touch nothing any path depends on.",
		Guidance: "Nothing to fix."},
	// An expired accept block is a warning that does not make the verdict
	// unverified: the findings it no longer accepts decide the verdict.
	{Code: CoverageFeatureUnmodelled, Severity: SeverityWarning, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: true,
		Meaning:  "A resource read for this path carries a setting that can change whether the pull works and that the provider does not evaluate, so the path cannot be called reachable.",
		Guidance: "Check the named setting's effect on the pull by hand, or accept the finding with an accept block once you have."},
	{Code: CoverageAcceptanceExpired, Severity: SeverityWarning, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "An accept block of the verification is past its expires date: it accepts nothing any more, and the findings it matched decide the verdict again.",
		Guidance: "Fix what the block accepted, or, if the owners still accept it, renew the block with a new expires date and reason."},
	{Code: CoverageAcceptanceUnused, Severity: SeverityInfo, Condition: ConditionCoverage, Owner: OwnerOperator, Unverifying: false,
		Meaning:  "An accept block of the verification matched no finding: the problem it accepted is gone, or its matchers name nothing.",
		Guidance: "Delete the block, or correct its code and matchers."},
	{Code: EvidencePermissionDenied, Severity: SeverityWarning, Condition: ConditionEvidence, Owner: OwnerOperator, Unverifying: true,
		Meaning:  "A read was refused (403); the message names the resource and the permission needed.",
		Guidance: "Grant the provider's identity the named permission (Reader, or a custom role for read actions)."},
	{Code: EvidenceNotFound, Severity: SeverityWarning, Condition: ConditionEvidence, Owner: OwnerOperator, Unverifying: true,
		Meaning:  "A resource the path depends on does not exist or is not visible to the provider's identity.",
		Guidance: "Create the resource, or give the identity read access to its subscription."},
	{Code: EvidenceUnavailable, Severity: SeverityWarning, Condition: ConditionEvidence, Owner: OwnerOperator, Unverifying: true,
		Meaning:  "A read kept failing (5xx, throttling, timeout) after retries.",
		Guidance: "Plan again later; credentials are irrelevant here."},
}

// ConditionCodes are the codes of one condition and owner, in catalogue
// order: a row of the documentation's codes-by-condition table.
type ConditionCodes struct {
	Condition Condition
	Owner     Owner
	Codes     []Code
}

// CodesByCondition groups the catalogue by condition and owner, in the
// order each pair first appears in it.
func CodesByCondition() []ConditionCodes {
	var out []ConditionCodes
	at := map[[2]string]int{}
	for _, c := range catalogue {
		k := [2]string{string(c.Condition), string(c.Owner)}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, ConditionCodes{Condition: c.Condition, Owner: c.Owner})
		}
		out[i].Codes = append(out[i].Codes, c.Code)
	}
	return out
}

// Catalogue maps every code to its row of the catalogue.
var Catalogue = func() map[Code]CodeInfo {
	out := make(map[Code]CodeInfo, len(catalogue))
	for _, c := range catalogue {
		out[c.Code] = c
	}
	return out
}()

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
