// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// newPlannedReader is newReader with the overlay of ops in the pipeline.
func newPlannedReader(t *testing.T, scenario string, ops ...planned.Op) (*Reader, *countingTransport) {
	t.Helper()
	s, err := snapshot.Load(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	ct := &countingTransport{inner: replay, n: map[string]int{}}
	clients := azure.NewClients(azure.Options{
		Transport:       ct,
		Credential:      func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:           policy.RetryOptions{MaxRetries: 3, RetryDelay: time.Millisecond, MaxRetryDelay: 5 * time.Millisecond},
		PerCallPolicies: []policy.Policy{overlay.New(&planned.Plan{Ops: ops}), azure.NewReadCache()},
	})
	return New(clients), ct
}

// A plan that changes routing makes the effective route table stale: no
// gap, no request, ErrEffectiveRoutesPlanned, and the NIC's routes are
// computed; a plan that changes only DNS leaves it alone.
func TestEffectiveRoutesStaleUnderAPlan(t *testing.T) {
	rt := model.ResourceID(spokeRG + "/providers/Microsoft.Network/routeTables/rt-new")
	r, ct := newPlannedReader(t, "baseline_ok", planned.Op{Address: "azurerm_route_table.new", Kind: planned.OpPut, ID: string(rt),
		Body: map[string]any{"id": string(rt), "name": "rt-new", "properties": map[string]any{}}})
	_, err := r.EffectiveRoutes(testCtx(t), nvaNIC)
	if !errors.Is(err, ErrEffectiveRoutesPlanned) {
		t.Fatalf("err = %v, want ErrEffectiveRoutesPlanned", err)
	}
	if n := ct.count("POST", nvaNIC+"/effectiveRouteTable"); n != 0 {
		t.Errorf("the stale action was sent %d times", n)
	}
	requireNoGaps(t, r)
	facts, err := r.NodeRouteFacts(testCtx(t), NodeRoutesRequest{NICID: nvaNIC})
	if err != nil {
		t.Fatal(err)
	}
	if len(facts.Sets) != 1 || facts.Sets[0].Computed != model.ComputedPlanned || facts.Sets[0].Effective != nil {
		t.Errorf("route sets %+v, want one computed because of the plan", facts.Sets)
	}

	dns, _ := newPlannedReader(t, "baseline_ok", planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.spoke", Kind: planned.OpDelete,
		ID: hubRG + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/link-spoke"})
	if routes, err := dns.EffectiveRoutes(testCtx(t), nvaNIC); err != nil || len(routes) != 22 {
		t.Errorf("DNS-only plan: %d routes, %v", len(routes), err)
	}
}
