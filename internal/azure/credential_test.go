package azure

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

const (
	testTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	testClient = "11111111-2222-3333-4444-555555555555"
)

// sp is a config with client and tenant id, the base of most cases.
func sp(c Config) Config {
	c.ClientID, c.TenantID = testClient, testTenant
	return c
}

func TestSelectMethod(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want authMethod
	}{
		{"nothing set: CLI", Config{}, authAzureCLI},
		{"CLI with tenant", Config{TenantID: testTenant}, authAzureCLI},
		{"client id alone is not a method", Config{ClientID: testClient}, authAzureCLI},
		{"secret", sp(Config{ClientSecret: "s"}), authClientSecret},
		{"secret beats certificate", sp(Config{ClientSecret: "s", ClientCertificatePath: "c.pem"}), authClientSecret},
		{"certificate", sp(Config{ClientCertificatePath: "c.pem"}), authClientCertificate},
		{"certificate beats OIDC", sp(Config{ClientCertificatePath: "c.pem", UseOIDC: to.Ptr(true), OIDCToken: "t"}), authClientCertificate},
		{"OIDC token", sp(Config{UseOIDC: to.Ptr(true), OIDCToken: "t"}), authOIDCToken},
		{"OIDC token beats file", sp(Config{UseOIDC: to.Ptr(true), OIDCToken: "t", OIDCTokenFilePath: "f"}), authOIDCToken},
		{"OIDC token file", sp(Config{UseOIDC: to.Ptr(true), OIDCTokenFilePath: "f"}), authOIDCTokenFile},
		{"Azure DevOps", sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestURL: "https://ado", OIDCRequestToken: "t"}), authAzurePipelines},
		{"GitHub Actions", sp(Config{UseOIDC: to.Ptr(true), OIDCRequestURL: "https://gh", OIDCRequestToken: "t"}), authGitHubActions},
		{"OIDC token ignored without use_oidc", Config{OIDCToken: "t"}, authAzureCLI},
		{"OIDC beats workload identity", sp(Config{UseOIDC: to.Ptr(true), OIDCToken: "t", UseAKSWorkloadIdentity: to.Ptr(true), OIDCTokenFilePath: "f"}), authOIDCToken},
		{"workload identity", sp(Config{UseAKSWorkloadIdentity: to.Ptr(true), OIDCTokenFilePath: "f"}), authWorkloadIdentity},
		{"workload identity beats MSI", sp(Config{UseAKSWorkloadIdentity: to.Ptr(true), OIDCTokenFilePath: "f", UseMSI: to.Ptr(true)}), authWorkloadIdentity},
		{"MSI system-assigned", Config{UseMSI: to.Ptr(true)}, authManagedIdentity},
		{"MSI user-assigned", Config{UseMSI: to.Ptr(true), ClientID: testClient}, authManagedIdentity},
		{"MSI beats CLI", Config{UseMSI: to.Ptr(true), UseCLI: to.Ptr(true)}, authManagedIdentity},
		{"secret beats MSI", sp(Config{ClientSecret: "s", UseMSI: to.Ptr(true)}), authClientSecret},
		{"false flags fall to CLI", Config{UseMSI: to.Ptr(false), UseOIDC: to.Ptr(false)}, authAzureCLI},
		{"env: GitHub Actions", Config{UseOIDC: to.Ptr(true)}.WithEnvironment(envMap(map[string]string{
			"ARM_CLIENT_ID": testClient, "ARM_TENANT_ID": testTenant,
			"ACTIONS_ID_TOKEN_REQUEST_URL": "https://gh", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "t",
		})), authGitHubActions},
		{"env: Azure DevOps", Config{}.WithEnvironment(envMap(map[string]string{
			"ARM_USE_OIDC": "true", "ARM_CLIENT_ID": testClient, "ARM_TENANT_ID": testTenant,
			"ARM_ADO_PIPELINE_SERVICE_CONNECTION_ID": "sc", "SYSTEM_ACCESSTOKEN": "t", "SYSTEM_OIDCREQUESTURI": "https://ado",
		})), authAzurePipelines},
		{"env: AKS workload identity", Config{}.WithEnvironment(envMap(map[string]string{
			"ARM_USE_AKS_WORKLOAD_IDENTITY": "true", "AZURE_CLIENT_ID": testClient, "AZURE_TENANT_ID": testTenant,
			"AZURE_FEDERATED_TOKEN_FILE": "/token",
		})), authWorkloadIdentity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := selectMethod(tt.cfg)
			if err != nil {
				t.Fatalf("selectMethod: %v", err)
			}
			if got != tt.want {
				t.Errorf("selectMethod = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSelectMethodIncomplete(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"secret without client and tenant", Config{ClientSecret: "s"},
			[]string{"client_secret (ARM_CLIENT_SECRET) is set", "client_id (ARM_CLIENT_ID)", "tenant_id (ARM_TENANT_ID)", "are not set"}},
		{"certificate without tenant", Config{ClientID: testClient, ClientCertificatePath: "c.pem"},
			[]string{"client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH) is set", "tenant_id (ARM_TENANT_ID) is not set"}},
		{"OIDC without any token", sp(Config{UseOIDC: to.Ptr(true)}),
			[]string{"use_oidc (ARM_USE_OIDC) is true", "oidc_token (ARM_OIDC_TOKEN)", "oidc_token_file_path (ARM_OIDC_TOKEN_FILE_PATH)", "id-token: write"}},
		{"GitHub without request token", sp(Config{UseOIDC: to.Ptr(true), OIDCRequestURL: "https://gh"}),
			[]string{"oidc_request_token (ARM_OIDC_REQUEST_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN or SYSTEM_ACCESSTOKEN) is not set", "id-token: write"}},
		{"GitHub without client id", Config{TenantID: testTenant, UseOIDC: to.Ptr(true), OIDCRequestURL: "https://gh", OIDCRequestToken: "t"},
			[]string{"client_id (ARM_CLIENT_ID)"}},
		{"Azure DevOps without access token", sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestURL: "https://ado"}),
			[]string{"ado_pipeline_service_connection_id (ARM_ADO_PIPELINE_SERVICE_CONNECTION_ID or ARM_OIDC_AZURE_SERVICE_CONNECTION_ID) is set", "SYSTEM_ACCESSTOKEN"}},
		{"Azure DevOps outside a pipeline", sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestToken: "t"}),
			[]string{"SYSTEM_OIDCREQUESTURI"}},
		{"workload identity without token file", Config{UseAKSWorkloadIdentity: to.Ptr(true), ClientID: testClient, TenantID: testTenant},
			[]string{"use_aks_workload_identity (ARM_USE_AKS_WORKLOAD_IDENTITY) is true", "AZURE_FEDERATED_TOKEN_FILE"}},
		{"nothing enabled", Config{UseCLI: to.Ptr(false)},
			[]string{"use_cli (ARM_USE_CLI) is false", "snapshot_file (PULLPATH_SNAPSHOT_FILE)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := selectMethod(tt.cfg)
			if err == nil {
				t.Fatal("selectMethod succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
			// The same message reaches the user through Validate and NewSession.
			if verr := tt.cfg.Validate(); verr == nil || !strings.Contains(verr.Error(), err.Error()) {
				t.Errorf("Validate() = %v, want it to include %q", verr, err)
			}
		})
	}
}

// writePEM writes a throw-away self-signed certificate and its key.
func writePEM(t *testing.T) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048) // azidentity takes RSA keys only
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "pullpath-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	data = append(data, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})...)
	path := filepath.Join(t.TempDir(), "sp.pem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNewCredentialTypes builds every credential with fake values and checks
// the azidentity type; no token is requested.
func TestNewCredentialTypes(t *testing.T) {
	t.Setenv("SYSTEM_OIDCREQUESTURI", "https://dev.azure.example/oidc")
	pemPath := writePEM(t)
	pfxPath := filepath.Join("testdata", "certificate_encrypted_key.pfx")
	tests := []struct {
		cfg  Config
		want any
	}{
		{sp(Config{ClientSecret: "s"}), &azidentity.ClientSecretCredential{}},
		{sp(Config{ClientCertificatePath: pemPath}), &azidentity.ClientCertificateCredential{}},
		{sp(Config{ClientCertificatePath: pfxPath, ClientCertificatePassword: "password"}), &azidentity.ClientCertificateCredential{}},
		{sp(Config{UseOIDC: to.Ptr(true), OIDCToken: "jwt"}), &azidentity.ClientAssertionCredential{}},
		{sp(Config{UseOIDC: to.Ptr(true), OIDCTokenFilePath: "/token"}), &azidentity.ClientAssertionCredential{}},
		{sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestToken: "t", OIDCRequestURL: "https://dev.azure.example/oidc"}), &azidentity.AzurePipelinesCredential{}},
		{sp(Config{UseOIDC: to.Ptr(true), OIDCRequestURL: "https://gh.example", OIDCRequestToken: "t"}), &azidentity.ClientAssertionCredential{}},
		{sp(Config{UseAKSWorkloadIdentity: to.Ptr(true), OIDCTokenFilePath: "/token"}), &azidentity.WorkloadIdentityCredential{}},
		{Config{UseMSI: to.Ptr(true)}, &azidentity.ManagedIdentityCredential{}},
		{Config{UseMSI: to.Ptr(true), ClientID: testClient}, &azidentity.ManagedIdentityCredential{}},
		{Config{TenantID: testTenant}, &azidentity.AzureCLICredential{}},
	}
	for _, tt := range tests {
		m, err := selectMethod(tt.cfg)
		if err != nil {
			t.Fatalf("%v: %v", tt.cfg, err)
		}
		t.Run(string(m), func(t *testing.T) {
			cl, _ := tt.cfg.Cloud()
			cred, err := newCredential(m, tt.cfg, azcore.ClientOptions{Cloud: cl})
			if err != nil {
				t.Fatalf("newCredential: %v", err)
			}
			if got, want := fmt.Sprintf("%T", cred), fmt.Sprintf("%T", tt.want); got != want {
				t.Errorf("credential is %s, want %s", got, want)
			}
		})
	}
}

func TestNewCredentialErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(junk, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	pfx := filepath.Join("testdata", "certificate_encrypted_key.pfx")
	tests := []struct {
		name string
		cfg  Config
		env  string // SYSTEM_OIDCREQUESTURI
		want []string
	}{
		{"certificate is junk", sp(Config{ClientCertificatePath: junk}), "",
			[]string{"client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH)", "not a usable certificate", "client_certificate_password (ARM_CLIENT_CERTIFICATE_PASSWORD)"}},
		{"PKCS#12 wrong password", sp(Config{ClientCertificatePath: pfx, ClientCertificatePassword: "wrong-password-123"}), "",
			[]string{"client_certificate_path (ARM_CLIENT_CERTIFICATE_PATH)", "check client_certificate_password"}},
		{"Azure DevOps outside a pipeline", sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestToken: "t", OIDCRequestURL: "https://x"}), "",
			[]string{"SYSTEM_OIDCREQUESTURI is not set"}},
		{"Azure DevOps URL differs", sp(Config{UseOIDC: to.Ptr(true), ADOServiceConnectionID: "sc", OIDCRequestToken: "t", OIDCRequestURL: "https://x"}), "https://y",
			[]string{"oidc_request_url (ARM_OIDC_REQUEST_URL", "SYSTEM_OIDCREQUESTURI"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SYSTEM_OIDCREQUESTURI", tt.env)
			src, err := NewCredentialSource(tt.cfg)
			if err != nil {
				t.Fatalf("NewCredentialSource: %v", err)
			}
			_, err = src()
			if err == nil {
				t.Fatal("credential created, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "wrong-password-123") {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
}

func TestNewCredentialSourceIsLazy(t *testing.T) {
	// A certificate path that does not exist is only read when the source
	// is called: configuring must not touch it.
	cfg := sp(Config{ClientCertificatePath: filepath.Join(t.TempDir(), "later.pem")})
	src, err := NewCredentialSource(cfg)
	if err != nil {
		t.Fatalf("NewCredentialSource read the certificate eagerly: %v", err)
	}
	if _, err := src(); err == nil || !strings.Contains(err.Error(), "client_certificate_path") {
		t.Errorf("source() = %v, want the certificate read error", err)
	}

	if _, err := NewCredentialSource(Config{ClientSecret: "s"}); err == nil {
		t.Error("an incomplete configuration must fail at NewCredentialSource")
	}
}

func TestGitHubAssertion(t *testing.T) {
	const requestToken = "gh-request-token-xyz"
	var gotAudience, gotAPIVersion, gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAudience, gotAPIVersion = r.URL.Query().Get("audience"), r.URL.Query().Get("api-version")
		gotAuth = r.Header.Get("Authorization")
		if gotAuth != "Bearer "+requestToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"count":1,"value":"eyJ.github.jwt"}`))
	}))
	defer srv.Close()

	// GitHub's URL already carries a query; audience must be added to it.
	g := githubAssertion{requestURL: srv.URL + "/idtoken?api-version=2.0", requestToken: requestToken, client: srv.Client()}
	tok, err := g.get(t.Context())
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if tok != "eyJ.github.jwt" {
		t.Errorf("token = %q", tok)
	}
	if gotAudience != "api://AzureADTokenExchange" || gotAPIVersion != "2.0" {
		t.Errorf("query audience=%q api-version=%q", gotAudience, gotAPIVersion)
	}

	bad := githubAssertion{requestURL: srv.URL + "/idtoken", requestToken: "wrong-request-token", client: srv.Client()}
	_, err = bad.get(t.Context())
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "id-token: write") {
		t.Errorf("get with a bad token = %v, want a 401 with the permission hint", err)
	}
	if err != nil && strings.Contains(err.Error(), "wrong-request-token") {
		t.Errorf("error leaks the request token: %v", err)
	}

	if _, err := (githubAssertion{requestURL: "::", client: srv.Client()}).get(t.Context()); err == nil || !strings.Contains(err.Error(), "oidc_request_url") {
		t.Errorf("bad URL error = %v, want it to name oidc_request_url", err)
	}
}

// TestGitHubCredentialUsesAssertion goes one step further than the
// assertion: the credential built for GitHub Actions calls the endpoint
// when a token is requested. Entra ID is faked too, so nothing leaves the
// machine.
func TestGitHubCredentialUsesAssertion(t *testing.T) {
	var ghCalls int
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ghCalls++
		_, _ = w.Write([]byte(`{"value":"eyJ.github.jwt"}`))
	}))
	defer gh.Close()

	cfg := sp(Config{UseOIDC: to.Ptr(true), OIDCRequestURL: gh.URL, OIDCRequestToken: "rt"})
	entra := fakeEntra{t: t, wantAssertion: "eyJ.github.jwt"}
	cred, err := newCredential(authGitHubActions, cfg, azcore.ClientOptions{Transport: entra})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := cred.GetToken(t.Context(), policy.TokenRequestOptions{Scopes: []string{"https://management.azure.com/.default"}})
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	if tok.Token != "entra-access-token" || ghCalls != 1 {
		t.Errorf("token %q after %d GitHub calls", tok.Token, ghCalls)
	}
}

// fakeEntra answers MSAL's instance discovery and token requests.
type fakeEntra struct {
	t             *testing.T
	wantAssertion string
}

func (f fakeEntra) Do(req *http.Request) (*http.Response, error) {
	body := `{}`
	switch {
	case strings.Contains(req.URL.Path, "discovery/instance"):
		body = `{"tenant_discovery_endpoint":"https://login.microsoftonline.com/` + testTenant + `/v2.0/.well-known/openid-configuration","api-version":"1.1","metadata":[]}`
	case strings.HasSuffix(req.URL.Path, "openid-configuration"):
		body = `{"token_endpoint":"https://login.microsoftonline.com/` + testTenant + `/oauth2/v2.0/token","authorization_endpoint":"https://login.microsoftonline.com/` + testTenant + `/oauth2/v2.0/authorize","issuer":"https://login.microsoftonline.com/` + testTenant + `/v2.0"}`
	case strings.HasSuffix(req.URL.Path, "/token"):
		if err := req.ParseForm(); err != nil {
			return nil, err
		}
		if got := req.PostForm.Get("client_assertion"); got != f.wantAssertion {
			f.t.Errorf("client_assertion = %q, want %q", got, f.wantAssertion)
		}
		body = `{"access_token":"entra-access-token","expires_in":3600,"token_type":"Bearer"}`
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: ioNopCloser(body), Request: req}, nil
}

func TestRedaction(t *testing.T) {
	secrets := Config{ClientSecret: "hunter2-secret", OIDCRequestToken: "abc", OIDCToken: "jwt-token-value"}.secrets()
	if len(secrets) != 2 {
		t.Fatalf("secrets = %d values, want the two of at least 4 characters", len(secrets))
	}
	inner := &azcore.ResponseError{StatusCode: 401, ErrorCode: "invalid_client"}
	err := redact(fmt.Errorf("AADSTS7000215: Invalid client secret provided: hunter2-secret and jwt-token-value: %w", inner), secrets)
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "jwt-token-value") {
		t.Errorf("not redacted: %v", err)
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Error("redaction hid the response error from errors.As")
	}
	clean := errors.New("nothing secret")
	if got := redact(clean, secrets); got != clean { //nolint:errorlint // identity is the point: the same error value must come back
		t.Error("an error without secrets must be returned unchanged")
	}

	cred := redactingCredential{cred: failingCredential{msg: "bad secret hunter2-secret"}, secrets: secrets}
	if _, err := cred.GetToken(t.Context(), policy.TokenRequestOptions{}); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("GetToken error = %v, want it redacted", err)
	}
}

type failingCredential struct{ msg string }

func (f failingCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{}, errors.New(f.msg)
}

func TestStaticCredentialIsDummy(t *testing.T) {
	tok, err := staticCredential{}.GetToken(t.Context(), policy.TokenRequestOptions{})
	if err != nil || tok.Token != offlineToken || strings.Count(tok.Token, ".") == 2 {
		t.Errorf("static token = %q, %v; want the fixed non-JWT dummy", tok.Token, err)
	}
}

func ioNopCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

// A refused token is a SignInError that names the method and hides the
// secret; a token wait cut short by the read's deadline stays a timeout.
func TestRedactingCredentialSignInError(t *testing.T) {
	cred := redactingCredential{cred: failingCredential{msg: "AADSTS7000215: bad secret hunter2-secret"}, secrets: []string{"hunter2-secret"},
		method: authClientSecret.describe()}
	_, err := cred.GetToken(t.Context(), policy.TokenRequestOptions{})
	var si *SignInError
	if !errors.As(err, &si) || si.Method != "a service principal with a client secret" {
		t.Fatalf("GetToken error = %#v, want a *SignInError naming the method", err)
	}
	if msg := err.Error(); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "signing in to Azure with a service principal with a client secret failed: AADSTS7000215") {
		t.Errorf("message = %q", msg)
	}

	deadline := redactingCredential{cred: deadlineCredential{}, method: "x"}
	if _, err := deadline.GetToken(t.Context(), policy.TokenRequestOptions{}); errors.As(err, &si) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline error = %v, want a plain deadline error", err)
	}
}

type deadlineCredential struct{}

func (deadlineCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{}, fmt.Errorf("waiting for the token: %w", context.DeadlineExceeded)
}
