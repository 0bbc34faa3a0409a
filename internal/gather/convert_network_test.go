package gather

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestVNetFromSDK(t *testing.T) {
	type subnetWant struct {
		name       string
		prefixes   []netip.Prefix
		routeTable model.ResourceID
		policies   string
		ipConfigs  int
		pes        []model.ResourceID
	}
	tests := []struct {
		name     string
		scenario string
		id       model.ResourceID
		space    []netip.Prefix
		dns      []netip.Addr
		subnets  []subnetWant
		peerings []model.Peering
	}{
		{
			name: "hub", scenario: "baseline_ok", id: vnetHub,
			space: []netip.Prefix{pfx("10.0.0.0/16")},
			subnets: []subnetWant{
				{name: "GatewaySubnet", prefixes: []netip.Prefix{pfx("10.0.0.0/27")}, policies: "Disabled", ipConfigs: 1},
				{name: "snet-nva", prefixes: []netip.Prefix{pfx("10.0.1.0/24")}, policies: "Disabled", ipConfigs: 1},
				{name: "snet-pe", prefixes: []netip.Prefix{pfx("10.0.2.0/24")}, policies: "Disabled", ipConfigs: 2, pes: idList(peACR)},
				{name: "snet-dns-in", prefixes: []netip.Prefix{pfx("10.0.3.0/28")}, policies: "Disabled"},
			},
			peerings: []model.Peering{{
				ID: vnetHub + "/virtualNetworkPeerings/hub-to-spoke", Name: "hub-to-spoke", VNetID: vnetHub, RemoteVNetID: vnetSpoke,
				State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
				AllowGatewayTransit: true, RemoteAddressSpace: []netip.Prefix{pfx("10.1.0.0/16")},
				RemoteCurrentAddressSpace: []netip.Prefix{pfx("10.1.0.0/16")},
			}},
		},
		{
			name: "spoke with custom DNS", scenario: "custom_dns_vm", id: vnetSpoke,
			space: []netip.Prefix{pfx("10.1.0.0/16")}, dns: []netip.Addr{ip("10.0.1.10")},
			subnets: []subnetWant{{name: "snet-aks", prefixes: []netip.Prefix{pfx("10.1.0.0/22")}, policies: "Disabled", ipConfigs: 2}},
			peerings: []model.Peering{{
				ID: vnetSpoke + "/virtualNetworkPeerings/spoke-to-hub", Name: "spoke-to-hub", VNetID: vnetSpoke, RemoteVNetID: vnetHub,
				State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
				RemoteAddressSpace: []netip.Prefix{pfx("10.0.0.0/16")}, RemoteCurrentAddressSpace: []netip.Prefix{pfx("10.0.0.0/16")},
			}},
		},
		{
			name: "spoke with a route table", scenario: "udr_blackhole", id: vnetSpoke,
			space:   []netip.Prefix{pfx("10.1.0.0/16")},
			subnets: []subnetWant{{name: "snet-aks", prefixes: []netip.Prefix{pfx("10.1.0.0/22")}, routeTable: rtAKS, policies: "Disabled", ipConfigs: 2}},
			peerings: []model.Peering{{
				ID: vnetSpoke + "/virtualNetworkPeerings/spoke-to-hub", Name: "spoke-to-hub", VNetID: vnetSpoke, RemoteVNetID: vnetHub,
				State: "Connected", SyncLevel: "FullyInSync", AllowVirtualNetworkAccess: true, AllowForwardedTraffic: true,
				RemoteAddressSpace: []netip.Prefix{pfx("10.0.0.0/16")}, RemoteCurrentAddressSpace: []netip.Prefix{pfx("10.0.0.0/16")},
			}},
		},
		{
			name: "hub whose peering was deleted", scenario: "peering_initiated", id: vnetHub,
			space: []netip.Prefix{pfx("10.0.0.0/16")},
			subnets: []subnetWant{
				{name: "GatewaySubnet", prefixes: []netip.Prefix{pfx("10.0.0.0/27")}, policies: "Disabled", ipConfigs: 1},
				{name: "snet-nva", prefixes: []netip.Prefix{pfx("10.0.1.0/24")}, policies: "Disabled", ipConfigs: 1},
				{name: "snet-pe", prefixes: []netip.Prefix{pfx("10.0.2.0/24")}, policies: "Disabled", ipConfigs: 2, pes: idList(peACR)},
				{name: "snet-dns-in", prefixes: []netip.Prefix{pfx("10.0.3.0/28")}, policies: "Disabled"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, resource(t, tt.scenario, tt.id)))
			if err != nil {
				t.Fatal(err)
			}
			if !v.ID.Equal(tt.id) || v.Location != "westeurope" {
				t.Errorf("id/location = %s %s", v.ID, v.Location)
			}
			if !reflect.DeepEqual(v.AddressSpace, tt.space) {
				t.Errorf("address space = %v, want %v", v.AddressSpace, tt.space)
			}
			if !reflect.DeepEqual(v.DNSServers, tt.dns) {
				t.Errorf("dns = %v, want %v", v.DNSServers, tt.dns)
			}
			if len(v.Subnets) != len(tt.subnets) {
				t.Fatalf("%d subnets, want %d", len(v.Subnets), len(tt.subnets))
			}
			for i, w := range tt.subnets {
				s := v.Subnets[i]
				if s.Name != w.name || !s.VNetID.Equal(tt.id) || !s.ID.Equal(tt.id+"/subnets/"+model.ResourceID(w.name)) {
					t.Errorf("subnet %d = %s %s %s", i, s.Name, s.ID, s.VNetID)
				}
				if !reflect.DeepEqual(s.Prefixes, w.prefixes) || !s.RouteTableID.Equal(w.routeTable) || s.PrivateEndpointNetworkPolicies != w.policies {
					t.Errorf("subnet %s = %v %q %q", s.Name, s.Prefixes, s.RouteTableID, s.PrivateEndpointNetworkPolicies)
				}
				if len(s.IPConfigurationIDs) != w.ipConfigs || !reflect.DeepEqual(s.PrivateEndpointIDs, w.pes) {
					t.Errorf("subnet %s: %d ip configurations, endpoints %v", s.Name, len(s.IPConfigurationIDs), s.PrivateEndpointIDs)
				}
			}
			if len(v.Peerings) != len(tt.peerings) {
				t.Fatalf("%d peerings, want %d", len(v.Peerings), len(tt.peerings))
			}
			for i := range tt.peerings {
				if !reflect.DeepEqual(*v.Peerings[i], tt.peerings[i]) {
					t.Errorf("peering %d =\n%+v\nwant\n%+v", i, *v.Peerings[i], tt.peerings[i])
				}
			}
		})
	}

	t.Run("initiated peering", func(t *testing.T) {
		v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, resource(t, "peering_initiated", vnetSpoke)))
		if err != nil {
			t.Fatal(err)
		}
		if p := v.Peerings[0]; p.State != "Initiated" || p.Connected() {
			t.Errorf("state = %q", p.State)
		}
	})
	t.Run("subnet peering", func(t *testing.T) {
		v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v",
			"properties":{"addressSpace":{"addressPrefixes":["10.9.0.0/16"]},"virtualNetworkPeerings":[
			{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/virtualNetworkPeerings/sub","name":"sub",
			 "properties":{"peeringState":"Connected","peerCompleteVnets":false,"localSubnetNames":["snet-aks"],"remoteSubnetNames":["snet-pe",""],
			 "remoteAddressSpace":{"addressPrefixes":["10.0.2.0/24"]}}},
			{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/virtualNetworkPeerings/full","name":"full",
			 "properties":{"peeringState":"Connected","peerCompleteVnets":true}},
			{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/virtualNetworkPeerings/old","name":"old",
			 "properties":{"peeringState":"Connected"}}]}}`)))
		if err != nil {
			t.Fatal(err)
		}
		sub, full, old := v.Peerings[0], v.Peerings[1], v.Peerings[2]
		if !sub.SubnetsOnly || !reflect.DeepEqual(sub.LocalSubnetNames, []string{"snet-aks"}) || !reflect.DeepEqual(sub.RemoteSubnetNames, []string{"snet-pe"}) {
			t.Errorf("subnet peering = %+v", sub)
		}
		if !sub.ConnectsLocalSubnet("SNET-AKS") || sub.ConnectsLocalSubnet("snet-app") || !sub.ConnectsRemoteSubnet("snet-pe") || sub.ConnectsRemoteSubnet("snet-nva") {
			t.Errorf("subnet peering connects the wrong subnets: %+v", sub)
		}
		if full.SubnetsOnly || old.SubnetsOnly || !old.ConnectsLocalSubnet("anything") {
			t.Errorf("peerCompleteVnets true or absent is a peering of complete VNets: %+v %+v", full, old)
		}
	})
	t.Run("gateway subnet names the gateway", func(t *testing.T) {
		v, _ := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, resource(t, "baseline_ok", vnetHub)))
		if got := gatewayOfIPConfig(v.Subnets[0].IPConfigurationIDs[0]); !got.Equal(vpngw) {
			t.Errorf("gateway = %q", got)
		}
	})
	t.Run("route table policies", func(t *testing.T) {
		v, _ := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, resource(t, "udr_blackhole", vnetHub)))
		if s := v.Subnets[2]; s.Name != "snet-pe" || !s.RouteTablePoliciesApply() {
			t.Errorf("%s policies %q", s.Name, s.PrivateEndpointNetworkPolicies)
		}
	})
	t.Run("addressPrefixes merged", func(t *testing.T) {
		v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v",
			"properties":{"addressSpace":{"addressPrefixes":["10.9.0.0/16","fd00::/48"]},"subnets":[{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/a",
			"name":"a","properties":{"addressPrefix":"10.9.1.0/24","addressPrefixes":["10.9.1.0/24","fd00:0:0:1::/64"],
			"networkSecurityGroup":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkSecurityGroups/n"}}}]}}`)))
		if err != nil {
			t.Fatal(err)
		}
		s := v.Subnets[0]
		want := []netip.Prefix{pfx("10.9.1.0/24"), pfx("fd00:0:0:1::/64")}
		if !reflect.DeepEqual(s.Prefixes, want) || s.NSGID.Name() != "n" || len(v.AddressSpace) != 2 {
			t.Errorf("subnet = %+v", s)
		}
	})
	t.Run("bad prefix names resource and field", func(t *testing.T) {
		_, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v",
			"properties":{"addressSpace":{"addressPrefixes":["10.9.0.0/33"]}}}`)))
		if err == nil || !strings.Contains(err.Error(), "virtualNetworks/v") || !strings.Contains(err.Error(), "addressSpace.addressPrefixes") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestRouteTableFromSDK(t *testing.T) {
	tests := []struct {
		name    string
		body    []byte
		disable bool
		routes  []model.Route
		err     string
	}{
		{
			name: "udr_blackhole rt-aks", body: resource(t, "udr_blackhole", rtAKS),
			routes: []model.Route{{Name: "quarantine-hub", Prefix: pfx("10.0.0.0/16"), NextHopType: "None", Source: "User", State: "Active",
				Origin: "route table rt-aks route quarantine-hub", OriginID: rtAKS}},
		},
		{
			name: "appliance, service tag, propagation off",
			body: []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt","name":"rt","properties":{"disableBgpRoutePropagation":true,"routes":[
				{"name":"to-fw","properties":{"addressPrefix":"0.0.0.0/0","nextHopType":"VirtualAppliance","nextHopIpAddress":"10.0.1.4"}},
				{"name":"storage","properties":{"addressPrefix":"Storage.WestEurope","nextHopType":"Internet"}},
				{"name":"host","properties":{"addressPrefix":"10.0.2.5/32","nextHopType":"SomethingNew"}}]}}`),
			disable: true,
			routes: []model.Route{
				{Name: "to-fw", Prefix: pfx("0.0.0.0/0"), NextHopType: "VirtualAppliance", NextHopIP: ip("10.0.1.4"), Source: "User", State: "Active",
					Origin: "route table rt route to-fw", OriginID: "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt"},
				{Name: "storage", ServiceTag: "Storage.WestEurope", NextHopType: "Internet", Source: "User", State: "Active",
					Origin: "route table rt route storage", OriginID: "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt"},
				{Name: "host", Prefix: pfx("10.0.2.5/32"), NextHopType: "SomethingNew", Source: "User", State: "Active",
					Origin: "route table rt route host", OriginID: "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt"},
			},
		},
		{
			name: "bad prefix",
			body: []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt","name":"rt","properties":{"routes":[
				{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt/routes/x","name":"x","properties":{"addressPrefix":"10.0.0.0/99","nextHopType":"None"}}]}}`),
			err: "routeTables/rt/routes/x: field properties.addressPrefix",
		},
		{
			name: "bad next hop",
			body: []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/routeTables/rt","name":"rt","properties":{"routes":[
				{"name":"x","properties":{"addressPrefix":"10.0.0.0/8","nextHopType":"VirtualAppliance","nextHopIpAddress":"fw.local"}}]}}`),
			err: "properties.nextHopIpAddress",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := routeTableFromSDK(sdk[armnetwork.RouteTable](t, tt.body))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rt.DisableBGPRoutePropagation != tt.disable || !reflect.DeepEqual(rt.Routes, tt.routes) {
				t.Errorf("got %+v\nwant %+v", rt.Routes, tt.routes)
			}
		})
	}
}

// No scenario has a network security group; this body has the shape ARM
// returns (singular and plural fields, ASGs, default rules).
func TestSecurityGroupFromSDK(t *testing.T) {
	g, err := securityGroupFromSDK(sdk[armnetwork.SecurityGroup](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkSecurityGroups/nsg","name":"nsg",
	"properties":{"securityRules":[
	 {"name":"deny-acr","properties":{"priority":100,"direction":"Outbound","access":"Deny","protocol":"Tcp","sourceAddressPrefix":"*","sourcePortRange":"*",
	  "destinationAddressPrefixes":["10.0.2.0/24","AzureContainerRegistry"],"destinationPortRanges":["443","8443-8444"],"sourceAddressPrefixes":[],"destinationPortRange":""}},
	 {"name":"asg","properties":{"priority":200,"direction":"Inbound","access":"Allow","protocol":"*","sourceApplicationSecurityGroups":[{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/applicationSecurityGroups/nodes"}],
	  "destinationAddressPrefix":"VirtualNetwork","destinationPortRange":"53","sourcePortRange":"*"}}],
	"defaultSecurityRules":[{"name":"DenyAllOutBound","properties":{"priority":65500,"direction":"Outbound","access":"Deny","protocol":"*"}}]}}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.SecurityRule{
		{Name: "deny-acr", Priority: 100, Direction: "Outbound", Access: "Deny", Protocol: "Tcp", SourcePrefixes: []string{"*"},
			DestinationPrefixes: []string{"10.0.2.0/24", "AzureContainerRegistry"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"443", "8443-8444"}},
		{Name: "asg", Priority: 200, Direction: "Inbound", Access: "Allow", Protocol: "*", DestinationPrefixes: []string{"VirtualNetwork"},
			SourcePorts: []string{"*"}, DestinationPorts: []string{"53"},
			SourceASGIDs: []model.ResourceID{"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/applicationSecurityGroups/nodes"}},
	}
	if g.Name != "nsg" || !reflect.DeepEqual(g.Rules, want) {
		t.Errorf("got %+v\nwant %+v", g.Rules, want)
	}
}

func TestNICFromSDK(t *testing.T) {
	tests := []struct {
		name     string
		scenario string
		id       model.ResourceID
		want     model.NIC
	}{
		{"appliance", "baseline_ok", nvaNIC, model.NIC{ID: nvaNIC, Name: "nic-vm-nva", SubnetID: snetNVA,
			PrivateIPs: []netip.Addr{ip("10.0.1.4")}, IPForwarding: true, VMID: vmNVA}},
		{"dns server VM", "custom_dns_vm", dnsNIC, model.NIC{ID: dnsNIC, Name: "nic-vm-dns", SubnetID: snetNVA,
			PrivateIPs: []netip.Addr{ip("10.0.1.10")}, VMID: hubRG + "/providers/Microsoft.Compute/virtualMachines/vm-dns"}},
		{"scale-set instance", "baseline_ok", vmssNIC0, model.NIC{ID: vmssNIC0, Name: "aks-system-12345678-vmss", SubnetID: snetAKS,
			PrivateIPs: []netip.Addr{ip("10.1.0.4")}, IPForwarding: true, VMID: vmssSys + "/virtualMachines/0"}},
		{"private endpoint", "baseline_ok", peNIC, model.NIC{ID: peNIC, Name: peNIC.Name(), SubnetID: snetPE,
			PrivateIPs: []netip.Addr{ip("10.0.2.5"), ip("10.0.2.6")}, PrivateEndpointID: peACR}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nic, err := nicFromSDK(sdk[armnetwork.Interface](t, resource(t, tt.scenario, tt.id)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*nic, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *nic, tt.want)
			}
		})
	}
	t.Run("nic DNS servers, NSG, ASG", func(t *testing.T) {
		nic, err := nicFromSDK(sdk[armnetwork.Interface](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkInterfaces/n","name":"n",
		"properties":{"dnsSettings":{"dnsServers":["10.0.3.4","10.0.3.5"]},"networkSecurityGroup":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkSecurityGroups/x"},
		"ipConfigurations":[{"name":"a","properties":{"privateIPAddress":"10.5.0.4","subnet":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/two"}}},
		{"name":"b","properties":{"primary":true,"privateIPAddress":"10.5.1.4","subnet":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/one"},
		"applicationSecurityGroups":[{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/applicationSecurityGroups/asg"}]}}]}}`)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(nic.DNSServers, []netip.Addr{ip("10.0.3.4"), ip("10.0.3.5")}) || nic.SubnetID.Name() != "one" ||
			nic.NSGID.Name() != "x" || len(nic.ASGIDs) != 1 || len(nic.PrivateIPs) != 2 {
			t.Errorf("got %+v", *nic)
		}
	})
}

func TestEffectiveRoutesFromSDK(t *testing.T) {
	body := action(t, "baseline_ok", nvaNIC+"/effectiveRouteTable")
	list := sdk[armnetwork.EffectiveRouteListResult](t, body)
	routes, err := effectiveRoutesFromSDK(nvaNIC, list.Value)
	if err != nil {
		t.Fatal(err)
	}
	if len(routes) != 22 {
		t.Fatalf("%d routes, want 22", len(routes))
	}
	tests := []struct {
		i    int
		want model.Route
	}{
		{0, model.Route{Prefix: pfx("10.0.0.0/16"), NextHopType: "VnetLocal", Source: "Default", State: "Active", Origin: "effective route (Default)"}},
		{1, model.Route{Prefix: pfx("10.1.0.0/16"), NextHopType: "VNetPeering", Source: "Default", State: "Active", Origin: "effective route (Default)"}},
		{2, model.Route{Prefix: pfx("192.168.0.0/16"), NextHopType: "VirtualNetworkGateway", NextHopIP: ip("10.0.0.30"), Source: "VirtualNetworkGateway",
			State: "Active", Origin: "effective route (VirtualNetworkGateway)"}},
		{6, model.Route{Prefix: pfx("192.168.0.0/16"), NextHopType: "None", Source: "Default", State: "Invalid", Origin: "effective route (Default)"}},
		{21, model.Route{Prefix: pfx("10.0.2.6/32"), NextHopType: "InterfaceEndpoint", Source: "Default", State: "Active", Origin: "effective route (Default)"}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(routes[tt.i], tt.want) {
			t.Errorf("route %d = %+v, want %+v", tt.i, routes[tt.i], tt.want)
		}
	}

	t.Run("one route per prefix, user route names", func(t *testing.T) {
		list := sdk[armnetwork.EffectiveRouteListResult](t, []byte(`{"value":[{"name":"to-fw","source":"User","state":"Active",
			"addressPrefix":["10.2.0.0/16","10.3.0.0/16"],"nextHopIpAddress":["10.0.1.4"],"nextHopType":"VirtualAppliance"}]}`))
		routes, err := effectiveRoutesFromSDK("/nic", list.Value)
		if err != nil || len(routes) != 2 || routes[1].Prefix != pfx("10.3.0.0/16") || routes[1].Name != "to-fw" || routes[1].NextHopIP != ip("10.0.1.4") {
			t.Errorf("routes = %+v, %v", routes, err)
		}
	})
	t.Run("bad prefix", func(t *testing.T) {
		list := sdk[armnetwork.EffectiveRouteListResult](t, []byte(`{"value":[{"addressPrefix":["10.2.0.0/40"],"nextHopType":"None"}]}`))
		if _, err := effectiveRoutesFromSDK("/nic", list.Value); err == nil || !strings.Contains(err.Error(), "value[0].addressPrefix") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestGatewayFromSDK(t *testing.T) {
	gw, err := gatewayFromSDK(sdk[armnetwork.VirtualNetworkGateway](t, resource(t, "baseline_ok", vpngw)))
	if err != nil {
		t.Fatal(err)
	}
	want := model.Gateway{ID: vpngw, Name: "vpngw", VNetID: vnetHub, Type: "Vpn", BGPEnabled: true, PrivateIPs: []netip.Addr{ip("10.0.0.30")}}
	if !reflect.DeepEqual(*gw, want) {
		t.Errorf("got %+v\nwant %+v", *gw, want)
	}

	t.Run("active-active, ExpressRoute", func(t *testing.T) {
		gw, err := gatewayFromSDK(sdk[armnetwork.VirtualNetworkGateway](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworkGateways/er",
		"properties":{"gatewayType":"ExpressRoute","enableBgp":false,"bgpSettings":{"bgpPeeringAddress":"10.0.0.4,10.0.0.5"},
		"ipConfigurations":[{"properties":{"subnet":{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/GatewaySubnet"}}}]}}`)))
		if err != nil {
			t.Fatal(err)
		}
		if !gw.BGPEnabled || len(gw.PrivateIPs) != 2 || gw.VNetID.Name() != "v" {
			t.Errorf("got %+v", *gw)
		}
	})
}

func TestGatewayRoutesFromSDK(t *testing.T) {
	tests := []struct {
		name string
		path model.ResourceID
		want []model.GatewayRoute
	}{
		{"learned", vpngw + "/getLearnedRoutes", []model.GatewayRoute{
			{Prefix: pfx("10.0.0.0/16"), SourcePeer: ip("10.0.0.30"), Origin: "Network"},
			{Prefix: pfx("192.168.0.0/16"), NextHop: ip("192.168.255.1"), SourcePeer: ip("192.168.255.1"), Origin: "EBgp", ASPath: "65010"},
		}},
		{"advertised", vpngw + "/getAdvertisedRoutes", []model.GatewayRoute{
			{Prefix: pfx("10.0.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp", ASPath: "65515"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list := sdk[armnetwork.GatewayRouteListResult](t, action(t, "baseline_ok", tt.path))
			got, err := gatewayRoutesFromSDK(tt.path, list.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestBGPPeersFromSDK(t *testing.T) {
	list := sdk[armnetwork.BgpPeerStatusListResult](t, action(t, "baseline_ok", vpngw+"/getBgpPeerStatus"))
	got, err := bgpPeersFromSDK(vpngw, []netip.Addr{ip("10.0.0.30")}, list.Value)
	if err != nil || !reflect.DeepEqual(got, []netip.Addr{ip("192.168.255.1")}) {
		t.Errorf("peers = %v, %v", got, err)
	}
	// The other instance of an active-active gateway is not a peer to ask.
	got, _ = bgpPeersFromSDK(vpngw, []netip.Addr{ip("192.168.255.1")}, list.Value)
	if len(got) != 0 {
		t.Errorf("own address kept: %v", got)
	}
}

func TestStaticConnection(t *testing.T) {
	conn := sdk[armnetwork.VirtualNetworkGatewayConnection](t, resource(t, "baseline_ok", cnOnprem))
	if staticConnection(conn) {
		t.Error("BGP connection taken as static")
	}
	noBGP := sdk[armnetwork.VirtualNetworkGatewayConnection](t, []byte(strings.Replace(string(resource(t, "baseline_ok", cnOnprem)), `"enableBgp": true`, `"enableBgp": false`, 1)))
	if !staticConnection(noBGP) {
		t.Error("connection without BGP not static")
	}
	er := sdk[armnetwork.VirtualNetworkGatewayConnection](t, []byte(`{"properties":{"connectionType":"ExpressRoute","peer":{"id":"/c"}}}`))
	if staticConnection(er) {
		t.Error("ExpressRoute connection taken as static")
	}
	lgw := sdk[armnetwork.LocalNetworkGateway](t, resource(t, "baseline_ok", lgwOnprem))
	got, err := localGatewayPrefixes(lgw)
	if err != nil || !reflect.DeepEqual(got, []netip.Prefix{pfx("192.168.255.1/32")}) {
		t.Errorf("prefixes = %v, %v", got, err)
	}
	plain := sdk[armnetwork.LocalNetworkGateway](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/localNetworkGateways/l",
		"properties":{"localNetworkAddressSpace":{"addressPrefixes":["192.168.0.0/16","172.20.0.0/14"]}}}`))
	got, err = localGatewayPrefixes(plain)
	if err != nil || !reflect.DeepEqual(got, []netip.Prefix{pfx("192.168.0.0/16"), pfx("172.20.0.0/14")}) {
		t.Errorf("prefixes = %v, %v", got, err)
	}
}

func TestPrivateEndpointFromSDK(t *testing.T) {
	pe, err := privateEndpointFromSDK(sdk[armnetwork.PrivateEndpoint](t, resource(t, "baseline_ok", peACR)))
	if err != nil {
		t.Fatal(err)
	}
	want := model.PrivateEndpoint{
		ID: peACR, Name: "pe-acr", SubnetID: snetPE, NICIDs: idList(peNIC),
		Connections: []model.PrivateLinkConnection{{TargetID: acr, GroupIDs: []string{"registry"}, Status: "Approved"}},
		DNSConfigs: []model.FQDNAddresses{
			{FQDN: "contosoreg.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.5")}},
			{FQDN: "contosoreg.westeurope.data.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.6")}},
		},
	}
	if !reflect.DeepEqual(*pe, want) {
		t.Fatalf("got  %+v\nwant %+v", *pe, want)
	}
	nic := sdk[armnetwork.Interface](t, resource(t, "baseline_ok", peNIC))
	if err := mergeNICFQDNs(pe, nic); err != nil || !reflect.DeepEqual(*pe, want) {
		t.Errorf("merging the NIC's FQDNs changed a complete endpoint: %+v %v", *pe, err)
	}

	t.Run("application security groups of the endpoint", func(t *testing.T) {
		const asg = "/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/applicationSecurityGroups/asg-registry"
		body := strings.Replace(string(resource(t, "baseline_ok", peACR)), `"customDnsConfigs"`, `"applicationSecurityGroups": [{"id": "`+asg+`"}, {"id": "`+asg+`"}], "customDnsConfigs"`, 1)
		pe, err := privateEndpointFromSDK(sdk[armnetwork.PrivateEndpoint](t, []byte(body)))
		if err != nil || !reflect.DeepEqual(pe.ASGIDs, idList(asg)) {
			t.Errorf("groups %v, %v; want [%s] once", pe.ASGIDs, err, asg)
		}
	})

	t.Run("empty customDnsConfigs, manual connection", func(t *testing.T) {
		body := strings.Replace(string(resource(t, "baseline_ok", peACR)), `"customDnsConfigs"`, `"ignored"`, 1)
		body = strings.Replace(body, `"manualPrivateLinkServiceConnections": []`, `"manualPrivateLinkServiceConnections": [{"properties":{"privateLinkServiceId":"/x","groupIds":["registry"],"privateLinkServiceConnectionState":{"status":"Pending"}}}]`, 1)
		pe, err := privateEndpointFromSDK(sdk[armnetwork.PrivateEndpoint](t, []byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		if len(pe.DNSConfigs) != 0 || len(pe.Connections) != 2 || pe.Connections[1].Status != "Pending" {
			t.Fatalf("got %+v", *pe)
		}
		if err := mergeNICFQDNs(pe, nic); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pe.DNSConfigs, want.DNSConfigs) {
			t.Errorf("DNS configs from the NIC = %+v", pe.DNSConfigs)
		}
	})
}

func TestZoneGroupFromSDK(t *testing.T) {
	g := sdk[armnetwork.PrivateDNSZoneGroup](t, resource(t, "baseline_ok", peACR+"/privateDnsZoneGroups/default"))
	got, err := zoneGroupFromSDK(g)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.ZoneGroupConfig{{ZoneID: zoneACR, Records: []model.FQDNAddresses{
		{FQDN: "contosoreg.privatelink.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.5")}},
		{FQDN: "contosoreg.westeurope.data.privatelink.azurecr.io", Addresses: []netip.Addr{ip("10.0.2.6")}},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
