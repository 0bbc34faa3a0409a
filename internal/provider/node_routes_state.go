// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// nodeRouteModel is one route: an element of route_sets[*].routes and
// traces[*].selected_route.
type nodeRouteModel struct {
	AddressPrefix types.String `tfsdk:"address_prefix"`
	NextHopType   types.String `tfsdk:"next_hop_type"`
	NextHopIP     types.String `tfsdk:"next_hop_ip"`
	Source        types.String `tfsdk:"source"`
	State         types.String `tfsdk:"state"`
	Origin        types.String `tfsdk:"origin"`
}

// nodeRouteSetModel is one element of route_sets.
type nodeRouteSetModel struct {
	NodePool           types.String     `tfsdk:"node_pool"`
	SubnetID           types.String     `tfsdk:"subnet_id"`
	NetworkInterfaceID types.String     `tfsdk:"network_interface_id"`
	Source             types.String     `tfsdk:"source"`
	RouteCount         types.Int64      `tfsdk:"route_count"`
	Routes             []nodeRouteModel `tfsdk:"routes"`
}

// nodeTraceModel is one element of traces.
type nodeTraceModel struct {
	NodePool           types.String             `tfsdk:"node_pool"`
	SubnetID           types.String             `tfsdk:"subnet_id"`
	NetworkInterfaceID types.String             `tfsdk:"network_interface_id"`
	RouteSource        types.String             `tfsdk:"route_source"`
	Destination        types.String             `tfsdk:"destination"`
	SourceAddress      types.String             `tfsdk:"source_address"`
	SelectedRoute      *nodeRouteModel          `tfsdk:"selected_route"`
	Hops               []string                 `tfsdk:"hops"`
	Verdict            types.String             `tfsdk:"verdict"`
	ReturnVerdict      types.String             `tfsdk:"return_verdict"`
	ReturnNote         types.String             `tfsdk:"return_note"`
	Findings           []nodeRoutesFindingModel `tfsdk:"findings"`
	Suspected          []nodeRoutesFindingModel `tfsdk:"suspected"`
}

// nodeRoutesFindingModel is one finding (top-level findings and each
// trace's). destination is the finding's Endpoint: the traced address.
type nodeRoutesFindingModel struct {
	Code        types.String `tfsdk:"code"`
	Severity    types.String `tfsdk:"severity"`
	Condition   types.String `tfsdk:"condition"`
	Owner       types.String `tfsdk:"owner"`
	NodePool    types.String `tfsdk:"node_pool"`
	Destination types.String `tfsdk:"destination"`
	ResourceID  types.String `tfsdk:"resource_id"`
	Message     types.String `tfsdk:"message"`
	Remediation types.String `tfsdk:"remediation"`
}

// nodeRoutesStatsModel is stats.
type nodeRoutesStatsModel struct {
	ARMRequests types.Int64 `tfsdk:"arm_requests"`
	DurationMS  types.Int64 `tfsdk:"duration_ms"`
}

// nodeRoutesOutput is the computed part of the state.
type nodeRoutesOutput struct {
	RouteSets []nodeRouteSetModel
	Traces    []nodeTraceModel
	Findings  []nodeRoutesFindingModel
}

// nodeRouteToModel maps a route; a next hop address Azure does not give
// (VnetLocal, Internet, None, …) is null, as is a missing origin.
func nodeRouteToModel(r model.Route) nodeRouteModel {
	prefix := r.ServiceTag
	if r.Prefix.IsValid() {
		prefix = r.Prefix.String()
	}
	m := nodeRouteModel{
		AddressPrefix: stringOrNull(prefix),
		NextHopType:   stringOrNull(r.NextHopType),
		NextHopIP:     types.StringNull(),
		Source:        stringOrNull(r.Source),
		State:         stringOrNull(r.State),
		Origin:        stringOrNull(r.Origin),
	}
	if r.NextHopIP.IsValid() {
		m.NextHopIP = types.StringValue(r.NextHopIP.String())
	}
	return m
}

// nodeRoutesToModel maps a route list; empty, never null.
func nodeRoutesToModel(rs []model.Route) []nodeRouteModel {
	out := make([]nodeRouteModel, 0, len(rs))
	for _, r := range rs {
		out = append(out, nodeRouteToModel(r))
	}
	return out
}

// nodeFindingToModel maps a finding; empty fields are null.
func nodeFindingToModel(f model.Finding) nodeRoutesFindingModel {
	return nodeRoutesFindingModel{
		Code:        types.StringValue(string(f.Code)),
		Severity:    stringOrNull(string(f.Severity)),
		Condition:   stringOrNull(string(f.Condition)),
		Owner:       stringOrNull(string(f.Owner)),
		NodePool:    stringOrNull(f.NodePool),
		Destination: stringOrNull(f.Endpoint),
		ResourceID:  idOrNull(f.ResourceID),
		Message:     types.StringValue(f.Message),
		Remediation: stringOrNull(f.Remediation),
	}
}

func nodeFindingsToModel(fs []model.Finding) []nodeRoutesFindingModel {
	out := make([]nodeRoutesFindingModel, 0, len(fs))
	for _, f := range fs {
		out = append(out, nodeFindingToModel(f))
	}
	return out
}

// nodeRouteSetIdentity is what route_sets and traces name a set by.
func nodeRouteSetIdentity(set *model.RouteSet) (pool, subnet, nic types.String) {
	pool, subnet, nic = stringOrNull(set.Pool), idOrNull(set.SubnetID), types.StringNull()
	if set.NIC != nil {
		nic = idOrNull(set.NIC.ID)
	}
	return pool, subnet, nic
}

// nodeTraceToModel maps one trace of a set.
func nodeTraceToModel(res verify.RouteSetResult, t verify.NodeTrace) nodeTraceModel {
	pool, subnet, nic := nodeRouteSetIdentity(res.Set)
	m := nodeTraceModel{
		NodePool: pool, SubnetID: subnet, NetworkInterfaceID: nic,
		RouteSource:   types.StringValue(string(res.Source)),
		Destination:   types.StringValue(t.Destination.Text),
		SourceAddress: types.StringNull(),
		Hops:          nonNilStrings(t.Hops),
		Verdict:       types.StringValue(string(t.Verdict)),
		ReturnVerdict: stringOrNull(string(t.ReturnVerdict)),
		ReturnNote:    stringOrNull(t.ReturnNote),
		Findings:      nodeFindingsToModel(t.Findings),
		Suspected:     nodeFindingsToModel(t.Suspected),
	}
	if t.Source.IsValid() {
		m.SourceAddress = types.StringValue(t.Source.String())
	}
	if t.Selected != nil {
		sel := nodeRouteToModel(*t.Selected)
		m.SelectedRoute = &sel
	}
	return m
}

// nodeRoutesListLimit is how many routes a route set may have for its
// routes to be listed when include_routes is not set. An effective route
// table without BGP-learned routes has tens of routes (a hub's peerings,
// user-defined routes, private endpoint /32s); above this, it carries the
// routes a hub gateway learned from on premises (thousands), which every
// node pool would otherwise store in the state again, and which make a
// plan slow and large for a user who only reads the traces.
const nodeRoutesListLimit = 1000

// routeListing says which route sets list their routes.
type routeListing int

const (
	// listBounded: sets with at most nodeRoutesListLimit routes
	// (include_routes not set).
	listBounded routeListing = iota
	// listAll: every set (include_routes = true).
	listAll
	// listNone: no set (include_routes = false).
	listNone
)

// routeListingOf is include_routes as a listing.
func routeListingOf(include types.Bool) routeListing {
	switch {
	case include.IsNull() || include.IsUnknown():
		return listBounded
	case include.ValueBool():
		return listAll
	}
	return listNone
}

// lists reports whether a set with n routes lists them.
func (l routeListing) lists(n int) bool {
	return l == listAll || (l == listBounded && n <= nodeRoutesListLimit)
}

// nodeRoutesToState maps the evaluated route sets to the computed
// attributes: route_sets and traces in evaluation order, and the
// evaluation's findings (each cause once per route set, errors first).
//
// Each set's route_count is always its number of routes; its routes list
// holds them when the listing says so and is empty otherwise: a hub that
// learns thousands of BGP routes would otherwise put every one of them
// into the state once per node pool.
func nodeRoutesToState(res verify.NodeRoutesResult, listing routeListing) nodeRoutesOutput {
	out := nodeRoutesOutput{RouteSets: []nodeRouteSetModel{}, Traces: []nodeTraceModel{}}
	for _, set := range res.Sets {
		pool, subnet, nic := nodeRouteSetIdentity(set.Set)
		routes := []nodeRouteModel{}
		if listing.lists(len(set.Routes)) {
			routes = nodeRoutesToModel(set.Routes)
		}
		out.RouteSets = append(out.RouteSets, nodeRouteSetModel{
			NodePool: pool, SubnetID: subnet, NetworkInterfaceID: nic,
			Source:     types.StringValue(string(set.Source)),
			RouteCount: types.Int64Value(int64(len(set.Routes))),
			Routes:     routes,
		})
		for _, t := range set.Traces {
			out.Traces = append(out.Traces, nodeTraceToModel(set, t))
		}
	}
	out.Findings = nodeFindingsToModel(res.Findings)
	return out
}

// nonNilStrings maps nil to an empty list: a list attribute that is known
// to be empty is [], not null.
func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
