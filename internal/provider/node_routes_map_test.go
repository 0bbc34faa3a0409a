// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// A small hub and spoke for the node_routes evaluation tests: vnet-hub
// 10.0.0.0/16 (snet-nva 10.0.1.0/24 with the NVA's NIC 10.0.1.4, snet-pe
// 10.0.2.0/24 with private endpoint pe-acr 10.0.2.5) peered with vnet-spoke
// 10.1.0.0/16 (snet-aks 10.1.0.0/22).
const nrtSub = "/subscriptions/00000000-0000-0000-0000-000000000001"

var (
	nrtHub    = model.ResourceID(nrtSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub")
	nrtSpoke  = model.ResourceID(nrtSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	nrtAKS    = nrtSpoke + "/subnets/snet-aks"
	nrtNVASub = nrtHub + "/subnets/snet-nva"
	nrtPESub  = nrtHub + "/subnets/snet-pe"
	nrtNVANIC = model.ResourceID(nrtSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
	nrtPE     = model.ResourceID(nrtSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr")
)

func nrtPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

func nrtAddr(s string) netip.Addr { return netip.MustParseAddr(s) }

func nrtNetwork() *model.Network {
	n := model.NewNetwork()
	hub := &model.VNet{ID: nrtHub, Name: "vnet-hub", Location: "westeurope", AddressSpace: nrtPrefixes("10.0.0.0/16")}
	spoke := &model.VNet{ID: nrtSpoke, Name: "vnet-spoke", Location: "westeurope", AddressSpace: nrtPrefixes("10.1.0.0/16")}
	hub.Subnets = []*model.Subnet{
		{ID: nrtNVASub, VNetID: nrtHub, Name: "snet-nva", Prefixes: nrtPrefixes("10.0.1.0/24"), PrivateEndpointNetworkPolicies: "Disabled"},
		{ID: nrtPESub, VNetID: nrtHub, Name: "snet-pe", Prefixes: nrtPrefixes("10.0.2.0/24"), PrivateEndpointNetworkPolicies: "Disabled",
			PrivateEndpointIDs: []model.ResourceID{nrtPE}},
	}
	spoke.Subnets = []*model.Subnet{{ID: nrtAKS, VNetID: nrtSpoke, Name: "snet-aks", Prefixes: nrtPrefixes("10.1.0.0/22"), PrivateEndpointNetworkPolicies: "Disabled"}}
	peer := func(from, to *model.VNet, name string) *model.Peering {
		return &model.Peering{ID: from.ID + model.ResourceID("/virtualNetworkPeerings/"+name), Name: name, VNetID: from.ID, RemoteVNetID: to.ID,
			State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
			RemoteAddressSpace: to.AddressSpace, RemoteCurrentAddressSpace: to.AddressSpace}
	}
	hub.Peerings = []*model.Peering{peer(hub, spoke, "hub-to-spoke")}
	spoke.Peerings = []*model.Peering{peer(spoke, hub, "spoke-to-hub")}
	n.AddVNet(hub)
	n.AddVNet(spoke)
	peNIC := &model.NIC{ID: nrtPE + ".nic", Name: "pe-acr.nic", SubnetID: nrtPESub, PrivateIPs: []netip.Addr{nrtAddr("10.0.2.5")}, PrivateEndpointID: nrtPE}
	n.NICs[peNIC.ID.Key()] = peNIC
	n.PrivateEndpoints[nrtPE.Key()] = &model.PrivateEndpoint{ID: nrtPE, Name: "pe-acr", SubnetID: nrtPESub, NICIDs: []model.ResourceID{peNIC.ID}}
	nva := &model.NIC{ID: nrtNVANIC, Name: "nic-vm-nva", SubnetID: nrtNVASub, PrivateIPs: []netip.Addr{nrtAddr("10.0.1.4")}, IPForwarding: true,
		VMID: model.ResourceID(nrtSub + "/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-nva")}
	n.NICs[nva.ID.Key()] = nva
	return n
}

// nrtEffective is the NVA's real effective table: what the engine computes
// for its subnet, as Azure lists it (Origin as the reader sets it), plus
// extra routes.
func nrtEffective(t *testing.T, n *model.Network, extra ...model.Route) []model.Route {
	t.Helper()
	c, err := routing.EffectiveRoutes(n, nrtNVASub)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Route
	for _, r := range c.Routes {
		out = append(out, model.Route{Prefix: r.Prefix, NextHopType: r.NextHopType, NextHopIP: r.NextHopIP, Source: r.Source, State: r.State,
			Origin: "effective route (" + r.Source + ")"})
	}
	return append(out, extra...)
}

func nrtDests(ss ...string) []nodeDestination {
	out := make([]nodeDestination, len(ss))
	for i, s := range ss {
		out[i] = nodeDestination{Text: s, Addr: nrtAddr(s)}
	}
	return out
}

func nrtCodes(fs []model.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, string(f.Code))
	}
	return out
}

func TestEvaluateNodeRouteSetComputed(t *testing.T) {
	n := nrtNetwork()
	engines := newNodeEngines(n)
	system := &nodeRouteSet{Pool: "system", SubnetID: nrtAKS, Source: nrtAddr("10.1.0.4"), ComputedWhy: "it is a scale-set pool"}
	user := &nodeRouteSet{Pool: "user", SubnetID: nrtAKS, ComputedWhy: "it has no nodes"}
	if engines.forSet(system) != engines.forSet(user) {
		t.Fatal("computed sets must share one engine")
	}
	e := engines.forSet(system)
	res := evaluateNodeRouteSet(e, system, nrtDests("10.0.2.5", "192.168.1.1"))
	resUser := evaluateNodeRouteSet(e, user, nrtDests("10.0.2.5"))

	// Pools on one subnet share one computed table.
	c1, _ := e.EffectiveRoutes(nrtAKS)
	c2, _ := e.EffectiveRoutes(nrtAKS)
	if c1 != c2 || !reflect.DeepEqual(res.Routes, c1.Routes) || !reflect.DeepEqual(resUser.Routes, c1.Routes) {
		t.Errorf("pools on one subnet must share one computed table")
	}
	if res.Source != nodeRouteSourceComputed || !slices.Equal(nrtCodes(res.Findings), []string{"COVERAGE_ROUTES_COMPUTED"}) {
		t.Fatalf("source %s, findings %v", res.Source, nrtCodes(res.Findings))
	}
	if !strings.Contains(res.Findings[0].Message, "Routes for node pool system were computed from configuration (the route table of subnet vnet-spoke/snet-aks") ||
		!strings.Contains(res.Findings[0].Message, "because it is a scale-set pool") || res.Findings[0].NodePool != "system" {
		t.Errorf("coverage finding: %+v", res.Findings[0])
	}

	pe := res.Traces[0]
	if pe.Verdict != model.Reachable || pe.Selected == nil || pe.Selected.Prefix != netip.MustParsePrefix("10.0.2.5/32") ||
		pe.Source != nrtAddr("10.1.0.4") || pe.ReturnVerdict != model.Reachable || len(pe.Findings) != 0 {
		t.Errorf("trace to the private endpoint: %+v", pe)
	}
	drop := res.Traces[1]
	if drop.Verdict != model.Unreachable || !slices.Equal(nrtCodes(drop.Findings), []string{"ROUTE_BLACKHOLE"}) ||
		drop.Findings[0].Endpoint != "192.168.1.1" || drop.Findings[0].NodePool != "system" || drop.ReturnVerdict != "" {
		t.Errorf("trace to a private address nothing routes: %+v", drop)
	}
	// The pool at zero nodes starts from the subnet's first host address.
	if resUser.Traces[0].Source != nrtAddr("10.1.0.4") {
		t.Errorf("source of a pool at zero nodes: %s", resUser.Traces[0].Source)
	}
}

func TestEvaluateNodeRouteSetEffective(t *testing.T) {
	n := nrtNetwork()
	nva := n.NIC(nrtNVANIC)
	udr := model.Route{Prefix: netip.MustParsePrefix("10.1.0.0/22"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: nrtAddr("10.0.1.10"),
		Source: "User", State: "Active", Origin: "effective route (User)"}
	drop := model.Route{Prefix: netip.MustParsePrefix("10.1.1.0/24"), NextHopType: model.NextHopNone, Source: "User", State: "Active", Origin: "effective route (User)"}
	set := &nodeRouteSet{SubnetID: nrtNVASub, NIC: nva, Effective: nrtEffective(t, n, udr, drop), Source: nrtAddr("10.0.1.4")}
	res := evaluateNodeRouteSet(newNodeEngines(n).forSet(set), set, nrtDests("10.0.2.5", "10.1.0.4", "10.1.1.4"))

	if res.Source != nodeRouteSourceEffective || len(res.Findings) != 0 || !reflect.DeepEqual(res.Routes, set.Effective) {
		t.Fatalf("an effective set is its real table, without coverage note: %s %v", res.Source, nrtCodes(res.Findings))
	}
	agree := res.Traces[0]
	if agree.Verdict != model.Reachable || agree.Selected.Origin != "effective route (Default)" || len(agree.Hops) != 1 ||
		!strings.Contains(agree.Hops[0], "private endpoint pe-acr 10.0.2.5") {
		t.Errorf("where both agree the engine follows the path: %+v", agree)
	}
	// A real route the configuration lacks is followed: through the
	// appliance it names, with the drift said.
	drifted := res.Traces[1]
	if drifted.Verdict == model.Reachable || !slices.Contains(nrtCodes(drifted.Findings), "COVERAGE_MODEL_DRIFT") ||
		drifted.Selected == nil || *drifted.Selected != udr {
		t.Errorf("drift to a route the configuration lacks: %+v", drifted)
	}
	if want := "subnet vnet-hub/snet-nva → route 10.1.0.0/22 VirtualAppliance 10.0.1.10 (effective route (User)) → appliance 10.0.1.10 in vnet-hub/snet-nva"; len(drifted.Hops) != 2 || drifted.Hops[0] != want {
		t.Errorf("hops %q, want first %q", drifted.Hops, want)
	}
	for _, f := range drifted.Findings {
		if f.Code == model.CoverageModelDrift && (f.Remediation == "" || !f.ResourceID.Equal(nrtNVANIC) || f.Endpoint != "10.1.0.4") {
			t.Errorf("drift finding: %+v", f)
		}
	}
	dropped := res.Traces[2]
	if dropped.Verdict != model.Unreachable || !slices.Equal(nrtCodes(dropped.Findings), []string{"ROUTE_BLACKHOLE", "COVERAGE_MODEL_DRIFT"}) ||
		!strings.HasSuffix(dropped.Hops[0], "→ dropped") {
		t.Errorf("drift to a dropping route: %+v", dropped)
	}
}

// The real table is known but the subnet's VNet is not: the first hop is
// the real one, the rest unverified (or unreachable if it drops).
func TestEvaluateNodeRouteSetEffectiveWithoutConfiguration(t *testing.T) {
	n := nrtNetwork()
	eff := nrtEffective(t, n)
	delete(n.VNets, nrtHub.Key())
	delete(n.Subnets, nrtNVASub.Key())
	delete(n.Subnets, nrtPESub.Key())
	n.Gaps.Add(model.Gap{ResourceID: nrtHub, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403 AuthorizationFailed"})
	set := &nodeRouteSet{SubnetID: nrtNVASub, NIC: n.NIC(nrtNVANIC), Effective: eff, Source: nrtAddr("10.0.1.4")}
	res := evaluateNodeRouteSet(newNodeEngines(n).forSet(set), set, nrtDests("10.0.2.5", "172.16.0.1"))
	if len(res.Routes) != len(eff) || len(res.Findings) != 0 {
		t.Errorf("the real routes stand: %d routes, findings %v", len(res.Routes), nrtCodes(res.Findings))
	}
	if tr := res.Traces[0]; tr.Verdict != model.Unverified || !slices.Equal(nrtCodes(tr.Findings), []string{"EVIDENCE_PERMISSION_DENIED"}) ||
		!strings.Contains(tr.Hops[0], "cannot be computed from configuration") || !strings.Contains(tr.Findings[0].Message, "Microsoft.Network/virtualNetworks/read") {
		t.Errorf("real route, unknown path: %+v", tr)
	}
	if tr := res.Traces[1]; tr.Verdict != model.Unreachable || !slices.Contains(nrtCodes(tr.Findings), "ROUTE_BLACKHOLE") {
		t.Errorf("a real None route drops whatever the configuration: %+v", tr)
	}
}

func TestEvaluateNodeRouteSetBlockedAndUnreadable(t *testing.T) {
	n := nrtNetwork()
	note := model.NewFinding(model.EvidenceNotFound, "gpu", "", "/x/agentPools/gpu", "Node pool gpu reports no subnet", "fix")
	blocked := &nodeRouteSet{Pool: "gpu", Blocked: true, ComputedWhy: "its subnet is unknown", Notes: []model.Finding{note}}
	res := evaluateNodeRouteSet(newNodeEngines(n).forSet(blocked), blocked, nrtDests("10.0.2.5"))
	if len(res.Routes) != 0 || res.Routes == nil || !slices.Equal(nrtCodes(res.Findings), []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_NOT_FOUND"}) {
		t.Errorf("blocked set: routes %v, findings %v", res.Routes, nrtCodes(res.Findings))
	}
	if tr := res.Traces[0]; tr.Verdict != model.Unverified || len(tr.Hops) != 0 || tr.Hops == nil || tr.Findings[0].Endpoint != "10.0.2.5" {
		t.Errorf("blocked trace: %+v", tr)
	}

	// The subnet's VNet was refused: evidence on the set and on each trace.
	delete(n.VNets, nrtSpoke.Key())
	delete(n.Subnets, nrtAKS.Key())
	n.Gaps.Add(model.Gap{ResourceID: nrtSpoke, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403"})
	set := &nodeRouteSet{Pool: "system", SubnetID: nrtAKS, ComputedWhy: "it is a scale-set pool"}
	res = evaluateNodeRouteSet(newNodeEngines(n).forSet(set), set, nrtDests("10.0.2.5"))
	if !slices.Equal(nrtCodes(res.Findings), []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_PERMISSION_DENIED"}) || !res.Findings[1].ResourceID.Equal(nrtSpoke) {
		t.Errorf("set findings %+v", res.Findings)
	}
	if tr := res.Traces[0]; tr.Verdict != model.Unverified || tr.Selected != nil || !slices.Equal(nrtCodes(tr.Findings), []string{"EVIDENCE_PERMISSION_DENIED"}) {
		t.Errorf("trace %+v", tr)
	}
}

func TestNodeRoutesToState(t *testing.T) {
	n := nrtNetwork()
	delete(n.VNets, nrtSpoke.Key())
	delete(n.Subnets, nrtAKS.Key())
	n.Gaps.Add(model.Gap{ResourceID: nrtSpoke, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read"})
	engines := newNodeEngines(nrtNetwork())
	ok := &nodeRouteSet{Pool: "system", SubnetID: nrtAKS, Source: nrtAddr("10.1.0.4")}
	okRes := evaluateNodeRouteSet(engines.forSet(ok), ok, nrtDests("10.0.2.5", "192.168.1.1"))
	denied := &nodeRouteSet{Pool: "user", SubnetID: nrtAKS}
	deniedRes := evaluateNodeRouteSet(newNodeEngines(n).forSet(denied), denied, nrtDests("10.0.2.5", "192.168.1.1"))

	out := nodeRoutesToState([]nodeRouteSetResult{okRes, deniedRes}, true)
	if len(out.RouteSets) != 2 || len(out.Traces) != 4 {
		t.Fatalf("%d route sets, %d traces", len(out.RouteSets), len(out.Traces))
	}
	if s := out.RouteSets[0]; s.NodePool.ValueString() != "system" || s.SubnetID.ValueString() != string(nrtAKS) || !s.NetworkInterfaceID.IsNull() ||
		s.Source.ValueString() != "computed" || len(s.Routes) != len(okRes.Routes) {
		t.Errorf("route set 0: %+v", s)
	}
	if r := out.RouteSets[1].Routes; r == nil || len(r) != 0 {
		t.Errorf("unknown routes are an empty list: %#v", r)
	}
	// Errors first; each cause once per set: the user pool's evidence is
	// reported once (without destination), not again for each trace.
	var got []string
	for _, f := range out.Findings {
		got = append(got, f.Code.ValueString()+"/"+f.NodePool.ValueString()+"/"+f.Destination.ValueString())
	}
	want := []string{"ROUTE_BLACKHOLE/system/192.168.1.1", "EVIDENCE_PERMISSION_DENIED/user/",
		"COVERAGE_ROUTES_COMPUTED/system/", "COVERAGE_ROUTES_COMPUTED/user/"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if !out.Findings[1].Destination.IsNull() {
		t.Errorf("a set-level finding has a null destination")
	}
	// Each trace keeps its own findings.
	tr := out.Traces[2]
	if tr.NodePool.ValueString() != "user" || tr.Verdict.ValueString() != "unverified" || tr.SelectedRoute != nil ||
		len(tr.Findings) != 1 || tr.Findings[0].Destination.ValueString() != "10.0.2.5" || !tr.ReturnVerdict.IsNull() {
		t.Errorf("trace 2: %+v", tr)
	}
	if tr := out.Traces[0]; tr.SelectedRoute == nil || tr.SelectedRoute.AddressPrefix.ValueString() != "10.0.2.5/32" ||
		tr.SourceAddress.ValueString() != "10.1.0.4" || tr.RouteSource.ValueString() != "computed" || tr.Hops == nil || tr.Suspected == nil {
		t.Errorf("trace 0: %+v", tr)
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

func TestNodeRoutesGapFinding(t *testing.T) {
	f := nodeRoutesGapFinding(model.Gap{ResourceID: nrtSpoke, Kind: model.GapPermissionDenied, Detail: "HTTP 403 AuthorizationFailed"},
		"system", "10.0.2.5", "the routes of subnet vnet-spoke/snet-aks")
	if f.Code != model.EvidencePermissionDenied ||
		f.Message != "Reading virtualNetworks vnet-spoke ("+string(nrtSpoke)+") was refused (HTTP 403 AuthorizationFailed): the identity running the "+
			"plan lacks Microsoft.Network/virtualNetworks/read. The conclusion for node pool system and 10.0.2.5 depends on the routes of subnet "+
			"vnet-spoke/snet-aks, so it is unverified, never reachable." ||
		!strings.HasPrefix(f.Remediation, "Grant the identity that runs the plan Microsoft.Network/virtualNetworks/read on "+string(nrtSpoke)) {
		t.Errorf("permission denied: %+v", f)
	}
	if f := nodeRoutesGapFinding(model.Gap{ResourceID: nrtAKS, Kind: model.GapNotFound}, "", "", "x"); f.Code != model.EvidenceNotFound ||
		!strings.HasPrefix(f.Message, "Subnets snet-aks (") {
		t.Errorf("not found: %+v", f)
	}
	if f := nodeRoutesGapFinding(model.Gap{ResourceID: nrtAKS, Kind: model.GapUnavailable, Detail: "HTTP 429"}, "", "", "x"); f.Code != model.EvidenceUnavailable ||
		!strings.Contains(f.Message, "kept failing after retries (HTTP 429)") {
		t.Errorf("unavailable: %+v", f)
	}
}

func TestNodeResourceLabel(t *testing.T) {
	for id, want := range map[model.ResourceID]string{
		nrtSpoke:                           "virtualNetworks vnet-spoke",
		nrtAKS:                             "subnets snet-aks",
		nrtNVANIC + "/effectiveRouteTable": "effectiveRouteTable of networkInterfaces nic-vm-nva",
		model.ResourceID(nrtSub + "/resourceGroups/MC_rg/providers/Microsoft.Network/virtualNetworks"): "the virtualNetworks of resource group MC_rg",
		"": "an unnamed resource",
	} {
		if got := nodeResourceLabel(id); got != want {
			t.Errorf("nodeResourceLabel(%s) = %q, want %q", id, got, want)
		}
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
		got := checkDestination(s)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("checkDestination(%q) = %q, want %q", s, got, want)
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

func TestRoutesComputedFinding(t *testing.T) {
	f := routesComputedFinding(&nodeRouteSet{SubnetID: nrtAKS, NIC: &model.NIC{ID: nrtNVANIC, Name: "nic-vm-nva"}, ComputedWhy: "it is attached to no virtual machine"})
	if !strings.HasPrefix(f.Message, "Routes for network interface nic-vm-nva were computed from configuration (the route table of subnet vnet-spoke/snet-aks,") ||
		!f.ResourceID.Equal(nrtNVANIC) || f.Severity != model.SeverityInfo {
		t.Errorf("got %+v", f)
	}
	if f := routesComputedFinding(&nodeRouteSet{Pool: "gpu", Blocked: true}); !strings.Contains(f.Message, "an unknown subnet") ||
		!strings.Contains(f.Message, "Azure gave no effective route table") {
		t.Errorf("got %+v", f)
	}
}

// Security groups on node_routes traces: every level that applies must
// allow; the groups passed show in the hops; a denial names the rule; a
// NIC-level group of a scale set's NIC configuration counts; a destination
// whose NIC could not be looked for is unverified, never reachable.
func TestEvaluateNodeRouteSetSecurity(t *testing.T) {
	nsgID := func(name string) model.ResourceID {
		return model.ResourceID(nrtSub + "/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/" + name)
	}
	rule := func(name string, prio int32, dir, access, dst string) model.SecurityRule {
		return model.SecurityRule{Name: name, Priority: prio, Direction: dir, Access: access, Protocol: "Tcp",
			SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{dst}, SourcePorts: []string{"*"}, DestinationPorts: []string{"443"}}
	}
	tests := []struct {
		name    string
		edit    func(n *model.Network, set *nodeRouteSet, ne *nodeEngines)
		dest    string
		verdict model.Verdict
		codes   []string
		hop     string
	}{
		{
			name: "subnet group allows by its rule; the hop shows it",
			edit: func(n *model.Network, _ *nodeRouteSet, _ *nodeEngines) {
				g := nsgID("nsg-aks")
				n.SecurityGroups[g.Key()] = &model.SecurityGroup{ID: g, Name: "nsg-aks", Rules: []model.SecurityRule{rule("AllowHub", 200, "Outbound", "Allow", "10.0.0.0/16")}}
				n.Subnet(nrtAKS).NSGID = g
			},
			dest: "10.0.2.5", verdict: model.Reachable, codes: []string{}, hop: "nsg nsg-aks (subnet) allows TCP 443 by rule AllowHub (200)",
		},
		{
			name: "scale-set NIC configuration group denies",
			edit: func(n *model.Network, set *nodeRouteSet, _ *nodeEngines) {
				g := nsgID("aks-agentpool-nsg")
				n.SecurityGroups[g.Key()] = &model.SecurityGroup{ID: g, Name: "aks-agentpool-nsg", Rules: []model.SecurityRule{rule("DenyPE", 300, "Outbound", "Deny", "10.0.2.0/24")}}
				set.NICGroupID = g
			},
			dest: "10.0.2.5", verdict: model.Unreachable, codes: []string{"SECURITY_RULE_OUTBOUND_DENIED"},
			hop: "nsg aks-agentpool-nsg (nic) denies TCP 443 by rule DenyPE (300, outbound)",
		},
		{
			name: "destination NIC group denies inbound",
			edit: func(n *model.Network, _ *nodeRouteSet, _ *nodeEngines) {
				g := nsgID("nsg-nva")
				n.SecurityGroups[g.Key()] = &model.SecurityGroup{ID: g, Name: "nsg-nva", Rules: []model.SecurityRule{rule("DenyIn", 100, "Inbound", "Deny", "*")}}
				n.NIC(nrtNVANIC).NSGID = g
			},
			dest: "10.0.1.4", verdict: model.Unreachable, codes: []string{"SECURITY_RULE_INBOUND_DENIED"},
		},
		{
			name: "group that could not be read",
			edit: func(n *model.Network, _ *nodeRouteSet, _ *nodeEngines) {
				n.Subnet(nrtAKS).NSGID = nsgID("nsg-unread")
			},
			dest: "10.0.2.5", verdict: model.Unverified, codes: []string{"EVIDENCE_NOT_FOUND"},
		},
		{
			name: "scale set not read: the NIC configuration's group is unknown",
			edit: func(_ *model.Network, set *nodeRouteSet, _ *nodeEngines) {
				set.NICGroupGap = &model.Gap{ResourceID: model.ResourceID(nrtSub + "/resourceGroups/MC_rg/providers/Microsoft.Compute/virtualMachineScaleSets"),
					Kind: model.GapPermissionDenied, Detail: "403"}
			},
			dest: "10.0.2.5", verdict: model.Unverified, codes: []string{"EVIDENCE_PERMISSION_DENIED"},
		},
		{
			name: "destination NIC unknown",
			edit: func(n *model.Network, _ *nodeRouteSet, _ *nodeEngines) {
				n.AddAddressGap(nrtAddr("10.0.1.9"), model.Gap{ResourceID: nrtNVASub, Kind: model.GapPermissionDenied, Detail: "403"})
			},
			dest: "10.0.1.9", verdict: model.Unverified, codes: []string{"EVIDENCE_PERMISSION_DENIED"},
		},
		{
			name: "destination NIC unknown does not matter for a known private endpoint",
			edit: func(n *model.Network, _ *nodeRouteSet, _ *nodeEngines) {
				n.AddAddressGap(nrtAddr("10.0.2.5"), model.Gap{ResourceID: nrtPESub, Kind: model.GapPermissionDenied, Detail: "403"})
			},
			dest: "10.0.2.5", verdict: model.Reachable, codes: []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := nrtNetwork()
			set := &nodeRouteSet{Pool: "system", SubnetID: nrtAKS, Source: nrtAddr("10.1.0.4"), ComputedWhy: "it is a scale-set pool"}
			ne := newNodeEngines(n)
			tc.edit(n, set, ne)
			res := evaluateNodeRouteSet(ne.forSet(set), set, nrtDests(tc.dest))
			tr := res.Traces[0]
			if tr.Verdict != tc.verdict || !slices.Equal(nrtCodes(tr.Findings), tc.codes) {
				t.Fatalf("verdict %s codes %v, want %s %v: %+v", tr.Verdict, nrtCodes(tr.Findings), tc.verdict, tc.codes, tr.Findings)
			}
			for _, f := range tr.Findings {
				if f.NodePool != "system" || f.Endpoint != tc.dest {
					t.Errorf("finding not about the pool and destination: %+v", f)
				}
			}
			if tc.hop != "" && !slices.Contains(tr.Hops, tc.hop) {
				t.Errorf("no hop %q in %q", tc.hop, tr.Hops)
			}
		})
	}
}
