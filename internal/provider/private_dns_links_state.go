// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// zoneLinkModel is one element of pullpath_private_dns_links.zones: a zone
// and its link to the VNet. A zone linked twice to the same VNet (which
// Azure refuses, but a snapshot may hold) appears twice.
type zoneLinkModel struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	LinkID              types.String `tfsdk:"link_id"`
	LinkName            types.String `tfsdk:"link_name"`
	LinkState           types.String `tfsdk:"link_state"`
	RegistrationEnabled types.Bool   `tfsdk:"registration_enabled"`
	ResolutionPolicy    types.String `tfsdk:"resolution_policy"`
}

// linkedZones picks the zones linked to vnetID, ordered by zone name then
// link name. Zones whose links could not be read are returned separately:
// they may or may not be linked.
func linkedZones(zones []*model.PrivateZone, vnetID model.ResourceID) (linked []zoneLinkModel, undecided []*model.PrivateZone) {
	for _, z := range zones {
		if z == nil {
			continue
		}
		if !z.LinksKnown {
			undecided = append(undecided, z)
			continue
		}
		for _, l := range z.Links {
			if !l.VNetID.Equal(vnetID) {
				continue
			}
			linked = append(linked, zoneLinkModel{
				ID:                  types.StringValue(string(z.ID)),
				Name:                types.StringValue(z.Name),
				LinkID:              types.StringValue(string(l.ID)),
				LinkName:            types.StringValue(l.Name),
				LinkState:           stringOrNull(l.State),
				RegistrationEnabled: types.BoolValue(l.RegistrationEnabled),
				ResolutionPolicy:    stringOrNull(l.ResolutionPolicy),
			})
		}
	}
	sort.SliceStable(linked, func(i, j int) bool {
		a, b := strings.ToLower(linked[i].Name.ValueString()), strings.ToLower(linked[j].Name.ValueString())
		if a != b {
			return a < b
		}
		return strings.ToLower(linked[i].LinkName.ValueString()) < strings.ToLower(linked[j].LinkName.ValueString())
	})
	sort.SliceStable(undecided, func(i, j int) bool { return undecided[i].ID.Key() < undecided[j].ID.Key() })
	if linked == nil {
		linked = []zoneLinkModel{} // known: no zone is linked
	}
	return linked, undecided
}

// zoneSubscriptions is the subscriptions to search for zones: the
// configured ones, else the VNet's own. Duplicates (in any casing) are
// dropped, order kept.
func zoneSubscriptions(configured []string, vnetID model.ResourceID) []string {
	if len(configured) == 0 {
		return []string{vnetID.Subscription()}
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range configured {
		k := strings.ToLower(strings.TrimSpace(s))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, strings.TrimSpace(s))
	}
	return out
}
