// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package firewall decides what an Azure Firewall does with one flow from
// the node addresses to a registry hostname on TCP 443: allowed, denied
// (naming the rule that denies, or the default deny), or unverified (naming
// the rule, policy or IP group it could not decide or read). It is pure: it
// reads model types only, never performs I/O, and never guesses.
//
// It processes rules as Azure does (docs/design/azure-behaviour.md, "Azure
// Firewall"; Microsoft Learn "Azure Firewall rule processing logic" and
// "Azure Firewall Policy rule hierarchy"):
//
//   - network rules before application rules, and within each kind the
//     parent policy's (basePolicy, root first) before the child's;
//   - within a policy, rule collection groups by priority, collections by
//     priority, rules in order; classic rule collections by priority;
//   - rules are terminating (first match wins) and a firewall denies what
//     no rule allows.
//
// Matching is three-valued: a rule matches, does not match, or cannot be
// decided from what Resource Manager shows (an address-only rule against a
// public address ARM does not know, a web category, a service tag other
// than the host's, an IP group that could not be read). An undecided rule
// only matters when a rule with the other action decides the flow after
// it; the decision is then unverified, never allowed.
//
// Source addresses are sets: the whole node subnet must be covered. A rule
// that covers part of it decides for that part only, and the flow is
// allowed only when every node address is.
package firewall
