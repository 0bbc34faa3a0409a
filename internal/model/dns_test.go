// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "testing"

// A forwarding rule covers its domain and every name below it; the
// wildcard rule "." covers every name and is the least specific; a rule
// without a domain covers nothing.
func TestForwardingRuleCovers(t *testing.T) {
	tests := []struct {
		domain string
		name   string
		covers bool
		spec   int
	}{
		{"azurecr.io.", "contosoreg.azurecr.io", true, 2},
		{"azurecr.io.", "azurecr.io", true, 2},
		{"AzureCR.io.", "contosoreg.westeurope.data.azurecr.io.", true, 2},
		{"azurecr.io.", "notazurecr.io", false, 2},
		{"privatelink.azurecr.io.", "contosoreg.azurecr.io", false, 3},
		{".", "contosoreg.azurecr.io", true, 0},
		{".", "harbor.corp.example", true, 0},
		{" . ", "x.example", true, 0},
		{"", "contosoreg.azurecr.io", false, 0},
	}
	for _, tt := range tests {
		r := ForwardingRule{DomainName: tt.domain}
		if got := r.Covers(tt.name); got != tt.covers {
			t.Errorf("rule %q covers %q = %v, want %v", tt.domain, tt.name, got, tt.covers)
		}
		if got := r.Specificity(); got != tt.spec {
			t.Errorf("rule %q specificity %d, want %d", tt.domain, got, tt.spec)
		}
	}
	if d := (ForwardingRule{DomainName: "."}).Domain(); d != "." {
		t.Errorf("wildcard domain %q", d)
	}
}

func TestRegistryDualStackEndpoints(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		want     bool
	}{{"", false}, {"IPv4", false}, {"IPv4AndIPv6", true}, {" ipv4andipv6 ", true}, {"IPv6", false}} {
		if got := (&Registry{EndpointProtocol: tc.protocol}).DualStackEndpoints(); got != tc.want {
			t.Errorf("endpointProtocol %q: dual stack = %v, want %v", tc.protocol, got, tc.want)
		}
	}
	if (*Registry)(nil).DualStackEndpoints() {
		t.Error("no registry is dual-stack")
	}
}
