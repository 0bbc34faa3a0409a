// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A credential that does not work is reported as a sign-in failure with
// what to fix, even when it surfaces in the read of one resource: never as
// that resource being unavailable ("plan again later").
func TestDescribeReadFailureSignIn(t *testing.T) {
	id := model.ResourceID("/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v")
	err := fmt.Errorf("GET %s: %w", id, &azure.SignInError{Method: "a managed identity", Err: errors.New("no identity endpoint")})
	summary, detail := describeReadFailure(id, err, azure.Gap(id, "", err), time.Minute)
	if summary != "Could not sign in to Azure" || !strings.Contains(detail, "signing in to Azure with a managed identity failed: no identity endpoint") ||
		!strings.Contains(detail, "Fix the credentials") || strings.Contains(detail, "plan again later") {
		t.Errorf("got %q / %q", summary, detail)
	}
	summary, _ = signInText(fmt.Errorf("token: %w", context.DeadlineExceeded))
	if summary != "Timed out signing in to Azure" {
		t.Errorf("deadline summary = %q", summary)
	}
}

// A read that got no answer through a silent proxy is reported as the
// network, naming the host and the proxy: never as throttling or a
// transient Azure problem, never as a credential problem.
func TestDescribeReadFailureSilentProxy(t *testing.T) {
	id := model.ResourceID("/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks")
	silent := &azure.ProxyNoAnswerError{Proxy: "10.1.2.3:3128", Target: "management.azure.com:443", After: 15 * time.Second,
		Err: &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}}
	u, ok := azure.Unreachable("management.azure.com", &url.Error{Op: "Get", URL: "https://management.azure.com/x", Err: silent})
	if !ok {
		t.Fatal("a silent proxy is not classified as a network failure")
	}
	err := fmt.Errorf("GET %s: %w", id, u)
	summary, detail := describeReadFailure(id, err, azure.Gap(id, "", err), 5*time.Minute)
	if summary != "Cannot reach management.azure.com" {
		t.Errorf("summary %q", summary)
	}
	for _, w := range []string{"10.1.2.3:3128", "did not answer", "HTTPS_PROXY"} {
		if !strings.Contains(detail, w) {
			t.Errorf("detail lacks %q: %s", w, detail)
		}
	}
	for _, w := range []string{"check for throttling", "usually throttling", "Fix the credentials", "plan again later"} {
		if strings.Contains(detail, w) {
			t.Errorf("detail says %q: %s", w, detail)
		}
	}
}

// The sign-in diagnostic gives the failed method's own advice: a machine
// without the Azure CLI is not told about client secrets.
func TestSignInTextAdviceOfTheMethod(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	source, err := azure.NewCredentialSource(azure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cred, err := source()
	if err != nil {
		t.Fatal(err)
	}
	_, err = cred.GetToken(t.Context(), policy.TokenRequestOptions{Scopes: []string{"https://management.azure.com/.default"}})
	summary, detail := signInText(err)
	if summary != "Could not sign in to Azure" || !strings.Contains(detail, "Install the Azure CLI") ||
		strings.Contains(detail, "client secret") || !strings.Contains(detail, "snapshot_file") {
		t.Errorf("got %q / %q", summary, detail)
	}
}
