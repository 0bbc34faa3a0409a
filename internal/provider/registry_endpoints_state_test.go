// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// pullpath_registry_endpoints lists exactly the hostnames the verification
// checks (model.Facts.PullHosts, which verify.Verify walks), each with the
// same kind and region, over clouds, data endpoints, private endpoints,
// replicas and regional endpoints: a user who opens the hosts the data
// source lists opens everything the verification asks for, and nothing it
// does not.
func TestRegistryEndpointsAreTheVerifiedHosts(t *testing.T) {
	kindOf := map[model.HostKind]string{
		model.HostLogin: endpointLogin, model.HostRegional: endpointRegional,
		model.HostData: endpointData, model.HostBlob: endpointStorage,
	}
	type variant struct {
		cloud                 model.Cloud
		dataEndpoints, pe     bool
		replicas              []string
		regional, listUpper   bool
		listOnlySomeDataHosts bool
	}
	var variants []variant
	for _, cloud := range model.Clouds {
		for _, replicas := range [][]string{nil, {"westeurope"}, {"North Europe", "eastus"}} {
			for _, flags := range []struct{ data, pe, regional, upper, some bool }{
				{}, {data: true}, {pe: true}, {data: true, pe: true},
				{data: true, regional: true}, {data: true, pe: true, upper: true, some: true},
				{regional: true}, {data: true, some: true}, {pe: true, some: true},
			} {
				variants = append(variants, variant{cloud: cloud, dataEndpoints: flags.data, pe: flags.pe,
					replicas: replicas, regional: flags.regional, listUpper: flags.upper, listOnlySomeDataHosts: flags.some})
			}
		}
	}
	for i, v := range variants {
		t.Run(fmt.Sprintf("%d-%s", i, v.cloud.Name), func(t *testing.T) {
			regID := model.ResourceID(tSub + "/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/ContosoReg")
			peID := model.ResourceID(tSub + "/resourceGroups/rg/providers/Microsoft.Network/privateEndpoints/pe-acr")
			reg := &model.Registry{ID: regID, Name: "ContosoReg", Location: "West Europe", LoginServer: "contosoreg." + v.cloud.RegistrySuffix,
				DataEndpointEnabled: v.dataEndpoints, ReplicasKnown: true}
			regions := []string{"westeurope"}
			for _, r := range v.replicas {
				reg.Replicas = append(reg.Replicas, model.Replica{Location: r})
				regions = append(regions, model.NormalizeRegion(r))
			}
			for j, r := range regions {
				if v.dataEndpoints && (!v.listOnlySomeDataHosts || j == 0) {
					h := "contosoreg." + r + ".data." + v.cloud.RegistrySuffix
					if v.listUpper {
						h = "ContosoReg." + r + ".data." + v.cloud.RegistrySuffix + "."
					}
					reg.DataEndpointHosts = append(reg.DataEndpointHosts, h)
				}
				if v.regional {
					reg.RegionalEndpointHosts = append(reg.RegionalEndpointHosts, "contosoreg."+r+".geo."+v.cloud.RegistrySuffix)
				}
			}
			f := model.Facts{Registry: reg, Network: model.NewNetwork()}
			var pes []*model.PrivateEndpoint
			if v.pe {
				pe := &model.PrivateEndpoint{ID: peID, Name: "pe-acr",
					Connections: []model.PrivateLinkConnection{{TargetID: regID}},
					DNSConfigs:  []model.FQDNAddresses{{FQDN: "contosoreg." + v.cloud.RegistrySuffix, Addresses: addrs("10.0.2.5")}}}
				for j, r := range regions {
					if v.listOnlySomeDataHosts && j > 0 {
						break
					}
					pe.DNSConfigs = append(pe.DNSConfigs, model.FQDNAddresses{FQDN: "contosoreg." + r + ".data." + v.cloud.RegistrySuffix,
						Addresses: addrs(fmt.Sprintf("10.0.2.%d", 6+j))})
				}
				f.Network.PrivateEndpoints[peID.Key()] = pe
				reg.PrivateEndpointConnections = []model.RegistryPEConnection{{PrivateEndpointID: peID, Status: "Approved"}}
				pes = []*model.PrivateEndpoint{pe}
			}

			verified := map[string]string{}
			for _, h := range f.PullHosts() {
				verified[h.Name] = kindOf[h.Kind]
			}
			listed := map[string]string{}
			for _, e := range registryEndpoints(reg, pes) {
				if k, ok := listed[e.Host]; ok && k != e.Kind {
					t.Errorf("%s listed as %s and %s", e.Host, k, e.Kind)
				}
				listed[e.Host] = e.Kind
				if e.Kind == endpointStorage {
					if !slices.Contains(regions, e.Region) {
						t.Errorf("storage entry for region %q, not a region of the registry %v", e.Region, regions)
					}
					continue
				}
				if e.Kind != endpointLogin && e.Region != model.RegionOf(e.Host) {
					t.Errorf("%s: region %q, the host names %q", e.Host, e.Region, model.RegionOf(e.Host))
				}
			}
			for h, k := range verified {
				if listed[h] != k {
					t.Errorf("the verification checks %s (%s); the data source lists it as %q", h, k, listed[h])
				}
			}
			for h, k := range listed {
				if verified[h] != k {
					t.Errorf("the data source lists %s (%s); the verification checks it as %q", h, k, verified[h])
				}
			}
			if len(verified) < 2 {
				t.Errorf("only %v: every registry has a login server and a data endpoint or storage", verified)
			}
		})
	}
}
