// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Tracer is what verification needs from the route engine: for one flow
// from a node pool, the hops it takes and every route, return-route,
// security-rule, coverage and evidence finding on the way. Verification
// never computes routes itself.
type Tracer interface {
	Trace(n *model.Network, q RouteQuery) RouteResult
}

// RouteQuery is one flow a pull needs.
type RouteQuery struct {
	// Pool is the node pool the flow starts from (its NICs decide whether
	// effective routes exist); SubnetID is its subnet.
	Pool     *model.NodePool
	SubnetID model.ResourceID
	// Dest is the destination address. When Public is true the destination
	// is an Internet address that Resource Manager does not name (a public
	// DNS answer, blob storage): Dest is invalid and the flow takes the
	// route an arbitrary Internet address would take.
	Dest   netip.Addr
	Public bool
	// Host names a public destination in hops and messages ("the public
	// address of <Host>"); for a private destination it is the name the
	// nodes connect to (an Azure Firewall's application rules match it),
	// empty for a DNS query.
	Host string
	// DestTags name the service tags the public address is in
	// (AzureContainerRegistry.WestEurope for an ACR endpoint): with the
	// service tags read, security rules are decided over their members.
	// Empty when unknown.
	DestTags []string
	// Protocol (Tcp, Udp) and Port of the flow: Tcp 443 to a registry
	// endpoint, Udp 53 to a DNS server.
	Protocol string
	Port     uint16
}

// RouteResult is the route engine's answer for one flow.
type RouteResult struct {
	// Hops are the steps from the node subnet to the destination, in words.
	Hops []string
	// Steps are the same steps as data (a routing decision gives the
	// peering it crosses, then where it leads), for consumers that must
	// not parse Hops.
	Steps []model.Hop
	// Source says whether effective or computed routes were used.
	Source RouteSource
	// Findings are the route engine's conclusions (route, return_route,
	// security, coverage and evidence codes). Verification fills in node
	// pool and endpoint where the engine left them empty.
	Findings []model.Finding
	// Gaps are the missing facts the route depends on; each becomes an
	// evidence finding on the path, which is then unverified.
	Gaps []model.Gap
	// Needs is the pending evidence (model.Network.Pending) the flow
	// reached; see Result.Needs.
	Needs []model.Evidence
	// Exit is where the flow left the networks the route engine follows;
	// the zero value when it was dropped or could not be followed.
	Exit Exit
	// Inspected are the Azure Firewalls on a private path whose rules
	// allow the flow with a rule that terminates TLS for it
	// (firewall.Decision.Inspecting): what that does to the registry's
	// certificate is the TLS rule's to say (tlsInspectionFindings), for
	// the pool and host of the flow.
	Inspected []Inspection
}

// Inspection is an Azure Firewall that allowed a flow with TLS inspection,
// and its decision.
type Inspection struct {
	Firewall *model.AzureFirewall
	Decision firewall.Decision
}

// ExitKind says where a flow left the networks the route engine follows.
type ExitKind string

// Exit kinds.
const (
	// ExitNone: delivered inside Azure's networks (a NIC, a private
	// endpoint, a subnet), dropped, or not followed to the end.
	ExitNone ExitKind = ""
	// ExitInternet: a route with next hop Internet carried it out of
	// Subnet.
	ExitInternet ExitKind = "internet"
	// ExitOnPremises: a VPN or ExpressRoute gateway took it.
	ExitOnPremises ExitKind = "on_premises"
	// ExitServiceEndpoint: a service endpoint route took it to an Azure
	// service over the backbone.
	ExitServiceEndpoint ExitKind = "service_endpoint"
)

// Exit is where a flow left: the subnet whose route sent it out, the
// virtual appliances it crossed on the way, and for on-premises the
// gateway.
type Exit struct {
	Kind ExitKind
	// SubnetID is the subnet whose selected route sent the flow out (the
	// node subnet, or the subnet of the last appliance crossed).
	SubnetID model.ResourceID
	// Route is that route in words, e.g. "route table rt-aks route
	// to-onprem: 0.0.0.0/0 → VirtualNetworkGateway 10.0.0.30".
	Route string
	// FirstRoute is the route the node subnet selected, in the same words.
	FirstRoute string
	// Appliances are the VirtualAppliance next hops crossed, in order.
	Appliances []ExitAppliance
	// GatewayID is the gateway of an on-premises exit.
	GatewayID model.ResourceID
}

// ExitAppliance is a virtual appliance a flow crossed.
type ExitAppliance struct {
	IP       netip.Addr
	SubnetID model.ResourceID
	// NICID is empty for an appliance without a NIC the route engine read
	// (an Azure Firewall, an internal load balancer frontend).
	NICID model.ResourceID
	Label string
}
