package gather

import (
	"encoding/json"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The integration tests read the scenario snapshots through the snapshot
// replay and the real SDK clients.

func TestNetworkBaseline(t *testing.T) {
	r, ct := newReader(t, "baseline_ok")
	n, err := r.Network(testCtx(t), idList(snetAKS))
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)

	if len(n.VNets) != 2 || n.VNet(vnetHub) == nil || n.VNet(vnetSpoke) == nil {
		t.Fatalf("vnets = %v", keys(n.VNets))
	}
	if len(n.Subnets) != 5 || n.Subnet(snetAKS) == nil || n.Subnet(gwSubnet) == nil {
		t.Errorf("subnets = %v", keys(n.Subnets))
	}
	hubSide, spokeSide := n.VNet(vnetHub).Peerings[0], n.VNet(vnetSpoke).Peerings[0]
	if !hubSide.RemoteVNetID.Equal(vnetSpoke) || !spokeSide.RemoteVNetID.Equal(vnetHub) || !hubSide.Connected() || !spokeSide.Connected() ||
		!hubSide.AllowGatewayTransit || spokeSide.UseRemoteGateways || hubSide.Global || spokeSide.Global {
		t.Errorf("peerings = %+v / %+v", hubSide, spokeSide)
	}
	if len(n.RouteTables) != 0 || len(n.SecurityGroups) != 0 {
		t.Errorf("route tables %v, NSGs %v", keys(n.RouteTables), keys(n.SecurityGroups))
	}

	pe := n.PrivateEndpoint(peACR)
	if len(n.PrivateEndpoints) != 1 || pe == nil {
		t.Fatalf("private endpoints = %v", keys(n.PrivateEndpoints))
	}
	if !pe.ZoneGroupsKnown || len(pe.ZoneGroups) != 1 || !pe.ZoneGroups[0].ZoneID.Equal(zoneACR) || len(pe.DNSConfigs) != 2 ||
		pe.Connections[0].Status != "Approved" {
		t.Errorf("private endpoint = %+v", pe)
	}
	if nic := n.NIC(peNIC); nic == nil || !reflect.DeepEqual(nic.PrivateIPs, []netip.Addr{ip("10.0.2.5"), ip("10.0.2.6")}) {
		t.Errorf("private endpoint NIC = %+v", nic)
	}

	gw := n.Gateway(vpngw)
	if len(n.Gateways) != 1 || gw == nil {
		t.Fatalf("gateways = %v", keys(n.Gateways))
	}
	if !gw.LearnedKnown || len(gw.Learned) != 2 || gw.Learned[1].Prefix != pfx("192.168.0.0/16") || gw.Learned[1].Origin != "EBgp" {
		t.Errorf("learned = %v %+v", gw.LearnedKnown, gw.Learned)
	}
	// What the gateway advertises is read only when a path's replies come
	// back through it: Network leaves it pending.
	if gw.AdvertisedKnown || len(gw.Advertised) != 0 {
		t.Errorf("advertised read by Network: %v %+v", gw.AdvertisedKnown, gw.Advertised)
	}
	if want := []model.Evidence{model.AdvertisedRoutesOf(vpngw)}; !reflect.DeepEqual(n.Pending.Sorted(), want) {
		t.Errorf("pending = %+v, want %+v", n.Pending.Sorted(), want)
	}
	if !gw.StaticPrefixesKnown || len(gw.StaticPrefixes) != 0 {
		t.Errorf("static = %v %v (the only connection uses BGP)", gw.StaticPrefixesKnown, gw.StaticPrefixes)
	}

	// Every resource once; the spoke has no gateway subnet, so no gateway
	// list; the PE's NIC is read once for FQDNs and model.
	for _, p := range []model.ResourceID{vnetHub, vnetSpoke, peACR, peNIC, vpngw, peACR + "/privateDnsZoneGroups",
		hubRG + "/providers/Microsoft.Network/connections"} {
		if c := ct.count("GET", p); c != 1 {
			t.Errorf("GET %s: %d requests", p, c)
		}
	}
	for a, want := range map[string]int{"getLearnedRoutes": 1, "getBgpPeerStatus": 0, "getAdvertisedRoutes": 0} {
		if c := ct.count("POST", vpngw+"/"+model.ResourceID(a)); c != want {
			t.Errorf("POST %s: %d requests, want %d", a, c, want)
		}
	}
	if ct.requests() != 8 {
		t.Errorf("%d requests, want 8", ct.requests())
	}

	// Reading the pending evidence fills in the gateway's advertised
	// routes (on the network's copy), once however often it is asked.
	before := gw
	for range 2 {
		if settled := r.ReadEvidence(testCtx(t), n, []model.Evidence{model.AdvertisedRoutesOf(vpngw)}); settled > 1 {
			t.Errorf("settled %d", settled)
		}
	}
	requireNoGaps(t, r)
	gw = n.Gateway(vpngw)
	adv := gw.Advertised[ip("192.168.255.1")]
	if !gw.AdvertisedKnown || len(gw.Advertised) != 1 || len(adv) != 1 || adv[0].Prefix != pfx("10.0.0.0/16") {
		t.Errorf("advertised = %v %+v", gw.AdvertisedKnown, gw.Advertised)
	}
	if before.AdvertisedKnown || len(n.Pending) != 0 {
		t.Errorf("the Reader's gateway was changed (%v) or evidence is still pending (%v)", before.AdvertisedKnown, n.Pending.Sorted())
	}
	for _, a := range []string{"getLearnedRoutes", "getBgpPeerStatus", "getAdvertisedRoutes"} {
		if c := ct.count("POST", vpngw+"/"+model.ResourceID(a)); c != 1 {
			t.Errorf("POST %s: %d requests", a, c)
		}
	}
	if ct.requests() != 10 {
		t.Errorf("%d requests, want 10", ct.requests())
	}
}

func TestNetworkScenarios(t *testing.T) {
	tests := []struct {
		scenario string
		check    func(t *testing.T, n *model.Network)
	}{
		{"udr_blackhole", func(t *testing.T, n *model.Network) {
			rt := n.RouteTable(rtAKS)
			if rt == nil || len(rt.Routes) != 1 || rt.Routes[0].NextHopType != "None" || rt.Routes[0].Prefix != pfx("10.0.0.0/16") {
				t.Errorf("route table = %+v", rt)
			}
			if !n.Subnet(snetAKS).RouteTableID.Equal(rtAKS) || !n.Subnet(snetPE).RouteTablePoliciesApply() {
				t.Error("subnet route table / policies")
			}
		}},
		{"peering_initiated", func(t *testing.T, n *model.Network) {
			if len(n.VNet(vnetHub).Peerings) != 0 || n.VNet(vnetSpoke).Peerings[0].State != "Initiated" {
				t.Errorf("peerings: hub %d, spoke %+v", len(n.VNet(vnetHub).Peerings), n.VNet(vnetSpoke).Peerings[0])
			}
		}},
		{"gateway_transit_missing", func(t *testing.T, n *model.Network) {
			if len(n.PrivateEndpoints) != 0 || n.Gateway(vpngw) == nil || n.VNet(vnetSpoke).Peerings[0].UseRemoteGateways {
				t.Errorf("endpoints %v gateway %v", keys(n.PrivateEndpoints), keys(n.Gateways))
			}
		}},
		{"custom_dns_vm", func(t *testing.T, n *model.Network) {
			if !reflect.DeepEqual(n.VNet(vnetSpoke).DNSServers, []netip.Addr{ip("10.0.1.10")}) {
				t.Errorf("dns = %v", n.VNet(vnetSpoke).DNSServers)
			}
		}},
		{"dns_zone_not_linked", nil},
		{"data_record_missing", nil},
		{"acrpull_missing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			r, _ := newReader(t, tt.scenario)
			n, err := r.Network(testCtx(t), idList(snetAKS))
			if err != nil {
				t.Fatal(err)
			}
			requireNoGaps(t, r)
			if len(n.VNets) != 2 || n.Gateway(vpngw) == nil {
				t.Errorf("vnets %v gateways %v", keys(n.VNets), keys(n.Gateways))
			}
			if tt.check != nil {
				tt.check(t, n)
			}
		})
	}
}

// withSnapshot loads a testdata snapshot, lets edit change its JSON, and
// returns a Reader over the result.
func withSnapshot(t *testing.T, scenario string, edit func(m map[string]any)) (*Reader, *countingTransport) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return newReaderFrom(t, s)
}

func TestNetworkFindsAppliance(t *testing.T) {
	r, ct := withSnapshot(t, "udr_blackhole", func(m map[string]any) {
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(rtAKS) {
				route := obj["properties"].(map[string]any)["routes"].([]any)[0].(map[string]any)["properties"].(map[string]any)
				route["nextHopType"] = "VirtualAppliance"
				route["nextHopIpAddress"] = "10.0.1.4"
				route["addressPrefix"] = "0.0.0.0/0"
			}
		}
	})
	n, err := r.Network(testCtx(t), idList(snetAKS))
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	// The appliance's NIC is read only for a path routed through it:
	// Network leaves it pending.
	ev := model.ApplianceNICAt(vnetHub, ip("10.0.1.4"))
	if n.NIC(nvaNIC) != nil || !n.Pending.Has(ev) || ct.count("GET", nvaNIC) != 0 {
		t.Fatalf("appliance NIC read by Network (pending %v, %d reads)", n.Pending.Sorted(), ct.count("GET", nvaNIC))
	}
	if settled := r.ReadEvidence(testCtx(t), n, []model.Evidence{ev}); settled != 1 {
		t.Errorf("settled %d, want 1", settled)
	}
	requireNoGaps(t, r)
	nva := n.NIC(nvaNIC)
	if nva == nil || !nva.IPForwarding || nva.PrivateIPs[0] != ip("10.0.1.4") {
		t.Fatalf("appliance NIC = %+v (NICs %v)", nva, keys(n.NICs))
	}
	if c := ct.count("GET", nvaNIC); c != 1 || n.Pending.Has(ev) {
		t.Errorf("appliance NIC read %d times, still pending %v", c, n.Pending.Has(ev))
	}
}

func TestNetworkSeedErrors(t *testing.T) {
	r, _ := newReader(t, "baseline_ok")
	missingVNet := model.ResourceID(spokeRG + "/providers/Microsoft.Network/virtualNetworks/nope/subnets/x")
	missingSubnet := vnetSpoke + "/subnets/nope"
	n, err := r.Network(testCtx(t), idList(snetAKS, missingVNet, missingSubnet))
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v", err)
	}
	if n == nil || n.VNet(vnetSpoke) == nil || n.VNet(vnetHub) == nil {
		t.Fatal("the readable part of the network is missing")
	}
	for _, id := range []model.ResourceID{missingVNet.Parent(), missingSubnet} {
		if g, ok := n.Gaps.Lookup(id); !ok || g.Kind != model.GapNotFound || g.Permission != permVNetRead {
			t.Errorf("gap for %s = %+v %v", id, g, ok)
		}
	}
}

func TestFaultsBecomeGaps(t *testing.T) {
	r, ct := newReader(t, "faults_403")
	ctx := testCtx(t)

	n, err := r.Network(ctx, idList(snetAKS))
	if err != nil {
		t.Fatalf("an unreadable hub must not fail the seed: %v", err)
	}
	g, ok := n.Gaps.Lookup(vnetHub)
	if !ok || g.Kind != model.GapPermissionDenied || g.Permission != "Microsoft.Network/virtualNetworks/read" || !strings.Contains(g.Detail, "403") {
		t.Errorf("hub gap = %+v %v", g, ok)
	}
	if n.VNet(vnetHub) != nil || n.VNet(vnetSpoke) == nil || len(n.Gateways) != 0 {
		t.Errorf("vnets %v gateways %v", keys(n.VNets), keys(n.Gateways))
	}

	gw, err := r.Gateway(ctx, vpngw)
	if err != nil {
		t.Fatal(err)
	}
	if _, known := r.AdvertisedRoutes(ctx, gw); gw.LearnedKnown || !known {
		t.Errorf("learned known %v, advertised known %v", gw.LearnedKnown, known)
	}
	g, ok = r.Gaps().Lookup(vpngw + "/getLearnedRoutes")
	if !ok || g.Kind != model.GapPermissionDenied || g.Permission != "Microsoft.Network/virtualNetworkGateways/getLearnedRoutes/action" {
		t.Errorf("learned routes gap = %+v %v", g, ok)
	}
	if _, ok := r.Gaps().Lookup(vpngw); ok {
		t.Error("a failed action is recorded as a gap of the gateway itself")
	}

	cl, err := r.Cluster(ctx, aks1)
	if err != nil {
		t.Fatal(err)
	}
	if len(cl.Pools) != 2 || len(cl.Pools[0].NICs) != 2 {
		t.Errorf("pools from agentPoolProfiles = %+v", cl.Pools)
	}
	g, ok = r.Gaps().Lookup(aks1 + "/agentPools")
	if !ok || g.Kind != model.GapPermissionDenied || g.Permission != "Microsoft.ContainerService/managedClusters/agentPools/read" {
		t.Errorf("agent pools gap = %+v %v", g, ok)
	}

	// Throttling twice, then an answer: retried, no gap.
	zones, err := r.PrivateZones(ctx, []string{"00000000-0000-0000-0000-000000000001"}, []string{"privatelink.azurecr.io"})
	if err != nil || len(zones) != 1 {
		t.Errorf("zones = %v, %v", zones, err)
	}
	if c := ct.count("GET", sub+"/providers/Microsoft.Network/privateDnsZones"); c != 3 {
		t.Errorf("zone list: %d requests, want 3 (two throttled)", c)
	}
	for _, g := range r.Gaps() {
		if !permissionListed(g.Permission) {
			t.Errorf("gap permission %q is not in Permissions", g.Permission)
		}
	}
	if len(r.Gaps()) != 3 {
		t.Errorf("gaps = %+v", r.Gaps().Sorted())
	}
}

func permissionListed(p string) bool {
	for _, v := range Permissions {
		if v == p {
			return true
		}
	}
	return false
}

func TestMemoisedConcurrentReads(t *testing.T) {
	r, ct := newReader(t, "baseline_ok")
	ctx := testCtx(t)
	var wg sync.WaitGroup
	got := make([]*model.VNet, 10)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = r.VNet(ctx, vnetSpoke)
		}()
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] || v == nil {
			t.Fatal("callers got different results")
		}
	}
	if c := ct.count("GET", vnetSpoke); c != 1 {
		t.Errorf("GET vnet-spoke: %d requests, want 1", c)
	}
	// VNet reads the remote VNet once too, for its location.
	if ct.requests() != 2 {
		t.Errorf("%d requests, want 2", ct.requests())
	}
	// Ids differing only in case are the same resource.
	if _, err := r.VNet(ctx, model.ResourceID(strings.ToUpper(string(vnetSpoke)))); err != nil || ct.requests() != 2 {
		t.Errorf("upper-case id: %v, %d requests", err, ct.requests())
	}
}

func TestVNetGlobalPeering(t *testing.T) {
	r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(vnetHub) {
				obj["location"] = "North Europe"
			}
		}
	})
	v, err := r.VNet(testCtx(t), vnetSpoke)
	if err != nil || !v.Peerings[0].Global {
		t.Errorf("global = %v, %v", v.Peerings[0].Global, err)
	}
	n, _ := r.Network(testCtx(t), idList(snetAKS))
	if !n.VNet(vnetHub).Peerings[0].Global || !n.VNet(vnetSpoke).Peerings[0].Global {
		t.Error("network peerings not global")
	}
}

func TestCluster(t *testing.T) {
	r, ct := newReader(t, "baseline_ok")
	ctx := testCtx(t)
	cl, err := r.Cluster(ctx, aks1)
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	if cl.Kubelet.ObjectID != kubeletID || cl.NodeResourceGroup != "MC_rg-spoke_aks1_westeurope" {
		t.Errorf("cluster = %+v", cl)
	}
	if len(cl.Pools) != 2 {
		t.Fatalf("pools = %+v", cl.Pools)
	}
	sys, user := cl.Pools[0], cl.Pools[1]
	if sys.Name != "system" || sys.Mode != "System" || !sys.NICsKnown || !sys.ScaleSetID.Equal(vmssSys) || !sys.SubnetID.Equal(snetAKS) ||
		!reflect.DeepEqual(sys.NICIDs, idList(vmssNIC0, vmssNIC1)) || len(sys.NICs) != 2 {
		t.Fatalf("system pool = %+v", sys)
	}
	if sys.NICs[0].PrivateIPs[0] != ip("10.1.0.4") || sys.NICs[1].PrivateIPs[0] != ip("10.1.0.5") || len(sys.NICs[0].DNSServers) != 0 {
		t.Errorf("system NICs = %+v %+v", sys.NICs[0], sys.NICs[1])
	}
	if user.Name != "user" || user.Count != 0 || !user.NICsKnown || len(user.NICIDs) != 0 || !user.ScaleSetID.Equal(vmssUser) {
		t.Errorf("user pool = %+v", user)
	}
	before := ct.requests()
	if nic, err := r.NIC(ctx, vmssNIC1); err != nil || nic.PrivateIPs[0] != ip("10.1.0.5") || ct.requests() != before {
		t.Errorf("NIC after Cluster: %v, %d new requests", err, ct.requests()-before)
	}
	// cluster, agentPools, scale sets, one NIC list per scale set.
	if before != 5 {
		t.Errorf("%d requests, want 5", before)
	}
	if _, err := r.EffectiveRoutes(ctx, vmssNIC0); !errors.Is(err, ErrNoEffectiveRouteAPI) {
		t.Errorf("effective routes of a scale-set NIC: %v", err)
	}
}

func TestClusterVirtualMachinesPoolAndManagedVNet(t *testing.T) {
	mcVNet := model.ResourceID(nodeRG + "/providers/Microsoft.Network/virtualNetworks/aks-vnet-12345678")
	vmNIC := model.ResourceID(nodeRG + "/providers/Microsoft.Network/networkInterfaces/aks-vms-1-nic")
	r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		res := m["resources"].([]any)
		for _, x := range res {
			obj := x.(map[string]any)
			id := model.ResourceID(obj["id"].(string))
			if id.Equal(aks1 + "/agentPools/user") {
				p := obj["properties"].(map[string]any)
				p["type"], p["count"] = "VirtualMachines", 1
				delete(p, "vnetSubnetID")
			}
		}
		add := func(s string) {
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				t.Fatal(err)
			}
			res = append(res, v)
		}
		add(`{"id":"` + string(mcVNet) + `","name":"aks-vnet-12345678","type":"Microsoft.Network/virtualNetworks","location":"westeurope",
			"properties":{"addressSpace":{"addressPrefixes":["10.224.0.0/12"]},"subnets":[{"id":"` + string(mcVNet) + `/subnets/aks-subnet","name":"aks-subnet",
			"properties":{"addressPrefix":"10.224.0.0/16"}}]}}`)
		add(`{"id":"` + nodeRG + `/providers/Microsoft.Compute/virtualMachines/aks-vms-1","name":"aks-vms-1","type":"Microsoft.Compute/virtualMachines",
			"location":"westeurope","tags":{"aks-managed-poolName":"user"},"properties":{"networkProfile":{"networkInterfaces":[{"id":"` + string(vmNIC) + `"}]}}}`)
		add(`{"id":"` + string(vmNIC) + `","name":"aks-vms-1-nic","type":"Microsoft.Network/networkInterfaces","location":"westeurope",
			"properties":{"dnsSettings":{"dnsServers":["10.0.1.10"]},"ipConfigurations":[{"name":"ipconfig1","properties":{"privateIPAddress":"10.224.0.4",
			"subnet":{"id":"` + string(mcVNet) + `/subnets/aks-subnet"}}}]}}`)
		m["resources"] = res
	})
	cl, err := r.Cluster(testCtx(t), aks1)
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	user := cl.Pools[1]
	if user.Type != "VirtualMachines" || !user.SubnetID.Equal(mcVNet+"/subnets/aks-subnet") || !user.NICsKnown ||
		!reflect.DeepEqual(user.NICIDs, idList(vmNIC)) || len(user.VMIDs) != 1 ||
		!reflect.DeepEqual(user.NICs[0].DNSServers, []netip.Addr{ip("10.0.1.10")}) {
		t.Errorf("VirtualMachines pool = %+v", user)
	}
	if len(cl.Pools[0].NICs) != 2 {
		t.Errorf("scale-set pool beside it = %+v", cl.Pools[0])
	}
}

func TestNICByAddress(t *testing.T) {
	r, ct := newReader(t, "custom_dns_vm")
	ctx := testCtx(t)
	hub, err := r.VNet(ctx, vnetHub)
	if err != nil {
		t.Fatal(err)
	}
	before := ct.requests()
	nic, err := r.NICByAddress(ctx, hub, ip("10.0.1.10"))
	if err != nil || nic == nil || !nic.ID.Equal(dnsNIC) {
		t.Fatalf("nic = %+v, %v", nic, err)
	}
	// Only the NICs of snet-nva (the appliance's and the DNS server's).
	if n := ct.requests() - before; n != 2 {
		t.Errorf("%d reads, want 2", n)
	}
	if nic, err := r.NICByAddress(ctx, hub, ip("10.0.1.99")); nic != nil || err != nil {
		t.Errorf("unused address: %+v, %v", nic, err)
	}
	if nic, err := r.NICByAddress(ctx, hub, ip("10.0.0.4")); nic != nil || err != nil {
		t.Errorf("gateway subnet address: %+v, %v", nic, err)
	}
	requireNoGaps(t, r)
}

func TestEffectiveRoutes(t *testing.T) {
	r, _ := newReader(t, "baseline_ok")
	routes, err := r.EffectiveRoutes(testCtx(t), nvaNIC)
	if err != nil || len(routes) != 22 {
		t.Fatalf("%d routes, %v", len(routes), err)
	}
	n, _ := r.Network(testCtx(t), idList(snetAKS))
	r.IncludeNICs(testCtx(t), n, idList(nvaNIC, vmssNIC0), true)
	if nic := n.NIC(nvaNIC); nic == nil || len(nic.Effective) != 22 {
		t.Errorf("NIC with effective routes = %+v", nic)
	}
	if nic := n.NIC(vmssNIC0); nic == nil || nic.Effective != nil {
		t.Errorf("scale-set NIC = %+v", nic)
	}
	requireNoGaps(t, r)
}

func TestRegistryAndRoles(t *testing.T) {
	r, ct := newReader(t, "baseline_ok")
	ctx := testCtx(t)
	reg, err := r.Registry(ctx, acr)
	if err != nil {
		t.Fatal(err)
	}
	if reg.LoginServer != "contosoreg.azurecr.io" || !reg.ReplicasKnown || len(reg.Replicas) != 1 || !reg.PublicNetworkDisabled() || reg.ABAC() ||
		!reflect.DeepEqual(reg.DataEndpointHosts, []string{"contosoreg.westeurope.data.azurecr.io"}) || len(reg.RegionalEndpointHosts) != 0 {
		t.Errorf("registry = %+v", reg)
	}
	roles, err := r.RoleAssignments(ctx, acr, kubeletID)
	if err != nil || len(roles) != 1 || roles[0].RoleDefinitionID.Name() != model.RoleAcrPull || !roles[0].Scope.Equal(acr) {
		t.Errorf("roles = %+v, %v", roles, err)
	}
	if q := ct.queries[len(ct.queries)-1]; !strings.Contains(q, "$filter=principalId%20eq%20%27"+kubeletID+"%27") {
		t.Errorf("role assignment query = %s", q)
	}
	if _, err := r.RoleAssignments(ctx, acr, "x' or 1 eq 1"); err == nil {
		t.Error("a principal id that is not a GUID went into the filter")
	}
	requireNoGaps(t, r)

	r, _ = withSnapshot(t, "baseline_ok", func(m map[string]any) {
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(acr) {
				p := obj["properties"].(map[string]any)
				p["regionalEndpoints"] = "Enabled"
				p["roleAssignmentMode"] = "AbacRepositoryPermissions"
			}
		}
	})
	reg, err = r.Registry(testCtx(t), acr)
	if err != nil || !reg.ABAC() || !reflect.DeepEqual(reg.RegionalEndpointHosts, []string{"contosoreg.westeurope.geo.azurecr.io"}) {
		t.Errorf("regional endpoints from the raw answer: %+v, %v", reg, err)
	}

	r, _ = newReader(t, "acrpull_missing")
	roles, err = r.RoleAssignments(testCtx(t), acr, kubeletID)
	if err != nil || len(roles) != 0 {
		t.Errorf("acrpull_missing roles = %+v, %v", roles, err)
	}
}

func TestPrivateZones(t *testing.T) {
	subs := []string{"00000000-0000-0000-0000-000000000001"}
	names := []string{"privatelink.azurecr.io"}
	tests := []struct {
		scenario string
		links    int
		records  []string
	}{
		{"baseline_ok", 2, []string{"contosoreg", "contosoreg.westeurope.data"}},
		{"data_record_missing", 2, []string{"contosoreg"}},
		{"dns_zone_not_linked", 1, []string{"contosoreg", "contosoreg.westeurope.data"}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			r, ct := newReader(t, tt.scenario)
			ctx := testCtx(t)
			zones, err := r.PrivateZones(ctx, subs, names)
			if err != nil || len(zones) != 1 {
				t.Fatalf("zones = %v, %v", zones, err)
			}
			z := zones[0]
			if z.Name != "privatelink.azurecr.io" || !z.LinksKnown || !z.RecordsKnown || len(z.Links) != tt.links || len(z.Records) != len(tt.records) {
				t.Fatalf("zone = %+v", z)
			}
			for _, name := range tt.records {
				if rs := z.Records[name]; rs == nil || rs.Type != "A" || len(rs.Addrs) != 1 {
					t.Errorf("record %s = %+v", name, rs)
				}
			}
			if tt.scenario == "baseline_ok" && z.Records["contosoreg.westeurope.data"].Addrs[0] != ip("10.0.2.6") {
				t.Error("data record address")
			}
			byID, err := r.ZoneByID(ctx, zoneACR)
			if err != nil || byID != z {
				t.Errorf("ZoneByID = %p %v, want the zone already read", byID, err)
			}
			// list, links, records, and the zone GET of ZoneByID.
			if ct.requests() != 4 {
				t.Errorf("%d requests, want 4", ct.requests())
			}
			requireNoGaps(t, r)
		})
	}
	t.Run("other names and subscriptions", func(t *testing.T) {
		r, _ := newReader(t, "gateway_transit_missing")
		zones, err := r.PrivateZones(testCtx(t), append(subs, "00000000-0000-0000-0000-000000000009"), []string{"corp.example.", "privatelink.azurecr.io"})
		if err != nil || len(zones) != 1 || zones[0].Records["harbor"] == nil {
			t.Errorf("zones = %+v, %v", zones, err)
		}
	})
	t.Run("missing zone id", func(t *testing.T) {
		r, _ := newReader(t, "gateway_transit_missing")
		if _, err := r.ZoneByID(testCtx(t), zoneACR); err == nil {
			t.Fatal("no error")
		}
		if g, ok := r.Gaps().Lookup(zoneACR); !ok || g.Kind != model.GapNotFound {
			t.Errorf("gap = %+v", g)
		}
	})
}

func TestResolversAndRulesets(t *testing.T) {
	r, _ := newReader(t, "baseline_ok")
	ctx := testCtx(t)
	for _, v := range idList(vnetHub, vnetSpoke) {
		res, err := r.Resolvers(ctx, v)
		if err != nil || len(res) != 0 {
			t.Errorf("%s resolvers = %v, %v", v.Name(), res, err)
		}
		rs, err := r.Rulesets(ctx, v)
		if err != nil || len(rs) != 0 {
			t.Errorf("%s rulesets = %v, %v", v.Name(), rs, err)
		}
	}
	requireNoGaps(t, r)
}

func TestResolversAndRulesetsRead(t *testing.T) {
	r, _ := withSpokeRuleset(t, "azurecr.io.", "192.168.1.53")
	ctx := testCtx(t)
	res, err := r.Resolvers(ctx, vnetHub)
	if err != nil || len(res) != 1 || !res[0].VNetID.Equal(vnetHub) || len(res[0].Inbound) != 1 || res[0].Inbound[0].Address != ip("10.0.3.4") {
		t.Errorf("resolvers = %+v, %v", res, err)
	}
	rs, err := r.Rulesets(ctx, vnetSpoke)
	if err != nil || len(rs) != 1 || rs[0].Name != "rs" || len(rs[0].Rules) != 1 || rs[0].Rules[0].DomainName != "azurecr.io." ||
		!reflect.DeepEqual(rs[0].LinkedVNets, idList(vnetSpoke)) {
		t.Errorf("rulesets = %+v, %v", rs, err)
	}
	requireNoGaps(t, r)
}

func TestPermissionsTable(t *testing.T) {
	for op, action := range Permissions {
		parts := strings.Split(action, "/")
		last := parts[len(parts)-1]
		if !strings.HasPrefix(action, "Microsoft.") || (last != "read" && last != "action") {
			t.Errorf("%s: %q is not a read or action permission", op, action)
		}
		// A Resource Graph query is sent as a POST but reads resources:
		// it needs Microsoft.ResourceGraph/resources/read. Every other POST
		// is an action.
		graphQuery := strings.Contains(op, "(POST "+string(ResourceGraphQuery)+")")
		if graphQuery && action != permResourceGraphRead {
			t.Errorf("%s: a Resource Graph query needs %s, not %q", op, permResourceGraphRead, action)
		}
		if !graphQuery && strings.Contains(op, "(POST") != (last == "action") {
			t.Errorf("%s: a POST must need an /action permission and only a POST: %q", op, action)
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestGatewayStaticPrefixes(t *testing.T) {
	r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if model.ResourceID(obj["id"].(string)).Equal(cnOnprem) {
				obj["properties"].(map[string]any)["enableBgp"] = false
			}
		}
	})
	gw, err := r.Gateway(testCtx(t), vpngw)
	if err != nil {
		t.Fatal(err)
	}
	if !gw.StaticPrefixesKnown || !reflect.DeepEqual(gw.StaticPrefixes, []netip.Prefix{pfx("192.168.255.1/32")}) {
		t.Errorf("static = %v %v", gw.StaticPrefixesKnown, gw.StaticPrefixes)
	}
	if c := ct.count("GET", lgwOnprem); c != 1 {
		t.Errorf("local network gateway read %d times", c)
	}
	requireNoGaps(t, r)
}

func TestConcurrencyBound(t *testing.T) {
	for _, limit := range []int{0, 1, 3} {
		r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
			m["simulate"] = map[string]any{"latency_ms": 5, "action_latency_ms": 5}
		})
		r.SetConcurrency(limit)
		want := limit
		if limit == 0 {
			want = DefaultConcurrency
		}
		ctx := testCtx(t)
		if _, err := r.Network(ctx, idList(snetAKS)); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Cluster(ctx, aks1); err != nil {
			t.Fatal(err)
		}
		requireNoGaps(t, r)
		if got := ct.maxInFlight(); got > want || got < 1 {
			t.Errorf("limit %d: %d requests in flight", limit, got)
		}
	}
}
