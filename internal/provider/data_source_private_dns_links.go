// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*privateDNSLinksDataSource)(nil)

// NewPrivateDNSLinksDataSource is pullpath_private_dns_links.
func NewPrivateDNSLinksDataSource() datasource.DataSource { return &privateDNSLinksDataSource{} }

type privateDNSLinksDataSource struct{ dataSourceBase }

type privateDNSLinksModel struct {
	ID                  types.String    `tfsdk:"id"`
	VirtualNetworkID    types.String    `tfsdk:"virtual_network_id"`
	ZoneSubscriptionIDs []string        `tfsdk:"zone_subscription_ids"`
	Zones               []zoneLinkModel `tfsdk:"zones"`
	Complete            types.Bool      `tfsdk:"complete"`
	Timeouts            timeouts.Value  `tfsdk:"timeouts"`
}

func (d *privateDNSLinksDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_private_dns_links"
}

func (d *privateDNSLinksDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The private DNS zones linked to a virtual network. Azure-provided DNS (`168.63.129.16`) answers a " +
			"virtual network's queries from exactly these zones: a registry's `privatelink.azurecr.io` zone that is not " +
			"listed here is not seen by nodes that use Azure DNS in this virtual network (`DNS_ZONE_NOT_LINKED`).",
		Attributes: map[string]schema.Attribute{
			"id": str("The virtual network id."),
			"virtual_network_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: idDescription("Resource id of the virtual network whose zone links to find."),
				Validators:          []validator.String{validators.ResourceID(vnetType)},
			},
			"zone_subscription_ids": schema.ListAttribute{
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Subscriptions (GUIDs) to search for private DNS zones; zones often live in a central " +
					"\"connectivity\" subscription. Default: the virtual network's own subscription. The state holds the " +
					"subscriptions searched.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(stringvalidator.RegexMatches(guidPattern, "must be a subscription id (a GUID)")),
				},
			},
			"zones": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Each zone linked to the virtual network with its link, ordered by zone name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":         str("Resource id of the private DNS zone."),
					"name":       str("Name of the zone, e.g. `privatelink.azurecr.io`."),
					"link_id":    str("Resource id of the zone's virtual network link."),
					"link_name":  str("Name of the link."),
					"link_state": str("`virtualNetworkLinkState`: `Completed`, or `InProgress` while Azure applies it."),
					"registration_enabled": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the link " +
						"auto-registers the virtual network's VM records in the zone."},
					"resolution_policy": str("`Default`, or `NxDomainRedirect` (a name missing from the zone falls back to public resolution)."),
				}},
			},
			"complete": schema.BoolAttribute{Computed: true, MarkdownDescription: "False when some subscription's zones or some " +
				"zone's links could not be read (see the warnings): a zone missing from `zones` may then still be linked."},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (d *privateDNSLinksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m privateDNSLinksModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	run, ctx, done := d.startRead(ctx, m.Timeouts, &resp.Diagnostics)
	defer done()
	if run == nil {
		return
	}
	r := run.reader

	// The VNet is read (not only named) so that a wrong id fails with a
	// clear message instead of an empty list.
	vnetID := model.ResourceID(m.VirtualNetworkID.ValueString())
	vnet, err := r.VNet(ctx, vnetID)
	if err != nil {
		resp.Diagnostics.Append(readFailure(path.Root("virtual_network_id"), vnetID, err, r.Gaps(), run.timeout))
		return
	}

	subs := zoneSubscriptions(m.ZoneSubscriptionIDs, vnet.ID)
	complete := true
	names, listErr := r.ZoneNames(ctx, subs)
	if listErr != nil {
		complete = false
	}
	for _, g := range gather.GapsOf(listErr) {
		resp.Diagnostics.Append(zoneListWarning(g))
	}
	var zones []*model.PrivateZone
	if len(names) > 0 {
		// Failures here are the same subscription lists that failed above
		// (already reported) or per-zone link reads (reported below).
		zones, _ = r.PrivateZones(ctx, subs, names)
	}
	linked, undecided := linkedZones(zones, vnet.ID)
	for _, z := range undecided {
		complete = false
		resp.Diagnostics.Append(gapWarning("the virtual network links of zone "+z.Name, r.ZoneLinksGap(z.ID),
			"Whether this zone is linked to the virtual network is unknown; it is not in zones."))
	}

	m.ID = types.StringValue(string(vnet.ID))
	m.ZoneSubscriptionIDs = subs
	m.Zones = linked
	m.Complete = types.BoolValue(complete)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// zoneListWarning explains a subscription whose zones could not be listed,
// on the argument that chose it.
func zoneListWarning(g model.Gap) diag.Diagnostic {
	w := gapWarning("the private DNS zones of subscription "+g.ResourceID.Subscription(), g,
		"Zones in that subscription are missing from zones, and complete is false. Remove the subscription from "+
			"zone_subscription_ids if it holds no zones, or grant the read.")
	return diag.NewAttributeWarningDiagnostic(path.Root("zone_subscription_ids"), w.Summary(), w.Detail())
}

// guidPattern matches a subscription id.
var guidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
