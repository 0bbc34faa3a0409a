package model

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// resourceKind is how people call a resource type: one of them and several.
type resourceKind struct{ one, many string }

// resourceKinds are the words for every Azure Resource Manager type the
// provider reads (and the children its ids name), keyed by the full type in
// lower case. It is the one table that turns a type into words: messages,
// findings and diagnostics name a resource through Label, never through
// the type's spelling in the id ("ManagedClusters aks1"). A test holds it
// to gather's permission table, so a new read needs its words here.
var resourceKinds = map[string]resourceKind{
	"microsoft.containerservice/managedclusters":                                                                     {"AKS cluster", "AKS clusters"},
	"microsoft.containerservice/managedclusters/agentpools":                                                          {"node pool", "node pools"},
	"microsoft.containerregistry/registries":                                                                         {"container registry", "container registries"},
	"microsoft.containerregistry/registries/replications":                                                            {"registry replica", "registry replicas"},
	"microsoft.containerregistry/registries/privateendpointconnections":                                              {"private endpoint connection", "private endpoint connections"},
	"microsoft.compute/virtualmachinescalesets":                                                                      {"virtual machine scale set", "virtual machine scale sets"},
	"microsoft.compute/virtualmachinescalesets/virtualmachines":                                                      {"scale set instance", "scale set instances"},
	"microsoft.compute/virtualmachinescalesets/networkinterfaces":                                                    {"network interface", "network interfaces"},
	"microsoft.compute/virtualmachinescalesets/virtualmachines/networkinterfaces":                                    {"network interface", "network interfaces"},
	"microsoft.compute/virtualmachinescalesets/publicipaddresses":                                                    {"instance-level public IP", "instance-level public IPs"},
	"microsoft.compute/virtualmachinescalesets/virtualmachines/networkinterfaces/ipconfigurations/publicipaddresses": {"instance-level public IP", "instance-level public IPs"},
	"microsoft.compute/virtualmachines":                                                                              {"virtual machine", "virtual machines"},
	"microsoft.network/virtualnetworks":                                                                              {"virtual network", "virtual networks"},
	"microsoft.network/virtualnetworks/subnets":                                                                      {"subnet", "subnets"},
	"microsoft.network/virtualnetworks/virtualnetworkpeerings":                                                       {"peering", "peerings"},
	"microsoft.network/routetables":                                                                                  {"route table", "route tables"},
	"microsoft.network/routetables/routes":                                                                           {"route", "routes"},
	"microsoft.network/networksecuritygroups":                                                                        {"network security group", "network security groups"},
	"microsoft.network/networkinterfaces":                                                                            {"network interface", "network interfaces"},
	"microsoft.network/networkinterfaces/ipconfigurations":                                                           {"IP configuration", "IP configurations"},
	"microsoft.network/loadbalancers":                                                                                {"load balancer", "load balancers"},
	"microsoft.network/loadbalancers/frontendipconfigurations":                                                       {"load balancer frontend", "load balancer frontends"},
	"microsoft.network/virtualnetworkgateways":                                                                       {"virtual network gateway", "virtual network gateways"},
	"microsoft.network/connections":                                                                                  {"gateway connection", "gateway connections"},
	"microsoft.network/localnetworkgateways":                                                                         {"local network gateway", "local network gateways"},
	"microsoft.network/virtualhubs":                                                                                  {"virtual hub", "virtual hubs"},
	"microsoft.network/virtualhubs/bgpconnections":                                                                   {"BGP peer", "BGP peers"},
	"microsoft.network/virtualhubs/hubvirtualnetworkconnections":                                                     {"hub connection", "hub connections"},
	"microsoft.network/virtualhubs/hubroutetables":                                                                   {"hub route table", "hub route tables"},
	"microsoft.network/virtualhubs/routingintent":                                                                    {"routing intent", "routing intents"},
	"microsoft.network/privateendpoints":                                                                             {"private endpoint", "private endpoints"},
	"microsoft.network/privateendpoints/privatednszonegroups":                                                        {"private DNS zone group", "private DNS zone groups"},
	"microsoft.network/privateendpoints/privatelinkserviceconnections":                                               {"private link connection", "private link connections"},
	"microsoft.network/privatednszones":                                                                              {"private DNS zone", "private DNS zones"},
	"microsoft.network/privatednszones/virtualnetworklinks":                                                          {"virtual network link", "virtual network links"},
	"microsoft.network/privatednszones/all":                                                                          {"record set", "record sets"},
	"microsoft.network/privatednszones/a":                                                                            {"A record", "A records"},
	"microsoft.network/privatednszones/aaaa":                                                                         {"AAAA record", "AAAA records"},
	"microsoft.network/privatednszones/cname":                                                                        {"CNAME record", "CNAME records"},
	"microsoft.network/privatednszones/soa":                                                                          {"SOA record", "SOA records"},
	"microsoft.network/dnsresolvers":                                                                                 {"DNS private resolver", "DNS private resolvers"},
	"microsoft.network/dnsresolvers/inboundendpoints":                                                                {"resolver inbound endpoint", "resolver inbound endpoints"},
	"microsoft.network/dnsresolvers/outboundendpoints":                                                               {"resolver outbound endpoint", "resolver outbound endpoints"},
	"microsoft.network/dnsforwardingrulesets":                                                                        {"DNS forwarding ruleset", "DNS forwarding rulesets"},
	"microsoft.network/dnsforwardingrulesets/forwardingrules":                                                        {"forwarding rule", "forwarding rules"},
	"microsoft.network/dnsforwardingrulesets/virtualnetworklinks":                                                    {"ruleset virtual network link", "ruleset virtual network links"},
	"microsoft.network/dnsresolverpolicies":                                                                          {"DNS security policy", "DNS security policies"},
	"microsoft.network/dnsresolverpolicies/dnssecurityrules":                                                         {"DNS traffic rule", "DNS traffic rules"},
	"microsoft.network/dnsresolverpolicies/virtualnetworklinks":                                                      {"DNS security policy virtual network link", "DNS security policy virtual network links"},
	"microsoft.network/dnsresolverdomainlists":                                                                       {"DNS domain list", "DNS domain lists"},
	"microsoft.network/natgateways":                                                                                  {"NAT gateway", "NAT gateways"},
	"microsoft.network/publicipaddresses":                                                                            {"public IP address", "public IP addresses"},
	"microsoft.network/publicipprefixes":                                                                             {"public IP prefix", "public IP prefixes"},
	"microsoft.network/azurefirewalls":                                                                               {"Azure Firewall", "Azure Firewalls"},
	"microsoft.network/firewallpolicies":                                                                             {"firewall policy", "firewall policies"},
	"microsoft.network/firewallpolicies/rulecollectiongroups":                                                        {"rule collection group", "rule collection groups"},
	"microsoft.network/ipgroups":                                                                                     {"IP group", "IP groups"},
	"microsoft.authorization/roleassignments":                                                                        {"role assignment", "role assignments"},
	"microsoft.authorization/roledefinitions":                                                                        {"role definition", "role definitions"},
	"microsoft.resourcegraph/resources":                                                                              {"Azure Resource Graph query", "Azure Resource Graph queries"},
}

// KindOf is the resource type of id in words ("AKS cluster"), and whether
// the type is one the provider knows. For an unknown type it is the type's
// last segment as the id spells it.
func KindOf(id ResourceID) (string, bool) {
	full, _, ok := typeOf(id)
	if !ok {
		return "", false
	}
	if k, known := resourceKinds[strings.ToLower(full)]; known {
		return k.one, true
	}
	return full[strings.LastIndexByte(full, '/')+1:], false
}

// Label names the resource (or the read) an id stands for in the words
// users know, the one way the provider renders a resource for people:
//
//   - a resource: its kind and name, "AKS cluster aks1", "container
//     registry contosoreg", "private DNS zone privatelink.azurecr.io"; a
//     subnet with its virtual network, "subnet vnet-spoke/snet-aks"; a node
//     pool with its cluster, "node pool system of AKS cluster aks1";
//   - a listing: "the virtual networks of resource group rg", "the node
//     pools of AKS cluster aks1", "the role assignments at container
//     registry contosoreg";
//   - a read-only action: "the effective routes of network interface nic-1";
//   - the service tags of a location: "the service tags of westeurope".
//
// A type the table does not know keeps the id's spelling of it; the empty
// id is "an unnamed resource".
func (id ResourceID) Label() string {
	if string(id) == "" {
		return "an unnamed resource"
	}
	p, ok := ids.ReadPath(string(id))
	if !ok {
		return string(id)
	}
	full, names, types := p.Type(), p.Names, p.Types
	if last := p.Trailing(); last != "" {
		// A listing (…/virtualNetworks) or an action (…/nic/effectiveRouteTable).
		if n := len(types); n >= 2 && strings.EqualFold(last, "serviceTags") && strings.EqualFold(types[n-2], "locations") {
			return "the service tags of " + names[n-2]
		}
		if len(names) == 0 {
			return listingAt(full, p.Scope)
		}
		trimmed := strings.Trim(string(id), "/")
		parent := ResourceID("/" + trimmed[:strings.LastIndexByte(trimmed, '/')])
		of := parent.Label()
		if hub := hubWords(full, names); hub != "" && len(names) == 1 {
			of = hub
		}
		if words, isAction := readActionWords[strings.ToLower(last)]; isAction {
			return words + " of " + of
		}
		return "the " + kindWords(full).many + " of " + of
	}
	name := names[len(names)-1]
	k := kindWords(full)
	if hub := hubWords(full, names); hub != "" {
		return hub
	}
	switch strings.ToLower(full) {
	case "microsoft.network/virtualnetworks/subnets":
		return k.one + " " + names[0] + "/" + name
	case "microsoft.containerservice/managedclusters/agentpools":
		return k.one + " " + name + " of " + kindWords(full[:strings.LastIndexByte(full, '/')]).one + " " + names[0]
	}
	return k.one + " " + name
}

// hubWords names a virtualHubs resource by what its child says it is. The
// type serves two services: a Virtual WAN hub (a hub with a virtualWan:
// connections, hub route tables, routing intent, effective routes) and an
// Azure Route Server (BGP connections to appliances). A hub's own id does
// not say which, so it is "virtual hub <name>"; below it, "hub connection
// c of Virtual WAN hub h", "BGP peer p of Route Server rs", "the hub route
// tables of Virtual WAN hub h". It returns "" for every other type.
func hubWords(full string, names []string) string {
	types := strings.Split(strings.ToLower(full), "/")
	if len(types) < 3 || types[0] != "microsoft.network" || types[1] != "virtualhubs" || len(names) == 0 {
		return ""
	}
	hub := names[0]
	var of string
	switch types[2] {
	case "hubvirtualnetworkconnections", "hubroutetables", "routingintent", "effectiveroutes":
		of = "Virtual WAN hub " + hub
	case "bgpconnections":
		of = "Route Server " + hub
	default:
		return ""
	}
	if len(names) == 1 {
		return of // a listing or an action: the caller words it
	}
	if len(types) == 3 && len(names) == 2 {
		return kindWords(strings.Join(types, "/")).one + " " + names[1] + " of " + of
	}
	return ""
}

// listingAt names a listing of a top-level type at its scope: "the virtual
// networks of resource group rg", "the role assignments at container
// registry contosoreg", "the private DNS zones of subscription s", "an
// Azure Resource Graph query".
func listingAt(full, scope string) string {
	k := kindWords(full)
	if scope == "" {
		return "an " + k.one
	}
	if _, resource := ids.ReadPath(scope); resource {
		return "the " + k.many + " at " + ResourceID(scope).Label()
	}
	sub, rg := ids.Leading(scope)
	if rg != "" {
		return "the " + k.many + " of resource group " + rg
	}
	return "the " + k.many + " of subscription " + sub
}

// kindWords are the words of a full type, or its last segment when the
// table does not know it.
func kindWords(full string) resourceKind {
	if k, ok := resourceKinds[strings.ToLower(full)]; ok {
		return k
	}
	last := full[strings.LastIndexByte(full, '/')+1:]
	return resourceKind{one: last, many: last}
}

// typeOf splits id into its full type (namespace and types, as spelled in
// the id, e.g. Microsoft.Network/virtualNetworks/subnets) and the names of
// its resources, from the last "providers" segment on (an extension
// resource such as a role assignment at a registry is typed by its own
// namespace). A listing or an action has one type more than names. False
// for an id without a provider.
func typeOf(id ResourceID) (full string, names []string, ok bool) {
	p, ok := ids.ReadPath(string(id))
	if !ok {
		return "", nil, false
	}
	return p.Type(), p.Names, true
}
