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
}

// readActions are the only non-GET requests the provider sends.
var readActions = []AllowedAction{
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveRouteTable",
		"Microsoft.Network/networkInterfaces/effectiveRouteTable/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkInterfaces/{networkInterfaceName}/effectiveNetworkSecurityGroups",
		"Microsoft.Network/networkInterfaces/effectiveNetworkSecurityGroups/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getLearnedRoutes",
		"Microsoft.Network/virtualNetworkGateways/getLearnedRoutes/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getAdvertisedRoutes",
		"Microsoft.Network/virtualNetworkGateways/getAdvertisedRoutes/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworkGateways/{virtualNetworkGatewayName}/getBgpPeerStatus",
		"Microsoft.Network/virtualNetworkGateways/getBgpPeerStatus/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualHubs/{virtualHubName}/bgpConnections/{connectionName}/learnedRoutes",
		"Microsoft.Network/virtualHubs/bgpConnections/learnedRoutes/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/networkWatchers/{networkWatcherName}/nextHop",
		"Microsoft.Network/networkWatchers/nextHop/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsResolvers",
		"Microsoft.Network/virtualNetworks/listDnsResolvers/action"},
	{http.MethodPost, "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{virtualNetworkName}/listDnsForwardingRulesets",
		"Microsoft.Network/virtualNetworks/listDnsForwardingRulesets/action"},
	// An Azure Resource Graph query: a read of the resources the identity
	// may read (the private DNS zone links to the node VNets), in every
	// subscription at once.
	{http.MethodPost, "/providers/Microsoft.ResourceGraph/resources", "Microsoft.ResourceGraph/resources/read"},
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

// isReadAction matches the path segment by segment: a substring test would
// let …/effectiveRouteTableX or …/effectiveRouteTable/start through.
func isReadAction(escapedPath string) bool {
	rest, ok := strings.CutPrefix(escapedPath, "/")
	if !ok {
		return false
	}
	raw := strings.Split(rest, "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		seg, err := url.PathUnescape(s)
		// An empty or dot segment means a different path on the server
		// than the one matched here; an escaped "/" is a name no ARM
		// resource has.
		if err != nil || seg == "" || seg == "." || seg == ".." || strings.Contains(seg, "/") {
			return false
		}
		segs[i] = seg
	}
	for _, pattern := range readActionSegments {
		if matchSegments(pattern, segs) {
			return true
		}
	}
	return false
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
