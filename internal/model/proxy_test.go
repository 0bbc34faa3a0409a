// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"strings"
	"testing"
)

// TestMatchNoProxy: noProxy is matched as Go's httpproxy (containerd's
// proxy selection) matches NO_PROXY, for a registry hostname on port 443.
func TestMatchNoProxy(t *testing.T) {
	tests := []struct {
		name     string
		noProxy  []string
		host     string
		bypass   bool
		entry    string
		wildcard bool
	}{
		{"domain matches itself", []string{"contosoreg.azurecr.io"}, "contosoreg.azurecr.io", true, "contosoreg.azurecr.io", false},
		{"domain matches its subdomains", []string{"azurecr.io"}, "contosoreg.westeurope.data.azurecr.io", true, "azurecr.io", false},
		{"login server does not cover its data endpoint", []string{"contosoreg.azurecr.io"}, "contosoreg.westeurope.data.azurecr.io", false, "", false},
		{"leading dot matches subdomains", []string{".azurecr.io"}, "contosoreg.azurecr.io", true, ".azurecr.io", false},
		{"leading dot does not match the name itself", []string{".contosoreg.azurecr.io"}, "contosoreg.azurecr.io", false, "", false},
		{"star matches everything", []string{"localhost", "*"}, "contosoreg.azurecr.io", true, "*", false},
		{"CIDR never matches a hostname", []string{"10.0.0.0/8"}, "contosoreg.azurecr.io", false, "", false},
		{"IP never matches a hostname", []string{"10.0.2.5"}, "contosoreg.azurecr.io", false, "", false},
		{"CIDR matches an IP literal host", []string{"10.0.0.0/8"}, "10.0.2.5", true, "10.0.0.0/8", false},
		{"IP matches that IP literal", []string{"10.0.2.5"}, "10.0.2.5", true, "10.0.2.5", false},
		{"domain never matches an IP literal", []string{"azurecr.io"}, "10.0.2.5", false, "", false},
		{"case-insensitive with spaces", []string{"  ContosoReg.AzureCR.io "}, "contosoreg.azurecr.io", true, "  ContosoReg.AzureCR.io ", false},
		{"wildcard read as leading dot", []string{"*.azurecr.io"}, "contosoreg.azurecr.io", true, "*.azurecr.io", true},
		{"port 443 entry matches", []string{"contosoreg.azurecr.io:443"}, "contosoreg.azurecr.io", true, "contosoreg.azurecr.io:443", false},
		{"other port entry does not match", []string{"contosoreg.azurecr.io:5000"}, "contosoreg.azurecr.io", false, "", false},
		{"suffix without a dot boundary does not match", []string{"reg.azurecr.io"}, "contosoreg.azurecr.io", false, "", false},
		{"empty noProxy", nil, "contosoreg.azurecr.io", false, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &HTTPProxy{HTTPSProxy: "http://10.0.1.4:3128", NoProxy: tc.noProxy}
			got := p.MatchNoProxy(tc.host)
			if got.Bypass != tc.bypass || got.Entry != tc.entry || got.Wildcard != tc.wildcard {
				t.Errorf("MatchNoProxy(%q) with %q = %+v, want bypass %v entry %q wildcard %v", tc.host, tc.noProxy, got, tc.bypass, tc.entry, tc.wildcard)
			}
		})
	}
}

// TestMatchNoProxySaysWhy: for a hostname no entry matches, the related
// entries say why they do not.
func TestMatchNoProxySaysWhy(t *testing.T) {
	p := &HTTPProxy{NoProxy: []string{"contosoreg.azurecr.io", "10.0.0.0/8", "localhost"}}
	got := p.MatchNoProxy("contosoreg.westeurope.data.azurecr.io")
	if got.Bypass || len(got.Misses) != 2 {
		t.Fatalf("got %+v, want two reasons (the login server entry, the range)", got)
	}
	if got.Misses[0] != "contosoreg.azurecr.io matches only itself and its subdomains" {
		t.Errorf("first reason %q", got.Misses[0])
	}
}

// TestProxyEndpoint: an https:// pull uses httpsProxy only, with the
// scheme's default port.
func TestProxyEndpoint(t *testing.T) {
	tests := []struct {
		name string
		cfg  HTTPProxy
		ok   bool
		err  bool
		host string
		addr string
		port int
	}{
		{"http proxy with port", HTTPProxy{HTTPSProxy: "http://10.0.1.4:3128"}, true, false, "10.0.1.4", "10.0.1.4", 3128},
		{"https proxy default port", HTTPProxy{HTTPSProxy: "https://proxy.contoso.com"}, true, false, "proxy.contoso.com", "", 443},
		{"http default port", HTTPProxy{HTTPSProxy: "http://proxy.contoso.com"}, true, false, "proxy.contoso.com", "", 80},
		{"no scheme is http", HTTPProxy{HTTPSProxy: "10.0.1.4:8080"}, true, false, "10.0.1.4", "10.0.1.4", 8080},
		{"httpProxy alone is not used for https", HTTPProxy{HTTPProxy: "http://10.0.1.4:3128"}, false, false, "", "", 0},
		{"none", HTTPProxy{}, false, false, "", "", 0},
		{"bad port", HTTPProxy{HTTPSProxy: "http://10.0.1.4:99999"}, true, true, "10.0.1.4", "10.0.1.4", 0},
		{"unknown scheme", HTTPProxy{HTTPSProxy: "ftp://10.0.1.4"}, true, true, "10.0.1.4", "10.0.1.4", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep, ok, err := tc.cfg.Endpoint()
			if ok != tc.ok || (err != nil) != tc.err {
				t.Fatalf("Endpoint() ok %v err %v, want ok %v err %v", ok, err, tc.ok, tc.err)
			}
			if !ok || err != nil {
				return
			}
			var want netip.Addr
			if tc.addr != "" {
				want = netip.MustParseAddr(tc.addr)
			}
			if ep.Host != tc.host || ep.Addr != want || ep.Port != tc.port {
				t.Errorf("Endpoint() = %+v, want host %s addr %s port %d", ep, tc.host, tc.addr, tc.port)
			}
		})
	}
}

// TestLoadBalancerRuleFor: the rule forwarding the proxy's TCP port of a
// frontend: a Tcp or All rule for that port (with its backend port), an
// HA-ports rule (All, port 0, which keeps the port); a Udp rule, another
// port or another frontend's rule forwards nothing.
func TestLoadBalancerRuleFor(t *testing.T) {
	const fe = ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb/frontendIPConfigurations/fe")
	const other = ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb/frontendIPConfigurations/fe2")
	tests := []struct {
		name     string
		rules    []LBRule
		wantRule string
		wantPort int
	}{
		{"tcp rule for the port", []LBRule{{Name: "r", FrontendID: fe, Protocol: "Tcp", FrontendPort: 3128, BackendPort: 8080}}, "r", 8080},
		{"all rule for the port", []LBRule{{Name: "r", FrontendID: fe, Protocol: "All", FrontendPort: 3128, BackendPort: 3128}}, "r", 3128},
		{"HA ports keep the port", []LBRule{{Name: "ha", FrontendID: fe, Protocol: "All"}}, "ha", 3128},
		{"frontend id case differs", []LBRule{{Name: "r", FrontendID: ResourceID(strings.ToUpper(string(fe))), Protocol: "tcp", FrontendPort: 3128, BackendPort: 3128}}, "r", 3128},
		{"udp rule does not forward TCP", []LBRule{{Name: "r", FrontendID: fe, Protocol: "Udp", FrontendPort: 3128, BackendPort: 3128}}, "", 0},
		{"another port", []LBRule{{Name: "r", FrontendID: fe, Protocol: "Tcp", FrontendPort: 8080, BackendPort: 8080}}, "", 0},
		{"another frontend", []LBRule{{Name: "r", FrontendID: other, Protocol: "Tcp", FrontendPort: 3128, BackendPort: 3128}}, "", 0},
		{"tcp port 0 is not HA ports", []LBRule{{Name: "r", FrontendID: fe, Protocol: "Tcp"}}, "", 0},
		{"no rules", nil, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lb := &LoadBalancer{Rules: tc.rules}
			ru, port := lb.RuleFor(fe, 3128)
			got := ""
			if ru != nil {
				got = ru.Name
			}
			if got != tc.wantRule || port != tc.wantPort {
				t.Errorf("RuleFor = %q, %d; want %q, %d", got, port, tc.wantRule, tc.wantPort)
			}
		})
	}
}
