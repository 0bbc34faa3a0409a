// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/pipeline"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

var (
	_ datasource.DataSourceWithConfigure        = (*nodeRoutesDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*nodeRoutesDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig   = (*nodeRoutesDataSource)(nil)
)

// Resource types of pullpath_node_routes' ids.
const (
	nodeRoutesClusterType = "Microsoft.ContainerService/managedClusters"
	nodeRoutesSubnetType  = "Microsoft.Network/virtualNetworks/subnets"
)

// NewNodeRoutesDataSource is pullpath_node_routes.
func NewNodeRoutesDataSource() datasource.DataSource { return &nodeRoutesDataSource{} }

type nodeRoutesDataSource struct{ dataSourceBase }

// nodeRoutesModel is the configuration and state.
type nodeRoutesModel struct {
	ID                 types.String   `tfsdk:"id"`
	ClusterID          types.String   `tfsdk:"cluster_id"`
	NodePool           types.String   `tfsdk:"node_pool"`
	SubnetID           types.String   `tfsdk:"subnet_id"`
	NetworkInterfaceID types.String   `tfsdk:"network_interface_id"`
	Destinations       types.List     `tfsdk:"destinations"`
	IncludeRoutes      types.Bool     `tfsdk:"include_routes"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`

	RouteSets []nodeRouteSetModel      `tfsdk:"route_sets"`
	Traces    []nodeTraceModel         `tfsdk:"traces"`
	Findings  []nodeRoutesFindingModel `tfsdk:"findings"`
	Stats     *nodeRoutesStatsModel    `tfsdk:"stats"`
}

func (d *nodeRoutesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node_routes"
}

const nodeRoutesDescription = "The routes a node really has, and where a packet to each destination goes: for every node pool " +
	"of an AKS cluster (or one pool, a subnet, or a network interface), the route table Azure applies, and for each " +
	"destination IP the route it selects, the path hop by hop (peerings, private endpoints, gateways, appliances), the " +
	"return path and the verdict, with findings from the public catalogue.\n\n" +
	"Pools of type `VirtualMachines` and standalone network interfaces of running VMs have a real effective route table: " +
	"it is read and the path is traced with it (`source = \"effective\"`), because it is what Azure programs: a destination " +
	"it drops is unreachable even when the configuration would route it. The routes computed from configuration are " +
	"compared with it for each destination (a disagreement is `COVERAGE_MODEL_DRIFT`). Scale-set pools (the AKS default) and pools at zero nodes " +
	"have no effective-route API: their routes are computed from configuration — the subnet's route table, the VNet's " +
	"address space, peerings, private endpoints, gateway routes, service endpoints (`source = \"computed\"`, " +
	"`COVERAGE_ROUTES_COMPUTED`). Pools on the same subnet share one computed table.\n\n" +
	"Service tags are resolved from the Service Tag Discovery API (read once per region, only when a security rule, a " +
	"user-defined route or a service endpoint names one): a user-defined route addressed by a service tag is listed once " +
	"per prefix of the tag, and a subnet's service endpoints add a `VirtualNetworkServiceEndpoint` route per prefix of " +
	"the service's regional tag in each of the endpoint's locations, as Azure lists them. When the tags cannot be read, " +
	"such a route keeps the tag as its prefix, service endpoint routes are not listed, and destinations they could " +
	"concern are `unverified` with the `EVIDENCE_*` finding of the read.\n\n" +
	"Every trace that arrives is also checked against the network security groups on its path, statically, as Azure " +
	"applies them: outbound at the node (the NIC's group — for a scale-set pool the one of the scale set's NIC " +
	"configuration — then the node subnet's), in and out of every virtual appliance the path crosses, and inbound at " +
	"the destination (its subnet's group — for a private endpoint only when the subnet's private endpoint network " +
	"policies enable security groups — then the NIC's, for a VM found at that address). Destinations are addresses " +
	"without a port: the flow checked is the pull's, TCP 443. A denying rule is `SECURITY_RULE_OUTBOUND_DENIED` or " +
	"`SECURITY_RULE_INBOUND_DENIED` with the group, rule, priority and flow; a rule naming a service tag is decided by " +
	"the tag's members; a deciding rule whose service tag or application security group cannot be resolved is " +
	"`SECURITY_RULE_UNVERIFIED`; the groups passed are " +
	"hops. With `subnet_id` only the subnet's group is known (a NIC's own group needs `network_interface_id`).\n\n" +
	"Evidence the provider cannot read (403, 404, throttling) never counts as reachable: the verdict is `unverified`, " +
	"with an `EVIDENCE_*` finding that names the resource and the permission. Nothing is sent to the destinations."

func (d *nodeRoutesDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	routeAttrs := map[string]schema.Attribute{
		"address_prefix": str("The destination prefix in CIDR form. A user-defined route addressed by a service tag is one " +
			"route per prefix of the tag; when the service tags could not be read, it is listed once with the tag here."),
		"next_hop_type": str("Where the route sends packets, as Azure writes it: `VnetLocal`, `VNetPeering`, `VNetGlobalPeering`, " +
			"`VirtualNetworkGateway`, `VirtualAppliance`, `InterfaceEndpoint`, `VirtualNetworkServiceEndpoint`, `Internet` or " +
			"`None` (dropped)."),
		"next_hop_ip": str("The next hop address (`VirtualAppliance`, `VirtualNetworkGateway`); null when the type has none."),
		"source":      str("`Default` (system route), `User` (route table) or `VirtualNetworkGateway` (BGP)."),
		"state": str("`Active`, or `Invalid` for a route that does not apply: a system route overridden by a same-prefix " +
			"user-defined or BGP route, a private endpoint route invalidated by a user-defined route, a route to a gateway " +
			"that is not there."),
		"origin": str("What put the route there, e.g. `peering spoke-to-hub`, `route table rt-aks route to-fw`, " +
			"`route table rt-aks route to-acr, service tag AzureContainerRegistry`, `private endpoint pe-acr`, " +
			"`service endpoint Microsoft.Storage, service tag Storage.WestEurope`, or `effective route (Default)` for a real " +
			"effective table."),
	}
	findingAttrs := map[string]schema.Attribute{
		"code":     str("The catalogue code, e.g. `ROUTE_BLACKHOLE`. Codes are a public contract and are never renamed."),
		"severity": str("`error`, `warning` or `info`."),
		"condition": str("The link of the chain: `route` (security rules included), `return_route`, `coverage` or " +
			"`evidence` (the catalogue's other conditions do not arise from routes)."),
		"owner":       str("Who acts: `network` or `operator`."),
		"node_pool":   str("The node pool the finding is about; null for `subnet_id` and `network_interface_id`."),
		"destination": str("The destination (as given in `destinations`) the finding is about; null when it is about the whole route set."),
		"resource_id": str("The resource to change (route table, peering, gateway, network interface, network security " +
			"group), or the one that could not be read."),
		"message":     str("What is wrong, with the concrete names, addresses and prefixes."),
		"remediation": str("What to change, and what will not help."),
	}
	findingList := func(desc string) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc,
			NestedObject: schema.NestedAttributeObject{Attributes: findingAttrs}}
	}
	setIdentity := func(of string) map[string]schema.Attribute {
		return map[string]schema.Attribute{
			"node_pool": str(of + "node pool (with `cluster_id`); null for `subnet_id` and `network_interface_id`."),
			"subnet_id": str(of + "subnet; null when a pool's subnet could not be determined."),
			"network_interface_id": str(of + "network interface: the one given in `network_interface_id`, or the node NIC " +
				"whose effective route table stands for a `VirtualMachines` pool; null for computed pool and subnet routes."),
		}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: nodeRoutesDescription,
		Attributes: mergeAttributes(map[string]schema.Attribute{
			"id": str("The id the routes were asked for: `cluster_id` (with `/agentPools/{node_pool}` when a pool is named), " +
				"`subnet_id` or `network_interface_id`."),
			"cluster_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of an AKS cluster: one route set per node pool (System and User, at zero nodes " +
					"too), found through the pool's subnet, scale set or VMs and their network interfaces. Exactly one of " +
					"`cluster_id`, `subnet_id` and `network_interface_id`."),
				Validators: []validator.String{validators.ResourceID(nodeRoutesClusterType)},
			},
			"node_pool": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Name of one node pool of `cluster_id`; default: every pool. A name the cluster does not " +
					"have is an error that lists the pools it has. Only with `cluster_id`. AKS pool names are lower-case letters " +
					"and digits, starting with a letter, at most 12 characters; anything else fails `validate`.",
				// The same rule as pullpath_verification's node_pools: a name AKS
				// cannot have fails validate instead of a read.
				Validators: []validator.String{stringvalidator.LengthBetween(1, 12),
					stringvalidator.RegexMatches(validators.PoolNamePattern, "must be an AKS node pool name: lower-case letters and digits, starting with a letter")},
			},
			"subnet_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of a subnet (of nodes that are not, or not yet, an AKS cluster): its routes " +
					"computed from configuration. Exactly one of `cluster_id`, `subnet_id` and `network_interface_id`."),
				Validators: []validator.String{validators.ResourceID(nodeRoutesSubnetType)},
			},
			"network_interface_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of a network interface: a standalone one (its real effective route table when " +
					"it belongs to a running VM), or a scale-set instance's (" +
					"`…/virtualMachineScaleSets/{vmss}/virtualMachines/{i}/networkInterfaces/{nic}`, computed routes). Exactly " +
					"one of `cluster_id`, `subnet_id` and `network_interface_id`."),
				Validators: []validator.String{validators.ResourceID(nicType, vmssNICType)},
			},
			"destinations": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IP addresses (IPv4 or IPv6) to trace from every route set, such as a registry's private " +
					"endpoint addresses or an on-premises host. Without them only the route sets are read. The security rules " +
					"on each path are checked for TCP 443, the flow an image pull needs.",
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(validators.Destination()),
				},
			},
			"include_routes": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Whether `route_sets[*].routes` lists the routes of each route set. Not set (the "+
					"default): a set's routes are listed when it has at most %s of them, which covers route tables of peerings, "+
					"user-defined routes and private endpoints; a set that carries the thousands of routes a hub gateway learned "+
					"from on premises (ExpressRoute, BGP VPN) gets an empty `routes` list, and its `route_count` says how many "+
					"it has. `true` lists every route of every set, however many: each node pool stores its own copy in the "+
					"state, so 20 pools behind a hub that learns 10,000 prefixes store 200,000 routes and the plan becomes slow "+
					"and memory-hungry. `false` lists none. Tracing, `selected_route`, findings and `route_count` are the same "+
					"either way.", limitText(nodeRoutesListLimit)),
			},

			"route_sets": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "One route set per node pool (pools by name), or the one of `subnet_id` or " +
					"`network_interface_id`.",
				NestedObject: schema.NestedAttributeObject{Attributes: mergeAttributes(setIdentity("The "), map[string]schema.Attribute{
					"source": str("`effective` (the network interface's real effective route table, read from Azure) or " +
						"`computed` (from configuration: scale-set instances and pools at zero nodes have no effective-route API)."),
					"route_count": schema.Int64Attribute{Computed: true, MarkdownDescription: "How many routes the set has, " +
						"always, whether `routes` lists them or not (see `include_routes`)."},
					"routes": schema.ListNestedAttribute{
						Computed: true,
						MarkdownDescription: "Every route, as Azure lists an effective route table, Invalid ones included. Empty " +
							"when the routes cannot be determined (see `findings`), when `include_routes` is false, or, with " +
							"`include_routes` not set, when the set has more than " + limitText(nodeRoutesListLimit) + " routes " +
							"(`route_count` then says how many).",
						NestedObject: schema.NestedAttributeObject{Attributes: routeAttrs},
					},
				})},
			},
			"traces": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "One trace per route set × destination, in route set order, then `destinations` order.",
				NestedObject: schema.NestedAttributeObject{Attributes: mergeAttributes(setIdentity("The route set's "), map[string]schema.Attribute{
					"route_source": str("The `source` of the route set: `effective` or `computed`."),
					"destination":  str("The destination, as given in `destinations`."),
					"source_address": str("The node address the packet starts from (replies return to it): the first node's, or, " +
						"for a pool at zero nodes, the first address Azure hands out in the subnet."),
					"selected_route": schema.SingleNestedAttribute{
						Computed: true,
						MarkdownDescription: "The route the route set selects for the destination (longest prefix; among equal " +
							"prefixes user-defined, then BGP, then system; the routes of the VNet's own space, its peerings and " +
							"service endpoints beat even more specific BGP routes). Null when no route matches or the routes are unknown.",
						Attributes: routeAttrs,
					},
					"hops": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The path " +
						"from the node subnet, one string per subnet that routes the packet: the route it selects and where " +
						"that leads, e.g. `subnet vnet-spoke/snet-aks → route 10.0.2.5/32 InterfaceEndpoint (private endpoint " +
						"pe-acr) → vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)`; then one string per network security group " +
						"the TCP 443 flow passes, in path order, e.g. `nsg nsg-aks (subnet) allows TCP 443 by rule AllowVnetOutBound " +
						"(65000)` or `… at appliance 10.0.1.4 (nic-vm-nva)`, ending with the one that denies it."},
					"verdict": str("`reachable`, `unreachable` (an `error` finding) or `unverified` (evidence is missing, or the " +
						"network interface's effective routes disagree with the configuration so the real path cannot be " +
						"followed). Never `reachable` by default."),
					"return_verdict": str("The verdict of the return path alone; null when the forward path did not arrive."),
					"return_note":    str("How the return path was decided, in words; null when it was not."),
					"findings":       findingList("The findings of this trace, forward and return path."),
					"suspected": findingList("Findings that hold only if the missing evidence does not change the route: " +
						"worth a look, not counted in the verdict."),
				})},
			},
			"findings": findingList("Every finding once per route set: `COVERAGE_ROUTES_COMPUTED` for computed route sets, " +
				"the evidence a route set lacks (`EVIDENCE_*`), and each trace's route, security rule (`SECURITY_RULE_*`), " +
				"return route and `COVERAGE_MODEL_DRIFT` findings with their destination. Errors first, then warnings, then info."),
			"stats": schema.SingleNestedAttribute{
				Computed:            true,
				MarkdownDescription: "What the read cost.",
				Attributes: map[string]schema.Attribute{
					"arm_requests": schema.Int64Attribute{Computed: true, MarkdownDescription: "HTTP requests sent to " +
						"Azure Resource Manager (or answered by the snapshot) for this read, retries, pages and polls included. " +
						"Reads answered from the provider's request cache (a resource another data source of the same plan " +
						"already read) send nothing and are not counted."},
					"duration_ms": schema.Int64Attribute{Computed: true, MarkdownDescription: "Wall-clock time of the read " +
						"in milliseconds."},
				},
			},
		}),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (d *nodeRoutesDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("cluster_id"), path.MatchRoot("subnet_id"), path.MatchRoot("network_interface_id")),
	}
}

// ValidateConfig: node_pool selects a pool of cluster_id and means nothing
// without it. Unknown values are skipped (checked once known).
func (d *nodeRoutesDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m nodeRoutesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.NodePool.IsNull() && m.ClusterID.IsNull() {
		given := "cluster_id is not set"
		switch {
		case !m.SubnetID.IsNull():
			given = "subnet_id is set instead"
		case !m.NetworkInterfaceID.IsNull():
			given = "network_interface_id is set instead"
		}
		resp.Diagnostics.AddAttributeError(path.Root("node_pool"), "node_pool needs cluster_id",
			fmt.Sprintf("node_pool names one node pool of the AKS cluster given in cluster_id, but %s. "+
				"Give cluster_id (and keep node_pool), or remove node_pool: a subnet or a network interface has no node pools.", given))
	}
}

func (d *nodeRoutesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	started := time.Now()
	var m nodeRoutesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var raw []string
	if !m.Destinations.IsNull() {
		resp.Diagnostics.Append(m.Destinations.ElementsAs(ctx, &raw, false)...)
	}
	dests, diags := nodeDestinations(raw)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := gather.NodeRoutesRequest{
		ClusterID: model.ResourceID(m.ClusterID.ValueString()),
		NodePool:  m.NodePool.ValueString(),
		SubnetID:  model.ResourceID(m.SubnetID.ValueString()),
		NICID:     model.ResourceID(m.NetworkInterfaceID.ValueString()),
	}
	for _, dest := range dests {
		q.Destinations = append(q.Destinations, dest.Addr)
	}

	run, ctx, done := d.startRead(ctx, m.Timeouts, &resp.Diagnostics)
	defer done()
	if run == nil {
		return
	}
	ctx, requests := azure.CountRequests(ctx)

	res, facts, _, err := pipeline.NodeRoutes(ctx, run.reader, q, dests)
	if d := nodeRoutesRequestError(q, err, run.reader.Gaps(), run.timeout); d != nil {
		resp.Diagnostics.Append(d)
		return
	}
	if facts.Cluster != nil && len(facts.Sets) == 0 {
		resp.Diagnostics.AddAttributeWarning(path.Root("cluster_id"), "The cluster has no node pools",
			noPoolsMessage(&gather.NothingToCheckError{Cluster: facts.Cluster, NoPools: true, ListGap: agentPoolsGap(facts)}, run.session.Offline())+
				" There are no routes to report.")
	}
	if err != nil { // the read timeout ended the reading of the route sets
		resp.Diagnostics.AddError("Timed out reading the routes",
			fmt.Sprintf("Reading what the routes of %s depend on did not finish within the read timeout (%s), so nothing can be "+
				"concluded.%s Raise timeouts { read = \"…\" } on this data source, or check for throttling (HTTP 429) in the provider "+
				"log (TF_LOG=DEBUG).", nodeRoutesSubject(q), run.timeout, stillReading(azure.Interrupted(ctx))))
		return
	}

	out := nodeRoutesToState(res, routeListingOf(m.IncludeRoutes))
	m.ID = types.StringValue(nodeRoutesSubject(q))
	m.RouteSets, m.Traces, m.Findings = out.RouteSets, out.Traces, out.Findings
	m.Stats = &nodeRoutesStatsModel{ARMRequests: types.Int64Value(requests()), DurationMS: types.Int64Value(time.Since(started).Milliseconds())}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// nodeRoutesRequestError is the diagnostic for a request whose resource is
// unusable (a read of it that the timeout ended included), on the argument
// that names it (targetDiagnostics); nil when err is none of gather's
// target errors.
func nodeRoutesRequestError(q gather.NodeRoutesRequest, err error, gaps model.Gaps, timeout time.Duration) diag.Diagnostic {
	attr := path.Root("subnet_id")
	switch {
	case !q.ClusterID.IsZero():
		attr = path.Root("cluster_id")
	case !q.NICID.IsZero():
		attr = path.Root("network_interface_id")
	}
	args := targetArgs{of: func(model.ResourceID) path.Path { return attr }, pools: path.Root("node_pool")}
	if diags := targetDiagnostics(err, args, gaps, timeout, ""); len(diags) > 0 {
		return diags[0]
	}
	return nil
}

// agentPoolsGap is the failed listing of the cluster's agent pools, if any.
func agentPoolsGap(f model.NodeRouteFacts) *model.Gap {
	if f.Network == nil {
		return nil
	}
	if g, ok := f.Network.Gaps.Lookup(f.Cluster.ID + "/agentPools"); ok {
		return &g
	}
	return nil
}

// nodeRoutesSubject is the id the routes were asked for.
func nodeRoutesSubject(q gather.NodeRoutesRequest) string {
	switch {
	case !q.ClusterID.IsZero() && q.NodePool != "":
		return string(q.ClusterID) + "/agentPools/" + q.NodePool
	case !q.ClusterID.IsZero():
		return string(q.ClusterID)
	case !q.NICID.IsZero():
		return string(q.NICID)
	}
	return string(q.SubnetID)
}

// limitText writes a count the way the documentation does: 1,000.
func limitText(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// nodeDestinations parses destinations (already validated; checked again
// because values unknown at validate time are only known now).
func nodeDestinations(values []string) ([]verify.Destination, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]verify.Destination, 0, len(values))
	for i, s := range values {
		if msg := validators.CheckDestination(s); msg != "" {
			diags.AddAttributeError(path.Root("destinations").AtListIndex(i), "Invalid destination", msg)
			continue
		}
		out = append(out, verify.Destination{Text: s, Addr: netip.MustParseAddr(s).Unmap()})
	}
	return out, diags
}
