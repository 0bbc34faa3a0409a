package azure

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
)

const testSub = "00000000-0000-0000-0000-000000000001"

// envMap is a getenv over a fixed map, so tests never see the host's ARM_*.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestWithEnvironmentEveryVariable(t *testing.T) {
	str := func(f func(Config) string) func(Config) any { return func(c Config) any { return f(c) } }
	flag := func(f func(Config) *bool) func(Config) any {
		return func(c Config) any {
			if p := f(c); p != nil {
				return fmt.Sprint(*p)
			}
			return "unset"
		}
	}
	tests := []struct {
		env   string
		value string
		field func(Config) any
		want  any
	}{
		{"ARM_SUBSCRIPTION_ID", testSub, str(func(c Config) string { return c.SubscriptionID }), testSub},
		{"ARM_TENANT_ID", "tenant", str(func(c Config) string { return c.TenantID }), "tenant"},
		{"ARM_CLIENT_ID", "client", str(func(c Config) string { return c.ClientID }), "client"},
		{"ARM_CLIENT_SECRET", "s3cret", str(func(c Config) string { return c.ClientSecret }), "s3cret"},
		{"ARM_CLIENT_CERTIFICATE_PATH", "/c.pem", str(func(c Config) string { return c.ClientCertificatePath }), "/c.pem"},
		{"ARM_CLIENT_CERTIFICATE_PASSWORD", "pw", str(func(c Config) string { return c.ClientCertificatePassword }), "pw"},
		{"ARM_USE_CLI", "false", flag(func(c Config) *bool { return c.UseCLI }), "false"},
		{"ARM_USE_MSI", "true", flag(func(c Config) *bool { return c.UseMSI }), "true"},
		{"ARM_USE_OIDC", "1", flag(func(c Config) *bool { return c.UseOIDC }), "true"},
		{"ARM_OIDC_TOKEN", "jwt", str(func(c Config) string { return c.OIDCToken }), "jwt"},
		{"ARM_OIDC_TOKEN_FILE_PATH", "/t", str(func(c Config) string { return c.OIDCTokenFilePath }), "/t"},
		{"ARM_OIDC_REQUEST_URL", "https://a", str(func(c Config) string { return c.OIDCRequestURL }), "https://a"},
		{"ACTIONS_ID_TOKEN_REQUEST_URL", "https://gh", str(func(c Config) string { return c.OIDCRequestURL }), "https://gh"},
		{"SYSTEM_OIDCREQUESTURI", "https://ado", str(func(c Config) string { return c.OIDCRequestURL }), "https://ado"},
		{"ARM_OIDC_REQUEST_TOKEN", "rt", str(func(c Config) string { return c.OIDCRequestToken }), "rt"},
		{"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ght", str(func(c Config) string { return c.OIDCRequestToken }), "ght"},
		{"SYSTEM_ACCESSTOKEN", "adot", str(func(c Config) string { return c.OIDCRequestToken }), "adot"},
		{"ARM_ADO_PIPELINE_SERVICE_CONNECTION_ID", "sc1", str(func(c Config) string { return c.ADOServiceConnectionID }), "sc1"},
		{"ARM_OIDC_AZURE_SERVICE_CONNECTION_ID", "sc2", str(func(c Config) string { return c.ADOServiceConnectionID }), "sc2"},
		{"ARM_USE_AKS_WORKLOAD_IDENTITY", "TRUE", flag(func(c Config) *bool { return c.UseAKSWorkloadIdentity }), "true"},
		{"ARM_ENVIRONMENT", "china", str(func(c Config) string { return c.Environment }), "china"},
		{"PULLPATH_SNAPSHOT_FILE", "s.json", str(func(c Config) string { return c.SnapshotFile }), "s.json"},
		{"PULLPATH_RECORD_FILE", "r.json", str(func(c Config) string { return c.RecordFile }), "r.json"},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			c := Config{}.WithEnvironment(envMap(map[string]string{tt.env: tt.value}))
			if got := tt.field(c); got != tt.want {
				t.Errorf("%s=%q: field = %v, want %v", tt.env, tt.value, got, tt.want)
			}
			if len(c.envErrs) > 0 {
				t.Errorf("unexpected env errors: %v", c.envErrs)
			}
		})
	}
}

func TestWithEnvironmentExplicitWins(t *testing.T) {
	env := envMap(map[string]string{
		"ARM_SUBSCRIPTION_ID": "11111111-1111-1111-1111-111111111111",
		"ARM_TENANT_ID":       "env-tenant",
		"ARM_CLIENT_SECRET":   "env-secret",
		"ARM_USE_CLI":         "true",
		"ARM_USE_MSI":         "true",
		"ARM_ENVIRONMENT":     "china",
	})
	c := Config{
		SubscriptionID: testSub,
		TenantID:       "cfg-tenant",
		ClientSecret:   "cfg-secret",
		UseCLI:         to.Ptr(false), // explicit false must beat ARM_USE_CLI=true
		Environment:    "public",
	}.WithEnvironment(env)
	if c.SubscriptionID != testSub || c.TenantID != "cfg-tenant" || c.ClientSecret != "cfg-secret" || c.Environment != "public" {
		t.Errorf("configured values were overridden: %v", c)
	}
	if c.UseCLI == nil || *c.UseCLI {
		t.Errorf("use_cli = %s, want the configured false", triString(c.UseCLI))
	}
	if c.UseMSI == nil || !*c.UseMSI {
		t.Errorf("use_msi = %s, want true from ARM_USE_MSI", triString(c.UseMSI))
	}
}

func TestWithEnvironmentFallbackOrder(t *testing.T) {
	c := Config{}.WithEnvironment(envMap(map[string]string{
		"ARM_OIDC_REQUEST_URL":           "https://arm",
		"ACTIONS_ID_TOKEN_REQUEST_URL":   "https://gh",
		"SYSTEM_OIDCREQUESTURI":          "https://ado",
		"ACTIONS_ID_TOKEN_REQUEST_TOKEN": "gh-token",
		"SYSTEM_ACCESSTOKEN":             "ado-token",
	}))
	if c.OIDCRequestURL != "https://arm" {
		t.Errorf("OIDCRequestURL = %q, want ARM_OIDC_REQUEST_URL first", c.OIDCRequestURL)
	}
	if c.OIDCRequestToken != "gh-token" {
		t.Errorf("OIDCRequestToken = %q, want ACTIONS_ID_TOKEN_REQUEST_TOKEN before SYSTEM_ACCESSTOKEN", c.OIDCRequestToken)
	}
}

func TestWithEnvironmentTriState(t *testing.T) {
	unset := Config{}.WithEnvironment(envMap(nil))
	if unset.UseCLI != nil || unset.UseMSI != nil || unset.UseOIDC != nil || unset.UseAKSWorkloadIdentity != nil {
		t.Errorf("booleans without configuration or environment must stay unset: %v", unset)
	}
	if m, err := selectMethod(unset); err != nil || m != authAzureCLI {
		t.Errorf("unset use_cli selects %q, %v; want azure_cli (default true)", m, err)
	}

	bad := Config{}.WithEnvironment(envMap(map[string]string{"ARM_USE_CLI": "yes"}))
	if bad.UseCLI != nil {
		t.Errorf("ARM_USE_CLI=yes set use_cli to %v", *bad.UseCLI)
	}
	err := bad.Validate()
	if err == nil || !strings.Contains(err.Error(), `ARM_USE_CLI="yes"`) || !strings.Contains(err.Error(), "use_cli") {
		t.Errorf("Validate() = %v, want an error naming ARM_USE_CLI and use_cli", err)
	}
}

func TestWithEnvironmentWorkloadIdentity(t *testing.T) {
	env := map[string]string{
		"AZURE_CLIENT_ID":            "wi-client",
		"AZURE_TENANT_ID":            "wi-tenant",
		"AZURE_FEDERATED_TOKEN_FILE": "/var/run/secrets/azure/tokens/azure-identity-token",
	}
	off := Config{}.WithEnvironment(envMap(env))
	if off.ClientID != "" || off.TenantID != "" || off.OIDCTokenFilePath != "" {
		t.Errorf("AZURE_* were read without use_aks_workload_identity: %v", off)
	}

	env["ARM_USE_AKS_WORKLOAD_IDENTITY"] = "true"
	on := Config{}.WithEnvironment(envMap(env))
	if on.ClientID != "wi-client" || on.TenantID != "wi-tenant" || on.OIDCTokenFilePath != env["AZURE_FEDERATED_TOKEN_FILE"] {
		t.Errorf("workload identity variables not used: %v", on)
	}

	env["ARM_CLIENT_ID"] = "other-client"
	mismatch := Config{}.WithEnvironment(envMap(env))
	err := mismatch.Validate()
	if err == nil || !strings.Contains(err.Error(), "client_id (ARM_CLIENT_ID)") || !strings.Contains(err.Error(), "AZURE_CLIENT_ID") {
		t.Errorf("Validate() = %v, want the client id mismatch named", err)
	}
}

func TestWithEnvironmentDoesNotShareErrors(t *testing.T) {
	base := Config{}.WithEnvironment(envMap(map[string]string{"ARM_USE_MSI": "nope"}))
	a := base.WithEnvironment(envMap(map[string]string{"ARM_USE_CLI": "x"}))
	b := base.WithEnvironment(envMap(map[string]string{"ARM_USE_OIDC": "y"}))
	if len(a.envErrs) != 2 || len(b.envErrs) != 2 || strings.Contains(fmt.Sprint(a.envErrs), "ARM_USE_OIDC") {
		t.Errorf("derived configs share error lists: a=%v b=%v", a.envErrs, b.envErrs)
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join("testdata", "baseline_ok.json")
	cert := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(cert, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want []string // substrings of the error; none means valid
	}{
		{"default CLI", Config{}, nil},
		{"snapshot", Config{SnapshotFile: snap, SubscriptionID: testSub}, nil},
		{"snapshot ignores auth", Config{SnapshotFile: snap, ClientSecret: "x", ClientCertificatePath: "/nope"}, nil},
		{"snapshot and record", Config{SnapshotFile: snap, RecordFile: filepath.Join(dir, "r.json")},
			[]string{"snapshot_file (PULLPATH_SNAPSHOT_FILE)", "record_file (PULLPATH_RECORD_FILE)", "only one"}},
		{"snapshot missing", Config{SnapshotFile: filepath.Join(dir, "nope.json")},
			[]string{"snapshot_file (PULLPATH_SNAPSHOT_FILE)", "does not exist"}},
		{"record dir missing", Config{RecordFile: filepath.Join(dir, "no", "r.json")},
			[]string{"record_file (PULLPATH_RECORD_FILE)", "does not exist"}},
		{"unknown environment", Config{Environment: "azurepublic"},
			[]string{`environment (ARM_ENVIRONMENT) "azurepublic"`, "public, usgovernment or china"}},
		{"subscription not a GUID", Config{SubscriptionID: "my-sub"},
			[]string{`subscription_id (ARM_SUBSCRIPTION_ID) "my-sub"`, "GUID"}},
		{"tenant malformed", Config{TenantID: "a b"}, []string{`tenant_id (ARM_TENANT_ID) "a b"`}},
		{"certificate missing", Config{ClientID: "c", TenantID: "t", ClientCertificatePath: filepath.Join(dir, "nope.pem")},
			[]string{"client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH)", "does not exist"}},
		{"certificate is a directory", Config{ClientID: "c", TenantID: "t", ClientCertificatePath: dir},
			[]string{"client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH)", "is a directory"}},
		{"certificate ok", Config{ClientID: "c", TenantID: "t", ClientCertificatePath: cert}, nil},
		{"password without certificate", Config{ClientCertificatePassword: "pw"},
			[]string{"client_certificate_password (ARM_CLIENT_CERTIFICATE_PASSWORD)", "client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH) is not"}},
		{"secret without tenant", Config{ClientID: "c", ClientSecret: "s"},
			[]string{"client_secret (ARM_CLIENT_SECRET) is set", "tenant_id (ARM_TENANT_ID) is not set"}},
		{"oidc token file missing", Config{ClientID: "c", TenantID: "t", UseOIDC: to.Ptr(true), OIDCTokenFilePath: filepath.Join(dir, "tok")},
			[]string{"oidc_token_file_path (ARM_OIDC_TOKEN_FILE_PATH)", "does not exist"}},
		{"several problems at once", Config{Environment: "mars", SubscriptionID: "x"},
			[]string{"ARM_ENVIRONMENT", "ARM_SUBSCRIPTION_ID"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want an error containing %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate() = %q\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

func TestCloud(t *testing.T) {
	tests := []struct {
		env  string
		want cloud.Configuration
	}{
		{"", cloud.AzurePublic},
		{"public", cloud.AzurePublic},
		{"AzurePublicCloud", cloud.AzurePublic},
		{"PUBLIC", cloud.AzurePublic},
		{"usgovernment", cloud.AzureGovernment},
		{"AzureUSGovernmentCloud", cloud.AzureGovernment},
		{"china", cloud.AzureChina},
		{" AzureChinaCloud ", cloud.AzureChina},
	}
	for _, tt := range tests {
		got, err := Config{Environment: tt.env}.Cloud()
		if err != nil {
			t.Errorf("Cloud(%q): %v", tt.env, err)
			continue
		}
		if got.ActiveDirectoryAuthorityHost != tt.want.ActiveDirectoryAuthorityHost {
			t.Errorf("Cloud(%q) authority = %s, want %s", tt.env, got.ActiveDirectoryAuthorityHost, tt.want.ActiveDirectoryAuthorityHost)
		}
		if got.Services[cloud.ResourceManager].Endpoint == "" {
			t.Errorf("Cloud(%q) has no ARM endpoint", tt.env)
		}
	}
	for _, bad := range []string{"azurepublic", "german", "usgov"} {
		if _, err := (Config{Environment: bad}).Cloud(); err == nil || !strings.Contains(err.Error(), "ARM_ENVIRONMENT") {
			t.Errorf("Cloud(%q) = %v, want an error naming ARM_ENVIRONMENT", bad, err)
		}
	}
}

func TestConfigStringRedactsSecrets(t *testing.T) {
	c := Config{
		ClientID: "visible-client", ClientSecret: "secret-1-value", ClientCertificatePassword: "secret-2-value",
		OIDCToken: "secret-3-value", OIDCRequestToken: "secret-4-value", UseCLI: to.Ptr(false),
	}
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%v", &c)} {
		if strings.Contains(s, "secret-") {
			t.Errorf("printed config leaks a secret: %s", s)
		}
		if !strings.Contains(s, "visible-client") || !strings.Contains(s, "use_cli=false") {
			t.Errorf("printed config lacks non-secret fields: %s", s)
		}
	}
}

// Every configuration error that is about one argument is an ArgumentError
// naming it, so that the provider reports it there; an error about no
// argument in particular is not.
func TestValidateArgumentErrors(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join("testdata", "baseline_ok.json")
	wi := envMap(map[string]string{"AZURE_CLIENT_ID": "from-webhook"})
	tests := []struct {
		name string
		cfg  Config
		want []string // the arguments, in the order of the errors; "" for a general one
	}{
		{"boolean variable", Config{}.WithEnvironment(envMap(map[string]string{"ARM_USE_MSI": "yes"})), []string{"use_msi"}},
		{"workload identity mismatch", Config{ClientID: "mine", UseAKSWorkloadIdentity: to.Ptr(true)}.WithEnvironment(wi), []string{"client_id", "use_aks_workload_identity"}},
		{"snapshot and record", Config{SnapshotFile: snap, RecordFile: filepath.Join(dir, "r.json")}, []string{"snapshot_file"}},
		{"snapshot missing", Config{SnapshotFile: filepath.Join(dir, "nope.json")}, []string{"snapshot_file"}},
		{"record dir missing", Config{RecordFile: filepath.Join(dir, "no", "r.json")}, []string{"record_file"}},
		{"environment and subscription", Config{Environment: "mars", SubscriptionID: "x"}, []string{"environment", "subscription_id"}},
		{"tenant", Config{TenantID: "a b"}, []string{"tenant_id"}},
		{"certificate missing", Config{ClientID: "c", TenantID: "t", ClientCertificatePath: filepath.Join(dir, "nope.pem")}, []string{"client_certificate_path"}},
		{"password without certificate", Config{ClientCertificatePassword: "pw"}, []string{"client_certificate_password"}},
		{"secret without ids", Config{ClientSecret: "s"}, []string{"client_secret"}},
		{"certificate without ids", Config{ClientCertificatePath: snap}, []string{"client_certificate_path"}},
		{"oidc token file missing", Config{ClientID: "c", TenantID: "t", UseOIDC: to.Ptr(true), OIDCTokenFilePath: filepath.Join(dir, "tok")}, []string{"oidc_token_file_path"}},
		{"oidc without token", Config{ClientID: "c", TenantID: "t", UseOIDC: to.Ptr(true)}, []string{"use_oidc"}},
		{"oidc token without ids", Config{UseOIDC: to.Ptr(true), OIDCToken: "x"}, []string{"use_oidc"}},
		{"workload identity without token file", Config{ClientID: "c", TenantID: "t", UseAKSWorkloadIdentity: to.Ptr(true)}, []string{"use_aks_workload_identity"}},
		{"no method at all", Config{UseCLI: to.Ptr(false)}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if err == nil {
				t.Fatal("Validate() = nil")
			}
			var errs []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			} else {
				errs = []error{err}
			}
			var got []string
			for _, e := range errs {
				var ae *ArgumentError
				if errors.As(e, &ae) {
					got = append(got, ae.Argument)
					if ae.Error() != ae.Err.Error() || !strings.Contains(ae.Error(), ae.Argument) {
						t.Errorf("%q: the message must be the error's and name %s", ae.Error(), ae.Argument)
					}
				} else {
					got = append(got, "")
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("arguments %q, want %q (%v)", got, tt.want, err)
			}
		})
	}

	// A snapshot that does not load is an error on snapshot_file too.
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := NewSession(Config{SnapshotFile: bad})
	var ae *ArgumentError
	if !errors.As(err, &ae) || ae.Argument != "snapshot_file" {
		t.Errorf("NewSession with a broken snapshot = %v, want an ArgumentError on snapshot_file", err)
	}
}
