// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The network resources of openworld_network.go are roots of their own:
// each is read (or answered) as a resource, and its settings are
// attributed to it.
func init() {
	openWorldRoots = append(openWorldRoots,
		armnetwork.Interface{},
		armnetwork.SecurityGroup{},
		armnetwork.RouteTable{},
		armnetwork.VirtualNetworkPeering{},
		armnetwork.PrivateEndpoint{},
		armnetwork.PrivateDNSZoneGroup{},
		armnetwork.NatGateway{},
		armnetwork.LoadBalancer{},
		armnetwork.PublicIPAddress{},
		armnetwork.PublicIPPrefix{},
		armnetwork.FirewallPolicy{},
		armnetwork.FirewallPolicyRuleCollectionGroup{},
		armnetwork.FirewallPolicyFilterRuleCollection{},
		armnetwork.FirewallPolicyNatRuleCollection{},
		armnetwork.ApplicationRule{},
		armnetwork.Rule{},
		armnetwork.NatRule{},
		armnetwork.IPGroup{},
		armnetwork.VirtualNetworkGateway{},
		armnetwork.VirtualNetworkGatewayConnection{},
		armnetwork.LocalNetworkGateway{},
		armnetwork.EffectiveRoute{},
		armnetwork.GatewayRoute{},
		armnetwork.BgpPeerStatus{},
		armnetwork.EffectiveSecurityAdminRule{},
		armnetwork.EffectiveDefaultSecurityAdminRule{},
		armnetwork.ServiceTagsListResult{},
	)
}

// TestUnmodelledNetworkSettings: each converter of a network resource
// reports its unmodelled settings present with a non-default value, with
// the property path and the value, attributed to the resource (a rule
// collection group's rules to the group); at the default, absent, or for
// an irrelevant property, nothing.
func TestUnmodelledNetworkSettings(t *testing.T) {
	const (
		nicID  = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic1"
		rtID   = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/routeTables/rt1"
		peerID = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/virtualNetworkPeerings/p1"
		gwID   = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworkGateways/gw1"
		natID  = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/natGateways/nat1"
		polID  = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/firewallPolicies/pol1"
		rcgID  = polID + "/ruleCollectionGroups/g1"
	)
	nic := func(p *armnetwork.InterfacePropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			n, err := nicFromSDK(&armnetwork.Interface{ID: to.Ptr(nicID), Properties: p})
			if err != nil {
				return nil, err
			}
			return n.Unmodelled, nil
		}
	}
	route := func(p *armnetwork.RoutePropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			rt, err := routeTableFromSDK(&armnetwork.RouteTable{ID: to.Ptr(rtID), Properties: &armnetwork.RouteTablePropertiesFormat{
				Routes: []*armnetwork.Route{{Name: to.Ptr("r1"), Properties: p}}}})
			if err != nil {
				return nil, err
			}
			return rt.Unmodelled, nil
		}
	}
	peering := func(p *armnetwork.VirtualNetworkPeeringPropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			pe, err := peeringFromSDK("/v", &armnetwork.VirtualNetworkPeering{ID: to.Ptr(peerID), Properties: p})
			if err != nil {
				return nil, err
			}
			return pe.Unmodelled, nil
		}
	}
	gateway := func(p *armnetwork.VirtualNetworkGatewayPropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			g, err := gatewayFromSDK(&armnetwork.VirtualNetworkGateway{ID: to.Ptr(gwID), Properties: p})
			if err != nil {
				return nil, err
			}
			return g.Unmodelled, nil
		}
	}
	nat := func(p *armnetwork.NatGatewayPropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			g, err := natGatewayFromSDK(&armnetwork.NatGateway{ID: to.Ptr(natID), Properties: p})
			if err != nil {
				return nil, err
			}
			return g.Unmodelled, nil
		}
	}
	policy := func(p *armnetwork.FirewallPolicyPropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			pol, err := firewallPolicyFromSDK(&armnetwork.FirewallPolicy{ID: to.Ptr(polID), Properties: p})
			if err != nil {
				return nil, err
			}
			return pol.Unmodelled, nil
		}
	}
	idps := func(mode armnetwork.FirewallPolicyIntrusionDetectionStateType, overrides ...armnetwork.FirewallPolicyIntrusionDetectionStateType) *armnetwork.FirewallPolicyPropertiesFormat {
		d := &armnetwork.FirewallPolicyIntrusionDetection{Mode: to.Ptr(mode)}
		if len(overrides) > 0 {
			d.Configuration = &armnetwork.FirewallPolicyIntrusionDetectionConfiguration{}
			for i, o := range overrides {
				d.Configuration.SignatureOverrides = append(d.Configuration.SignatureOverrides,
					&armnetwork.FirewallPolicyIntrusionDetectionSignatureSpecification{ID: to.Ptr(fmt.Sprint(2024000 + i)), Mode: to.Ptr(o)})
			}
		}
		return &armnetwork.FirewallPolicyPropertiesFormat{IntrusionDetection: d}
	}
	group := func(rules ...armnetwork.FirewallPolicyRuleClassification) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			g, err := ruleCollectionGroupFromSDK(&armnetwork.FirewallPolicyRuleCollectionGroup{ID: to.Ptr(rcgID), Properties: &armnetwork.FirewallPolicyRuleCollectionGroupProperties{
				Priority: to.Ptr[int32](100),
				RuleCollections: []armnetwork.FirewallPolicyRuleCollectionClassification{&armnetwork.FirewallPolicyFilterRuleCollection{
					Name: to.Ptr("c1"), Priority: to.Ptr[int32](100), RuleCollectionType: to.Ptr(armnetwork.FirewallPolicyRuleCollectionTypeFirewallPolicyFilterRuleCollection),
					Action: &armnetwork.FirewallPolicyFilterRuleCollectionAction{Type: to.Ptr(armnetwork.FirewallPolicyFilterRuleCollectionActionTypeAllow)},
					Rules:  rules,
				}},
			}})
			if err != nil {
				return nil, err
			}
			return g.Unmodelled, nil
		}
	}
	appRule := func(dest ...string) *armnetwork.ApplicationRule {
		r := &armnetwork.ApplicationRule{Name: to.Ptr("acr"), RuleType: to.Ptr(armnetwork.FirewallPolicyRuleTypeApplicationRule), TargetFqdns: []*string{to.Ptr("*.azurecr.io")},
			HTTPHeadersToInsert: []*armnetwork.FirewallPolicyHTTPHeaderToInsert{{HeaderName: to.Ptr("x"), HeaderValue: to.Ptr("y")}}}
		for _, d := range dest {
			r.DestinationAddresses = append(r.DestinationAddresses, to.Ptr(d))
		}
		return r
	}
	const connID = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/connections/c1"
	conn := func(p *armnetwork.VirtualNetworkGatewayConnectionPropertiesFormat) func() ([]model.UnmodelledSetting, error) {
		return func() ([]model.UnmodelledSetting, error) {
			return unmodelledOf(connID, &armnetwork.VirtualNetworkGatewayConnection{ID: to.Ptr(connID), Properties: p}), nil
		}
	}
	connected, connecting := armnetwork.VirtualNetworkGatewayConnectionStatusConnected, armnetwork.VirtualNetworkGatewayConnectionStatusConnecting
	tests := []struct {
		name string
		read func() ([]model.UnmodelledSetting, error)
		res  model.ResourceID
		want []string // property=value
	}{
		{"NIC without TCP state tracking", nic(&armnetwork.InterfacePropertiesFormat{DisableTCPStateTracking: to.Ptr(true)}), nicID, []string{"properties.disableTcpStateTracking=true"}},
		{"NIC with TCP state tracking", nic(&armnetwork.InterfacePropertiesFormat{DisableTCPStateTracking: to.Ptr(false), EnableAcceleratedNetworking: to.Ptr(true)}), nicID, nil},
		{"NIC ip configuration chained to a gateway load balancer", nic(&armnetwork.InterfacePropertiesFormat{IPConfigurations: []*armnetwork.InterfaceIPConfiguration{
			{Name: to.Ptr("c0"), Properties: &armnetwork.InterfaceIPConfigurationPropertiesFormat{PrivateIPAddress: to.Ptr("10.0.0.4")}},
			{Name: to.Ptr("c1"), Properties: &armnetwork.InterfaceIPConfigurationPropertiesFormat{PrivateIPAddress: to.Ptr("10.0.0.5"), GatewayLoadBalancer: &armnetwork.SubResource{ID: to.Ptr("/gwlb")}}},
		}}), nicID, []string{`properties.ipConfigurations[1].properties.gatewayLoadBalancer={"id":"/gwlb"}`}},
		{"NIC ip configuration with a TAP only", nic(&armnetwork.InterfacePropertiesFormat{IPConfigurations: []*armnetwork.InterfaceIPConfiguration{
			{Name: to.Ptr("c0"), Properties: &armnetwork.InterfaceIPConfigurationPropertiesFormat{VirtualNetworkTaps: []*armnetwork.VirtualNetworkTap{{ID: to.Ptr("/tap")}}}},
		}}), nicID, nil},
		{"route overriding BGP", route(&armnetwork.RoutePropertiesFormat{AddressPrefix: to.Ptr("10.9.0.0/16"), NextHopType: to.Ptr(armnetwork.RouteNextHopTypeNone), HasBgpOverride: to.Ptr(true)}), rtID, []string{"properties.routes[0].properties.hasBgpOverride=true"}},
		{"route without BGP override", route(&armnetwork.RoutePropertiesFormat{AddressPrefix: to.Ptr("10.9.0.0/16"), NextHopType: to.Ptr(armnetwork.RouteNextHopTypeNone), HasBgpOverride: to.Ptr(false)}), rtID, nil},
		{"IPv6-only peering", peering(&armnetwork.VirtualNetworkPeeringPropertiesFormat{EnableOnlyIPv6Peering: to.Ptr(true)}), peerID, []string{"properties.enableOnlyIPv6Peering=true"}},
		{"peering of both families", peering(&armnetwork.VirtualNetworkPeeringPropertiesFormat{EnableOnlyIPv6Peering: to.Ptr(false), DoNotVerifyRemoteGateways: to.Ptr(true)}), peerID, nil},
		{"policy-based VPN gateway", gateway(&armnetwork.VirtualNetworkGatewayPropertiesFormat{VPNType: to.Ptr(armnetwork.VPNTypePolicyBased)}), gwID, []string{"properties.vpnType=PolicyBased"}},
		{"route-based VPN gateway without NAT rules", gateway(&armnetwork.VirtualNetworkGatewayPropertiesFormat{VPNType: to.Ptr(armnetwork.VPNTypeRouteBased), NatRules: []*armnetwork.VirtualNetworkGatewayNatRule{}}), gwID, nil},
		{"gateway NAT rules and default site", gateway(&armnetwork.VirtualNetworkGatewayPropertiesFormat{NatRules: []*armnetwork.VirtualNetworkGatewayNatRule{{Name: to.Ptr("n1")}}, GatewayDefaultSite: &armnetwork.SubResource{ID: to.Ptr("/lgw")}}), gwID,
			[]string{`properties.gatewayDefaultSite={"id":"/lgw"}`, `properties.natRules=[{"name":"n1"}]`}},
		{"ExpressRoute gateway disabled", gateway(&armnetwork.VirtualNetworkGatewayPropertiesFormat{AdminState: to.Ptr(armnetwork.AdminStateDisabled)}), gwID, []string{"properties.adminState=Disabled"}},
		{"ExpressRoute gateway enabled", gateway(&armnetwork.VirtualNetworkGatewayPropertiesFormat{AdminState: to.Ptr(armnetwork.AdminStateEnabled)}), gwID, nil},
		{"NAT gateway with a service gateway", nat(&armnetwork.NatGatewayPropertiesFormat{ServiceGateway: &armnetwork.SubResource{ID: to.Ptr("/sg")}}), natID, []string{`properties.serviceGateway={"id":"/sg"}`}},
		{"NAT gateway idle timeout", nat(&armnetwork.NatGatewayPropertiesFormat{IdleTimeoutInMinutes: to.Ptr[int32](4)}), natID, nil},
		{"IDPS in Deny mode", policy(idps(armnetwork.FirewallPolicyIntrusionDetectionStateTypeDeny)), polID, []string{"properties.intrusionDetection=mode Deny"}},
		{"IDPS in Alert mode", policy(idps(armnetwork.FirewallPolicyIntrusionDetectionStateTypeAlert)), polID, nil},
		{"IDPS off", policy(idps(armnetwork.FirewallPolicyIntrusionDetectionStateTypeOff)), polID, nil},
		{"IDPS in Alert mode with a signature denied", policy(idps(armnetwork.FirewallPolicyIntrusionDetectionStateTypeAlert, armnetwork.FirewallPolicyIntrusionDetectionStateTypeOff, armnetwork.FirewallPolicyIntrusionDetectionStateTypeDeny)), polID,
			[]string{"properties.intrusionDetection=signatures 2024001 overridden to Deny"}},
		{"threat intelligence Deny is irrelevant", policy(&armnetwork.FirewallPolicyPropertiesFormat{ThreatIntelMode: to.Ptr(armnetwork.AzureFirewallThreatIntelModeDeny)}), polID, nil},
		{"explicit proxy is irrelevant", policy(&armnetwork.FirewallPolicyPropertiesFormat{ExplicitProxySettings: &armnetwork.ExplicitProxySettings{EnableExplicitProxy: to.Ptr(true)}}), polID, nil},
		{"network rule FQDNs switched off", policy(&armnetwork.FirewallPolicyPropertiesFormat{DNSSettings: &armnetwork.DNSSettings{EnableProxy: to.Ptr(true), RequireProxyForNetworkRules: to.Ptr(false)}}), polID,
			[]string{"properties.dnsSettings.requireProxyForNetworkRules=false"}},
		{"network rule FQDNs on", policy(&armnetwork.FirewallPolicyPropertiesFormat{DNSSettings: &armnetwork.DNSSettings{EnableProxy: to.Ptr(true), RequireProxyForNetworkRules: to.Ptr(true)}}), polID, nil},
		{"application rule with destination addresses", group(appRule("10.0.0.0/8")), rcgID, []string{`properties.ruleCollections[0].rules[0].destinationAddresses=["10.0.0.0/8"]`}},
		{"application rule by FQDN only", group(appRule()), rcgID, nil},
		{"connection not connected", conn(&armnetwork.VirtualNetworkGatewayConnectionPropertiesFormat{ConnectionStatus: &connecting, EnableBgp: to.Ptr(false)}), connID, []string{"properties.connectionStatus=Connecting"}},
		{"connection connected", conn(&armnetwork.VirtualNetworkGatewayConnectionPropertiesFormat{ConnectionStatus: &connected, UsePolicyBasedTrafficSelectors: to.Ptr(false)}), connID, nil},
		{"connection with policy-based selectors", conn(&armnetwork.VirtualNetworkGatewayConnectionPropertiesFormat{ConnectionStatus: &connected, UsePolicyBasedTrafficSelectors: to.Ptr(true)}), connID, []string{"properties.usePolicyBasedTrafficSelectors=true"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			us, err := tc.read()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range us {
				if u.Why == "" {
					t.Errorf("%s: no reason", u.Property)
				}
				if !u.Resource.Equal(tc.res) {
					t.Errorf("%s: attributed to %s, want %s", u.Property, u.Resource, tc.res)
				}
				got = append(got, u.Property+"="+u.Value)
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("unmodelled settings = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOpenWorldNetworkMergedOnce: the network table is part of the open
// world, and no type is classified in two tables.
func TestOpenWorldNetworkMergedOnce(t *testing.T) {
	for typ, props := range openWorldNetwork {
		if got := openWorld[typ]; reflect.ValueOf(got).Pointer() != reflect.ValueOf(props).Pointer() {
			t.Errorf("%s: the open world does not hold the network table's classification", typ)
		}
	}
}
