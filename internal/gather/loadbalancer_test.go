// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"net/netip"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestLoadBalancerFromSDK: the frontends with their addresses, the rules
// with frontend, pools, protocol, ports and floating IP, the pools with
// their NICs' ip configurations; a pool naming a backend by address only
// is marked.
func TestLoadBalancerFromSDK(t *testing.T) {
	const lb = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb"
	const nicIP = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic1/ipConfigurations/ipconfig1"
	tcp := armnetwork.TransportProtocolTCP
	in := &armnetwork.LoadBalancer{ID: to.Ptr(lb), Name: to.Ptr("lb"), Properties: &armnetwork.LoadBalancerPropertiesFormat{
		FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{{ID: to.Ptr(lb + "/frontendIPConfigurations/fe"), Name: to.Ptr("fe"),
			Properties: &armnetwork.FrontendIPConfigurationPropertiesFormat{PrivateIPAddress: to.Ptr("10.0.1.10")}}},
		LoadBalancingRules: []*armnetwork.LoadBalancingRule{{Name: to.Ptr("r"), Properties: &armnetwork.LoadBalancingRulePropertiesFormat{
			FrontendIPConfiguration: &armnetwork.SubResource{ID: to.Ptr(lb + "/frontendIPConfigurations/fe")},
			BackendAddressPool:      &armnetwork.SubResource{ID: to.Ptr(lb + "/backendAddressPools/p1")},
			BackendAddressPools:     []*armnetwork.SubResource{{ID: to.Ptr(lb + "/backendAddressPools/p1")}, {ID: to.Ptr(lb + "/backendAddressPools/p2")}},
			Protocol:                &tcp, FrontendPort: to.Ptr[int32](3128), BackendPort: to.Ptr[int32](8080), EnableFloatingIP: to.Ptr(true)}}},
		BackendAddressPools: []*armnetwork.BackendAddressPool{
			{ID: to.Ptr(lb + "/backendAddressPools/p1"), Name: to.Ptr("p1"), Properties: &armnetwork.BackendAddressPoolPropertiesFormat{
				BackendIPConfigurations: []*armnetwork.InterfaceIPConfiguration{{ID: to.Ptr(nicIP)}}}},
			{ID: to.Ptr(lb + "/backendAddressPools/p2"), Name: to.Ptr("p2"), Properties: &armnetwork.BackendAddressPoolPropertiesFormat{
				LoadBalancerBackendAddresses: []*armnetwork.LoadBalancerBackendAddress{{Properties: &armnetwork.LoadBalancerBackendAddressPropertiesFormat{IPAddress: to.Ptr("10.0.1.20")}}}}},
		},
	}}
	got := loadBalancerFromSDK(in)
	if len(got.Frontends) != 1 || got.Frontends[0].Addr != netip.MustParseAddr("10.0.1.10") || got.Frontends[0].Name != "fe" {
		t.Fatalf("frontends %+v", got.Frontends)
	}
	if len(got.Rules) != 1 {
		t.Fatalf("rules %+v", got.Rules)
	}
	r := got.Rules[0]
	if r.Protocol != "Tcp" || r.FrontendPort != 3128 || r.BackendPort != 8080 || !r.FloatingIP || len(r.PoolIDs) != 2 || !r.FrontendID.Equal(model.ResourceID(lb+"/frontendIPConfigurations/fe")) {
		t.Errorf("rule %+v", r)
	}
	p1, p2 := got.Pool(model.ResourceID(lb+"/backendAddressPools/p1")), got.Pool(model.ResourceID(lb+"/backendAddressPools/p2"))
	if p1 == nil || p1.ByAddress || len(p1.IPConfigurationIDs) != 1 || string(p1.IPConfigurationIDs[0]) != nicIP {
		t.Errorf("pool p1 %+v", p1)
	}
	if p2 == nil || !p2.ByAddress || len(p2.IPConfigurationIDs) != 0 {
		t.Errorf("pool p2 %+v", p2)
	}
	if got.Frontend(netip.MustParseAddr("10.0.1.11")) != nil {
		t.Error("a frontend holds an address it does not have")
	}
}

// TestLoadBalancerOfFrontend: a subnet's ip configuration id names a load
// balancer only when it is a load balancer frontend's.
func TestLoadBalancerOfFrontend(t *testing.T) {
	const lb = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb"
	tests := map[string]model.ResourceID{
		lb + "/frontendIPConfigurations/fe": lb,
		"/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic/ipConfigurations/ipconfig1":      "",
		"/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/applicationGateways/agw/frontendIPConfigurations/fe":   "",
		"/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/vpngw/ipConfigurations/default": "",
	}
	for in, want := range tests {
		if got := loadBalancerOfFrontend(model.ResourceID(in)); got != want {
			t.Errorf("loadBalancerOfFrontend(%s) = %q, want %q", in, got, want)
		}
	}
}
