package model

import "net/netip"

// ServiceEndpoint is one of a subnet's virtual network service endpoints.
// Azure adds a VirtualNetworkServiceEndpoint system route for each public
// prefix of the service in the listed regions; like the VNet's own space and
// peerings, that route is never overridden by a BGP route (a UDR can).
type ServiceEndpoint struct {
	// Service is the service name, e.g. Microsoft.Storage.
	Service string
	// Locations are the regions the endpoint covers, e.g. westeurope.
	Locations []string
	// Prefixes are the service's public prefixes in those regions. The
	// subnet's ARM resource does not carry them (they come from the service
	// tag discovery API), so PrefixesKnown is false until a reader resolves
	// them; routing then treats public destinations as unverified.
	Prefixes      []netip.Prefix
	PrefixesKnown bool
}
