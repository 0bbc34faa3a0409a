// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The open-world table of the network resources gather reads besides
// VNets, subnets and Azure Firewalls (openworld.go): network interfaces,
// security groups, route tables, peerings, private endpoints and their
// zone groups, NAT gateways, public IP addresses and prefixes, IP groups,
// firewall policies and their rule collection groups, virtual network
// gateways with their connections and local network gateways, and the
// answers of the read actions (effective routes, a gateway's routes and
// BGP peers, effective security admin rules, service tags). Each resource
// is its own root: its unmodelled settings are attributed to it, and
// verify/unmodelled.go reports them only on the paths through it.

// Reasons shared by the network table.
const (
	whyListedAgain = "lists the resources associated with it, which are read from their side"
	whyInbound     = "concerns inbound connections to the resource; a pull is an outbound connection the node opens"
	whyMirror      = "copies or logs traffic without changing it"
	whyP2S         = "concerns point-to-site VPN clients, not the VNets' flows"
	whyTunnel      = "parameters of the tunnel's setup (keys, IPsec, timers); the routes over it are read"
	whyAddrRead    = "the addresses in effect are read (ipAddress, ipPrefix)"
	whyAnswerMeta  = "part of the answer that describes it, not the routes or rules themselves"
)

// openWorldNetwork is the table of this file, merged into openWorld.
var openWorldNetwork = map[reflect.Type]map[string]propertyClass{
	// Network interfaces: the nodes', appliances', private endpoints'
	// and the proxy's.
	reflect.TypeOf(armnetwork.Interface{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the interface; its subnet is read"),
		"Properties":       evIn("the interface's settings, below"),
	},
	reflect.TypeOf(armnetwork.InterfacePropertiesFormat{}): {
		"AuxiliaryMode":                      irr("Accelerated Connections offload connection tracking to hardware for appliances; the same flows are allowed"),
		"AuxiliarySKU":                       irr("Accelerated Connections offload connection tracking to hardware for appliances; the same flows are allowed"),
		"DNSSettings":                        ev("dnsServers: the interface's own DNS servers (the others members are its internal name and the servers Azure reports applied)"),
		"DisableTCPStateTracking":            unm("without TCP state tracking the interface's security group no longer admits a connection's replies by state, so the registry's answers to the node must be allowed by inbound rules, which the evaluation does not check", isTrue),
		"EnableAcceleratedNetworking":        irr("a faster data path for the same flows"),
		"EnableIPForwarding":                 ev("whether an appliance forwards traffic not addressed to it"),
		"IPConfigurations":                   evIn("the interface's ip configurations, below"),
		"MigrationPhase":                     irr(whyState),
		"NetworkSecurityGroup":               ev("the interface's security group (N1)"),
		"NicType":                            irr("Standard or Elastic, how the interface is provisioned, not its flows"),
		"PrivateLinkService":                 irr("the private link service the interface belongs to, not the registry's private endpoint"),
		"WorkloadType":                       irr(whyMeta),
		"DefaultOutboundConnectivityEnabled": irr("reports whether default outbound access is in use; the subnet's defaultOutboundAccess decides (E3)"),
		"DscpConfiguration":                  irr("quality-of-service marking of the packets, not whether they are delivered"),
		"HostedWorkloads":                    irr(whyMeta),
		"MacAddress":                         irr(whyMeta),
		"Primary":                            irr("which of a VM's interfaces is primary; the interface read is the one holding the address"),
		"PrivateEndpoint":                    ev("the private endpoint the interface belongs to"),
		"ProvisioningState":                  irr(whyState),
		"ResourceGUID":                       irr(whyMeta),
		"TapConfigurations":                  irr("virtual network TAP " + whyMirror),
		"VirtualMachine":                     ev("the virtual machine or scale-set instance it is attached to"),
		"VnetEncryptionSupported":            irr("reports the VM's support for virtual network encryption, whose enforcement is classified on the VNet"),
	},
	reflect.TypeOf(armnetwork.InterfaceIPConfiguration{}): {
		"ID": ev("the ip configuration a subnet lists"), "Name": irr(whyMeta), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the ip configuration's settings, below"),
	},
	reflect.TypeOf(armnetwork.InterfaceIPConfigurationPropertiesFormat{}): {
		"ApplicationGatewayBackendAddressPools": irr("an application gateway's back end; " + whyInbound),
		"ApplicationSecurityGroups":             ev("the application security groups security rules name (N1)"),
		"GatewayLoadBalancer": unm("a gateway load balancer chains the traffic of the configuration's public IP through appliances behind it, which the provider does not follow",
			present),
		"LoadBalancerBackendAddressPools": irr("a load balancer's back end: for the nodes, the cluster load balancer's outbound IPs are read from the cluster (E3); otherwise " + whyInbound),
		"LoadBalancerInboundNatRules":     irr(whyInbound),
		"Primary":                         ev("the primary configuration gives the interface's subnet"),
		"PrivateIPAddress":                ev("the interface's address"),
		"PrivateIPAddressPrefixLength":    irr("the size of a prefix assigned to the configuration; its address is read"),
		"PrivateIPAddressVersion":         irr("IPv4 or IPv6; the address is read"),
		"PrivateIPAllocationMethod":       irr("static or dynamic assignment; the address is read"),
		"PublicIPAddress":                 ev("the instance's own public IP, on the way out (E3)"),
		"Subnet":                          ev("the subnet the address is in"),
		"VirtualNetworkTaps":              irr("virtual network TAP " + whyMirror),
		"PrivateLinkConnectionProperties": ev("the FQDNs a private endpoint's address serves"),
		"ProvisioningState":               irr(whyState),
	},

	// Network security groups and their rules.
	reflect.TypeOf(armnetwork.SecurityGroup{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the group's settings, below"),
	},
	reflect.TypeOf(armnetwork.SecurityGroupPropertiesFormat{}): {
		"FlushConnection":      irr("drops open connections when rules change; the rules in effect are evaluated"),
		"SecurityRules":        evIn("the group's own rules (N1), below"),
		"DefaultSecurityRules": ev("Azure's default rules, which the evaluation applies itself (N1)"),
		"FlowLogs":             irr("flow logs " + whyMirror),
		"NetworkInterfaces":    irr(whyListedAgain),
		"ProvisioningState":    irr(whyState),
		"ResourceGUID":         irr(whyMeta),
		"Subnets":              irr(whyListedAgain),
	},
	reflect.TypeOf(armnetwork.SecurityRule{}): {
		"ID": irr(whyMeta), "Name": ev("the rule's name, in messages"), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the rule, below"),
	},
	reflect.TypeOf(armnetwork.SecurityRulePropertiesFormat{}): {
		"Access": ev("allow or deny (N1)"), "Direction": ev("inbound or outbound (N1)"), "Priority": ev("evaluation order (N1)"), "Protocol": ev("the protocol matched (N1)"),
		"Description":                          irr("free text"),
		"DestinationAddressPrefix":             ev("destination matched (N1)"),
		"DestinationAddressPrefixes":           ev("destination matched (N1)"),
		"DestinationApplicationSecurityGroups": ev("destination matched by application security group (N1)"),
		"DestinationPortRange":                 ev("destination port matched (N1)"),
		"DestinationPortRanges":                ev("destination port matched (N1)"),
		"SourceAddressPrefix":                  ev("source matched (N1)"),
		"SourceAddressPrefixes":                ev("source matched (N1)"),
		"SourceApplicationSecurityGroups":      ev("source matched by application security group (N1)"),
		"SourcePortRange":                      ev("source port matched (N1)"),
		"SourcePortRanges":                     ev("source port matched (N1)"),
		"ProvisioningState":                    irr(whyState),
	},

	// Route tables and their routes.
	reflect.TypeOf(armnetwork.RouteTable{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the table's settings, below"),
	},
	reflect.TypeOf(armnetwork.RouteTablePropertiesFormat{}): {
		"DisableBgpRoutePropagation": ev("whether gateway routes reach the subnets (R1)"),
		"Routes":                     evIn("the user-defined routes (R1), below"),
		"ProvisioningState":          irr(whyState),
		"ResourceGUID":               irr(whyMeta),
		"Subnets":                    irr(whyListedAgain),
	},
	reflect.TypeOf(armnetwork.Route{}): {
		"ID": irr(whyMeta), "Name": ev("the route's name, in messages"), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the route, below"),
	},
	reflect.TypeOf(armnetwork.RoutePropertiesFormat{}): {
		"NextHopType":      ev("where the route sends traffic (R1)"),
		"AddressPrefix":    ev("the prefix or service tag the route covers (R1)"),
		"NextHopIPAddress": ev("the appliance a VirtualAppliance route sends to (R1)"),
		"HasBgpOverride": unm("the route overrides overlapping BGP routes whatever their prefix length, an exception to longest-prefix match the route evaluation does not apply",
			isTrue),
		"ProvisioningState": irr(whyState),
	},

	// Peerings, read inside their VNet and attributed to the peering.
	reflect.TypeOf(armnetwork.VirtualNetworkPeering{}): {
		"ID": ev("the peering a path crosses"), "Name": ev("the peering's name, in messages"), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the peering's settings, below"),
	},
	reflect.TypeOf(armnetwork.VirtualNetworkPeeringPropertiesFormat{}): {
		"AllowForwardedTraffic":     ev("whether traffic an appliance forwards may cross (R4)"),
		"AllowGatewayTransit":       ev("gateway transit (R4)"),
		"AllowVirtualNetworkAccess": ev("whether the VNets reach each other (R4)"),
		"DoNotVerifyRemoteGateways": irr("skips a check when the peering is created or updated, not a property of its traffic"),
		"EnableOnlyIPv6Peering": unm("only the VNets' IPv6 space is peered, so an IPv4 pull does not cross, which the route evaluation does not apply",
			isTrue),
		"LocalAddressSpace":                irr("the local side's peered space; the local VNet and subnets are read"),
		"LocalSubnetNames":                 ev("subnet peering: the local subnets peered (R4)"),
		"LocalVirtualNetworkAddressSpace":  irr("the local side's space; the local VNet is read"),
		"PeerCompleteVnets":                ev("whether the whole VNets or only named subnets are peered (R4)"),
		"PeeringState":                     ev("whether the peering is connected (R4)"),
		"PeeringSyncLevel":                 ev("whether the peering knows the VNets' current address space (R4)"),
		"RemoteAddressSpace":               ev("the remote space the peering routes to (R4)"),
		"RemoteBgpCommunities":             irr("labels of the remote VNet's routes over ExpressRoute; the routes themselves are read"),
		"RemoteSubnetNames":                ev("subnet peering: the remote subnets peered (R4)"),
		"RemoteVirtualNetwork":             ev("the VNet on the other side"),
		"RemoteVirtualNetworkAddressSpace": ev("the remote VNet's current space (R4)"),
		"UseRemoteGateways":                ev("gateway transit (R4)"),
		"ProvisioningState":                irr(whyState),
		"RemoteVirtualNetworkEncryption":   irr("the remote VNet's encryption, classified on that VNet when it is read"),
		"ResourceGUID":                     irr(whyMeta),
	},

	// Private endpoints and their DNS zone groups.
	reflect.TypeOf(armnetwork.PrivateEndpoint{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the endpoint; its subnet and interface are read"),
		"Properties":       evIn("the endpoint's settings, below"),
	},
	reflect.TypeOf(armnetwork.PrivateEndpointProperties{}): {
		"ApplicationSecurityGroups":           ev("the application security groups the endpoint is a member of, with its interface's (N1)"),
		"CustomDNSConfigs":                    ev("the FQDNs the endpoint serves and their addresses"),
		"CustomNetworkInterfaceName":          irr("the name given to the endpoint's interface"),
		"IPConfigurations":                    irr("static addresses chosen at creation; the addresses in effect are read from the endpoint's interface"),
		"IPVersionType":                       irr("IPv4, IPv6 or both; the addresses are read from the endpoint's interface"),
		"ManualPrivateLinkServiceConnections": ev("connections awaiting or given manual approval (A3, A4)"),
		"PrivateLinkServiceConnections":       ev("the connections to the registry and their approval (A3, A4)"),
		"Subnet":                              ev("the subnet the endpoint is in"),
		"NetworkInterfaces":                   ev("the endpoint's interface"),
		"ProvisioningState":                   irr(whyState),
	},
	reflect.TypeOf(armnetwork.PrivateDNSZoneGroup{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the group's settings, below"),
	},
	reflect.TypeOf(armnetwork.PrivateDNSZoneGroupPropertiesFormat{}): {
		"PrivateDNSZoneConfigs": ev("the zones Azure keeps the endpoint's records in, with the records"),
		"ProvisioningState":     irr(whyState),
	},

	// The way out: NAT gateways, public IP addresses and prefixes.
	reflect.TypeOf(armnetwork.NatGateway{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"SKU":        irr("the tier; the public addresses in use are read"),
		"Zones":      irr("availability zones of the gateway"),
		"Properties": evIn("the gateway's settings, below"),
	},
	reflect.TypeOf(armnetwork.NatGatewayPropertiesFormat{}): {
		"IdleTimeoutInMinutes": irr("idle timeout of flows, longer than a pull's connection setup"),
		"PublicIPAddresses":    ev("the public addresses the nodes leave with (E3)"),
		"PublicIPAddressesV6":  ev("the public addresses the nodes leave with (E3)"),
		"PublicIPPrefixes":     ev("the public prefixes the nodes leave with (E3)"),
		"PublicIPPrefixesV6":   ev("the public prefixes the nodes leave with (E3)"),
		"ServiceGateway":       unm("a service gateway behind the NAT gateway changes how traffic to Azure services leaves", present),
		"SourceVirtualNetwork": irr("the VNet the gateway serves by default, classified on the VNet (defaultPublicNatGateway)"),
		"ProvisioningState":    irr(whyState),
		"ResourceGUID":         irr(whyMeta),
		"Subnets":              irr(whyListedAgain),
	},
	// The internal load balancer whose frontend is the cluster's HTTPS
	// proxy (P4).
	reflect.TypeOf(armnetwork.LoadBalancer{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the load balancer"),
		"SKU":              irr("the tier; an HA-ports rule exists only on a Standard internal load balancer, and the rules are read as they are"),
		"Properties":       evIn("the load balancer's settings, below"),
	},
	reflect.TypeOf(armnetwork.LoadBalancerPropertiesFormat{}): {
		"FrontendIPConfigurations": ev("which frontend holds the proxy's address (P4)"),
		"LoadBalancingRules":       ev("the rule forwarding the proxy's port: protocol, ports, backend pools, floating IP (P4); its other settings (idle timeout, distribution, TCP reset, outbound SNAT) do not decide whether a connection is forwarded"),
		"BackendAddressPools":      ev("the backends' network interfaces; a backend given by address is not followed (P4)"),
		"Probes":                   irr("health probes decide which backends get new flows; the provider follows a single backend and evaluates it, and a probe marking it down is the proxy's health, not its network configuration (P4)"),
		"InboundNatRules":          irr("a port an inbound NAT rule forwards is not followed: without a load-balancing rule for the proxy's port the path is unverified (P4)"),
		"InboundNatPools":          irr("a port an inbound NAT pool forwards is not followed: without a load-balancing rule for the proxy's port the path is unverified (P4)"),
		"OutboundRules":            irr("outbound rules need a public frontend; the proxy's own way out is evaluated from its subnet (E1–E5)"),
		"Scope":                    irr("whether the load balancer is internal or public, which its frontend's private address already says"),
		"ProvisioningState":        irr(whyState),
		"ResourceGUID":             irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.PublicIPAddress{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the address"),
		"SKU":              irr("the tier; " + whyAddrRead),
		"Zones":            irr("availability zones of the address"),
		"Properties":       evIn("the address's settings, below"),
	},
	reflect.TypeOf(armnetwork.PublicIPAddressPropertiesFormat{}): {
		"DNSSettings":              irr("a public DNS name for the address; " + whyInbound),
		"DdosSettings":             irr("DDoS protection of the address against attacks, not a filter on outbound flows"),
		"DeleteOption":             irr("what happens to the address when its VM is deleted"),
		"IPAddress":                ev("the public address the registry's IP rules see (A5)"),
		"IPTags":                   irr("tags such as the routing preference choose the network between Azure and the internet, not the address the registry sees"),
		"IdleTimeoutInMinutes":     irr("idle timeout of flows, longer than a pull's connection setup"),
		"LinkedPublicIPAddress":    irr("the address linked for a migration, not the one in use"),
		"MigrationPhase":           irr(whyState),
		"NatGateway":               irr(whyListedAgain),
		"PublicIPAddressVersion":   irr("IPv4 or IPv6; " + whyAddrRead),
		"PublicIPAllocationMethod": irr("static or dynamic assignment; " + whyAddrRead),
		"PublicIPPrefix":           irr("the prefix the address came from; " + whyAddrRead),
		"ServicePublicIPAddress":   irr("a cross-region load balancer's address, " + whyInbound),
		"IPConfiguration":          irr(whyListedAgain),
		"ProvisioningState":        irr(whyState),
		"ResourceGUID":             irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.PublicIPPrefix{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the prefix"),
		"SKU":              irr("the tier; " + whyAddrRead),
		"Zones":            irr("availability zones of the prefix"),
		"Properties":       evIn("the prefix's settings, below"),
	},
	reflect.TypeOf(armnetwork.PublicIPPrefixPropertiesFormat{}): {
		"CustomIPPrefix":                      irr("the bring-your-own range the prefix came from; " + whyAddrRead),
		"IPTags":                              irr("tags such as the routing preference choose the network between Azure and the internet, not the address the registry sees"),
		"NatGateway":                          irr(whyListedAgain),
		"PrefixLength":                        irr("the prefix's size; " + whyAddrRead),
		"PublicIPAddressVersion":              irr("IPv4 or IPv6; " + whyAddrRead),
		"IPPrefix":                            ev("the public prefix the registry's IP rules see (A5)"),
		"LoadBalancerFrontendIPConfiguration": irr(whyListedAgain),
		"ProvisioningState":                   irr(whyState),
		"PublicIPAddresses":                   irr(whyListedAgain),
		"ResourceGUID":                        irr(whyMeta),
	},

	// Firewall policies, their rule collection groups and IP groups.
	reflect.TypeOf(armnetwork.FirewallPolicy{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Identity":   irr("the policy's identity, which reads the TLS inspection certificate from Key Vault"),
		"Properties": evIn("the policy's settings, below"),
	},
	reflect.TypeOf(armnetwork.FirewallPolicyPropertiesFormat{}): {
		"BasePolicy":            ev("the parent policy whose rules come first (F1)"),
		"DNSSettings":           evIn("the DNS proxy (F8), below"),
		"ExplicitProxySettings": irr("the explicit proxy serves only clients sent to it as their proxy; a pull through a proxy is the cluster's HTTP proxy, evaluated (P1), and a proxy no NIC holds is EGRESS_PROXY_UNVERIFIED"),
		"Insights":              irr("policy analytics " + whyMirror),
		"IntrusionDetection":    unm("intrusion detection and prevention (IDPS) in Deny mode, or with a signature overridden to Deny, drops flows a signature matches, after the rules allowed them; which signatures match a pull is not in Resource Manager", idpsDenies),
		"SKU":                   irr("the policy's tier, which decides which of its features can be set; the firewall's own tier is read (Premium for TLS inspection)"),
		"SQL":                   irr("SQL redirect, for SQL traffic only"),
		"Snat":                  ev("SNAT private ranges and auto-learned ranges (F6)"),
		"ThreatIntelMode":       irr("alerts on or denies only addresses and domains of Microsoft's threat intelligence feed of malicious sites"),
		"ThreatIntelWhitelist":  irr("exempts addresses and FQDNs from threat intelligence, which does not touch the registry"),
		"TransportSecurity":     ev("the TLS inspection CA (F9)"),
		"ChildPolicies":         irr(whyListedAgain),
		"Firewalls":             irr(whyListedAgain),
		"ProvisioningState":     irr(whyState),
		"RuleCollectionGroups":  ev("the rule collection groups, read as their own resources"),
		"Size":                  irr("the policy's size"),
	},
	reflect.TypeOf(armnetwork.DNSSettings{}): {
		"EnableProxy": ev("whether the firewall is a DNS proxy (F8)"),
		"RequireProxyForNetworkRules": unm("set to false, network rules with destination FQDNs are not supported, while the evaluation matches them by the DNS proxy",
			isFalse),
		"Servers": ev("where the DNS proxy forwards (F8)"),
	},
	reflect.TypeOf(armnetwork.FirewallPolicyRuleCollectionGroup{}): {
		"ID": irr(whyMeta), "Name": ev("the group's name, in messages"), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the group's settings, below"),
	},
	reflect.TypeOf(armnetwork.FirewallPolicyRuleCollectionGroupProperties{}): {
		"Priority":          ev("evaluation order (F1)"),
		"RuleCollections":   ev("the rule collections, each classified by its type: filter and NAT collections, and their rules, below"),
		"ProvisioningState": irr(whyState),
		"Size":              irr("the group's size"),
	},
	reflect.TypeOf(armnetwork.FirewallPolicyFilterRuleCollection{}): {
		"RuleCollectionType": ev("a filter collection"),
		"Action":             ev("allow or deny (F1)"),
		"Name":               ev("the collection's name, in messages"),
		"Priority":           ev("evaluation order (F1)"),
		"Rules":              ev("the rules, each classified by its type below"),
	},
	reflect.TypeOf(armnetwork.FirewallPolicyNatRuleCollection{}): {
		"RuleCollectionType": irr(whyDNAT), "Action": irr(whyDNAT), "Name": irr(whyDNAT), "Priority": irr(whyDNAT), "Rules": irr(whyDNAT),
	},
	reflect.TypeOf(armnetwork.ApplicationRule{}): {
		"RuleType":             ev("an application rule (F1)"),
		"Description":          irr("free text"),
		"DestinationAddresses": unm("an application rule that also names destination addresses matches only flows to them, which the evaluation does not check", present),
		"FqdnTags":             ev("FQDN tags matched (F1)"),
		"HTTPHeadersToInsert":  irr("headers added to allowed HTTP requests; the registry's answers do not depend on them"),
		"Name":                 ev("the rule's name, in messages"),
		"Protocols":            ev("protocols and ports matched (F1)"),
		"SourceAddresses":      ev("sources matched (F1)"),
		"SourceIPGroups":       ev("sources matched by IP group (F1)"),
		"TargetFqdns":          ev("FQDNs matched (F1)"),
		"TargetUrls":           ev("URLs matched, with TLS inspection (F9)"),
		"TerminateTLS":         ev("TLS inspection (F9)"),
		"WebCategories":        ev("web categories (F1)"),
	},
	reflect.TypeOf(armnetwork.Rule{}): {
		"RuleType":             ev("a network rule (F1)"),
		"Description":          irr("free text"),
		"DestinationAddresses": ev("destinations matched (F1)"),
		"DestinationFqdns":     ev("destination FQDNs matched through the DNS proxy (F1, F8)"),
		"DestinationIPGroups":  ev("destinations matched by IP group (F1)"),
		"DestinationPorts":     ev("ports matched (F1)"),
		"IPProtocols":          ev("protocols matched (F1)"),
		"Name":                 ev("the rule's name, in messages"),
		"SourceAddresses":      ev("sources matched (F1)"),
		"SourceIPGroups":       ev("sources matched by IP group (F1)"),
	},
	reflect.TypeOf(armnetwork.NatRule{}): {
		"RuleType": irr(whyDNAT), "Description": irr(whyDNAT), "DestinationAddresses": irr(whyDNAT), "DestinationPorts": irr(whyDNAT),
		"IPProtocols": irr(whyDNAT), "Name": irr(whyDNAT), "SourceAddresses": irr(whyDNAT), "SourceIPGroups": irr(whyDNAT),
		"TranslatedAddress": irr(whyDNAT), "TranslatedFqdn": irr(whyDNAT), "TranslatedPort": irr(whyDNAT),
	},
	reflect.TypeOf(armnetwork.IPGroup{}): {
		"ID": irr(whyMeta), "Name": ev("the group's name, in messages"), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the group's settings, below"),
	},
	reflect.TypeOf(armnetwork.IPGroupPropertiesFormat{}): {
		"IPAddresses":       ev("the addresses rules name through the group (F1)"),
		"FirewallPolicies":  irr(whyListedAgain),
		"Firewalls":         irr(whyListedAgain),
		"ProvisioningState": irr(whyState),
	},

	// Virtual network gateways, their connections and local network
	// gateways.
	reflect.TypeOf(armnetwork.VirtualNetworkGateway{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the gateway"),
		"Identity":         irr("the gateway's identity for Key Vault certificates"),
		"Properties":       evIn("the gateway's settings, below"),
	},
	reflect.TypeOf(armnetwork.VirtualNetworkGatewayPropertiesFormat{}): {
		"Active":                          irr("active-active instances; their addresses are read"),
		"AdminState":                      unm("an ExpressRoute gateway whose admin state is Disabled carries no traffic, while its routes are still read", notString(string(armnetwork.AdminStateEnabled))),
		"AllowRemoteVnetTraffic":          irr("lets an ExpressRoute gateway carry traffic of remote VNets; the routes it learns and advertises, which are read, reflect it"),
		"AllowVirtualWanTraffic":          irr("lets an ExpressRoute gateway carry Virtual WAN traffic; the routes it learns and advertises, which are read, reflect it"),
		"AutoScaleConfiguration":          irr("how many instances run, not what they carry"),
		"BgpSettings":                     ev("the gateway's BGP addresses (R7)"),
		"CustomRoutes":                    irr(whyP2S),
		"DisableIPSecReplayProtection":    irr(whyTunnel),
		"EnableBgp":                       ev("whether the gateway speaks BGP (R7)"),
		"EnableBgpRouteTranslationForNat": irr("translates the routes the gateway advertises; they are read as it reports them"),
		"EnableDNSForwarding":             irr("lets on-premises clients query Azure DNS through the gateway; the nodes' resolvers do not use it"),
		"EnableHighBandwidthVPNGateway":   irr("the gateway's throughput"),
		"EnablePrivateIPAddress":          irr("VPN over ExpressRoute private peering; the routes over it are read"),
		"GatewayDefaultSite": unm("forced tunnelling to a default site sends the VNet's internet traffic on-premises without a route the provider computes (it shows only in effective routes)",
			present),
		"GatewayType":      ev("VPN or ExpressRoute (R7)"),
		"IPConfigurations": ev("the gateway's subnet and addresses"),
		"NatRules": unm("NAT rules on the gateway translate the addresses of flows through it, which the route and security evaluation does not apply",
			present),
		"ResiliencyModel":                      irr("how the gateway's instances are spread"),
		"SKU":                                  irr("the gateway's size"),
		"VNetExtendedLocationResourceID":       irr("an edge zone places the gateway"),
		"VPNClientConfiguration":               irr(whyP2S),
		"VPNGatewayGeneration":                 irr("the gateway's generation, its size"),
		"VPNType":                              unm("a policy-based VPN gateway carries only the flows its IPsec policies select, which the route evaluation does not apply", notString(string(armnetwork.VPNTypeRouteBased))),
		"VirtualNetworkGatewayMigrationStatus": irr(whyState),
		"VirtualNetworkGatewayPolicyGroups":    irr(whyP2S),
		"InboundDNSForwardingEndpoint":         irr("the address of the gateway's DNS forwarding for on-premises clients"),
		"ProvisioningState":                    irr(whyState),
		"ResourceGUID":                         irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.VirtualNetworkGatewayConnection{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the connection's settings, below"),
	},
	reflect.TypeOf(armnetwork.VirtualNetworkGatewayConnectionPropertiesFormat{}): {
		"ConnectionType":            ev("IPsec, VNet-to-VNet or ExpressRoute (R7)"),
		"VirtualNetworkGateway1":    ev("the gateway the connection belongs to"),
		"AuthenticationType":        irr(whyTunnel),
		"AuthorizationKey":          irr(whyTunnel),
		"CertificateAuthentication": irr(whyTunnel),
		"ConnectionMode":            irr(whyTunnel),
		"ConnectionProtocol":        irr(whyTunnel),
		"DpdTimeoutSeconds":         irr(whyTunnel),
		"EgressNatRules": unm("NAT rules on the connection translate the addresses of flows over it, which the route and security evaluation does not apply",
			present),
		"EnableBgp":                   ev("static or BGP routing of the local network's prefixes (R7)"),
		"EnablePrivateLinkFastPath":   irr("ExpressRoute FastPath to private endpoints bypasses the gateway's data path for the same routes"),
		"ExpressRouteGatewayBypass":   irr("ExpressRoute FastPath bypasses the gateway's data path for the same routes"),
		"GatewayCustomBgpIPAddresses": irr("the BGP addresses used over the tunnel; the routes learned are read"),
		"IPSecPolicies":               irr(whyTunnel),
		"IngressNatRules": unm("NAT rules on the connection translate the addresses of flows over it, which the route and security evaluation does not apply",
			present),
		"LocalNetworkGateway2":    ev("the local network gateway whose prefixes a static connection routes (R7)"),
		"Peer":                    irr("the ExpressRoute circuit; the routes it brings are read from the gateway"),
		"RoutingWeight":           irr("preference among connections to the same prefixes, all through the same gateway"),
		"SharedKey":               irr(whyTunnel),
		"TrafficSelectorPolicies": unm("traffic selectors limit the flows the tunnel carries, which the route evaluation does not apply", present),
		"TunnelProperties":        irr(whyTunnel),
		"UseLocalAzureIPAddress":  irr(whyTunnel),
		"UsePolicyBasedTrafficSelectors": unm("policy-based traffic selectors limit the flows the tunnel carries, which the route evaluation does not apply",
			isTrue),
		"VirtualNetworkGateway2": irr("the other gateway of a VNet-to-VNet connection, read with its own VNet"),
		"ConnectionStatus": unm("a connection that is not Connected carries nothing, while its local network's prefixes are still routed to the gateway",
			notString(string(armnetwork.VirtualNetworkGatewayConnectionStatusConnected))),
		"EgressBytesTransferred":  irr(whyMirror),
		"IngressBytesTransferred": irr(whyMirror),
		"ProvisioningState":       irr(whyState),
		"ResourceGUID":            irr(whyMeta),
		"TunnelConnectionStatus":  irr("per-tunnel health; the connection's status is classified"),
	},
	reflect.TypeOf(armnetwork.LocalNetworkGateway{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the local network's settings, below"),
	},
	reflect.TypeOf(armnetwork.LocalNetworkGatewayPropertiesFormat{}): {
		"BgpSettings":              irr("the on-premises device's BGP address; the routes learned from it are read from the gateway"),
		"Fqdn":                     irr("the on-premises device's public name, the tunnel's far end"),
		"GatewayIPAddress":         irr("the on-premises device's public address, the tunnel's far end"),
		"LocalNetworkAddressSpace": ev("the on-premises prefixes a static connection routes (R7)"),
		"ProvisioningState":        irr(whyState),
		"ResourceGUID":             irr(whyMeta),
	},

	// Answers of read actions.
	reflect.TypeOf(armnetwork.EffectiveRoute{}): {
		"AddressPrefix":              ev("the prefixes the route covers (R1)"),
		"DisableBgpRoutePropagation": irr("reported with the route; the routes are as Azure reports them"),
		"Name":                       ev("the route's name, in messages"),
		"NextHopIPAddress":           ev("the next hop's address (R1)"),
		"NextHopType":                ev("where the route sends traffic (R1)"),
		"Source":                     ev("Default, User, VirtualNetworkGateway (R1)"),
		"State":                      ev("Active or Invalid (R1)"),
	},
	reflect.TypeOf(armnetwork.GatewayRoute{}): {
		"AsPath":       ev("the route's AS path"),
		"LocalAddress": irr("the gateway's own address on the session"),
		"Network":      ev("the prefix (R7)"),
		"NextHop":      ev("the next hop (R7)"),
		"Origin":       ev("Network, EBgp, IBgp, Static (R7)"),
		"SourcePeer":   ev("the peer the route came from (R7)"),
		"Weight":       irr("the gateway's preference among routes to one prefix; every one of them leads through the same gateway"),
	},
	reflect.TypeOf(armnetwork.BgpPeerStatus{}): {
		"Asn": irr(whyAnswerMeta), "ConnectedDuration": irr(whyAnswerMeta), "LocalAddress": irr(whyAnswerMeta),
		"MessagesReceived": irr(whyAnswerMeta), "MessagesSent": irr(whyAnswerMeta), "RoutesReceived": irr(whyAnswerMeta),
		"Neighbor": ev("the peer whose advertised routes are read (R7)"),
		"State":    irr("the session's state; the routes the gateway learned and advertises are read"),
	},
	reflect.TypeOf(armnetwork.EffectiveSecurityAdminRule{}): {
		"Kind": ev("a custom rule"), "ID": ev("the rule, in messages"), "Properties": evIn("the rule, below"),
		"ConfigurationDescription": irr("free text"), "RuleCollectionDescription": irr("free text"),
		"RuleCollectionAppliesToGroups": irr("the network groups the rule applies to; the answer lists the rules in effect on the VNet read"),
		"RuleGroups":                    irr("the network groups the rule applies to; the answer lists the rules in effect on the VNet read"),
	},
	reflect.TypeOf(armnetwork.AdminPropertiesFormat{}): {
		"Access": ev("Allow, AlwaysAllow or Deny (N6)"), "Direction": ev("inbound or outbound (N6)"), "Priority": ev("evaluation order (N6)"), "Protocol": ev("the protocol matched (N6)"),
		"Description": irr("free text"), "DestinationPortRanges": ev("ports matched (N6)"), "Destinations": ev("destinations matched (N6)"),
		"SourcePortRanges": ev("source ports matched (N6)"), "Sources": ev("sources matched (N6)"),
		"ProvisioningState": irr(whyState), "ResourceGUID": irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.EffectiveDefaultSecurityAdminRule{}): {
		"Kind": ev("a default rule"), "ID": ev("the rule, in messages"), "Properties": evIn("the rule, below"),
		"ConfigurationDescription": irr("free text"), "RuleCollectionDescription": irr("free text"),
		"RuleCollectionAppliesToGroups": irr("the network groups the rule applies to; the answer lists the rules in effect on the VNet read"),
		"RuleGroups":                    irr("the network groups the rule applies to; the answer lists the rules in effect on the VNet read"),
	},
	reflect.TypeOf(armnetwork.DefaultAdminPropertiesFormat{}): {
		"Flag":   irr("names the default rule"),
		"Access": ev("Allow, AlwaysAllow or Deny (N6)"), "Direction": ev("inbound or outbound (N6)"), "Priority": ev("evaluation order (N6)"), "Protocol": ev("the protocol matched (N6)"),
		"Description": irr("free text"), "DestinationPortRanges": ev("ports matched (N6)"), "Destinations": ev("destinations matched (N6)"),
		"SourcePortRanges": ev("source ports matched (N6)"), "Sources": ev("sources matched (N6)"),
		"ProvisioningState": irr(whyState), "ResourceGUID": irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.ServiceTagsListResult{}): {
		"ChangeNumber": irr(whyAnswerMeta), "Cloud": irr(whyAnswerMeta), "ID": irr(whyAnswerMeta), "Name": irr(whyAnswerMeta), "Type": irr(whyAnswerMeta),
		"NextLink": irr("paging of the answer"),
		"Values":   ev("the service tags' prefixes, for rules, routes and service endpoints that name a tag"),
	},
}

const whyDNAT = "DNAT of inbound flows; a pull is outbound"

func init() {
	for typ, props := range openWorldNetwork {
		if _, dup := openWorld[typ]; dup {
			panic(fmt.Sprintf("open-world table: %s is classified twice", typ))
		}
		openWorld[typ] = props
	}
}

// idpsDenies: intrusion detection whose mode is Deny, or with a signature
// overridden to Deny (a policy in Alert mode may deny single signatures).
func idpsDenies(v reflect.Value) (string, bool) {
	var parts []string
	if m, ok := deref(field(v, "Mode")); ok && m.Kind() == reflect.String && strings.EqualFold(m.String(), string(armnetwork.FirewallPolicyIntrusionDetectionStateTypeDeny)) {
		parts = append(parts, "mode Deny")
	}
	if o, ok := deref(field(field(v, "Configuration"), "SignatureOverrides")); ok && o.Kind() == reflect.Slice {
		var ids []string
		for i := 0; i < o.Len(); i++ {
			m, ok := deref(field(o.Index(i), "Mode"))
			if ok && m.Kind() == reflect.String && strings.EqualFold(m.String(), string(armnetwork.FirewallPolicyIntrusionDetectionStateTypeDeny)) {
				id, _ := deref(field(o.Index(i), "ID"))
				if id.IsValid() && id.Kind() == reflect.String {
					ids = append(ids, id.String())
				}
			}
		}
		if len(ids) > 0 {
			parts = append(parts, "signatures "+strings.Join(ids, ", ")+" overridden to Deny")
		}
	}
	return strings.Join(parts, "; "), len(parts) > 0
}

// unmodelledAt is unmodelledOf for a part of a resource (a rule of a rule
// collection group), its properties named under path.
func unmodelledAt(id model.ResourceID, path string, part any) []model.UnmodelledSetting {
	var out []model.UnmodelledSetting
	walkUnmodelled(id, reflect.ValueOf(part), path, &out)
	return out
}

// propertyName is the property's name as Resource Manager spells it. The
// SDK marshals by hand, so there are no struct tags to read: the name is
// the key the SDK's own marshalling writes for the field
// ("DisableTCPStateTracking" → "disableTcpStateTracking"), else jsonName's
// guess from the Go name.
func propertyName(typ reflect.Type, goName string) string {
	if name, ok := marshalledName(typ, goName); ok {
		return name
	}
	return jsonName(typ, goName)
}

// marshalledNames caches marshalledName by type and field.
var marshalledNames sync.Map

// marshalledName is the JSON key the SDK writes for the field goName of
// the struct typ: the key that appears when only that field is set.
func marshalledName(typ reflect.Type, goName string) (string, bool) {
	key := typ.String() + "." + goName
	if v, ok := marshalledNames.Load(key); ok {
		name, _ := v.(string)
		return name, name != ""
	}
	name := func() string {
		if typ.Kind() != reflect.Struct {
			return ""
		}
		keys := func(v reflect.Value) map[string]bool {
			b, err := json.Marshal(v.Interface())
			if err != nil {
				return nil
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(b, &m) != nil {
				return nil
			}
			out := map[string]bool{}
			for k := range m {
				out[k] = true
			}
			return out
		}
		base := keys(reflect.New(typ))
		if base == nil {
			return ""
		}
		p := reflect.New(typ)
		f := p.Elem().FieldByName(goName)
		if !f.IsValid() || !f.CanSet() {
			return ""
		}
		switch f.Kind() {
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
		default:
			return ""
		}
		var added []string
		for k := range keys(p) {
			if !base[k] {
				added = append(added, k)
			}
		}
		if len(added) != 1 {
			return ""
		}
		return added[0]
	}()
	marshalledNames.Store(key, name)
	return name, name != ""
}
