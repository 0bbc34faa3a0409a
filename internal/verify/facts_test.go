// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Builders for hand-made facts. They mirror the public scenarios' hub-spoke
// topology (internal/provider/testdata/scenarios/*/snapshot.json): vnet-hub 10.0.0.0/16 with a
// gateway, an appliance subnet, the registry's private endpoint and a DNS
// resolver subnet; vnet-spoke 10.1.0.0/16 with the AKS node subnet; a
// Premium registry reached through private endpoint pe-acr (login 10.0.2.5,
// westeurope data 10.0.2.6) and zone privatelink.azurecr.io linked to both
// VNets. Every test starts from baselineFacts and breaks one thing.

const sub = "/subscriptions/00000000-0000-0000-0000-000000000001"

func id(s string) model.ResourceID { return model.ResourceID(sub + s) }

var (
	hubID        = id("/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub")
	spokeID      = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	nvaSubnetID  = hubID + "/subnets/snet-nva"
	peSubnetID   = hubID + "/subnets/snet-pe"
	dnsInSubnet  = hubID + "/subnets/snet-dns-in"
	aksSubnetID  = spokeID + "/subnets/snet-aks"
	registryID   = id("/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg")
	peID         = id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr")
	peNICID      = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/pe-acr.nic")
	peConnID     = registryID + "/privateEndpointConnections/pe-acr.conn"
	zoneID       = id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io")
	clusterID    = id("/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1")
	scaleSetID   = id("/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-12345678-vmss")
	kubeletID    = id("/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.ManagedIdentity/userAssignedIdentities/aks1-agentpool")
	acrPullDefID = id("/providers/Microsoft.Authorization/roleDefinitions/" + model.RoleAcrPull)
	abacDefID    = id("/providers/Microsoft.Authorization/roleDefinitions/" + model.RoleAcrRepositoryReader)
)

const (
	kubeletObjectID      = "c97076e7-a42f-5da7-b72a-14b385fe0c6b"
	controlPlaneObjectID = "34915e1d-c28d-54e9-9fdf-4ac777651356"
	loginHost            = "contosoreg.azurecr.io"
	dataHostWE           = "contosoreg.westeurope.data.azurecr.io"
	dataHostNE           = "contosoreg.northeurope.data.azurecr.io"
)

func ip(s string) netip.Addr           { return netip.MustParseAddr(s) }
func pfx(s string) netip.Prefix        { return netip.MustParsePrefix(s) }
func ips(ss ...string) []netip.Addr    { return mapSlice(ss, ip) }
func pfxs(ss ...string) []netip.Prefix { return mapSlice(ss, pfx) }

func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func subnet(vnet model.ResourceID, name, prefix string) *model.Subnet {
	return &model.Subnet{ID: vnet + "/subnets/" + model.ResourceID(name), VNetID: vnet, Name: name, Prefixes: pfxs(prefix),
		PrivateEndpointNetworkPolicies: "Disabled"}
}

func peering(from, to model.ResourceID, name string, remote string) *model.Peering {
	return &model.Peering{ID: from + "/virtualNetworkPeerings/" + model.ResourceID(name), Name: name, VNetID: from, RemoteVNetID: to,
		State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
		RemoteAddressSpace: pfxs(remote), RemoteCurrentAddressSpace: pfxs(remote)}
}

// baselineFacts is the public baseline_ok scenario: every pool can pull.
func baselineFacts() model.Facts {
	n := model.NewNetwork()
	hub := &model.VNet{ID: hubID, Name: "vnet-hub", Location: "westeurope", AddressSpace: pfxs("10.0.0.0/16"),
		Subnets: []*model.Subnet{subnet(hubID, "GatewaySubnet", "10.0.0.0/27"), subnet(hubID, "snet-nva", "10.0.1.0/24"),
			subnet(hubID, "snet-pe", "10.0.2.0/24"), subnet(hubID, "snet-dns-in", "10.0.3.0/28")}}
	hubToSpoke := peering(hubID, spokeID, "hub-to-spoke", "10.1.0.0/16")
	hubToSpoke.AllowGatewayTransit = true
	hub.Peerings = []*model.Peering{hubToSpoke}
	spoke := &model.VNet{ID: spokeID, Name: "vnet-spoke", Location: "westeurope", AddressSpace: pfxs("10.1.0.0/16"),
		Subnets:  []*model.Subnet{subnet(spokeID, "snet-aks", "10.1.0.0/22")},
		Peerings: []*model.Peering{peering(spokeID, hubID, "spoke-to-hub", "10.0.0.0/16")}}
	n.AddVNet(hub)
	n.AddVNet(spoke)

	n.PrivateEndpoints[peID.Key()] = &model.PrivateEndpoint{ID: peID, Name: "pe-acr", SubnetID: peSubnetID, NICIDs: []model.ResourceID{peNICID},
		Connections:     []model.PrivateLinkConnection{{TargetID: registryID, GroupIDs: []string{"registry"}, Status: "Approved"}},
		DNSConfigs:      []model.FQDNAddresses{{FQDN: loginHost, Addresses: ips("10.0.2.5")}, {FQDN: dataHostWE, Addresses: ips("10.0.2.6")}},
		ZoneGroupsKnown: true}
	n.NICs[peNICID.Key()] = &model.NIC{ID: peNICID, Name: "pe-acr.nic", SubnetID: peSubnetID, PrivateIPs: ips("10.0.2.5", "10.0.2.6"), PrivateEndpointID: peID}

	nodeNICs := []*model.NIC{nodeNIC(0, "10.1.0.4"), nodeNIC(1, "10.1.0.5")}
	for _, nic := range nodeNICs {
		n.NICs[nic.ID.Key()] = nic
	}

	d := model.NewDNS()
	d.Zones[zoneID.Key()] = &model.PrivateZone{ID: zoneID, Name: "privatelink.azurecr.io", LinksKnown: true, RecordsKnown: true,
		Links: []model.ZoneLink{zoneLink("link-hub", hubID), zoneLink("link-spoke", spokeID)},
		Records: map[string]*model.RecordSet{
			"contosoreg":                 {Name: "contosoreg", Type: "A", Addrs: ips("10.0.2.5")},
			"contosoreg.westeurope.data": {Name: "contosoreg.westeurope.data", Type: "A", Addrs: ips("10.0.2.6")},
		}}

	reg := &model.Registry{ID: registryID, Name: "contosoreg", Location: "westeurope", SKU: "Premium", LoginServer: loginHost,
		DataEndpointEnabled: true, DataEndpointHosts: []string{dataHostWE},
		Replicas:      []model.Replica{{ID: registryID + "/replications/westeurope", Location: "westeurope", RegionEndpointEnabled: true}},
		ReplicasKnown: true, PublicNetworkAccess: "Disabled", NetworkDefaultAction: "Deny",
		PrivateEndpointConnections: []model.RegistryPEConnection{{ID: peConnID, PrivateEndpointID: peID, Status: "Approved"}},
		RoleAssignmentMode:         "LegacyRegistryPermissions"}

	system := &model.NodePool{Name: "system", Mode: "System", OSType: "Linux", Type: "VirtualMachineScaleSets", Count: 2,
		SubnetID: aksSubnetID, ScaleSetID: scaleSetID, NICIDs: []model.ResourceID{nodeNICs[0].ID, nodeNICs[1].ID}, NICs: nodeNICs, NICsKnown: true}
	user := &model.NodePool{Name: "user", Mode: "User", OSType: "Linux", Type: "VirtualMachineScaleSets", Count: 0,
		SubnetID: aksSubnetID, ScaleSetID: scaleSetID[:len(scaleSetID)-len("aks-system-12345678-vmss")] + "aks-user-12345679-vmss", NICsKnown: true}
	cluster := &model.Cluster{ID: clusterID, Name: "aks1", Location: "westeurope", NodeResourceGroup: "MC_rg-spoke_aks1_westeurope",
		Kubelet: model.Identity{ResourceID: kubeletID, ClientID: "63a654a0-56fa-55d6-9af7-b2668daa8e63", ObjectID: kubeletObjectID},
		Pools:   []*model.NodePool{system, user}}

	return model.Facts{
		Cluster:         cluster,
		Pools:           []*model.NodePool{system, user},
		Network:         n,
		DNS:             d,
		Registry:        reg,
		RoleAssignments: []model.RoleAssignment{roleAssignment("ra-kubelet", registryID, acrPullDefID, kubeletObjectID)},
		Gaps:            model.Gaps{},
	}
}

func nodeNIC(instance int, addr string) *model.NIC {
	nicID := scaleSetID + model.ResourceID("/virtualMachines/"+string(rune('0'+instance))+"/networkInterfaces/aks-system-12345678-vmss")
	return &model.NIC{ID: nicID, Name: "aks-system-12345678-vmss", SubnetID: aksSubnetID, PrivateIPs: ips(addr),
		VMID: scaleSetID + model.ResourceID("/virtualMachines/"+string(rune('0'+instance)))}
}

func zoneLink(name string, vnet model.ResourceID) model.ZoneLink {
	return model.ZoneLink{ID: zoneID + "/virtualNetworkLinks/" + model.ResourceID(name), Name: name, VNetID: vnet, State: "Completed", ResolutionPolicy: "Default"}
}

func roleAssignment(name string, scope, def model.ResourceID, principal string) model.RoleAssignment {
	return model.RoleAssignment{ID: scope + "/providers/Microsoft.Authorization/roleAssignments/" + model.ResourceID(name),
		Scope: scope, RoleDefinitionID: def, PrincipalID: principal, PrincipalType: "ServicePrincipal"}
}

// Mutations used by several tests.

func zone(f *model.Facts) *model.PrivateZone { return f.DNS.Zones[zoneID.Key()] }

func unlinkSpoke(f *model.Facts) {
	z := zone(f)
	z.Links = slices.DeleteFunc(z.Links, func(l model.ZoneLink) bool { return l.VNetID.Equal(spokeID) })
}

func setSpokeDNS(f *model.Facts, servers ...string) {
	f.Network.VNet(spokeID).DNSServers = ips(servers...)
}

// addDNSVM puts a plain VM with address addr in the hub's appliance subnet.
func addDNSVM(f *model.Facts, name, addr string) {
	nicID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-" + name)
	f.Network.NICs[nicID.Key()] = &model.NIC{ID: nicID, Name: "nic-" + name, SubnetID: nvaSubnetID, PrivateIPs: ips(addr),
		VMID: id("/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/" + name)}
}

// addResolver adds a DNS private resolver in vnet with an inbound endpoint.
func addResolver(f *model.Facts, name string, vnet model.ResourceID, inbound string) model.ResourceID {
	rid := id("/resourceGroups/rg-hub/providers/Microsoft.Network/dnsResolvers/" + name)
	f.DNS.Resolvers[rid.Key()] = &model.Resolver{ID: rid, Name: name, VNetID: vnet,
		Inbound: []model.ResolverEndpoint{{ID: rid + "/inboundEndpoints/in", Name: "in", SubnetID: dnsInSubnet, Address: ip(inbound)}}}
	return rid
}

// addReplica adds a northeurope replica; covered says whether the private
// endpoint serves (and the zone holds) its data endpoint.
func addReplica(f *model.Facts, covered bool) {
	f.Registry.Replicas = append(f.Registry.Replicas, model.Replica{ID: registryID + "/replications/northeurope", Location: "northeurope"})
	f.Registry.DataEndpointHosts = append(f.Registry.DataEndpointHosts, dataHostNE)
	if covered {
		pe := f.Network.PrivateEndpoint(peID)
		pe.DNSConfigs = append(pe.DNSConfigs, model.FQDNAddresses{FQDN: dataHostNE, Addresses: ips("10.0.2.7")})
		zone(f).Records["contosoreg.northeurope.data"] = &model.RecordSet{Name: "contosoreg.northeurope.data", Type: "A", Addrs: ips("10.0.2.7")}
	}
}

// fakeTracer answers every flow as reachable in one hop, unless a result
// is set for its destination (or for public destinations).
type fakeTracer struct {
	byDest  map[netip.Addr]RouteResult
	public  *RouteResult
	queries []RouteQuery
}

func (t *fakeTracer) Trace(_ *model.Network, q RouteQuery) RouteResult {
	t.queries = append(t.queries, q)
	if q.Public && t.public != nil {
		return *t.public
	}
	if rr, ok := t.byDest[q.Dest]; ok {
		return rr
	}
	if q.Public {
		return internetRoute(q.SubnetID)
	}
	return RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → " + q.Dest.String()}}
}

// internetRoute is a route engine answer sending a public destination out
// of the subnet by Azure's default route.
func internetRoute(subnet model.ResourceID) RouteResult {
	const route = "Azure's default route: 0.0.0.0/0 → Internet"
	return RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → Internet"},
		Exit: Exit{Kind: ExitInternet, SubnetID: subnet, Route: route, FirstRoute: route}}
}

// blackhole is a route engine answer dropping the flow at rt-aks.
func blackhole(dest string) RouteResult {
	rt := id("/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks")
	return RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → route 10.0.0.0/16 None → dropped"},
		Findings: []model.Finding{model.NewFinding(model.RouteBlackhole, "", "", rt,
			"route quarantine-hub of route table rt-aks sends "+dest+" to None, so Azure drops the packet.", "Remove the route.")}}
}

func verifyFake(t *testing.T, f model.Facts, tr *fakeTracer) Result {
	t.Helper()
	if tr == nil {
		tr = &fakeTracer{}
	}
	return Verify(f, tr)
}

// factsCase is one row of a table test of Verify: the baseline facts
// changed by mutate, traced by tracer (the fake tracer when nil), give
// exactly the codes want (onlyCodes) and verdict, and pass check.
type factsCase struct {
	name    string
	mutate  func(f *model.Facts)
	tracer  *fakeTracer
	want    []model.Code
	verdict model.Verdict
	check   func(t *testing.T, res Result)
}

// runFactsCases runs each case as a subtest.
func runFactsCases(t *testing.T, cases []factsCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			tt.mutate(&f)
			res := verifyFake(t, f, tt.tracer)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s\n%s", res.Verdict, tt.verdict, res.Summary)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

// Assertions.

func codesOf(res Result) []model.Code {
	var out []model.Code
	for _, f := range res.Findings {
		out = append(out, f.Code)
	}
	return out
}

func findingsWith(res Result, code model.Code) []model.Finding {
	var out []model.Finding
	for _, f := range res.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func requireCodes(t *testing.T, res Result, want ...model.Code) {
	t.Helper()
	for _, c := range want {
		if len(findingsWith(res, c)) == 0 {
			t.Errorf("missing %s; got %v\n%s", c, codesOf(res), res.Summary)
		}
	}
}

func forbidCodes(t *testing.T, res Result, unwanted ...model.Code) {
	t.Helper()
	for _, c := range unwanted {
		if fs := findingsWith(res, c); len(fs) > 0 {
			t.Errorf("unexpected %s: %s", c, fs[0].Message)
		}
	}
}

// onlyCodes requires that apart from COVERAGE_ROUTES_COMPUTED the findings
// have exactly the given codes.
func onlyCodes(t *testing.T, res Result, want ...model.Code) {
	t.Helper()
	got := map[model.Code]bool{}
	for _, f := range res.Findings {
		if f.Code != model.CoverageRoutesComputed {
			got[f.Code] = true
		}
	}
	wantSet := map[model.Code]bool{}
	for _, c := range want {
		wantSet[c] = true
	}
	for c := range got {
		if !wantSet[c] {
			t.Errorf("unexpected code %s; got %v\n%s", c, codesOf(res), res.Summary)
		}
	}
	for c := range wantSet {
		if !got[c] {
			t.Errorf("missing code %s; got %v\n%s", c, codesOf(res), res.Summary)
		}
	}
}

func pathOf(t *testing.T, res Result, pool, host string) Path {
	t.Helper()
	for _, p := range res.Paths {
		if p.NodePool == pool && p.Host == host {
			return p
		}
	}
	t.Fatalf("no path %s × %s in %v", pool, host, res.Paths)
	return Path{}
}

func requireContains(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}
