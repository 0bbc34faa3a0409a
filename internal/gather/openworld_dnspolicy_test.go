// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"

// The DNS security policy models are roots of the open-world table too.
func init() {
	openWorldRoots = append(openWorldRoots, armdnsresolver.DNSSecurityRule{}, armdnsresolver.DomainList{})
}
