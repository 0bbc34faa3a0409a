// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// FirewallCA is the certificate authority of a firewall policy's TLS
// inspection (transportSecurity.certificateAuthority): an intermediate CA
// kept in Key Vault, whose certificate Resource Manager does not show
// (docs/design/azure-behaviour.md, "Azure Firewall TLS inspection").
type FirewallCA struct {
	// Name is the CA certificate's name.
	Name string
	// KeyVaultSecretID is the Key Vault secret or certificate that holds
	// it.
	KeyVaultSecretID string
}

// IsZero reports a policy without a TLS inspection CA.
func (c FirewallCA) IsZero() bool { return c.Name == "" && c.KeyVaultSecretID == "" }
