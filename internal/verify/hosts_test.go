// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func hostNames(hs []model.PullHost) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Name
	}
	return out
}

func TestPullHosts(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *model.Facts)
		want   []string
	}{
		{
			name:   "login server and the data endpoint of every replica region, home region first",
			mutate: func(f *model.Facts) { addReplica(f, true) },
			want:   []string{loginHost, dataHostWE, dataHostNE},
		},
		{
			name: "with private endpoints the data endpoints are used even when not enabled, derived from the replicas",
			mutate: func(f *model.Facts) {
				f.Registry.DataEndpointEnabled = false
				f.Registry.DataEndpointHosts = nil
				f.Registry.Replicas = append(f.Registry.Replicas, model.Replica{Location: "North Europe"})
			},
			want: []string{loginHost, dataHostWE, dataHostNE},
		},
		{
			name: "neither data endpoints nor private endpoints: layers come from blob storage",
			mutate: func(f *model.Facts) {
				f.Registry.DataEndpointEnabled = false
				f.Registry.DataEndpointHosts = nil
				f.Registry.PrivateEndpointConnections = nil
				delete(f.Network.PrivateEndpoints, peID.Key())
			},
			want: []string{loginHost, "*.blob.core.windows.net"},
		},
		{
			name: "regional endpoints after the login server",
			mutate: func(f *model.Facts) {
				f.Registry.RegionalEndpointHosts = []string{"ContosoReg.westeurope.geo.azurecr.io."}
			},
			want: []string{loginHost, "contosoreg.westeurope.geo.azurecr.io", dataHostWE},
		},
		{
			name: "declared hosts in the order given, normalized and without duplicates",
			mutate: func(f *model.Facts) {
				f.Registry = nil
				f.Declared = &model.DeclaredRegistry{Hosts: []string{"Harbor.corp.example.", "blobs.corp.example", "harbor.corp.example", " "}}
			},
			want: []string{"harbor.corp.example", "blobs.corp.example"},
		},
		{
			name: "sovereign cloud suffix from the login server",
			mutate: func(f *model.Facts) {
				f.Registry.LoginServer = "contosoreg.azurecr.us"
				f.Registry.DataEndpointHosts = nil
			},
			want: []string{"contosoreg.azurecr.us", "contosoreg.westeurope.data.azurecr.us"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
			if got := hostNames(f.PullHosts()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hosts %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCloud(t *testing.T) {
	if got := model.CloudFor("USGovernment"); !reflect.DeepEqual(got, model.USGovernmentCloud) {
		t.Errorf("model.CloudFor(USGovernment) = %v", got)
	}
	if got := model.CloudFor("china"); !reflect.DeepEqual(got, model.ChinaCloud) {
		t.Errorf("model.CloudFor(china) = %v", got)
	}
	if got := model.CloudFor(""); !reflect.DeepEqual(got, model.PublicCloud) {
		t.Errorf("model.CloudFor(\"\") = %v", got)
	}
	f := baselineFacts()
	f.Registry.LoginServer = "contosoreg.azurecr.cn"
	if got := f.RegistryCloud(); !reflect.DeepEqual(got, model.ChinaCloud) {
		t.Errorf("cloud from login server azurecr.cn = %v", got)
	}
	f.Cloud = model.Cloud{RegistrySuffix: "azurecr.us"}
	if got := f.RegistryCloud().PrivateLinkZone; got != "privatelink.azurecr.us" {
		t.Errorf("private link zone of a partial cloud = %q", got)
	}
}

// The private link alias follows the cloud: a US Government registry's
// names resolve through privatelink.azurecr.us.
func TestSovereignPrivateLinkZone(t *testing.T) {
	f := baselineFacts()
	f.Registry.LoginServer = "contosoreg.azurecr.us"
	f.Registry.DataEndpointHosts = []string{"contosoreg.westeurope.data.azurecr.us"}
	pe := f.Network.PrivateEndpoint(peID)
	pe.DNSConfigs = []model.FQDNAddresses{{FQDN: "contosoreg.azurecr.us", Addresses: ips("10.0.2.5")},
		{FQDN: "contosoreg.westeurope.data.azurecr.us", Addresses: ips("10.0.2.6")}}
	zone(&f).Name = "privatelink.azurecr.us"
	res := verifyFake(t, f, nil)
	if res.Verdict != model.Reachable {
		t.Fatalf("verdict %s\n%s", res.Verdict, res.Summary)
	}
	requireContains(t, pathOf(t, res, "system", "contosoreg.azurecr.us").Resolution, "contosoreg.privatelink.azurecr.us A 10.0.2.5")

	zone(&f).Name = "privatelink.azurecr.io"
	requireCodes(t, verifyFake(t, f, nil), model.DNSZoneNotLinked)
}
