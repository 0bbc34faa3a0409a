// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/url"
	"slices"
	"strings"
)

// ReadAction is one POST the provider may send: a read that ARM exposes as
// an action. It is the one row that says everything about the action: the
// read-only guard lets exactly these through (azure/guard.go), the what-if
// overlay answers each by its WhatIf treatment (azure/overlay/action.go),
// gather's table of reads (gather.Permissions) and the documented role take
// the permission from it, resource labels take its words from it, and the
// route engine reads CrossCheck. A new read action is a new row of
// readActions and nothing else in those places.
type ReadAction struct {
	// PathPattern is the ARM path; {name} matches exactly one segment,
	// every other segment must match literally (case-insensitively).
	PathPattern string
	// Action is the RBAC operation a role needs for the request.
	Action string
	// Operation is the SDK operation gather sends it with, as gather's
	// table of reads names it ("client.method (POST …)"); empty for an
	// action the guard allows that gather does not send.
	Operation string
	// Words name the read in a label: "the effective routes" (of network
	// interface nic-1). Empty: the action's own name is used.
	Words string
	// WhatIf is how the overlay of planned_changes_file answers it (an
	// action's answer is computed by Azure from the network as it is, so
	// every action needs one).
	WhatIf WhatIf
	// PlanTypes are the resource types (lower case; their child types
	// included) whose planned change makes the answer stale
	// (WhatIfStale) or unknown (WhatIfUnknownWhenTypesChange).
	PlanTypes []string
	// CrossCheck marks a read that only cross-checks what the provider
	// computes from configuration by documented rules: a failed one leaves
	// the verdict to the computed routes and is a COVERAGE_ROUTES_COMPUTED
	// note of the pool, not missing evidence, as a scale-set pool's subnet
	// routes are computed without any effective-route API
	// (docs/design/azure-behaviour.md, "Effective routes of the hub").
	// Where such a read is the only evidence of something (the branch
	// prefixes a hub's gateways learn over BGP), the gap it would have
	// closed stays: that gap names the gateway, not the read.
	CrossCheck bool
}

// WhatIf is how the what-if overlay answers an allowed read action while
// a plan changes what the answer is computed from.
type WhatIf int

// What-if treatments of the read actions.
const (
	whatIfNone WhatIf = iota
	// WhatIfStale: the answer is computed from the network as it is
	// (effective routes, next hop); when the plan changes a resource of
	// PlanTypes it fails as stale and gather computes the routes.
	WhatIfStale
	// WhatIfBGPOfOwner: routes a gateway or Route Server exchanges over
	// BGP; unknown until apply when the plan changes the gateway or
	// virtual hub (or anything inside it).
	WhatIfBGPOfOwner
	// WhatIfUnknownWhenTypesChange: which resources of PlanTypes serve the
	// resource (the DNS private resolvers or forwarding rulesets of a
	// VNet); unknown until apply when the plan changes one of them.
	WhatIfUnknownWhenTypesChange
	// WhatIfResourceGraph: a Resource Graph search (GraphSearch), answered
	// as after the plan from the search its request carries.
	WhatIfResourceGraph
)

// routingTypes are the resource types whose change changes a NIC's or a
// hub's effective routes and a next hop.
var routingTypes = []string{
	"microsoft.network/virtualnetworks",
	"microsoft.network/routetables",
	"microsoft.network/virtualnetworkgateways",
	"microsoft.network/connections",
	"microsoft.network/localnetworkgateways",
	"microsoft.network/virtualhubs",
	"microsoft.network/networkinterfaces",
	"microsoft.network/expressroutecircuits",
}

// The read actions gather names when it records a read's gap.
var (
	ActionNICEffectiveRoutes = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveRouteTable",
		Action:      "Microsoft.Network/networkInterfaces/effectiveRouteTable/action",
		Operation:   "InterfacesClient.BeginGetEffectiveRouteTable (POST …/networkInterfaces/{nic}/effectiveRouteTable)",
		Words:       "the effective routes", WhatIf: WhatIfStale, PlanTypes: routingTypes,
	}
	ActionNICEffectiveSecurityGroups = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveNetworkSecurityGroups",
		Action:      "Microsoft.Network/networkInterfaces/effectiveNetworkSecurityGroups/action",
		WhatIf:      WhatIfStale, PlanTypes: append(slices.Clone(routingTypes), "microsoft.network/networksecuritygroups"),
	}
	ActionGatewayLearnedRoutes = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getLearnedRoutes",
		Action:      "Microsoft.Network/virtualNetworkGateways/getLearnedRoutes/action",
		Operation:   "VirtualNetworkGatewaysClient.BeginGetLearnedRoutes (POST …/virtualNetworkGateways/{gw}/getLearnedRoutes)",
		Words:       "the learned routes", WhatIf: WhatIfBGPOfOwner,
	}
	ActionGatewayAdvertisedRoutes = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getAdvertisedRoutes",
		Action:      "Microsoft.Network/virtualNetworkGateways/getAdvertisedRoutes/action",
		Operation:   "VirtualNetworkGatewaysClient.BeginGetAdvertisedRoutes (POST …/virtualNetworkGateways/{gw}/getAdvertisedRoutes)",
		Words:       "the advertised routes", WhatIf: WhatIfBGPOfOwner,
	}
	ActionGatewayBGPPeerStatus = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getBgpPeerStatus",
		Action:      "Microsoft.Network/virtualNetworkGateways/getBgpPeerStatus/action",
		Operation:   "VirtualNetworkGatewaysClient.BeginGetBgpPeerStatus (POST …/virtualNetworkGateways/{gw}/getBgpPeerStatus)",
		Words:       "the BGP peer status", WhatIf: WhatIfBGPOfOwner,
	}
	ActionRouteServerLearnedRoutes = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualHubs/{virtualHubName}/bgpConnections/{connectionName}/learnedRoutes",
		Action:      "Microsoft.Network/virtualHubs/bgpConnections/learnedRoutes/action",
		Operation:   "VirtualHubBgpConnectionsClient.BeginListLearnedRoutes (POST …/virtualHubs/{rs}/bgpConnections/{c}/learnedRoutes)",
		Words:       "the learned routes", WhatIf: WhatIfBGPOfOwner,
	}
	// The effective routes of a Virtual WAN hub's route table: computed
	// by Azure from the hub's routing as it is; a cross-check of the
	// routes computed from the hub's configuration where the hub has a
	// branch gateway (beside the branch prefixes only they show), and the
	// evidence of a destination no read places otherwise
	// (routing/vwan_effective.go), whose failure the engine names as a gap
	// on the hub rather than on the read.
	ActionHubEffectiveRoutes = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualHubs/{virtualHubName}/effectiveRoutes",
		Action:      "Microsoft.Network/virtualHubs/effectiveRoutes/action",
		Operation:   "VirtualHubsClient.BeginGetEffectiveVirtualHubRoutes (POST …/virtualHubs/{h}/effectiveRoutes)",
		Words:       "the effective routes", WhatIf: WhatIfStale, PlanTypes: routingTypes, CrossCheck: true,
	}
	ActionNextHop = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkWatchers/{networkWatcherName}/nextHop",
		Action:      "Microsoft.Network/networkWatchers/nextHop/action",
		WhatIf:      WhatIfStale, PlanTypes: routingTypes,
	}
	ActionListDNSResolvers = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsResolvers",
		Action:      "Microsoft.Network/virtualNetworks/listDnsResolvers/action",
		Operation:   "DNSResolversClient.NewListByVirtualNetworkPager (POST …/virtualNetworks/{v}/listDnsResolvers)",
		Words:       "the DNS private resolvers", WhatIf: WhatIfUnknownWhenTypesChange, PlanTypes: []string{"microsoft.network/dnsresolvers"},
	}
	ActionListDNSRulesets = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsForwardingRulesets",
		Action:      "Microsoft.Network/virtualNetworks/listDnsForwardingRulesets/action",
		Operation:   "DNSForwardingRulesetsClient.NewListByVirtualNetworkPager (POST …/virtualNetworks/{v}/listDnsForwardingRulesets)",
		Words:       "the DNS forwarding rulesets", WhatIf: WhatIfUnknownWhenTypesChange, PlanTypes: []string{"microsoft.network/dnsforwardingrulesets"},
	}
	// The Azure Virtual Network Manager security admin rules in effect on
	// a VNet (pages by skipToken in the body); unknown until apply when the
	// plan changes a network manager (its groups, configurations, rules or
	// deployments).
	ActionAdminRules = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listNetworkManagerEffectiveSecurityAdminRules",
		Action:      "Microsoft.Network/virtualNetworks/listNetworkManagerEffectiveSecurityAdminRules/action",
		Operation:   "ManagementClient.ListNetworkManagerEffectiveSecurityAdminRules (POST …/virtualNetworks/{v}/listNetworkManagerEffectiveSecurityAdminRules)",
		Words:       "the effective security admin rules", WhatIf: WhatIfUnknownWhenTypesChange, PlanTypes: []string{"microsoft.network/networkmanagers"},
	}
	// The DNS security policies (DNS resolver policies) linked to a VNet:
	// ids only, the policies' rules and domain lists are GETs. Unknown
	// until apply when the plan changes a policy (its rules or VNet
	// links: child types) or a domain list.
	ActionListDNSPolicies = ReadAction{
		PathPattern: "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsResolverPolicies",
		Action:      "Microsoft.Network/virtualNetworks/listDnsResolverPolicies/action",
		Operation:   "PoliciesClient.NewListByVirtualNetworkPager (POST …/virtualNetworks/{v}/listDnsResolverPolicies)",
		Words:       "the DNS security policies", WhatIf: WhatIfUnknownWhenTypesChange,
		PlanTypes: []string{"microsoft.network/dnsresolverpolicies", "microsoft.network/dnsresolverdomainlists"},
	}
	// An Azure Resource Graph search (GraphSearch): a read of the
	// resources the identity may read, in every subscription at once.
	ActionResourceGraph = ReadAction{
		PathPattern: "/providers/Microsoft.ResourceGraph/resources",
		Action:      "Microsoft.ResourceGraph/resources/read",
		Operation:   "Client.Resources (POST /providers/Microsoft.ResourceGraph/resources)",
		WhatIf:      WhatIfResourceGraph,
	}
)

// readActions are the only non-GET requests the provider sends.
var readActions = []ReadAction{
	ActionNICEffectiveRoutes,
	ActionNICEffectiveSecurityGroups,
	ActionGatewayLearnedRoutes,
	ActionGatewayAdvertisedRoutes,
	ActionGatewayBGPPeerStatus,
	ActionRouteServerLearnedRoutes,
	ActionHubEffectiveRoutes,
	ActionNextHop,
	ActionListDNSResolvers,
	ActionListDNSRulesets,
	ActionAdminRules,
	ActionListDNSPolicies,
	ActionResourceGraph,
}

// ReadActions returns the read actions (a copy: callers cannot widen the
// guard by changing it). Every GET is allowed besides; a role needs
// "*/read" (Reader) for those.
func ReadActions() []ReadAction { return slices.Clone(readActions) }

// Name is the action's last path segment ("effectiveRouteTable").
func (a ReadAction) Name() string {
	return a.PathPattern[strings.LastIndexByte(a.PathPattern, '/')+1:]
}

// readActionSegments are the compiled patterns, split once.
var readActionSegments = func() [][]string {
	out := make([][]string, len(readActions))
	for i, a := range readActions {
		out[i] = strings.Split(strings.TrimPrefix(a.PathPattern, "/"), "/")
	}
	return out
}()

// ReadActionAt is the read action an escaped request path is, matched
// segment by segment (a substring test would let
// …/effectiveRouteTableX or …/effectiveRouteTable/start through). An
// empty or dot segment means a different path on the server than the one
// matched here, and an escaped "/" is a name no ARM resource has: neither
// matches.
func ReadActionAt(escapedPath string) (ReadAction, bool) {
	rest, ok := strings.CutPrefix(escapedPath, "/")
	if !ok {
		return ReadAction{}, false
	}
	raw := strings.Split(rest, "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		seg, err := url.PathUnescape(s)
		if err != nil || seg == "" || seg == "." || seg == ".." || strings.Contains(seg, "/") {
			return ReadAction{}, false
		}
		segs[i] = seg
	}
	return readActionOf(segs)
}

// readActionOf is the read action whose pattern the path segments match.
func readActionOf(segs []string) (ReadAction, bool) {
	for i, pattern := range readActionSegments {
		if matchSegments(pattern, segs) {
			return readActions[i], true
		}
	}
	return ReadAction{}, false
}

func matchSegments(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			continue
		}
		if !strings.EqualFold(p, segs[i]) {
			return false
		}
	}
	return true
}

// readActionWords are the words of a label for a read action, by its
// lower-case name; an action's name is unique to it but two actions may
// share words.
var readActionWords = func() map[string]string {
	out := map[string]string{}
	for _, a := range readActions {
		if a.Words != "" {
			out[strings.ToLower(a.Name())] = a.Words
		}
	}
	return out
}()

// IsCrossCheckRead reports whether the read recorded under id (an action
// such as HubEffectiveRoutesAction, or a request path) is a read action
// whose row says CrossCheck: its failure changes no verdict by itself.
// The route engine decides with it, and the evidence tests hold every
// scenario to it.
func IsCrossCheckRead(id ResourceID) bool {
	a, ok := readActionOf(strings.Split(strings.Trim(string(id), "/"), "/"))
	return ok && a.CrossCheck
}
