package azure

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// AllowedAction is one POST the provider may send: a read that ARM exposes
// as an action. The list is data so that a test can compare it with the
// custom role definition the documentation gives users.
type AllowedAction struct {
	Method string
	// PathPattern is the ARM path; {name} matches exactly one segment,
	// every other segment must match literally (case-insensitively).
	PathPattern string
	// Action is the RBAC operation a role needs for the request.
	Action string
	// WhatIf is how the overlay of planned_changes_file answers it (an
	// action's answer is computed by Azure from the network as it is, so
	// every allowed action needs one; TestEveryReadActionHasAWhatIf).
	WhatIf WhatIf
}

// WhatIf is how the what-if overlay ([Overlay]) answers an allowed read
// action while a plan changes what the answer is computed from.
type WhatIf int

// What-if treatments of the read actions.
const (
	whatIfNone WhatIf = iota
	// WhatIfStaleWithRouting: the answer is computed from the routing of
	// the network as it is (effective routes, next hop); when the plan
	// changes a resource of routingTypes it fails with
	// [PlannedStaleError] and gather computes the routes.
	WhatIfStaleWithRouting
	// WhatIfStaleWithRoutingOrSecurity: as WhatIfStaleWithRouting, and
	// also stale when the plan changes a network security group.
	WhatIfStaleWithRoutingOrSecurity
	// WhatIfBGPOfOwner: routes a gateway or Route Server exchanges over
	// BGP; unknown until apply ([PlannedValueUnknownError]) when the plan
	// changes the gateway or virtual hub (or anything inside it).
	WhatIfBGPOfOwner
	// WhatIfDNSResolvers / WhatIfDNSRulesets: which DNS private resolvers
	// or forwarding rulesets serve a VNet; unknown until apply when the
	// plan changes resolvers or rulesets.
	WhatIfDNSResolvers
	WhatIfDNSRulesets
	// WhatIfAdminRules: the Azure Virtual Network Manager security admin
	// rules in effect on a VNet; unknown until apply when the plan changes
	// a network manager (its groups, configurations, rules or
	// deployments).
	WhatIfAdminRules
	// WhatIfResourceGraph: gather's Resource Graph search for zone links
	// sees the links the plan creates and deletes.
	WhatIfResourceGraph
)

// readActions are the only non-GET requests the provider sends.
var readActions = []AllowedAction{
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveRouteTable",
		"Microsoft.Network/networkInterfaces/effectiveRouteTable/action", WhatIfStaleWithRouting},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveNetworkSecurityGroups",
		"Microsoft.Network/networkInterfaces/effectiveNetworkSecurityGroups/action", WhatIfStaleWithRoutingOrSecurity},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getLearnedRoutes",
		"Microsoft.Network/virtualNetworkGateways/getLearnedRoutes/action", WhatIfBGPOfOwner},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getAdvertisedRoutes",
		"Microsoft.Network/virtualNetworkGateways/getAdvertisedRoutes/action", WhatIfBGPOfOwner},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getBgpPeerStatus",
		"Microsoft.Network/virtualNetworkGateways/getBgpPeerStatus/action", WhatIfBGPOfOwner},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualHubs/{virtualHubName}/bgpConnections/{connectionName}/learnedRoutes",
		"Microsoft.Network/virtualHubs/bgpConnections/learnedRoutes/action", WhatIfBGPOfOwner},
	// The effective routes of a Virtual WAN hub's route table: computed by
	// Azure from the hub's routing as it is.
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualHubs/{virtualHubName}/effectiveRoutes",
		"Microsoft.Network/virtualHubs/effectiveRoutes/action", WhatIfStaleWithRouting},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkWatchers/{networkWatcherName}/nextHop",
		"Microsoft.Network/networkWatchers/nextHop/action", WhatIfStaleWithRouting},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsResolvers",
		"Microsoft.Network/virtualNetworks/listDnsResolvers/action", WhatIfDNSResolvers},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsForwardingRulesets",
		"Microsoft.Network/virtualNetworks/listDnsForwardingRulesets/action", WhatIfDNSRulesets},
	// The Azure Virtual Network Manager security admin rules in effect on
	// a VNet (pages by skipToken in the body).
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listNetworkManagerEffectiveSecurityAdminRules",
		"Microsoft.Network/virtualNetworks/listNetworkManagerEffectiveSecurityAdminRules/action", WhatIfAdminRules},
	// An Azure Resource Graph query: a read of the resources the identity
	// may read (the private DNS zone links to the node VNets), in every
	// subscription at once.
	{http.MethodPost, "/providers/Microsoft.ResourceGraph/resources", "Microsoft.ResourceGraph/resources/read", WhatIfResourceGraph},
}

// ReadActions returns the allow-list of POSTs (a copy: callers cannot widen
// the guard by changing it). Every GET is allowed besides; a role needs
// "*/read" (Reader) for those.
func ReadActions() []AllowedAction {
	return append([]AllowedAction(nil), readActions...)
}

// compiled patterns, split once.
var readActionSegments = func() [][]string {
	out := make([][]string, len(readActions))
	for i, a := range readActions {
		out[i] = strings.Split(strings.TrimPrefix(a.PathPattern, "/"), "/")
	}
	return out
}()

// ReadOnlyGuard is an azcore policy that refuses, before the request leaves
// the process, everything but GET and the POSTs of [ReadActions]. It is the
// provider's promise that a plan never changes Azure, kept in one place
// rather than trusted to every reader.
//
// Place it in ClientOptions.PerCallPolicies: it then runs before the retry
// policy and the bearer-token policy, so a refused request costs no token
// and is not retried. Its error is also marked non-retriable, so it is
// equally safe in PerRetryPolicies. LRO polls (GETs on operation URLs) and
// next-page fetches (GETs) pass.
type ReadOnlyGuard struct{}

// Do implements policy.Policy.
func (ReadOnlyGuard) Do(req *policy.Request) (*http.Response, error) {
	if err := CheckReadOnly(req.Raw().Method, req.Raw().URL); err != nil {
		return nil, err
	}
	return req.Next()
}

// CheckReadOnly returns a *ReadOnlyError unless method and u are a GET or
// one of the allowed read actions.
func CheckReadOnly(method string, u *url.URL) error {
	if u == nil {
		return &ReadOnlyError{Method: method}
	}
	if method == http.MethodGet {
		return nil
	}
	if method == http.MethodPost && isReadAction(u.EscapedPath()) {
		return nil
	}
	return &ReadOnlyError{Method: method, Path: u.Path}
}

// readActionFor is the allowed action a POST path (escaped) is, matched as
// the guard matches it.
func readActionFor(escapedPath string) (AllowedAction, bool) {
	rest, ok := strings.CutPrefix(escapedPath, "/")
	if !ok {
		return AllowedAction{}, false
	}
	raw := strings.Split(rest, "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		seg, err := url.PathUnescape(s)
		if err != nil || seg == "" || seg == "." || seg == ".." || strings.Contains(seg, "/") {
			return AllowedAction{}, false
		}
		segs[i] = seg
	}
	for i, pattern := range readActionSegments {
		if matchSegments(pattern, segs) {
			return readActions[i], true
		}
	}
	return AllowedAction{}, false
}

// isReadAction matches the path segment by segment: a substring test would
// let …/effectiveRouteTableX or …/effectiveRouteTable/start through.
func isReadAction(escapedPath string) bool {
	// An empty or dot segment means a different path on the server than
	// the one matched here; an escaped "/" is a name no ARM resource has
	// (readActionFor refuses both).
	_, ok := readActionFor(escapedPath)
	return ok
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

// ReadOnlyError is a request the guard refused.
type ReadOnlyError struct {
	Method string
	Path   string // without the query string
}

func (e *ReadOnlyError) Error() string {
	names := make([]string, len(readActions))
	for i, a := range readActions {
		names[i] = a.PathPattern[strings.LastIndexByte(a.PathPattern, '/')+1:]
	}
	return fmt.Sprintf("pullpath is read-only towards Azure: refusing %s %s (only GET and the read actions %s are allowed)",
		e.Method, e.Path, strings.Join(names, ", "))
}

// NonRetriable tells azcore's retry policy (and ours) that trying again
// cannot help.
func (*ReadOnlyError) NonRetriable() {}
