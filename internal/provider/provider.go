// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package provider is the Terraform/OpenTofu face of pullpath: the provider
// schema and configuration, and the data sources. It is deliberately thin:
// reading Azure is package gather, the network model is package model, the
// rules (what a DNS server is, whether a path works) are packages verify,
// routing and security, and what each data source reports is mapped by
// small pure functions in this package (the *_state.go files) that are
// unit-tested without any framework machinery.
package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
)

// TypeName is the provider's type name: the prefix of every data source.
const TypeName = "pullpath"

var (
	_ provider.Provider                   = (*pullpathProvider)(nil)
	_ provider.ProviderWithValidateConfig = (*pullpathProvider)(nil)
)

// pullpathProvider is the provider. It holds only the version and the
// clock: everything a run needs is built in Configure and handed to data
// sources.
type pullpathProvider struct {
	version string
	// now is the clock accept blocks are judged by; nil is time.Now.
	now clock
}

// New returns the provider factory for providerserver.Serve and for tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &pullpathProvider{version: version} }
}

// providerModel is the provider block. Every argument is optional: each one
// falls back to its environment variable (azure.Config.WithEnvironment).
type providerModel struct {
	SubscriptionID                 types.String `tfsdk:"subscription_id"`
	TenantID                       types.String `tfsdk:"tenant_id"`
	ClientID                       types.String `tfsdk:"client_id"`
	ClientSecret                   types.String `tfsdk:"client_secret"`
	ClientCertificatePath          types.String `tfsdk:"client_certificate_path"`
	ClientCertificatePassword      types.String `tfsdk:"client_certificate_password"`
	UseCLI                         types.Bool   `tfsdk:"use_cli"`
	UseMSI                         types.Bool   `tfsdk:"use_msi"`
	UseOIDC                        types.Bool   `tfsdk:"use_oidc"`
	OIDCToken                      types.String `tfsdk:"oidc_token"`
	OIDCTokenFilePath              types.String `tfsdk:"oidc_token_file_path"`
	OIDCRequestURL                 types.String `tfsdk:"oidc_request_url"`
	OIDCRequestToken               types.String `tfsdk:"oidc_request_token"`
	ADOPipelineServiceConnectionID types.String `tfsdk:"ado_pipeline_service_connection_id"`
	UseAKSWorkloadIdentity         types.Bool   `tfsdk:"use_aks_workload_identity"`
	Environment                    types.String `tfsdk:"environment"`
	SnapshotFile                   types.String `tfsdk:"snapshot_file"`
	RecordFile                     types.String `tfsdk:"record_file"`
	PlannedChangesFile             types.String `tfsdk:"planned_changes_file"`
	MaxConcurrentReads             types.Number `tfsdk:"max_concurrent_reads"`
	ReportDir                      types.String `tfsdk:"report_dir"`
}

// Environments are the accepted values of `environment`. They are matched
// case-insensitively ("Public" works), as azurerm does and as the Azure SDK
// cloud lookup in package azure does; azurerm's long names
// (AzurePublicCloud, …) are accepted only from ARM_ENVIRONMENT, where CI
// systems set them, and are checked in Configure.
var Environments = model.CloudNames()

func (p *pullpathProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *pullpathProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	str := func(desc string, sensitive bool, validators ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Sensitive: sensitive, MarkdownDescription: desc, Validators: validators}
	}
	flag := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, MarkdownDescription: desc}
	}
	notEmpty := stringvalidator.LengthAtLeast(1)

	resp.Schema = schema.Schema{
		MarkdownDescription: "Proves at plan time that every AKS node pool can pull its images from a private registry, " +
			"from what Azure Resource Manager shows. Authentication follows the `azurerm` and `azapi` providers: every " +
			"argument is optional and falls back to its environment variable. With `snapshot_file` every read is answered " +
			"offline from an ARM snapshot and no credential is created.",
		Attributes: map[string]schema.Attribute{
			"subscription_id": str("The default subscription (a GUID), used where an id does not name one. "+
				"Falls back to `ARM_SUBSCRIPTION_ID`.", false, notEmpty,
				validators.StringCheck("Invalid subscription id", "a subscription GUID", azure.CheckSubscriptionID)),
			"tenant_id": str("The Microsoft Entra tenant (GUID or domain) to sign in to. Falls back to `ARM_TENANT_ID`.", false, notEmpty,
				validators.StringCheck("Invalid tenant", "a tenant GUID or domain name", azure.CheckTenantID)),
			"client_id": str("The client (application) id of a service principal, or of a user-assigned managed identity "+
				"with `use_msi`. Falls back to `ARM_CLIENT_ID`.", false, notEmpty),
			"client_secret": str("The service principal's client secret. Falls back to `ARM_CLIENT_SECRET`.", true, notEmpty),
			"client_certificate_path": str("Path of the service principal's certificate (PEM or PKCS#12 `.pfx`). "+
				"Falls back to `ARM_CLIENT_CERTIFICATE_PATH`.", false, notEmpty),
			"client_certificate_password": str("Password of the PKCS#12 certificate in `client_certificate_path`. "+
				"Falls back to `ARM_CLIENT_CERTIFICATE_PASSWORD`.", true),
			"use_cli": flag("Sign in with the Azure CLI's login (`az login`). Defaults to `true`: used when no other method " +
				"is configured. Falls back to `ARM_USE_CLI`."),
			"use_msi": flag("Sign in with a managed identity (system-assigned, or user-assigned with `client_id`). " +
				"Falls back to `ARM_USE_MSI`."),
			"use_oidc": flag("Sign in with OpenID Connect federation: a token in `oidc_token` or `oidc_token_file_path`, or one " +
				"requested from GitHub Actions or Azure DevOps (`oidc_request_url`, `oidc_request_token`, " +
				"`ado_pipeline_service_connection_id`). Falls back to `ARM_USE_OIDC`."),
			"oidc_token": str("A federated ID token for OIDC. Falls back to `ARM_OIDC_TOKEN`.", true, notEmpty),
			"oidc_token_file_path": str("Path of a file holding a federated ID token for OIDC. "+
				"Falls back to `ARM_OIDC_TOKEN_FILE_PATH`.", false, notEmpty),
			"oidc_request_url": str("The endpoint to request an OIDC token from. Falls back to `ARM_OIDC_REQUEST_URL`, then "+
				"`ACTIONS_ID_TOKEN_REQUEST_URL` (GitHub Actions), then `SYSTEM_OIDCREQUESTURI` (Azure DevOps).", false, notEmpty),
			"oidc_request_token": str("The bearer token for `oidc_request_url`. Falls back to `ARM_OIDC_REQUEST_TOKEN`, then "+
				"`ACTIONS_ID_TOKEN_REQUEST_TOKEN` (GitHub Actions), then `SYSTEM_ACCESSTOKEN` (Azure DevOps).", true, notEmpty),
			"ado_pipeline_service_connection_id": str("The Azure DevOps service connection to request the OIDC token for; "+
				"selects Azure DevOps over GitHub Actions. Falls back to `ARM_ADO_PIPELINE_SERVICE_CONNECTION_ID`, then "+
				"`ARM_OIDC_AZURE_SERVICE_CONNECTION_ID`.", false, notEmpty),
			"use_aks_workload_identity": flag("Sign in with AKS workload identity, from the `AZURE_CLIENT_ID`, " +
				"`AZURE_TENANT_ID` and `AZURE_FEDERATED_TOKEN_FILE` variables the webhook injects. " +
				"Falls back to `ARM_USE_AKS_WORKLOAD_IDENTITY`."),
			"environment": str("The Azure cloud: `public` (default), `usgovernment` or `china`, matched case-insensitively. "+
				"Falls back to `ARM_ENVIRONMENT` (which also accepts azurerm's `AzurePublicCloud`, `AzureUSGovernmentCloud` "+
				"and `AzureChinaCloud`).", false, stringvalidator.OneOfCaseInsensitive(Environments...)),
			"snapshot_file": str("Answer every read from this ARM snapshot file instead of Azure: no credential is needed "+
				"or created and no request leaves the machine. Conflicts with `record_file`. "+
				"Falls back to `PULLPATH_SNAPSHOT_FILE`.", false, notEmpty),
			"record_file": str("Read live Azure and write everything read into this file, in the snapshot format "+
				"(resources and read results only: no token, header or secret), after every data source read. "+
				"Conflicts with `snapshot_file`. Falls back to `PULLPATH_RECORD_FILE`.", false, notEmpty),
			"planned_changes_file": str("The JSON of a saved plan (`terraform show -json PLANFILE > plan.json`, or "+
				"`tofu show -json`), usually of the configuration that owns the network: every data source then reads Azure as it will "+
				"be after that plan is applied. What the plan creates or updates is read as planned, what it deletes is gone, "+
				"everything else comes from Azure (or `snapshot_file`); `record_file` still records only what Azure answered. "+
				"A planned value known only after apply makes what depends on it unverified (`COVERAGE_PLANNED_VALUE_UNKNOWN`); "+
				"changes of resource types the provider does not translate are read as they are now "+
				"(`COVERAGE_PLANNED_CHANGE_UNSUPPORTED`). Findings the plan causes name the change in `planned_change`. "+
				"Falls back to `PULLPATH_PLANNED_CHANGES_FILE`.", false, notEmpty),
			// A Number, not an Int64: see validators.WholeNumber.
			"max_concurrent_reads": schema.NumberAttribute{Optional: true, MarkdownDescription: fmt.Sprintf(
				"How many ARM requests the provider has in flight at most, for all its data sources together "+
					"(%d to %d, default %d). Reads that do not depend on each other run in parallel up to this bound, "+
					"so a plan waits about as long as its longest chain of dependent reads; lower it if ARM throttles "+
					"the identity (HTTP 429). Falls back to `%s`.", minConcurrentReads, maxConcurrentReads,
				gather.DefaultConcurrency, envMaxConcurrentReads),
				Validators: []validator.Number{validators.WholeNumber(minConcurrentReads, maxConcurrentReads)}},
			"report_dir": str(reportDirDescription, false, notEmpty),
		},
	}
}

// ValidateConfig rejects what can be judged from the configuration alone, so
// that `validate` catches it before any plan. Combinations that involve
// environment variables are judged in Configure (azure.Config.Validate).
func (p *pullpathProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if hasValue(m.SnapshotFile) && hasValue(m.RecordFile) {
		resp.Diagnostics.AddAttributeError(path.Root("record_file"), "Conflicting arguments: snapshot_file and record_file",
			"snapshot_file and record_file are both set: a snapshot answers every read offline, a recording reads live Azure "+
				"and writes what it read. Set only one of them.")
	}
}

// reportDirDescription documents report_dir.
const reportDirDescription = "A directory for CI: every `pullpath_verification` read writes four files there, " +
	"named after the cluster and the registry: `<cluster>.<registry>.json` (the whole result in the versioned format " +
	"`pullpath.report/v1`, with `outcome` `pass`, `fail` or `not_checked`, see the [report format](https://github.com/pullpath/terraform-provider-pullpath/blob/main/docs/guides/ci-reports.md)), " +
	"`.sarif` (SARIF 2.1.0 for GitHub code scanning and the Azure DevOps Scans tab, every result anchored in the file " +
	"that declares the verification), `.md` (the verdict, the Mermaid diagram and one row per cause, at most 60,000 " +
	"characters, for a pull request comment or a job summary) and `.junit.xml` (a test case per node pool × hostname, " +
	"for test views). They are written before an `enforce` error fails the plan, so a failing pipeline still has them; " +
	"a read that fails closed (the cluster, the registry or a pool cannot be read, a timeout, signing in) writes them " +
	"too, with `outcome` `not_checked` and the cause. For `node_subnet_ids` the cluster's place is taken by the first subnet's name " +
	"(`snet-nodes+2` when two more are verified with it), for a `registry` block the registry's by its first host. " +
	"A second verification of the same pair in one plan gets `-2`, a third `-3`, numbered in the order of their " +
	"arguments, not of reading. The directory is created when it does not exist; files are replaced atomically; " +
	"files of earlier runs are not removed, so give each run a fresh directory, and each provider configuration " +
	"(alias) its own. A file that cannot be written is an error. Falls back to `" + envReportDir + "`."

// hasValue reports a configured, known, non-empty string.
func hasValue(v types.String) bool { return !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" }

func (p *pullpathProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data, diags := configure(m, p.version, getenv)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	if data.deferred() && req.ClientCapabilities.DeferralAllowed {
		// Terraform ≥ 1.9 with deferred actions: let the CLI defer every data
		// source of this provider instead of failing them.
		resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
	}
	resp.DataSourceData = data
	logConfigured(ctx, data)
}

// logConfigured writes which mode the provider runs in to the provider log
// (DEBUG). It names files and the subscription, never an argument that can
// hold a secret.
func logConfigured(ctx context.Context, d *providerData) {
	if d.deferred() {
		tflog.Debug(ctx, "pullpath provider configured with unknown arguments", map[string]any{"unknown": d.unknown})
		return
	}
	mode := "live"
	switch {
	case d.session.Offline():
		mode = "snapshot"
	case d.session.Recording():
		mode = "record"
	}
	tflog.Debug(ctx, "pullpath provider configured", map[string]any{"mode": mode, "subscription_id": d.session.SubscriptionID})
}

func (p *pullpathProvider) Resources(context.Context) []func() resource.Resource { return nil }

func (p *pullpathProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return NewVerificationDataSource(p.now) },
		NewNodeRoutesDataSource,
		NewVNetDNSDataSource,
		NewVNetPeeringsDataSource,
		NewPrivateDNSLinksDataSource,
		NewRegistryEndpointsDataSource,
	}
}
