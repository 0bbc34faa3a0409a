package model

import "net/netip"

// SecurityGroup is a network security group with its rules (the default
// rules are Azure's and are not stored here; the evaluator adds them).
type SecurityGroup struct {
	ID    ResourceID
	Name  string
	Rules []SecurityRule
}

// SecurityRule is one security rule. Prefix fields keep Azure's words:
// a CIDR, an address, "*", or a service tag such as VirtualNetwork.
type SecurityRule struct {
	Name      string
	Priority  int32
	Direction string // Inbound, Outbound
	Access    string // Allow, Deny
	Protocol  string // Tcp, Udp, Icmp, Esp, Ah, *
	// SourcePrefixes and DestinationPrefixes merge the singular and plural
	// ARM fields.
	SourcePrefixes      []string
	DestinationPrefixes []string
	SourcePorts         []string
	DestinationPorts    []string
	SourceASGIDs        []ResourceID
	DestinationASGIDs   []ResourceID
}

// Flow is one connection the pull path needs, as security rules see it.
type Flow struct {
	Protocol string // Tcp or Udp
	Source   netip.Addr
	Dest     netip.Addr
	Port     uint16
}
