// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/firewall"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// tlsInspectionFindings says what Azure Firewall fw's TLS inspection does
// to a pull of host that its rules allowed (d): when a rule that allows it
// terminates TLS (firewall.Decision.Inspecting), the firewall re-signs the
// registry's certificate with its policy's intermediate CA, which the nodes
// trust only if the cluster gives them custom CAs
// (securityProfile.customCATrustCertificates; docs/design/azure-behaviour.md,
// "Azure Firewall TLS inspection"):
//
//   - none: TLS_INSPECTION_CA_UNTRUSTED (error): containerd fails with
//     "x509: certificate signed by unknown authority";
//   - some: TLS_INSPECTION_UNVERIFIED (warning): the firewall's CA is in
//     Key Vault, and whether it is among them cannot be compared.
//
// A flow no rule inspects gets nothing.
func (r *run) tlsInspectionFindings(pool string, fw *model.AzureFirewall, host string, d firewall.Decision) []model.Finding {
	if len(d.Inspecting) == 0 {
		return nil
	}
	rules := make([]string, len(d.Inspecting))
	for i, ref := range d.Inspecting {
		rules[i] = ref.String()
	}
	target := d.Inspecting[0].PolicyID
	if target.IsZero() {
		target = fw.ID
	}
	ca := "its intermediate CA"
	if p := r.f.Network.FirewallPolicy(d.Inspecting[0].PolicyID); p != nil && !p.TLSInspectionCA.IsZero() {
		ca = "its intermediate CA " + p.TLSInspectionCA.Name + " (transportSecurity of firewall policy " + p.Name + ", kept in Key Vault"
		if p.TLSInspectionCA.KeyVaultSecretID != "" {
			ca += " as " + p.TLSInspectionCA.KeyVaultSecretID
		}
		ca += ")"
	}
	cluster := "the cluster"
	cas := 0
	trusted := "securityProfile.customCATrustCertificates"
	if cl := r.f.Cluster; cl != nil {
		cluster, cas = "cluster "+cl.Name, cl.CustomCATrustCertificates
		// On the way out of the cluster's HTTPS proxy the nodes' trust
		// store also holds the proxy's trustedCa, which AKS installs on
		// every node.
		if r.onProxyLeg && cl.HTTPProxy != nil && cl.HTTPProxy.TrustedCA {
			cas++
			trusted += " and httpProxyConfig.trustedCa"
		}
	}
	inspected := fmt.Sprintf("Node pool %s reaches %s through Azure Firewall %s (%s), whose %s terminates TLS (terminateTLS) for it: the firewall presents the registry's certificate re-signed with %s.",
		pool, host, fw.Name, addrWords(fw.PrivateIPs), strings.Join(rules, " and "), ca)
	if cas == 0 {
		msg := inspected + fmt.Sprintf(" %s gives its nodes no custom CA (securityProfile.customCATrustCertificates is empty), so the nodes do not trust that certificate and image pulls from %s fail with \"x509: certificate signed by unknown authority\".", capitalize(cluster), host)
		fix := fmt.Sprintf("Either exclude %s from TLS inspection (terminateTLS false on %s, or a rule without inspection for it processed first), or trust the firewall's CA on the nodes: add its root certificate to %s's custom CA trust (`az aks update --custom-ca-trust-certificates <file>`). If the CA reaches the nodes another way (a node image, a DaemonSet), record that in an accept block for TLS_INSPECTION_CA_UNTRUSTED on %s. Routes, network security groups, DNS and the pull identity are not the cause, and changing them will not help.",
			host, rules[0], cluster, host)
		return []model.Finding{model.NewFinding(model.TLSInspectionCAUntrusted, pool, host, target, msg, fix)}
	}
	msg := inspected + fmt.Sprintf(" %s gives its nodes %d custom CA certificate(s) (%s), but the firewall's CA is kept in Key Vault, so whether it is among them cannot be compared; the path is unverified.", capitalize(cluster), cas, trusted)
	fix := fmt.Sprintf("Make sure the root of the firewall's CA is among the cluster's custom CA certificates (`az aks show --query securityProfile.customCaTrustCertificates`), or exclude %s from TLS inspection. A test pull from a node shows it: an x509 error means it is not trusted.", host)
	return []model.Finding{model.NewFinding(model.TLSInspectionUnverified, pool, host, target, msg, fix)}
}
