// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// tlsFinding checks step 3 of the chain: the name the node connects to must
// be on the registry's certificate. An Azure registry's certificate covers
// its login server and the names it issues itself (data and regional
// endpoints under azurecr.io); a privatelink name is only a DNS alias that
// makes the login name resolve privately and is on no certificate, so a
// node told to pull from it fails the TLS handshake.
func (r *run) tlsFinding(pc *poolCtx, h model.PullHost) (model.Finding, bool) {
	if !isPrivateLinkName(h.Name) {
		return model.Finding{}, false
	}
	public := publicNameOf(h.Name)
	msg := fmt.Sprintf("%s is told to pull from %s, a private link name. The registry's certificate does not cover it, so the TLS handshake fails (x509: certificate is valid for %s, not %s) before any credential is sent.",
		pc.label, h.Name, public, h.Name)
	fix := fmt.Sprintf("Use %s in image references and in the registry hosts, and let DNS make that name resolve to the private endpoint (the privatelink zone does exactly that). Adding the name to a trust store, skipping verification or an imagePullSecret will not help.", public)
	resource := model.ResourceID("")
	if r.f.Registry != nil {
		resource = r.f.Registry.ID
	}
	return model.NewFinding(model.TLSNameNotCovered, pc.pool.Name, h.Name, resource, msg, fix), true
}

// isPrivateLinkName reports whether a hostname has a privatelink label
// (x.privatelink.azurecr.io, x.privatelink.blob.core.windows.net).
func isPrivateLinkName(host string) bool {
	for _, label := range strings.Split(host, ".") {
		if label == "privatelink" {
			return true
		}
	}
	return false
}

// publicNameOf removes the privatelink label: the name the certificate has.
func publicNameOf(host string) string {
	return strings.Replace(host, ".privatelink.", ".", 1)
}
