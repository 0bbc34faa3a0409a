// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"fmt"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestFirewallSNATConversion(t *testing.T) {
	s := func(v string) *string { return &v }
	fw := &armnetwork.AzureFirewall{ID: s("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/azureFirewalls/fw"), Properties: &armnetwork.AzureFirewallPropertiesFormat{
		AdditionalProperties: map[string]*string{classicSNATRangesProperty: s("IANAPrivateRanges, 198.18.0.0/15"), classicSNATAutoLearnProperty: s("Enabled")},
		ManagementIPConfiguration: &armnetwork.AzureFirewallIPConfiguration{Properties: &armnetwork.AzureFirewallIPConfigurationPropertiesFormat{
			Subnet: &armnetwork.SubResource{ID: s("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/AzureFirewallManagementSubnet")}}},
	}}
	got, err := firewallFromSDK(fw)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.SNAT.PrivateRanges) != "[IANAPrivateRanges 198.18.0.0/15]" || !got.SNAT.AutoLearn {
		t.Errorf("classic SNAT %+v", got.SNAT)
	}
	if !got.ForcedTunnelling() || got.ManagementSubnetID.Name() != "AzureFirewallManagementSubnet" {
		t.Errorf("management subnet %q", got.ManagementSubnetID)
	}

	plain, err := firewallFromSDK(&armnetwork.AzureFirewall{ID: fw.ID, Properties: &armnetwork.AzureFirewallPropertiesFormat{}})
	if err != nil {
		t.Fatal(err)
	}
	if plain.ForcedTunnelling() || len(plain.SNAT.PrivateRanges) != 0 || plain.SNAT.AutoLearn {
		t.Errorf("a firewall without SNAT settings or management ip configuration: %+v", plain)
	}

	mode := armnetwork.AutoLearnPrivateRangesModeEnabled
	pol, err := firewallPolicyFromSDK(&armnetwork.FirewallPolicy{ID: s("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/firewallPolicies/p"), Properties: &armnetwork.FirewallPolicyPropertiesFormat{
		Snat: &armnetwork.FirewallPolicySNAT{PrivateRanges: []*string{s("0.0.0.0/0")}, AutoLearnPrivateRanges: &mode}}})
	if err != nil {
		t.Fatal(err)
	}
	want := model.FirewallSNAT{PrivateRanges: []string{"0.0.0.0/0"}, AutoLearn: true}
	if fmt.Sprint(pol.SNAT) != fmt.Sprint(want) {
		t.Errorf("policy SNAT %+v, want %+v", pol.SNAT, want)
	}
}
