// Package model is the network as the provider sees it: plain Go values built
// from Azure Resource Manager answers (or a snapshot of them), with no SDK
// types, so that routing and verification can be pure functions over it and be
// table-tested without any I/O.
//
// Addresses and prefixes are net/netip values; resource ids are kept in
// ResourceID, which compares case-insensitively the way ARM does.
package model
