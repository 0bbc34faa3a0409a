package gather

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// armID is a resource id split into what the SDK clients take:
// subscription, resource group, and the type/name pairs after the provider
// namespace (virtualNetworks/vnet-hub/subnets/snet-aks → types
// [virtualNetworks subnets], names [vnet-hub snet-aks]).
type armID struct {
	Subscription  string
	ResourceGroup string
	Namespace     string
	Types         []string
	Names         []string
}

// parseID splits a resource-group-level resource id. It accepts any casing
// of the keywords and keeps names as written.
func parseID(id model.ResourceID) (armID, error) {
	segs := strings.Split(strings.Trim(string(id), "/"), "/")
	var a armID
	bad := func(why string) (armID, error) {
		return armID{}, fmt.Errorf("malformed resource id %q: %s", string(id), why)
	}
	if len(segs) < 2 || !strings.EqualFold(segs[0], "subscriptions") || segs[1] == "" {
		return bad("it does not start with /subscriptions/{id}")
	}
	a.Subscription = segs[1]
	rest := segs[2:]
	if len(rest) >= 2 && strings.EqualFold(rest[0], "resourceGroups") {
		a.ResourceGroup = rest[1]
		rest = rest[2:]
	}
	if len(rest) == 0 {
		return a, nil
	}
	if len(rest) < 2 || !strings.EqualFold(rest[0], "providers") {
		return bad("expected /providers/{namespace} after the resource group")
	}
	a.Namespace = rest[1]
	rest = rest[2:]
	if len(rest)%2 != 0 {
		return bad("a resource type has no name")
	}
	for i := 0; i < len(rest); i += 2 {
		if rest[i] == "" || rest[i+1] == "" {
			return bad("empty segment")
		}
		a.Types = append(a.Types, rest[i])
		a.Names = append(a.Names, rest[i+1])
	}
	return a, nil
}

// is reports whether the id has exactly this namespace and type chain.
func (a armID) is(namespace string, types ...string) bool {
	if !strings.EqualFold(a.Namespace, namespace) || len(a.Types) != len(types) {
		return false
	}
	for i, t := range types {
		if !strings.EqualFold(a.Types[i], t) {
			return false
		}
	}
	return true
}

// parseTyped parses id and checks its type chain; the error names what was
// expected.
func parseTyped(id model.ResourceID, namespace string, types ...string) (armID, error) {
	a, err := parseID(id)
	if err != nil {
		return a, err
	}
	if a.ResourceGroup == "" || !a.is(namespace, types...) {
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
	if a.is("Microsoft.Network", "networkInterfaces") ||
		a.is("Microsoft.Compute", "virtualMachineScaleSets", "virtualMachines", "networkInterfaces") {
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
	if a, err := parseID(gw); err == nil && a.is("Microsoft.Network", "virtualNetworkGateways") {
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
