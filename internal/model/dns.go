package model

import (
	"net/netip"
	"strings"
)

// AzureDNS is the virtual public IP of Azure-provided DNS, which answers
// from the private DNS zones linked to the asking VNet.
var AzureDNS = netip.MustParseAddr("168.63.129.16")

// DNS is what decides name resolution for nodes: private DNS zones with their
// links and records, DNS private resolvers and forwarding rulesets.
type DNS struct {
	Zones     map[string]*PrivateZone // by id key
	Resolvers map[string]*Resolver    // by id key
	Rulesets  map[string]*Ruleset     // by id key
	// Policies are the DNS security policies linked to each VNet whose
	// Azure DNS answers the nodes, by VNet key; a VNet whose list could
	// not be read has no entry (its gap is under DNSPoliciesAction). A nil
	// map (a DNS view built by hand, not by gather) applies no policy.
	Policies map[string]*VNetDNSPolicies
	// DomainLists are the DNS domain lists the policies' rules name, by id
	// key; a list that could not be read has no entry (its gap is under
	// its id).
	DomainLists map[string]*DNSDomainList
	// ZoneSearchComplete is false when some subscription's zone list could
	// not be read: a missing zone is then unknown, not absent.
	ZoneSearchComplete bool
	// LinkSearch says where private DNS zones linked to the VNets whose
	// Azure DNS answers the nodes were looked for.
	LinkSearch ZoneLinkSearch
	// ResolverSearchGaps are the DNS server addresses in no VNet read
	// whose Azure Resource Graph search for DNS private resolver inbound
	// endpoints failed: what they are is unknown, never "outside Azure".
	ResolverSearchGaps map[netip.Addr]Gap
	Gaps               Gaps
}

// AddResolverSearchGap records that the resolver search for addr failed.
func (d *DNS) AddResolverSearchGap(addr netip.Addr, g Gap) {
	if d.ResolverSearchGaps == nil {
		d.ResolverSearchGaps = map[netip.Addr]Gap{}
	}
	d.ResolverSearchGaps[addr] = g
}

// ZoneLinkSearch is how the zones linked to the resolving VNets were found.
// A private DNS zone in any subscription can be linked to a VNet, and only
// the zone's side shows the link: a zone that was not found is "not
// linked" only when the search covered every subscription.
type ZoneLinkSearch struct {
	// Everywhere holds the VNets (id keys) for which an Azure Resource
	// Graph query returned the zone links in every subscription the
	// identity can read.
	Everywhere map[string]bool
	// Query is the Resource Graph request when one was sent; when it
	// failed, its gap (among Gaps) has this id.
	Query ResourceID
	// Declared is true when the configuration named the subscriptions that
	// hold the zones (zone_subscription_ids) instead of a Resource
	// Graph search.
	Declared bool
	// Subscriptions are the subscriptions whose zone lists were searched.
	Subscriptions []string
	// Unread are zones Resource Graph found linked that could not be read
	// (their gaps are among Gaps): what they answer is unknown.
	Unread []ResourceID
}

// CoveredEverywhere reports whether every subscription was searched for
// zones linked to vnetID.
func (s ZoneLinkSearch) CoveredEverywhere(vnetID ResourceID) bool {
	return s.Everywhere[vnetID.Key()]
}

// NewDNS returns an empty DNS view.
func NewDNS() *DNS {
	return &DNS{Zones: map[string]*PrivateZone{}, Resolvers: map[string]*Resolver{}, Rulesets: map[string]*Ruleset{},
		DomainLists: map[string]*DNSDomainList{}, ZoneSearchComplete: true, Gaps: Gaps{}}
}

// PrivateZone is a private DNS zone.
type PrivateZone struct {
	ID    ResourceID
	Name  string // e.g. privatelink.azurecr.io
	Links []ZoneLink
	// Records by relative name (lower case), e.g. "contosoreg.westeurope.data";
	// RecordsKnown is false when the record sets could not be read.
	Records      map[string]*RecordSet
	RecordsKnown bool
	// LinksKnown is false when the virtual network links could not be read.
	LinksKnown bool
}

// ZoneLink is a private DNS zone's virtual network link.
type ZoneLink struct {
	ID                  ResourceID
	Name                string
	VNetID              ResourceID
	State               string // virtualNetworkLinkState: Completed, InProgress
	RegistrationEnabled bool
	// ResolutionPolicy is Default or NxDomainRedirect.
	ResolutionPolicy string
	// Unmodelled are its settings that can change a pull and are not
	// evaluated (gather's open-world table).
	Unmodelled []UnmodelledSetting
}

// RecordSet is a record set of a private zone.
type RecordSet struct {
	Name  string
	Type  string // A, AAAA, CNAME
	Addrs []netip.Addr
	CNAME string
}

// Resolver is a DNS private resolver with its inbound endpoints.
type Resolver struct {
	ID       ResourceID
	Name     string
	VNetID   ResourceID
	Inbound  []ResolverEndpoint
	Outbound []ResourceID
	// Unmodelled are its settings that can change a pull and are not
	// evaluated (gather's open-world table).
	Unmodelled []UnmodelledSetting
}

// ResolverEndpoint is an inbound endpoint: an address nodes can use as DNS server.
type ResolverEndpoint struct {
	ID       ResourceID
	Name     string
	SubnetID ResourceID
	Address  netip.Addr
}

// Ruleset is a DNS forwarding ruleset and the VNets linked to it.
type Ruleset struct {
	ID          ResourceID
	Name        string
	LinkedVNets []ResourceID
	Rules       []ForwardingRule
}

// ForwardingRule sends a domain to target DNS servers.
type ForwardingRule struct {
	Name string
	// DomainName is as Azure stores it, with a trailing dot; "." is the
	// wildcard rule, which covers every name.
	DomainName string
	Targets    []netip.AddrPort
	Enabled    bool
}

// Domain is the rule's domain as DNS compares names (lower case, no
// trailing dot), or "." for the wildcard rule; "" when the rule names no
// domain at all (it then covers nothing).
func (r ForwardingRule) Domain() string {
	d := strings.ToLower(strings.TrimSpace(r.DomainName))
	if d == "." {
		return "."
	}
	return strings.TrimSuffix(d, ".")
}

// Covers reports whether the rule applies to name: name is the rule's
// domain or below it. The wildcard rule "." covers every name (a ruleset
// with only that rule sends every query to its targets).
func (r ForwardingRule) Covers(name string) bool {
	d := r.Domain()
	switch d {
	case "":
		return false
	case ".":
		return true
	}
	name = NormalizeHost(name)
	return name == d || strings.HasSuffix(name, "."+d)
}

// Specificity orders the rules that cover a name: Azure uses the one
// with the longest matching domain, the number of its labels; the wildcard
// rule "." has none and is the least specific.
func (r ForwardingRule) Specificity() int {
	d := r.Domain()
	if d == "" || d == "." {
		return 0
	}
	return strings.Count(d, ".") + 1
}
