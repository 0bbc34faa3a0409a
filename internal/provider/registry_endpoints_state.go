// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Kinds of registry endpoint (pullpath_registry_endpoints.endpoints[*].kind):
// every hostname a node touches during a pull.
const (
	endpointLogin    = "login"    // <reg>.azurecr.io: token exchange and manifests
	endpointRegional = "regional" // <reg>.<region>.geo.azurecr.io
	endpointData     = "data"     // <reg>.<region>.data.azurecr.io: layers, after the 307
	endpointStorage  = "storage"  // *.blob.core.windows.net: layers without data endpoints
)

// EndpointKinds lists the kinds, for schema descriptions and tests.
var EndpointKinds = []string{endpointLogin, endpointData, endpointRegional, endpointStorage}

// endpoint is one hostname the registry hands out.
type endpoint struct {
	Host             string
	Kind             string
	Region           string
	PrivateAddresses []netip.Addr
	Note             string
}

// registryEndpoints lists every hostname a pull from reg touches, with the
// private addresses its private endpoints serve for each (customDnsConfigs).
//
// Data endpoints are the registry's dataEndpointHostNames, plus any
// *.data.* FQDN a private endpoint serves (ACR always uses data endpoints
// behind a private endpoint), plus, for a region with private endpoints but
// no name known, the documented <reg>.<region>.data.<suffix> form. Without
// data endpoints and private endpoints layers come from the registry's
// storage account, whose exact host ARM does not reveal.
func registryEndpoints(reg *model.Registry, pes []*model.PrivateEndpoint) []endpoint {
	addrs := fqdnAddresses(pes)
	suffix := registrySuffix(reg.LoginServer)
	regions := registryRegions(reg)
	var out []endpoint
	seen := map[string]bool{}
	add := func(e endpoint) {
		k := strings.ToLower(e.Host)
		if e.Host == "" || seen[k] {
			return
		}
		seen[k] = true
		e.PrivateAddresses = addrs[k]
		out = append(out, e)
	}

	add(endpoint{Host: reg.LoginServer, Kind: endpointLogin, Region: normRegion(reg.Location),
		Note: "Login server: token exchange and manifests; answers layer requests with a 307 redirect to a data endpoint (or storage)."})
	for _, h := range reg.RegionalEndpointHosts {
		add(endpoint{Host: h, Kind: endpointRegional, Region: hostRegion(h),
			Note: "Regional login endpoint of one replica."})
	}

	hasPE := len(reg.PrivateEndpointConnections) > 0 || len(pes) > 0
	dataHosts := slices.Clone(reg.DataEndpointHosts)
	for _, pe := range pes {
		for _, c := range pe.DNSConfigs {
			if isDataHost(c.FQDN) {
				dataHosts = append(dataHosts, strings.TrimSuffix(c.FQDN, "."))
			}
		}
	}
	for _, h := range dataHosts {
		add(endpoint{Host: h, Kind: endpointData, Region: hostRegion(h),
			Note: "Data endpoint: layer downloads after the login server's redirect; needs the same private DNS and route as the login server."})
	}
	if (reg.DataEndpointEnabled || hasPE) && suffix != "" {
		covered := map[string]bool{}
		for _, h := range dataHosts {
			covered[hostRegion(h)] = true
		}
		for _, r := range regions {
			if covered[r] {
				continue
			}
			h := strings.ToLower(reg.Name) + "." + r + ".data." + suffix
			add(endpoint{Host: h, Kind: endpointData, Region: r,
				Note: "Data endpoint of this region, derived from the registry's name and replicas (Azure did not list it): private endpoints always use data endpoints."})
		}
	}

	if !reg.DataEndpointEnabled && len(dataHosts) == 0 && !hasPE {
		host := "*." + blobSuffix(suffix)
		for _, r := range regions {
			out = append(out, endpoint{Host: host, Kind: endpointStorage, Region: r, PrivateAddresses: nil,
				Note: "Without data endpoints layers come from the registry's storage account in this region, a " + host +
					" host that Azure Resource Manager does not name: allow HTTPS to " + host + " (service tag Storage." + r + ")."})
		}
	}

	sort.SliceStable(out, func(i, j int) bool {
		if oi, oj := kindOrder(out[i].Kind), kindOrder(out[j].Kind); oi != oj {
			return oi < oj
		}
		if out[i].Region != out[j].Region {
			return out[i].Region < out[j].Region
		}
		return out[i].Host < out[j].Host
	})
	return out
}

func kindOrder(kind string) int { return slices.Index(EndpointKinds, kind) }

// fqdnAddresses maps each FQDN (lower case, no trailing dot) served by the
// private endpoints to its addresses, sorted and without duplicates.
func fqdnAddresses(pes []*model.PrivateEndpoint) map[string][]netip.Addr {
	out := map[string][]netip.Addr{}
	for _, pe := range pes {
		if pe == nil {
			continue
		}
		for _, c := range pe.DNSConfigs {
			k := strings.ToLower(strings.TrimSuffix(c.FQDN, "."))
			for _, a := range c.Addresses {
				if !slices.Contains(out[k], a) {
					out[k] = append(out[k], a)
				}
			}
		}
	}
	for k := range out {
		slices.SortFunc(out[k], func(a, b netip.Addr) int { return a.Compare(b) })
	}
	return out
}

// registryRegions is the registry's home region and its replicas' regions,
// normalised (westeurope), home first, without duplicates.
func registryRegions(reg *model.Registry) []string {
	var out []string
	for _, l := range append([]string{reg.Location}, replicaLocations(reg)...) {
		r := normRegion(l)
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func replicaLocations(reg *model.Registry) []string {
	out := make([]string, 0, len(reg.Replicas))
	for _, r := range reg.Replicas {
		out = append(out, r.Location)
	}
	return out
}

// normRegion turns "West Europe" into "westeurope", the form hostnames use.
func normRegion(s string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
}

// registrySuffix is the DNS suffix of the login server: azurecr.io (or
// azurecr.us, azurecr.cn).
func registrySuffix(loginServer string) string {
	_, rest, ok := strings.Cut(strings.ToLower(loginServer), ".")
	if !ok {
		return ""
	}
	return rest
}

// blobSuffix is the storage host suffix of the registry's cloud.
func blobSuffix(registrySuffix string) string {
	switch {
	case strings.HasSuffix(registrySuffix, ".us"):
		return "blob.core.usgovcloudapi.net"
	case strings.HasSuffix(registrySuffix, ".cn"):
		return "blob.core.chinacloudapi.cn"
	default:
		return "blob.core.windows.net"
	}
}

// isDataHost reports a <reg>.<region>.data.<suffix> name.
func isDataHost(fqdn string) bool {
	labels := strings.Split(strings.ToLower(strings.TrimSuffix(fqdn, ".")), ".")
	return len(labels) >= 4 && labels[2] == "data"
}

// hostRegion is the region label of <reg>.<region>.data.… and
// <reg>.<region>.geo.… hosts, or "".
func hostRegion(host string) string {
	labels := strings.Split(strings.ToLower(host), ".")
	if len(labels) >= 4 && (labels[2] == "data" || labels[2] == "geo") {
		return labels[1]
	}
	return ""
}

// endpointModel is one element of pullpath_registry_endpoints.endpoints.
type endpointModel struct {
	Host             types.String `tfsdk:"host"`
	Kind             types.String `tfsdk:"kind"`
	Region           types.String `tfsdk:"region"`
	PrivateAddresses []string     `tfsdk:"private_addresses"`
	Note             types.String `tfsdk:"note"`
}

func endpointToModel(e endpoint) endpointModel {
	return endpointModel{
		Host:             types.StringValue(e.Host),
		Kind:             types.StringValue(e.Kind),
		Region:           stringOrNull(e.Region),
		PrivateAddresses: addrStrings(e.PrivateAddresses),
		Note:             stringOrNull(e.Note),
	}
}

// privateEndpointModel is one element of
// pullpath_registry_endpoints.private_endpoints.
type privateEndpointModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	ConnectionStatus types.String `tfsdk:"connection_status"`
	SubnetID         types.String `tfsdk:"subnet_id"`
	FQDNs            []string     `tfsdk:"fqdns"`
}

// privateEndpointToModel maps a registry's private endpoint connection and
// the private endpoint itself (nil when it could not be read: its subnet
// and FQDNs are then null, unknown rather than empty). The connection
// status is the registry's view, which is what decides whether ACR serves
// the endpoint.
func privateEndpointToModel(conn model.RegistryPEConnection, pe *model.PrivateEndpoint) privateEndpointModel {
	m := privateEndpointModel{
		ID:               types.StringValue(string(conn.PrivateEndpointID)),
		Name:             types.StringValue(conn.PrivateEndpointID.Name()),
		ConnectionStatus: stringOrNull(conn.Status),
		SubnetID:         types.StringNull(),
	}
	if pe == nil {
		return m
	}
	m.Name = types.StringValue(pe.Name)
	m.SubnetID = idOrNull(pe.SubnetID)
	m.FQDNs = []string{}
	for _, c := range pe.DNSConfigs {
		if !slices.Contains(m.FQDNs, c.FQDN) {
			m.FQDNs = append(m.FQDNs, c.FQDN)
		}
	}
	return m
}
