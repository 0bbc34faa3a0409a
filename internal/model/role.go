package model

// RoleDefinition is an Azure RBAC role definition as far as deciding
// whether it lets a principal pull from a registry goes: its permission
// blocks. Role names are for messages; decisions use the permissions (or,
// when a definition could not be read, the well-known built-in ids).
type RoleDefinition struct {
	ID ResourceID
	// RoleName is properties.roleName, e.g. AcrPull.
	RoleName string
	// Type is BuiltInRole or CustomRole.
	Type        string
	Permissions []RolePermission
}

// RolePermission is one permissions block of a role definition. Entries
// are Azure operation strings with optional * wildcards, e.g.
// Microsoft.ContainerRegistry/registries/pull/read or */read.
type RolePermission struct {
	Actions        []string
	NotActions     []string
	DataActions    []string
	NotDataActions []string
}
