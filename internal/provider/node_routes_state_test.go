// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

const nrtSub = "/subscriptions/00000000-0000-0000-0000-000000000001"

var (
	nrtAKS    = model.ResourceID(nrtSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-aks")
	nrtNVANIC = model.ResourceID(nrtSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
)

func nrtAddr(s string) netip.Addr { return netip.MustParseAddr(s) }

// The state holds every route set and trace in evaluation order, with the
// evaluation's findings; unknown values are null, lists are never null.
func TestNodeRoutesToState(t *testing.T) {
	peRoute := model.Route{Prefix: netip.MustParsePrefix("10.0.2.5/32"), NextHopType: "InterfaceEndpoint", Source: "Default", State: "Active",
		Origin: "private endpoint pe-acr"}
	defaultRoute := model.Route{Prefix: netip.MustParsePrefix("0.0.0.0/0"), NextHopType: "Internet", Source: "Default", State: "Active"}
	blackhole := model.NewFinding(model.RouteBlackhole, "system", "192.168.1.1", nrtAKS, "dropped", "fix")
	computed := model.NewFinding(model.CoverageRoutesComputed, "system", "", nrtAKS, "computed", "")
	nic := &model.NIC{ID: nrtNVANIC, Name: "nic-vm-nva"}
	res := verify.NodeRoutesResult{
		Sets: []verify.RouteSetResult{
			{Set: &model.RouteSet{Pool: "system", SubnetID: nrtAKS}, Source: verify.RouteSourceComputed, Routes: []model.Route{peRoute, defaultRoute},
				Findings: []model.Finding{computed},
				Traces: []verify.NodeTrace{
					{Destination: verify.Destination{Text: "10.0.2.5", Addr: nrtAddr("10.0.2.5")}, Source: nrtAddr("10.1.0.4"), Selected: &peRoute,
						Hops: []string{"subnet vnet-spoke/snet-aks → route 10.0.2.5/32 InterfaceEndpoint"}, Verdict: model.Reachable,
						ReturnVerdict: model.Reachable, ReturnNote: "back by the peering"},
					{Destination: verify.Destination{Text: "::ffff:192.168.1.1", Addr: nrtAddr("192.168.1.1")}, Verdict: model.Unreachable,
						Findings: []model.Finding{blackhole}},
				}},
			{Set: &model.RouteSet{SubnetID: nrtAKS, NIC: nic}, Source: verify.RouteSourceEffective, Routes: []model.Route{defaultRoute}},
		},
		Findings: []model.Finding{blackhole, computed},
	}

	for _, include := range []bool{true, false} {
		listing := listNone
		if include {
			listing = listAll
		}
		out := nodeRoutesToState(res, listing)
		if len(out.RouteSets) != 2 || len(out.Traces) != 2 || len(out.Findings) != 2 {
			t.Fatalf("%d route sets, %d traces, %d findings", len(out.RouteSets), len(out.Traces), len(out.Findings))
		}
		s := out.RouteSets[0]
		if s.NodePool.ValueString() != "system" || s.SubnetID.ValueString() != string(nrtAKS) || !s.NetworkInterfaceID.IsNull() ||
			s.Source.ValueString() != "computed" || s.RouteCount.ValueInt64() != 2 || s.Routes == nil || (len(s.Routes) == 2) != include {
			t.Errorf("include_routes %v: route set 0: %+v", include, s)
		}
		if s := out.RouteSets[1]; !s.NodePool.IsNull() || s.NetworkInterfaceID.ValueString() != string(nrtNVANIC) || s.Source.ValueString() != "effective" ||
			s.RouteCount.ValueInt64() != 1 {
			t.Errorf("route set 1: %+v", s)
		}
	}

	out := nodeRoutesToState(res, listAll)
	if got := []string{out.Findings[0].Code.ValueString(), out.Findings[1].Code.ValueString()}; !slices.Equal(got, []string{"ROUTE_BLACKHOLE", "COVERAGE_ROUTES_COMPUTED"}) {
		t.Errorf("findings in the evaluation's order: %v", got)
	}
	if tr := out.Traces[0]; tr.NodePool.ValueString() != "system" || tr.RouteSource.ValueString() != "computed" || tr.Destination.ValueString() != "10.0.2.5" ||
		tr.SourceAddress.ValueString() != "10.1.0.4" || tr.SelectedRoute == nil || tr.SelectedRoute.AddressPrefix.ValueString() != "10.0.2.5/32" ||
		len(tr.Hops) != 1 || tr.ReturnVerdict.ValueString() != "reachable" || tr.ReturnNote.ValueString() != "back by the peering" ||
		tr.Findings == nil || tr.Suspected == nil {
		t.Errorf("trace 0: %+v", tr)
	}
	// The destination as written; unknown values null, lists empty.
	if tr := out.Traces[1]; tr.Destination.ValueString() != "::ffff:192.168.1.1" || !tr.SourceAddress.IsNull() || tr.SelectedRoute != nil ||
		tr.Hops == nil || len(tr.Hops) != 0 || !tr.ReturnVerdict.IsNull() || !tr.ReturnNote.IsNull() || tr.Verdict.ValueString() != "unreachable" ||
		len(tr.Findings) != 1 || tr.Findings[0].Destination.ValueString() != "192.168.1.1" {
		t.Errorf("trace 1: %+v", tr)
	}
	if empty := nodeRoutesToState(verify.NodeRoutesResult{}, listAll); empty.RouteSets == nil || empty.Traces == nil || empty.Findings == nil {
		t.Errorf("no route sets must be empty lists: %+v", empty)
	}
}

// Without include_routes, a set lists its routes up to
// nodeRoutesListLimit of them; a set beyond (a hub's thousands of learned
// routes) lists none, and route_count says how many it has. include_routes
// true lists every set, false none.
func TestNodeRoutesListing(t *testing.T) {
	routes := func(n int) []model.Route {
		out := make([]model.Route, n)
		for i := range out {
			out[i] = model.Route{Prefix: netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(128 + i/256), byte(i % 256), 0}), 24),
				NextHopType: "VirtualNetworkGateway", Source: "VirtualNetworkGateway", State: "Active"}
		}
		return out
	}
	res := verify.NodeRoutesResult{Sets: []verify.RouteSetResult{
		{Set: &model.RouteSet{Pool: "small", SubnetID: nrtAKS}, Source: verify.RouteSourceComputed, Routes: routes(18)},
		{Set: &model.RouteSet{Pool: "limit", SubnetID: nrtAKS}, Source: verify.RouteSourceComputed, Routes: routes(nodeRoutesListLimit)},
		{Set: &model.RouteSet{Pool: "large", SubnetID: nrtAKS}, Source: verify.RouteSourceComputed, Routes: routes(nodeRoutesListLimit + 1)},
	}}
	for _, tc := range []struct {
		include types.Bool
		listed  []int
	}{
		{types.BoolNull(), []int{18, nodeRoutesListLimit, 0}},
		{types.BoolValue(true), []int{18, nodeRoutesListLimit, nodeRoutesListLimit + 1}},
		{types.BoolValue(false), []int{0, 0, 0}},
	} {
		out := nodeRoutesToState(res, routeListingOf(tc.include))
		for i, set := range out.RouteSets {
			if len(set.Routes) != tc.listed[i] || set.Routes == nil || set.RouteCount.ValueInt64() != int64(len(res.Sets[i].Routes)) {
				t.Errorf("include_routes %s, set %s: %d routes listed, want %d; route_count %d", tc.include, set.NodePool,
					len(set.Routes), tc.listed[i], set.RouteCount.ValueInt64())
			}
		}
	}
	if got := limitText(nodeRoutesListLimit); got != "1,000" {
		t.Errorf("limit written %q", got)
	}
}

func TestNodeRouteToModel(t *testing.T) {
	got := nodeRouteToModel(model.Route{Prefix: netip.MustParsePrefix("192.168.0.0/16"), NextHopType: "VirtualNetworkGateway",
		NextHopIP: nrtAddr("10.0.0.30"), Source: "VirtualNetworkGateway", State: "Active", Origin: "gateway vpngw"})
	want := nodeRouteModel{AddressPrefix: types.StringValue("192.168.0.0/16"), NextHopType: types.StringValue("VirtualNetworkGateway"),
		NextHopIP: types.StringValue("10.0.0.30"), Source: types.StringValue("VirtualNetworkGateway"), State: types.StringValue("Active"),
		Origin: types.StringValue("gateway vpngw")}
	if got != want {
		t.Errorf("got %+v", got)
	}
	tag := nodeRouteToModel(model.Route{ServiceTag: "AzureCloud.westeurope", NextHopType: "Internet", Source: "User"})
	if tag.AddressPrefix.ValueString() != "AzureCloud.westeurope" || !tag.NextHopIP.IsNull() || !tag.State.IsNull() || !tag.Origin.IsNull() {
		t.Errorf("service tag route: %+v", tag)
	}
	if r := nodeRoutesToModel(nil); r == nil || len(r) != 0 {
		t.Errorf("no routes must be an empty list, got %#v", r)
	}
}

func TestNodeFindingToModel(t *testing.T) {
	f := nodeFindingToModel(model.NewFinding(model.CoverageRoutesComputed, "", "", "", "msg", ""))
	if f.Code.ValueString() != "COVERAGE_ROUTES_COMPUTED" || f.Severity.ValueString() != "info" || f.Condition.ValueString() != "coverage" ||
		f.Owner.ValueString() != "operator" || !f.NodePool.IsNull() || !f.Destination.IsNull() || !f.ResourceID.IsNull() || !f.Remediation.IsNull() ||
		f.Message.ValueString() != "msg" {
		t.Errorf("got %+v", f)
	}
	f = nodeFindingToModel(model.NewFinding(model.RouteBlackhole, "system", "10.0.2.5", nrtAKS, "m", "r"))
	if f.NodePool.ValueString() != "system" || f.Destination.ValueString() != "10.0.2.5" || f.ResourceID.ValueString() != string(nrtAKS) {
		t.Errorf("got %+v", f)
	}
}

func TestCheckDestination(t *testing.T) {
	for s, want := range map[string]string{
		"10.0.2.5":              "",
		"fd00::5":               "",
		"::ffff:10.0.2.5":       "",
		"10.0.2.0/24":           "is a prefix",
		"contosoreg.azurecr.io": "registry_endpoints",
		" 10.0.2.5":             "leading or trailing spaces",
		"10.0.2":                "is not an IP address (IPv4",
		"fe80::1%eth0":          "IPv6 zone",
		"127.0.0.1":             "loopback",
		"0.0.0.0":               "unspecified",
		"224.0.0.1":             "multicast",
	} {
		got := validators.CheckDestination(s)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("validators.CheckDestination(%q) = %q, want %q", s, got, want)
		}
	}
	dests, diags := nodeDestinations([]string{"10.0.2.5", "::ffff:10.0.2.6"})
	if diags.HasError() || dests[1].Text != "::ffff:10.0.2.6" || dests[1].Addr != nrtAddr("10.0.2.6") {
		t.Errorf("destinations %+v, %v", dests, diags)
	}
	if _, diags := nodeDestinations([]string{"10.0.2.5", "nope"}); !diags.HasError() {
		t.Error("want an error for an invalid destination")
	}
}

// A request whose resource cannot be used fails on the argument that names
// it, saying what happened; the timeout of the route sets' reading is not
// one of them (the data source reports it as such).
func TestNodeRoutesRequestError(t *testing.T) {
	cluster := model.ResourceID(nrtSub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1")
	byCluster := gather.NodeRoutesRequest{ClusterID: cluster, NodePool: "gpu"}
	bySubnet := gather.NodeRoutesRequest{SubnetID: nrtAKS}
	byNIC := gather.NodeRoutesRequest{NICID: nrtNVANIC}
	tests := []struct {
		name    string
		q       gather.NodeRoutesRequest
		err     error
		attr    string
		summary string
		detail  []string
	}{
		{"cluster read timed out", byCluster, &gather.TargetError{ID: cluster, Named: cluster, Err: context.DeadlineExceeded},
			"cluster_id", "Timed out reading the AKS cluster", []string{string(cluster), "timeouts"}},
		{"cluster refused", byCluster, &gather.TargetError{ID: cluster, Named: cluster, Err: errors.New("403")},
			"cluster_id", "Permission denied reading the AKS cluster", []string{"Microsoft.ContainerService/managedClusters/read"}},
		{"subnet not in its VNet", bySubnet, &gather.TargetError{ID: nrtAKS, Named: nrtAKS,
			Gap: &model.Gap{ResourceID: nrtAKS, Kind: model.GapNotFound, Detail: "not in its virtual network"}},
			"subnet_id", "The subnet does not exist", []string{string(nrtAKS), "not in its virtual network"}},
		{"unknown pool", byCluster, &gather.PoolNotFoundError{Cluster: &model.Cluster{ID: cluster, Name: "aks1"}, Name: "gpu",
			Pools: []string{"system", "user"}, ListGap: &model.Gap{Detail: "HTTP 403"}},
			"node_pool", "Node pool not found", []string{`no node pool named "gpu"`, "Its node pools are: system, user", "could not be listed (HTTP 403)"}},
		{"NIC without subnet", byNIC, &gather.NICWithoutSubnetError{NIC: &model.NIC{ID: nrtNVANIC}},
			"network_interface_id", "Network interface without a subnet", []string{string(nrtNVANIC), "subnet_id"}},
	}
	gaps := model.Gaps{}
	gaps.Add(model.Gap{ResourceID: cluster, Kind: model.GapPermissionDenied, Permission: "Microsoft.ContainerService/managedClusters/read"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := nodeRoutesRequestError(tc.q, tc.err, gaps, time.Minute)
			wp, ok := d.(diag.DiagnosticWithPath)
			if d == nil || !ok || !wp.Path().Equal(path.Root(tc.attr)) || d.Severity() != diag.SeverityError || d.Summary() != tc.summary {
				t.Fatalf("diagnostic %+v", d)
			}
			for _, w := range tc.detail {
				if !strings.Contains(d.Detail(), w) {
					t.Errorf("detail %q lacks %q", d.Detail(), w)
				}
			}
		})
	}
	for _, err := range []error{nil, context.DeadlineExceeded} {
		if d := nodeRoutesRequestError(byCluster, err, gaps, time.Minute); d != nil {
			t.Errorf("%v is not a request error: %+v", err, d)
		}
	}
}
