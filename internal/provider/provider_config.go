// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
)

// getenv is the environment the provider falls back to; tests replace it.
var getenv = os.Getenv

// testTransport, when set, replaces the live HTTP client of every session
// configured from now on, for the token requests of the credential and for
// ARM alike (azure.Config.WithTransport). Only tests set it (export_test.go),
// to run the real credential and pipeline against fake endpoints; nothing a
// user configures reaches it.
var testTransport azure.Transport

// arguments lists the provider block's values by argument name, in schema
// order, for unknown-value detection.
func (m providerModel) arguments() []namedValue {
	return []namedValue{
		{"subscription_id", m.SubscriptionID},
		{"tenant_id", m.TenantID},
		{"client_id", m.ClientID},
		{"client_secret", m.ClientSecret},
		{"client_certificate_path", m.ClientCertificatePath},
		{"client_certificate_password", m.ClientCertificatePassword},
		{"use_cli", m.UseCLI},
		{"use_msi", m.UseMSI},
		{"use_oidc", m.UseOIDC},
		{"oidc_token", m.OIDCToken},
		{"oidc_token_file_path", m.OIDCTokenFilePath},
		{"oidc_request_url", m.OIDCRequestURL},
		{"oidc_request_token", m.OIDCRequestToken},
		{"ado_pipeline_service_connection_id", m.ADOPipelineServiceConnectionID},
		{"use_aks_workload_identity", m.UseAKSWorkloadIdentity},
		{"environment", m.Environment},
		{"snapshot_file", m.SnapshotFile},
		{"record_file", m.RecordFile},
		{"planned_changes_file", m.PlannedChangesFile},
		{"max_concurrent_reads", m.MaxConcurrentReads},
		{"report_dir", m.ReportDir},
	}
}

type namedValue struct {
	name  string
	value attr.Value
}

// unknownArguments names the arguments whose value is not known yet (they
// depend on resources that a plan has not created).
func (m providerModel) unknownArguments() []string {
	var out []string
	for _, a := range m.arguments() {
		if a.value.IsUnknown() {
			out = append(out, a.name)
		}
	}
	return out
}

// toConfig maps the provider block to azure.Config. A null argument stays
// unset ("" or nil) so that WithEnvironment can fill it; a configured false
// stays false and beats the environment.
func (m providerModel) toConfig(version string) azure.Config {
	return azure.Config{
		SubscriptionID:            m.SubscriptionID.ValueString(),
		TenantID:                  m.TenantID.ValueString(),
		ClientID:                  m.ClientID.ValueString(),
		ClientSecret:              m.ClientSecret.ValueString(),
		ClientCertificatePath:     m.ClientCertificatePath.ValueString(),
		ClientCertificatePassword: m.ClientCertificatePassword.ValueString(),
		UseCLI:                    boolPtr(m.UseCLI),
		UseMSI:                    boolPtr(m.UseMSI),
		UseOIDC:                   boolPtr(m.UseOIDC),
		OIDCToken:                 m.OIDCToken.ValueString(),
		OIDCTokenFilePath:         m.OIDCTokenFilePath.ValueString(),
		OIDCRequestURL:            m.OIDCRequestURL.ValueString(),
		OIDCRequestToken:          m.OIDCRequestToken.ValueString(),
		ADOServiceConnectionID:    m.ADOPipelineServiceConnectionID.ValueString(),
		UseAKSWorkloadIdentity:    boolPtr(m.UseAKSWorkloadIdentity),
		Environment:               m.Environment.ValueString(),
		SnapshotFile:              m.SnapshotFile.ValueString(),
		RecordFile:                m.RecordFile.ValueString(),
		PlannedChangesFile:        m.PlannedChangesFile.ValueString(),
		ProviderVersion:           version,
	}
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// configure turns the provider block into the data sources' providerData.
//
// With unknown arguments nothing is validated or built: the values may well
// be fine once known, and a plan that reads no pullpath data source must not
// fail because of them. The data sources say so if they are read anyway.
//
// No credential is created here (azure.NewSession is lazy about it), so
// `validate`, a plan that only refreshes, and snapshot mode never sign in.
func configure(m providerModel, version string, env func(string) string) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	if unknown := m.unknownArguments(); len(unknown) > 0 {
		return &providerData{version: version, unknown: unknown}, diags
	}
	cfg := m.toConfig(version).WithEnvironment(env)
	if testTransport != nil {
		cfg = cfg.WithTransport(testTransport)
	}
	if err := cfg.Validate(); err != nil {
		return nil, configDiagnostics(err)
	}
	reads, err := concurrentReads(m.MaxConcurrentReads, env)
	if err != nil {
		return nil, configDiagnostics(err)
	}
	session, plan, err := newSession(cfg)
	if err != nil {
		return nil, configDiagnostics(err)
	}
	return &providerData{session: session, plan: plan, version: version, limiter: gather.NewLimiter(reads),
		reports: newReportFiles(reportDir(m.ReportDir, env))}, diags
}

// reportDir is report_dir, else its environment variable (blank: none).
func reportDir(arg types.String, env func(string) string) string {
	if !arg.IsNull() && !arg.IsUnknown() {
		return arg.ValueString()
	}
	return strings.TrimSpace(env(envReportDir))
}

// configDiagnostics turns azure.Config's joined validation errors into one
// diagnostic each, attached to the argument an azure.ArgumentError names,
// so that the CLI points at it.
func configDiagnostics(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, e := range flattenErrors(err) {
		var ae *azure.ArgumentError
		if errors.As(e, &ae) && ae.Argument != "" {
			diags.AddAttributeError(path.Root(ae.Argument), "Invalid provider configuration: "+ae.Argument, e.Error())
		} else {
			diags.AddError("Invalid provider configuration", e.Error())
		}
	}
	return diags
}

// flattenErrors undoes errors.Join (nested too).
func flattenErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// Bounds of max_concurrent_reads: one is serial; beyond 64 ARM throttles a
// single identity long before a plan gets faster.
const (
	minConcurrentReads = 1
	maxConcurrentReads = 64
)

// envMaxConcurrentReads is max_concurrent_reads' environment variable.
const envMaxConcurrentReads = "PULLPATH_MAX_CONCURRENT_READS"

// concurrentReads is max_concurrent_reads, else its environment variable,
// else gather.DefaultConcurrency. The schema validates the argument; an
// unusable environment value is an error on the argument it sets.
func concurrentReads(arg types.Number, env func(string) string) (int, error) {
	if !arg.IsNull() && !arg.IsUnknown() {
		if msg := validators.CheckWholeNumber(arg.ValueBigFloat(), minConcurrentReads, maxConcurrentReads); msg != "" {
			return 0, &azure.ArgumentError{Argument: "max_concurrent_reads", Err: fmt.Errorf("max_concurrent_reads %s", msg)}
		}
		n, _ := arg.ValueBigFloat().Int64()
		return int(n), nil
	}
	v := strings.TrimSpace(env(envMaxConcurrentReads))
	if v == "" {
		return gather.DefaultConcurrency, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < minConcurrentReads || n > maxConcurrentReads {
		return 0, &azure.ArgumentError{Argument: "max_concurrent_reads", Err: fmt.Errorf("%s=%q (it sets max_concurrent_reads) is not a whole number from %d to %d: "+
			"fix or unset the variable, or set max_concurrent_reads in the provider block",
			envMaxConcurrentReads, v, minConcurrentReads, maxConcurrentReads)}
	}
	return n, nil
}
