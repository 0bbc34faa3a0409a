// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// Resource types of the ids the data sources take.
const (
	vnetType     = "Microsoft.Network/virtualNetworks"
	nicType      = "Microsoft.Network/networkInterfaces"
	registryType = "Microsoft.ContainerRegistry/registries"
	// vmssNICType is the NIC of a scale-set instance: the NIC of an AKS
	// node of a VirtualMachineScaleSets pool.
	vmssNICType = "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces"
)

// mergeAttributes returns one attribute map holding all of the given ones
// (shared attribute sets such as a peering's flags are defined once).
func mergeAttributes(in ...map[string]schema.Attribute) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for _, m := range in {
		maps.Copy(out, m)
	}
	return out
}
