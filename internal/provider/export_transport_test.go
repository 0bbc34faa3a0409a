// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
)

// SetTestTransport makes every live session the provider configures during
// t use tr as its HTTP client, for Entra ID token requests and ARM requests
// alike. Tests that use it must not run in parallel with other live-mode
// tests: the hook is package-wide, like the provider process.
func SetTestTransport(t testing.TB, tr azure.Transport) {
	t.Helper()
	prev := testTransport
	testTransport = tr
	t.Cleanup(func() { testTransport = prev })
}
