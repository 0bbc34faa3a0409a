// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"sort"
	"strings"
)

// hostKind is the role a hostname plays in a pull.
type hostKind int

const (
	// hostLogin is the login server: token exchange and manifests.
	hostLogin hostKind = iota
	// hostRegional is a regional login endpoint <reg>.<region>.geo.azurecr.io.
	hostRegional
	// hostData is a dedicated data endpoint <reg>.<region>.data.azurecr.io,
	// where the login server's 307 redirect sends layer downloads.
	hostData
	// hostBlob stands for the registry's storage (*.blob.core.windows.net)
	// when there are neither data endpoints nor private endpoints.
	hostBlob
	// hostDeclared is a hostname of a registry other than ACR.
	hostDeclared
)

func (k hostKind) String() string {
	switch k {
	case hostLogin:
		return "login server"
	case hostRegional:
		return "regional endpoint"
	case hostData:
		return "data endpoint"
	case hostBlob:
		return "registry storage"
	default:
		return "registry host"
	}
}

// pullHost is one hostname a pull touches.
type pullHost struct {
	Name   string
	Kind   hostKind
	Region string // for regional and data endpoints
}

// pullHosts returns every hostname a pull touches, in chain order: the
// login server, regional endpoints, data endpoints (home region first),
// storage; or the declared hosts in the order given.
//
// ACR endpoint reference: data endpoints exist per region of the registry
// and its replicas; with private endpoints they are always used (the login
// server's 307 redirect points there). Without data endpoints and without
// private endpoints, layers come from *.blob.core.windows.net, whose exact
// account name Resource Manager does not reveal.
func (f *Facts) pullHosts() []pullHost {
	if f.Registry == nil {
		return declaredHosts(f.Declared)
	}
	r := f.Registry
	cloud := f.cloud()
	login := normalizeHost(r.LoginServer)
	hosts := []pullHost{{Name: login, Kind: hostLogin}}

	var regional []string
	for _, h := range r.RegionalEndpointHosts {
		regional = append(regional, normalizeHost(h))
	}
	for _, h := range sortedUnique(regional) {
		hosts = append(hosts, pullHost{Name: h, Kind: hostRegional, Region: regionOf(h)})
	}

	if !r.DataEndpointEnabled && !f.registryHasPrivateEndpoints() {
		return append(hosts, pullHost{Name: "*." + cloud.BlobSuffix, Kind: hostBlob})
	}
	name := registryLabel(login)
	home := dataHost(name, r.Location, cloud)
	var data []string
	for _, h := range r.DataEndpointHosts {
		data = append(data, normalizeHost(h))
	}
	for _, rep := range r.Replicas {
		data = append(data, dataHost(name, rep.Location, cloud))
	}
	hosts = append(hosts, pullHost{Name: home, Kind: hostData, Region: normalizeRegion(r.Location)})
	for _, h := range sortedUnique(data) {
		if h != home {
			hosts = append(hosts, pullHost{Name: h, Kind: hostData, Region: regionOf(h)})
		}
	}
	return hosts
}

// registryHasPrivateEndpoints reports whether any private endpoint points
// at the registry, as the registry or the network sees it.
func (f *Facts) registryHasPrivateEndpoints() bool {
	if len(f.Registry.PrivateEndpointConnections) > 0 {
		return true
	}
	return len(f.registryPrivateEndpoints()) > 0
}

func declaredHosts(d *DeclaredRegistry) []pullHost {
	if d == nil {
		return nil
	}
	var out []pullHost
	seen := map[string]bool{}
	for _, h := range d.Hosts {
		h = normalizeHost(h)
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		out = append(out, pullHost{Name: h, Kind: hostDeclared})
	}
	return out
}

// dataHost is <reg>.<region>.data.<suffix>.
func dataHost(registry, location string, cloud Cloud) string {
	return registry + "." + normalizeRegion(location) + ".data." + cloud.RegistrySuffix
}

// registryLabel is the registry's own label of its login server
// (contosoreg of contosoreg.azurecr.io).
func registryLabel(login string) string {
	label, _, _ := strings.Cut(login, ".")
	return label
}

// regionOf is the region label of <reg>.<region>.data|geo.<suffix>.
func regionOf(host string) string {
	labels := strings.Split(host, ".")
	if len(labels) > 2 {
		return labels[1]
	}
	return ""
}

// normalizeRegion turns an ARM location ("West Europe" or "westeurope")
// into the form hostnames use.
func normalizeRegion(location string) string {
	return strings.ToLower(strings.ReplaceAll(location, " ", ""))
}

// normalizeHost is a hostname as DNS compares it: lower case, no trailing dot.
func normalizeHost(h string) string {
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
// check them (pullHosts): for an Azure Container Registry the login server,
// regional and data endpoints (or the storage wildcard), else the declared
// hosts. Gather uses it to know which DNS names to look for.
func (f *Facts) HostNames() []string {
	var out []string
	for _, h := range f.pullHosts() {
		out = append(out, h.Name)
	}
	return out
}
