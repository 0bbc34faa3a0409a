// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"
)

func testTags(t *testing.T) *ServiceTags {
	t.Helper()
	tags, err := NewServiceTags(ServiceTagsID("s1", "West Europe"), "West Europe", "Public", "42", []ServiceTag{
		{Name: "AzureContainerRegistry", SystemService: "AzureContainerRegistry", Prefixes: []netip.Prefix{netip.MustParsePrefix("20.61.0.0/27"), netip.MustParsePrefix("51.12.0.0/24")}},
		{Name: "AzureContainerRegistry.WestEurope", Region: "westeurope", Prefixes: []netip.Prefix{netip.MustParsePrefix("20.61.0.9/27")}},
		{Name: "Storage.NorthEurope", Region: "northeurope", Prefixes: []netip.Prefix{netip.MustParsePrefix("52.164.0.0/16")}},
		// A regional tag whose name does not spell the location as ARM does.
		{Name: "Sql.EastUS2EUAP", Region: "eastus2euap", Prefixes: []netip.Prefix{netip.MustParsePrefix("40.70.0.0/24")}},
		{Name: "Storage.Odd", Region: "centraluseuap", Prefixes: []netip.Prefix{netip.MustParsePrefix("52.180.0.0/24")}},
		{Name: "Empty"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

func TestServiceTagsLookup(t *testing.T) {
	tags := testTags(t)
	if tags.ID != "/subscriptions/s1/providers/Microsoft.Network/locations/westeurope/serviceTags" || tags.Location != "westeurope" || tags.Len() != 6 {
		t.Errorf("id %s, location %s, %d tags", tags.ID, tags.Location, tags.Len())
	}
	for _, name := range []string{"AzureContainerRegistry.westeurope", "azurecontainerregistry.WESTEUROPE", " AzureContainerRegistry.WestEurope "} {
		got, ok := tags.Lookup(name)
		if !ok || got.Name != "AzureContainerRegistry.WestEurope" || !reflect.DeepEqual(got.Prefixes, []netip.Prefix{netip.MustParsePrefix("20.61.0.0/27")}) {
			t.Errorf("Lookup(%q) = %+v, %v (prefixes are masked)", name, got, ok)
		}
	}
	for _, name := range []string{"AzureContainerRegistry.NorthEurope", "Storage", "", "AzureCloud"} {
		if got, ok := tags.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %+v: a tag the list lacks must be unknown", name, got)
		}
	}
	if got, ok := tags.Regional("Storage", "North Europe"); !ok || got.Name != "Storage.NorthEurope" {
		t.Errorf("Regional by name = %+v, %v", got, ok)
	}
	if got, ok := tags.Regional("storage", "centraluseuap"); !ok || got.Name != "Storage.Odd" {
		t.Errorf("Regional by properties.region = %+v, %v", got, ok)
	}
	if _, ok := tags.Regional("Storage", "westeurope"); ok {
		t.Error("Regional found a tag the list lacks")
	}
	if tags.Label() != "the service tags read for westeurope (change 42)" {
		t.Errorf("label %q", tags.Label())
	}
	var none *ServiceTags
	if _, ok := none.Lookup("Storage"); ok || none.Len() != 0 {
		t.Error("a nil list knows a tag")
	}
	if _, ok := none.Regional("Storage", "westeurope"); ok {
		t.Error("a nil list knows a regional tag")
	}
}

func TestNewServiceTagsRejectsAmbiguousAnswers(t *testing.T) {
	for name, tags := range map[string][]ServiceTag{
		"twice in other case": {{Name: "Storage"}, {Name: "STORAGE"}},
		"no name":             {{Name: " "}},
	} {
		if _, err := NewServiceTags("x", "westeurope", "", "", tags); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestServiceEndpointTags(t *testing.T) {
	tags := testTags(t)
	tests := []struct {
		name     string
		se       ServiceEndpoint
		tags     *ServiceTags
		want     []string
		missing  string
		resolved bool
	}{
		{name: "regional tag of each location", se: ServiceEndpoint{Service: "Microsoft.ContainerRegistry", Locations: []string{"westeurope"}}, tags: tags,
			want: []string{"20.61.0.0/27"}, resolved: true},
		{name: "global endpoint", se: ServiceEndpoint{Service: "Microsoft.ContainerRegistry", Locations: []string{"*"}}, tags: tags,
			want: []string{"20.61.0.0/27", "51.12.0.0/24"}, resolved: true},
		{name: "a location whose tag is missing", se: ServiceEndpoint{Service: "Microsoft.Storage", Locations: []string{"northeurope", "westeurope"}}, tags: tags,
			missing: "Storage.westeurope"},
		{name: "service without known tag", se: ServiceEndpoint{Service: "Microsoft.Unknown", Locations: []string{"westeurope"}}, tags: tags,
			missing: "the service tag of Microsoft.Unknown"},
		{name: "no tags read", se: ServiceEndpoint{Service: "Microsoft.Storage", Locations: []string{"northeurope"}}, missing: "Storage"},
		{name: "no location", se: ServiceEndpoint{Service: "Microsoft.Storage"}, tags: tags, missing: "Storage (the endpoint lists no location)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, missing, ok := tc.se.Tags(tc.tags)
			if ok != tc.resolved || missing != tc.missing {
				t.Fatalf("ok %v missing %q, want %v %q", ok, missing, tc.resolved, tc.missing)
			}
			var s []string
			for _, tag := range got {
				for _, p := range tag.Prefixes {
					s = append(s, p.String())
				}
			}
			if !reflect.DeepEqual(s, tc.want) {
				t.Errorf("prefixes %v, want %v", s, tc.want)
			}
		})
	}
}

func TestIsListedServiceTag(t *testing.T) {
	for p, want := range map[string]bool{
		"AzureContainerRegistry": true, "Storage.WestEurope": true, "AzureCloud": true, "sql.eastus": true,
		"VirtualNetwork": false, "internet": false, "AzureLoadBalancer": false, "*": false, "Any": false,
		"10.0.0.0/8": false, "10.1.2.3": false, "fe80::1": false, "fd00::/8": false, "": false,
	} {
		if got := IsListedServiceTag(p); got != want {
			t.Errorf("IsListedServiceTag(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestNetworkServiceTagsAt(t *testing.T) {
	n := NewNetwork()
	tags := testTags(t)
	n.AddVNet(&VNet{ID: "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", Location: "West Europe"})
	n.AddVNet(&VNet{ID: "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/n", Location: "northeurope"})
	n.SetServiceTags("westeurope", tags)
	n.SetServiceTagGap("North Europe", Gap{ResourceID: ServiceTagsID("s1", "northeurope"), Kind: GapPermissionDenied})
	if got, gap := n.ServiceTagsOfVNet("/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/V"); got != tags || gap != nil {
		t.Errorf("west europe: %v %v", got, gap)
	}
	if got, gap := n.ServiceTagsOfVNet("/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/n"); got != nil || gap == nil || gap.Kind != GapPermissionDenied {
		t.Errorf("north europe: %v %v", got, gap)
	}
	if got, gap := n.ServiceTagsAt("eastus"); got != nil || gap != nil {
		t.Errorf("a location not read: %v %v", got, gap)
	}
}

func TestPublicServiceTags(t *testing.T) {
	reg := &Registry{LoginServer: "contosoreg.azurecr.io", Location: "West Europe", ReplicasKnown: true,
		Replicas: []Replica{{Location: "westeurope"}, {Location: "northeurope"}}}
	f := &Facts{Registry: reg}
	tests := []struct {
		host PullHost
		want string
	}{
		{PullHost{Name: "contosoreg.azurecr.io", Kind: HostLogin}, "AzureContainerRegistry.northeurope AzureContainerRegistry.westeurope"},
		{PullHost{Name: "contosoreg.westeurope.data.azurecr.io", Kind: HostData, Region: "westeurope"}, "AzureContainerRegistry.westeurope"},
		{PullHost{Name: "contosoreg.northeurope.geo.azurecr.io", Kind: HostRegional, Region: "northeurope"}, "AzureContainerRegistry.northeurope"},
		{PullHost{Name: "*.blob.core.windows.net", Kind: HostBlob}, "Storage.northeurope Storage.westeurope"},
	}
	for _, tc := range tests {
		if got := strings.Join(f.PublicServiceTags(tc.host), " "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.host.Name, got, tc.want)
		}
	}
	reg.ReplicasKnown = false
	if got := f.PublicServiceTags(PullHost{Kind: HostLogin}); got != nil {
		t.Errorf("login server with unknown replicas: %v, want unknown", got)
	}
	if got := (&Facts{Declared: &DeclaredRegistry{Hosts: []string{"mcr.microsoft.com"}}}).PublicServiceTags(PullHost{Name: "mcr.microsoft.com", Kind: HostDeclared}); got != nil {
		t.Errorf("declared host: %v, want unknown", got)
	}
}
