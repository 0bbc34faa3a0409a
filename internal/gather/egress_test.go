// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const (
	lbPIP   = model.ResourceID(nodeRG + "/providers/Microsoft.Network/publicIPAddresses/84d1df4e-1d3b-50cf-9847-62304da81214")
	natGW   = model.ResourceID(spokeRG + "/providers/Microsoft.Network/natGateways/natgw-aks")
	natPfx  = model.ResourceID(spokeRG + "/providers/Microsoft.Network/publicIPPrefixes/ippre-nat")
	fwPIP   = model.ResourceID(hubRG + "/providers/Microsoft.Network/publicIPAddresses/pip-fw-hub")
	fwGroup = model.ResourceID(hubRG + "/providers/Microsoft.Network/azureFirewalls")
)

func TestEgressConversions(t *testing.T) {
	t.Run("cluster outbound profile", func(t *testing.T) {
		cl, err := clusterFromSDK(sdk[armcontainerservice.ManagedCluster](t, resource(t, "baseline_ok", aks1)))
		if err != nil {
			t.Fatal(err)
		}
		want := model.Outbound{Type: "loadBalancer", LoadBalancerIPIDs: []model.ResourceID{lbPIP}}
		if !reflect.DeepEqual(cl.Outbound, want) {
			t.Errorf("outbound %+v, want %+v", cl.Outbound, want)
		}
		got := outboundFromSDK(sdk[armcontainerservice.NetworkProfile](t, []byte(`{"outboundType":"managedNATGateway",
			"natGatewayProfile":{"effectiveOutboundIPs":[{"id":"`+string(natPfx)+`"}]}}`)))
		if got.EffectiveType() != model.OutboundManagedNATGateway || !reflect.DeepEqual(got.NATGatewayIPIDs, []model.ResourceID{natPfx}) {
			t.Errorf("managed NAT gateway: %+v", got)
		}
		if (model.Outbound{}).EffectiveType() != model.OutboundLoadBalancer {
			t.Error("an absent outbound type is the API default, loadBalancer")
		}
	})
	t.Run("node public IPs of a pool", func(t *testing.T) {
		p := agentPoolFromSDK(sdk[armcontainerservice.AgentPool](t, []byte(`{"name":"pub","properties":{"enableNodePublicIP":true,
			"nodePublicIPPrefixID":"`+string(natPfx)+`"}}`)))
		if !p.NodePublicIP || !p.NodePublicIPPrefixID.Equal(natPfx) {
			t.Errorf("pool %+v", p)
		}
	})
	t.Run("subnet NAT gateway and default outbound access", func(t *testing.T) {
		for _, tt := range []struct {
			body     string
			nat      model.ResourceID
			disabled bool
		}{
			{`{"id":"` + string(snetAKS) + `","properties":{"natGateway":{"id":"` + string(natGW) + `"},"defaultOutboundAccess":false}}`, natGW, true},
			{`{"id":"` + string(snetAKS) + `","properties":{"defaultOutboundAccess":true}}`, "", false},
			{`{"id":"` + string(snetAKS) + `","properties":{}}`, "", false},
		} {
			s, err := subnetFromSDK(vnetSpoke, sdk[armnetwork.Subnet](t, []byte(tt.body)))
			if err != nil || !s.NATGatewayID.Equal(tt.nat) || s.DefaultOutboundAccessDisabled != tt.disabled {
				t.Errorf("%s: %+v %v", tt.body, s, err)
			}
		}
	})
	t.Run("registry IP rules", func(t *testing.T) {
		body := `{"id":"` + string(acr) + `","name":"contosoreg","properties":{"publicNetworkAccess":"Enabled",
			"networkRuleSet":{"defaultAction":"Deny","ipRules":[{"action":"Allow","value":"20.50.1.10"},{"value":"203.0.113.0/24"}]}}}`
		reg, err := registryFromSDK(sdk[armcontainerregistry.Registry](t, []byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		want := []netip.Prefix{pfx("20.50.1.10/32"), pfx("203.0.113.0/24")}
		if !reflect.DeepEqual(reg.IPRules, want) || !reg.IPRulesApply() || reg.PublicNetworkDisabled() {
			t.Errorf("registry %+v", reg)
		}
		bad := strings.Replace(body, "203.0.113.0/24", "203.0.113", 1)
		if _, err := registryFromSDK(sdk[armcontainerregistry.Registry](t, []byte(bad))); err == nil ||
			!strings.Contains(err.Error(), "networkRuleSet.ipRules") || !strings.Contains(err.Error(), "203.0.113") {
			t.Errorf("a malformed IP rule must fail naming the field and the value, got %v", err)
		}
	})
	t.Run("NAT gateway, public IP, public IP prefix", func(t *testing.T) {
		g, err := natGatewayFromSDK(sdk[armnetwork.NatGateway](t, []byte(`{"id":"`+string(natGW)+`","name":"natgw-aks","properties":{
			"publicIpAddresses":[{"id":"`+string(fwPIP)+`"}],"publicIpPrefixes":[{"id":"`+string(natPfx)+`"}]}}`)))
		if err != nil || g.Name != "natgw-aks" || !reflect.DeepEqual(g.PublicIPIDs, []model.ResourceID{fwPIP, natPfx}) {
			t.Errorf("NAT gateway %+v %v", g, err)
		}
		a, err := publicIPFromSDK(sdk[armnetwork.PublicIPAddress](t, []byte(`{"id":"`+string(fwPIP)+`","name":"pip","properties":{"ipAddress":"20.80.0.1"}}`)))
		if err != nil || a.Prefix != pfx("20.80.0.1/32") {
			t.Errorf("public IP %+v %v", a, err)
		}
		a, err = publicIPFromSDK(sdk[armnetwork.PublicIPAddress](t, []byte(`{"id":"`+string(fwPIP)+`","name":"pip","properties":{"publicIPAllocationMethod":"Dynamic"}}`)))
		if err != nil || a.Prefix.IsValid() {
			t.Errorf("an unallocated public IP has no prefix: %+v %v", a, err)
		}
		if _, err := publicIPFromSDK(sdk[armnetwork.PublicIPAddress](t, []byte(`{"id":"`+string(fwPIP)+`","properties":{"ipAddress":"20.80.0"}}`))); err == nil {
			t.Error("a malformed address must fail")
		}
		p, err := publicIPPrefixFromSDK(sdk[armnetwork.PublicIPPrefix](t, []byte(`{"id":"`+string(natPfx)+`","name":"ippre-nat","properties":{"ipPrefix":"20.60.0.0/30"}}`)))
		if err != nil || p.Prefix != pfx("20.60.0.0/30") {
			t.Errorf("prefix %+v %v", p, err)
		}
	})
	t.Run("Azure Firewall: the addresses its egress leaves through", func(t *testing.T) {
		fw, err := firewallFromSDK(sdk[armnetwork.AzureFirewall](t, []byte(`{"id":"`+string(fwHub)+`","name":"fw-hub","properties":{
			"ipConfigurations":[{"name":"ipconfig1","properties":{"privateIPAddress":"10.0.4.4","publicIPAddress":{"id":"`+string(fwPIP)+`"},"subnet":{"id":"`+string(fwSubnet)+`"}}}],
			"managementIpConfiguration":{"name":"mgmt","properties":{"publicIPAddress":{"id":"`+string(lbPIP)+`"}}},
			"firewallPolicy":{"id":"`+hubRG+`/providers/Microsoft.Network/firewallPolicies/fwpol-hub"}}}`)))
		if err != nil {
			t.Fatal(err)
		}
		want := &model.AzureFirewall{ID: fwHub, Name: "fw-hub", PrivateIPs: []netip.Addr{ip("10.0.4.4")}, SubnetIDs: []model.ResourceID{fwSubnet},
			PublicIPAddressIDs: []model.ResourceID{fwPIP}, PolicyID: hubRG + "/providers/Microsoft.Network/firewallPolicies/fwpol-hub"}
		if !reflect.DeepEqual(fw, want) {
			t.Errorf("got  %+v\nwant %+v (the management address carries no customer traffic)", fw, want)
		}
		hub, err := firewallFromSDK(sdk[armnetwork.AzureFirewall](t, []byte(`{"id":"`+string(fwHub)+`","name":"fw-vhub","properties":{
			"hubIPAddresses":{"privateIPAddress":"10.100.64.4","publicIPs":{"count":1,"addresses":[{"address":"20.90.0.1"}]}}}}`)))
		if err != nil || !reflect.DeepEqual(hub.PrivateIPs, []netip.Addr{ip("10.100.64.4")}) || !reflect.DeepEqual(hub.PublicIPs, []netip.Addr{ip("20.90.0.1")}) {
			t.Errorf("virtual hub firewall %+v %v", hub, err)
		}
		for c, want := range map[model.ResourceID]model.ResourceID{
			fwHub + "/azureFirewallIpConfigurations/ipconfig1": fwHub,
			fwHub + "/azureFirewallIpConfigurations/ipconfig2": fwHub,
			nvaNIC + "/ipConfigurations/ipconfig1":             "",
		} {
			if got := firewallOfIPConfig(c); !got.Equal(want) {
				t.Errorf("firewall of ip configuration %s: %q, want %q", c, got, want)
			}
		}
	})
}

// egressSnapshot edits baseline_ok for the egress reads: the registry
// admits listed IP ranges only, and the load balancer's outbound IP exists.
func egressSnapshot(m map[string]any) {
	for _, res := range m["resources"].([]any) {
		obj := res.(map[string]any)
		if model.ResourceID(obj["id"].(string)).Equal(acr) {
			props := obj["properties"].(map[string]any)
			props["publicNetworkAccess"] = "Enabled"
			props["networkRuleSet"] = map[string]any{"defaultAction": "Deny", "ipRules": []any{map[string]any{"action": "Allow", "value": "20.50.1.10"}}}
		}
	}
	m["resources"] = append(m["resources"].([]any), map[string]any{"id": string(lbPIP), "name": lbPIP.Name(),
		"type": "Microsoft.Network/publicIPAddresses", "properties": map[string]any{"ipAddress": "20.50.1.10"}})
}

// withFirewall adds Azure Firewall fw-hub (10.0.4.4) in the hub and a UDR
// sending 0.0.0.0/0 there; listed says whether the subnet answer lists the
// firewall's ip configuration.
func withFirewall(m map[string]any, listed bool) {
	subnet := map[string]any{"name": "AzureFirewallSubnet", "id": string(fwSubnet), "properties": map[string]any{"addressPrefix": "10.0.4.0/26"}}
	if listed {
		subnet["properties"].(map[string]any)["ipConfigurations"] = []any{map[string]any{"id": string(fwHub) + "/azureFirewallIpConfigurations/ipconfig1"}}
	}
	for _, res := range m["resources"].([]any) {
		obj := res.(map[string]any)
		switch id := model.ResourceID(obj["id"].(string)); {
		case id.Equal(vnetHub):
			props := obj["properties"].(map[string]any)
			props["subnets"] = append(props["subnets"].([]any), subnet)
		case id.Equal(vnetSpoke):
			s := obj["properties"].(map[string]any)["subnets"].([]any)[0].(map[string]any)["properties"].(map[string]any)
			s["routeTable"] = map[string]any{"id": string(rtAKS)}
		}
	}
	m["resources"] = append(m["resources"].([]any),
		map[string]any{"id": string(rtAKS), "name": "rt-aks", "type": "Microsoft.Network/routeTables", "properties": map[string]any{
			"routes": []any{map[string]any{"name": "to-fw", "id": string(rtAKS) + "/routes/to-fw", "properties": map[string]any{
				"addressPrefix": "0.0.0.0/0", "nextHopType": "VirtualAppliance", "nextHopIpAddress": "10.0.4.4"}}}}},
		map[string]any{"id": string(fwHub), "name": "fw-hub", "type": "Microsoft.Network/azureFirewalls", "properties": map[string]any{
			"ipConfigurations": []any{map[string]any{"name": "ipconfig1", "id": string(fwHub) + "/azureFirewallIpConfigurations/ipconfig1", "properties": map[string]any{
				"privateIPAddress": "10.0.4.4", "publicIPAddress": map[string]any{"id": string(fwPIP)}, "subnet": map[string]any{"id": string(fwSubnet)}}}}}},
		map[string]any{"id": string(fwPIP), "name": "pip-fw-hub", "type": "Microsoft.Network/publicIPAddresses", "properties": map[string]any{"ipAddress": "20.80.0.1"}})
}

func TestEgressReads(t *testing.T) {
	t.Run("no IP rules: no egress address is read", func(t *testing.T) {
		r, ct := newReader(t, "baseline_ok")
		f, _ := verifyFacts(t, r, acrRequest)
		requireNoGaps(t, r)
		if ct.count("GET", lbPIP) != 0 || len(f.Network.PublicAddresses) != 0 {
			t.Errorf("the load balancer's outbound IP was read although nothing needs it")
		}
	})
	t.Run("IP rules: the load balancer's outbound IP, read once", func(t *testing.T) {
		r, ct := withSnapshot(t, "baseline_ok", egressSnapshot)
		f, _ := verifyFacts(t, r, acrRequest)
		requireNoGaps(t, r)
		a := f.Network.PublicAddress(lbPIP)
		if a == nil || a.Prefix != pfx("20.50.1.10/32") || ct.count("GET", lbPIP) != 1 {
			t.Fatalf("address %+v, %d reads", a, ct.count("GET", lbPIP))
		}
		// The public IP only: the security admin rules of a VNet no flow
		// starts in are pending, not read ahead.
		if !reflect.DeepEqual(f.Network.SpeculativeReads, []model.ResourceID{lbPIP}) {
			t.Errorf("speculative reads %v", f.Network.SpeculativeReads)
		}
	})
	t.Run("a malformed public IP answer is a gap naming the resource and the field", func(t *testing.T) {
		r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
			egressSnapshot(m)
			for _, res := range m["resources"].([]any) {
				obj := res.(map[string]any)
				if model.ResourceID(obj["id"].(string)).Equal(lbPIP) {
					obj["properties"].(map[string]any)["ipAddress"] = "20.50.1"
				}
			}
		})
		f, _ := verifyFacts(t, r, acrRequest)
		g, ok := r.Gaps().Lookup(lbPIP)
		if !ok || g.Kind != model.GapUnavailable || !strings.Contains(g.Detail, "ipAddress") || f.Network.PublicAddress(lbPIP) != nil {
			t.Fatalf("gap %+v %v", g, ok)
		}
	})
	t.Run("IP rules and a NAT gateway on the node subnet: the NAT gateway's prefix, not the load balancer's IP", func(t *testing.T) {
		r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
			egressSnapshot(m)
			for _, res := range m["resources"].([]any) {
				obj := res.(map[string]any)
				if model.ResourceID(obj["id"].(string)).Equal(vnetSpoke) {
					s := obj["properties"].(map[string]any)["subnets"].([]any)[0].(map[string]any)["properties"].(map[string]any)
					s["natGateway"] = map[string]any{"id": string(natGW)}
				}
			}
			m["resources"] = append(m["resources"].([]any),
				map[string]any{"id": string(natGW), "name": "natgw-aks", "properties": map[string]any{"publicIpPrefixes": []any{map[string]any{"id": string(natPfx)}}}},
				map[string]any{"id": string(natPfx), "name": "ippre-nat", "properties": map[string]any{"ipPrefix": "20.60.0.0/30"}})
		})
		f, _ := verifyFacts(t, r, acrRequest)
		requireNoGaps(t, r)
		if f.Network.NATGateway(natGW) == nil || f.Network.PublicAddress(natPfx) == nil || ct.count("GET", lbPIP) != 0 {
			t.Errorf("NAT gateway %v, prefix %v, load balancer IP reads %d", f.Network.NATGateway(natGW), f.Network.PublicAddress(natPfx), ct.count("GET", lbPIP))
		}
	})
	t.Run("a route to an Azure Firewall: the firewall by its ip configuration, its public IP for IP rules", func(t *testing.T) {
		r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) { egressSnapshot(m); withFirewall(m, true) })
		f, _ := verifyFacts(t, r, acrRequest)
		requireNoGaps(t, r)
		fw := f.Network.FirewallByPrivateIP(ip("10.0.4.4"))
		if fw == nil || !fw.ID.Equal(fwHub) || f.Network.PublicAddress(fwPIP) == nil {
			t.Fatalf("firewall %+v, public IP %+v", fw, f.Network.PublicAddress(fwPIP))
		}
		if ct.count("GET", fwHub) != 1 || ct.count("GET", fwGroup) != 0 {
			t.Errorf("firewall GET %d, list %d: the subnet names it", ct.count("GET", fwHub), ct.count("GET", fwGroup))
		}
	})
	t.Run("a firewall subnet answer without ip configurations: the resource group's firewalls", func(t *testing.T) {
		r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) { withFirewall(m, false) })
		f, _ := verifyFacts(t, r, acrRequest)
		requireNoGaps(t, r)
		if f.Network.FirewallByPrivateIP(ip("10.0.4.4")) == nil || ct.count("GET", fwGroup) != 1 || ct.count("GET", fwHub) != 0 {
			t.Errorf("firewalls %v; list %d, GET %d", keys(f.Network.Firewalls), ct.count("GET", fwGroup), ct.count("GET", fwHub))
		}
	})
	t.Run("an unreadable firewall is a gap with its permission, read speculatively", func(t *testing.T) {
		r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
			withFirewall(m, true)
			m["faults"] = map[string]any{"GET " + string(fwHub): map[string]any{"status": 403, "code": "AuthorizationFailed", "message": "denied"}}
		})
		f, res := verifyFacts(t, r, acrRequest)
		g, ok := r.Gaps().Lookup(fwHub)
		if !ok || g.Kind != model.GapPermissionDenied || g.Permission != "Microsoft.Network/azurefirewalls/read" {
			t.Fatalf("gap %+v %v", g, ok)
		}
		found := false
		for _, id := range f.Network.SpeculativeReads {
			found = found || id.Equal(fwHub)
		}
		if !found {
			t.Errorf("speculative reads %v lack the firewall", f.Network.SpeculativeReads)
		}
		// The registry is reached over its private endpoint, which the
		// firewall route does not carry: the unread firewall changes
		// nothing.
		if res.Verdict != model.Reachable {
			t.Errorf("verdict %s\n%s", res.Verdict, res.Summary)
		}
	})
}
