// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestTLSName(t *testing.T) {
	tests := []struct {
		name string
		host string
		want []model.Code
	}{
		{"the login server is on the certificate", loginHost, nil},
		{"a privatelink name is not", "contosoreg.privatelink.azurecr.io", []model.Code{model.TLSNameNotCovered}},
		{"nor a privatelink data name", "contosoreg.westeurope.data.privatelink.azurecr.io", []model.Code{model.TLSNameNotCovered}},
		{"a name that merely contains the word is fine", "privatelinkmirror.corp.example", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			f.Registry = nil
			f.Declared = &model.DeclaredRegistry{Hosts: []string{tt.host}, Addresses: map[string]netip.Addr{tt.host: ip("10.0.2.5")}}
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if len(tt.want) > 0 {
				tls := findingsWith(res, model.TLSNameNotCovered)[0]
				requireContains(t, tls.Message, tt.host, "certificate")
				requireContains(t, tls.Remediation, "Use contosoreg.", "will not help")
			}
		})
	}
}

// TLS is step 3: a privatelink name whose route is broken reports the route.
func TestTLSAfterRoute(t *testing.T) {
	f := baselineFacts()
	f.Registry = nil
	host := "contosoreg.privatelink.azurecr.io"
	f.Declared = &model.DeclaredRegistry{Hosts: []string{host}, Addresses: map[string]netip.Addr{host: ip("10.0.2.5")}}
	onlyCodes(t, verifyFake(t, f, &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): blackhole("10.0.2.5")}}), model.RouteBlackhole)
}
