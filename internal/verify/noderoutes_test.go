// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

// The network of the node_routes evaluation tests: vnet-hub 10.0.0.0/16
// (snet-nva 10.0.1.0/24 with the NVA's NIC 10.0.1.4, snet-pe 10.0.2.0/24
// with private endpoint pe-acr 10.0.2.5) peered with vnet-spoke 10.1.0.0/16
// (snet-aks 10.1.0.0/22).
var (
	nrNVANIC = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
	nrVMSSs  = id("/resourceGroups/MC_rg/providers/Microsoft.Compute/virtualMachineScaleSets")
)

func nrNetwork() *model.Network {
	n := model.NewNetwork()
	hub := &model.VNet{ID: hubID, Name: "vnet-hub", Location: "westeurope", AddressSpace: pfxs("10.0.0.0/16"),
		Subnets:  []*model.Subnet{subnet(hubID, "snet-nva", "10.0.1.0/24"), subnet(hubID, "snet-pe", "10.0.2.0/24")},
		Peerings: []*model.Peering{peering(hubID, spokeID, "hub-to-spoke", "10.1.0.0/16")}}
	hub.Subnets[1].PrivateEndpointIDs = []model.ResourceID{peID}
	spoke := &model.VNet{ID: spokeID, Name: "vnet-spoke", Location: "westeurope", AddressSpace: pfxs("10.1.0.0/16"),
		Subnets:  []*model.Subnet{subnet(spokeID, "snet-aks", "10.1.0.0/22")},
		Peerings: []*model.Peering{peering(spokeID, hubID, "spoke-to-hub", "10.0.0.0/16")}}
	n.AddVNet(hub)
	n.AddVNet(spoke)
	n.NICs[peNICID.Key()] = &model.NIC{ID: peNICID, Name: "pe-acr.nic", SubnetID: peSubnetID, PrivateIPs: ips("10.0.2.5"), PrivateEndpointID: peID}
	n.PrivateEndpoints[peID.Key()] = &model.PrivateEndpoint{ID: peID, Name: "pe-acr", SubnetID: peSubnetID, NICIDs: []model.ResourceID{peNICID}}
	n.NICs[nrNVANIC.Key()] = &model.NIC{ID: nrNVANIC, Name: "nic-vm-nva", SubnetID: nvaSubnetID, PrivateIPs: ips("10.0.1.4"), IPForwarding: true,
		VMID: id("/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-nva")}
	return n
}

// nrEffective is the NVA's real effective table: what the engine computes
// for its subnet, as Azure lists it (Origin as the reader sets it), plus
// extra routes.
func nrEffective(t *testing.T, n *model.Network, extra ...model.Route) []model.Route {
	t.Helper()
	c, err := routing.EffectiveRoutes(n, nvaSubnetID)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Route
	for _, r := range c.Routes() {
		out = append(out, model.Route{Prefix: r.Prefix, NextHopType: r.NextHopType, NextHopIP: r.NextHopIP, Source: r.Source, State: r.State,
			Origin: "effective route (" + r.Source + ")"})
	}
	return append(out, extra...)
}

func nrDests(ss ...string) []Destination {
	out := make([]Destination, len(ss))
	for i, s := range ss {
		out[i] = Destination{Text: s, Addr: ip(s)}
	}
	return out
}

func nrCodes(fs []model.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, string(f.Code))
	}
	return out
}

// A scale-set pool: its routes computed, the ones of the set's subnet.
func nrScaleSetPool() *model.RouteSet {
	return &model.RouteSet{Pool: "system", SubnetID: aksSubnetID, Source: ip("10.1.0.4"), Computed: model.ComputedScaleSetPool}
}

// The NVA's NIC with its real effective table.
func nrNVASet(t *testing.T, n *model.Network, extra ...model.Route) *model.RouteSet {
	return &model.RouteSet{SubnetID: nvaSubnetID, NIC: n.NIC(nrNVANIC), NodeNIC: n.NIC(nrNVANIC), Effective: nrEffective(t, n, extra...), Source: ip("10.0.1.4")}
}

func denyVNet(n *model.Network, vnet *model.VNet) {
	delete(n.VNets, vnet.ID.Key())
	for _, s := range vnet.Subnets {
		delete(n.Subnets, s.ID.Key())
	}
	n.Gaps.Add(model.Gap{ResourceID: vnet.ID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403 AuthorizationFailed"})
}

type nrTraceWant struct {
	verdict model.Verdict
	codes   []string
}

// Each kind of route set, evaluated over model facts: where its routes come
// from, what the set reports, and each trace's verdict and findings.
func TestNodeRoutesRouteSets(t *testing.T) {
	udr := model.Route{Prefix: pfx("10.1.0.0/22"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.10"),
		Source: "User", State: "Active", Origin: "effective route (User)"}
	drop := model.Route{Prefix: pfx("10.1.1.0/24"), NextHopType: model.NextHopNone, Source: "User", State: "Active", Origin: "effective route (User)"}
	cluster := &model.Cluster{ID: clusterID, Name: "aks1", NodeResourceGroup: "MC_rg"}
	tests := []struct {
		name string
		// facts returns the facts over nrNetwork(); the first set is checked.
		facts    func(t *testing.T, n *model.Network) model.NodeRouteFacts
		dests    []string
		source   RouteSource
		setCodes []string
		traces   []nrTraceWant
		check    func(t *testing.T, res RouteSetResult)
	}{
		{
			name: "scale-set pool: computed routes, traced by the engine",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{nrScaleSetPool()}, Network: n}
			},
			dests: []string{"10.0.2.5", "192.168.1.1"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED"},
			traces: []nrTraceWant{{model.Reachable, []string{}}, {model.Unreachable, []string{"ROUTE_BLACKHOLE"}}},
			check: func(t *testing.T, res RouteSetResult) {
				c := res.Findings[0]
				if !strings.Contains(c.Message, "Routes for node pool system were computed from configuration (the route table of subnet vnet-spoke/snet-aks") ||
					!strings.Contains(c.Message, "because it is a scale-set pool, and scale-set instance network interfaces have no effective-route API") ||
					c.NodePool != "system" || !c.ResourceID.Equal(aksSubnetID) {
					t.Errorf("coverage finding: %+v", c)
				}
				pe := res.Traces[0]
				if pe.Selected == nil || pe.Selected.Prefix != pfx("10.0.2.5/32") || pe.Source != ip("10.1.0.4") || pe.ReturnVerdict != model.Reachable ||
					len(pe.Hops) == 0 || pe.Hops == nil || pe.Suspected == nil {
					t.Errorf("trace to the private endpoint: %+v", pe)
				}
				if f := res.Traces[1].Findings[0]; f.Endpoint != "192.168.1.1" || f.NodePool != "system" || res.Traces[1].ReturnVerdict != "" {
					t.Errorf("trace to a private address nothing routes: %+v", res.Traces[1])
				}
			},
		},
		{
			name: "pool at zero nodes: flows start at the subnet's first host address",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				user := &model.RouteSet{Pool: "user", SubnetID: aksSubnetID, Computed: model.ComputedNoNodes}
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{user}, Network: n}
			},
			dests: []string{"10.0.2.5"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED"},
			traces: []nrTraceWant{{model.Reachable, []string{}}},
			check: func(t *testing.T, res RouteSetResult) {
				if res.Traces[0].Source != ip("10.1.0.4") {
					t.Errorf("source of a pool at zero nodes: %s", res.Traces[0].Source)
				}
				if !strings.Contains(res.Findings[0].Message, "because it has no nodes") {
					t.Errorf("coverage finding: %s", res.Findings[0].Message)
				}
			},
		},
		{
			name: "effective table: traced with the real routes, drift said where the configuration differs",
			facts: func(t *testing.T, n *model.Network) model.NodeRouteFacts {
				return model.NodeRouteFacts{Sets: []*model.RouteSet{nrNVASet(t, n, udr, drop)}, Network: n}
			},
			dests: []string{"10.0.2.5", "10.1.0.4", "10.1.1.4"}, source: RouteSourceEffective, setCodes: []string{},
			traces: []nrTraceWant{
				{model.Reachable, []string{}},
				{model.Unreachable, []string{"COVERAGE_MODEL_DRIFT", "RETURN_ROUTE_ASYMMETRIC", "EVIDENCE_NOT_FOUND"}},
				{model.Unreachable, []string{"ROUTE_BLACKHOLE", "COVERAGE_MODEL_DRIFT"}},
			},
			check: func(t *testing.T, res RouteSetResult) {
				if !reflect.DeepEqual(res.Routes, res.Set.Effective) {
					t.Errorf("an effective set's routes are its real table")
				}
				agree := res.Traces[0]
				if agree.Selected.Origin != "effective route (Default)" || len(agree.Hops) != 1 || !strings.Contains(agree.Hops[0], "private endpoint pe-acr 10.0.2.5") {
					t.Errorf("where both agree the engine follows the path: %+v", agree)
				}
				// A real route the configuration lacks is followed: through
				// the appliance it names, with the drift said.
				drifted := res.Traces[1]
				if drifted.Selected == nil || *drifted.Selected != udr {
					t.Errorf("drift to a route the configuration lacks: %+v", drifted)
				}
				if want := "subnet vnet-hub/snet-nva → route 10.1.0.0/22 VirtualAppliance 10.0.1.10 (effective route (User)) → appliance 10.0.1.10 in vnet-hub/snet-nva"; len(drifted.Hops) != 2 || drifted.Hops[0] != want {
					t.Errorf("hops %q, want first %q", drifted.Hops, want)
				}
				if f := drifted.Findings[0]; f.Remediation == "" || !f.ResourceID.Equal(nrNVANIC) || f.Endpoint != "10.1.0.4" ||
					!strings.Contains(f.Message, "the routes computed from configuration select route 10.1.0.0/16 VNetPeering (peering hub-to-spoke)") {
					t.Errorf("drift finding: %+v", f)
				}
				// A real route that drops is a drop, whatever the
				// configuration would select.
				dropped := res.Traces[2]
				if !strings.HasSuffix(dropped.Hops[0], "→ dropped") || !dropped.Findings[0].ResourceID.Equal(nrNVANIC) ||
					!strings.Contains(dropped.Findings[0].Message, "route 10.1.1.0/24 None (effective route (User)) is selected for 10.1.1.4, so Azure drops the packet") ||
					!strings.Contains(dropped.Findings[0].Message, "The configuration would select route 10.1.0.0/16 VNetPeering") {
					t.Errorf("drift to a dropping route: %+v", dropped)
				}
			},
		},
		{
			name: "effective table without configuration: the real first hop, the rest unverified",
			facts: func(t *testing.T, n *model.Network) model.NodeRouteFacts {
				set := nrNVASet(t, n)
				denyVNet(n, n.VNet(hubID))
				return model.NodeRouteFacts{Sets: []*model.RouteSet{set}, Network: n}
			},
			dests: []string{"10.0.2.5", "172.16.0.1"}, source: RouteSourceEffective, setCodes: []string{},
			traces: []nrTraceWant{
				{model.Unverified, []string{"EVIDENCE_PERMISSION_DENIED"}},
				{model.Unreachable, []string{"ROUTE_BLACKHOLE"}},
			},
			check: func(t *testing.T, res RouteSetResult) {
				if tr := res.Traces[0]; !strings.Contains(tr.Hops[0], "not followed: the routes of subnet vnet-hub/snet-nva cannot be computed from configuration") ||
					!strings.Contains(tr.Findings[0].Message, "Microsoft.Network/virtualNetworks/read") {
					t.Errorf("real route, unknown path: %+v", tr)
				}
				if f := res.Traces[1].Findings[0]; !strings.Contains(f.Message, "route 172.16.0.0/12 None (effective route (Default)) is selected for 172.16.0.1") ||
					!f.ResourceID.Equal(nrNVANIC) {
					t.Errorf("a real None route drops whatever the configuration: %+v", f)
				}
			},
		},
		{
			name: "pool whose subnet is unknown: nothing is traced, never reachable",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				gpu := &model.RouteSet{Pool: "gpu", Computed: model.ComputedSubnetUnknown}
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{gpu}, Network: n}
			},
			dests: []string{"10.0.2.5"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_NOT_FOUND"},
			traces: []nrTraceWant{{model.Unverified, []string{"EVIDENCE_NOT_FOUND"}}},
			check: func(t *testing.T, res RouteSetResult) {
				if res.Routes == nil || len(res.Routes) != 0 {
					t.Errorf("unknown routes are an empty list: %#v", res.Routes)
				}
				if !strings.Contains(res.Findings[0].Message, "an unknown subnet") || !strings.Contains(res.Findings[0].Message, "because its subnet is unknown") {
					t.Errorf("coverage finding: %s", res.Findings[0].Message)
				}
				if f := res.Findings[1]; !strings.HasPrefix(f.Message, "Node pool gpu reports no subnet") || !strings.Contains(f.Message, "MC_rg") ||
					!f.ResourceID.Equal(clusterID+"/agentPools/gpu") {
					t.Errorf("why the subnet is unknown: %+v", f)
				}
				if tr := res.Traces[0]; tr.Hops == nil || len(tr.Hops) != 0 || tr.Selected != nil || tr.Findings[0].Endpoint != "10.0.2.5" {
					t.Errorf("blocked trace: %+v", tr)
				}
			},
		},
		{
			name: "pool whose subnet is unknown because the node resource group could not be listed",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				gpu := &model.RouteSet{Pool: "gpu", Computed: model.ComputedSubnetUnknown, SubnetGap: &model.Gap{
					ResourceID: id("/resourceGroups/MC_rg/providers/Microsoft.Network/virtualNetworks"), Kind: model.GapPermissionDenied,
					Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403"}}
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{gpu}, Network: n}
			},
			dests: []string{"10.0.2.5"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_PERMISSION_DENIED"},
			traces: []nrTraceWant{{model.Unverified, []string{"EVIDENCE_PERMISSION_DENIED"}}},
			check: func(t *testing.T, res RouteSetResult) {
				if f := res.Findings[1]; !strings.HasPrefix(f.Message, "Reading the virtual networks of resource group MC_rg (") ||
					!strings.Contains(f.Message, "the subnet of node pool gpu (the AKS-managed virtual network in MC_rg)") {
					t.Errorf("evidence: %+v", f)
				}
			},
		},
		{
			name: "the subnet's VNet was refused: evidence on the set and on each trace",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				denyVNet(n, n.VNet(spokeID))
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{nrScaleSetPool()}, Network: n}
			},
			dests: []string{"10.0.2.5"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_PERMISSION_DENIED"},
			traces: []nrTraceWant{{model.Unverified, []string{"EVIDENCE_PERMISSION_DENIED"}}},
			check: func(t *testing.T, res RouteSetResult) {
				if f := res.Findings[1]; !f.ResourceID.Equal(spokeID) || f.Endpoint != "" ||
					!strings.Contains(f.Message, "depends on the routes of subnet vnet-spoke/snet-aks") {
					t.Errorf("set evidence: %+v", f)
				}
				if tr := res.Traces[0]; tr.Selected != nil || len(res.Routes) != 0 {
					t.Errorf("trace %+v, %d routes", tr, len(res.Routes))
				}
			},
		},
		{
			name: "effective route tables that could not be read: evidence, and computed routes",
			facts: func(_ *testing.T, n *model.Network) model.NodeRouteFacts {
				nic := n.NIC(nrNVANIC)
				set := &model.RouteSet{Pool: "vms", SubnetID: nvaSubnetID, Source: ip("10.0.1.4"), NodeNIC: nic, Computed: model.ComputedEffectiveUnread,
					EffectiveGaps: []model.EffectiveRoutesGap{{NIC: nic, Gap: model.Gap{ResourceID: nrNVANIC + "/effectiveRouteTable",
						Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/effectiveRouteTable/action"}}}}
				return model.NodeRouteFacts{Cluster: cluster, Sets: []*model.RouteSet{set}, Network: n}
			},
			dests: []string{"10.0.2.5"}, source: RouteSourceComputed, setCodes: []string{"COVERAGE_ROUTES_COMPUTED", "EVIDENCE_PERMISSION_DENIED"},
			traces: []nrTraceWant{{model.Reachable, []string{}}},
			check: func(t *testing.T, res RouteSetResult) {
				if !strings.Contains(res.Findings[0].Message, "because the effective route table of its nodes' network interfaces could not be read") {
					t.Errorf("coverage finding: %s", res.Findings[0].Message)
				}
				if f := res.Findings[1]; !strings.HasPrefix(f.Message, "Reading the effective routes of network interface nic-vm-nva (") ||
					!strings.Contains(f.Message, "lacks Microsoft.Network/networkInterfaces/effectiveRouteTable/action") || f.NodePool != "vms" {
					t.Errorf("evidence: %+v", f)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := NodeRoutes(tc.facts(t, nrNetwork()), nrDests(tc.dests...))
			set := res.Sets[0]
			if set.Source != tc.source || !slices.Equal(nrCodes(set.Findings), tc.setCodes) {
				t.Fatalf("source %s, set findings %v; want %s, %v", set.Source, nrCodes(set.Findings), tc.source, tc.setCodes)
			}
			if len(set.Traces) != len(tc.traces) {
				t.Fatalf("%d traces, want %d", len(set.Traces), len(tc.traces))
			}
			for i, want := range tc.traces {
				tr := set.Traces[i]
				if tr.Destination.Text != tc.dests[i] || tr.Verdict != want.verdict || !slices.Equal(nrCodes(tr.Findings), want.codes) {
					t.Errorf("trace %d (%s): verdict %s, findings %v; want %s, %v", i, tr.Destination.Text, tr.Verdict, nrCodes(tr.Findings), want.verdict, want.codes)
				}
				for _, f := range tr.Findings {
					if f.Endpoint != tc.dests[i] || f.NodePool != set.Set.Pool {
						t.Errorf("trace %d: finding not about its pool and destination: %+v", i, f)
					}
				}
			}
			if tc.check != nil {
				tc.check(t, set)
			}
		})
	}
}

// Pools on one subnet share one computed table; a set with a real table
// gets the engine of its reserved ranges.
func TestNodeRoutesShareComputedTables(t *testing.T) {
	n := nrNetwork()
	engines := newNodeEngines(n)
	system := nrScaleSetPool()
	user := &model.RouteSet{Pool: "user", SubnetID: aksSubnetID, Computed: model.ComputedNoNodes}
	if engines.forSet(system) != engines.forSet(user) {
		t.Fatal("computed sets must share one engine")
	}
	e := engines.forSet(system)
	c1, _ := e.EffectiveRoutes(aksSubnetID)
	c2, _ := e.EffectiveRoutes(aksSubnetID)
	if c1 != c2 {
		t.Fatal("the engine must compute a subnet once")
	}
	res := NodeRoutes(model.NodeRouteFacts{Sets: []*model.RouteSet{system, user}, Network: n}, nrDests("10.0.2.5"))
	if !reflect.DeepEqual(res.Sets[0].Routes, c1.Routes()) || !reflect.DeepEqual(res.Sets[1].Routes, c1.Routes()) {
		t.Errorf("pools on one subnet must report the same computed table")
	}
	nva := nrNVASet(t, n)
	if engines.forSet(nva) == e || engines.forSet(nva) != engines.forSet(nrNVASet(t, n)) {
		t.Errorf("effective sets get their own engine, shared by equal reserved ranges")
	}
}

// Top-level findings: errors first; each cause once per set: evidence the
// set reports is not repeated for each trace.
func TestNodeRoutesFindings(t *testing.T) {
	n := nrNetwork()
	denied := nrNetwork()
	denyVNet(denied, denied.VNet(spokeID))
	ok := NodeRoutes(model.NodeRouteFacts{Sets: []*model.RouteSet{nrScaleSetPool()}, Network: n}, nrDests("10.0.2.5", "192.168.1.1"))
	user := &model.RouteSet{Pool: "user", SubnetID: aksSubnetID, Computed: model.ComputedNoNodes}
	bad := NodeRoutes(model.NodeRouteFacts{Sets: []*model.RouteSet{user}, Network: denied}, nrDests("10.0.2.5", "192.168.1.1"))
	if got := nrCodes(bad.Sets[0].Traces[1].Findings); !slices.Equal(got, []string{"EVIDENCE_PERMISSION_DENIED"}) {
		t.Fatalf("each trace keeps its own evidence: %v", got)
	}

	var got []string
	for _, f := range routeSetsFindings(append(ok.Sets, bad.Sets...)) {
		got = append(got, string(f.Code)+"/"+f.NodePool+"/"+f.Endpoint)
	}
	want := []string{"ROUTE_BLACKHOLE/system/192.168.1.1", "EVIDENCE_PERMISSION_DENIED/user/",
		"COVERAGE_ROUTES_COMPUTED/system/", "COVERAGE_ROUTES_COMPUTED/user/"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if !slices.Equal(nrCodes(ok.Findings), []string{"ROUTE_BLACKHOLE", "COVERAGE_ROUTES_COMPUTED"}) {
		t.Errorf("NodeRoutes findings: %v", nrCodes(ok.Findings))
	}

	// The same finding from two traces of a set is reported once.
	twice := NodeRoutes(model.NodeRouteFacts{Sets: []*model.RouteSet{nrScaleSetPool()}, Network: nrNetwork()}, nrDests("192.168.1.1", "192.168.1.1"))
	if got := nrCodes(twice.Findings); !slices.Equal(got, []string{"ROUTE_BLACKHOLE", "COVERAGE_ROUTES_COMPUTED"}) {
		t.Errorf("a finding repeated by a trace: %v", got)
	}
}

// Security groups on node_routes traces: every level that applies must
// allow; the groups passed show in the hops; a denial names the rule; a
// NIC-level group of a scale set's NIC configuration counts; a destination
// whose NIC could not be looked for is unverified, never reachable.
func TestNodeRoutesSecurity(t *testing.T) {
	nsgID := func(name string) model.ResourceID {
		return id("/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/" + name)
	}
	group := func(n *model.Network, name string, rules ...model.SecurityRule) model.ResourceID {
		g := nsgID(name)
		n.SecurityGroups[g.Key()] = &model.SecurityGroup{ID: g, Name: name, Rules: rules}
		return g
	}
	tests := []struct {
		name    string
		edit    func(n *model.Network, set *model.RouteSet)
		dest    string
		verdict model.Verdict
		codes   []string
		hop     string
	}{
		{
			name: "subnet group allows by its rule; the hop shows it",
			edit: func(n *model.Network, _ *model.RouteSet) {
				n.Subnet(aksSubnetID).NSGID = group(n, "nsg-aks", secRule("AllowHub", 200, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"))
			},
			dest: "10.0.2.5", verdict: model.Reachable, codes: []string{}, hop: "nsg nsg-aks (subnet) allows TCP 443 by rule AllowHub (200)",
		},
		{
			name: "scale-set NIC configuration group denies",
			edit: func(n *model.Network, set *model.RouteSet) {
				set.NICGroupID = group(n, "aks-agentpool-nsg", secRule("DenyPE", 300, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "443"))
			},
			dest: "10.0.2.5", verdict: model.Unreachable, codes: []string{"SECURITY_RULE_OUTBOUND_DENIED"},
			hop: "nsg aks-agentpool-nsg (nic) denies TCP 443 by rule DenyPE (300, outbound)",
		},
		{
			name: "a denying rule for another port does not apply",
			edit: func(n *model.Network, set *model.RouteSet) {
				set.NICGroupID = group(n, "aks-agentpool-nsg", secRule("DenySSH", 300, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "22"))
			},
			dest: "10.0.2.5", verdict: model.Reachable, codes: []string{},
		},
		{
			name: "destination NIC group denies inbound",
			edit: func(n *model.Network, _ *model.RouteSet) {
				n.NIC(nrNVANIC).NSGID = group(n, "nsg-nva", secRule("DenyIn", 100, "Inbound", "Deny", "Tcp", "*", "*", "443"))
			},
			dest: "10.0.1.4", verdict: model.Unreachable, codes: []string{"SECURITY_RULE_INBOUND_DENIED"},
		},
		{
			name: "group that could not be read",
			edit: func(n *model.Network, _ *model.RouteSet) { n.Subnet(aksSubnetID).NSGID = nsgID("nsg-unread") },
			dest: "10.0.2.5", verdict: model.Unverified, codes: []string{"EVIDENCE_NOT_FOUND"},
		},
		{
			name: "scale set not read: the NIC configuration's group is unknown",
			edit: func(_ *model.Network, set *model.RouteSet) {
				set.NICGroupGap = &model.Gap{ResourceID: nrVMSSs, Kind: model.GapPermissionDenied, Detail: "403"}
			},
			dest: "10.0.2.5", verdict: model.Unverified, codes: []string{"EVIDENCE_PERMISSION_DENIED"},
		},
		{
			name: "destination NIC unknown",
			edit: func(n *model.Network, _ *model.RouteSet) {
				n.AddAddressGap(ip("10.0.1.9"), model.Gap{ResourceID: nvaSubnetID, Kind: model.GapPermissionDenied, Detail: "403"})
			},
			dest: "10.0.1.9", verdict: model.Unverified, codes: []string{"EVIDENCE_PERMISSION_DENIED"},
		},
		{
			name: "destination NIC unknown does not matter for a known private endpoint",
			edit: func(n *model.Network, _ *model.RouteSet) {
				n.AddAddressGap(ip("10.0.2.5"), model.Gap{ResourceID: peSubnetID, Kind: model.GapPermissionDenied, Detail: "403"})
			},
			dest: "10.0.2.5", verdict: model.Reachable, codes: []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := nrNetwork()
			set := nrScaleSetPool()
			tc.edit(n, set)
			tr := NodeRoutes(model.NodeRouteFacts{Sets: []*model.RouteSet{set}, Network: n}, nrDests(tc.dest)).Sets[0].Traces[0]
			if tr.Verdict != tc.verdict || !slices.Equal(nrCodes(tr.Findings), tc.codes) {
				t.Fatalf("verdict %s codes %v, want %s %v: %+v", tr.Verdict, nrCodes(tr.Findings), tc.verdict, tc.codes, tr.Findings)
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

// Every reason for computed routes has its own words in
// COVERAGE_ROUTES_COMPUTED, naming the resource the routes belong to.
func TestRouteSetComputedFinding(t *testing.T) {
	nic := &model.NIC{ID: nrNVANIC, Name: "nic-vm-nva", PrivateEndpointID: peID}
	tests := []struct {
		set      model.RouteSet
		resource model.ResourceID
		want     []string
	}{
		{model.RouteSet{Pool: "gpu", Computed: model.ComputedSubnetUnknown}, "",
			[]string{"Routes for node pool gpu were computed", "an unknown subnet", "because its subnet is unknown."}},
		{model.RouteSet{Pool: "vms", SubnetID: aksSubnetID, Computed: model.ComputedEffectiveUnread}, aksSubnetID,
			[]string{"subnet vnet-spoke/snet-aks", "its nodes' network interfaces could not be read (see the EVIDENCE finding)."}},
		{model.RouteSet{SubnetID: aksSubnetID, NIC: nic, Computed: model.ComputedEffectiveUnread}, nrNVANIC,
			[]string{"Routes for network interface nic-vm-nva were computed", "a deallocated VM has none"}},
		{model.RouteSet{Pool: "vms", SubnetID: aksSubnetID, Computed: model.ComputedNoNICInSubnet}, aksSubnetID, []string{"none of its nodes' network interfaces"}},
		{model.RouteSet{Pool: "vms", SubnetID: aksSubnetID, Computed: model.ComputedNICsUnread}, aksSubnetID, []string{"virtual machines' network interfaces could not be read"}},
		{model.RouteSet{Pool: "vms", SubnetID: aksSubnetID, Computed: model.ComputedNoRunningNode}, aksSubnetID, []string{"no running node"}},
		{model.RouteSet{Pool: "user", SubnetID: aksSubnetID, Computed: model.ComputedNoNodes}, aksSubnetID, []string{"it has no nodes"}},
		{model.RouteSet{Pool: "system", SubnetID: aksSubnetID, Computed: model.ComputedScaleSetPool}, aksSubnetID, []string{"it is a scale-set pool"}},
		{model.RouteSet{SubnetID: aksSubnetID, NIC: nic, Computed: model.ComputedScaleSetNIC}, nrNVANIC, []string{"scale-set instance's network interface"}},
		{model.RouteSet{SubnetID: aksSubnetID, NIC: nic, Computed: model.ComputedPrivateEndpoint}, nrNVANIC, []string{"of private endpoint pe-acr, which"}},
		{model.RouteSet{SubnetID: aksSubnetID, NIC: nic, Computed: model.ComputedNoVM}, nrNVANIC, []string{"attached to no virtual machine"}},
		{model.RouteSet{SubnetID: aksSubnetID, NIC: nic, Computed: model.ComputedNoEffectiveAPI}, nrNVANIC, []string{"Azure has no effective-route API for it"}},
		{model.RouteSet{SubnetID: aksSubnetID, Computed: model.ComputedSubnetGiven}, aksSubnetID,
			[]string{"Routes were computed from configuration (the route table of subnet vnet-spoke/snet-aks", "a subnet was given"}},
		{model.RouteSet{SubnetID: aksSubnetID}, aksSubnetID, []string{"Azure gave no effective route table for it"}},
	}
	seen := map[string]model.ComputedReason{}
	for _, tc := range tests {
		f := routeSetComputedFinding(&tc.set)
		if f.Code != model.CoverageRoutesComputed || f.Severity != model.SeverityInfo || f.NodePool != tc.set.Pool || !f.ResourceID.Equal(tc.resource) {
			t.Errorf("%s: %+v", tc.set.Computed, f)
		}
		for _, w := range tc.want {
			if !strings.Contains(f.Message, w) {
				t.Errorf("%s: message %q lacks %q", tc.set.Computed, f.Message, w)
			}
		}
		why := computedWhy(&tc.set)
		if other, dup := seen[why]; dup && other != tc.set.Computed {
			t.Errorf("reasons %s and %s have the same words %q", other, tc.set.Computed, why)
		}
		seen[why] = tc.set.Computed
	}
}

// The evidence findings of node_routes speak of the network path and name
// actions and listings, and the permission the gap records (azure.Gap
// records one for every read).
func TestNodeGapFinding(t *testing.T) {
	f := nodeGapFinding(model.Gap{ResourceID: spokeID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403 AuthorizationFailed"},
		"system", "10.0.2.5", "the routes of subnet vnet-spoke/snet-aks")
	if f.Code != model.EvidencePermissionDenied ||
		f.Message != "Reading virtual network vnet-spoke ("+string(spokeID)+") was refused (HTTP 403 AuthorizationFailed): the identity running the "+
			"plan lacks Microsoft.Network/virtualNetworks/read. The conclusion for node pool system and 10.0.2.5 depends on the routes of subnet "+
			"vnet-spoke/snet-aks, so it is unverified, never reachable." ||
		f.Remediation != "Grant the identity that runs the plan Microsoft.Network/virtualNetworks/read on "+string(spokeID)+" (the built-in "+
			"Reader role includes it), or read from a snapshot recorded by an identity that has it. Nothing on the network path needs to change for this finding." {
		t.Errorf("permission denied: %+v", f)
	}
	if f := nodeGapFinding(model.Gap{ResourceID: spokeID, Kind: model.GapPermissionDenied, Permission: "x/read"}, "", "", "y"); !strings.Contains(f.Message, "lacks x/read.") {
		t.Errorf("a recorded permission is kept: %s", f.Message)
	}
	if f := nodeGapFinding(model.Gap{ResourceID: "not-an-id", Kind: model.GapPermissionDenied}, "", "", "y"); !strings.Contains(f.Message, "lacks the read permission for it.") {
		t.Errorf("no permission to name: %s", f.Message)
	}
	if f := nodeGapFinding(model.Gap{ResourceID: aksSubnetID, Kind: model.GapNotFound}, "", "10.0.2.5", "x"); f.Code != model.EvidenceNotFound ||
		!strings.HasPrefix(f.Message, "Subnet vnet-spoke/snet-aks (") || !strings.Contains(f.Message, "The conclusion for 10.0.2.5 depends on x") ||
		!strings.Contains(f.Remediation, "whatever refers to it (a subnet, a peering, a route)") {
		t.Errorf("not found: %+v", f)
	}
	if f := nodeGapFinding(model.Gap{ResourceID: aksSubnetID, Kind: model.GapUnavailable, Detail: "HTTP 429"}, "", "", "x"); f.Code != model.EvidenceUnavailable ||
		!strings.Contains(f.Message, "kept failing after retries (HTTP 429)") || !strings.HasPrefix(f.Remediation, "Plan again;") {
		t.Errorf("unavailable: %+v", f)
	}
	// Verification's own words are unchanged.
	if f := gapFinding(model.Gap{ResourceID: spokeID, Kind: model.GapUnavailable}, "", "", "x"); !strings.HasPrefix(f.Remediation, "Run the plan again;") ||
		!strings.Contains(f.Remediation, "pull path") {
		t.Errorf("verification's words: %+v", f)
	}
}

func TestFoldComputedNotesIntoTheSetsNote(t *testing.T) {
	action := model.ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/effectiveRoutes")
	note := model.NewFinding(model.CoverageRoutesComputed, "system", "10.2.2.5", action, "The effective routes of Virtual WAN hub hub-weu could not be read.", "Nothing to fix. To cross-check, grant it.")
	other := model.NewFinding(model.CoverageModelDrift, "system", "10.2.2.5", "", "drift", "")
	set := &model.RouteSet{Pool: "system"}
	res := RouteSetResult{Set: set, Findings: []model.Finding{routeSetComputedFinding(set)},
		Traces: []NodeTrace{{Findings: []model.Finding{note, other}}, {Findings: []model.Finding{note}}}}
	foldComputedNotes(&res)
	if len(res.Traces[0].Findings) != 1 || res.Traces[0].Findings[0].Code != model.CoverageModelDrift || len(res.Traces[1].Findings) != 0 {
		t.Fatalf("traces keep %+v / %+v", res.Traces[0].Findings, res.Traces[1].Findings)
	}
	if len(res.Findings) != 1 || strings.Count(res.Findings[0].Message, "hub-weu could not be read") != 1 || strings.Count(res.Findings[0].Remediation, "To cross-check, grant it.") != 1 {
		t.Fatalf("set findings %+v", res.Findings)
	}
	// A set with a real effective table has no note of its own: the
	// engine's note stands alone, once.
	res = RouteSetResult{Set: set, Traces: []NodeTrace{{Findings: []model.Finding{note}}, {Findings: []model.Finding{note}}}}
	foldComputedNotes(&res)
	if len(res.Findings) != 1 || !res.Findings[0].ResourceID.Equal(action) || res.Findings[0].Endpoint != "" {
		t.Fatalf("set findings %+v", res.Findings)
	}
}
