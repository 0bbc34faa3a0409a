// Package routing reproduces Azure's virtual network routing over the plain
// model: which route a subnet selects for an address (Table), the effective
// routes Azure would program for a subnet, computed from configuration
// (EffectiveRoutes), and the path a packet takes from a node subnet to a
// destination and back (Trace), with the findings that explain a failure.
//
// The rules are those of Azure's "Virtual network traffic routing"
// documentation, cited where they are implemented. The package is pure: no
// I/O, no SDK, no clocks. A fact the model lacks (a resource that could not
// be read, a service tag whose members are unknown) is never guessed; it is
// returned as a model.Gap so that callers report "unverified".
package routing
