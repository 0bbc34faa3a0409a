package azure

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
)

// signInWith runs the real credential cfg selects once and returns its error.
func signInWith(t *testing.T, cfg Config) error {
	t.Helper()
	source, err := NewCredentialSource(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cred, err := source()
	if err != nil {
		return err
	}
	_, err = cred.GetToken(t.Context(), policy.TokenRequestOptions{Scopes: []string{"https://management.azure.com/.default"}})
	return err
}

// Each method that fails gets the advice of that method: a machine without
// `az` is told to install and log in to the Azure CLI, one without a
// managed identity that it has none; neither is told about client secrets.
func TestSignInAdvicePerMethod(t *testing.T) {
	t.Run("no az on the PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		err := signInWith(t, Config{})
		var si *SignInError
		if !errors.As(err, &si) {
			t.Fatalf("error %v (%T), want a *SignInError", err, err)
		}
		a := si.Advice()
		if !strings.Contains(a, "Install the Azure CLI") || !strings.Contains(a, "az login") || strings.Contains(strings.ToLower(a), "client secret") {
			t.Errorf("advice %q", a)
		}
	})
	t.Run("no managed identity endpoint", func(t *testing.T) {
		var dials atomic.Int32
		err := signInWith(t, Config{UseMSI: to.Ptr(true)}.WithTransport(refusingTransport(t, &dials)))
		var si *SignInError
		var u *UnreachableError
		if !errors.As(err, &si) || !errors.As(err, &u) || u.Host != imdsHost {
			t.Fatalf("error %v (%T), want a *SignInError about the metadata endpoint", err, err)
		}
		a := si.Advice()
		if !strings.Contains(a, "managed identity") || !strings.Contains(a, "use_msi") || strings.Contains(strings.ToLower(a), "client secret") {
			t.Errorf("advice %q", a)
		}
	})

	// Every method has advice of its own, naming what it depends on.
	seen := map[string]authMethod{}
	for m, want := range map[authMethod]string{
		authClientSecret:      "client_secret",
		authClientCertificate: "client_certificate_path",
		authOIDCToken:         "federated credential",
		authOIDCTokenFile:     "federated credential",
		authAzurePipelines:    "federated credential",
		authGitHubActions:     "federated credential",
		authWorkloadIdentity:  "azure.workload.identity/client-id",
		authManagedIdentity:   "use_msi",
		authAzureCLI:          "az login",
	} {
		a := (&SignInError{Method: m.describe(), method: m}).Advice()
		if !strings.Contains(a, want) {
			t.Errorf("%s: advice %q lacks %q", m, a, want)
		}
		if m != authClientSecret && strings.Contains(strings.ToLower(a), "client secret") {
			t.Errorf("%s: advice %q talks about a client secret", m, a)
		}
		if other, dup := seen[a]; dup && !strings.HasPrefix(string(m), "oidc") {
			t.Errorf("%s and %s share their advice", m, other)
		}
		seen[a] = m
	}
}
