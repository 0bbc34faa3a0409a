// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallDecision is the one place verification asks whether Azure
// Firewall fw, which a pool's route for a public address points to, lets
// the pool's nodes (sources, the node subnet's prefixes) reach host on TCP
// 443; tag is the service tag whose prefixes hold the host's public address
// ("" when none is known). It returns the path's findings and whether the
// firewall allows the flow. Firewall rules are not evaluated, so the
// answer is EGRESS_UNVERIFIED ("firewall rules not evaluated"), never
// allowed.
func (r *run) firewallDecision(pool string, fw *model.AzureFirewall, sources []netip.Prefix, host, tag string) ([]model.Finding, bool) {
	rules, show := "classic rule collections", fmt.Sprintf("`az network firewall show --name %s --resource-group %s`", fw.Name, fw.ID.ResourceGroup())
	if !fw.PolicyID.IsZero() {
		rules = "firewall policy " + fw.PolicyID.Name() + " (with its parent policy, if any)"
		show = fmt.Sprintf("`az network firewall policy rule-collection-group list --policy-name %s --resource-group %s`", fw.PolicyID.Name(), fw.PolicyID.ResourceGroup())
	}
	dest := host
	if tag != "" {
		dest += " (service tag " + tag + ")"
	}
	msg := fmt.Sprintf("Node pool %s reaches the public address of %s through Azure Firewall %s: firewall rules not evaluated, so whether the rules of its %s allow TCP 443 to %s from %s is unverified, never reachable.",
		pool, host, fw.Name, rules, dest, rangeWords(sources))
	fix := fmt.Sprintf("Check that the firewall allows HTTPS (TCP 443) to %s from %s: %s lists its rules. Then confirm with a pull on a fresh node. Credentials and imagePullSecrets are irrelevant until the connection exists.",
		host, rangeWords(sources), show)
	return []model.Finding{model.NewFinding(model.EgressUnverified, pool, host, fw.ID, msg, fix)}, false
}
