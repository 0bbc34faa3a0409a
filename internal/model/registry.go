package model

// Registry is a container registry as far as pulling from it goes.
type Registry struct {
	ID       ResourceID
	Name     string
	Location string
	SKU      string
	// LoginServer is properties.loginServer, e.g. contosoreg.azurecr.io.
	LoginServer string
	// DataEndpointEnabled and DataEndpointHosts are the dedicated data
	// endpoints, one per region of the registry and its replicas.
	DataEndpointEnabled bool
	DataEndpointHosts   []string
	// RegionalEndpointHosts are the <reg>.<region>.geo.azurecr.io names,
	// only when the registry enables regional endpoints (regionalEndpoints
	// Enabled; they are opt-in). Names ARM lists while the setting is
	// Disabled are not here: no pull uses them.
	RegionalEndpointHosts []string
	Replicas              []Replica
	// ReplicasKnown is false when the replications could not be listed.
	ReplicasKnown bool
	// PublicNetworkAccess is Enabled or Disabled; NetworkDefaultAction is the
	// network rule set's default action (Allow, Deny).
	PublicNetworkAccess  string
	NetworkDefaultAction string
	// PrivateEndpointConnections as the registry sees them.
	PrivateEndpointConnections []RegistryPEConnection
	// RoleAssignmentMode is LegacyRegistryPermissions or
	// AbacRepositoryPermissions.
	RoleAssignmentMode string
	// AnonymousPullEnabled lets any client pull without a role.
	AnonymousPullEnabled bool
}

// Replica is a geo-replication of the registry.
type Replica struct {
	ID                    ResourceID
	Location              string
	RegionEndpointEnabled bool
}

// RegistryPEConnection is a private endpoint connection on the registry.
type RegistryPEConnection struct {
	ID                ResourceID
	PrivateEndpointID ResourceID
	Status            string
}

// PublicAccessDenied reports whether nodes resolving a public address would be refused.
func (r *Registry) PublicAccessDenied() bool {
	return r.PublicNetworkAccess == "Disabled" || r.NetworkDefaultAction == "Deny"
}

// ABAC reports whether the registry uses ABAC repository permissions.
func (r *Registry) ABAC() bool { return r.RoleAssignmentMode == "AbacRepositoryPermissions" }
