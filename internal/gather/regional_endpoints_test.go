// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Regional endpoints are opt-in: their names are hosts a pull may use only
// while the registry's regionalEndpoints setting is Enabled, whatever
// regionalEndpointHostNames lists.
func TestRegionalEndpointsOnlyWhenEnabled(t *testing.T) {
	listed := []string{"Reg.WestEurope.geo.azurecr.io", "reg.northeurope.geo.azurecr.io"}
	tests := []struct {
		name    string
		setting string
		listed  []string
		want    []string
	}{
		{"enabled, names listed", "Enabled", listed, []string{"reg.westeurope.geo.azurecr.io", "reg.northeurope.geo.azurecr.io"}},
		{"enabled, names derived per region", "enabled", nil, []string{"reg.westeurope.geo.azurecr.io", "reg.northeurope.geo.azurecr.io"}},
		{"disabled, names listed", "Disabled", listed, nil},
		{"setting absent, names listed", "", listed, nil},
		{"disabled, nothing listed", "Disabled", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := &model.Registry{Name: "reg", Location: "westeurope", LoginServer: "reg.azurecr.io",
				Replicas: []model.Replica{{Location: "westeurope"}, {Location: "North Europe"}}}
			var raw registryRawFields
			raw.Properties.RegionalEndpoints = tt.setting
			raw.Properties.RegionalEndpointHostNames = tt.listed
			completeRegistryHosts(reg, raw)
			if !reflect.DeepEqual(reg.RegionalEndpointHosts, tt.want) {
				t.Errorf("regional hosts %v, want %v", reg.RegionalEndpointHosts, tt.want)
			}
		})
	}
}

// Through the whole read: a registry that lists regional endpoint names
// but has the setting Disabled is verified without them; with the setting
// Enabled they are hosts of the pull.
func TestVerificationFactsRegionalEndpoints(t *testing.T) {
	for _, setting := range []string{"Disabled", "Enabled"} {
		t.Run(setting, func(t *testing.T) {
			r, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
				for _, res := range m["resources"].([]any) {
					obj := res.(map[string]any)
					if model.ResourceID(obj["id"].(string)).Equal(acr) {
						props := obj["properties"].(map[string]any)
						props["regionalEndpoints"] = setting
						props["regionalEndpointHostNames"] = []any{"contosoreg.westeurope.geo.azurecr.io"}
					}
				}
			})
			f, res := verifyFacts(t, r, acrRequest)
			var geo bool
			for _, h := range f.HostNames() {
				geo = geo || h == "contosoreg.westeurope.geo.azurecr.io"
			}
			if geo != (setting == "Enabled") {
				t.Errorf("hosts %v with regionalEndpoints %s", f.HostNames(), setting)
			}
			if setting == "Disabled" && res.Verdict != model.Reachable {
				t.Errorf("verdict %s with regional endpoints disabled, want reachable as baseline_ok\n%s", res.Verdict, res.Summary)
			}
			if setting == "Enabled" && !codes(res)[model.EndpointDataNotCovered] {
				t.Errorf("codes %v: the private endpoint does not serve the regional endpoint, want ENDPOINT_DATA_NOT_COVERED", codes(res))
			}
		})
	}
}
