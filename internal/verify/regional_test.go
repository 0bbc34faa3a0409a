// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const geoHostWE = "contosoreg.westeurope.geo.azurecr.io"

// A regional endpoint the registry enables is a login name of its own: the
// private endpoint must serve it like the data endpoints. Not served, the
// finding says it fails before authentication (not after the manifest);
// served and recorded, it is reachable.
func TestRegionalEndpointCoverage(t *testing.T) {
	t.Run("not served", func(t *testing.T) {
		f := baselineFacts()
		f.Registry.RegionalEndpointHosts = []string{geoHostWE}
		res := verifyFake(t, f, nil)
		onlyCodes(t, res, model.EndpointDataNotCovered)
		fs := findingsWith(res, model.EndpointDataNotCovered)
		if len(fs) != 2 || fs[0].Endpoint != geoHostWE {
			t.Fatalf("want one finding per pool on %s, got %+v", geoHostWE, fs)
		}
		requireContains(t, fs[0].Message, "enables regional endpoints", "fails before authentication")
		requireContains(t, fs[0].Remediation, "--regional-endpoints disabled", "pe-acr")
		if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Reachable {
			t.Errorf("the data endpoint is %s", p.Verdict)
		}
	})
	t.Run("served and recorded", func(t *testing.T) {
		f := baselineFacts()
		f.Registry.RegionalEndpointHosts = []string{geoHostWE}
		pe := f.Network.PrivateEndpoints[peID.Key()]
		pe.DNSConfigs = append(pe.DNSConfigs, model.FQDNAddresses{FQDN: geoHostWE, Addresses: ips("10.0.2.7")})
		zone(&f).Records["contosoreg.westeurope.geo"] = &model.RecordSet{Type: "A", Addrs: ips("10.0.2.7")}
		res := verifyFake(t, f, nil)
		onlyCodes(t, res)
		if p := pathOf(t, res, "user", geoHostWE); p.Address != "10.0.2.7" || p.Verdict != model.Reachable {
			t.Errorf("path %+v", p)
		}
	})
}
