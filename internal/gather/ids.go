package gather

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// parseID parses a resource id with ids.Parse, the provider's one parser
// of ARM ids (any casing of the keywords, names as written, strict about
// structure).
func parseID(id model.ResourceID) (ids.ResourceID, error) {
	return ids.Parse(string(id))
}

// isType reports whether a is a resource (not an extension resource) of
// exactly this namespace and type chain, compared as ARM does.
func isType(a ids.ResourceID, namespace string, types ...string) bool {
	return a.Scope == "" && a.IsType(namespace+"/"+strings.Join(types, "/"))
}

// parseTyped parses id and checks its type chain; the error names what was
// expected.
func parseTyped(id model.ResourceID, namespace string, types ...string) (ids.ResourceID, error) {
	a, err := parseID(id)
	if err != nil {
		return a, err
	}
	if a.ResourceGroup == "" || !isType(a, namespace, types...) {
		return a, fmt.Errorf("resource id %q is not a %s/%s id", string(id), namespace, strings.Join(types, "/"))
	}
	return a, nil
}

// nicOfIPConfig returns the NIC id of a NIC ip configuration id
// (…/networkInterfaces/{n}/ipConfigurations/{c}, standalone or under a
// scale-set instance), or "" when the ip configuration belongs to something
// else (a gateway, a load balancer, a firewall, a private link service).
func nicOfIPConfig(ipConfigID model.ResourceID) model.ResourceID {
	s := string(ipConfigID)
	lower := strings.ToLower(s)
	i := strings.LastIndex(lower, "/ipconfigurations/")
	if i < 0 {
		return ""
	}
	nic := model.ResourceID(s[:i])
	a, err := parseID(nic)
	if err != nil {
		return ""
	}
	if isType(a, "Microsoft.Network", "networkInterfaces") ||
		isType(a, "Microsoft.Compute", "virtualMachineScaleSets", "virtualMachines", "networkInterfaces") {
		return nic
	}
	return ""
}

// gatewayOfIPConfig returns the gateway id of a virtual network gateway ip
// configuration id, or "".
func gatewayOfIPConfig(ipConfigID model.ResourceID) model.ResourceID {
	s := string(ipConfigID)
	i := strings.LastIndex(strings.ToLower(s), "/ipconfigurations/")
	if i < 0 {
		return ""
	}
	gw := model.ResourceID(s[:i])
	if a, err := parseID(gw); err == nil && isType(a, "Microsoft.Network", "virtualNetworkGateways") {
		return gw
	}
	return ""
}

// groupCollection is the id of a resource-group-level collection, used as
// the resource id of a failed list.
func groupCollection(subscription, group, namespace, typ string) model.ResourceID {
	return model.ResourceID(fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/%s/%s", subscription, group, namespace, typ))
}

// child appends a path segment (a child collection or an action) to an id.
func child(id model.ResourceID, suffix string) model.ResourceID {
	return model.ResourceID(strings.TrimRight(string(id), "/") + "/" + suffix)
}

// notFound is an ARM-shaped 404 for a fact missing from an answer that was
// read (a subnet absent from its VNet), so that its gap is classified as
// not_found. code is the ARM error code to report.
func notFound(code, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, &azcore.ResponseError{StatusCode: http.StatusNotFound, ErrorCode: code})...)
}

// memoKey is the key of one memoised read.
func memoKey(kind string, id model.ResourceID) string { return kind + " " + id.Key() }
