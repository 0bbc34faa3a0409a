package model

import (
	"net/netip"
	"slices"
	"strings"
)

// Network is the part of Azure's network the pull path can touch, as read
// from Resource Manager. Maps are keyed by ResourceID.Key().
//
// A resource that is referenced but could not be read is absent from its map
// and present in Gaps; rules must consult Gaps before concluding anything
// from an absence (sound before clever: missing evidence is unverified).
type Network struct {
	VNets            map[string]*VNet
	Subnets          map[string]*Subnet
	RouteTables      map[string]*RouteTable
	NICs             map[string]*NIC
	Gateways         map[string]*Gateway
	PrivateEndpoints map[string]*PrivateEndpoint
	SecurityGroups   map[string]*SecurityGroup
	RouteServers     map[string]*RouteServer
	// Firewalls are the Azure Firewalls that routes of the network send
	// traffic to, with the policies (parent chain included) and IP groups
	// their rules use (firewall.go).
	Firewalls        map[string]*AzureFirewall
	FirewallPolicies map[string]*FirewallPolicy
	IPGroups         map[string]*IPGroup
	// NATGateways and PublicAddresses are read only where an egress
	// address decides something (a registry that admits listed IP ranges
	// only): the NAT gateways of subnets traffic leaves from, and the
	// public IP addresses and prefixes of those, of the cluster's outbound
	// configuration and of firewalls.
	NATGateways     map[string]*NATGateway
	PublicAddresses map[string]*PublicAddress
	// VirtualHubs are the Virtual WAN hubs the network's VNets are
	// connected to (vwan.go), with their connections, route tables and
	// routing intent.
	VirtualHubs map[string]*VirtualHub
	// HubEffectiveRoutes are what Azure reports as the effective routes of
	// a Virtual WAN hub's default route table, by hub id key; read only
	// for paths that use the hub (vwan_effective.go).
	HubEffectiveRoutes map[string]*HubEffectiveRoutes
	// HubEffectiveUnderPlan are the hubs, by id key, whose effective
	// routes a path needed but were not read because a planned change
	// alters the hub's routing: Azure's answer would describe the hub
	// before it (vwan_effective.go).
	HubEffectiveUnderPlan map[string]bool
	// RemoteAddresses are, by address, the destinations a path may go to
	// that lie in a VNet outside the closure while the nodes' VNets are
	// connected to a virtual hub: a registry private endpoint's address,
	// or a DNS private resolver inbound endpoint the nodes use as DNS
	// server or forward to, whose VNet the resolver search named. Such a
	// VNet may be a spoke of another hub of the same Virtual WAN, read
	// with that hub only when a path to the address needs it
	// (EvidenceRemoteHub, vwan_interhub.go).
	RemoteAddresses map[netip.Addr]RemoteAddress
	// UnresolvedEndpoints are the registry's private endpoints (or their
	// network interfaces) that could not be read while the nodes' VNets
	// are connected to a virtual hub: their addresses may lie in a spoke
	// of another hub, so a private destination the hub spokes have no
	// route to is unverified rather than dropped.
	UnresolvedEndpoints []ResourceID
	// SpeculativeReads are resources read before it is known whether a
	// conclusion needs them (which way a flow to a public address leaves,
	// and through which public IPs, is known only once its route is
	// followed): a gap among them counts only where a conclusion used it.
	SpeculativeReads []ResourceID

	Gaps Gaps
	// Pending is the evidence of the network gather has not read yet
	// because only some paths need it (advertised routes of a BGP gateway,
	// the NIC of an appliance): a rule that reaches pending evidence
	// records it in its result's Needs instead of concluding from its
	// absence (see evidence.go).
	Pending Pending
	// AddressGaps are addresses in a VNet of the network whose holder was
	// looked for but could not be determined: a NIC of the subnet could not
	// be read (a NIC there, with a security group of its own, may be
	// unseen, so a flow delivered to the address is unverified), or the
	// Azure Firewalls of the resource group of an AzureFirewallSubnet that
	// lists no ip configuration could not be listed (a firewall may hold
	// the next hop address, so nothing is concluded from its absence).
	AddressGaps map[netip.Addr]Gap

	// ServiceTags are the Service Tag Discovery answers read, keyed by the
	// location asked (NormalizeRegion form): the tags that security rules,
	// user-defined routes and service endpoints of VNets in that location
	// name. Read only when something names a tag; see ServiceTagsAt.
	ServiceTags map[string]*ServiceTags
	// ServiceTagGaps say, by location, why its service tags are missing: the
	// read failed, or its answer was malformed (its Detail says what).
	ServiceTagGaps map[string]Gap
	// AdminRules are the Azure Virtual Network Manager security admin
	// rules in effect on each VNet read, by VNet key (AdminRulesOf; a VNet
	// absent was not read, or its read failed: a gap).
	AdminRules map[string]*AdminRules
}

// AddAddressGap records that what holds addr could not be determined.
func (n *Network) AddAddressGap(addr netip.Addr, g Gap) {
	if n.AddressGaps == nil {
		n.AddressGaps = map[netip.Addr]Gap{}
	}
	n.AddressGaps[addr] = g
}

// NewNetwork returns an empty network with every map allocated.
func NewNetwork() *Network {
	return &Network{
		VNets:            map[string]*VNet{},
		Subnets:          map[string]*Subnet{},
		RouteTables:      map[string]*RouteTable{},
		NICs:             map[string]*NIC{},
		Gateways:         map[string]*Gateway{},
		PrivateEndpoints: map[string]*PrivateEndpoint{},
		SecurityGroups:   map[string]*SecurityGroup{},
		RouteServers:     map[string]*RouteServer{},
		Firewalls:        map[string]*AzureFirewall{},
		FirewallPolicies: map[string]*FirewallPolicy{},
		IPGroups:         map[string]*IPGroup{},
		VirtualHubs:      map[string]*VirtualHub{},
		Gaps:             Gaps{},
		AddressGaps:      map[netip.Addr]Gap{},
	}
}

// VNet returns the virtual network with that id, or nil.
func (n *Network) VNet(id ResourceID) *VNet { return lookup(n.VNets, id) }

// Subnet returns the subnet with that id, or nil.
func (n *Network) Subnet(id ResourceID) *Subnet { return lookup(n.Subnets, id) }

// RouteTable returns the route table with that id, or nil.
func (n *Network) RouteTable(id ResourceID) *RouteTable { return lookup(n.RouteTables, id) }

// NIC returns the network interface with that id, or nil.
func (n *Network) NIC(id ResourceID) *NIC { return lookup(n.NICs, id) }

// Gateway returns the virtual network gateway with that id, or nil.
func (n *Network) Gateway(id ResourceID) *Gateway { return lookup(n.Gateways, id) }

// PrivateEndpoint returns the private endpoint with that id, or nil.
func (n *Network) PrivateEndpoint(id ResourceID) *PrivateEndpoint {
	return lookup(n.PrivateEndpoints, id)
}

// PrivateEndpointASGs are the application security groups a private
// endpoint belongs to: those of the endpoint resource and those of its
// NICs' ip configurations. complete is false when a NIC of the endpoint
// was not read (or none is named): more groups may then hold it than the
// list says, and a rule naming another group cannot be decided.
func (n *Network) PrivateEndpointASGs(pe *PrivateEndpoint) (members []ResourceID, complete bool) {
	members = append(members, pe.ASGIDs...)
	complete = len(pe.NICIDs) > 0
	for _, id := range pe.NICIDs {
		nic := n.NIC(id)
		if nic == nil {
			complete = false
			continue
		}
		for _, a := range nic.ASGIDs {
			if !slices.ContainsFunc(members, a.Equal) {
				members = append(members, a)
			}
		}
	}
	return members, complete
}

// SecurityGroup returns the network security group with that id, or nil.
func (n *Network) SecurityGroup(id ResourceID) *SecurityGroup {
	return lookup(n.SecurityGroups, id)
}

// RouteServer returns the Route Server with that id, or nil.
func (n *Network) RouteServer(id ResourceID) *RouteServer {
	return lookup(n.RouteServers, id)
}

// AddVNet stores a virtual network and its subnets.
func (n *Network) AddVNet(v *VNet) {
	n.VNets[v.ID.Key()] = v
	for _, s := range v.Subnets {
		n.Subnets[s.ID.Key()] = s
	}
}

// VNet is a virtual network.
type VNet struct {
	ID       ResourceID
	Name     string
	Location string
	// AddressSpace is addressSpace.addressPrefixes.
	AddressSpace []netip.Prefix
	// DNSServers is dhcpOptions.dnsServers; empty means Azure-provided DNS.
	DNSServers []netip.Addr
	Subnets    []*Subnet
	Peerings   []*Peering
	// Unknown are the facts of the VNet itself a planned change leaves
	// unknown until apply (FactDNSServers); a subnet's are the subnet's.
	Unknown UnknownFacts
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// Subnet is a subnet of a virtual network.
type Subnet struct {
	ID     ResourceID
	VNetID ResourceID
	Name   string
	// Prefixes is addressPrefix and addressPrefixes together.
	Prefixes     []netip.Prefix
	RouteTableID ResourceID
	NSGID        ResourceID
	// PrivateEndpointNetworkPolicies is the subnet's
	// privateEndpointNetworkPolicies: Disabled, Enabled,
	// NetworkSecurityGroupEnabled or RouteTableEnabled (an open set).
	PrivateEndpointNetworkPolicies string
	// IPConfigurationIDs are the ip configurations in the subnet
	// (ipConfigurations): NICs' (…/networkInterfaces/{n}/ipConfigurations/{c},
	// also under scale-set instances), gateways', load balancers', ….
	IPConfigurationIDs []ResourceID
	// IPConfigurationsRead: the subnet's answer was read, so
	// IPConfigurationIDs is the complete list (possibly empty).
	IPConfigurationsRead bool
	// PrivateEndpointIDs are the private endpoints in the subnet
	// (privateEndpoints).
	PrivateEndpointIDs []ResourceID
	// ServiceEndpoints are the subnet's serviceEndpoints (see ServiceEndpoint).
	ServiceEndpoints []ServiceEndpoint
	// NATGatewayID is the subnet's NAT gateway (natGateway): every flow to
	// a public address that leaves the subnet by its Internet route uses it,
	// before load balancer outbound rules and instance public IPs.
	NATGatewayID ResourceID
	// DefaultOutboundAccessDisabled is defaultOutboundAccess false (a
	// private subnet): VMs without a NAT gateway, a load balancer outbound
	// rule or a public IP of their own have no way to public addresses.
	DefaultOutboundAccessDisabled bool
	// Unknown are the facts of the subnet a planned change leaves unknown
	// until apply (FactPrivateEndpointNetworkPolicies).
	Unknown UnknownFacts
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// IPConfigurationOwners returns, once each and in order, the resources
// whose ip configurations of the given kind the subnet lists
// (…/{owner}/{kind}/{name}, kind compared case-insensitively): the Azure
// Firewalls of an AzureFirewallSubnet (azureFirewallIpConfigurations), the
// Route Server of a RouteServerSubnet (ipConfigurations of a virtual hub).
func (s *Subnet) IPConfigurationOwners(kind string) []ResourceID {
	seg := "/" + strings.ToLower(kind) + "/"
	var out []ResourceID
	for _, c := range s.IPConfigurationIDs {
		str := string(c)
		i := strings.LastIndex(strings.ToLower(str), seg)
		if i < 0 {
			continue
		}
		owner := ResourceID(str[:i])
		dup := false
		for _, have := range out {
			dup = dup || have.Equal(owner)
		}
		if !dup {
			out = append(out, owner)
		}
	}
	return out
}

// RouteServerIDs are the Azure Route Servers (Microsoft.Network/virtualHubs)
// whose ip configurations the VNet's RouteServerSubnet lists
// (…/virtualHubs/{h}/ipConfigurations/{c}), once each and in order: the
// Route Servers of the VNet, found at no extra read. Nil for a nil VNet.
func (v *VNet) RouteServerIDs() []ResourceID {
	if v == nil {
		return nil
	}
	var out []ResourceID
	for _, s := range v.Subnets {
		if s == nil || !strings.EqualFold(s.Name, RouteServerSubnetName) {
			continue
		}
		for _, hub := range s.IPConfigurationOwners("ipConfigurations") {
			if hub.IsTopLevel("Microsoft.Network", "virtualHubs") && !slices.ContainsFunc(out, hub.Equal) {
				out = append(out, hub)
			}
		}
	}
	return out
}

// PeeringTo returns the VNet's peering whose remote VNet is remote, or nil.
func (v *VNet) PeeringTo(remote ResourceID) *Peering {
	if v == nil {
		return nil
	}
	for _, p := range v.Peerings {
		if p != nil && p.RemoteVNetID.Equal(remote) {
			return p
		}
	}
	return nil
}

// PeeringBack is the other side of p, a peering of the VNet local: the
// peering of p's remote VNet whose remote is local. remoteKnown is false
// when the remote VNet was not read (the other side is then unknown, never
// missing); rev is nil when the remote VNet has no peering back.
func (n *Network) PeeringBack(local ResourceID, p *Peering) (rev *Peering, remoteKnown bool) {
	remote := n.VNet(p.RemoteVNetID)
	if remote == nil {
		return nil, false
	}
	return remote.PeeringTo(local), true
}

// RouteTablePoliciesApply reports whether user-defined routes can invalidate
// private endpoint routes of endpoints in this subnet.
func (s *Subnet) RouteTablePoliciesApply() bool {
	return s.PrivateEndpointNetworkPolicies == "Enabled" || s.PrivateEndpointNetworkPolicies == "RouteTableEnabled"
}

// SecurityGroupPoliciesApply reports whether network security groups apply to
// private endpoints in this subnet.
func (s *Subnet) SecurityGroupPoliciesApply() bool {
	return s.PrivateEndpointNetworkPolicies == "Enabled" || s.PrivateEndpointNetworkPolicies == "NetworkSecurityGroupEnabled"
}

// Peering is one side of a virtual network peering, as stored on the VNet
// that owns it (VNetID); the other side is a separate Peering on RemoteVNetID.
type Peering struct {
	ID           ResourceID
	Name         string
	VNetID       ResourceID
	RemoteVNetID ResourceID
	// State is peeringState: Connected, Initiated, Disconnected.
	State string
	// SyncLevel is peeringSyncLevel: FullyInSync, RemoteNotInSync,
	// LocalNotInSync, LocalAndRemoteNotInSync.
	SyncLevel                 string
	AllowVirtualNetworkAccess bool
	// AccessUnrecorded: the read has no allowVirtualNetworkAccess (a
	// snapshot written by hand); AllowVirtualNetworkAccess is then false.
	AccessUnrecorded      bool
	AllowForwardedTraffic bool
	AllowGatewayTransit   bool
	UseRemoteGateways     bool
	// RemoteAddressSpace is the remote space as this side last synced it
	// (remoteAddressSpace): what Azure programs routes for.
	RemoteAddressSpace []netip.Prefix
	// RemoteCurrentAddressSpace is the remote VNet's space today
	// (remoteVirtualNetworkAddressSpace).
	RemoteCurrentAddressSpace []netip.Prefix
	// Global is true when the two VNets are in different regions
	// (routes are then VNetGlobalPeering).
	Global bool
	// SubnetsOnly is true for a subnet peering (peerCompleteVnets false):
	// it connects only LocalSubnetNames of this VNet with RemoteSubnetNames
	// of the remote one, and RemoteAddressSpace holds those remote subnets'
	// prefixes (docs/design/azure-behaviour.md, "Subnet peering").
	SubnetsOnly       bool
	LocalSubnetNames  []string
	RemoteSubnetNames []string
	// VirtualHubID is set on a peering Virtual WAN manages: a connected
	// VNet's peering to its hub's VNet, and the hub side gather stands in
	// for it (model/vwan.go). Traffic the hub forwards crosses it whatever
	// allowForwardedTraffic says.
	VirtualHubID ResourceID
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// ConnectsLocalSubnet reports whether the peering carries traffic of the
// named subnet of its own VNet: every subnet for a peering of complete
// VNets, only LocalSubnetNames for a subnet peering.
func (p *Peering) ConnectsLocalSubnet(name string) bool {
	return !p.SubnetsOnly || containsFold(p.LocalSubnetNames, name)
}

// ConnectsRemoteSubnet reports whether the peering reaches the named
// subnet of the remote VNet.
func (p *Peering) ConnectsRemoteSubnet(name string) bool {
	return !p.SubnetsOnly || containsFold(p.RemoteSubnetNames, name)
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Connected reports whether this side is Connected.
func (p *Peering) Connected() bool { return p.State == "Connected" }

// InSync reports whether this side has synced the remote address space.
func (p *Peering) InSync() bool { return p.SyncLevel == "" || p.SyncLevel == "FullyInSync" }

// NIC is a network interface: a VM's, a scale-set instance's, an appliance's
// or a private endpoint's.
type NIC struct {
	ID           ResourceID
	Name         string
	SubnetID     ResourceID
	PrivateIPs   []netip.Addr
	IPForwarding bool
	// DNSServers is dnsSettings.dnsServers; empty means the VNet's.
	DNSServers []netip.Addr
	NSGID      ResourceID
	// ASGIDs are the application security groups of its ip configurations.
	ASGIDs []ResourceID
	// VMID is the virtual machine (or scale-set instance) it is attached to.
	VMID ResourceID
	// PrivateEndpointID is set on the NIC of a private endpoint.
	PrivateEndpointID ResourceID
	// Effective is the real effective route table when Azure gave one
	// (standalone NICs of running VMs); nil otherwise.
	Effective []Route
	// EffectivePlanned: the planned changes (planned_changes_file) alter
	// the network, so the effective route table Azure has was not used.
	EffectivePlanned bool
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// Gateway is a virtual network gateway (VPN or ExpressRoute).
type Gateway struct {
	ID     ResourceID
	Name   string
	VNetID ResourceID
	// Type is gatewayType: Vpn, ExpressRoute, LocalGateway.
	Type       string
	BGPEnabled bool
	// PrivateIPs are the gateway's addresses in GatewaySubnet (BGP peering
	// addresses), used as the next hop of its routes.
	PrivateIPs []netip.Addr
	// Learned are the routes from getLearnedRoutes; LearnedKnown is false
	// when they could not be read.
	Learned      []GatewayRoute
	LearnedKnown bool
	// Advertised are the routes from getAdvertisedRoutes, per BGP peer;
	// AdvertisedKnown is false when they could not be read, or are not
	// read yet (Network.Pending then holds AdvertisedRoutesOf(ID)).
	Advertised      map[netip.Addr][]GatewayRoute
	AdvertisedKnown bool
	// StaticPrefixes are local network gateway prefixes of connections
	// without BGP: on-premises space whose side Azure cannot read.
	StaticPrefixes []netip.Prefix
	// StaticPrefixesKnown is false when the gateway's connections (or a
	// connection's local network gateway) could not be read.
	StaticPrefixesKnown bool
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// GatewayRoute is one route a gateway learned or advertises.
type GatewayRoute struct {
	Prefix     netip.Prefix
	NextHop    netip.Addr
	SourcePeer netip.Addr
	// Origin: Network (its own VNet), EBgp, IBgp, Igp, Static.
	Origin string
	ASPath string
}

// RouteServerSubnetName is the subnet an Azure Route Server lives in.
const RouteServerSubnetName = "RouteServerSubnet"

// RouteServer is an Azure Route Server: a Microsoft.Network/virtualHubs
// resource whose ip configurations sit in a VNet's RouteServerSubnet. It
// learns routes from network virtual appliances over BGP and programs them
// into the subnets of its VNet (and of peered VNets that use its VNet's
// gateways); it forwards no traffic itself, so the next hop of its routes
// is the appliance's address.
type RouteServer struct {
	ID     ResourceID
	Name   string
	VNetID ResourceID
	// RouterIPs are virtualRouterIps: the Route Server's BGP addresses.
	RouterIPs []netip.Addr
	// Peers are its BGP connections (bgpConnections); PeersKnown is false
	// when they could not be listed.
	Peers      []RouteServerPeer
	PeersKnown bool
}

// RouteServerPeer is one BGP connection of a Route Server (an appliance)
// with the routes the Route Server learned from it (learnedRoutes);
// LearnedKnown is false when they could not be read.
type RouteServerPeer struct {
	ID           ResourceID
	Name         string
	IP           netip.Addr
	Learned      []GatewayRoute
	LearnedKnown bool
}

// PrivateEndpoint is a private endpoint and what it serves.
type PrivateEndpoint struct {
	ID       ResourceID
	Name     string
	SubnetID ResourceID
	NICIDs   []ResourceID
	// ASGIDs are the application security groups the endpoint's ip
	// configuration is included in (properties.applicationSecurityGroups);
	// its NIC's own groups add to them.
	ASGIDs []ResourceID
	// Connections are its private link service connections (automatic and
	// manual), with the target resource and the approval state.
	Connections []PrivateLinkConnection
	// DNSConfigs are customDnsConfigs (and, for a custom NIC, the NIC's
	// ip configuration FQDNs): every FQDN it serves with its addresses.
	DNSConfigs []FQDNAddresses
	// ZoneGroups are its private DNS zone groups (the zones Azure keeps its
	// records in), when readable.
	ZoneGroups []ZoneGroupConfig
	// ZoneGroupsKnown is false when the zone groups could not be read.
	ZoneGroupsKnown bool
}

// PrivateLinkConnection is a private endpoint's connection to a service.
type PrivateLinkConnection struct {
	TargetID ResourceID
	GroupIDs []string
	// Status is Approved, Pending, Rejected or Disconnected.
	Status string
}

// FQDNAddresses is one FQDN with the private addresses serving it.
type FQDNAddresses struct {
	FQDN      string
	Addresses []netip.Addr
}

// ZoneGroupConfig is one zone of a private DNS zone group.
type ZoneGroupConfig struct {
	ZoneID  ResourceID
	Records []FQDNAddresses
}
