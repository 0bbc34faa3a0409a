// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// TestVerificationFaultMatrixFirewallDNS is the fault matrix of the reads
// a DNS server at an Azure Firewall's private address adds to baseline_ok
// (firewall_dns_proxy_on): the firewall, found by its subnet's ip
// configurations, and its policy, whose dnsSettings decide whether and from
// where the proxy answers. The reference is reachable; a persistent fault of
// either read must leave it unverified, naming the faulted read, never
// reachable. The policy's rule collection groups decide nothing about DNS
// and are not read.
func TestVerificationFaultMatrixFirewallDNS(t *testing.T) {
	ctx := context.Background()
	baseline := runInProcess(t, ctx, provider.VerificationInput{Snapshot: scenarioSnapshot(t, "baseline_ok"), ClusterID: accCluster, RegistryID: accRegistry})
	seen := map[string]bool{}
	for _, r := range baseline.Requested {
		seen[r] = true
	}
	only := func(read string) bool { return !seen[read] }
	in := provider.VerificationInput{Snapshot: scenarioSnapshot(t, "firewall_dns_proxy_on"), ClusterID: accCluster, RegistryID: accRegistry}
	reads := faultMatrix(t, in, "reachable", only)
	for _, r := range reads {
		if strings.Contains(strings.ToLower(r), "/rulecollectiongroups") {
			t.Errorf("a DNS server at the firewall needs no rules, yet %s was read", r)
		}
	}
	for _, want := range []string{"/azurefirewalls/fw-hub", "/firewallpolicies/fwpol-hub"} {
		found := false
		for _, r := range reads {
			found = found || strings.HasSuffix(strings.ToLower(r), want)
		}
		if !found {
			t.Errorf("the reference made no read of %s: the matrix would prove nothing about it; reads %v", want, reads)
		}
	}
}
