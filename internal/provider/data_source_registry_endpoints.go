// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*registryEndpointsDataSource)(nil)

// NewRegistryEndpointsDataSource is pullpath_registry_endpoints.
func NewRegistryEndpointsDataSource() datasource.DataSource { return &registryEndpointsDataSource{} }

type registryEndpointsDataSource struct{ dataSourceBase }

type registryEndpointsModel struct {
	ID                  types.String           `tfsdk:"id"`
	RegistryID          types.String           `tfsdk:"registry_id"`
	LoginServer         types.String           `tfsdk:"login_server"`
	Location            types.String           `tfsdk:"location"`
	PublicNetworkAccess types.String           `tfsdk:"public_network_access"`
	DataEndpointEnabled types.Bool             `tfsdk:"data_endpoint_enabled"`
	Endpoints           []endpointModel        `tfsdk:"endpoints"`
	PrivateEndpoints    []privateEndpointModel `tfsdk:"private_endpoints"`
	Timeouts            timeouts.Value         `tfsdk:"timeouts"`
}

func (d *registryEndpointsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_registry_endpoints"
}

func (d *registryEndpointsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	strs := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every hostname an Azure Container Registry hands out during a pull, with the private addresses its " +
			"private endpoints serve for each. A pull touches the login server (token and manifest) and then, after a 307 " +
			"redirect, a data endpoint per region (or, without data endpoints, the registry's storage): a node that reaches " +
			"only the login server authenticates fine and then fails to download layers (`ENDPOINT_DATA_NOT_COVERED`).",
		Attributes: map[string]schema.Attribute{
			"id": str("The registry id."),
			"registry_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: idDescription("Resource id of the Azure Container Registry."),
				Validators:          []validator.String{validators.ResourceID(registryType)},
			},
			"login_server":          str("The login server, e.g. `contosoreg.azurecr.io`: the only name nodes should use (the `privatelink` name is not on the certificate)."),
			"location":              str("The registry's home region."),
			"public_network_access": str("`Enabled` or `Disabled`. With `Disabled`, a name that resolves to a public address fails with 403."),
			"data_endpoint_enabled": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether dedicated data endpoints are enabled."},
			"endpoints": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Every hostname of a pull: login first, then regional, data and storage endpoints, by region.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"host": str("The hostname. For `storage` the wildcard `*.blob.core.windows.net` (or the sovereign cloud's suffix): " +
						"Azure Resource Manager does not name the registry's storage account."),
					"kind": str("`login` (token exchange and manifests), `data` (`<registry>.<region>.data.azurecr.io`: layers after the " +
						"redirect), `regional` (`<registry>.<region>.geo.azurecr.io`, only when the registry enables regional endpoints) or `storage` (layers from blob storage, only " +
						"when the registry has neither data endpoints nor private endpoints)."),
					"region":            str("The region the host serves."),
					"private_addresses": strs("Private addresses the registry's private endpoints serve for this host (their `customDnsConfigs`); empty when none does."),
					"note":              str("What the host is for, in words."),
				}},
			},
			"private_endpoints": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The registry's private endpoints, ordered by id.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                str("Resource id of the private endpoint."),
					"name":              str("Name of the private endpoint."),
					"connection_status": str("The registry's view of the connection: `Approved`, `Pending`, `Rejected` or `Disconnected`. Only `Approved` carries traffic."),
					"subnet_id":         str("The subnet the private endpoint is in; null when it could not be read."),
					"fqdns":             strs("Every FQDN the private endpoint serves (its `customDnsConfigs`); null when it could not be read."),
				}},
			},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (d *registryEndpointsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m registryEndpointsModel
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

	regID := model.ResourceID(m.RegistryID.ValueString())
	reg, err := r.Registry(ctx, regID)
	if err != nil {
		resp.Diagnostics.Append(readFailure(path.Root("registry_id"), regID, err, r.Gaps(), run.timeout))
		return
	}
	if !reg.ReplicasKnown {
		if g, ok := r.ReplicationsGap(reg.ID); ok {
			resp.Diagnostics.Append(gapWarning("the replications of registry "+reg.Name, g,
				"Data endpoints of replica regions may be missing from endpoints."))
		}
	}

	// The registry's connections name its private endpoints; read them all
	// at once for their subnets and FQDNs.
	conns := append([]model.RegistryPEConnection(nil), reg.PrivateEndpointConnections...)
	sort.SliceStable(conns, func(i, j int) bool { return conns[i].PrivateEndpointID.Key() < conns[j].PrivateEndpointID.Key() })
	peIDs := make([]model.ResourceID, len(conns))
	for i, c := range conns {
		peIDs[i] = c.PrivateEndpointID
	}
	pes, errs := r.PrivateEndpoints(ctx, peIDs)

	var readPEs []*model.PrivateEndpoint
	m.PrivateEndpoints = make([]privateEndpointModel, 0, len(conns))
	for i, c := range conns {
		if errs[i] != nil {
			resp.Diagnostics.Append(gapWarning("the private endpoint "+c.PrivateEndpointID.Name(), gapOf(c.PrivateEndpointID, errs[i], r.Gaps()),
				"Its subnet and FQDNs are null, and the addresses it serves are missing from endpoints[*].private_addresses."))
		}
		if pes[i] != nil {
			readPEs = append(readPEs, pes[i])
		}
		m.PrivateEndpoints = append(m.PrivateEndpoints, privateEndpointToModel(c, pes[i]))
	}

	m.ID = types.StringValue(string(reg.ID))
	m.LoginServer = types.StringValue(reg.LoginServer)
	m.Location = stringOrNull(model.NormalizeRegion(reg.Location))
	m.PublicNetworkAccess = stringOrNull(reg.PublicNetworkAccess)
	m.DataEndpointEnabled = types.BoolValue(reg.DataEndpointEnabled)
	m.Endpoints = nil
	for _, e := range registryEndpoints(reg, readPEs) {
		m.Endpoints = append(m.Endpoints, endpointToModel(e))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
