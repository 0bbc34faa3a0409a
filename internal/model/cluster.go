package model

// Cluster is an AKS cluster as far as its nodes' image pulls go.
type Cluster struct {
	ID                ResourceID
	Name              string
	Location          string
	NodeResourceGroup string
	// Kubelet is identityProfile.kubeletidentity: the identity nodes pull with.
	Kubelet Identity
	Pools   []*NodePool
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
}

// RoleAssignment is an Azure RBAC role assignment.
type RoleAssignment struct {
	ID               ResourceID
	Scope            ResourceID
	RoleDefinitionID ResourceID
	PrincipalID      string
}

// Well-known role definition ids (the last segment of roleDefinitionId).
const (
	RoleAcrPull = "7f951dda-4ed3-4680-a7ca-43fe172d538d"
	// RoleAcrRepositoryReader is "Container Registry Repository Reader",
	// the pull role of registries in ABAC repository-permissions mode.
	RoleAcrRepositoryReader = "b93aa761-3e63-49ed-ac28-beffa264f7ac"
)
