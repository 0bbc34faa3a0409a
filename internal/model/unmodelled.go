// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// UnmodelledSetting is a setting of a resource the provider read that can
// change whether a pull works and that the provider does not evaluate
// (gather's open-world table, docs/design/open-world.md), present with a
// value other than its default: every path through the resource is then
// COVERAGE_FEATURE_UNMODELLED, unverified and never reachable.
type UnmodelledSetting struct {
	// Resource is the resource that carries it.
	Resource ResourceID
	// Property is its path in the resource's JSON
	// ("properties.localDNSProfile").
	Property string
	// Value is its value, in words or JSON.
	Value string
	// Why says what it can change about a pull.
	Why string
}
