// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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
