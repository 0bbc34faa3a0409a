package model

import "strings"

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

// The operations a pull needs. Registries in legacy (RBAC registry) mode
// honor the control-plane action; registries in ABAC repository-permissions
// mode honor only the repository data action, so AcrPull, AcrPush and the
// privileged Owner, Contributor and Reader roles no longer let anyone pull
// there (ACR "ABAC repository permissions": effects on existing role
// assignments).
const (
	ActionRegistryPull       = "Microsoft.ContainerRegistry/registries/pull/read"
	DataActionRepositoryRead = "Microsoft.ContainerRegistry/registries/repositories/content/read"
	RoleContributor          = "b24988ac-6180-42a0-ab88-20f7382dd24c"
	RoleOwner                = "8e3af657-a8ff-443c-a75c-2fe8c4bcb635"
	RoleReader               = "acdd72a7-3385-48ef-bd42-f606fba81ae7"
	RoleAcrPush              = "8311e382-0749-4cb8-b61a-304f252e45ec"
)

// BuiltinRoles are the built-in roles whose ids and pull-relevant
// permissions are certain, keyed by role definition GUID, used when a
// definition is not among the facts.
// Any other role (Container Registry Repository Writer/Contributor, custom
// roles) is judged by its definition, or is unverified.
var BuiltinRoles = map[string]RoleDefinition{
	RoleAcrPull: {RoleName: "AcrPull", Permissions: []RolePermission{{Actions: []string{ActionRegistryPull}}}},
	RoleAcrPush: {RoleName: "AcrPush", Permissions: []RolePermission{{Actions: []string{ActionRegistryPull, "Microsoft.ContainerRegistry/registries/push/write"}}}},
	RoleOwner:   {RoleName: "Owner", Permissions: []RolePermission{{Actions: []string{"*"}}}},
	RoleContributor: {RoleName: "Contributor", Permissions: []RolePermission{{Actions: []string{"*"},
		NotActions: []string{"Microsoft.Authorization/*/Delete", "Microsoft.Authorization/*/Write", "Microsoft.Authorization/elevateAccess/Action"}}}},
	RoleReader: {RoleName: "Reader", Permissions: []RolePermission{{Actions: []string{"*/read"}}}},
	RoleAcrRepositoryReader: {RoleName: "Container Registry Repository Reader", Permissions: []RolePermission{{
		DataActions: []string{DataActionRepositoryRead, "Microsoft.ContainerRegistry/registries/repositories/metadata/read"}}}},
}

// KnownRole reports whether verification judges the role definition id
// (…/roleDefinitions/{guid}, or the bare GUID) by its well-known built-in
// permissions (BuiltinRoles), so that gather need not read its definition.
func KnownRole(roleDefinitionID ResourceID) bool {
	_, ok := BuiltinRoles[strings.ToLower(roleDefinitionID.Name())]
	return ok
}
