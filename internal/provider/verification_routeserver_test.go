// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A Route Server read that fails leaves the routes it programs unknown: the
// on-premises destination BGP routes could carry is unverified (never
// reachable through the gateway, never an error), and the evidence finding
// names the read and, for a 403, the permission it needs.
func TestVerificationRouteServerReadsRefused(t *testing.T) {
	var sc scenario
	for _, s := range discoverScenarios(t) {
		if s.Name == "route_server_next_to_gateway" {
			sc = s
		}
	}
	if sc.Name == "" {
		t.Fatal("no scenario route_server_next_to_gateway")
	}
	in := scenarioInput(t, sc)
	raw, err := os.ReadFile(in.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	const rs = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualHubs/rs-hub"
	for _, read := range []string{
		"GET " + rs,
		"GET " + rs + "/bgpConnections",
		"POST " + rs + "/bgpConnections/sdwan-nva/learnedRoutes",
	} {
		for _, fc := range faultClasses {
			if fc.transient || fc.slow {
				continue
			}
			t.Run(fc.name+" "+shortRead(read), func(t *testing.T) {
				var snap map[string]any
				if err := json.Unmarshal(raw, &snap); err != nil {
					t.Fatal(err)
				}
				withFault(read, fc.fault)(snap)
				in := in
				in.Snapshot = writeSnapshot(t, snap)
				out := runInProcess(t, context.Background(), in)
				method, path, _ := strings.Cut(read, " ")
				checkPersistentFault(t, method, path, fc, out)
				for _, f := range out.Findings {
					if f.Code == "RETURN_ROUTE_UNVERIFIED" {
						t.Errorf("without the Route Server's routes the appliance route cannot be concluded: %s", f.Message)
					}
				}
			})
		}
	}
}
