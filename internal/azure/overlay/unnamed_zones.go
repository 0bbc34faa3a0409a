// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// Private DNS zones a plan creates whose name is known only after apply
// (a zone named from another new resource's output). Such a zone answers
// the queries of the VNets it is linked to, and of no other (Azure DNS
// answers a VNet from the zones linked to it, docs/design/azure-behaviour.md
// D2). It does not exist yet, so its links after apply are links the plan
// creates, and those have a zone name known only after apply too. When
// every such link names its VNet, which VNets the zone can answer is known:
// the zone link search (model.ZoneLinkQuery) answers with those links, and
// the zone itself can be left out of a list of zones whose reader asks that
// search (azure.WithZonesFoundByLinks). Otherwise the zone may answer any
// VNet, and a list that could hold it is unknown.

const zoneType = "microsoft.network/privatednszones"

// unnamedLinkVNet is the VNet of a zone link the plan creates in a zone
// whose name is known only after apply, and whether op is such a link;
// vnet is "" when the link's VNet is known only after apply.
func unnamedLinkVNet(op planned.Op) (vnet string, ok bool) {
	if op.Kind != planned.OpCreateUnnamed || typeOf(op.ID) != model.ZoneLinkType {
		return "", false
	}
	p, _ := parseARMPath(op.ID)
	if names := p.names(); len(names) < 1 || names[0] != planned.NameUnknown {
		return "", false
	}
	props, _ := op.Body["properties"].(map[string]any)
	return refID(props["virtualNetwork"]), true
}

// unnamedZoneKnownLinks reports whether op is a zone the plan creates
// with a name known only after apply whose possible links (every link of
// the plan in a zone of unknown name) all name their VNet.
func unnamedZoneKnownLinks(op planned.Op, ops []planned.Op) bool {
	if op.Kind != planned.OpCreateUnnamed || typeOf(op.ID) != zoneType || !strings.Contains(op.ID, planned.NameUnknown) {
		return false
	}
	for _, o := range ops {
		if vnet, ok := unnamedLinkVNet(o); ok && vnet == "" {
			return false
		}
	}
	return true
}
