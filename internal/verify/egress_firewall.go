// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallDecision is the one place the public path asks whether Azure
// Firewall fw, which a pool's route for a public address points to, lets
// the pool's nodes (sources, the node subnet's prefixes) reach host on TCP
// 443; tag is the service tag whose prefixes hold the host's public address
// (AzureContainerRegistry.<region> for a registry endpoint, Storage.<region>
// for its storage, "" when none is known; firewall rules compare tags
// case-insensitively). The firewall's rules decide (evaluateFirewallEgress):
// allowed, EGRESS_FIREWALL_DENIED, or EGRESS_UNVERIFIED with evidence for
// every read the decision lacks, never allowed when undecided.
func (r *run) firewallDecision(pool string, fw *model.AzureFirewall, sources []netip.Prefix, host, tag string) ([]model.Finding, bool) {
	return r.evaluateFirewallEgress(pool, fw, sources, host, tag)
}
