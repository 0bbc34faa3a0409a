package azure

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// Config is the provider configuration that concerns Azure: authentication,
// cloud, and the offline (snapshot) and capture (record) modes. Field names
// follow the provider arguments documented in docs/index.md, which follow
// azurerm / azapi.
//
// Booleans are *bool so that "not set" differs from "false": an explicit
// use_cli = false must beat ARM_USE_CLI=true, and an unset use_cli defaults
// to true. The provider fills the fields it got from the configuration and
// calls [Config.WithEnvironment] for the rest.
//
// Config never prints secrets: String and GoString redact them.
type Config struct {
	SubscriptionID string // subscription_id: the default subscription
	TenantID       string // tenant_id
	ClientID       string // client_id: app registration, or user-assigned managed identity

	ClientSecret              string // client_secret (sensitive)
	ClientCertificatePath     string // client_certificate_path: PEM or PKCS#12
	ClientCertificatePassword string // client_certificate_password (sensitive)

	UseCLI *bool // use_cli; nil means true
	UseMSI *bool // use_msi

	UseOIDC                *bool  // use_oidc
	OIDCToken              string // oidc_token (sensitive): a federated token
	OIDCTokenFilePath      string // oidc_token_file_path: a file holding one
	OIDCRequestURL         string // oidc_request_url: GitHub Actions / Azure DevOps token endpoint
	OIDCRequestToken       string // oidc_request_token (sensitive): bearer token for that endpoint
	ADOServiceConnectionID string // ado_pipeline_service_connection_id: selects Azure DevOps

	UseAKSWorkloadIdentity *bool // use_aks_workload_identity

	Environment string // environment: public (default), usgovernment, china

	SnapshotFile string // snapshot_file: answer every read from this snapshot
	RecordFile   string // record_file: write what live Azure answered here

	// PlannedChangesFile is planned_changes_file: the JSON of a saved plan;
	// every read answers as Azure will after that plan is applied. The
	// provider reads it and hands the overlay to NewSession
	// (WithPlannedChanges); the session only carries the argument.
	PlannedChangesFile string

	// ProviderVersion goes into the User-Agent as pullpath/<version>.
	ProviderVersion string

	// envErrs are environment values WithEnvironment could not use (a
	// boolean that is not one); Validate reports them.
	envErrs []error

	// Test hooks, unexported so that no user configuration can reach them.
	// transport replaces the live HTTP client, for ARM requests and for the
	// credential's token requests alike (set with [Config.WithTransport]);
	// credentialSource replaces the credential built from this Config.
	transport        policy.Transporter
	credentialSource CredentialSource
}

// Argument names, used in every message so that users find what to change.
const (
	argSubscriptionID     = "subscription_id"
	argTenantID           = "tenant_id"
	argClientID           = "client_id"
	argClientSecret       = "client_secret"
	argClientCertPath     = "client_certificate_path"
	argClientCertPassword = "client_certificate_password"
	argUseCLI             = "use_cli"
	argUseMSI             = "use_msi"
	argUseOIDC            = "use_oidc"
	argOIDCToken          = "oidc_token"
	argOIDCTokenFilePath  = "oidc_token_file_path"
	argOIDCRequestURL     = "oidc_request_url"
	argOIDCRequestToken   = "oidc_request_token"
	argADOConnectionID    = "ado_pipeline_service_connection_id"
	argUseAKSWI           = "use_aks_workload_identity"
	argEnvironment        = "environment"
	argSnapshotFile       = "snapshot_file"
	argRecordFile         = "record_file"
	argPlannedChanges     = "planned_changes_file"
)

// ArgumentError is a configuration problem of one provider argument, or of
// an environment variable that sets it: the provider reports it on that
// argument, so that Terraform points at it.
type ArgumentError struct {
	// Argument is the provider argument, e.g. "tenant_id".
	Argument string
	Err      error
}

// Error is the message, which names the argument and what to do.
func (e *ArgumentError) Error() string { return e.Err.Error() }

// Unwrap gives the underlying error.
func (e *ArgumentError) Unwrap() error { return e.Err }

// argError is an ArgumentError on arg with a formatted message.
func argError(arg, format string, a ...any) error {
	return &ArgumentError{Argument: arg, Err: fmt.Errorf(format, a...)}
}

// Environment variables set by the AKS workload identity webhook, read only
// when use_aks_workload_identity is true (as azurerm does).
const (
	envAzureClientID           = "AZURE_CLIENT_ID"
	envAzureTenantID           = "AZURE_TENANT_ID"
	envAzureFederatedTokenFile = "AZURE_FEDERATED_TOKEN_FILE"
)

// envSystemOIDCRequestURI is set by Azure Pipelines; azidentity's
// AzurePipelinesCredential reads it from the process environment itself.
const envSystemOIDCRequestURI = "SYSTEM_OIDCREQUESTURI"

// binding ties an argument to its environment variables, first wins. The
// names and their order are azurerm's: ARM_* first, then what the CI system
// sets on its own (GitHub Actions, then Azure DevOps).
type binding struct {
	arg  string
	envs []string
	str  func(*Config) *string // string argument
	flag func(*Config) **bool  // or boolean argument
}

var bindings = []binding{
	{arg: argSubscriptionID, envs: []string{"ARM_SUBSCRIPTION_ID"}, str: func(c *Config) *string { return &c.SubscriptionID }},
	{arg: argTenantID, envs: []string{"ARM_TENANT_ID"}, str: func(c *Config) *string { return &c.TenantID }},
	{arg: argClientID, envs: []string{"ARM_CLIENT_ID"}, str: func(c *Config) *string { return &c.ClientID }},
	{arg: argClientSecret, envs: []string{"ARM_CLIENT_SECRET"}, str: func(c *Config) *string { return &c.ClientSecret }},
	{arg: argClientCertPath, envs: []string{"ARM_CLIENT_CERTIFICATE_PATH"}, str: func(c *Config) *string { return &c.ClientCertificatePath }},
	{arg: argClientCertPassword, envs: []string{"ARM_CLIENT_CERTIFICATE_PASSWORD"}, str: func(c *Config) *string { return &c.ClientCertificatePassword }},
	{arg: argUseCLI, envs: []string{"ARM_USE_CLI"}, flag: func(c *Config) **bool { return &c.UseCLI }},
	{arg: argUseMSI, envs: []string{"ARM_USE_MSI"}, flag: func(c *Config) **bool { return &c.UseMSI }},
	{arg: argUseOIDC, envs: []string{"ARM_USE_OIDC"}, flag: func(c *Config) **bool { return &c.UseOIDC }},
	{arg: argOIDCToken, envs: []string{"ARM_OIDC_TOKEN"}, str: func(c *Config) *string { return &c.OIDCToken }},
	{arg: argOIDCTokenFilePath, envs: []string{"ARM_OIDC_TOKEN_FILE_PATH"}, str: func(c *Config) *string { return &c.OIDCTokenFilePath }},
	{arg: argOIDCRequestURL, envs: []string{"ARM_OIDC_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_URL", envSystemOIDCRequestURI}, str: func(c *Config) *string { return &c.OIDCRequestURL }},
	{arg: argOIDCRequestToken, envs: []string{"ARM_OIDC_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "SYSTEM_ACCESSTOKEN"}, str: func(c *Config) *string { return &c.OIDCRequestToken }},
	{arg: argADOConnectionID, envs: []string{"ARM_ADO_PIPELINE_SERVICE_CONNECTION_ID", "ARM_OIDC_AZURE_SERVICE_CONNECTION_ID"}, str: func(c *Config) *string { return &c.ADOServiceConnectionID }},
	{arg: argUseAKSWI, envs: []string{"ARM_USE_AKS_WORKLOAD_IDENTITY"}, flag: func(c *Config) **bool { return &c.UseAKSWorkloadIdentity }},
	{arg: argEnvironment, envs: []string{"ARM_ENVIRONMENT"}, str: func(c *Config) *string { return &c.Environment }},
	{arg: argSnapshotFile, envs: []string{"PULLPATH_SNAPSHOT_FILE"}, str: func(c *Config) *string { return &c.SnapshotFile }},
	{arg: argRecordFile, envs: []string{"PULLPATH_RECORD_FILE"}, str: func(c *Config) *string { return &c.RecordFile }},
	{arg: argPlannedChanges, envs: []string{"PULLPATH_PLANNED_CHANGES_FILE"}, str: func(c *Config) *string { return &c.PlannedChangesFile }},
}

// argRef names an argument with its environment variables, the way every
// message refers to it: "oidc_request_url (ARM_OIDC_REQUEST_URL,
// ACTIONS_ID_TOKEN_REQUEST_URL or SYSTEM_OIDCREQUESTURI)".
func argRef(arg string) string {
	for _, b := range bindings {
		if b.arg != arg {
			continue
		}
		envs := b.envs
		if len(envs) == 1 {
			return fmt.Sprintf("%s (%s)", arg, envs[0])
		}
		return fmt.Sprintf("%s (%s or %s)", arg, strings.Join(envs[:len(envs)-1], ", "), envs[len(envs)-1])
	}
	return arg
}

// WithEnvironment returns c with every unset argument taken from its
// environment variable, as azurerm does. A value set in the configuration
// always wins, "false" included. getenv is usually os.Getenv; nil means
// os.Getenv. Environment values that cannot be used (ARM_USE_CLI=yes) are
// kept aside and reported by Validate.
func (c Config) WithEnvironment(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	c.envErrs = slices.Clip(c.envErrs) // never append into the caller's array
	for _, b := range bindings {
		for _, env := range b.envs {
			v := getenv(env)
			if v == "" {
				continue
			}
			if b.str != nil {
				if p := b.str(&c); *p == "" {
					*p = v
				}
				break
			}
			p := b.flag(&c)
			if *p != nil {
				break
			}
			parsed, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				c.envErrs = append(c.envErrs, argError(b.arg, "%s=%q is not a boolean (it sets %s): set it to true or false", env, v, b.arg))
				break
			}
			*p = &parsed
			break
		}
	}
	if isTrue(c.UseAKSWorkloadIdentity) {
		c.fromWorkloadIdentityEnv(getenv)
	}
	return c
}

// fromWorkloadIdentityEnv takes client id, tenant id and token file from the
// variables the AKS workload identity webhook injects into the pod. Like
// azurerm, a configured value that disagrees is an error rather than being
// silently overridden or silently ignored.
func (c *Config) fromWorkloadIdentityEnv(getenv func(string) string) {
	for _, f := range []struct {
		env, arg string
		field    *string
	}{
		{envAzureClientID, argClientID, &c.ClientID},
		{envAzureTenantID, argTenantID, &c.TenantID},
		{envAzureFederatedTokenFile, argOIDCTokenFilePath, &c.OIDCTokenFilePath},
	} {
		v := getenv(f.env)
		switch {
		case v == "":
		case *f.field == "":
			*f.field = v
		case *f.field != v:
			c.envErrs = append(c.envErrs, argError(f.arg, "%s is %q but AKS workload identity provides %s=%q: remove the setting, make the two match, or set %s = false",
				argRef(f.arg), *f.field, f.env, v, argRef(argUseAKSWI)))
		}
	}
}

// Validate reports every problem of the configuration at once, each naming
// the argument, its environment variable and what to do. In snapshot mode
// the authentication arguments are not checked: no credential is used.
func (c Config) Validate() error {
	errs := slices.Clone(c.envErrs)
	add := func(arg, format string, a ...any) { errs = append(errs, argError(arg, format, a...)) }

	if c.SnapshotFile != "" && c.RecordFile != "" {
		add(argSnapshotFile, "%s and %s are both set: a snapshot answers every read offline, a recording reads live Azure; set only one of them",
			argRef(argSnapshotFile), argRef(argRecordFile))
	}
	if c.SnapshotFile != "" {
		if err := checkFile(c.SnapshotFile); err != nil {
			add(argSnapshotFile, "%s: %v; point it at a pullpath snapshot, such as one written with %s", argRef(argSnapshotFile), err, argRef(argRecordFile))
		}
	}
	if c.RecordFile != "" {
		dir := filepath.Dir(c.RecordFile)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			add(argRecordFile, "%s: directory %s does not exist; create it or choose another path", argRef(argRecordFile), dir)
		}
	}
	if _, err := c.Cloud(); err != nil {
		errs = append(errs, err)
	}
	if c.SubscriptionID != "" {
		if msg := CheckSubscriptionID(c.SubscriptionID); msg != "" {
			add(argSubscriptionID, "%s %s", argRef(argSubscriptionID), msg)
		}
	}
	if !c.offline() {
		errs = append(errs, c.validateAuth()...)
	}
	return errors.Join(errs...)
}

func (c Config) validateAuth() []error {
	var errs []error
	add := func(arg, format string, a ...any) { errs = append(errs, argError(arg, format, a...)) }
	if c.TenantID != "" {
		if msg := CheckTenantID(c.TenantID); msg != "" {
			add(argTenantID, "%s %s", argRef(argTenantID), msg)
		}
	}
	if c.ClientCertificatePath != "" {
		if err := checkFile(c.ClientCertificatePath); err != nil {
			add(argClientCertPath, "%s: %v; point it at the service principal's PEM or PKCS#12 (.pfx) file", argRef(argClientCertPath), err)
		}
	} else if c.ClientCertificatePassword != "" {
		add(argClientCertPassword, "%s is set but %s is not: set the path of the certificate the password opens, or remove the password",
			argRef(argClientCertPassword), argRef(argClientCertPath))
	}
	if c.OIDCTokenFilePath != "" && (isTrue(c.UseOIDC) || isTrue(c.UseAKSWorkloadIdentity)) {
		if err := checkFile(c.OIDCTokenFilePath); err != nil {
			add(argOIDCTokenFilePath, "%s: %v; point it at the file that holds the federated token", argRef(argOIDCTokenFilePath), err)
		}
	}
	if _, err := selectMethod(c); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// Cloud returns the Entra ID and ARM endpoints of the configured environment.
// Names are case-insensitive; azurerm's long names are accepted too. An
// empty environment is the public cloud.
func (c Config) Cloud() (cloud.Configuration, error) {
	if m, ok := model.LookupCloud(c.Environment); ok {
		return armClouds[m.Name], nil
	}
	return cloud.Configuration{}, argError(argEnvironment, "%s %q is not a known Azure cloud: use %s (azurerm's AzurePublicCloud, AzureUSGovernmentCloud and AzureChinaCloud work too)",
		argRef(argEnvironment), c.Environment, orList(model.CloudNames()))
}

// orList is "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// armClouds are the Entra ID and ARM endpoints of each cloud of
// model.Clouds, by its Name.
var armClouds = map[string]cloud.Configuration{
	model.PublicCloud.Name:       cloud.AzurePublic,
	model.USGovernmentCloud.Name: cloud.AzureGovernment,
	model.ChinaCloud.Name:        cloud.AzureChina,
}

// Transport is an HTTP client as the SDK's pipeline uses it
// (policy.Transporter): what WithTransport takes.
type Transport = policy.Transporter

// WithTransport returns c with the live HTTP client replaced by t, for the
// ARM clients and for the credential's requests to Entra ID. It exists for
// tests that run the real credential and pipeline against fake endpoints
// (package provider reaches it only through an unexported test hook); no
// provider argument or environment variable sets it. Snapshot mode ignores
// it: the replay is the transport there.
func (c Config) WithTransport(t Transport) Config {
	c.transport = t
	return c
}

// offline reports snapshot mode.
func (c Config) offline() bool { return c.SnapshotFile != "" }

// String describes c without any secret: secrets show only whether they are set.
func (c Config) String() string {
	return fmt.Sprintf("azure.Config{subscription_id=%q tenant_id=%q client_id=%q client_secret=%s client_certificate_path=%q client_certificate_password=%s "+
		"use_cli=%s use_msi=%s use_oidc=%s oidc_token=%s oidc_token_file_path=%q oidc_request_url=%s oidc_request_token=%s ado_pipeline_service_connection_id=%q "+
		"use_aks_workload_identity=%s environment=%q snapshot_file=%q record_file=%q planned_changes_file=%q}",
		c.SubscriptionID, c.TenantID, c.ClientID, redacted(c.ClientSecret), c.ClientCertificatePath, redacted(c.ClientCertificatePassword),
		triString(c.UseCLI), triString(c.UseMSI), triString(c.UseOIDC), redacted(c.OIDCToken), c.OIDCTokenFilePath, redacted(c.OIDCRequestURL), redacted(c.OIDCRequestToken), c.ADOServiceConnectionID,
		triString(c.UseAKSWorkloadIdentity), c.Environment, c.SnapshotFile, c.RecordFile, c.PlannedChangesFile)
}

// GoString keeps %#v from printing the secret fields.
func (c Config) GoString() string { return c.String() }

func redacted(s string) string {
	if s == "" {
		return "unset"
	}
	return "(set)"
}

func triString(b *bool) string {
	if b == nil {
		return "unset"
	}
	return strconv.FormatBool(*b)
}

func isTrue(b *bool) bool { return b != nil && *b }

// checkFile reports a path that is missing or not a regular file, in words.
func checkFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("file %s does not exist", path)
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", path, err)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory, not a file", path)
	}
	return nil
}

// CheckSubscriptionID returns "" for a subscription id, else what is wrong
// with it and where to find the right one (the provider checks a literal
// subscription_id at validate time with it, the environment's at configure).
func CheckSubscriptionID(s string) string {
	if ids.IsGUID(s) {
		return ""
	}
	return fmt.Sprintf("%q is not a subscription id: it must be a GUID such as 00000000-0000-0000-0000-000000000000 (see `az account show --query id`)", s)
}

// CheckTenantID is CheckSubscriptionID for tenant_id: a GUID or a domain.
func CheckTenantID(s string) string {
	if validTenantID(s) {
		return ""
	}
	return fmt.Sprintf("%q is not a tenant: use the tenant's GUID or its domain name (see `az account show --query tenantId`)", s)
}

// validTenantID is azidentity's own rule (a GUID or a domain name), checked
// here so that the message can name the argument.
func validTenantID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}
