// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"slices"
	"sort"

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
// The hostnames are model.RegistryPullHosts, the list the verification
// checks: the login server, the regional endpoints the registry enables, a
// data endpoint per region of the registry and its replicas (the names the
// registry lists, and the documented <reg>.<region>.data.<suffix> form)
// when it has data endpoints or private endpoints, else its storage, whose
// exact host ARM does not reveal (one entry per region, for its service tag).
func registryEndpoints(reg *model.Registry, pes []*model.PrivateEndpoint) []endpoint {
	addrs := fqdnAddresses(pes)
	hasPE := len(reg.PrivateEndpointConnections) > 0 || len(pes) > 0
	listed := map[string]bool{}
	for _, h := range reg.DataEndpointHosts {
		listed[model.NormalizeHost(h)] = true
	}
	for k := range addrs {
		listed[k] = true
	}
	var out []endpoint
	for _, h := range model.RegistryPullHosts(reg, hasPE, reg.Cloud()) {
		e := endpoint{Host: h.Name, Region: h.Region, PrivateAddresses: addrs[h.Name]}
		switch h.Kind {
		case model.HostLogin:
			e.Kind, e.Region = endpointLogin, model.NormalizeRegion(reg.Location)
			e.Note = "Login server: token exchange and manifests; answers layer requests with a 307 redirect to a data endpoint (or storage)."
		case model.HostRegional:
			e.Kind, e.Note = endpointRegional, "Regional login endpoint of one replica."
		case model.HostData:
			e.Kind = endpointData
			e.Note = "Data endpoint: layer downloads after the login server's redirect; needs the same private DNS and route as the login server."
			if !listed[h.Name] {
				e.Note = "Data endpoint of this region, derived from the registry's name and replicas (Azure did not list it): private endpoints always use data endpoints."
			}
		case model.HostBlob:
			for _, r := range reg.Regions() {
				out = append(out, endpoint{Host: h.Name, Kind: endpointStorage, Region: r,
					Note: "Without data endpoints layers come from the registry's storage account in this region, a " + h.Name +
						" host that Azure Resource Manager does not name: allow HTTPS to " + h.Name + " (service tag Storage." + r + ")."})
			}
			continue
		default:
			continue
		}
		out = append(out, e)
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

// fqdnAddresses maps each FQDN (as model.NormalizeHost writes it) served by
// the private endpoints to its addresses, sorted and without duplicates.
func fqdnAddresses(pes []*model.PrivateEndpoint) map[string][]netip.Addr {
	out := map[string][]netip.Addr{}
	for _, pe := range pes {
		if pe == nil {
			continue
		}
		for _, c := range pe.DNSConfigs {
			k := model.NormalizeHost(c.FQDN)
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
