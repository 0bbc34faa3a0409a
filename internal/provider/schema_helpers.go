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

// idNote ends the description of every resource id argument, so that the
// documentation says how ids are matched instead of users finding out from
// an error. It states what the validators (validators.ResourceID) and the
// readers do: ARM ids are case-insensitive and clients are per
// subscription; a trailing slash or surrounding whitespace is rejected
// rather than silently trimmed, because an id that was built by string
// concatenation from a wrong part is better caught than guessed at.
const idNote = " Matched case-insensitively, as Azure Resource Manager does (`resourcegroups` and `microsoft.network` " +
	"work), in any subscription (not only `subscription_id`'s). Must start with `/subscriptions/`; a trailing slash, " +
	"surrounding whitespace or a URL is an error."

// idDescription appends idNote to the description of a resource id argument.
func idDescription(desc string) string { return desc + idNote }
