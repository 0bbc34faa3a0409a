// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
)

// VerificationInput is a pullpath_verification configuration for
// [RunVerification]: a provider with snapshot_file and one data source.
type VerificationInput struct {
	Snapshot   string // absolute path of the snapshot
	ClusterID  string
	RegistryID string
	// RegistryHosts is registry { hosts }, instead of RegistryID.
	RegistryHosts []string
	// RegistryAddresses is registry { addresses }.
	RegistryAddresses map[string]string
	// ReadTimeout is timeouts { read }; empty means the default.
	ReadTimeout string
	// Concurrency bounds the requests in flight; 0 means the default.
	Concurrency int
	// Enforce is the enforce argument; nil leaves it unset (true).
	Enforce *bool
	// ZoneSubscriptionIDs is zone_subscription_ids.
	ZoneSubscriptionIDs []string
	// PullCredentials is the pull_credentials argument; empty leaves it
	// unset (kubelet_identity).
	PullCredentials string
	// Live, when set, reads live Azure (Entra ID and Resource Manager
	// through Live.Transport, with a client secret) instead of Snapshot,
	// and RecordFile is the provider's record_file.
	Live       *LiveAzure
	RecordFile string
	// PlannedChangesFile is the provider's planned_changes_file.
	PlannedChangesFile string
	// Accept are the accept blocks (attribute name → value; empty values
	// are null), judged on the UTC day of Today (time.Now when zero).
	Accept []map[string]string
	Today  time.Time
}

// NewAt is New with a clock: accept blocks are judged on the UTC day of
// now(), so that tests do not depend on the day they run.
func NewAt(version string, now func() time.Time) func() provider.Provider {
	return func() provider.Provider { return &pullpathProvider{version: version, now: now} }
}

// LiveAzure is how [RunVerification] reaches live Azure: the HTTP client
// that stands for Entra ID and Resource Manager, and the service
// principal.
type LiveAzure struct {
	Transport                                        policy.Transporter
	SubscriptionID, TenantID, ClientID, ClientSecret string
}

// Finding and Path are elements of the findings and paths attributes.
type (
	Finding = findingModel
	Path    = pathModel
)

// VerificationOutcome is what a user sees of one read: the state's
// computed attributes (empty when the read failed) and the diagnostics.
type VerificationOutcome struct {
	Verdict     string
	Findings    []Finding
	Paths       []Path
	Summary     string
	ARMRequests int64
	Diagnostics diag.Diagnostics
	// Requested are the distinct requests the snapshot replay answered
	// ("METHOD /path", lower-case path), sorted.
	Requested []string
}

// RunVerification configures the provider's session on in.Snapshot the way
// Configure does (real pipeline: read-only guard, retry policy, counting,
// replay) and calls the data source's Read, in process, with ctx as the
// framework would pass it. The error is for a harness problem, never for
// what the read itself reports (that is in Diagnostics).
func RunVerification(ctx context.Context, in VerificationInput) (VerificationOutcome, error) {
	sessionCfg := azure.Config{SnapshotFile: in.Snapshot, ProviderVersion: "test"}
	if l := in.Live; l != nil {
		noCLI := false
		sessionCfg = azure.Config{SubscriptionID: l.SubscriptionID, TenantID: l.TenantID, ClientID: l.ClientID, ClientSecret: l.ClientSecret,
			UseCLI: &noCLI, RecordFile: in.RecordFile, ProviderVersion: "test"}.WithTransport(l.Transport)
	}
	sessionCfg.PlannedChangesFile = in.PlannedChangesFile
	session, plan, err := newSession(sessionCfg)
	if err != nil {
		return VerificationOutcome{}, err
	}
	ds := &verificationDataSource{dataSourceBase: dataSourceBase{data: &providerData{session: session, plan: plan, version: "test", concurrency: in.Concurrency}}}
	if !in.Today.IsZero() {
		ds.now = func() time.Time { return in.Today }
	}
	var sresp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sresp)
	if sresp.Diagnostics.HasError() {
		return VerificationOutcome{}, fmt.Errorf("schema: %v", sresp.Diagnostics)
	}
	s := sresp.Schema

	timeoutTypes := map[string]attr.Type{"read": types.StringType}
	to := timeouts.Value{Object: types.ObjectNull(timeoutTypes)}
	if in.ReadTimeout != "" {
		to = timeouts.Value{Object: types.ObjectValueMust(timeoutTypes, map[string]attr.Value{"read": types.StringValue(in.ReadTimeout)})}
	}
	strOrNull := func(v string) types.String {
		if v == "" {
			return types.StringNull()
		}
		return types.StringValue(v)
	}
	registryTypes := map[string]attr.Type{
		"hosts": types.ListType{ElemType: types.StringType}, "addresses": types.MapType{ElemType: types.StringType},
	}
	registry := types.ObjectNull(registryTypes)
	if len(in.RegistryHosts) > 0 {
		hosts, d := types.ListValueFrom(ctx, types.StringType, in.RegistryHosts)
		if d.HasError() {
			return VerificationOutcome{}, fmt.Errorf("hosts: %v", d)
		}
		addresses := types.MapNull(types.StringType)
		if len(in.RegistryAddresses) > 0 {
			addresses, d = types.MapValueFrom(ctx, types.StringType, in.RegistryAddresses)
			if d.HasError() {
				return VerificationOutcome{}, fmt.Errorf("addresses: %v", d)
			}
		}
		registry = types.ObjectValueMust(registryTypes, map[string]attr.Value{"hosts": hosts, "addresses": addresses})
	}
	m := verificationModel{
		ClusterID:           strOrNull(in.ClusterID),
		NodeSubnetIDs:       types.ListNull(types.StringType),
		NodePools:           types.SetNull(types.StringType),
		RegistryID:          strOrNull(in.RegistryID),
		Registry:            registry,
		Enforce:             types.BoolPointerValue(in.Enforce),
		FailOnUnverified:    types.BoolNull(),
		PullCredentials:     strOrNull(in.PullCredentials),
		ZoneSubscriptionIDs: types.SetNull(types.StringType),
		DNSZoneSubIDs:       types.SetNull(types.StringType),
		Accept:              types.ListNull(types.ObjectType{AttrTypes: acceptBlockAttrTypes}),
		Timeouts:            to,
		Verdict:             types.StringNull(),
		Reachable:           types.BoolNull(),
		Findings:            types.ListNull(types.ObjectType{AttrTypes: findingAttrTypes}),
		Paths:               types.ListNull(types.ObjectType{AttrTypes: pathAttrTypes}),
		Summary:             types.StringNull(),
		Stats:               types.ObjectNull(statsAttrTypes),
	}
	if len(in.Accept) > 0 {
		var blocks []attr.Value
		for _, b := range in.Accept {
			vals := map[string]attr.Value{}
			for k := range acceptBlockAttrTypes {
				vals[k] = strOrNull(b[k])
			}
			blocks = append(blocks, types.ObjectValueMust(acceptBlockAttrTypes, vals))
		}
		m.Accept = types.ListValueMust(types.ObjectType{AttrTypes: acceptBlockAttrTypes}, blocks)
	}
	if len(in.ZoneSubscriptionIDs) > 0 {
		subs, d := types.SetValueFrom(ctx, types.StringType, in.ZoneSubscriptionIDs)
		if d.HasError() {
			return VerificationOutcome{}, fmt.Errorf("zone_subscription_ids: %v", d)
		}
		m.ZoneSubscriptionIDs = subs
	}
	tfType := s.Type().TerraformType(ctx)
	cfg := tfsdk.State{Schema: s, Raw: tftypes.NewValue(tfType, nil)}
	if d := cfg.Set(ctx, &m); d.HasError() {
		return VerificationOutcome{}, fmt.Errorf("config: %v", d)
	}
	req := datasource.ReadRequest{Config: tfsdk.Config{Schema: s, Raw: cfg.Raw}}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: s, Raw: tftypes.NewValue(tfType, nil)}}
	ds.Read(ctx, req, &resp)

	out := VerificationOutcome{Diagnostics: resp.Diagnostics, Requested: session.ReplayRequested()}
	if resp.State.Raw.IsNull() {
		return out, nil
	}
	var st verificationModel
	if d := resp.State.Get(ctx, &st); d.HasError() {
		return out, fmt.Errorf("state: %v", d)
	}
	out.Verdict, out.Summary = st.Verdict.ValueString(), st.Summary.ValueString()
	if d := st.Findings.ElementsAs(ctx, &out.Findings, false); d.HasError() {
		return out, fmt.Errorf("findings: %v", d)
	}
	if d := st.Paths.ElementsAs(ctx, &out.Paths, false); d.HasError() {
		return out, fmt.Errorf("paths: %v", d)
	}
	var stats statsModel
	if d := st.Stats.As(ctx, &stats, basetypes.ObjectAsOptions{}); d.HasError() {
		return out, fmt.Errorf("stats: %v", d)
	}
	out.ARMRequests = stats.ARMRequests
	return out, nil
}
