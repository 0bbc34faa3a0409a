// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
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
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
	"github.com/pullpath/terraform-provider-pullpath/internal/whatif"
)

var (
	_ datasource.DataSourceWithConfigure        = (*verificationDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*verificationDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig   = (*verificationDataSource)(nil)
)

// Resource types of the verification's ids.
const (
	clusterType = "Microsoft.ContainerService/managedClusters"
	subnetType  = "Microsoft.Network/virtualNetworks/subnets"
)

// NewVerificationDataSource is pullpath_verification: the whole check,
// judging accept blocks by now (time.Now when nil).
func NewVerificationDataSource(now func() time.Time) datasource.DataSource {
	return &verificationDataSource{now: now}
}

type verificationDataSource struct {
	dataSourceBase
	// now is the clock accept blocks are judged by (time.Now when nil).
	now clock
}

// verificationModel is the data source's configuration and state. The
// arguments are framework values, so that ValidateConfig sees unknown
// values (attributes of resources created in the same run) as what they are.
type verificationModel struct {
	ClusterID           types.String   `tfsdk:"cluster_id"`
	NodeSubnetIDs       types.List     `tfsdk:"node_subnet_ids"`
	NodePools           types.Set      `tfsdk:"node_pools"`
	RegistryID          types.String   `tfsdk:"registry_id"`
	Registry            types.Object   `tfsdk:"registry"`
	Enforce             types.Bool     `tfsdk:"enforce"`
	FailOnUnverified    types.Bool     `tfsdk:"fail_on_unverified"`
	PullCredentials     types.String   `tfsdk:"pull_credentials"`
	ZoneSubscriptionIDs types.Set      `tfsdk:"zone_subscription_ids"`
	DNSZoneSubIDs       types.Set      `tfsdk:"dns_zone_subscription_ids"`
	Accept              types.List     `tfsdk:"accept"`
	DeclaredIn          types.String   `tfsdk:"declared_in"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`

	Verdict   types.String `tfsdk:"verdict"`
	Reachable types.Bool   `tfsdk:"reachable"`
	Findings  types.List   `tfsdk:"findings"`
	Paths     types.List   `tfsdk:"paths"`
	Summary   types.String `tfsdk:"summary"`
	Diagram   types.String `tfsdk:"diagram"`
	Stats     types.Object `tfsdk:"stats"`
}

// registryBlockModel is the `registry` block.
type registryBlockModel struct {
	Hosts     types.List `tfsdk:"hosts"`
	Addresses types.Map  `tfsdk:"addresses"`
}

func (d *verificationDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_verification"
}

// diagramDescription documents the `diagram` attribute.
const diagramDescription = "The paths as a [Mermaid](https://mermaid.js.org/) `flowchart LR`, which GitHub " +
	"([Creating diagrams](https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/creating-diagrams)) and GitLab render in Markdown (a ```` ```mermaid ```` block); Azure DevOps " +
	"documents Mermaid for wiki pages only, in a `::: mermaid` block ([Markdown syntax for wikis](https://learn.microsoft.com/en-us/azure/devops/project/wiki/wiki-markdown-guidance#add-mermaid-diagrams-to-a-wiki-page)), " +
	"and none for pull request comments or pipeline summaries. Node pools → the DNS server they use → each " +
	"hostname → the hops on the way (peerings, appliances, Azure Firewalls, gateways, security groups, the way " +
	"out) → the addresses. Pools whose paths are the same are one node listing their names; a hop several paths " +
	"share (a hub firewall) is one node. The edge where a path stops carries the finding codes that stop it: " +
	"solid red when the path is `unreachable`, dotted orange when it is `unverified`. The text is deterministic " +
	"(the same network gives the same text), so a diagram kept in a pull request comment only changes where the " +
	"network did."

// verificationDescription is the data source's description: what it
// proves, how it fails, and what an unknown input means.
const verificationDescription = "Proves, from what Azure Resource Manager shows, that every node pool can pull its images " +
	"from the registry: for every node pool × every hostname a pull touches (login server, then the data endpoint of every " +
	"region the login server redirects to, or the declared hosts), it follows the chain a freshly created node takes — the " +
	"node's own resolver and the private DNS zones it sees, the route there and back (route tables, peerings, gateways, " +
	"appliances, security rules), the private endpoint's approval, the TLS name, and the kubelet identity's pull role — and " +
	"reports each broken link as a finding addressed to the owner who must act (codes of the public catalogue). No traffic " +
	"is sent: a probe from a CI runner proves nothing about a node.\n\n" +
	"With `enforce = true` (the default) any `error` finding fails the plan with one diagnostic grouped by owner; " +
	"warnings become warning diagnostics. Evidence the provider cannot read (403, 404, throttling) never counts as " +
	"reachable: the verdict is then `unverified` with an `EVIDENCE_*` finding that names the resource and the permission, " +
	"and fails the plan only with `fail_on_unverified = true`.\n\n" +
	"**Fails closed.** When what the arguments name cannot be read — the cluster or a node subnet, the registry, a pool " +
	"named in `node_pools` does not exist, may not be read or cannot be reached — or there is not one node pool × " +
	"hostname to check, the read ends with an error on that argument whatever `enforce` and `fail_on_unverified` say: " +
	"a verification that checked nothing never passes.\n\n" +
	"**Unknown inputs.** When an argument depends on a resource created or changed in the same run (a new cluster's id, " +
	"a subnet created with it), Terraform and OpenTofu cannot read the data source at plan time: they read it during " +
	"apply, after that resource exists, so the plan shows the attributes as known after apply and cannot fail on a " +
	"finding. An error then fails the apply — after the cluster was created. To keep the verification from blocking the " +
	"apply that creates the cluster, use it from a `check` block (reported after every plan and apply, never blocking), " +
	"or in a `lifecycle { postcondition }` of a resource that depends on the cluster, with `enforce = false`, so that " +
	"the next plan fails until the findings are fixed."

func (d *verificationDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computedStr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: verificationDescription,
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of the AKS cluster whose node pools pull. The provider reads its pools " +
					"(System and User, at zero nodes too), their subnets, scale sets and NICs, and the kubelet identity " +
					"(`identityProfile.kubeletidentity`) the nodes pull with. Exactly one of `cluster_id` and `node_subnet_ids`."),
				Validators: []validator.String{validators.ResourceID(clusterType)},
			},
			"node_subnet_ids": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: idDescription("Subnet ids for nodes that are not (yet) an AKS cluster: each subnet is checked as one " +
					"pool named after it, with routes and DNS but without a pull identity. Exactly one of `cluster_id` and " +
					"`node_subnet_ids`."),
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(validators.ResourceID(subnetType)),
				},
			},
			"node_pools": schema.SetAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Names of the cluster's node pools to check; default: every pool. A pool that can host " +
					"the workload and is left out can still break a rollout. A name the cluster does not have is an error " +
					"on this argument that lists the pools it has. Only with `cluster_id`.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.LengthBetween(1, 12),
						stringvalidator.RegexMatches(validators.PoolNamePattern, "must be an AKS node pool name: lower-case letters and digits, starting with a letter")),
				},
			},
			"registry_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of the Azure Container Registry. The provider derives every hostname a " +
					"pull touches (login server, a data endpoint per replica region, and regional endpoints when the registry enables them) and reads its " +
					"private endpoints, network access and role assignments. Exactly one of `registry_id` and `registry`."),
				Validators: []validator.String{validators.ResourceID(registryType)},
			},
			"enforce": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "When true (the default), any `error` finding fails the read, and so the plan, with one " +
					"diagnostic a person reads top to bottom: grouped by owner, each finding with node pool, host, message " +
					"and remediation. Warnings become warning diagnostics. When false, nothing fails: use the attributes " +
					"(in a `check` block or a postcondition). Findings accepted by an `accept` block fail nothing.",
			},
			"fail_on_unverified": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "When true (default false) and `enforce` is true, verdict `unverified` fails the plan " +
					"too: for pipelines where missing evidence (a permission the plan's identity lacks, a DNS server VM " +
					"whose forwarding cannot be read) must not pass silently.",
			},
			"declared_in": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The file that declares this verification, relative to the directory Terraform runs in (as " +
					"`report_dir`; `\"${path.module}/main.tf\"` in a module). With `report_dir`, the SARIF log anchors every " +
					"result there (GitHub code scanning shows a result only in a file of the repository), as a path " +
					"relative to the root of the Git repository that holds it. Default: the first `.tf` file of the " +
					"directory Terraform runs in that declares a `pullpath_verification` (else `main.tf`), at that line. " +
					"See the [CI reports guide](https://github.com/pullpath/terraform-provider-pullpath/blob/main/docs/guides/ci-reports.md).",
			},
			"pull_credentials": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How the nodes authenticate to the registry: `kubelet_identity` (the default: the kubelet " +
					"identity's role assignments on the registry are checked), `image_pull_secret` (workloads bring their own " +
					"credentials, which Azure Resource Manager does not show: the kubelet identity's roles are not what the pull " +
					"uses, so they are not checked, and an `info` finding `COVERAGE_IDENTITY_NOT_CHECKED` says so), or " +
					"`anonymous` (the registry must allow anonymous pull, `anonymousPullEnabled`; otherwise " +
					"`IDENTITY_ANONYMOUS_PULL_DISABLED`). A registry with anonymous pull enabled needs no role, whatever this " +
					"says. With a `registry` block nothing is checked either way: that registry's credentials are not in Azure.",
				Validators: []validator.String{validators.PullCredentials()},
			},
			"zone_subscription_ids": schema.SetAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Subscriptions (GUIDs) that hold the private DNS zones the nodes may resolve from, for " +
					"identities that may not use Azure Resource Graph. By default the provider asks Resource Graph which " +
					"private DNS zones are linked to the VNets whose Azure DNS answers the nodes, in every subscription the " +
					"identity can read (`Microsoft.ResourceGraph/resources/read`, part of Reader), so a central zone in a " +
					"connectivity subscription is found without naming it. When this argument is set, Resource Graph is not " +
					"asked: the zones of these subscriptions are searched, besides the cluster's (or node subnets'), the " +
					"registry's and its private endpoints' subscriptions and the zones the private endpoints' DNS zone groups " +
					"name. A zone it does not find there is reported as unverified (`EVIDENCE_NOT_FOUND`), not as not linked.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.RegexMatches(guidPattern, "must be a subscription id (a GUID)")),
				},
			},
			"dns_zone_subscription_ids": schema.SetAttribute{
				Optional:           true,
				ElementType:        types.StringType,
				DeprecationMessage: zoneSubscriptionsDeprecation,
				MarkdownDescription: "Deprecated: the former name of `zone_subscription_ids`, with the same effect. Rename it " +
					"to `zone_subscription_ids`; setting both is an error.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.RegexMatches(guidPattern, "must be a subscription id (a GUID)")),
				},
			},

			"verdict": computedStr("`reachable` (every node pool can pull every hostname), `unreachable` (at least one " +
				"`error` finding) or `unverified` (no error, but evidence is missing or cannot be read: an `evidence` " +
				"warning or a finding marked unverifying in the catalogue). Never `reachable` by default."),
			"reachable": schema.BoolAttribute{Computed: true, MarkdownDescription: "True exactly when `verdict` is `reachable`."},
			"findings": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "Every conclusion, errors first, then by code, node pool and hostname; one per cause, " +
					"pool and hostname. Codes are a public contract (never renamed) to match on in `check` blocks and " +
					"postconditions.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"code":     computedStr("The catalogue code, e.g. `DNS_ZONE_NOT_LINKED`."),
					"severity": computedStr("`error`, `warning` or `info`."),
					"condition": computedStr("The link of the chain: `route`, `return_route`, `egress`, `dns`, " +
						"`endpoint`, `tls_identity`, `coverage` or `evidence`."),
					"owner": computedStr("Who acts: `network`, `dns`, `registry`, `identity` or `operator`."),
					"node_pool": computedStr("The node pool (for `node_subnet_ids`: the subnet's name); empty when " +
						"the finding is about every pool."),
					"endpoint": computedStr("The hostname (or DNS server address) the finding is about; may be empty."),
					"resource_id": computedStr("The resource to change, or the one that could not be read; may be " +
						"empty."),
					"message":     computedStr("What is wrong, with the concrete names, addresses and prefixes."),
					"remediation": computedStr("What to change, and what will not help."),
					"accepted": schema.SingleNestedAttribute{
						Computed: true,
						MarkdownDescription: "Set when an `accept` block accepted the finding: the block's `reason` and " +
							"`expires`. The finding then has severity `info` and decides no verdict. Null otherwise.",
						Attributes: map[string]schema.Attribute{
							"reason":  computedStr("The accept block's reason."),
							"expires": computedStr("The accept block's expires date (`YYYY-MM-DD`, the last day it is in force)."),
						},
					},
					"planned_change": computedStr("The address of the planned change that causes this finding " +
						"(`azurerm_private_dns_zone_virtual_network_link.spoke`), when the provider has `planned_changes_file`: " +
						"the finding appears only with the plan applied, and disappears when that change is left out. Several " +
						"changes that each cause it are joined with \", \" in sorted order. Null without a plan, and for a " +
						"finding the network has already, before the plan."),
				}},
			},
			"paths": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "One object per node pool × hostname, pools by name, hostnames in the order a pull uses them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"node_pool": computedStr("The node pool."),
					"host":      computedStr("The hostname."),
					"address": computedStr("The address the nodes connect to; empty when the name does not resolve, " +
						"resolves to a public address Resource Manager does not know, or cannot be determined. When the " +
						"record holds several addresses, all of them, comma-separated: a node may get any of them, so each " +
						"is checked."),
					"resolver": computedStr("The DNS servers the pool's nodes use, the answering one first, e.g. " +
						"`azure_dns 168.63.129.16` or `10.0.1.10 (vm vm-dns)`."),
					"route_source": computedStr("`effective` (the path was traced with a node NIC's real effective route table, " +
						"what Azure programs) or `computed` (from configuration: scale-set instances and pools at zero nodes have no " +
						"effective-route API)."),
					"hops": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "" +
						"The route from the node subnet to the address: one element per routing decision (the subnet " +
						"that routed the packet, the route it selected and where that led; an appliance adds one), from the " +
						"node subnet to the destination. With several addresses, the hops of each in turn, each hop " +
						"starting with the address it leads to (`10.0.2.5: …`). Empty when the path stopped before routing."},
					"verdict": computedStr("The verdict of this path alone, by the same rule as `verdict` over the " +
						"findings of this path: a path whose only problems were accepted (`accept`) is `reachable`."),
				}},
			},
			"summary": computedStr("A human-readable report that fits a terminal (lines wrapped at 100 columns): the " +
				"verdict; the paths, node pools with identical paths grouped on one row, with the lookup and hops of " +
				"each path that is not `reachable`; the errors and warnings by owner, each cause once with every pool " +
				"and host it concerns, its message, fix and resource; then the notes, one line per note with the pools " +
				"it concerns. `paths` and `findings` hold every detail. Handy as an `output` or a check block's " +
				"`error_message`."),
			"diagram": computedStr(diagramDescription),
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
		},
		Blocks: map[string]schema.Block{
			"registry": schema.SingleNestedBlock{
				MarkdownDescription: "A registry other than Azure Container Registry (Harbor, Artifactory, Nexus, a " +
					"registry on-premises, the Microsoft Container Registry). Exactly one of `registry_id` and `registry`. " +
					"The pull identity is not checked: its credentials are not in Azure Resource Manager. A host that no " +
					"private DNS zone holds and `addresses` does not list is reached at its public address (the route for " +
					"public addresses and the way out are verified), unless it is under a private-use domain such as " +
					"`.corp`, `.internal` or `.local`, whose address cannot be known.",
				Attributes: map[string]schema.Attribute{
					"hosts": schema.ListAttribute{
						// Required in the block, checked in ValidateConfig: the
						// framework would demand a Required attribute of a
						// single nested block even when the block is absent.
						Optional:    true,
						ElementType: types.StringType,
						MarkdownDescription: "Every hostname a pull touches, in order: login, auth realm, blob or " +
							"redirect hosts. Required in the block. Names only: no scheme, port, path or wildcard. Compared " +
							"as DNS compares names: case-insensitively and without a trailing dot, and reported in lower case.",
						Validators: []validator.List{
							listvalidator.SizeAtLeast(1),
							listvalidator.UniqueValues(),
							listvalidator.ValueStringsAre(validators.Hostname()),
						},
					},
					"addresses": schema.MapAttribute{
						Optional:    true,
						ElementType: types.StringType,
						MarkdownDescription: "Addresses (host → IP) of hosts that no Azure private DNS zone resolves, " +
							"such as names served by an on-premises DNS server. Keys must be among `hosts` (in any casing); values are " +
							"single IPv4 or IPv6 addresses, not prefixes.",
						Validators: []validator.Map{
							mapvalidator.SizeAtLeast(1),
							mapvalidator.KeysAre(validators.Hostname()),
							mapvalidator.ValueStringsAre(validators.IPAddress()),
						},
					},
				},
			},
			"accept":   acceptBlock(d.now.today),
			"timeouts": timeoutsBlock(ctx),
		},
	}
}

func (d *verificationDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("cluster_id"), path.MatchRoot("node_subnet_ids")),
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("registry_id"), path.MatchRoot("registry")),
		datasourcevalidator.Conflicting(path.MatchRoot("node_pools"), path.MatchRoot("node_subnet_ids")),
	}
}

// ValidateConfig checks what the attribute validators cannot: that every
// key of registry.addresses is one of registry.hosts, that
// fail_on_unverified has an effect, that no accept block names a finding
// that cannot be accepted, and that the zone subscriptions are given under
// one name. Unknown values are skipped (they are
// checked again once known, when the data source is read).
func (d *verificationDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m verificationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateZoneSubscriptionNames(m, &resp.Diagnostics)
	if m.FailOnUnverified.ValueBool() && !m.Enforce.IsNull() && !m.Enforce.IsUnknown() && !m.Enforce.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("fail_on_unverified"), "fail_on_unverified has no effect with enforce = false",
			"With enforce = false nothing fails the plan, so fail_on_unverified = true changes nothing. Set enforce = true "+
				"(the default) to fail on unverified verdicts, or remove fail_on_unverified.")
	}
	_, _, diags := acceptances(ctx, m.Accept, d.now.today(), namedResources(ctx, m), false)
	resp.Diagnostics.Append(diags...)
	block, known := registryBlock(ctx, m.Registry, &resp.Diagnostics)
	if !known || block == nil {
		return
	}
	if block.Hosts.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("registry").AtName("hosts"), "Missing registry hosts",
			"The registry block needs hosts: every hostname a pull touches (login, auth realm, blob or redirect hosts). "+
				"For an Azure Container Registry use registry_id instead of the block.")
		return
	}
	hosts, hostsKnown := knownStrings(ctx, block.Hosts)
	addrs, addrsKnown := knownStringMap(ctx, block.Addresses)
	if !hostsKnown || !addrsKnown {
		return
	}
	for _, msg := range validators.DuplicateHosts(hosts) {
		resp.Diagnostics.AddAttributeError(path.Root("registry").AtName("hosts"), "Duplicate registry host", msg)
	}
	for _, msg := range validators.AddressKeysNotInHosts(hosts, addrs) {
		resp.Diagnostics.AddAttributeError(path.Root("registry").AtName("addresses"), "Address for a host not in hosts", msg)
	}
}

func (d *verificationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	started := time.Now()
	var m verificationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q, diags := verificationRequest(ctx, m)
	resp.Diagnostics.Append(diags...)
	q.Acceptances.Today = d.now.today()
	q.Acceptances.Named = namedResources(ctx, m)
	q.Acceptances.Blocks, _, diags = acceptances(ctx, m.Accept, q.Acceptances.Today, q.Acceptances.Named, true)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	enforce := m.Enforce.IsNull() || m.Enforce.ValueBool()
	failOnUnverified := !m.FailOnUnverified.IsNull() && m.FailOnUnverified.ValueBool()
	declaredIn := declaredInOf(m.DeclaredIn.ValueString())
	// notChecked writes the reports of a read that failed closed, with the
	// errors that end it, before they fail the plan.
	notChecked := func(failure diag.Diagnostics) {
		files := d.reportFiles()
		if files == nil {
			return
		}
		resp.Diagnostics.Append(writeReports(files, verificationRun{
			request: q, enforce: enforce, failOnUnverified: failOnUnverified, failsPlan: true,
			took: time.Since(started), version: d.data.version, finished: time.Now(),
			notChecked: notCheckedOf(failure), declaredIn: declaredIn,
		}, verify.Result{})...)
	}

	before := len(resp.Diagnostics)
	run, ctx, done := d.startRead(ctx, m.Timeouts, &resp.Diagnostics)
	defer done()
	if run == nil {
		// Not configured, or signing in failed: nothing was checked.
		if failure := resp.Diagnostics[before:]; failure.HasError() {
			notChecked(failure)
		}
		return
	}

	ctx, requests := azure.CountRequests(ctx)
	// The first read uses the run's reader; blaming findings on planned
	// changes reads the network again with fresh readers (whatif.Verify),
	// each in the rounds of pipeline.Verification.
	first := run.reader
	res, facts, err := whatif.Verify(ctx, run.plan, whatif.ReaderCheck(func() *gather.Reader {
		if r := first; r != nil {
			first = nil
			return r
		}
		return run.newReader()
	}, q))
	if err != nil {
		var failure diag.Diagnostics
		failure.AddError(verificationFailedSummary(err), verificationFailedDetail(err, run.timeout, azure.Interrupted(ctx)))
		notChecked(failure)
		resp.Diagnostics.Append(failure...)
		return
	}
	// Fails closed: what the arguments name could not be read, or there
	// is nothing to check; enforce does not change that.
	if diags := targetDiagnostics(gather.VerificationTargets(q, facts), verificationTargetArgs(q, run.session.Offline()),
		facts.Gaps, run.timeout, failsClosed); diags.HasError() {
		notChecked(diags)
		resp.Diagnostics.Append(diags...)
		return
	}
	if diags := acceptPoolDiagnostics(ctx, m.Accept, checkedPools(res)); diags.HasError() {
		notChecked(diags)
		resp.Diagnostics.Append(diags...)
		return
	}

	m.Enforce, m.FailOnUnverified = types.BoolValue(enforce), types.BoolValue(failOnUnverified)
	took, armRequests := time.Since(started), requests()
	state, diags := verificationState(ctx, res, armRequests, took)
	resp.Diagnostics.Append(diags...)
	m.Verdict, m.Reachable, m.Findings, m.Paths, m.Summary, m.Stats =
		state.Verdict, state.Reachable, state.Findings, state.Paths, state.Summary, state.Stats
	m.Diagram = state.Diagram
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	enforced := enforcementDiagnostics(res, enforce, failOnUnverified)
	// The reports are written before the enforce error is returned, so a
	// failing pipeline has them.
	resp.Diagnostics.Append(writeReports(d.reportFiles(), verificationRun{
		request: q, enforce: enforce, failOnUnverified: failOnUnverified, failsPlan: enforced.HasError(),
		armRequests: armRequests, took: took, plan: run.plan, version: d.data.version,
		finished: time.Now(), declaredIn: declaredIn,
	}, res)...)
	resp.Diagnostics.Append(enforced...)
}

// verificationTargetArgs names the arguments of a verification's targets:
// cluster_id, node_subnet_ids[i] (for a subnet or its virtual network),
// node_pools, and registry_id or the registry block.
func verificationTargetArgs(q gather.VerificationRequest, offline bool) targetArgs {
	registry := path.Root("registry_id")
	if q.RegistryID.IsZero() {
		registry = path.Root("registry")
	}
	return targetArgs{
		of: func(id model.ResourceID) path.Path {
			for i, s := range q.NodeSubnetIDs {
				if s.Equal(id) {
					return path.Root("node_subnet_ids").AtListIndex(i)
				}
			}
			if id.Equal(q.RegistryID) {
				return registry
			}
			return path.Root("cluster_id")
		},
		pools:    path.Root("node_pools"),
		registry: registry,
		offline:  offline,
	}
}

// verificationFailedSummary and verificationFailedDetail describe a read
// that could not finish: the read timeout, or a cancelled run.
func verificationFailedSummary(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "Timed out verifying the pull path"
	}
	return "Could not verify the pull path"
}

func verificationFailedDetail(err error, timeout time.Duration, interrupted []string) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("Reading what the pull path depends on did not finish within the read timeout (%s), so nothing "+
			"can be concluded.%s Raise timeouts { read = \"…\" } on this data source, or check for throttling (HTTP 429) "+
			"in the provider log (TF_LOG=DEBUG).", timeout, stillReading(interrupted))
	}
	return fmt.Sprintf("The verification stopped before it could conclude anything: %v.", err)
}

// checkedPools are the node pools a verification checked, sorted.
func checkedPools(res verify.Result) []string {
	var out []string
	for _, p := range res.Paths {
		if !slices.Contains(out, p.NodePool) {
			out = append(out, p.NodePool)
		}
	}
	slices.Sort(out)
	return out
}
