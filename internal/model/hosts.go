// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"sort"
	"strings"
)

// HostKind is the role a hostname plays in a pull.
type HostKind int

const (
	// HostLogin is the login server: token exchange and manifests.
	HostLogin HostKind = iota
	// HostRegional is a regional login endpoint <reg>.<region>.geo.azurecr.io.
	HostRegional
	// HostData is a dedicated data endpoint <reg>.<region>.data.azurecr.io,
	// where the login server's 307 redirect sends layer downloads.
	HostData
	// HostBlob stands for the registry's storage (*.blob.core.windows.net)
	// when there are neither data endpoints nor private endpoints.
	HostBlob
	// HostDeclared is a hostname of a registry other than ACR.
	HostDeclared
)

func (k HostKind) String() string {
	switch k {
	case HostLogin:
		return "login server"
	case HostRegional:
		return "regional endpoint"
	case HostData:
		return "data endpoint"
	case HostBlob:
		return "registry storage"
	default:
		return "registry host"
	}
}

// PullHost is one hostname a pull touches.
type PullHost struct {
	Name   string
	Kind   HostKind
	Region string // for regional and data endpoints
}

// PullHosts returns every hostname a pull touches, in chain order: the
// login server, regional endpoints, data endpoints (home region first),
// storage; or the declared hosts in the order given. For a registry it is
// RegistryPullHosts with what the facts know of its private endpoints and
// cloud.
func (f *Facts) PullHosts() []PullHost {
	if f.Registry == nil {
		return declaredHosts(f.Declared)
	}
	return RegistryPullHosts(f.Registry, f.RegistryHasPrivateEndpoints(), f.RegistryCloud())
}

// RegistryPullHosts returns every hostname a pull from r touches, in chain
// order: the login server, regional endpoints, data endpoints (home region
// first), storage. It is the one list both the verification checks and
// pullpath_registry_endpoints shows; privateEndpoints says whether any
// private endpoint connects to the registry.
//
// Regional endpoints are opt-in: RegionalEndpointHosts holds names only
// while the registry enables them (gather's completeRegistryHosts drops
// the names ARM lists while regionalEndpoints is Disabled or absent), so
// every name here is one a pull may use.
//
// ACR endpoint reference: data endpoints exist per region of the registry
// and its replicas; with private endpoints they are always used (the login
// server's 307 redirect points there). Without data endpoints and without
// private endpoints, layers come from *.blob.core.windows.net, whose exact
// account name Resource Manager does not reveal.
func RegistryPullHosts(r *Registry, privateEndpoints bool, cloud Cloud) []PullHost {
	if r == nil {
		return nil
	}
	login := NormalizeHost(r.LoginServer)
	hosts := []PullHost{{Name: login, Kind: HostLogin}}

	var regional []string
	for _, h := range r.RegionalEndpointHosts {
		regional = append(regional, NormalizeHost(h))
	}
	for _, h := range sortedUnique(regional) {
		hosts = append(hosts, PullHost{Name: h, Kind: HostRegional, Region: RegionOf(h)})
	}

	if !r.DataEndpointEnabled && !privateEndpoints {
		return append(hosts, PullHost{Name: "*." + cloud.BlobSuffix, Kind: HostBlob})
	}
	name := RegistryLabel(login)
	home := DataHost(name, r.Location, cloud)
	var data []string
	for _, h := range r.DataEndpointHosts {
		data = append(data, NormalizeHost(h))
	}
	for _, rep := range r.Replicas {
		data = append(data, DataHost(name, rep.Location, cloud))
	}
	hosts = append(hosts, PullHost{Name: home, Kind: HostData, Region: NormalizeRegion(r.Location)})
	for _, h := range sortedUnique(data) {
		if h != home {
			hosts = append(hosts, PullHost{Name: h, Kind: HostData, Region: RegionOf(h)})
		}
	}
	return hosts
}

// Cloud is the cloud whose registry suffix the login server carries (the
// public cloud for any other).
func (r *Registry) Cloud() Cloud {
	login := NormalizeHost(r.LoginServer)
	for _, c := range Clouds[1:] {
		if strings.HasSuffix(login, "."+c.RegistrySuffix) {
			return c
		}
	}
	return PublicCloud
}

// Regions are the registry's home region and its replicas' regions, in the
// form hostnames use (westeurope), sorted, without duplicates or empties.
func (r *Registry) Regions() []string {
	out := []string{NormalizeRegion(r.Location)}
	for _, rep := range r.Replicas {
		out = append(out, NormalizeRegion(rep.Location))
	}
	return sortedUnique(out)
}

// RegistryHasPrivateEndpoints reports whether any private endpoint points
// at the registry, as the registry or the network sees it.
func (f *Facts) RegistryHasPrivateEndpoints() bool {
	if len(f.Registry.PrivateEndpointConnections) > 0 {
		return true
	}
	return len(f.RegistryPrivateEndpoints()) > 0
}

func declaredHosts(d *DeclaredRegistry) []PullHost {
	if d == nil {
		return nil
	}
	var out []PullHost
	seen := map[string]bool{}
	for _, h := range d.Hosts {
		h = NormalizeHost(h)
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		out = append(out, PullHost{Name: h, Kind: HostDeclared})
	}
	return out
}

// DataHost is <reg>.<region>.data.<suffix>.
func DataHost(registry, location string, cloud Cloud) string {
	return registry + "." + NormalizeRegion(location) + ".data." + cloud.RegistrySuffix
}

// RegistryLabel is the registry's own label of its login server
// (contosoreg of contosoreg.azurecr.io).
func RegistryLabel(login string) string {
	label, _, _ := strings.Cut(login, ".")
	return label
}

// RegionOf is the region label of <reg>.<region>.data|geo.<suffix>.
func RegionOf(host string) string {
	labels := strings.Split(host, ".")
	if len(labels) > 2 {
		return labels[1]
	}
	return ""
}

// NormalizeRegion turns an ARM location ("West Europe" or "westeurope")
// into the form hostnames use.
func NormalizeRegion(location string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(location), " ", ""))
}

// NormalizeHost is a hostname as DNS compares it: lower case, no trailing dot.
func NormalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// HostNames returns every hostname a pull touches, as verification will
// check them (PullHosts): for an Azure Container Registry the login server,
// regional and data endpoints (or the storage wildcard), else the declared
// hosts. Gather uses it to know which DNS names to look for.
func (f *Facts) HostNames() []string {
	var out []string
	for _, h := range f.PullHosts() {
		out = append(out, h.Name)
	}
	return out
}

// RegistryPrivateEndpoints returns the private endpoints that connect to
// the registry, sorted by id.
func (f *Facts) RegistryPrivateEndpoints() []*PrivateEndpoint {
	if f.Registry == nil || f.Network == nil {
		return nil
	}
	var out []*PrivateEndpoint
	for _, pe := range f.Network.PrivateEndpoints {
		for _, c := range pe.Connections {
			if c.TargetID.Equal(f.Registry.ID) {
				out = append(out, pe)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}

// PublicServiceTags names the service tags that hold the public address of
// a host a pull touches, when Resource Manager does not name the address
// itself: AzureContainerRegistry.<region> for an ACR login server (every
// region of the registry and its replicas, since public DNS sends a node to
// the nearest one), regional and data endpoint; Storage.<region> for the
// registry's storage. Nil when the tags are unknown: a declared host, or a
// login server whose replicas could not be read.
func (f *Facts) PublicServiceTags(h PullHost) []string {
	r := f.Registry
	if r == nil {
		return nil
	}
	regions := func() []string {
		if !r.ReplicasKnown || NormalizeRegion(r.Location) == "" {
			return nil
		}
		return r.Regions()
	}
	tags := func(base string, regions []string) []string {
		var out []string
		for _, region := range regions {
			if region != "" {
				out = append(out, base+"."+region)
			}
		}
		return out
	}
	switch h.Kind {
	case HostLogin:
		return tags("AzureContainerRegistry", regions())
	case HostRegional, HostData:
		return tags("AzureContainerRegistry", []string{NormalizeRegion(h.Region)})
	case HostBlob:
		return tags("Storage", regions())
	}
	return nil
}
