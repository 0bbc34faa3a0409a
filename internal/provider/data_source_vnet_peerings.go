// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*vnetPeeringsDataSource)(nil)

// NewVNetPeeringsDataSource is pullpath_vnet_peerings.
func NewVNetPeeringsDataSource() datasource.DataSource { return &vnetPeeringsDataSource{} }

type vnetPeeringsDataSource struct{ dataSourceBase }

type vnetPeeringsModel struct {
	ID               types.String   `tfsdk:"id"`
	VirtualNetworkID types.String   `tfsdk:"virtual_network_id"`
	Peerings         []peeringModel `tfsdk:"peerings"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

func (d *vnetPeeringsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_vnet_peerings"
}

func (d *vnetPeeringsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	flags := peeringFlagAttributes()
	peering := map[string]schema.Attribute{
		"name":                         schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the peering on this virtual network."},
		"id":                           schema.StringAttribute{Computed: true, MarkdownDescription: "Resource id of the peering."},
		"remote_virtual_network_id":    schema.StringAttribute{Computed: true, MarkdownDescription: "The virtual network on the other side."},
		"state":                        schema.StringAttribute{Computed: true, MarkdownDescription: "`peeringState` of this side: `Connected`, `Initiated` (the other side does not exist) or `Disconnected` (the other side was deleted)."},
		"sync_level":                   schema.StringAttribute{Computed: true, MarkdownDescription: "`peeringSyncLevel`: `FullyInSync`, or `LocalNotInSync` / `RemoteNotInSync` / `LocalAndRemoteNotInSync` after an address space change that needs a peering sync."},
		"global":                       schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the two virtual networks are in different regions (global peering)."},
		"remote_address_space":         schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The remote address space as this side last synced it (`remoteAddressSpace`): the prefixes Azure programs routes for."},
		"remote_current_address_space": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The remote virtual network's address space today (`remoteVirtualNetworkAddressSpace`). A prefix here but not in `remote_address_space` is not routed until the peering is synced."},
		"reverse": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "The other side of the peering, read from the remote virtual network. A peering carries traffic only when both " +
				"sides exist and are `Connected`.",
			Attributes: mergeAttributes(map[string]schema.Attribute{
				"status": schema.StringAttribute{Computed: true, MarkdownDescription: "`present` (the remote virtual network has a peering back), `missing` " +
					"(it was read and has none) or `unreadable` (it could not be read; see `detail` and the warning)."},
				"detail":     schema.StringAttribute{Computed: true, MarkdownDescription: "Why the status is `missing` or `unreadable`; null when `present`."},
				"name":       schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the remote side's peering."},
				"id":         schema.StringAttribute{Computed: true, MarkdownDescription: "Resource id of the remote side's peering."},
				"state":      schema.StringAttribute{Computed: true, MarkdownDescription: "`peeringState` of the remote side."},
				"sync_level": schema.StringAttribute{Computed: true, MarkdownDescription: "`peeringSyncLevel` of the remote side."},
			}, flags),
		},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The peerings of a virtual network with both sides' states and flags: the facts behind the " +
			"`ROUTE_PEERING_*`, `ROUTE_GATEWAY_TRANSIT_MISSING` and `ROUTE_FORWARDED_TRAFFIC_BLOCKED` findings.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The virtual network id."},
			"virtual_network_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: idDescription("Resource id of the virtual network whose peerings to read."),
				Validators:          []validator.String{validators.ResourceID(vnetType)},
			},
			"peerings": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The virtual network's peerings, ordered by name.",
				NestedObject:        schema.NestedAttributeObject{Attributes: mergeAttributes(peering, flags)},
			},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

// peeringFlagAttributes are the flags both sides of a peering carry.
func peeringFlagAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"allow_virtual_network_access": schema.BoolAttribute{Computed: true, MarkdownDescription: "`allowVirtualNetworkAccess`: without it the peering carries no traffic from this side."},
		"allow_forwarded_traffic":      schema.BoolAttribute{Computed: true, MarkdownDescription: "`allowForwardedTraffic`: accept traffic that an appliance in the other virtual network forwards."},
		"allow_gateway_transit":        schema.BoolAttribute{Computed: true, MarkdownDescription: "`allowGatewayTransit`: let the other side use this virtual network's VPN/ExpressRoute gateway."},
		"use_remote_gateways":          schema.BoolAttribute{Computed: true, MarkdownDescription: "`useRemoteGateways`: use the other side's gateway (needs `allow_gateway_transit` there)."},
	}
}

func (d *vnetPeeringsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m vnetPeeringsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	run, ctx, done := d.startRead(ctx, m.Timeouts, &resp.Diagnostics)
	defer done()
	if run == nil {
		return
	}

	vnetID := model.ResourceID(m.VirtualNetworkID.ValueString())
	vnet, err := run.reader.VNet(ctx, vnetID)
	if err != nil {
		resp.Diagnostics.Append(readFailure(path.Root("virtual_network_id"), vnetID, err, run.reader.Gaps(), run.timeout))
		return
	}

	// Read every remote side at once; the reader memoises, and VNet has
	// already fetched them to tell global peerings apart.
	peerings := sortedPeerings(vnet.Peerings)
	remoteIDs := make([]model.ResourceID, len(peerings))
	for i, p := range peerings {
		remoteIDs[i] = p.RemoteVNetID
	}
	remotes, errs := run.reader.VNets(ctx, remoteIDs)

	gaps := run.reader.Gaps()
	m.ID = types.StringValue(string(vnet.ID))
	m.Peerings = make([]peeringModel, 0, len(peerings))
	for i, p := range peerings {
		var gap *model.Gap
		if errs[i] != nil {
			g := gapOf(p.RemoteVNetID, errs[i], gaps)
			gap = &g
			resp.Diagnostics.Append(gapWarning("the remote virtual network "+p.RemoteVNetID.Name(), g,
				"The reverse side of peering "+p.Name+" is reported as unreadable."))
		}
		status, rev, detail := reversePeering(p, remotes[i], gap)
		m.Peerings = append(m.Peerings, peeringToModel(p, status, rev, detail))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// sortedPeerings orders peerings by name (ARM's order is not stable).
func sortedPeerings(in []*model.Peering) []*model.Peering {
	out := make([]*model.Peering, 0, len(in))
	for _, p := range in {
		if p != nil {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}
