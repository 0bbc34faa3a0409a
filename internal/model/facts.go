// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "net/netip"

// Facts is everything verification reads. Gather fills it; nothing in it is
// fetched here. A resource that was referenced but could not be read is
// absent from its map and present in one of the Gaps: verification consults
// the gaps before concluding anything from an absence.
type Facts struct {
	// Cluster is the AKS cluster (name and id for messages, Kubelet for the
	// pull identity). Nil when the nodes were given as subnets
	// (node_subnet_ids): the pull identity is then not checked.
	Cluster *Cluster

	// Pools are the node pools to verify, after the node_pools filter. For
	// node_subnet_ids, one pool per subnet, named after the subnet, with
	// only SubnetID set. Fields used: Name, SubnetID, ScaleSetID, NICIDs,
	// NICs, DNSServers (the scale set's NIC-level dnsSettings.dnsServers,
	// which also decides the first node of a pool at zero nodes).
	Pools []*NodePool

	// Proxy is what holds the address of the cluster's HTTPS proxy
	// (Cluster.HTTPProxy), when gather found it: the proxy's side of a
	// proxied pull is then evaluated from its network interface, which
	// Network holds with its subnet and VNet.
	Proxy *ProxyHost

	// Network holds the VNets (with subnets and peerings), route tables,
	// NICs (node NICs, appliances, DNS VMs, private endpoint NICs), gateways,
	// private endpoints and security groups the paths can touch.
	Network *Network

	// DNS holds the private DNS zones (with links and records), DNS private
	// resolvers (with inbound endpoints) and forwarding rulesets that can
	// answer for the nodes. ZoneSearchComplete false means some
	// subscription's zone list could not be read.
	DNS *DNS

	// Registry is the Azure Container Registry (registry_id), with its
	// replicas, data endpoints, private endpoint connections, network
	// access and role assignment mode. Nil for any other registry.
	Registry *Registry

	// Declared is the `registry` block for a registry that is not an Azure
	// Container Registry. Nil when Registry is set.
	Declared *DeclaredRegistry

	// RoleAssignments are the role assignments that apply at the registry
	// scope as ARM lists them for that scope (the registry itself, its
	// resource group, subscription and management groups above it, and
	// scopes below it); verification filters by principal and scope itself.
	RoleAssignments []RoleAssignment

	// RoleAssignmentsGap is set when the role assignments could not be
	// listed (typically 403 for Microsoft.Authorization/roleAssignments/read):
	// the pull identity is then unverified.
	RoleAssignmentsGap *Gap

	// RoleDefinitions are the definitions of the roles in RoleAssignments,
	// keyed by the definition's GUID (the last segment of roleDefinitionId)
	// in lower case. A role missing here is judged by its well-known
	// built-in id, or else is unverified.
	RoleDefinitions map[string]*RoleDefinition

	// PullCredentials is how the nodes authenticate to the registry; empty
	// means the kubelet identity (PullKubeletIdentity). Only with the
	// kubelet identity are role assignments read and judged.
	PullCredentials PullCredentials

	// Acceptances are the verification's accept blocks, with the day of
	// the plan they are judged on; the zero value accepts nothing. They
	// are applied to the findings before the verdict (verify/accept.go).
	Acceptances Acceptances

	// Cloud names the registry and private link domains of the cloud
	// (public, usgovernment, china). The zero value means: derive them from
	// the login server, falling back to the public cloud.
	Cloud Cloud

	// Gaps are the failed reads of the whole run (gather's Reader.Gaps()).
	// Network.Gaps and DNS.Gaps are consulted too. Gather records a gap only
	// for a read the pull path needed, so every gap ends up in a finding: on
	// the pool and host whose conclusion it undermined, or, when no rule
	// consumed it, once without a pool.
	Gaps Gaps

	// PlanNotApplied are the planned changes (planned_changes_file) that are
	// read as they are now: resources of types the provider does not
	// translate, and changes whose values could not be translated. Set by
	// the what-if layer; empty without a plan.
	PlanNotApplied []PlannedProblem

	// PlanDrift names the node pools whose computed routes cannot be
	// trusted after the planned changes: before the plan their effective
	// routes disagreed with the computed ones (COVERAGE_MODEL_DRIFT), or
	// could not be read (Gap). After the plan their routes are computed (the
	// effective table Azure has describes the network before it), so their
	// paths are unverified. Set by the what-if layer.
	PlanDrift map[string]PlanDrift

	// PlanOffPath is set by the what-if layer when the plan in
	// planned_changes_file changes Azure resources and none of them was met
	// by the reads of this verification, or changes no resource at all (an
	// empty or a refresh-only plan); nil otherwise.
	PlanOffPath *PlanOffPath
}

// PlanOffPath describes a plan none of whose changes the verification met:
// how many resources it changes, in which subscriptions, and which
// subscriptions the verification read.
type PlanOffPath struct {
	// NoChanges is "empty" or "refresh-only" for a plan that changes no
	// resource at all (planned.Mode), "" for a plan whose changes are
	// elsewhere.
	NoChanges         string
	Changes           int
	PlanSubscriptions []string
	ReadSubscriptions []string
}

// DeclaredRegistry is a registry other than Azure Container Registry, as
// the configuration declares it.
type DeclaredRegistry struct {
	// Hosts are every hostname a pull touches: login, auth realm, blob or
	// redirect hosts, in the order given.
	Hosts []string
	// Addresses are the addresses of hosts that no Azure private DNS zone
	// resolves (host → IP), as the configuration declares them.
	Addresses map[string]netip.Addr
}

// RegistryCloud returns the cloud to use: the given one, or the one whose
// registry suffix the login server carries.
func (f *Facts) RegistryCloud() Cloud {
	if f.Cloud.RegistrySuffix != "" {
		c := f.Cloud
		if c.PrivateLinkZone == "" {
			c.PrivateLinkZone = "privatelink." + c.RegistrySuffix
		}
		return c
	}
	if f.Registry != nil {
		return f.Registry.Cloud()
	}
	return PublicCloud
}

// PlannedProblem is a planned change that is not applied to what is read:
// its resource address and why (an unsupported type, or what could not be
// translated).
type PlannedProblem struct {
	Address string
	Reason  string
}

// PlanDrift is why a pool's computed routes are not trusted after the
// planned changes: the drift before the plan, in words, or the failed read
// of its effective route table.
type PlanDrift struct {
	Why string
	Gap *Gap
}
