// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// TestUnnamedZoneAnswersOnlyItsLinkedVNets: a plan (planned's fixture)
// creates a zone named from another new resource's output and links it to
// a new VNet. The zone link search finds the link for that VNet only (by
// VNet, and by zone domain whatever the domain); a list of zones read for
// that search leaves the zone out, any other list of zones is unknown; a
// link whose VNet is known only after apply keeps both unknown.
func TestUnnamedZoneAnswersOnlyItsLinkedVNets(t *testing.T) {
	data, err := os.ReadFile("../../planned/testdata/gaps/plan_unnamed_zone.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planned.Parse(data, planned.Options{})
	if err != nil {
		t.Fatal(err)
	}
	apps := "/subscriptions/" + ovSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-apps"
	link := "/subscriptions/" + ovSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/privateDnsZones/" + planned.NameUnknown + "/virtualNetworkLinks/link-apps"
	for _, known := range []bool{true, false} {
		ops := slices.Clone(plan.Ops)
		if !known {
			for i, op := range ops {
				if strings.HasSuffix(op.ID, "/link-apps") {
					body := cloneMap(op.Body)
					body["properties"] = map[string]any{"virtualNetwork": map[string]any{}}
					ops[i].Body = body
				}
			}
		}
		arm := newMapARM()
		arm.bodies[strings.ToLower("/subscriptions/"+ovSub+"/providers/Microsoft.Network/privateDnsZones")] = `{"value":[{"id":"` + ovZone + `","name":"privatelink.azurecr.io"}]}`
		cl, _ := overlayClients(t, arm, ops...)
		pz, err := cl.PrivateDNS(ovSub)
		if err != nil {
			t.Fatal(err)
		}
		list := func(ctx context.Context) ([]string, error) {
			page, err := pz.NewPrivateZonesClient().NewListPager(nil).NextPage(ctx)
			var names []string
			for _, z := range page.Value {
				names = append(names, *z.Name)
			}
			return names, err
		}
		var u *azure.PlannedValueUnknownError
		names, err := list(azure.WithZonesFoundByLinks(context.Background()))
		if known && (err != nil || !slices.Equal(names, []string{"privatelink.azurecr.io"})) {
			t.Errorf("zones for the link search = %v, %v; want the existing zone only", names, err)
		}
		if !known && !errors.As(err, &u) {
			t.Errorf("a zone whose link's VNet is unknown left the list: %v, %v", names, err)
		}
		if _, err := list(context.Background()); !errors.As(err, &u) {
			t.Errorf("a list not read for the link search lost the unnamed zone: %v", err)
		}

		rg, err := cl.ResourceGraph()
		if err != nil {
			t.Fatal(err)
		}
		search := func(zq model.ZoneLinkQuery) ([]string, error) {
			q := zq.KQL()
			resp, err := rg.Resources(azure.WithGraphSearch(context.Background(), zq), armresourcegraph.QueryRequest{Query: &q,
				Options: &armresourcegraph.QueryRequestOptions{ResultFormat: to.Ptr(armresourcegraph.ResultFormatObjectArray)}}, nil)
			if err != nil {
				return nil, err
			}
			var ids []string
			for _, row := range resp.Data.([]any) {
				ids = append(ids, row.(map[string]any)["id"].(string))
			}
			return ids, nil
		}
		for _, tc := range []struct {
			name string
			q    model.ZoneLinkQuery
			want []string
		}{
			{"the node VNet", model.NewZoneLinkQuery([]model.ResourceID{ovVNet}), []string{ovLinkA}},
			{"the new VNet", model.NewZoneLinkQuery([]model.ResourceID{model.ResourceID(apps)}), []string{ovLinkA, link}},
			{"the registry's domain", model.NewZoneDomainLinkQuery([]string{"azurecr.io"}), []string{ovLinkA, link}},
		} {
			got, err := search(tc.q)
			switch {
			case !known && !errors.As(err, &u):
				t.Errorf("%s: a link to an unknown VNet answered %v, %v", tc.name, got, err)
			case known && (err != nil || !slices.Equal(got, tc.want)):
				t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
			}
		}
	}
}
