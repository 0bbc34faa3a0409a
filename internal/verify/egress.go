// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The public path of a pull (docs/design/azure-behaviour.md, "The public
// path"): a host that resolves publicly is reached at an Internet address
// Resource Manager does not name. The route engine says where the flow
// leaves Azure's networks (Exit); this file says what it leaves through —
// the node subnet's NAT gateway, the nodes' own public IPs, the cluster's
// load balancer, an Azure Firewall, another appliance, a gateway to
// on-premises — and which public addresses the registry then sees.

// egressSource is one thing a flow may leave through: a public IP address
// or prefix resource, a NAT gateway (whose addresses are its public IPs),
// or an address known directly.
type egressSource struct {
	// label says what it is, e.g. "load balancer outbound IP" or "Azure
	// Firewall fw-hub".
	label string
	// id is a public IP address, public IP prefix or NAT gateway resource.
	id model.ResourceID
	// addr is an address known without a read (a virtual hub firewall's).
	addr netip.Prefix
}

// egressResult is how one flow to a public address leaves for the
// internet.
type egressResult struct {
	// steps continue the route engine's hops with the way out; their
	// labels are the path's hop strings.
	steps    []model.Hop
	findings []model.Finding
	// via says in words what the flow leaves through, for messages.
	via string
	// sources are what its public addresses come from; unknown, when set,
	// says why they cannot be known at all (no finding says so yet).
	sources []egressSource
	unknown string
	// reported: a finding on the path already says the egress is
	// unverified, so the registry's IP rules add no second one.
	reported bool
	// instances: the flow leaves through the instance-level public IPs of
	// a pool whose nodes get them from no prefix (instanceIPRules).
	instances *model.NodePool
}

// egressOf follows a flow to the public address of h out of Azure's
// networks, from where the route engine left it (rr.Exit):
//
//   - outbound type block: AKS blocks every flow to a public address
//     (EGRESS_NO_OUTBOUND);
//   - a gateway to on-premises (forced tunnelling): what lets it out there
//     cannot be read (EGRESS_UNVERIFIED);
//   - an Azure Firewall: its rules decide (firewallDecision), and an
//     allowed flow leaves through the firewall's public IPs (or its
//     subnet's NAT gateway);
//   - any other virtual appliance: what it lets out cannot be read
//     (EGRESS_UNVERIFIED);
//   - Internet straight from the node subnet: the subnet's NAT gateway, the
//     nodes' own public IPs or the cluster's outbound type (subnetEgress).
//
// A flow that was dropped, or not followed for want of a fact, never gets
// here: the route's findings say why.
func (r *run) egressOf(pc *poolCtx, h model.PullHost, rr RouteResult) egressResult {
	e := rr.Exit
	if !pc.onProxy && r.egressBlocked() {
		cl := r.f.Cluster
		return r.noOutbound(pc, h, cl.ID, fmt.Sprintf("cluster %s has outbound type block: AKS blocks every flow from its nodes to a public address", cl.Name),
			fmt.Sprintf("Reach %s without leaving the virtual network: a private endpoint of the registry (or a pull-through cache registry with one) and a private DNS zone linked to %s. If the cluster must reach public addresses, change its outbound type (`az aks update --outbound-type`), which ends its network isolation.", h.Name, r.vnetName(pc.subnet.VNetID)))
	}
	switch e.Kind {
	case ExitNone:
		// Not dropped (that is a route finding) and not left unfollowed for
		// want of a fact (that stops the path before): delivered inside
		// Azure's networks, which a public address is not.
		return r.egressUnverified(pc, h, pc.subnet.ID,
			"the route engine delivered the flow inside Azure's networks instead of out of them to the internet, so the way out cannot be decided.",
			fmt.Sprintf("Check the routes of subnet %s for public addresses (`az network nic show-effective-route-table` on a VM in the subnet) and that they lead to the internet.", pc.subnet.Name))
	case ExitOnPremises:
		// A forced-tunnelling Azure Firewall decides the flow first; what
		// it lets through leaves through on-premises.
		res, ok := r.firewallsBeforeTunnel(pc, h, e)
		if !ok {
			return res
		}
		out := r.forcedTunnel(pc, h, e)
		out.steps = append(res.steps, out.steps...)
		out.findings = append(res.findings, out.findings...)
		return out
	case ExitServiceEndpoint:
		return egressResult{via: "a service endpoint (" + e.Route + ")",
			unknown: "traffic over a service endpoint keeps the nodes' private addresses, and the registry's IP rules admit public addresses only"}
	}
	res := egressResult{}
	for i, a := range e.Appliances {
		fw := r.f.Network.FirewallByPrivateIP(a.IP)
		if fw == nil {
			return r.applianceEgress(pc, h, e, a)
		}
		fwStep := model.FirewallHop(fw.ID, a.IP.String(), a.SubnetID)
		fwStep.Label = "Azure Firewall " + fw.Name + " (" + a.IP.String() + ")"
		res.steps = append(res.steps, fwStep)
		fs, allowed := r.firewallDecision(pc.pool.Name, fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(r.f.PublicServiceTags(h)))
		res.findings = append(res.findings, fs...)
		if !allowed {
			return egressResult{findings: res.findings, reported: true, steps: append(res.steps, egressStep(model.HopStop, fw.ID, "rules of Azure Firewall "+fw.Name+" not shown to allow it"))}
		}
		if i == len(e.Appliances)-1 {
			if f, ok := r.firewallSNATFinding(pc, h, fw); ok {
				res.findings = append(res.findings, f)
				return egressResult{findings: res.findings, reported: true, steps: append(res.steps, egressStep(model.HopStop, fw.ID, "leaves Azure Firewall "+fw.Name+" with the node address"))}
			}
			out := r.firewallEgress(fw, e.SubnetID)
			out.steps = append(res.steps, out.steps...)
			out.findings = append(res.findings, out.findings...)
			return out
		}
	}
	return r.subnetEgress(pc, h, e)
}

// egressBlocked reports whether AKS blocks every flow of the nodes to a
// public address (outbound type block), whatever its route.
func (r *run) egressBlocked() bool {
	cl := r.f.Cluster
	return cl != nil && strings.EqualFold(cl.Outbound.EffectiveType(), model.OutboundBlock)
}

// subnetEgress: the node subnet's own Internet route carries the flow out.
// Azure picks its public address in this order: the subnet's NAT gateway
// (it takes precedence over every other outbound method), the node's
// instance public IP, the cluster load balancer's outbound rules; without
// any of them, Azure's default outbound access, unless the subnet is
// private (defaultOutboundAccess false). The cluster's outbound type says
// which of those AKS set up.
func (r *run) subnetEgress(pc *poolCtx, h model.PullHost, e Exit) egressResult {
	subnet := r.f.Network.Subnet(e.SubnetID)
	if subnet == nil {
		subnet = pc.subnet
	}
	if !subnet.NATGatewayID.IsZero() {
		name := subnet.NATGatewayID.Name()
		return egressResult{via: "NAT gateway " + name + " of subnet " + subnet.Name,
			steps:   []model.Hop{egressStep(model.HopEgress, subnet.NATGatewayID, "out through NAT gateway "+name)},
			sources: []egressSource{{label: "NAT gateway " + name, id: subnet.NATGatewayID}}}
	}
	if pc.onProxy {
		// The proxy is a machine of its own: the cluster's outbound type
		// does not apply; what it has is read as for nodes given as
		// subnets (its instance public IP and load balancer are not).
		return r.defaultOutbound(pc, h, subnet, "", "")
	}
	if pc.pool.NodePublicIP {
		res := egressResult{via: "the nodes' own public IPs (enableNodePublicIP)", steps: []model.Hop{egressStep(model.HopEgress, "", "out through each node's own public IP")}}
		if id := pc.pool.NodePublicIPPrefixID; !id.IsZero() {
			res.sources = []egressSource{{label: "node public IP prefix", id: id}}
		} else {
			r.instanceEgress(pc.pool, &res)
		}
		return res
	}
	cl := r.f.Cluster
	if cl == nil {
		return r.defaultOutbound(pc, h, subnet, "", "")
	}
	outType := cl.Outbound.EffectiveType()
	switch strings.ToLower(outType) {
	case strings.ToLower(model.OutboundLoadBalancer):
		res := egressResult{via: "the outbound rules of cluster " + cl.Name + "'s load balancer",
			steps: []model.Hop{egressStep(model.HopEgress, "", "out through the cluster load balancer's outbound IPs")}}
		for _, id := range cl.Outbound.LoadBalancerIPIDs {
			res.sources = append(res.sources, egressSource{label: "load balancer outbound IP", id: id})
		}
		if len(res.sources) == 0 {
			res.unknown = "the cluster's networkProfile lists no effective outbound IPs of its load balancer"
		}
		return res
	case strings.ToLower(model.OutboundManagedNATGateway):
		res := egressResult{via: "cluster " + cl.Name + "'s managed NAT gateway", steps: []model.Hop{egressStep(model.HopEgress, "", "out through the cluster's managed NAT gateway")}}
		for _, id := range cl.Outbound.NATGatewayIPIDs {
			res.sources = append(res.sources, egressSource{label: "managed NAT gateway IP", id: id})
		}
		if len(res.sources) == 0 {
			res.unknown = "the cluster's networkProfile lists no effective outbound IPs of its managed NAT gateway"
		}
		return res
	case strings.ToLower(model.OutboundNone):
		// No outbound type: the nodes behave as plain VMs (AKS creates no
		// load balancer for them).
		return r.defaultOutbound(pc, h, subnet, outType, "AKS set up no way out for them (outbound type none)")
	case strings.ToLower(model.OutboundUserDefinedRouting), strings.ToLower(model.OutboundUserAssignedNATGateway):
		what := "a route that sends public addresses to an appliance or firewall"
		if strings.EqualFold(outType, model.OutboundUserAssignedNATGateway) {
			what = "a NAT gateway on the node subnet"
		}
		return r.defaultOutbound(pc, h, subnet, outType, fmt.Sprintf("outbound type %s expects %s, which subnet %s does not have (it sends public addresses to the Internet by %s)", outType, what, subnet.Name, e.Route))
	}
	return r.egressUnverified(pc, h, cl.ID,
		fmt.Sprintf("the node subnet sends it to the Internet (%s), but cluster %s has outbound type %q, whose way out the provider does not know; whether and through which public address the flow leaves cannot be decided.", e.Route, cl.Name, outType),
		fmt.Sprintf("Check how outbound type %s lets the nodes out and that it allows TCP 443 to %s.", outType, pc.mustAllow()))
}

// defaultOutbound: nothing the node subnet or the cluster set up carries
// the flow (why, when the cluster's outbound type expected something).
// Azure's default outbound access is what remains, and a private subnet
// (defaultOutboundAccess false) does not have it.
func (r *run) defaultOutbound(pc *poolCtx, h model.PullHost, subnet *model.Subnet, outType, why string) egressResult {
	cl := r.f.Cluster
	if pc.onProxy {
		cl = nil
	}
	if subnet.DefaultOutboundAccessDisabled {
		if cl == nil {
			// Nodes given as subnets: whether their VMs have a public IP or
			// sit behind a load balancer with outbound rules is not read.
			return r.egressUnverified(pc, h, subnet.ID,
				fmt.Sprintf("subnet %s has no NAT gateway and is private (defaultOutboundAccess false), so a node leaves for a public address only through a public IP of its own or a load balancer outbound rule, and neither is read for nodes given as subnets.", subnet.Name),
				fmt.Sprintf("Attach a NAT gateway to subnet %s, or make sure the nodes' VMs have a public IP or a load balancer outbound rule that allows TCP 443 to %s.", subnet.Name, pc.mustAllow()))
		}
		reason := fmt.Sprintf("subnet %s has no NAT gateway, the nodes have no public IPs of their own, and the subnet is private (defaultOutboundAccess false), so Azure gives them no default outbound access", subnet.Name)
		if why != "" {
			reason = why + "; " + reason
		}
		return r.noOutbound(pc, h, subnet.ID, reason,
			fmt.Sprintf("Give the nodes a way out: a NAT gateway on subnet %s (outbound type userAssignedNATGateway), or a route for public addresses to a firewall (userDefinedRouting), or reach %s over a private endpoint instead. Turning default outbound access back on is no fix: Azure is retiring it.", subnet.Name, h.Name))
	}
	if cl != nil && !strings.EqualFold(outType, model.OutboundNone) {
		// userDefinedRouting, userAssignedNATGateway: AKS put the nodes
		// behind the cluster's Standard load balancer, which gives its
		// backend pool no default outbound access; whether the pool holds
		// them yet is not in Resource Manager.
		return r.egressUnverified(pc, h, cl.ID,
			fmt.Sprintf("%s. Only Azure's default outbound access is left, which nodes in a Standard load balancer's backend pool do not get; whether the flow leaves at all cannot be read.", why),
			fmt.Sprintf("Give the nodes the way out their outbound type expects (%s), allowing TCP 443 to %s.", outType, pc.mustAllow()))
	}
	via := "Azure's default outbound access"
	if why != "" {
		via += " (" + why + ")"
	}
	return egressResult{via: via, steps: []model.Hop{egressStep(model.HopEgress, "", "out through Azure's default outbound access")},
		unknown: "Azure's default outbound access leaves through a Microsoft address that is not the subscription's and may change"}
}

// forcedTunnel: the route for public addresses is a gateway's (a BGP
// 0.0.0.0/0 from on-premises, or a UDR to the gateway): the flow leaves
// through the on-premises network, which Azure cannot describe.
func (r *run) forcedTunnel(pc *poolCtx, h model.PullHost, e Exit) egressResult {
	gw := e.GatewayID.Name()
	msg := fmt.Sprintf("the node subnet's route for public addresses (%s) sends them to gateway %s, toward on-premises: forced tunnelling. Whether the on-premises network lets the flow out to the internet, and through which public address, cannot be read from Azure. The on-premises egress (proxy, firewall) must allow TCP 443 to %s.",
		e.Route, gw, pc.mustAllow())
	if reg := r.f.Registry; reg != nil && reg.IPRulesApply() {
		msg += fmt.Sprintf(" Registry %s admits public clients only from %s, so the on-premises public address must be among them.", reg.Name, rangeWords(reg.IPRules))
	}
	keep := "a more specific route for its addresses"
	switch tags := r.f.PublicServiceTags(h); len(tags) {
	case 0:
	case 1:
		keep = "a route for its service tag " + tags[0]
	default:
		keep = "routes for its service tags " + strings.Join(tags, ", ")
	}
	fix := fmt.Sprintf("Have the network team confirm that the on-premises egress allows TCP 443 to %s from the node subnet; or keep the registry's traffic in Azure: a private endpoint of the registry, or %s to an Azure Firewall or to the Internet on the node subnet. Credentials and imagePullSecrets are irrelevant until the connection exists.",
		pc.mustAllow(), keep)
	res := r.egressUnverified(pc, h, e.GatewayID, msg, fix)
	res.steps = []model.Hop{egressStep(model.HopEgress, e.GatewayID, "on-premises through gateway "+gw+" (forced tunnelling)")}
	return res
}

// applianceEgress: a virtual appliance that is not an Azure Firewall the
// provider read forwards the flow; its rules and its source NAT are not in
// Resource Manager. An appliance address in an AzureFirewallSubnet is an
// Azure Firewall whose resource could not be read: its evidence finding
// comes with it.
func (r *run) applianceEgress(pc *poolCtx, h model.PullHost, e Exit, a ExitAppliance) egressResult {
	resource, what := a.NICID, "which is not an Azure Firewall"
	if resource.IsZero() {
		resource = a.SubnetID
	}
	var evidence []model.Finding
	if unreadFirewallAt(a) {
		what = "an Azure Firewall whose resource was not read"
		var id model.ResourceID
		id, evidence = r.unreadFirewallEvidence(pc, h, a)
		if !id.IsZero() {
			resource = id
		}
	}
	msg := fmt.Sprintf("the node subnet's route for public addresses (%s) sends them to %s, %s: what it lets out, and the public address it leaves through, cannot be read from Azure. It must allow TCP 443 to %s.",
		e.FirstRoute, a.Label, what, pc.mustAllow())
	if reg := r.f.Registry; reg != nil && reg.IPRulesApply() {
		msg += fmt.Sprintf(" Registry %s admits public clients only from %s, so the address the appliance leaves through must be among them.", reg.Name, rangeWords(reg.IPRules))
	}
	fix := fmt.Sprintf("On appliance %s, allow outbound TCP 443 from the node subnet to %s (and source-NAT it to a public address the registry admits); then confirm with a pull on a fresh node. Credentials and imagePullSecrets are irrelevant until the connection exists.",
		a.IP, pc.mustAllow())
	res := r.egressUnverified(pc, h, resource, msg, fix)
	res.findings = append(res.findings, evidence...)
	res.steps = []model.Hop{egressStep(model.HopEgress, a.NICID, "out through "+a.Label+" (its rules are not in Azure)")}
	return res
}

// unreadFirewallAt reports whether an appliance a flow crossed is an Azure
// Firewall that was not read: an address in an AzureFirewallSubnet that no
// NIC holds and no firewall read holds (model.Network.FirewallByPrivateIP
// answers for those that were read).
func unreadFirewallAt(a ExitAppliance) bool {
	return a.NICID.IsZero() && strings.EqualFold(a.SubnetID.Name(), "AzureFirewallSubnet")
}

// unreadFirewallEvidence names what was not read about the Azure Firewall
// at a, which the flow to h crosses (unreadFirewallAt): each firewall the
// subnet names, or, for a subnet that names none, the list of the
// firewalls of its VNet's resource group (where gather looked for it) when
// that failed. id is the firewall (or the list), zero when nothing names it.
func (r *run) unreadFirewallEvidence(pc *poolCtx, h model.PullHost, a ExitAppliance) (id model.ResourceID, evidence []model.Finding) {
	ids := r.firewallsIn(a.SubnetID)
	for _, fw := range ids {
		id = fw
		evidence = append(evidence, r.evidence(pc.pool.Name, h.Name, fw, "Azure Firewall "+fw.Name()+", which the flow to "+h.Name+" crosses"))
	}
	// A subnet that names no firewall has its firewall looked up among
	// those of its VNet's resource group: that list may have failed.
	if list := firewallList(a.SubnetID); len(ids) == 0 && !list.IsZero() {
		if _, failed := r.gaps.Lookup(list); failed {
			id = list
			evidence = append(evidence, r.evidence(pc.pool.Name, h.Name, list, "the Azure Firewalls of resource group "+list.ResourceGroup()+", among them the one at "+a.IP.String()+" that the flow to "+h.Name+" crosses"))
		}
	}
	return id, evidence
}

// firewallsIn returns the Azure Firewalls whose ip configurations the
// subnet lists (…/azureFirewalls/{fw}/azureFirewallIpConfigurations/{c}).
func (r *run) firewallsIn(subnetID model.ResourceID) []model.ResourceID {
	s := r.f.Network.Subnet(subnetID)
	if s == nil {
		return nil
	}
	return s.IPConfigurationOwners("azureFirewallIpConfigurations")
}

// firewallList is the list of the Azure Firewalls of the resource group of
// subnetID's VNet, where gather looks for the firewall of an
// AzureFirewallSubnet whose answer names none.
func firewallList(subnetID model.ResourceID) model.ResourceID {
	sub, rg := subnetID.Subscription(), subnetID.ResourceGroup()
	if sub == "" || rg == "" {
		return ""
	}
	return model.ResourceID("/subscriptions/" + sub + "/resourceGroups/" + rg + "/providers/Microsoft.Network/azureFirewalls")
}

// firewallEgress: the firewall allows the flow, which leaves through the
// NAT gateway of the firewall's subnet (it takes precedence over the
// firewall's own public IPs) or the firewall's public IPs.
func (r *run) firewallEgress(fw *model.AzureFirewall, exitSubnet model.ResourceID) egressResult {
	if s := r.f.Network.Subnet(exitSubnet); s != nil && !s.NATGatewayID.IsZero() {
		name := s.NATGatewayID.Name()
		return egressResult{via: "Azure Firewall " + fw.Name + " and NAT gateway " + name,
			steps:   []model.Hop{egressStep(model.HopEgress, s.NATGatewayID, "out through NAT gateway "+name+" of "+s.Name)},
			sources: []egressSource{{label: "NAT gateway " + name, id: s.NATGatewayID}}}
	}
	res := egressResult{via: "Azure Firewall " + fw.Name, steps: []model.Hop{egressStep(model.HopEgress, fw.ID, "out through Azure Firewall "+fw.Name+"'s public IPs")}}
	for _, id := range fw.PublicIPAddressIDs {
		res.sources = append(res.sources, egressSource{label: "Azure Firewall " + fw.Name + " public IP", id: id})
	}
	for _, a := range fw.PublicIPs {
		res.sources = append(res.sources, egressSource{label: "Azure Firewall " + fw.Name + " public IP", addr: netip.PrefixFrom(a, a.BitLen())})
	}
	if len(res.sources) == 0 {
		res.unknown = "firewall " + fw.Name + " lists no public IP"
	}
	return res
}

// noOutbound is EGRESS_NO_OUTBOUND: the flow cannot leave for a public
// address at all.
func (r *run) noOutbound(pc *poolCtx, h model.PullHost, resource model.ResourceID, why, fix string) egressResult {
	msg := fmt.Sprintf("the nodes have no outbound path to the internet: %s. The connection fails (a timeout), and %s.", why, consequence(h))
	fix += " Credentials and imagePullSecrets are irrelevant: the node cannot open the connection."
	f := model.NewFinding(model.EgressNoOutbound, pc.pool.Name, h.Name, resource, pc.label+" → the public address of "+h.Name+": "+msg, fix)
	return egressResult{findings: []model.Finding{f}, reported: true, steps: []model.Hop{egressStep(model.HopStop, resource, "no outbound path")}}
}

// egressUnverified is EGRESS_UNVERIFIED: the flow leaves through something
// whose rules or public address Azure does not describe.
func (r *run) egressUnverified(pc *poolCtx, h model.PullHost, resource model.ResourceID, msg, fix string) egressResult {
	f := model.NewFinding(model.EgressUnverified, pc.pool.Name, h.Name, resource, pc.label+" → the public address of "+h.Name+": "+msg, fix)
	return egressResult{findings: []model.Finding{f}, reported: true}
}

// mustAllow lists the hosts the pool's nodes reach at public addresses,
// for what a device on the way must allow.
func (pc *poolCtx) mustAllow() string {
	var names []string
	for _, h := range pc.publicHosts {
		name := h.Name
		if h.Kind == model.HostBlob {
			name += " (the registry's storage)"
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return "the registry's hosts"
	}
	return strings.Join(names, ", ")
}

// rangeWords lists prefixes, single addresses without their /32.
func rangeWords(ps []netip.Prefix) string {
	if len(ps) == 0 {
		return "no address at all (the rule set lists none)"
	}
	return joinWords(ps, prefixWord)
}

// joinWords lists xs in words, comma-separated.
func joinWords[T any](xs []T, word func(T) string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = word(x)
	}
	return strings.Join(s, ", ")
}

func prefixWord(p netip.Prefix) string {
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// registryIPRules applies the registry's network rule set to a flow that
// reaches its public address (login, regional and data endpoints; the
// registry storage is not the registry's to filter): with public access
// enabled and default action Deny, every public address the nodes may
// leave through must be inside its IP rules, else the registry refuses
// them (ENDPOINT_PUBLIC_IP_NOT_ALLOWED). Addresses that cannot be known
// leave it unverified — from a failed read (evidence), or by nature
// (EGRESS_UNVERIFIED), unless the path says so already.
func (r *run) registryIPRules(pc *poolCtx, h model.PullHost, eg egressResult) []model.Finding {
	reg := r.f.Registry
	if reg == nil || !reg.IPRulesApply() || h.Kind == model.HostBlob || eg.reported {
		return nil
	}
	what := "the public addresses " + h.Name + " sees from the nodes, which registry " + reg.Name + "'s IP rules must admit"
	if eg.instances != nil && len(eg.sources) == 0 {
		return r.instanceIPRules(pc, h, eg, what)
	}
	addrs, unknown, evidence := r.egressAddresses(pc, h, eg, what)
	if len(evidence) > 0 {
		return evidence
	}
	// The registry's public endpoints are IPv4 unless it enables dual-stack
	// endpoints, so an IPv6 way out never carries a pull to them; its IP
	// rules take IPv4 ranges only, so whether a dual-stack registry admits
	// an IPv6 client under default action Deny is not documented.
	var v4 []egressAddr
	var v6 []string
	for _, a := range addrs {
		if a.prefix.Addr().Unmap().Is4() {
			v4 = append(v4, a)
		} else {
			v6 = append(v6, prefixWord(a.prefix))
		}
	}
	if len(v6) > 0 && unknown == "" {
		switch {
		case reg.DualStackEndpoints():
			unknown = fmt.Sprintf("registry %s enables dual-stack endpoints (endpointProtocol IPv4AndIPv6) and the nodes may leave over IPv6 from %s, which IP rules (IPv4 ranges only) cannot name", reg.Name, strings.Join(v6, ", "))
		case len(v4) == 0:
			unknown = fmt.Sprintf("the nodes leave only through IPv6 addresses (%s), and registry %s's endpoints are IPv4 only", strings.Join(v6, ", "), reg.Name)
		}
	}
	addrs = v4
	if len(addrs) == 0 && unknown == "" {
		unknown = "no public address of it is known"
	}
	if unknown != "" {
		return r.egressUnverified(pc, h, reg.ID,
			fmt.Sprintf("registry %s admits public clients only from %s (network rule set default action Deny), and the nodes leave through %s, whose public address is not known: %s. Whether the registry admits them is unverified.",
				reg.Name, rangeWords(reg.IPRules), eg.via, unknown),
			fmt.Sprintf("Give the nodes a way out with fixed public addresses (a NAT gateway with a public IP or prefix on the node subnet, or the cluster load balancer's outbound IPs) and add them to registry %s's IP rules; or reach %s over a private endpoint.", reg.Name, h.Name)).findings
	}
	var refused []egressAddr
	for _, a := range addrs {
		if !coveredBy(a.prefix, reg.IPRules) {
			refused = append(refused, a)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%s reaches the %s %s at its public address through %s, leaving from %s. Registry %s admits public clients only from %s (network rule set default action Deny), which does not include %s, so the registry refuses the connection (403, \"client with IP ... is not allowed access\")",
		pc.label, h.Kind, h.Name, eg.via, egressAddrWords(addrs), reg.Name, rangeWords(reg.IPRules), rangeWords(prefixesOf(refused)))
	if len(refused) < len(addrs) {
		if eg.instances != nil {
			msg += "; each node leaves through its own address, so pulls fail on the nodes that hold a refused one"
		} else {
			msg += "; the nodes use each of these addresses, so pulls fail whenever a refused one is picked"
		}
	}
	msg += ", and " + consequence(h) + "."
	var add []string
	for _, a := range refused {
		add = append(add, "`az acr network-rule add --name "+reg.Name+" --ip-address "+prefixWord(a.prefix)+"`")
	}
	fix := fmt.Sprintf("Add %s to registry %s's IP rules (%s), or reach %s over a private endpoint. Credentials and imagePullSecrets are irrelevant: the registry refuses the address before any credential is checked.",
		rangeWords(prefixesOf(refused)), reg.Name, strings.Join(add, "; "), h.Name)
	if eg.instances != nil {
		fix += fmt.Sprintf(" A node pool %s creates later (scale-out, upgrade, reimage) gets a new public IP of its own, which the rules must admit too: a pool created with a public IP prefix (nodePublicIPPrefixID) takes its nodes' addresses from a range the rules can list once.", eg.instances.Name)
	}
	return []model.Finding{model.NewFinding(model.EndpointPublicIPNotAllowed, pc.pool.Name, h.Name, reg.ID, msg, fix)}
}

// egressAddr is one public range a flow may leave through.
type egressAddr struct {
	prefix netip.Prefix
	label  string
}

// egressAddresses resolves the sources of an egress into public ranges:
// NAT gateways into their public IPs and prefixes, those into addresses.
// unknown says why some cannot be known by nature; evidence holds a
// finding per resource that could not be read.
func (r *run) egressAddresses(pc *poolCtx, h model.PullHost, eg egressResult, what string) (addrs []egressAddr, unknown string, evidence []model.Finding) {
	if eg.unknown != "" {
		return nil, eg.unknown, nil
	}
	n := r.f.Network
	var add func(src egressSource, depth int)
	add = func(src egressSource, depth int) {
		if src.addr.IsValid() {
			addrs = append(addrs, egressAddr{prefix: src.addr, label: src.label})
			return
		}
		if isNATGatewayID(src.id) && depth == 0 {
			g := n.NATGateway(src.id)
			if g == nil {
				evidence = append(evidence, r.evidence(pc.pool.Name, h.Name, src.id, "NAT gateway "+src.id.Name()+" ("+what+")"))
				return
			}
			if len(g.PublicIPIDs) == 0 {
				unknown = "NAT gateway " + g.Name + " has no public IP"
			}
			for _, id := range g.PublicIPIDs {
				add(egressSource{label: src.label + " " + kindOfAddress(id), id: id}, depth+1)
			}
			return
		}
		a := n.PublicAddress(src.id)
		if a == nil {
			evidence = append(evidence, r.evidence(pc.pool.Name, h.Name, src.id, kindOfAddress(src.id)+" "+src.id.Name()+" ("+what+")"))
			return
		}
		if !a.Prefix.IsValid() {
			unknown = kindOfAddress(a.ID) + " " + a.Name + " has no address allocated"
			return
		}
		addrs = append(addrs, egressAddr{prefix: a.Prefix, label: src.label + " " + a.Name})
	}
	for _, s := range eg.sources {
		add(s, 0)
	}
	return addrs, unknown, evidence
}

func isNATGatewayID(id model.ResourceID) bool {
	return strings.Contains(strings.ToLower(string(id)), "/providers/microsoft.network/natgateways/")
}

// kindOfAddress says whether id is a public IP address or a prefix.
func kindOfAddress(id model.ResourceID) string {
	if strings.Contains(strings.ToLower(string(id)), "/publicipprefixes/") {
		return "public IP prefix"
	}
	return "public IP"
}

// egressAddrWords lists egress ranges with what each is.
func egressAddrWords(as []egressAddr) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = prefixWord(a.prefix) + " (" + a.label + ")"
	}
	return strings.Join(s, ", ")
}

func prefixesOf(as []egressAddr) []netip.Prefix {
	out := make([]netip.Prefix, len(as))
	for i, a := range as {
		out[i] = a.prefix
	}
	return out
}

// coveredBy reports whether every address of p lies in the union of
// rules: p inside one rule, or both halves of p covered.
func coveredBy(p netip.Prefix, rules []netip.Prefix) bool {
	p = p.Masked()
	overlaps := false
	for _, q := range rules {
		q = q.Masked()
		if q.Addr().BitLen() != p.Addr().BitLen() {
			continue
		}
		if q.Bits() <= p.Bits() && q.Contains(p.Addr()) {
			return true
		}
		overlaps = overlaps || q.Overlaps(p)
	}
	if !overlaps || p.Bits() >= p.Addr().BitLen() {
		return false
	}
	lo := netip.PrefixFrom(p.Addr(), p.Bits()+1)
	hi := netip.PrefixFrom(withBit(p.Addr(), p.Bits()), p.Bits()+1)
	return coveredBy(lo, rules) && coveredBy(hi, rules)
}

// withBit returns a with bit i (0 is the most significant) set.
func withBit(a netip.Addr, i int) netip.Addr {
	b := a.AsSlice()
	b[i/8] |= 1 << (7 - i%8)
	out, _ := netip.AddrFromSlice(b)
	return out
}

// egressStep is a step of the way out: its kind, the resource it names
// (zero when none), and label, the path's hop string.
func egressStep(kind model.HopKind, id model.ResourceID, label string) model.Hop {
	return model.Hop{Kind: kind, Name: id.Name(), ResourceID: id, Label: label}
}
