// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"reflect"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
)

// The open-world table (openworld.go) for private DNS, DNS private
// resolvers, Virtual WAN and Route Server, the node pools' scale sets and
// virtual machines, role assignments and definitions, and registry
// replications: one map, merged into openWorld by init below.
// openWorldDNSVWANRoots are its root resources, in the order the
// document lists them.

// Reasons shared by the properties below.
const (
	whyDNSOnlyAddr  = "a record type the node's lookup of a registry name never asks for (containerd resolves A and AAAA, following CNAME)"
	whyViaEffective = "Azure applies it in the routes it reports; the provider takes its effect from those answers (the hub's effective routes, a Route Server peer's learned routes), not from this setting"
	whyCapacity     = "how much capacity runs, not what it routes or allows"
	whyNodeOS       = "the node's OS image, disks, extensions and administrator settings, which AKS sets on the nodes it manages; not the network path of a pull"
	whyCompute      = "where and how instances run, are repaired and upgraded, not how a node reaches the registry"
)

var openWorldDNSVWANRoots = []any{
	armprivatedns.PrivateZone{},
	armprivatedns.VirtualNetworkLink{},
	armprivatedns.RecordSet{},
	armdnsresolver.SubResource{},
	armdnsresolver.DNSResolver{},
	armdnsresolver.InboundEndpoint{},
	armdnsresolver.VirtualNetworkDNSForwardingRuleset{},
	armdnsresolver.ForwardingRule{},
	armdnsresolver.VirtualNetworkLink{},
	armnetwork.VirtualHub{},
	armnetwork.HubVirtualNetworkConnection{},
	armnetwork.HubRouteTable{},
	armnetwork.RoutingIntent{},
	armnetwork.VirtualHubEffectiveRoute{},
	armnetwork.BgpConnection{},
	armnetwork.PeerRoute{},
	armcompute.VirtualMachineScaleSet{},
	armcompute.VirtualMachine{},
	armauthorization.RoleAssignment{},
	armauthorization.RoleDefinition{},
	armcontainerregistry.Replication{},
}

func init() {
	for typ, props := range openWorldDNSVWAN {
		if _, dup := openWorld[typ]; dup {
			panic("open-world table: " + typ.String() + " is classified twice")
		}
		openWorld[typ] = props
	}
}

// metaDNS are the metadata properties every resource below has.
func metaDNS(extra map[string]propertyClass, names ...string) map[string]propertyClass {
	for _, n := range names {
		if _, set := extra[n]; !set {
			extra[n] = irr(whyMeta)
		}
	}
	return extra
}

var openWorldDNSVWAN = map[reflect.Type]map[string]propertyClass{
	// Private DNS (D2, D3, D7).
	reflect.TypeOf(armprivatedns.PrivateZone{}): metaDNS(map[string]propertyClass{
		"Name":       ev("the zone's name, which decides the names it answers (D2)"),
		"Location":   irr("private DNS zones are global"),
		"Properties": evIn("the zone's settings, below"),
	}, "Etag", "Tags", "ID", "Type"),
	reflect.TypeOf(armprivatedns.PrivateZoneProperties{}): {
		"InternalID":                                     irr(whyMeta),
		"MaxNumberOfRecordSets":                          irr("a quota; the record sets are read"),
		"MaxNumberOfVirtualNetworkLinks":                 irr("a quota; the links are read"),
		"MaxNumberOfVirtualNetworkLinksWithRegistration": irr("a quota; the links are read"),
		"NumberOfRecordSets":                             irr("a count; the record sets are read"),
		"NumberOfVirtualNetworkLinks":                    irr("a count; the links are read"),
		"NumberOfVirtualNetworkLinksWithRegistration":    irr("a count; the links are read"),
		"ProvisioningState":                              irr(whyState),
	},
	reflect.TypeOf(armprivatedns.VirtualNetworkLink{}): metaDNS(map[string]propertyClass{
		"Location":   irr("private DNS zone links are global"),
		"Properties": evIn("the link's settings, below"),
	}, "Etag", "Tags", "ID", "Name", "Type"),
	reflect.TypeOf(armprivatedns.VirtualNetworkLinkProperties{}): {
		"RegistrationEnabled": irr("auto-registration adds the VMs' own records to the zone; a registration link answers lookups like any other link (D2)"),
		"ResolutionPolicy":    ev("NxDomainRedirect falls back to public resolution for a name the zone lacks (D3)"),
		"VirtualNetwork":      ev("the VNet whose Azure DNS answers from the zone (D2)"),
		"ProvisioningState":   irr(whyState),
		"VirtualNetworkLinkState": unm("a link that is not Completed (InProgress) may not answer the VNet's lookups yet, which the provider does not decide",
			notString(string(armprivatedns.VirtualNetworkLinkStateCompleted))),
	},
	reflect.TypeOf(armprivatedns.RecordSet{}): metaDNS(map[string]propertyClass{
		"Name":       ev("the record's name relative to the zone"),
		"Type":       ev("the record type (A, AAAA, CNAME are followed)"),
		"Properties": evIn("the record set's data, below"),
	}, "Etag", "ID"),
	reflect.TypeOf(armprivatedns.RecordSetProperties{}): {
		"ARecords":         ev("the addresses a name resolves to (D2)"),
		"AaaaRecords":      ev("the IPv6 addresses a name resolves to (D2)"),
		"CnameRecord":      ev("an alias the lookup follows (D2)"),
		"Metadata":         irr(whyMeta),
		"MxRecords":        irr(whyDNSOnlyAddr),
		"PtrRecords":       irr(whyDNSOnlyAddr),
		"SoaRecord":        irr("the zone's authority record; how long a missing name is cached does not change the answer"),
		"SrvRecords":       irr(whyDNSOnlyAddr),
		"TTL":              irr("how long resolvers cache the answer; the answer itself is read"),
		"TxtRecords":       irr(whyDNSOnlyAddr),
		"Fqdn":             irr("the record's full name, the zone's name and the record's, both read"),
		"IsAutoRegistered": irr("a record auto-registration wrote answers like any other"),
	},

	// DNS private resolvers and forwarding rulesets (D6, D6a).
	reflect.TypeOf(armdnsresolver.SubResource{}): {
		"ID": ev("a resolver in the VNet (listDnsResolvers), read next"),
	},
	reflect.TypeOf(armdnsresolver.DNSResolver{}): metaDNS(map[string]propertyClass{
		"Location":   irr("the resolver's region; its VNet is read"),
		"Properties": evIn("the resolver's settings, below"),
	}, "Tags", "Etag", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armdnsresolver.Properties{}): {
		"VirtualNetwork": ev("the VNet whose zone links and rulesets the resolver answers from (D6)"),
		"DNSResolverState": unm("a resolver that is not Connected (Disconnected) may not answer on its inbound endpoints nor forward by its rulesets, which the provider does not decide",
			notString(string(armdnsresolver.DNSResolverStateConnected))),
		"ProvisioningState": irr(whyState),
		"ResourceGUID":      irr(whyMeta),
	},
	reflect.TypeOf(armdnsresolver.InboundEndpoint{}): metaDNS(map[string]propertyClass{
		"Location":   irr("the endpoint's region; its subnet is read"),
		"Properties": evIn("the endpoint's settings, below"),
	}, "Tags", "Etag", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armdnsresolver.InboundEndpointProperties{}): {
		"IPConfigurations":  ev("the endpoint's addresses and subnets: a DNS server the nodes use or a forwarding rule targets (D6)"),
		"ProvisioningState": irr(whyState),
		"ResourceGUID":      irr(whyMeta),
	},
	reflect.TypeOf(armdnsresolver.VirtualNetworkDNSForwardingRuleset{}): {
		"ID":         ev("a ruleset linked to the VNet (listDnsForwardingRulesets), whose rules and links are read next"),
		"Properties": irr("the VNet's link to the ruleset, read again with the ruleset's links"),
	},
	reflect.TypeOf(armdnsresolver.ForwardingRule{}): metaDNS(map[string]propertyClass{
		"Name":       ev("the rule's name, for messages"),
		"Properties": evIn("the rule's settings, below"),
	}, "Etag", "ID", "SystemData", "Type"),
	reflect.TypeOf(armdnsresolver.ForwardingRuleProperties{}): {
		"DomainName":          ev("the domain the rule forwards (D6)"),
		"TargetDNSServers":    ev("where the rule forwards (D6)"),
		"ForwardingRuleState": ev("a Disabled rule forwards nothing (D6)"),
		"Metadata":            irr(whyMeta),
		"ProvisioningState":   irr(whyState),
	},
	reflect.TypeOf(armdnsresolver.VirtualNetworkLink{}): metaDNS(map[string]propertyClass{
		"Properties": evIn("the ruleset link's settings, below"),
	}, "Etag", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armdnsresolver.VirtualNetworkLinkProperties{}): {
		"VirtualNetwork":    ev("a VNet whose Azure DNS applies the ruleset (D6)"),
		"Metadata":          irr(whyMeta),
		"ProvisioningState": irr(whyState),
	},

	// Virtual WAN hubs (R7b, R7c, R7d) and Route Server (R7a); both are
	// virtualHubs resources.
	reflect.TypeOf(armnetwork.VirtualHub{}): metaDNS(map[string]propertyClass{
		"Location":   ev("the hub's region"),
		"Kind":       irr("RouteServer for a Route Server, which is found from its VNet's RouteServerSubnet"),
		"Properties": evIn("the hub's settings, below"),
	}, "ID", "Tags", "Etag", "Name", "Type"),
	reflect.TypeOf(armnetwork.VirtualHubProperties{}): {
		"AddressPrefix":              ev("the hub's address space (R7b)"),
		"AllowBranchToBranchTraffic": irr("route exchange between a Route Server and its VNet's gateways; the routes the nodes get are read from the gateways' and the peers' learned routes (R7a)"),
		"AzureFirewall":              ev("the secured hub's Azure Firewall (R7b)"),
		"ExpressRouteGateway":        ev("the hub's ExpressRoute gateway, whose branch prefixes come from the hub's effective routes (R7c)"),
		"HubRoutingPreference":       ev("which of several routes for one branch prefix the hub prefers: " + whyViaEffective + "; for a Route Server the choice between a gateway's and an appliance's route for one prefix is unverified (R7a)"),
		"P2SVPNGateway":              irr("the point-to-site gateway's client address pools are VPN users' addresses, never a registry's, a private endpoint's or a DNS server's"),
		"PreferredRoutingGateway":    ev("the older form of hubRoutingPreference: " + whyViaEffective),
		"RouteTable": unm("the hub's legacy route table sends address prefixes to a next hop IP address, routes the provider does not add",
			func(v reflect.Value) (string, bool) { return present(field(v, "Routes")) }),
		"SKU": unm("a Basic hub offers site-to-site VPN only, not the Standard hub routing between VNets the provider evaluates",
			notString("Standard")),
		"SecurityPartnerProvider": unm("a security partner provider (a third-party security service) filters the hub's internet traffic by rules Azure does not hold",
			present),
		"SecurityProviderName": irr("the partner's name; its presence is securityPartnerProvider"),
		"VPNGateway":           ev("the hub's site-to-site VPN gateway, whose branch prefixes come from the hub's effective routes (R7c)"),
		"VirtualHubRouteTableV2S": unm("legacy v2 route tables send destinations of attached connections to next hops the provider does not add",
			present),
		"VirtualRouterAsn":                    irr("the hub router's BGP identity"),
		"VirtualRouterAutoScaleConfiguration": irr(whyCapacity),
		"VirtualRouterIPs":                    ev("the hub router's addresses (R7b) and a Route Server's (R7a)"),
		"VirtualWan":                          ev("the hubs of one Virtual WAN route to each other (R7c)"),
		"BgpConnections": unm("BGP peers of a Virtual WAN hub (appliances in connected VNets) add routes to the hub's route tables that the provider does not add (a Route Server's peers are read instead, R7a)",
			present),
		"IPConfigurations":  ev("how a Route Server is found from its VNet's RouteServerSubnet (R7a)"),
		"ProvisioningState": irr(whyState),
		"RouteMaps":         irr("the route maps defined in the hub; a route map changes routes only once a connection applies it (a connection's inbound and outbound route map, classified there)"),
		"RoutingState":      ev("a hub router that is not Provisioned makes its paths unverified (R7b)"),
	},
	reflect.TypeOf(armnetwork.HubVirtualNetworkConnection{}): metaDNS(map[string]propertyClass{
		"Name":       ev("the connection's name, for messages"),
		"Properties": evIn("the connection's settings, below"),
	}, "ID", "Etag"),
	reflect.TypeOf(armnetwork.HubVirtualNetworkConnectionProperties{}): {
		"AllowHubToRemoteVnetTransit": unm("false stops the hub's transit into the VNet, which the provider does not evaluate (Azure lists the flag as deprecated)",
			isFalse),
		"AllowRemoteVnetToUseHubVnetGateways": unm("false keeps the hub's gateways' branch routes from the VNet, which the provider does not evaluate (Azure lists the flag as deprecated)",
			isFalse),
		"EnableInternetSecurity": ev("whether the hub's 0.0.0.0/0 reaches the VNet (R7b)"),
		"RemoteVirtualNetwork":   ev("the connected VNet (R7b)"),
		"RoutingConfiguration":   evIn("the connection's routing, below"),
		"ProvisioningState":      irr(whyState),
	},
	reflect.TypeOf(armnetwork.RoutingConfiguration{}): {
		"AssociatedRouteTable": ev("the route table whose routes the VNet gets (R7b)"),
		"InboundRouteMap": unm("a route map applied to what the hub learns from the connection drops or rewrites those routes",
			present),
		"OutboundRouteMap": unm("a route map applied to what the hub advertises to the connection drops or rewrites the routes the VNet gets",
			present),
		"PropagatedRouteTables": ev("where the VNet's prefixes are propagated, by id and label (R7b, R7c)"),
		"VnetRoutes":            evIn("the connection's static routes, below"),
	},
	reflect.TypeOf(armnetwork.VnetRoute{}): {
		"StaticRoutes":       ev("static routes to an appliance in the VNet (R7d)"),
		"StaticRoutesConfig": ev("propagateStaticRoutes and vnetLocalRouteOverrideCriteria (R7d)"),
		"BgpConnections":     irr("listed again at the hub (bgpConnections), classified there"),
	},
	reflect.TypeOf(armnetwork.HubRouteTable{}): metaDNS(map[string]propertyClass{
		"Name":       ev("defaultRouteTable and noneRouteTable are built in (R7b)"),
		"Properties": evIn("the route table's settings, below"),
	}, "ID", "Etag", "Type"),
	reflect.TypeOf(armnetwork.HubRouteTableProperties{}): {
		"Labels":                 ev("labels connections propagate to (R7b, R7c)"),
		"Routes":                 evIn("the table's static routes, below"),
		"AssociatedConnections":  irr("listed again from the connections' routing configuration, which is read"),
		"PropagatingConnections": irr("listed again from the connections' routing configuration, which is read"),
		"ProvisioningState":      irr(whyState),
	},
	reflect.TypeOf(armnetwork.HubRoute{}): {
		"DestinationType": unm("a static route whose destinations are a resource id or a service, not address prefixes, sends traffic the provider does not match to its next hop",
			notString("CIDR")),
		"Destinations": ev("the route's address prefixes (R7b)"),
		"Name":         ev("the route's name, for messages"),
		"NextHop":      ev("the route's next hop resource: the hub's firewall or a connection (R7b)"),
		"NextHopType":  ev("ResourceId, the only type hub route tables take; the next hop is the resource it names"),
	},
	reflect.TypeOf(armnetwork.RoutingIntent{}): metaDNS(map[string]propertyClass{
		"Properties": evIn("the routing intent, below"),
	}, "ID", "Name", "Etag", "Type"),
	reflect.TypeOf(armnetwork.RoutingIntentProperties{}): {
		"RoutingPolicies":   ev("the private and Internet traffic policies and their next hop; any other policy makes the hub's paths unverified (R7b)"),
		"ProvisioningState": irr(whyState),
	},
	reflect.TypeOf(armnetwork.VirtualHubEffectiveRoute{}): {
		"AddressPrefixes": ev("the prefixes of a route the hub holds (R7b, R7c)"),
		"AsPath":          irr("the BGP path attribute Azure selected the route by; the selected route is the answer"),
		"NextHopType":     ev("the kind of next hop (R7c)"),
		"NextHops":        ev("the next hop resources (R7b, R7c)"),
		"RouteOrigin":     ev("where the route comes from (R7c)"),
	},
	reflect.TypeOf(armnetwork.BgpConnection{}): metaDNS(map[string]propertyClass{
		"Name":       ev("the peer's name, which its learned routes are read by (R7a)"),
		"Properties": evIn("the peer's settings, below"),
	}, "ID", "Etag", "Type"),
	reflect.TypeOf(armnetwork.BgpConnectionProperties{}): {
		"HubVirtualNetworkConnection": irr("the hub connection whose VNet holds the peer; the peer's address is read"),
		"PeerAsn":                     irr("the peer's BGP identity"),
		"PeerIP":                      ev("the appliance the peer's routes lead to (R7a)"),
		"ConnectionState":             ev("a peer that is not connected has no learned routes, which are read (R7a)"),
		"ProvisioningState":           irr(whyState),
	},
	reflect.TypeOf(armnetwork.PeerRoute{}): {
		"AsPath":       ev("shown in the route's origin"),
		"LocalAddress": irr("the Route Server instance's own address in the BGP session"),
		"Network":      ev("the prefix the peer advertises (R7a)"),
		"NextHop":      ev("the appliance the route leads to (R7a)"),
		"Origin":       ev("shown in the route's origin"),
		"SourcePeer":   ev("which peer advertised the route (R7a)"),
		"Weight":       irr("the preference Route Server gives the route among equal prefixes; several peers' routes for one prefix are traced by the first peer and named (R7a)"),
	},

	// The node pools' scale sets and virtual machines (the instances'
	// NICs are read as network interfaces, classified with them).
	reflect.TypeOf(armcompute.VirtualMachineScaleSet{}): metaDNS(map[string]propertyClass{
		"Location":         irr("the scale set's region; its instances' NICs are read"),
		"ExtendedLocation": irr("an edge zone places the instances; their network is the VNets read"),
		"Identity":         irr("the managed identities on the instances; the pull identity is the cluster's kubelet identity (identityProfile), whose roles are read"),
		"Placement":        irr(whyCompute),
		"Plan":             irr("a marketplace image's plan"),
		"Properties":       evIn("the scale set's settings, below"),
		"SKU":              irr("the instances' size and count"),
		"Zones":            irr(whyCompute),
	}, "Tags", "Etag", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armcompute.VirtualMachineScaleSetProperties{}): {
		"AdditionalCapabilities":                 irr(whyCompute),
		"AutomaticRepairsPolicy":                 irr(whyCompute),
		"ConstrainedMaximumCapacity":             irr(whyCompute),
		"DoNotRunExtensionsOnOverprovisionedVMs": irr(whyCompute),
		"ExternalHealthPolicy":                   irr(whyCompute),
		"HighSpeedInterconnectPlacement":         irr(whyCompute),
		"HostGroup":                              irr(whyCompute),
		"LifecycleHooksProfile":                  irr(whyCompute),
		"OrchestrationMode":                      irr("AKS node pools are Uniform scale sets; their instances' NICs are read"),
		"Overprovision":                          irr(whyCompute),
		"PlatformFaultDomainCount":               irr(whyCompute),
		"PriorityMixPolicy":                      irr(whyCompute),
		"ProximityPlacementGroup":                irr(whyCompute),
		"ResiliencyPolicy":                       irr(whyCompute),
		"SKUProfile":                             irr(whyCompute),
		"ScaleInPolicy":                          irr(whyCompute),
		"ScheduledEventsPolicy":                  irr(whyCompute),
		"SinglePlacementGroup":                   irr(whyCompute),
		"SpotRestorePolicy":                      irr(whyCompute),
		"UpgradePolicy":                          irr(whyCompute),
		"VirtualMachineProfile":                  evIn("what new instances get, below"),
		"ZonalPlatformFaultDomainAlignMode":      irr(whyCompute),
		"ZoneBalance":                            irr(whyCompute),
		"ProvisioningState":                      irr(whyState),
		"TimeCreated":                            irr(whyMeta),
		"UniqueID":                               irr(whyMeta),
	},
	reflect.TypeOf(armcompute.VirtualMachineScaleSetVMProfile{}): {
		"ApplicationProfile":       irr(whyNodeOS),
		"BillingProfile":           irr(whyCompute),
		"CapacityReservation":      irr(whyCompute),
		"DiagnosticsProfile":       irr("boot diagnostics, which observe the instances"),
		"EvictionPolicy":           irr(whyCompute),
		"ExtensionProfile":         irr(whyNodeOS),
		"HardwareProfile":          irr(whyCompute),
		"InterconnectBlockProfile": irr(whyCompute),
		"LicenseType":              irr(whyMeta),
		"NetworkProfile":           ev("the instances' NIC configuration: DNS servers and security group of new instances (D1, N1); the instances' own NICs are read as network interfaces"),
		"OSProfile":                irr(whyNodeOS),
		"Priority":                 irr(whyCompute),
		"ScheduledEventsProfile":   irr(whyCompute),
		"SecurityPostureReference": irr(whyNodeOS),
		"SecurityProfile":          unm(whyProxyAgent, proxyAgentActive),
		"ServiceArtifactReference": irr(whyNodeOS),
		"StorageProfile":           irr(whyAtRest),
		"UserData":                 irr(whyNodeOS),
		"TimeCreated":              irr(whyMeta),
	},
	reflect.TypeOf(armcompute.VirtualMachine{}): metaDNS(map[string]propertyClass{
		"Location":         irr("the VM's region; its NICs are read"),
		"ExtendedLocation": irr("an edge zone places the VM; its network is the VNets read"),
		"Identity":         irr("the managed identities on the VM; the pull identity is the cluster's kubelet identity (identityProfile), whose roles are read"),
		"Placement":        irr(whyCompute),
		"Plan":             irr("a marketplace image's plan"),
		"Properties":       evIn("the VM's settings, below"),
		"Zones":            irr(whyCompute),
		"ManagedBy":        irr(whyMeta),
		"Resources":        irr("the VM's extensions: " + whyNodeOS),
	}, "Tags", "Etag", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armcompute.VirtualMachineProperties{}): {
		"AdditionalCapabilities":   irr(whyCompute),
		"ApplicationProfile":       irr(whyNodeOS),
		"AvailabilitySet":          irr(whyCompute),
		"BillingProfile":           irr(whyCompute),
		"CapacityReservation":      irr(whyCompute),
		"DiagnosticsProfile":       irr("boot diagnostics, which observe the VM"),
		"EvictionPolicy":           irr(whyCompute),
		"ExtensionsTimeBudget":     irr(whyNodeOS),
		"HardwareProfile":          irr(whyCompute),
		"Host":                     irr(whyCompute),
		"HostGroup":                irr(whyCompute),
		"InterconnectBlockProfile": irr(whyCompute),
		"LicenseType":              irr(whyMeta),
		"NetworkProfile":           ev("the VM's NICs, read as network interfaces"),
		"OSProfile":                irr(whyNodeOS),
		"PlatformFaultDomain":      irr(whyCompute),
		"Priority":                 irr(whyCompute),
		"ProximityPlacementGroup":  irr(whyCompute),
		"ResiliencyProfile":        irr(whyCompute),
		"ScheduledEventsPolicy":    irr(whyCompute),
		"ScheduledEventsProfile":   irr(whyCompute),
		"SecurityProfile":          unm(whyProxyAgent, proxyAgentActive),
		"StorageProfile":           irr(whyAtRest),
		"UserData":                 irr(whyNodeOS),
		"VirtualMachineScaleSet":   irr("the Flexible scale set the VM belongs to; its NICs are read"),
		"InstanceView":             irr(whyState),
		"ProvisioningState":        irr(whyState),
		"TimeCreated":              irr(whyMeta),
		"VMID":                     irr(whyMeta),
	},

	// Role assignments and definitions (A6).
	reflect.TypeOf(armauthorization.RoleAssignment{}): metaDNS(map[string]propertyClass{
		"ID":         ev("the assignment, named in messages"),
		"Properties": evIn("the assignment, below"),
	}, "Name", "Type"),
	reflect.TypeOf(armauthorization.RoleAssignmentProperties{}): {
		"PrincipalID":                        ev("who holds the role (A6)"),
		"RoleDefinitionID":                   ev("the role (A6)"),
		"Condition":                          ev("an ABAC condition makes the role IDENTITY_ROLE_CONDITION, never full pull rights (A6)"),
		"ConditionVersion":                   ev("the condition's language version; any condition makes the role IDENTITY_ROLE_CONDITION (A6)"),
		"DelegatedManagedIdentityResourceID": irr("the managed identity of a cross-tenant delegation that created the assignment; the holder is principalId"),
		"Description":                        irr(whyMeta),
		"PrincipalType":                      ev("a group's role may reach the identity through membership (A6)"),
		"CreatedBy":                          irr(whyMeta),
		"CreatedOn":                          irr(whyMeta),
		"Scope":                              ev("an assignment at or above the registry counts (A6)"),
		"UpdatedBy":                          irr(whyMeta),
		"UpdatedOn":                          irr(whyMeta),
	},
	reflect.TypeOf(armauthorization.RoleDefinition{}): metaDNS(map[string]propertyClass{
		"ID":         ev("the role, as assignments name it"),
		"Properties": evIn("the role's settings, below"),
	}, "Name", "Type"),
	reflect.TypeOf(armauthorization.RoleDefinitionProperties{}): {
		"AssignableScopes": irr("where the role may be assigned; the assignments that exist are read"),
		"Description":      irr(whyMeta),
		"Permissions":      ev("actions and data actions, with their exclusions, that allow pulling (A6)"),
		"RoleName":         ev("the role's name, for messages"),
		"RoleType":         ev("built-in or custom, for messages"),
	},

	// Registry replications (A2).
	reflect.TypeOf(armcontainerregistry.Replication{}): metaDNS(map[string]propertyClass{
		"Location":   ev("the replica's region: its data endpoint (A2)"),
		"Properties": evIn("the replica's settings, below"),
	}, "Tags", "ID", "Name", "SystemData", "Type"),
	reflect.TypeOf(armcontainerregistry.ReplicationProperties{}): {
		"RegionEndpointEnabled": ev("whether the replica takes traffic (A2)"),
		"ZoneRedundancy":        irr("replicas across zones, same endpoints"),
		"ProvisioningState":     irr(whyState),
		"Status":                irr(whyState),
	},
}

// whyProxyAgent: what the Metadata Security Protocol's proxy agent does.
const whyProxyAgent = "the Metadata Security Protocol's proxy agent (securityProfile.proxyAgentSettings) enforces access to the instance metadata service, where the kubelet gets the token it exchanges for the registry's; the provider does not evaluate its rules"

// proxyAgentActive: the proxy agent enabled, enforcing on the instance
// metadata endpoint (its mode, or the agent's mode when the endpoint has
// none, other than Audit or Disabled).
func proxyAgentActive(v reflect.Value) (string, bool) {
	pa := field(v, "ProxyAgentSettings")
	if _, on := isTrue(field(pa, "Enabled")); !on {
		return "", false
	}
	mode, ok := deref(field(field(pa, "Imds"), "Mode"))
	if !ok || mode.String() == "" {
		mode, ok = deref(field(pa, "Mode"))
	}
	m := ""
	if ok {
		m = mode.String()
	}
	if strings.EqualFold(m, "Audit") || strings.EqualFold(m, "Disabled") {
		return "", false
	}
	if m == "" {
		m = "not set"
	}
	return "proxyAgentSettings enabled, mode " + m, true
}

// graphRowColumns classifies the columns of the rows Azure Resource Graph
// answers the provider's searches with (model.GraphSearches), by the row
// type: a search only finds resources, each column either names one or
// says where it is, and the resource found is read in full afterwards (its
// properties classified above or in openworld.go). A search whose KQL
// projects a column not listed here fails TestGraphRowColumnsClassified.
var graphRowColumns = map[string]map[string]string{
	"microsoft.network/privatednszones/virtualnetworklinks": {
		"id":     "the link, whose zone is read with its links and records",
		"vnetId": "the VNet the link names, to keep the zones linked to the VNets asked about",
	},
	"microsoft.network/virtualhubs/hubvirtualnetworkconnections": {
		"id":     "the connection, whose hub is read with its connections, route tables and routing intent",
		"vnetId": "the VNet the connection names, to find the hub of each VNet asked about",
	},
	"microsoft.network/dnsresolvers/inboundendpoints": {
		"id":               "the inbound endpoint, whose resolver and VNet are read",
		"ipConfigurations": "the endpoint's addresses, to match the DNS server addresses asked about",
	},
}

// jsonNameExceptions are Go names whose Resource Manager spelling the rule
// of jsonName does not give (the SDK's acronyms and plurals).
var jsonNameExceptions = map[string]string{
	"P2SVPNGateway":           "p2SVpnGateway",
	"VirtualHubRouteTableV2S": "virtualHubRouteTableV2s",
	"VirtualRouterIPs":        "virtualRouterIps",
	"VMID":                    "vmId",
}
