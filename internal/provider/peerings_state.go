// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/netip"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Status of the other side of a peering (pullpath_vnet_peerings
// peerings[*].reverse.status).
const (
	reversePresent    = "present"
	reverseMissing    = "missing"
	reverseUnreadable = "unreadable"
)

// reversePeering finds the other side of p in the remote VNet: the remote's
// peering whose remote is p's own VNet. A peering works only when both sides
// exist and are Connected, so a missing side is a fact worth reporting; a
// remote VNet that could not be read leaves the question open (unreadable),
// never "missing".
func reversePeering(p *model.Peering, remote *model.VNet, gap *model.Gap) (status string, rev *model.Peering, detail string) {
	if gap != nil {
		return reverseUnreadable, nil, fmt.Sprintf("The remote virtual network %s could not be read: %s.", p.RemoteVNetID, gapSummary(*gap))
	}
	if remote == nil {
		return reverseUnreadable, nil, fmt.Sprintf("The remote virtual network %s was not read.", p.RemoteVNetID)
	}
	if rp := remote.PeeringTo(p.VNetID); rp != nil {
		return reversePresent, rp, ""
	}
	return reverseMissing, nil, fmt.Sprintf("The remote virtual network %s has no peering back to %s: the peering cannot connect until one is created there.",
		remote.ID, p.VNetID.Name())
}

// peeringModel is one element of pullpath_vnet_peerings.peerings.
type peeringModel struct {
	Name                      types.String        `tfsdk:"name"`
	ID                        types.String        `tfsdk:"id"`
	RemoteVirtualNetworkID    types.String        `tfsdk:"remote_virtual_network_id"`
	State                     types.String        `tfsdk:"state"`
	SyncLevel                 types.String        `tfsdk:"sync_level"`
	Global                    types.Bool          `tfsdk:"global"`
	AllowVirtualNetworkAccess types.Bool          `tfsdk:"allow_virtual_network_access"`
	AllowForwardedTraffic     types.Bool          `tfsdk:"allow_forwarded_traffic"`
	AllowGatewayTransit       types.Bool          `tfsdk:"allow_gateway_transit"`
	UseRemoteGateways         types.Bool          `tfsdk:"use_remote_gateways"`
	RemoteAddressSpace        []string            `tfsdk:"remote_address_space"`
	RemoteCurrentAddressSpace []string            `tfsdk:"remote_current_address_space"`
	Reverse                   reversePeeringModel `tfsdk:"reverse"`
}

// reversePeeringModel is peerings[*].reverse: the other side's peering.
// Its fields other than status and detail are null unless status is present.
type reversePeeringModel struct {
	Status                    types.String `tfsdk:"status"`
	Detail                    types.String `tfsdk:"detail"`
	Name                      types.String `tfsdk:"name"`
	ID                        types.String `tfsdk:"id"`
	State                     types.String `tfsdk:"state"`
	SyncLevel                 types.String `tfsdk:"sync_level"`
	AllowVirtualNetworkAccess types.Bool   `tfsdk:"allow_virtual_network_access"`
	AllowForwardedTraffic     types.Bool   `tfsdk:"allow_forwarded_traffic"`
	AllowGatewayTransit       types.Bool   `tfsdk:"allow_gateway_transit"`
	UseRemoteGateways         types.Bool   `tfsdk:"use_remote_gateways"`
}

// peeringToModel maps one peering and its reverse side to state.
func peeringToModel(p *model.Peering, status string, rev *model.Peering, detail string) peeringModel {
	m := peeringModel{
		Name:                      types.StringValue(p.Name),
		ID:                        types.StringValue(string(p.ID)),
		RemoteVirtualNetworkID:    types.StringValue(string(p.RemoteVNetID)),
		State:                     types.StringValue(p.State),
		SyncLevel:                 stringOrNull(p.SyncLevel),
		Global:                    types.BoolValue(p.Global),
		AllowVirtualNetworkAccess: types.BoolValue(p.AllowVirtualNetworkAccess),
		AllowForwardedTraffic:     types.BoolValue(p.AllowForwardedTraffic),
		AllowGatewayTransit:       types.BoolValue(p.AllowGatewayTransit),
		UseRemoteGateways:         types.BoolValue(p.UseRemoteGateways),
		RemoteAddressSpace:        prefixStrings(p.RemoteAddressSpace),
		RemoteCurrentAddressSpace: prefixStrings(p.RemoteCurrentAddressSpace),
		Reverse: reversePeeringModel{
			Status: types.StringValue(status),
			Detail: stringOrNull(detail),
			Name:   types.StringNull(), ID: types.StringNull(), State: types.StringNull(), SyncLevel: types.StringNull(),
			AllowVirtualNetworkAccess: types.BoolNull(), AllowForwardedTraffic: types.BoolNull(),
			AllowGatewayTransit: types.BoolNull(), UseRemoteGateways: types.BoolNull(),
		},
	}
	if rev != nil {
		m.Reverse.Name = types.StringValue(rev.Name)
		m.Reverse.ID = types.StringValue(string(rev.ID))
		m.Reverse.State = types.StringValue(rev.State)
		m.Reverse.SyncLevel = stringOrNull(rev.SyncLevel)
		m.Reverse.AllowVirtualNetworkAccess = types.BoolValue(rev.AllowVirtualNetworkAccess)
		m.Reverse.AllowForwardedTraffic = types.BoolValue(rev.AllowForwardedTraffic)
		m.Reverse.AllowGatewayTransit = types.BoolValue(rev.AllowGatewayTransit)
		m.Reverse.UseRemoteGateways = types.BoolValue(rev.UseRemoteGateways)
	}
	return m
}

// stringOrNull maps "" (not reported by Azure) to null rather than to an
// empty string that looks like a value.
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// idOrNull is stringOrNull for resource ids.
func idOrNull(id model.ResourceID) types.String { return stringOrNull(string(id)) }

// prefixStrings renders prefixes in CIDR form; nil stays nil (null list).
func prefixStrings(in []netip.Prefix) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, p := range in {
		out[i] = p.String()
	}
	return out
}

// addrStrings renders addresses; nil becomes an empty (not null) list,
// because "no addresses" is a known fact where this is used.
func addrStrings(in []netip.Addr) []string {
	out := make([]string, len(in))
	for i, a := range in {
		out[i] = a.String()
	}
	return out
}
