package gather

import (
	"net/netip"
	"reflect"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestZoneLinkFromSDK(t *testing.T) {
	id := zoneACR + "/virtualNetworkLinks/link-spoke"
	got := zoneLinkFromSDK(sdk[armprivatedns.VirtualNetworkLink](t, resource(t, "baseline_ok", id)))
	want := model.ZoneLink{ID: id, Name: "link-spoke", VNetID: vnetSpoke, State: "Completed", ResolutionPolicy: "Default"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestRecordSetFromSDK(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		ok   bool
		want *model.RecordSet
	}{
		{"login A", resource(t, "baseline_ok", zoneACR+"/A/contosoreg"), true,
			&model.RecordSet{Name: "contosoreg", Type: "A", Addrs: []netip.Addr{ip("10.0.2.5")}}},
		{"data A", resource(t, "baseline_ok", zoneACR+"/A/contosoreg.westeurope.data"), true,
			&model.RecordSet{Name: "contosoreg.westeurope.data", Type: "A", Addrs: []netip.Addr{ip("10.0.2.6")}}},
		{"on-premises A", resource(t, "gateway_transit_missing", hubRG+"/providers/Microsoft.Network/privateDnsZones/corp.example/A/harbor"), true,
			&model.RecordSet{Name: "harbor", Type: "A", Addrs: []netip.Addr{ip("192.168.10.20")}}},
		{"SOA is skipped", resource(t, "baseline_ok", zoneACR+"/SOA/@"), false, nil},
		{"CNAME", []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/privateDnsZones/z/CNAME/Reg","name":"Reg",
			"type":"Microsoft.Network/privateDnsZones/CNAME","properties":{"cnameRecord":{"cname":"reg.privatelink.azurecr.io."}}}`), true,
			&model.RecordSet{Name: "reg", Type: "CNAME", CNAME: "reg.privatelink.azurecr.io"}},
		{"AAAA, type from id", []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/privateDnsZones/z/AAAA/reg","name":"reg",
			"properties":{"aaaaRecords":[{"ipv6Address":"fd00::5"}]}}`), true,
			&model.RecordSet{Name: "reg", Type: "AAAA", Addrs: []netip.Addr{ip("fd00::5")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := recordSetFromSDK(sdk[armprivatedns.RecordSet](t, tt.body))
			if err != nil || ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v %v %v, want %+v", got, ok, err, tt.want)
			}
		})
	}
	t.Run("A and AAAA merge", func(t *testing.T) {
		m := map[string]*model.RecordSet{}
		addRecord(m, &model.RecordSet{Name: "reg", Type: "AAAA", Addrs: []netip.Addr{ip("fd00::5")}})
		addRecord(m, &model.RecordSet{Name: "reg", Type: "A", Addrs: []netip.Addr{ip("10.0.2.5")}})
		if r := m["reg"]; r.Type != "A" || len(r.Addrs) != 2 {
			t.Errorf("merged = %+v", r)
		}
	})
	t.Run("bad address", func(t *testing.T) {
		_, _, err := recordSetFromSDK(sdk[armprivatedns.RecordSet](t, []byte(`{"id":"/z/A/x","name":"x","type":"Microsoft.Network/privateDnsZones/A",
			"properties":{"aRecords":[{"ipv4Address":"10.0.2"}]}}`)))
		if err == nil {
			t.Error("no error")
		}
	})
}

// No scenario has a DNS private resolver; these bodies have ARM's shape.
func TestResolverFromSDK(t *testing.T) {
	res := resolverFromSDK(sdk[armdnsresolver.DNSResolver](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/dnsResolvers/r","name":"r",
		"properties":{"virtualNetwork":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/hub"},"dnsResolverState":"Connected"}}`)))
	if res.Name != "r" || res.VNetID.Name() != "hub" {
		t.Errorf("resolver = %+v", res)
	}
	eps, err := inboundEndpointFromSDK(sdk[armdnsresolver.InboundEndpoint](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in","name":"in",
		"properties":{"ipConfigurations":[{"subnet":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/hub/subnets/snet-dns-in"},
		"privateIpAddress":"10.0.3.4","privateIpAllocationMethod":"Dynamic"}]}}`)))
	if err != nil || len(eps) != 1 || eps[0].Address != ip("10.0.3.4") || eps[0].SubnetID.Name() != "snet-dns-in" || eps[0].Name != "in" {
		t.Errorf("endpoints = %+v, %v", eps, err)
	}
}

func TestForwardingRuleFromSDK(t *testing.T) {
	tests := []struct {
		name string
		body string
		want model.ForwardingRule
	}{
		{"default port, enabled", `{"name":"acr","properties":{"domainName":"azurecr.io.","targetDnsServers":[{"ipAddress":"192.168.1.53"}]}}`,
			model.ForwardingRule{Name: "acr", DomainName: "azurecr.io.", Enabled: true, Targets: []netip.AddrPort{netip.MustParseAddrPort("192.168.1.53:53")}}},
		{"disabled, port", `{"name":"x","properties":{"domainName":"corp.example.","forwardingRuleState":"Disabled","targetDnsServers":[{"ipAddress":"10.9.9.9","port":5353}]}}`,
			model.ForwardingRule{Name: "x", DomainName: "corp.example.", Targets: []netip.AddrPort{netip.MustParseAddrPort("10.9.9.9:5353")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := forwardingRuleFromSDK(sdk[armdnsresolver.ForwardingRule](t, []byte(tt.body)))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v %v\nwant %+v", got, err, tt.want)
			}
		})
	}
	link := sdk[armdnsresolver.VirtualNetworkLink](t, []byte(`{"properties":{"virtualNetwork":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/spoke"}}}`))
	if rulesetLinkVNet(link).Name() != "spoke" {
		t.Error("ruleset link VNet")
	}
}

func TestClusterFromSDK(t *testing.T) {
	cl, err := clusterFromSDK(sdk[armcontainerservice.ManagedCluster](t, resource(t, "baseline_ok", aks1)))
	if err != nil {
		t.Fatal(err)
	}
	wantKubelet := model.Identity{
		ResourceID: nodeRG + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/aks1-agentpool",
		ClientID:   "63a654a0-56fa-55d6-9af7-b2668daa8e63", ObjectID: kubeletID,
	}
	if cl.Name != "aks1" || cl.Location != "westeurope" || cl.NodeResourceGroup != "MC_rg-spoke_aks1_westeurope" || cl.Kubelet != wantKubelet {
		t.Errorf("cluster = %+v", cl)
	}
	want := []model.NodePool{
		{Name: "system", Mode: "System", OSType: "Linux", Type: "VirtualMachineScaleSets", Count: 2, SubnetID: snetAKS},
		{Name: "user", Mode: "User", OSType: "Linux", Type: "VirtualMachineScaleSets", Count: 0, SubnetID: snetAKS},
	}
	if len(cl.Pools) != 2 || !reflect.DeepEqual(*cl.Pools[0], want[0]) || !reflect.DeepEqual(*cl.Pools[1], want[1]) {
		t.Errorf("pools = %+v %+v", cl.Pools[0], cl.Pools[1])
	}

	t.Run("agent pools", func(t *testing.T) {
		tests := []struct {
			id   model.ResourceID
			want model.NodePool
		}{
			{aks1 + "/agentPools/system", want[0]},
			{aks1 + "/agentPools/user", want[1]},
		}
		for _, tt := range tests {
			if got := agentPoolFromSDK(sdk[armcontainerservice.AgentPool](t, resource(t, "baseline_ok", tt.id))); !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		}
		win := agentPoolFromSDK(sdk[armcontainerservice.AgentPool](t, []byte(`{"name":"win","properties":{"osType":"Windows","mode":"User","type":"VirtualMachines","count":1}}`)))
		if win.OSType != "Windows" || win.Type != "VirtualMachines" || !win.SubnetID.IsZero() {
			t.Errorf("windows pool = %+v", win)
		}
	})
	t.Run("service principal cluster", func(t *testing.T) {
		cl, _ := clusterFromSDK(sdk[armcontainerservice.ManagedCluster](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/managedClusters/c",
			"properties":{"servicePrincipalProfile":{"clientId":"11111111-2222-3333-4444-555555555555"}}}`)))
		if cl.Kubelet.ClientID != "11111111-2222-3333-4444-555555555555" || cl.Kubelet.ObjectID != "" {
			t.Errorf("kubelet = %+v", cl.Kubelet)
		}
	})
}

func TestScaleSetNICConfig(t *testing.T) {
	ss := sdk[armcompute.VirtualMachineScaleSet](t, resource(t, "baseline_ok", vmssUser))
	if got := poolTag(ss.Tags); got != "user" {
		t.Errorf("pool tag = %q", got)
	}
	pool := &model.NodePool{Name: "user"}
	if err := scaleSetNICConfig(pool, ss); err != nil {
		t.Fatal(err)
	}
	if !pool.ScaleSetID.Equal(vmssUser) || len(pool.DNSServers) != 0 || !pool.NSGID.IsZero() {
		t.Errorf("pool = %+v", pool)
	}
	custom := sdk[armcompute.VirtualMachineScaleSet](t, []byte(`{"id":"/subscriptions/s/resourceGroups/mc/providers/Microsoft.Compute/virtualMachineScaleSets/v",
		"tags":{"AKS-Managed-PoolName":"np"},"properties":{"virtualMachineProfile":{"networkProfile":{"networkInterfaceConfigurations":[
		{"name":"n","properties":{"primary":true,"dnsSettings":{"dnsServers":["10.0.1.10"]},"networkSecurityGroup":{"id":"/subscriptions/s/resourceGroups/mc/providers/Microsoft.Network/networkSecurityGroups/aks-agentpool-nsg"},
		"ipConfigurations":[]}}]}}}}`))
	pool = &model.NodePool{}
	if err := scaleSetNICConfig(pool, custom); err != nil {
		t.Fatal(err)
	}
	if poolTag(custom.Tags) != "np" || !reflect.DeepEqual(pool.DNSServers, []netip.Addr{ip("10.0.1.10")}) || pool.NSGID.Name() != "aks-agentpool-nsg" {
		t.Errorf("pool = %+v", pool)
	}
}

func TestVMNICIDs(t *testing.T) {
	got := vmNICIDs(sdk[armcompute.VirtualMachine](t, resource(t, "baseline_ok", vmNVA)))
	if !reflect.DeepEqual(got, idList(nvaNIC)) {
		t.Errorf("nics = %v", got)
	}
}

func TestRegistryFromSDK(t *testing.T) {
	reg, err := registryFromSDK(sdk[armcontainerregistry.Registry](t, resource(t, "baseline_ok", acr)))
	if err != nil {
		t.Fatal(err)
	}
	want := model.Registry{
		ID: acr, Name: "contosoreg", Location: "westeurope", SKU: "Premium", LoginServer: "contosoreg.azurecr.io",
		DataEndpointEnabled: true, DataEndpointHosts: []string{"contosoreg.westeurope.data.azurecr.io"},
		PublicNetworkAccess: "Disabled", NetworkDefaultAction: "Deny",
		PrivateEndpointConnections: []model.RegistryPEConnection{{
			ID:                acr + "/privateEndpointConnections/pe-acr.3556f3ed-2118-5b45-8bd8-c89676e0eae2",
			PrivateEndpointID: peACR, Status: "Approved",
		}},
		RoleAssignmentMode: "LegacyRegistryPermissions",
	}
	if !reflect.DeepEqual(*reg, want) {
		t.Errorf("got  %+v\nwant %+v", *reg, want)
	}
	rep := replicaFromSDK(sdk[armcontainerregistry.Replication](t, resource(t, "baseline_ok", acr+"/replications/westeurope")))
	if rep.Location != "westeurope" || !rep.RegionEndpointEnabled || !rep.ID.Equal(acr+"/replications/westeurope") {
		t.Errorf("replica = %+v", rep)
	}

	t.Run("hosts completed", func(t *testing.T) {
		reg := &model.Registry{Name: "Reg", Location: "West Europe", LoginServer: "reg.azurecr.us", DataEndpointEnabled: true,
			Replicas: []model.Replica{{Location: "westeurope"}, {Location: "northeurope"}}}
		var raw registryRawFields
		raw.Properties.RegionalEndpoints = "Enabled"
		raw.Properties.RoleAssignmentMode = "AbacRepositoryPermissions"
		completeRegistryHosts(reg, raw)
		if !reflect.DeepEqual(reg.DataEndpointHosts, []string{"reg.westeurope.data.azurecr.us", "reg.northeurope.data.azurecr.us"}) ||
			!reflect.DeepEqual(reg.RegionalEndpointHosts, []string{"reg.westeurope.geo.azurecr.us", "reg.northeurope.geo.azurecr.us"}) ||
			!reg.ABAC() {
			t.Errorf("registry = %+v", reg)
		}
	})
}

func TestRoleAssignmentFromSDK(t *testing.T) {
	id := acr + "/providers/Microsoft.Authorization/roleAssignments/2c4b3984-c0ff-5821-b829-41564c74d38c"
	got := roleAssignmentFromSDK(sdk[armauthorization.RoleAssignment](t, resource(t, "baseline_ok", id)))
	want := model.RoleAssignment{ID: id, Scope: acr, PrincipalID: kubeletID, PrincipalType: "ServicePrincipal",
		RoleDefinitionID: sub + "/providers/Microsoft.Authorization/roleDefinitions/" + model.RoleAcrPull}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	noScope := roleAssignmentFromSDK(sdk[armauthorization.RoleAssignment](t, []byte(`{"id":"`+string(id)+`","properties":{"principalId":"p","condition":"@Resource[x] StringEquals 'y'"}}`)))
	if !noScope.Scope.Equal(acr) || noScope.Condition == "" {
		t.Errorf("scope from id = %+v", noScope)
	}
	list := []*armauthorization.RoleAssignment{
		sdk[armauthorization.RoleAssignment](t, resource(t, "baseline_ok", id)),
		sdk[armauthorization.RoleAssignment](t, resource(t, "baseline_ok", acr+"/providers/Microsoft.Authorization/roleAssignments/5968d5d0-ffd4-599d-88df-661ed926bd02")),
	}
	if got := filterAssignments(list, "C97076E7-A42F-5DA7-B72A-14B385FE0C6B"); len(got) != 1 || got[0].PrincipalID != kubeletID {
		t.Errorf("filtered = %+v", got)
	}
}
