// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// help is what a catalogue code means and how it is usually fixed: the
// help text of its SARIF rule. The finding's own message and remediation
// name the concrete resources; this is the general guidance, and the
// troubleshooting guide (helpURI) has the whole story. Every code of
// model.Catalogue has an entry (TestEveryCatalogueCodeHasHelp).
type help struct {
	meaning  string
	guidance string
}

var helps = map[model.Code]help{
	model.RouteFirewallDenied: {"A private path (spoke to spoke, to a private endpoint, to on-premises, to a DNS server) crosses an Azure Firewall whose rules allow no TCP 443 (TCP/UDP 53 for DNS) from the node addresses to that destination; a firewall denies every flow no rule allows, east-west included.",
		"Add a rule to the firewall policy (or classic rule collection) that allows the flow, preferably an application rule for HTTPS, which also source-NATs and keeps the flow symmetric."},
	model.RouteNextHopAbsent: {"The selected route's VirtualAppliance next hop address is held by nothing: no NIC, load balancer frontend or Azure Firewall IP configuration (a stopped, deallocated firewall has none).",
		"Start the firewall or appliance that held the address, or point the route at an address that is in use."},
	model.EgressFirewallNoSNAT: {"An Azure Firewall allows the flow to a public registry address by a network rule, but its SNAT private ranges cover that address, so the packet leaves with a private source address and gets no answer.",
		"Remove the public range from the firewall's SNAT private ranges (0.0.0.0/0 means never SNAT), or allow the registry with an application rule, which always SNATs."},
	model.DNSProxyDisabled: {"A DNS server the nodes use is an Azure Firewall's private address, but the firewall's DNS proxy is off, so nothing answers on port 53 there.",
		"Enable DNS proxy in the firewall policy's DNS settings, or give the nodes a DNS server that answers."},
	model.TLSInspectionCAUntrusted: {"An Azure Firewall Premium rule on the path terminates TLS for a registry hostname and the nodes trust no custom CA, so the re-signed certificate fails validation.",
		"Exclude the registry hostnames from TLS inspection, or trust the firewall's intermediate CA on the nodes (AKS custom CA trust)."},
	model.TLSInspectionUnverified: {"A firewall rule on the path terminates TLS for a registry hostname and the cluster trusts custom CAs that cannot be compared with the firewall's CA.",
		"Confirm that the firewall's intermediate CA is among the cluster's custom CAs, or exclude the registry hostnames from inspection."},
	model.CoverageAcceptanceExpired: {"An accept block of the verification is past its expires date: it accepts nothing any more, and the findings it matched decide the verdict again.",
		"Fix what the block accepted, or, if the owners still accept it, renew the block with a new expires date and reason."},
	model.CoverageAcceptanceUnused: {"An accept block of the verification matched no finding: the problem it accepted is gone, or its matchers name nothing.",
		"Delete the block, or correct its code and matchers."},
	model.RouteBlackhole: {"The route selected for the registry address drops the packet (next hop None, including the default None routes for private ranges outside the VNet).",
		"Add or fix a route that carries the address (a peering, a UDR to the hub appliance or gateway), or remove the UDR that drops it."},
	model.RouteInvalid: {"The route that would carry the registry address is in state Invalid for the node subnet.",
		"Make the route's next hop exist for the subnet (for example a gateway reachable through the peering), or replace the route."},
	model.RouteGatewayTransitMissing: {"The address is behind a hub gateway, but the spoke peering lacks useRemoteGateways or the hub peering lacks allowGatewayTransit.",
		"Enable allowGatewayTransit on the hub side and useRemoteGateways on the spoke side of the peering."},
	model.RouteBGPPropagationDisabled: {"Gateway routes would cover the address, but the node subnet's route table disables BGP route propagation and no UDR covers it.",
		"Enable gateway route propagation on the node subnet's route table, or add a UDR for the address."},
	model.RoutePeeringNotConnected: {"The path needs a virtual network peering that is not Connected on both sides.",
		"Create or re-create the missing side of the peering so that both sides are Connected."},
	model.RoutePeeringAccessDisabled: {"The path needs a peering with allowVirtualNetworkAccess false.",
		"Set allowVirtualNetworkAccess to true on both sides of the peering."},
	model.RoutePeeringNotSynced: {"The address lies in remote address space the peering has not synced.",
		"Sync the peering (resync after the remote VNet's address space changed)."},
	model.RoutePeeringSubnetExcluded: {"The peering connects only some subnets, and the destination's subnet or the nodes' subnet is not among them.",
		"Add the subnet to the peering's local or remote subnet names, or peer the complete virtual networks."},
	model.RouteHubNotPropagated: {"In Virtual WAN, the destination's hub connection (or the connection whose static route leads to it) does not propagate its prefixes, or its static routes, to the route table the nodes' connection is associated with, so the nodes have no route to it.",
		"Add that route table (or one of its labels) to the propagated route tables of the destination's hub connection; for a static route, also set propagateStaticRoutes on that connection (or add the prefix to the route table with next hop the connection)."},
	model.RouteNotTransitive: {"The address is in a VNet peered only with a VNet the nodes are peered with; peering is not transitive and no UDR sends the traffic through an appliance.",
		"Peer the two VNets directly, or route the address through a hub appliance or Azure Firewall with a UDR."},
	model.RouteForwardedTrafficBlock: {"Traffic forwarded by an appliance enters a peering whose receiving side lacks allowForwardedTraffic.",
		"Enable allowForwardedTraffic on the receiving side of the peering."},
	model.RouteNVAForwardingDisabled: {"The VirtualAppliance next hop's network interface has IP forwarding disabled.",
		"Enable IP forwarding on the appliance's network interface."},
	model.RouteNVAUnreachable: {"The VirtualAppliance next hop address is not in any network the node subnet reaches.",
		"Point the route at an appliance address in the node VNet or a peered VNet."},
	model.SecurityOutboundDenied: {"A network security group on the node NIC or subnet (or leaving an appliance) denies the flow: TCP 443 to the registry address, TCP/UDP 53 to a DNS server.",
		"Add an outbound allow rule with a higher priority (lower number) than the denying rule."},
	model.SecurityInboundDenied: {"A network security group at the destination (registry or private endpoint subnet where NSG policies apply, DNS server, appliance) denies the flow from the node subnet.",
		"Add an inbound allow rule from the node subnet with a higher priority than the denying rule."},
	model.SecurityUnverified: {"A security rule that decides the flow uses a service tag or application security group whose members cannot be resolved.",
		"Use address prefixes in the rule, or grant the read that resolves the tag; the verdict stays unverified until then."},
	model.ReturnRouteMissing: {"The registry side has no route back to the node subnet (one-way peering, spoke prefix not advertised, …).",
		"Give the destination side a route back to the node subnet (peering, UDR, BGP advertisement)."},
	model.ReturnRouteAsymmetric: {"The forward path crosses an appliance that the return path bypasses, so a stateful device drops the replies.",
		"Route both directions through the same appliance, or have it source-NAT the flow."},
	model.ReturnRouteUnverified: {"The return path leaves what Azure Resource Manager shows (static local network gateway, on-premises, an appliance to a private endpoint) and cannot be read.",
		"Confirm the return route on the device or network that owns it."},
	model.EgressNoOutbound: {"A public registry address is needed but the nodes have no outbound path to the internet.",
		"Give the nodes a way out (NAT gateway, load balancer outbound, a route to a firewall), or make the registry private to them."},
	model.EgressFirewallDenied: {"The path to a public registry address crosses an Azure Firewall whose rules allow no TCP 443 to that hostname from the node addresses.",
		"Add an application or network rule that allows TCP 443 to the hostname from the node prefixes."},
	model.EgressUnverified: {"The path to a public address crosses an appliance, a firewall whose rules cannot be read, or a gateway to on-premises.",
		"Allow the listed hostnames on TCP 443 on that device and confirm it there."},
	model.ProxyBypassMissing: {"The cluster sends a registry hostname to its HTTP(S) proxy (no noProxy entry matches it by the rules containerd applies), and from the proxy the pull fails, while the nodes themselves resolve the name to the registry's private endpoint.",
		"Add the named hostname to the cluster's noProxy (httpProxyConfig), so the nodes reach it direct over the private path; allowing it on the proxy does not help while the proxy's network cannot reach the private endpoint."},
	model.EgressProxyUnverified: {"The cluster sends a registry hostname to its HTTP(S) proxy and what happens beyond the proxy cannot be read (a proxy outside Azure, or one no network interface of a VNet read holds).",
		"Confirm on the proxy that it allows CONNECT to the named hostnames on port 443, or add them to noProxy to send them direct."},
	model.DNSZoneNotLinked: {"The resolver the nodes use answers from no private DNS zone that holds the registry names, so they resolve publicly and the public path fails.",
		"Link the private DNS zone (privatelink.azurecr.io) to the VNet whose resolver the nodes use."},
	model.DNSResolvesPublic: {"The nodes resolve a registry hostname to its public address although a private endpoint serves it; pulls work, but off the private path.",
		"Link the private DNS zone to the resolving VNet if the private path is intended."},
	model.DNSRecordMissing: {"The linked private DNS zone has no record for the hostname.",
		"Add the record (for example through the private endpoint's DNS zone group)."},
	model.DNSRecordMismatch: {"The record's address differs from the private endpoint's address for that name.",
		"Point the record at the private endpoint's address (a DNS zone group keeps it in step)."},
	model.DNSServerUnreachable: {"A custom DNS server the nodes use has no route from the node subnet.",
		"Give the node subnet a route to the DNS server, or change the VNet's DNS servers."},
	model.DNSForwarderUnverified: {"A custom DNS server is not a resolver Azure can describe (VM, on-premises); its forwarding cannot be read.",
		"Confirm on that server that the registry's zone is forwarded to Azure DNS (168.63.129.16) through the VNet linked to the private zone."},
	model.DNSForwardingRuleDiverts: {"A DNS forwarding ruleset linked to the node VNet sends the registry domain to other servers.",
		"Remove or fix the forwarding rule, or confirm that its target servers resolve the registry privately."},
	model.EndpointDataNotCovered: {"A data endpoint (one per replica region) has no private address while the login server has one: manifests work, layers fail.",
		"Add the region's data endpoint to the registry's private endpoint (re-create it after adding the replica)."},
	model.EndpointPENotApproved: {"The registry's private endpoint connection is not Approved.",
		"Approve the private endpoint connection on the registry."},
	model.EndpointPublicAccessDenied: {"A hostname resolves to a public address while the registry denies public network access.",
		"Make the name resolve to the private endpoint (DNS), or allow public access from the nodes."},
	model.EndpointPublicIPNotAllowed: {"The registry allows public access only from listed IP ranges, and the public IPs the nodes leave through are not among them.",
		"Add the nodes' egress IPs to the registry's network rules, or use a private endpoint."},
	model.EndpointUnresolved: {"A declared hostname's address cannot be determined from Azure or from the configuration.",
		"Give the address in the registry block's addresses, or a private DNS zone that holds the name."},
	model.IdentityPullRoleMissing: {"The kubelet identity holds no pull role at or above the registry scope.",
		"Assign AcrPull (or, for ABAC registries, Container Registry Repository Reader) to the kubelet identity on the registry."},
	model.IdentityABACRoleRequired: {"The registry uses ABAC repository permissions; AcrPull is not honoured there.",
		"Assign Container Registry Repository Reader to the kubelet identity."},
	model.IdentityRoleCondition: {"The pull role assignment carries an ABAC condition (for example limiting repositories); pulls outside it are refused.",
		"Check that the condition admits the repositories the cluster pulls."},
	model.IdentityAnonymousPull: {"pull_credentials is anonymous, but the registry does not allow anonymous pull.",
		"Enable anonymous pull on the registry, or use the kubelet identity or an image pull secret."},
	model.TLSNameNotCovered: {"The name the nodes use is not covered by the registry certificate (for example a privatelink name).",
		"Pull by the registry's own name (<registry>.azurecr.io); DNS maps it to the private endpoint."},
	model.CoverageRoutesComputed: {"Routes for the pool were computed from configuration: scale-set instances and pools at zero nodes have no effective-route API (and a Virtual WAN hub whose effective routes could not be read is computed from its configuration).",
		"Nothing to fix: this says how the routes were obtained."},
	model.CoverageFeatureUnmodelled: {"A resource read for this path carries a setting that can change whether the pull works and that the provider does not evaluate, so the path cannot be called reachable.",
		"Check the named setting's effect on the pull by hand, or accept the finding with an accept block once you have."},
	model.CoverageModelDrift: {"Computed routes and the NIC's effective routes disagree for an endpoint.",
		"Compare the effective routes with the configuration; the effective routes decide."},
	model.CoverageIdentityNotChecked: {"The nodes do not pull with the kubelet identity (image pull secret), so its roles were not checked.",
		"Nothing to fix: make sure the pull secret's credentials can pull."},
	model.CoveragePlannedUnknown: {"A planned change sets a value the path depends on that is known only after apply.",
		"Plan again after apply, or set the value so that it is known at plan time."},
	model.CoveragePlannedUnsupported: {"The plan changes a resource type the provider does not translate; it is read as it is now.",
		"Verify again after apply to see the change's effect."},
	model.CoveragePlannedOffPath: {"The plan's changes touch nothing any path depends on.",
		"Nothing to fix."},
	model.EvidencePermissionDenied: {"A read was refused (403); the message names the resource and the permission needed.",
		"Grant the provider's identity the named permission (Reader, or a custom role for read actions)."},
	model.EvidenceNotFound: {"A resource the path depends on does not exist or is not visible to the provider's identity.",
		"Create the resource, or give the identity read access to its subscription."},
	model.EvidenceUnavailable: {"A read kept failing (5xx, throttling, timeout) after retries.",
		"Plan again later; credentials are irrelevant here."},
}

// TroubleshootingURL is the troubleshooting guide, where every code has a
// section (help URIs point there).
const TroubleshootingURL = "https://github.com/pullpath/terraform-provider-pullpath/blob/main/docs/guides/troubleshooting.md"

// helpURI is the code's section of the troubleshooting guide: the anchor
// GitHub gives the heading "### CODE", or "### CODE *(unverifying)*" for
// the codes marked (u) in the catalogue (evidence codes make the verdict
// unverified by their condition and carry no mark).
func helpURI(code model.Code) string {
	anchor := strings.ToLower(string(code))
	if info := model.Catalogue[code]; info.Unverifying && info.Condition != model.ConditionEvidence {
		anchor += "-unverifying"
	}
	return TroubleshootingURL + "#" + anchor
}

// helpOf is code's help; a code without an entry (added to the catalogue
// without one) still gets its place in the catalogue and the guide.
func helpOf(code model.Code) help {
	if h, ok := helps[code]; ok {
		return h
	}
	info := model.Catalogue[code]
	return help{
		meaning:  string(code) + ": a " + string(info.Severity) + " of condition " + string(info.Condition) + ".",
		guidance: "See the troubleshooting guide.",
	}
}
