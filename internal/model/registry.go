package model

import (
	"net/netip"
	"strings"
)

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
	// IPRules are networkRuleSet.ipRules: the public address ranges the
	// registry admits when the default action is Deny.
	IPRules []netip.Prefix
	// EndpointProtocol is properties.endpointProtocol: IPv4 (the default,
	// also when the answer does not say) or IPv4AndIPv6 (dual-stack public
	// endpoints).
	EndpointProtocol string
	// PrivateEndpointConnections as the registry sees them.
	PrivateEndpointConnections []RegistryPEConnection
	// RoleAssignmentMode is LegacyRegistryPermissions or
	// AbacRepositoryPermissions.
	RoleAssignmentMode string
	// AnonymousPullEnabled lets any client pull without a role.
	AnonymousPullEnabled bool
	// Unmodelled are its settings the provider does not evaluate that can
	// change a pull, present with a non-default value (open-world table).
	Unmodelled []UnmodelledSetting
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

// PublicNetworkDisabled reports whether the registry refuses every client
// at a public address (publicNetworkAccess Disabled; its network rule set
// then does not matter).
func (r *Registry) PublicNetworkDisabled() bool {
	return strings.EqualFold(r.PublicNetworkAccess, "Disabled")
}

// IPRulesApply reports whether public clients are admitted only from the
// ranges of IPRules: public network access is enabled and the network rule
// set's default action is Deny. The public addresses the nodes leave
// through then decide.
func (r *Registry) IPRulesApply() bool {
	return !r.PublicNetworkDisabled() && strings.EqualFold(r.NetworkDefaultAction, "Deny")
}

// ABAC reports whether the registry uses ABAC repository permissions.
func (r *Registry) ABAC() bool { return r.RoleAssignmentMode == "AbacRepositoryPermissions" }

// DualStackEndpoints reports whether the registry's public endpoints answer
// over IPv6 too (endpointProtocol IPv4AndIPv6); otherwise they are IPv4
// only, and a client reaches them over IPv4 whatever else it has.
func (r *Registry) DualStackEndpoints() bool {
	return r != nil && strings.EqualFold(strings.TrimSpace(r.EndpointProtocol), "IPv4AndIPv6")
}
