package model

import "net/netip"

// Cluster is an AKS cluster as far as its nodes' image pulls go.
type Cluster struct {
	ID                ResourceID
	Name              string
	Location          string
	NodeResourceGroup string
	// Kubelet is identityProfile.kubeletidentity: the identity nodes pull with.
	Kubelet Identity
	Pools   []*NodePool
	// Outbound is networkProfile's outbound configuration: how nodes reach
	// public addresses.
	Outbound Outbound
	// CustomCATrustCertificates is how many certificates
	// securityProfile.customCATrustCertificates gives the nodes' trust
	// store (their content is not kept): the CAs a TLS-inspecting firewall
	// on the path may be among (firewall_tls.go).
	CustomCATrustCertificates int
	// HTTPProxy is httpProxyConfig: the proxy containerd sends pulls to,
	// for hostnames its noProxy does not match. Nil when none is set.
	HTTPProxy *HTTPProxy
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// Identity is a managed identity.
type Identity struct {
	ResourceID ResourceID
	ClientID   string
	ObjectID   string
}

// NodePool is one agent pool and what its nodes use.
type NodePool struct {
	Name   string
	Mode   string // System, User
	OSType string // Linux, Windows
	// Type is VirtualMachineScaleSets or VirtualMachines.
	Type  string
	Count int32
	// SubnetID is vnetSubnetID, or the AKS-managed VNet's subnet when empty.
	SubnetID ResourceID
	// ScaleSetID is the scale set found by its aks-managed-poolName tag.
	ScaleSetID ResourceID
	// NICIDs are the instance NICs (none for a pool at zero nodes).
	NICIDs []ResourceID
	// NICs are those NICs as read (addresses, NIC-level DNS servers), in
	// the order of NICIDs.
	NICs []*NIC
	// NICsKnown is false when the pool's NICs (or, for VirtualMachines
	// pools, its VMs) could not be listed: an empty NICIDs then does not
	// mean zero nodes.
	NICsKnown bool
	// VMIDs are the virtual machines of a pool of type VirtualMachines.
	VMIDs []ResourceID
	// DNSServers and NSGID are the scale set's NIC configuration: what every
	// new instance gets, including the first one of a pool at zero nodes
	// (empty DNSServers means the VNet's).
	DNSServers []netip.Addr
	NSGID      ResourceID
	// NodePublicIP is enableNodePublicIP: every node has a public IP of its
	// own, which its flows to public addresses leave through (unless the
	// subnet has a NAT gateway). NodePublicIPPrefixID is the public IP
	// prefix those addresses come from, when the pool names one.
	NodePublicIP         bool
	NodePublicIPPrefixID ResourceID
	// InstancePublicIPs are the instance-level public IPs the pool's
	// scale-set instances hold now (read only for a pool with NodePublicIP
	// and no NodePublicIPPrefixID, when the registry admits listed ranges
	// only), one per instance NIC IP configuration, each id naming its
	// instance (…/virtualMachineScaleSets/{v}/virtualMachines/{i}/…).
	// InstancePublicIPsList is the list they were read from
	// (…/virtualMachineScaleSets/{v}/publicipaddresses), zero when it was
	// not read; InstancePublicIPsRead says it was read whole.
	InstancePublicIPs     []*PublicAddress
	InstancePublicIPsList ResourceID
	InstancePublicIPsRead bool
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
}

// RoleAssignment is an Azure RBAC role assignment.
type RoleAssignment struct {
	ID               ResourceID
	Scope            ResourceID
	RoleDefinitionID ResourceID
	PrincipalID      string
	// PrincipalType is ServicePrincipal, User, Group, ….
	PrincipalType string
	// Condition is the ABAC condition of the assignment, if any (registries
	// in ABAC mode scope repository roles with it).
	Condition string
}

// Well-known role definition ids (the last segment of roleDefinitionId).
const (
	RoleAcrPull = "7f951dda-4ed3-4680-a7ca-43fe172d538d"
	// RoleAcrRepositoryReader is "Container Registry Repository Reader",
	// the pull role of registries in ABAC repository-permissions mode.
	RoleAcrRepositoryReader = "b93aa761-3e63-49ed-ac28-beffa264f7ac"
)
