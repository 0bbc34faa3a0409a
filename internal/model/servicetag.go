// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"
)

// ServiceTags is what the Service Tag Discovery API answered for one
// location (GET /subscriptions/{s}/providers/Microsoft.Network/locations/{location}/serviceTags):
// every service tag of the cloud with its address prefixes, global tags
// (Storage, AzureContainerRegistry, AzureCloud) and regional ones
// (Storage.WestEurope, AzureContainerRegistry.WestEurope). The location
// picks the version of the list, not which regions it holds. Names are
// looked up case-insensitively, as Azure compares them in rules and routes.
//
// A tag absent from the list is unknown, never empty: rules that name it
// stay unverified.
type ServiceTags struct {
	// ID is the read itself, the resource that gaps and evidence findings
	// name (ServiceTagsID).
	ID ResourceID
	// Location is the location asked, in NormalizeRegion form.
	Location string
	// Cloud (Public, AzureGovernment, AzureChinaCloud) and ChangeNumber
	// are as Azure answered them, for messages.
	Cloud        string
	ChangeNumber string

	byName   map[string]*ServiceTag // lower-case name
	byRegion map[string]*ServiceTag // lower-case base name + "|" + region
	names    []string               // sorted lower-case names
}

// ServiceTag is one service tag and its prefixes.
type ServiceTag struct {
	// Name as Azure writes it: AzureContainerRegistry.WestEurope.
	Name string
	// Region is properties.region ("westeurope"); empty for a global tag.
	Region string
	// SystemService is properties.systemService (AzureContainerRegistry).
	SystemService string
	// Prefixes are properties.addressPrefixes, IPv4 and IPv6, masked.
	Prefixes []netip.Prefix
}

// ServiceTagsID is the path of the Service Tag Discovery read of a
// location in a subscription: the id gaps of that read carry.
func ServiceTagsID(subscription, location string) ResourceID {
	return ResourceID(fmt.Sprintf("/subscriptions/%s/providers/Microsoft.Network/locations/%s/serviceTags", subscription, NormalizeRegion(location)))
}

// NewServiceTags builds the lookup over tags. Two tags whose names differ
// only in case, or a tag without a name, make the answer ambiguous: an
// error naming the tag, for the reader to report as a malformed answer.
func NewServiceTags(id ResourceID, location, cloud, changeNumber string, tags []ServiceTag) (*ServiceTags, error) {
	out := &ServiceTags{
		ID: id, Location: NormalizeRegion(location), Cloud: cloud, ChangeNumber: changeNumber,
		byName: make(map[string]*ServiceTag, len(tags)), byRegion: map[string]*ServiceTag{},
	}
	for i := range tags {
		t := tags[i]
		t.Name = strings.TrimSpace(t.Name)
		if t.Name == "" {
			return nil, fmt.Errorf("values[%d] has no name", i)
		}
		key := strings.ToLower(t.Name)
		if have, dup := out.byName[key]; dup {
			return nil, fmt.Errorf("service tag %s is listed twice (also as %s)", t.Name, have.Name)
		}
		t.Region = NormalizeRegion(t.Region)
		t.Prefixes = append([]netip.Prefix(nil), t.Prefixes...)
		for j, p := range t.Prefixes {
			t.Prefixes[j] = p.Masked()
		}
		out.byName[key] = &t
		out.names = append(out.names, key)
		if base, _, regional := strings.Cut(key, "."); regional && t.Region != "" {
			out.byRegion[base+"|"+t.Region] = &t
		}
	}
	sort.Strings(out.names)
	return out, nil
}

// Len is the number of tags in the answer (0 for nil).
func (s *ServiceTags) Len() int {
	if s == nil {
		return 0
	}
	return len(s.byName)
}

// Lookup returns the tag with that name, compared case-insensitively
// (AzureContainerRegistry.westeurope finds AzureContainerRegistry.WestEurope).
func (s *ServiceTags) Lookup(name string) (*ServiceTag, bool) {
	if s == nil {
		return nil, false
	}
	t, ok := s.byName[strings.ToLower(strings.TrimSpace(name))]
	return t, ok
}

// Regional returns the regional tag of a service tag in a location:
// <base>.<Region> by name, else the tag whose name starts with <base>. and
// whose properties.region is the location (regional names do not always
// spell the location the way ARM does).
func (s *ServiceTags) Regional(base, location string) (*ServiceTag, bool) {
	if s == nil {
		return nil, false
	}
	region := NormalizeRegion(location)
	if t, ok := s.Lookup(base + "." + region); ok {
		return t, true
	}
	t, ok := s.byRegion[strings.ToLower(strings.TrimSpace(base))+"|"+region]
	return t, ok
}

// Label names the answer in messages: "the service tags read for
// westeurope (change 123)".
func (s *ServiceTags) Label() string {
	if s == nil {
		return "no service tags"
	}
	out := "the service tags read for " + s.Location
	if s.ChangeNumber != "" {
		out += " (change " + s.ChangeNumber + ")"
	}
	return out
}

// ServiceTagsAt returns the service tags read for a location and, when the
// read failed or its answer was malformed, the gap that says why. Both are
// nil when no read was needed (nothing named a service tag).
func (n *Network) ServiceTagsAt(location string) (*ServiceTags, *Gap) {
	if n == nil {
		return nil, nil
	}
	loc := NormalizeRegion(location)
	if t := n.ServiceTags[loc]; t != nil {
		return t, nil
	}
	if g, ok := n.ServiceTagGaps[loc]; ok {
		return nil, &g
	}
	return nil, nil
}

// ServiceTagsOfVNet is ServiceTagsAt for the location of a virtual
// network of the network.
func (n *Network) ServiceTagsOfVNet(id ResourceID) (*ServiceTags, *Gap) {
	if n == nil {
		return nil, nil
	}
	v := n.VNet(id)
	if v == nil {
		return nil, nil
	}
	return n.ServiceTagsAt(v.Location)
}

// SetServiceTags records the answer read for a location.
func (n *Network) SetServiceTags(location string, t *ServiceTags) {
	if n.ServiceTags == nil {
		n.ServiceTags = map[string]*ServiceTags{}
	}
	n.ServiceTags[NormalizeRegion(location)] = t
}

// SetServiceTagGap records why the service tags of a location are missing.
func (n *Network) SetServiceTagGap(location string, g Gap) {
	if n.ServiceTagGaps == nil {
		n.ServiceTagGaps = map[string]Gap{}
	}
	n.ServiceTagGaps[NormalizeRegion(location)] = g
}

// serviceEndpointTags are the service tags whose regional members Azure
// routes to a subnet's service endpoint, by the endpoint's service name
// (Microsoft Learn, "Virtual network service tags": the tags of the
// services that support service endpoints).
var serviceEndpointTags = map[string]string{
	"microsoft.storage":           "Storage",
	"microsoft.storage.global":    "Storage",
	"microsoft.containerregistry": "AzureContainerRegistry",
	"microsoft.sql":               "Sql",
	"microsoft.azurecosmosdb":     "AzureCosmosDB",
	"microsoft.keyvault":          "AzureKeyVault",
	"microsoft.servicebus":        "ServiceBus",
	"microsoft.eventhub":          "EventHub",
	"microsoft.web":               "AppService",
}

// ServiceEndpointTag is the service tag of a service endpoint's service
// (Microsoft.Storage → Storage), or "" when the provider does not know it.
func ServiceEndpointTag(service string) string {
	return serviceEndpointTags[strings.ToLower(strings.TrimSpace(service))]
}

// Tags returns the service tags whose members a service endpoint routes:
// the service's regional tag in every location of the endpoint (a
// location "*" means the global tag), in the endpoint's order. ok is false
// when a needed tag is not in the list (or the service has no known tag),
// with the name that was missing.
func (se ServiceEndpoint) Tags(tags *ServiceTags) (out []*ServiceTag, missing string, ok bool) {
	base := ServiceEndpointTag(se.Service)
	switch {
	case base == "":
		return nil, "the service tag of " + se.Service, false
	case tags == nil:
		return nil, base, false
	case len(se.Locations) == 0:
		return nil, base + " (the endpoint lists no location)", false
	}
	for _, loc := range se.Locations {
		if strings.TrimSpace(loc) == "*" {
			t, found := tags.Lookup(base)
			if !found {
				return nil, base, false
			}
			out = append(out, t)
			continue
		}
		t, found := tags.Regional(base, loc)
		if !found {
			return nil, base + "." + NormalizeRegion(loc), false
		}
		out = append(out, t)
	}
	return out, "", true
}

// IsListedServiceTag reports whether an address prefix of a security rule
// names a service tag that the Service Tag Discovery API lists: a name
// (not "*", an address or a CIDR) other than VirtualNetwork, Internet and
// AzureLoadBalancer, which Azure defines per network rather than by a list.
func IsListedServiceTag(p string) bool {
	p = strings.TrimSpace(p)
	if p == "" || strings.ContainsAny(p, ":/*") {
		return false
	}
	c := p[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	switch strings.ToLower(p) {
	case "any", "virtualnetwork", "internet", "azureloadbalancer":
		return false
	}
	return true
}
