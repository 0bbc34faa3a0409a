package routing

import (
	"fmt"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Finding is one route conclusion: a code of docs/design/findings.md, the resource to change
// (or that could not be read), and a message with the concrete names,
// prefixes and addresses. One cause gives one finding, with the most
// specific code (docs/design/findings.md).
type Finding struct {
	Code model.Code
	// Resource is the resource to change: a route table, a peering, a NIC,
	// a gateway, a subnet.
	Resource    model.ResourceID
	Message     string
	Remediation string
	// SubnetID is the subnet whose routing decided it; Route the route it
	// selected, when there was one.
	SubnetID model.ResourceID
	Route    *model.Route
}

// ToModel turns the finding into a model.Finding for a pool and endpoint
// (model.NewFinding fills severity, condition and owner for the code).
func (f Finding) ToModel(pool, endpoint string) model.Finding {
	return model.NewFinding(f.Code, pool, endpoint, f.Resource, f.Message, f.Remediation)
}

// timeoutNote is what docs/design/findings.md wants every connectivity message to say:
// a dropped packet is a timeout, and no credential changes that.
const timeoutNote = " Nodes see a connection timeout; credentials and imagePullSecrets are irrelevant here."

// remediation says what to change for each route code, and what will not
// help.
func remediation(code model.Code) string {
	switch code {
	case model.RouteBlackhole:
		return "Give the node subnet a route that carries the destination (peering, gateway transit, or a UDR to an appliance that reaches it), or remove the UDR that drops it." + timeoutNote
	case model.RouteInvalid:
		return "Fix the invalid route: its next hop does not exist for this subnet (for a VirtualNetworkGateway next hop, the VNet needs its own gateway or gateway transit)." + timeoutNote
	case model.RouteGatewayTransitMissing:
		return "Set useRemoteGateways on the spoke's peering and allowGatewayTransit on the hub's peering (both are needed), or route the prefix through an appliance in the hub with a UDR." + timeoutNote
	case model.RouteBGPPropagationDisabled:
		return "Enable gateway route propagation on the node subnet's route table, or add a UDR for the destination prefix (to the gateway or an appliance)." + timeoutNote
	case model.RoutePeeringNotConnected:
		return "Create the missing side of the peering (or re-create both sides) until both are Connected." + timeoutNote
	case model.RoutePeeringAccessDisabled:
		return "Set allowVirtualNetworkAccess on the peering." + timeoutNote
	case model.RoutePeeringNotSynced:
		return "Sync the peering (az network vnet peering sync, or the portal's Sync button) on both sides after the address space change." + timeoutNote
	case model.RoutePeeringSubnetExcluded:
		return "Add the subnet to the subnet peering on both sides (localSubnetNames on one side is remoteSubnetNames on the other), then sync the peering; or peer the complete VNets (peerCompleteVnets true)." + timeoutNote
	case model.RouteNotTransitive:
		return "Peering is not transitive: peer the two VNets directly, or add a UDR on the node subnet sending the destination to an appliance or firewall in the hub (with allowForwardedTraffic on the receiving peering)." + timeoutNote
	case model.RouteForwardedTrafficBlock:
		return "Set allowForwardedTraffic on the receiving side's peering." + timeoutNote
	case model.RouteNVAForwardingDisabled:
		return "Enable IP forwarding on the appliance's network interface (and in its operating system)." + timeoutNote
	case model.RouteNVAUnreachable:
		return "Point the UDR at an appliance address in the node VNet or a directly peered VNet, or peer the appliance's VNet." + timeoutNote
	case model.RouteNextHopAbsent:
		return "Give the address back to what the route means (start a stopped Azure Firewall: `az network firewall ip-config create`, or Allocate with Azure PowerShell; re-create the appliance's network interface or load balancer frontend), or point the route at an address something holds. Network security groups, DNS and the registry are not the cause: the packet is dropped before it reaches them." + timeoutNote
	case model.ReturnRouteMissing:
		return "Give the destination side a route back to the node subnet (peering in both directions, synced; advertise the node prefix to on-premises)."
	case model.ReturnRouteAsymmetric:
		return "Make the return path cross the same appliance (a UDR for the node subnet prefix on the destination subnet), or have the appliance source-NAT the flow."
	case model.CoverageModelDrift:
		return "Find what the configuration misses: compare the network interface's effective routes (az network nic show-effective-route-table) with the subnet's route table, the peerings and the gateway's learned routes. Typical causes are a route table, peering or gateway the provider could not read, BGP routes from a source it does not read, or a change Azure has not finished programming. The path was traced with what Azure really programs; computed verdicts of pools in the same subnet without an effective route table (scale sets, zero nodes) may be wrong until it is explained."
	case model.ReturnRouteUnverified:
		return "Verify the return path outside Azure: the on-premises (or appliance) side's route back to the node subnet cannot be read from Azure Resource Manager."
	}
	return ""
}

func newFinding(code model.Code, resource, subnet model.ResourceID, route *model.Route, format string, args ...any) Finding {
	var rc *model.Route
	if route != nil {
		r := *route
		rc = &r
	}
	return Finding{Code: code, Resource: resource, SubnetID: subnet, Route: rc,
		Message: fmt.Sprintf(format, args...), Remediation: remediation(code)}
}

// verdictOf applies the verdict rule of docs/design/findings.md (model.VerdictOf) to route findings
// and gaps: any gap makes an otherwise reachable path unverified.
func verdictOf(findings []Finding, gaps []model.Gap) model.Verdict {
	all := make([]model.Finding, 0, len(findings)+len(gaps))
	for _, f := range findings {
		all = append(all, f.ToModel("", ""))
	}
	for _, g := range gaps {
		all = append(all, model.NewFinding(model.EvidenceUnavailable, "", "", g.ResourceID, g.Detail, ""))
	}
	return model.VerdictOf(all)
}

// appendFinding adds f unless the same code for the same resource is there
// (one cause, one finding).
func appendFinding(list []Finding, f Finding) []Finding {
	for _, have := range list {
		if have.Code == f.Code && have.Resource.Equal(f.Resource) {
			return list
		}
	}
	return append(list, f)
}
