// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func tagSpace(t *testing.T) Space {
	t.Helper()
	tags, err := model.NewServiceTags(model.ServiceTagsID("s", "westeurope"), "westeurope", "Public", "9", []model.ServiceTag{
		{Name: "AzureContainerRegistry", Prefixes: pfxs("20.61.0.0/27", "51.12.0.0/24")},
		{Name: "AzureContainerRegistry.WestEurope", Region: "westeurope", Prefixes: pfxs("20.61.0.0/27")},
		{Name: "Storage.WestEurope", Region: "westeurope", Prefixes: pfxs("20.60.0.0/17")},
		{Name: "AzureCloud", Prefixes: pfxs("20.0.0.0/8", "51.0.0.0/8")},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := spokeSpace
	s.Tags = tags
	return s
}

// TestServiceTagRules: with the service tags read, a rule naming a tag is
// decided by the tag's members, for known destinations and for a public
// destination known only by the tags that hold it; without them, with a tag
// the list lacks, or for a destination whose address is unknown, it stays
// undecided and says why.
func TestServiceTagRules(t *testing.T) {
	withTags := tagSpace(t)
	readGap := model.Gap{ResourceID: model.ServiceTagsID("s", "westeurope"), Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/locations/serviceTags/read", Detail: "HTTP 403 AuthorizationFailed"}
	noList := spokeSpace
	noList.TagsGap = &readGap
	acrWE := Endpoint{Prefixes: pfxs("20.61.0.0/27"), ASGsKnown: true} // the registry's public address, by its tag
	deny := func(tag string) []r {
		return []r{rl("DenyTag", 100, Outbound, "Deny", "Tcp", l("*"), l(tag), l("443"))}
	}
	allowThenDenyInternet := func(tag string) []r {
		return []r{
			rl("AllowTag", 100, Outbound, "Allow", "Tcp", l("*"), l(tag), l("443")),
			rl("DenyInternet", 200, Outbound, "Deny", "*", l("*"), l("Internet"), l("*")),
		}
	}
	tests := []struct {
		name  string
		rules []r
		dest  Endpoint
		space Space
		want  Outcome
		rule  string
		tag   string // in Decision.Tag, for Unverified
	}{
		{name: "deny to the registry's tag decides a public registry address", rules: deny("AzureContainerRegistry"), dest: acrWE, space: withTags, want: Denied, rule: "DenyTag"},
		{name: "… named case-insensitively", rules: deny("azurecontainerregistry"), dest: acrWE, space: withTags, want: Denied, rule: "DenyTag"},
		{name: "deny to the registry's tag does not match a private endpoint", rules: deny("AzureContainerRegistry"), dest: Endpoint{Prefixes: pfxs("10.0.2.5/32")}, space: withTags, want: Allowed, rule: "AllowVnetOutBound"},
		{name: "deny to another service's tag does not match", rules: deny("Storage.WestEurope"), dest: acrWE, space: withTags, want: Allowed, rule: "AllowInternetOutBound"},
		{name: "allow the regional tag before denying Internet", rules: allowThenDenyInternet("AzureContainerRegistry.WestEurope"), dest: acrWE, space: withTags, want: Allowed, rule: "AllowTag"},
		{name: "allow another region's tag: Internet deny decides", rules: allowThenDenyInternet("Storage.WestEurope"), dest: acrWE, space: withTags, want: Denied, rule: "DenyInternet"},
		{name: "a known public address inside the tag", rules: deny("AzureCloud"), dest: Endpoint{Prefixes: pfxs("20.61.0.4/32")}, space: withTags, want: Denied, rule: "DenyTag"},
		{name: "a destination only partly in the tag is undecided", rules: deny("AzureContainerRegistry.WestEurope"), dest: Endpoint{Prefixes: pfxs("20.61.0.0/26")}, space: withTags,
			want: Unverified, rule: "DenyTag", tag: "covers only part of the destination prefixes, by the service tags read for westeurope (change 9)"},
		{name: "an unknown public address is undecided", rules: deny("AzureContainerRegistry"), dest: Endpoint{ASGsKnown: true}, space: withTags,
			want: Unverified, rule: "DenyTag", tag: "AzureContainerRegistry (the destination address is not known)"},
		{name: "a tag the list lacks is undecided", rules: deny("AzureKeyVault"), dest: acrWE, space: withTags,
			want: Unverified, rule: "DenyTag", tag: "AzureKeyVault (not in the service tags read for westeurope (change 9))"},
		{name: "without the list, undecided (as before)", rules: deny("AzureContainerRegistry"), dest: Endpoint{Prefixes: pfxs("10.0.2.5/32")}, space: spokeSpace,
			want: Unverified, rule: "DenyTag", tag: "AzureContainerRegistry"},
		{name: "a failed read of the list is named", rules: deny("AzureContainerRegistry"), dest: acrWE, space: noList,
			want: Unverified, rule: "DenyTag", tag: "AzureContainerRegistry (the service tag list could not be read: the identity lacks Microsoft.Network/locations/serviceTags/read)"},
		{name: "a source tag: nodes are not in AzureCloud", rules: []r{rl("DenyFromCloud", 100, Outbound, "Deny", "*", l("AzureCloud"), l("*"), l("*"))}, dest: acrWE, space: withTags,
			want: Allowed, rule: "AllowInternetOutBound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGsKnown: true}, Dest: tc.dest}
			d := Evaluate(&model.SecurityGroup{ID: "nsg", Name: "nsg-aks", Rules: tc.rules}, Outbound, f, tc.space)
			if d.Outcome != tc.want || d.Rule != tc.rule {
				t.Fatalf("%s by %s (%s), want %s by %s", d.Outcome, d.Rule, d.Tag, tc.want, tc.rule)
			}
			if tc.tag != "" && !strings.Contains(d.Tag, tc.tag) {
				t.Errorf("tag %q, want it to contain %q", d.Tag, tc.tag)
			}
		})
	}
}

func TestVirtualNetworkSpaceCarriesTags(t *testing.T) {
	n := model.NewNetwork()
	vnet := model.ResourceID(sub + "virtualNetworks/v")
	n.AddVNet(&model.VNet{ID: vnet, Location: "West Europe", AddressSpace: pfxs("10.1.0.0/16")})
	tags := tagSpace(t).Tags
	n.SetServiceTags("westeurope", tags)
	if s := VirtualNetworkSpace(n, vnet); s.Tags != tags || s.TagsGap != nil {
		t.Errorf("space tags %v gap %v", s.Tags, s.TagsGap)
	}
	// A user-defined route by tag puts the tag's prefixes among those
	// possibly in VirtualNetwork: a rule naming VirtualNetwork cannot
	// decide the registry's public address then.
	rt := model.ResourceID(sub + "routeTables/rt")
	n.RouteTables[rt.Key()] = &model.RouteTable{ID: rt, Routes: []model.Route{{Name: "acr", ServiceTag: "AzureContainerRegistry.WestEurope", NextHopType: model.NextHopVirtualAppliance}}}
	n.VNet(vnet).Subnets = []*model.Subnet{{ID: vnet + "/subnets/s", RouteTableID: rt}}
	s := VirtualNetworkSpace(n, vnet)
	if len(s.MaybeVirtualNetwork) != 1 || s.MaybeVirtualNetwork[0] != pfxs("20.61.0.0/27")[0] {
		t.Errorf("maybe VirtualNetwork %v", s.MaybeVirtualNetwork)
	}
	f := Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22")}, Dest: Endpoint{Prefixes: pfxs("20.61.0.0/27")}}
	g := &model.SecurityGroup{ID: "nsg", Rules: []model.SecurityRule{rl("AllowVnet", 100, Outbound, "Allow", "Tcp", l("*"), l("VirtualNetwork"), l("443")),
		rl("DenyAll", 200, Outbound, "Deny", "*", l("*"), l("*"), l("*"))}}
	if d := Evaluate(g, Outbound, f, s); d.Outcome != Unverified || d.Rule != "AllowVnet" {
		t.Errorf("VirtualNetwork with a tag route: %s by %s", d.Outcome, d.Rule)
	}
	n.ServiceTags = nil
	n.SetServiceTagGap("westeurope", model.Gap{ResourceID: "x"})
	if s := VirtualNetworkSpace(n, vnet); s.Tags != nil || s.TagsGap == nil {
		t.Errorf("space tags %v gap %v", s.Tags, s.TagsGap)
	}
}
