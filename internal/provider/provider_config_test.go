// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// nullModel is a provider block with every argument null.
func nullModel() providerModel {
	s, b := types.StringNull(), types.BoolNull()
	return providerModel{s, s, s, s, s, s, b, b, b, s, s, s, s, s, b, s, s, s, s, types.NumberNull(), s}
}

func noEnv(string) string { return "" }

func TestProviderSchemaMatchesModel(t *testing.T) {
	var resp provider.SchemaResponse
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	var names []string
	for n, a := range resp.Schema.Attributes {
		names = append(names, n)
		desc := a.GetMarkdownDescription()
		// Every argument names its environment variable fallback.
		if !strings.Contains(desc, "Falls back to `ARM_") && !strings.Contains(desc, "Falls back to `PULLPATH_") {
			t.Errorf("%s: description does not name its environment variable: %q", n, desc)
		}
	}
	var model []string
	for _, a := range nullModel().arguments() {
		model = append(model, a.name)
	}
	if len(names) != len(model) || len(model) != 21 {
		t.Fatalf("schema has %d arguments, model %d", len(names), len(model))
	}
	for _, n := range model {
		if _, ok := resp.Schema.Attributes[n]; !ok {
			t.Errorf("model argument %s is not in the schema", n)
		}
	}
	for _, n := range []string{"client_secret", "client_certificate_password", "oidc_token", "oidc_request_token"} {
		if !resp.Schema.Attributes[n].IsSensitive() {
			t.Errorf("%s must be sensitive", n)
		}
	}
}

func TestToConfig(t *testing.T) {
	m := nullModel()
	m.SubscriptionID = types.StringValue("00000000-0000-0000-0000-000000000001")
	m.ClientSecret = types.StringValue("s3cret")
	m.UseCLI = types.BoolValue(false)
	m.UseOIDC = types.BoolValue(true)
	m.ADOPipelineServiceConnectionID = types.StringValue("sc")
	m.Environment = types.StringValue("China")
	m.SnapshotFile = types.StringValue("/tmp/s.json")
	cfg := m.toConfig("1.2.3")
	if cfg.SubscriptionID != "00000000-0000-0000-0000-000000000001" || cfg.ClientSecret != "s3cret" || cfg.ADOServiceConnectionID != "sc" ||
		cfg.Environment != "China" || cfg.SnapshotFile != "/tmp/s.json" || cfg.ProviderVersion != "1.2.3" {
		t.Errorf("strings not mapped: %v", cfg)
	}
	if cfg.UseCLI == nil || *cfg.UseCLI || cfg.UseOIDC == nil || !*cfg.UseOIDC || cfg.UseMSI != nil || cfg.UseAKSWorkloadIdentity != nil {
		t.Errorf("booleans: a configured false must stay false and null must stay unset: %v", cfg)
	}

	// Null arguments are filled from the environment; configured ones win,
	// a configured false included.
	env := map[string]string{"ARM_TENANT_ID": "contoso.onmicrosoft.com", "ARM_USE_CLI": "true", "ARM_SUBSCRIPTION_ID": "ffffffff-0000-0000-0000-000000000000"}
	cfg = cfg.WithEnvironment(func(k string) string { return env[k] })
	if cfg.TenantID != "contoso.onmicrosoft.com" || *cfg.UseCLI || cfg.SubscriptionID != "00000000-0000-0000-0000-000000000001" {
		t.Errorf("environment fallback: %v", cfg)
	}
}

func TestUnknownArguments(t *testing.T) {
	m := nullModel()
	if got := m.unknownArguments(); got != nil {
		t.Errorf("null arguments are not unknown: %v", got)
	}
	m.SnapshotFile = types.StringUnknown()
	m.UseMSI = types.BoolUnknown()
	if got := m.unknownArguments(); !reflect.DeepEqual(got, []string{"use_msi", "snapshot_file"}) {
		t.Errorf("unknownArguments = %v", got)
	}
	data, diags := configure(m, "v", noEnv)
	if diags.HasError() || data == nil || !data.deferred() || data.session != nil {
		t.Errorf("unknown arguments must defer without error: %+v %v", data, diags)
	}
}

func TestConfigure(t *testing.T) {
	snap, _ := filepath.Abs("testdata/baseline_ok.json")

	m := nullModel()
	m.SnapshotFile = types.StringValue(snap)
	data, diags := configure(m, "v", noEnv)
	if diags.HasError() || data == nil || data.session == nil || !data.session.Offline() || data.deferred() {
		t.Fatalf("snapshot configuration: %+v %v", data, diags)
	}

	// The snapshot may come from the environment.
	data, diags = configure(nullModel(), "v", func(k string) string {
		if k == "PULLPATH_SNAPSHOT_FILE" {
			return snap
		}
		return ""
	})
	if diags.HasError() || data == nil || !data.session.Offline() {
		t.Fatalf("snapshot from PULLPATH_SNAPSHOT_FILE: %v", diags)
	}

	// A conflict that involves the environment is caught at configure time,
	// on the argument.
	_, diags = configure(m, "v", func(k string) string {
		if k == "PULLPATH_RECORD_FILE" {
			return filepath.Join(t.TempDir(), "rec.json")
		}
		return ""
	})
	assertAttributeError(t, diags, "snapshot_file", "are both set")

	// Live mode without any credential configured: configure succeeds
	// (the Azure CLI is the lazy default) and creates no credential.
	data, diags = configure(nullModel(), "v", noEnv)
	if diags.HasError() || data.session == nil || data.session.Offline() {
		t.Fatalf("live configuration: %v", diags)
	}

	bad := nullModel()
	bad.SubscriptionID = types.StringValue("my-subscription")
	bad.ClientCertificatePassword = types.StringValue("pw")
	_, diags = configure(bad, "v", noEnv)
	assertAttributeError(t, diags, "subscription_id", "is not a subscription id")
	assertAttributeError(t, diags, "client_certificate_password", "client_certificate_path")
}

// max_concurrent_reads bounds the requests in flight of every data source
// together: one limiter per provider instance, from the argument, else the
// environment, else the default; a bad environment value is an error on
// the argument.
func TestConfigureMaxConcurrentReads(t *testing.T) {
	snap, _ := filepath.Abs("testdata/baseline_ok.json")
	envWith := func(v string) func(string) string {
		return func(k string) string {
			if k == envMaxConcurrentReads {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name string
		arg  types.Number
		env  string
		want int
	}{
		{"default", types.NumberNull(), "", gather.DefaultConcurrency},
		{"argument", types.NumberValue(big.NewFloat(3)), "", 3},
		{"environment", types.NumberNull(), " 12 ", 12},
		{"argument beats environment", types.NumberValue(big.NewFloat(1)), "12", 1},
	} {
		m := nullModel()
		m.SnapshotFile = types.StringValue(snap)
		m.MaxConcurrentReads = tc.arg
		data, diags := configure(m, "v", envWith(tc.env))
		if diags.HasError() {
			t.Fatalf("%s: %v", tc.name, diags)
		}
		if got := data.limiter.Cap(); got != tc.want {
			t.Errorf("%s: %d requests in flight, want %d", tc.name, got, tc.want)
		}
	}
	for _, bad := range []string{"0", "65", "eight", "-1"} {
		m := nullModel()
		m.SnapshotFile = types.StringValue(snap)
		_, diags := configure(m, "v", envWith(bad))
		assertAttributeError(t, diags, "max_concurrent_reads", envMaxConcurrentReads+"=")
	}
}

func assertAttributeError(t *testing.T, diags diag.Diagnostics, attr, contains string) {
	t.Helper()
	for _, d := range diags.Errors() {
		wp, ok := d.(diag.DiagnosticWithPath)
		if ok && wp.Path().Equal(path.Root(attr)) && strings.Contains(d.Detail(), contains) {
			return
		}
	}
	t.Errorf("no error on %s containing %q in %v", attr, contains, diags)
}

// Each configuration error goes on the argument azure.ArgumentError names,
// with its message as it is; any other error is general.
func TestConfigDiagnostics(t *testing.T) {
	tenant := &azure.ArgumentError{Argument: "tenant_id", Err: errors.New(`tenant_id (ARM_TENANT_ID) "x y" is not a tenant`)}
	wrapped := fmt.Errorf("while configuring: %w", &azure.ArgumentError{Argument: "use_cli", Err: errors.New(`ARM_USE_CLI="yes" is not a boolean (it sets use_cli)`)})
	diags := configDiagnostics(errors.Join(tenant, errors.Join(errors.New("no Azure authentication method is enabled: use_cli (ARM_USE_CLI) is false"), wrapped)))
	if len(diags) != 3 {
		t.Fatalf("want 3 diagnostics, got %v", diags)
	}
	for i, want := range []string{"tenant_id", "", "use_cli"} {
		wp, onPath := diags[i].(diag.DiagnosticWithPath)
		switch {
		case want == "" && onPath:
			t.Errorf("diagnostic %d: a general error has no attribute: %v", i, diags[i])
		case want != "" && (!onPath || !wp.Path().Equal(path.Root(want))):
			t.Errorf("diagnostic %d must be on %s: %v", i, want, diags[i])
		case want != "" && diags[i].Summary() != "Invalid provider configuration: "+want:
			t.Errorf("diagnostic %d summary %q", i, diags[i].Summary())
		}
	}
	if diags[0].Detail() != tenant.Error() || diags[2].Detail() != wrapped.Error() {
		t.Errorf("details must be the messages: %q, %q", diags[0].Detail(), diags[2].Detail())
	}
}

func TestDescribeReadFailure(t *testing.T) {
	id := tSpoke
	// A failed read as the reader returns it: the ARM error with its gap.
	readErr := func(kind model.GapKind, permission, detail string) error {
		return &gather.ReadError{Gap: model.Gap{ResourceID: id, Kind: kind, Permission: permission, Detail: detail}, Err: errors.New(detail)}
	}
	tests := []struct {
		name          string
		err           error
		gaps          model.Gaps
		wantSummary   string
		wantInDetails []string
	}{
		{"403 carried by the error", readErr(model.GapPermissionDenied, "Microsoft.Network/virtualNetworks/read", "HTTP 403 AuthorizationFailed"), nil,
			"Permission denied reading the virtual network",
			[]string{"needs Microsoft.Network/virtualNetworks/read", "HTTP 403 AuthorizationFailed", "(rg-spoke)", string(id)}},
		{"the error's gap wins over one recorded earlier", readErr(model.GapPermissionDenied, "Custom/action", "HTTP 403 X"),
			model.Gaps{id.Key(): {ResourceID: id, Kind: model.GapNotFound, Detail: "HTTP 404"}},
			"Permission denied reading the virtual network", []string{"needs Custom/action", "HTTP 403 X"}},
		{"a recorded gap when the error carries none", errors.New("refused"),
			model.Gaps{id.Key(): {ResourceID: id, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403 Y"}},
			"Permission denied reading the virtual network", []string{"needs Microsoft.Network/virtualNetworks/read", "HTTP 403 Y"}},
		{"404", readErr(model.GapNotFound, "Microsoft.Network/virtualNetworks/read", "HTTP 404 ResourceNotFound"), nil,
			"The virtual network does not exist", []string{"Azure has no virtual network", "name (vnet-spoke)", "HTTP 404 ResourceNotFound"}},
		{"throttled", readErr(model.GapUnavailable, "Microsoft.Network/virtualNetworks/read", "HTTP 429 TooManyRequests"), nil,
			"Could not read the virtual network", []string{"kept failing after retries", "HTTP 429 TooManyRequests"}},
		{"an error from outside the reader", errors.New("connection reset"), nil,
			"Could not read the virtual network", []string{"kept failing after retries", "connection reset"}},
		{"known only after apply", &gather.ReadError{Gap: model.Gap{ResourceID: id, Kind: model.GapPlannedUnknown, Planned: "azurerm_virtual_network.spoke",
			Detail: "properties.dhcpOptions.dnsServers is known only after apply (planned change azurerm_virtual_network.spoke)"}, Err: errors.New("unknown")}, nil,
			"A value of the virtual network is known only after apply", []string{"properties.dhcpOptions.dnsServers", "after azurerm_virtual_network.spoke is applied", "planned_changes_file"}},
		{"timeout", fmt.Errorf("reading: %w", context.DeadlineExceeded), nil,
			"Timed out reading the virtual network", []string{"(2m0s)", "timeouts { read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gaps := tt.gaps
			if gaps == nil {
				gaps = model.Gaps{}
			}
			d := readFailure(path.Root("virtual_network_id"), id, tt.err, gaps, 2*time.Minute)
			if d.Summary() != tt.wantSummary {
				t.Errorf("summary = %q, want %q", d.Summary(), tt.wantSummary)
			}
			for _, w := range tt.wantInDetails {
				if !strings.Contains(d.Detail(), w) {
					t.Errorf("detail %q does not contain %q", d.Detail(), w)
				}
			}
			if wp, ok := d.(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("virtual_network_id")) {
				t.Error("the diagnostic must be on virtual_network_id")
			}
		})
	}
}

func TestRoleHint(t *testing.T) {
	if !strings.Contains(roleHint("Microsoft.Network/virtualNetworks/listDnsResolvers/action"), "Reader role does not include it") ||
		!strings.Contains(roleHint("Microsoft.Network/virtualNetworks/read"), "built-in Reader role") {
		t.Error("roleHint")
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{5 * time.Minute: "5m", 10 * time.Minute: "10m", 90 * time.Second: "1m30s", time.Hour: "60m"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// A literal subscription_id or tenant_id that cannot be one fails at
// validate time, on the argument, with the message Configure would give.
func TestProviderSchema_idArgumentsValidated(t *testing.T) {
	var resp provider.SchemaResponse
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	for _, tc := range []struct {
		attr, value string
		want        string // "" when valid
	}{
		{"subscription_id", "00000000-0000-0000-0000-000000000001", ""},
		{"subscription_id", "my-subscription", `"my-subscription" is not a subscription id: it must be a GUID`},
		{"subscription_id", "/subscriptions/00000000-0000-0000-0000-000000000001", "is not a subscription id"},
		{"tenant_id", "contoso.onmicrosoft.com", ""},
		{"tenant_id", "72f988bf-86f1-41af-91ab-2d7cd011db47", ""},
		{"tenant_id", "https://login.microsoftonline.com/contoso", "is not a tenant: use the tenant's GUID or its domain name"},
	} {
		attr := resp.Schema.Attributes[tc.attr].(interface {
			StringValidators() []validator.String
		})
		var diags diag.Diagnostics
		for _, v := range attr.StringValidators() {
			var vr validator.StringResponse
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root(tc.attr), ConfigValue: types.StringValue(tc.value)}, &vr)
			diags.Append(vr.Diagnostics...)
		}
		if tc.want == "" {
			if diags.HasError() {
				t.Errorf("%s = %q: %v", tc.attr, tc.value, diags)
			}
			continue
		}
		assertAttributeError(t, diags, tc.attr, tc.want)
	}
}
