// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"reflect"
	"testing"
)

func TestIPConfigurationOwners(t *testing.T) {
	const hub = "/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/"
	s := &Subnet{IPConfigurationIDs: []ResourceID{
		hub + "azureFirewalls/fw-hub/azureFirewallIpConfigurations/ipconfig1",
		hub + "azureFirewalls/fw-hub/azureFirewallIpConfigurations/ipconfig2",
		hub + "networkInterfaces/nic-nva/ipConfigurations/ipconfig1",
		hub + "virtualHubs/rs-hub/ipConfigurations/ipconfig1",
	}}
	if got, want := s.IPConfigurationOwners("azureFirewallIpConfigurations"), []ResourceID{hub + "azureFirewalls/fw-hub"}; !reflect.DeepEqual(got, want) {
		t.Errorf("firewalls %v, want %v", got, want)
	}
	if got, want := s.IPConfigurationOwners("IPCONFIGURATIONS"), []ResourceID{hub + "networkInterfaces/nic-nva", hub + "virtualHubs/rs-hub"}; !reflect.DeepEqual(got, want) {
		t.Errorf("owners of ipConfigurations %v, want %v", got, want)
	}
	if got := (&Subnet{}).IPConfigurationOwners("ipConfigurations"); got != nil {
		t.Errorf("a subnet without ip configurations: %v", got)
	}
}
