package azure

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// authMethod is the way the provider signs in to Entra ID.
type authMethod string

const (
	authClientSecret      authMethod = "client_secret"
	authClientCertificate authMethod = "client_certificate"
	authOIDCToken         authMethod = "oidc_token"
	authOIDCTokenFile     authMethod = "oidc_token_file"
	authAzurePipelines    authMethod = "oidc_azure_pipelines"
	authGitHubActions     authMethod = "oidc_github_actions"
	authWorkloadIdentity  authMethod = "aks_workload_identity"
	authManagedIdentity   authMethod = "managed_identity"
	authAzureCLI          authMethod = "azure_cli"
)

// describe is the method in words, for messages.
func (m authMethod) describe() string {
	switch m {
	case authClientSecret:
		return "a service principal with a client secret"
	case authClientCertificate:
		return "a service principal with a client certificate"
	case authOIDCToken:
		return "OIDC with the federated token in " + argRef(argOIDCToken)
	case authOIDCTokenFile:
		return "OIDC with the federated token file " + argRef(argOIDCTokenFilePath)
	case authAzurePipelines:
		return "OIDC from the Azure DevOps service connection " + argRef(argADOConnectionID)
	case authGitHubActions:
		return "OIDC from GitHub Actions"
	case authWorkloadIdentity:
		return "AKS workload identity"
	case authManagedIdentity:
		return "a managed identity"
	case authAzureCLI:
		return "the Azure CLI login"
	}
	return string(m)
}

// selectMethod picks the one authentication method the configuration asks
// for, in azurerm's order: client secret, client certificate, OIDC (a token,
// a token file, Azure DevOps, GitHub Actions), AKS workload identity,
// managed identity, and the Azure CLI as the last resort.
//
// The first configured method is used and no other is tried when it fails:
// that is azurerm's behaviour, and a runtime fallback chain would hide a
// broken configuration (an expired secret silently falling back to a
// developer's CLI login, with other permissions, would change the verdict
// of a plan without anyone noticing). The CLI is different only in being
// enabled by default (use_cli), so it is used when nothing else is set.
//
// A method chosen by its arguments whose other arguments are missing is an
// error that names them, never a reason to try the next method.
func selectMethod(c Config) (authMethod, error) {
	switch {
	case c.ClientSecret != "":
		return authClientSecret, c.require(authClientSecret, argClientSecret, argRef(argClientSecret)+" is set", "", c.servicePrincipal()...)
	case c.ClientCertificatePath != "":
		return authClientCertificate, c.require(authClientCertificate, argClientCertPath, argRef(argClientCertPath)+" is set", "", c.servicePrincipal()...)
	case isTrue(c.UseOIDC):
		return c.selectOIDC()
	case isTrue(c.UseAKSWorkloadIdentity):
		return authWorkloadIdentity, c.require(authWorkloadIdentity, argUseAKSWI, argRef(argUseAKSWI)+" is true",
			`the workload identity webhook sets the AZURE_* variables in pods whose service account is annotated with azure.workload.identity/client-id and labelled azure.workload.identity/use: "true"`,
			requirement{c.ClientID, argRef(argClientID) + " or " + envAzureClientID},
			requirement{c.TenantID, argRef(argTenantID) + " or " + envAzureTenantID},
			requirement{c.OIDCTokenFilePath, argRef(argOIDCTokenFilePath) + " or " + envAzureFederatedTokenFile})
	case isTrue(c.UseMSI):
		return authManagedIdentity, nil
	case c.UseCLI == nil || *c.UseCLI:
		return authAzureCLI, nil
	}
	return "", fmt.Errorf("no Azure authentication method is enabled: %s is false and none of %s is set; "+
		"enable one of them, or set %s to work offline from a snapshot",
		argRef(argUseCLI), joinList([]string{argRef(argClientSecret), argRef(argClientCertPath), argRef(argUseOIDC), argRef(argUseAKSWI), argRef(argUseMSI)}, "or"),
		argRef(argSnapshotFile))
}

func (c Config) selectOIDC() (authMethod, error) {
	why := argRef(argUseOIDC) + " is true"
	switch {
	case c.OIDCToken != "":
		return authOIDCToken, c.require(authOIDCToken, argUseOIDC, why, "", c.servicePrincipal()...)
	case c.OIDCTokenFilePath != "":
		return authOIDCTokenFile, c.require(authOIDCTokenFile, argUseOIDC, why, "", c.servicePrincipal()...)
	case c.ADOServiceConnectionID != "":
		return authAzurePipelines, c.require(authAzurePipelines, argUseOIDC, why+" and "+argRef(argADOConnectionID)+" is set",
			"in the pipeline, map $(System.AccessToken) into the task's environment as SYSTEM_ACCESSTOKEN; Azure Pipelines sets "+envSystemOIDCRequestURI+" in every job",
			append(c.servicePrincipal(),
				requirement{c.OIDCRequestToken, argRef(argOIDCRequestToken)},
				requirement{c.OIDCRequestURL, envSystemOIDCRequestURI})...)
	case c.OIDCRequestURL != "" || c.OIDCRequestToken != "":
		return authGitHubActions, c.require(authGitHubActions, argUseOIDC, why+" with a token request URL or token",
			"in GitHub Actions, give the job `permissions: id-token: write` and GitHub sets ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN",
			append(c.servicePrincipal(),
				requirement{c.OIDCRequestURL, argRef(argOIDCRequestURL)},
				requirement{c.OIDCRequestToken, argRef(argOIDCRequestToken)})...)
	}
	return authOIDCToken, argError(argUseOIDC, "%s but there is no federated token to sign in with: set %s or %s; "+
		"in GitHub Actions give the job `permissions: id-token: write` (GitHub then sets ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN); "+
		"in Azure DevOps set %s and SYSTEM_ACCESSTOKEN",
		why, argRef(argOIDCToken), argRef(argOIDCTokenFilePath), argRef(argADOConnectionID))
}

// requirement is an argument a method needs: its value and how to name it.
type requirement struct{ value, name string }

// servicePrincipal are the ids every service principal or federated method needs.
func (c Config) servicePrincipal() []requirement {
	return []requirement{{c.ClientID, argRef(argClientID)}, {c.TenantID, argRef(argTenantID)}}
}

// require names, in one message, every requirement of m that is not set;
// the error is on arg, the argument that chose m.
func (c Config) require(m authMethod, arg, why, hint string, reqs ...requirement) error {
	var missing []string
	for _, r := range reqs {
		if r.value == "" {
			missing = append(missing, r.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	verb, obj := "is", "it"
	if len(missing) > 1 {
		verb, obj = "are", "them"
	}
	msg := fmt.Sprintf("%s, so the provider signs in with %s, but %s %s not set: set %s", why, m.describe(), joinList(missing, "and"), verb, obj)
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return &ArgumentError{Argument: arg, Err: errors.New(msg)}
}

// joinList writes "a, b and c".
func joinList(items []string, conj string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// NewCredentialSource checks which authentication method cfg selects and
// returns a source that creates that credential when first called, not
// before: validate, plans without data sources and snapshot mode never
// create one. The credential uses cfg's cloud. No error it returns, now or
// later, contains a secret of cfg.
func NewCredentialSource(cfg Config) (CredentialSource, error) {
	if cfg.credentialSource != nil {
		return cfg.credentialSource, nil
	}
	m, err := selectMethod(cfg)
	if err != nil {
		return nil, err
	}
	cl, err := cfg.Cloud()
	if err != nil {
		return nil, err
	}
	// reachPolicy tells a network failure from a refused credential and
	// stops azcore's retries of a name that does not resolve.
	opts := azcore.ClientOptions{Cloud: cl, Telemetry: policy.TelemetryOptions{ApplicationID: applicationID(cfg.ProviderVersion)},
		PerRetryPolicies: []policy.Policy{reachPolicy{signIn: true}}}
	// A replaced transport (tests) carries the token requests too, so that a
	// test can run the real credential against a fake Entra ID. The
	// credential never goes through the recorder: token answers must not end
	// up in record_file.
	// Live, they use the bounded transport of the reads: a network that
	// swallows packets fails signing in within seconds too.
	opts.Transport = cfg.transport
	if opts.Transport == nil {
		opts.Transport = newHTTPClient()
	}
	secrets := cfg.secrets()
	return func() (azcore.TokenCredential, error) {
		cred, err := newCredential(m, cfg, opts)
		if err != nil {
			return nil, &SignInError{Method: m.describe(), method: m, Err: redact(fmt.Errorf("creating the credential: %w", err), secrets)}
		}
		return redactingCredential{cred: cred, secrets: secrets, method: m.describe(), m: m}, nil
	}, nil
}

// newCredential creates the azidentity credential for m.
func newCredential(m authMethod, c Config, opts azcore.ClientOptions) (azcore.TokenCredential, error) {
	switch m {
	case authClientSecret:
		return azidentity.NewClientSecretCredential(c.TenantID, c.ClientID, c.ClientSecret,
			&azidentity.ClientSecretCredentialOptions{ClientOptions: opts})
	case authClientCertificate:
		certs, key, err := readCertificate(c.ClientCertificatePath, c.ClientCertificatePassword)
		if err != nil {
			return nil, err
		}
		return azidentity.NewClientCertificateCredential(c.TenantID, c.ClientID, certs, key,
			&azidentity.ClientCertificateCredentialOptions{ClientOptions: opts})
	case authOIDCToken:
		token := c.OIDCToken
		return azidentity.NewClientAssertionCredential(c.TenantID, c.ClientID,
			func(context.Context) (string, error) { return token, nil },
			&azidentity.ClientAssertionCredentialOptions{ClientOptions: opts})
	case authOIDCTokenFile:
		return azidentity.NewClientAssertionCredential(c.TenantID, c.ClientID, tokenFileAssertion(c.OIDCTokenFilePath),
			&azidentity.ClientAssertionCredentialOptions{ClientOptions: opts})
	case authAzurePipelines:
		// azidentity reads the OIDC request URL from SYSTEM_OIDCREQUESTURI
		// itself; a different oidc_request_url would be silently ignored.
		if env := os.Getenv(envSystemOIDCRequestURI); env == "" {
			return nil, fmt.Errorf("%s is not set: Azure Pipelines sets it in every job; run the provider inside a pipeline task", envSystemOIDCRequestURI)
		} else if c.OIDCRequestURL != env {
			return nil, fmt.Errorf("%s differs from %s, and for Azure DevOps the Azure SDK reads only %s: unset %s",
				argRef(argOIDCRequestURL), envSystemOIDCRequestURI, envSystemOIDCRequestURI, argRef(argOIDCRequestURL))
		}
		return azidentity.NewAzurePipelinesCredential(c.TenantID, c.ClientID, c.ADOServiceConnectionID, c.OIDCRequestToken,
			&azidentity.AzurePipelinesCredentialOptions{ClientOptions: opts})
	case authGitHubActions:
		gh := githubAssertion{requestURL: c.OIDCRequestURL, requestToken: c.OIDCRequestToken, client: oidcHTTPClient}
		return azidentity.NewClientAssertionCredential(c.TenantID, c.ClientID, gh.get,
			&azidentity.ClientAssertionCredentialOptions{ClientOptions: opts})
	case authWorkloadIdentity:
		return azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
			ClientOptions: opts, ClientID: c.ClientID, TenantID: c.TenantID, TokenFilePath: c.OIDCTokenFilePath,
		})
	case authManagedIdentity:
		o := &azidentity.ManagedIdentityCredentialOptions{ClientOptions: opts}
		if c.ClientID != "" {
			// A user-assigned identity; without it, the system-assigned one.
			o.ID = azidentity.ClientID(c.ClientID)
		}
		return azidentity.NewManagedIdentityCredential(o)
	case authAzureCLI:
		// The CLI has its own cloud setting (az cloud set); tenant_id picks
		// the tenant when the login spans several.
		return azidentity.NewAzureCLICredential(&azidentity.AzureCLICredentialOptions{TenantID: c.TenantID})
	}
	return nil, fmt.Errorf("unknown authentication method %q", m)
}

// readCertificate loads a PEM or PKCS#12 file. azidentity's parser error
// is kept: it names the format problem and never the password.
func readCertificate(path, password string) ([]*x509.Certificate, crypto.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot read %s: %w", argRef(argClientCertPath), path, unwrapPathError(err))
	}
	certs, key, err := azidentity.ParseCertificates(data, []byte(password))
	if err != nil {
		hint := "it must hold the certificate and its private key, as PEM or PKCS#12 (.pfx)"
		if password == "" {
			hint += "; a password-protected PKCS#12 file needs " + argRef(argClientCertPassword)
		} else {
			hint += "; check " + argRef(argClientCertPassword)
		}
		return nil, nil, fmt.Errorf("%s: %s is not a usable certificate (%w): %s", argRef(argClientCertPath), path, err, hint)
	}
	return certs, key, nil
}

// tokenFileAssertion reads the federated token on every token request:
// Kubernetes and CI systems rotate the file.
func tokenFileAssertion(path string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("%s: cannot read %s: %w", argRef(argOIDCTokenFilePath), path, unwrapPathError(err))
		}
		token := strings.TrimSpace(string(b))
		if token == "" {
			return "", fmt.Errorf("%s: %s is empty; it must hold the federated token", argRef(argOIDCTokenFilePath), path)
		}
		return token, nil
	}
}

// githubOIDCAudience is the audience Entra ID expects in a federated token
// from GitHub Actions (the default of a federated credential).
const githubOIDCAudience = "api://AzureADTokenExchange"

// oidcHTTPClient fetches GitHub's token; the context of the token request
// bounds it, the timeout is a backstop.
var oidcHTTPClient = &http.Client{Timeout: time.Minute}

// githubAssertion fetches a federated token from the GitHub Actions token
// endpoint (ACTIONS_ID_TOKEN_REQUEST_URL with the job's request token) for
// Entra ID's client assertion.
type githubAssertion struct {
	requestURL, requestToken string
	client                   *http.Client
}

func (g githubAssertion) get(ctx context.Context) (string, error) {
	const what = "requesting the GitHub Actions OIDC token"
	u, err := url.Parse(g.requestURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("%s: %s is not a URL", what, argRef(argOIDCRequestURL))
	}
	q := u.Query()
	q.Set("audience", githubOIDCAudience)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	req.Header.Set("Authorization", "Bearer "+g.requestToken)
	req.Header.Set("Accept", "application/json")
	resp, err := g.client.Do(req)
	if err != nil {
		// *url.Error repeats the URL; the cause is what matters.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// The body is left out: it is not needed to act and might echo the request.
		return "", fmt.Errorf("%s: the endpoint answered %s; check that the job has `permissions: id-token: write` and that %s is the job's own token "+
			"(in Azure DevOps, set %s instead)", what, resp.Status, argRef(argOIDCRequestToken), argRef(argADOConnectionID))
	}
	var body struct {
		Value string `json:"value"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body); err != nil {
		return "", fmt.Errorf("%s: the answer is not the expected JSON: %w", what, err)
	}
	if body.Value == "" {
		return "", fmt.Errorf("%s: the answer holds no token", what)
	}
	return body.Value, nil
}

// staticCredential is the credential of snapshot mode: the replay never
// looks at the token, and a fixed dummy value guarantees that no real token
// exists in an offline run.
type staticCredential struct{}

// offlineToken is the bearer token snapshot mode sends to the replay. It is
// not a JWT and no service accepts it.
const offlineToken = "pullpath-offline-snapshot-no-token"

func (staticCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: offlineToken, ExpiresOn: time.Now().Add(24 * time.Hour), RefreshOn: time.Now().Add(23 * time.Hour)}, nil
}

// redactingCredential keeps the configured secrets out of token errors,
// which end up in diagnostics and logs, and marks them as [SignInError].
type redactingCredential struct {
	cred    azcore.TokenCredential
	secrets []string
	method  string     // the authentication method in words
	m       authMethod // and its kind, for the advice
}

func (r redactingCredential) GetToken(ctx context.Context, opts policy.TokenRequestOptions) (azcore.AccessToken, error) {
	ctx, probe := withReachProbe(ctx)
	tk, err := r.cred.GetToken(ctx, opts)
	if err == nil {
		return tk, nil
	}
	err = redact(err, r.secrets)
	// A read that ran out of time while waiting for a token is a timeout,
	// not a credential that does not work. (Only the context says so: a
	// network timeout also matches context.DeadlineExceeded.)
	if ctx.Err() != nil {
		return tk, err
	}
	// No answer from the sign-in endpoint: the network, not the
	// credential (azidentity keeps only the text of the network error).
	u := probe.get()
	if u == nil {
		u, _ = Unreachable("", err)
	}
	if u != nil {
		// No instance metadata endpoint for a managed identity to answer
		// is a machine without one: the method, not the network, is wrong.
		if r.m == authManagedIdentity && u.Host == imdsHost {
			return tk, &SignInError{Method: r.method, method: r.m, Err: u}
		}
		return tk, u
	}
	// A credential's own time limit (the Azure CLI's) is a timeout too.
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return tk, err
	}
	return tk, &SignInError{Method: r.method, method: r.m, Err: err}
}

// imdsHost is the Azure Instance Metadata Service, where a managed identity
// gets its tokens on Azure VMs and scale sets (AKS nodes included).
const imdsHost = "169.254.169.254"

// SignInError is a credential that does not work: Entra ID refused it, or it
// could not be created. It is about the provider's configuration, not about
// any resource, and retrying does not help, so it must not be reported as a
// resource that is unavailable or unreadable. Err is already redacted.
type SignInError struct {
	Method string // the authentication method, in words
	Err    error

	method authMethod // the method's kind; empty when unknown
}

// Advice is what to fix, in sentences, for the method that failed: each
// method fails for reasons of its own (a missing az is not an expired
// secret).
func (e *SignInError) Advice() string {
	switch e.method {
	case authClientSecret:
		return "Check the client secret (" + argRef(argClientSecret) + "): it may be wrong or expired (an app registration's " +
			"secrets expire; create a new one under Certificates & secrets). Check that " + argRef(argTenantID) + " and " +
			argRef(argClientID) + " name the tenant and the application the secret belongs to."
	case authClientCertificate:
		return "Check the certificate (" + argRef(argClientCertPath) + ", " + argRef(argClientCertPassword) + "): it must be " +
			"the one uploaded to the app registration " + argRef(argClientID) + " of tenant " + argRef(argTenantID) +
			", not expired, and the file must hold its private key."
	case authOIDCToken, authOIDCTokenFile, authAzurePipelines, authGitHubActions:
		return "Entra ID did not accept the federated token: the app registration " + argRef(argClientID) + " needs a federated " +
			"credential whose issuer, subject (the repository and branch or environment, or the service connection) and " +
			"audience match the token, in tenant " + argRef(argTenantID) + "; and a token file or token must not be expired."
	case authWorkloadIdentity:
		return "Check the workload identity: the pod's service account must be annotated with azure.workload.identity/client-id, " +
			"the pod labelled azure.workload.identity/use: \"true\", and the identity must have a federated credential for the " +
			"cluster's OIDC issuer and that service account."
	case authManagedIdentity:
		return "This machine got no token from a managed identity (" + argRef(argUseMSI) + " is true). A managed identity " +
			"exists only on Azure compute (a VM or scale set, an AKS node, a container instance, App Service or Functions) " +
			"with the identity assigned to it; on a user-assigned identity, " + argRef(argClientID) + " must be the client id " +
			"of one assigned to this machine. Elsewhere, turn " + argRef(argUseMSI) + " off and choose another method."
	case authAzureCLI:
		return "The provider signs in with the Azure CLI because no other method is configured (" + argRef(argUseCLI) +
			" is on by default). Install the Azure CLI (`az`) on the machine that runs the plan, on the PATH, and sign in " +
			"with `az login` (`az account show` must work); or configure a service principal, OIDC or a managed identity, " +
			"as a pipeline should."
	}
	return "Fix the credentials the provider is configured with (the provider block or the ARM_* environment variables)."
}

func (e *SignInError) Error() string {
	return fmt.Sprintf("signing in to Azure with %s failed: %v", e.Method, e.Err)
}

func (e *SignInError) Unwrap() error { return e.Err }

// secrets are the configured values that must never be printed.
func (c Config) secrets() []string {
	var out []string
	for _, s := range []string{c.ClientSecret, c.ClientCertificatePassword, c.OIDCToken, c.OIDCRequestToken} {
		// Very short values would blank out ordinary words; they are not
		// credentials anyone uses.
		if len(s) >= 4 {
			out = append(out, s)
		}
	}
	return out
}

// redact replaces every secret in err's text. The original error stays
// reachable through errors.As/Is for classification.
func redact(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := msg
	for _, s := range secrets {
		clean = strings.ReplaceAll(clean, s, "[REDACTED]")
	}
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// unwrapPathError drops the path from *fs.PathError: messages name the path
// themselves, with the argument it came from.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
