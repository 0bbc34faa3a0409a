// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

const (
	ovHub      = ovRG + "/providers/Microsoft.Network/virtualHubs/hub-weu"
	ovConnA    = ovHub + "/hubVirtualNetworkConnections/conn-spoke"
	ovShared   = ovRG + "/providers/Microsoft.Network/virtualNetworks/vnet-shared"
	ovConnB    = ovHub + "/hubVirtualNetworkConnections/conn-shared"
	ovResolver = ovRG + "/providers/Microsoft.Network/dnsResolvers/dnspr"
	ovInA      = ovResolver + "/inboundEndpoints/in-a"
	ovInB      = ovResolver + "/inboundEndpoints/in-b"
)

// graphIDs sends a Resource Graph query whose context carries the query
// (as gather sends it) and returns the ids of the rows.
func graphIDs(t *testing.T, c *armresourcegraph.Client, ctx context.Context, kql string) ([]string, error) {
	t.Helper()
	resp, err := c.Resources(ctx, armresourcegraph.QueryRequest{Query: &kql, Options: &armresourcegraph.QueryRequestOptions{ResultFormat: to.Ptr(armresourcegraph.ResultFormatObjectArray)}}, nil)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, row := range resp.Data.([]any) {
		ids = append(ids, row.(map[string]any)["id"].(string))
	}
	slices.Sort(ids)
	return ids, nil
}

// TestOverlayHubConnectionSearchSeesPlannedConnections: the Resource Graph
// search for the hub connections of VNets (model.HubConnectionQuery) is
// answered after the plan: a deleted connection is gone, a created one to
// a VNet asked about is there, one to another VNet changes nothing, and a
// deleted hub takes its connections with it. A plan that changes no
// connection passes the query through; a request that does not carry the
// query, or sends another text, is unknown.
func TestOverlayHubConnectionSearchSeesPlannedConnections(t *testing.T) {
	arm := newMapARM()
	arm.graph = `{"totalRecords":1,"count":1,"resultTruncated":"false","data":[{"id":"` + ovConnA + `","vnetId":"` + strings.ToLower(ovVNet) + `"}]}`
	q := model.NewHubConnectionQuery([]model.ResourceID{ovVNet, ovShared})
	ctx := azure.WithGraphSearch(context.Background(), q)

	put := func(id, vnet string) planned.Op {
		return planned.Op{Address: "azurerm_virtual_hub_connection." + id[strings.LastIndex(id, "/")+1:], Kind: planned.OpPut, ID: id,
			Body: map[string]any{"id": id, "properties": map[string]any{"remoteVirtualNetwork": map[string]any{"id": vnet}}}}
	}
	for name, tc := range map[string]struct {
		ops  []planned.Op
		want []string
	}{
		"no connection changes": {[]planned.Op{{Address: "azurerm_private_dns_zone_virtual_network_link.spoke", Kind: planned.OpDelete, ID: ovLinkA}}, []string{ovConnA}},
		"deleted":               {[]planned.Op{{Address: "azurerm_virtual_hub_connection.spoke", Kind: planned.OpDelete, ID: ovConnA}}, nil},
		"created":               {[]planned.Op{put(ovConnB, ovShared)}, []string{ovConnA, ovConnB}},
		"created elsewhere":     {[]planned.Op{put(ovConnB, ovRG+"/providers/Microsoft.Network/virtualNetworks/other")}, []string{ovConnA}},
		"hub deleted":           {[]planned.Op{{Address: "azurerm_virtual_hub.weu", Kind: planned.OpDelete, ID: ovHub}}, nil},
		"hub replaced":          {[]planned.Op{{Address: "azurerm_virtual_hub.weu", Kind: planned.OpDelete, ID: ovHub}, {Address: "azurerm_virtual_hub.weu", Kind: planned.OpPut, ID: ovHub, Body: map[string]any{"id": ovHub}}}, []string{ovConnA}},
	} {
		cl, _ := overlayClients(t, arm, tc.ops...)
		c, err := cl.ResourceGraph()
		if err != nil {
			t.Fatal(err)
		}
		got, err := graphIDs(t, c, ctx, q.KQL())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: connections after the plan = %v, want %v", name, got, want)
		}
		if without, _ := graphIDs(t, c, WithoutPlan(ctx), q.KQL()); !slices.Equal(without, []string{ovConnA}) {
			t.Errorf("%s: connections without the plan = %v", name, without)
		}
	}
	cl, _ := overlayClients(t, arm, planned.Op{Address: "azurerm_virtual_hub_connection.spoke", Kind: planned.OpDelete, ID: ovConnA})
	c, _ := cl.ResourceGraph()
	for name, tc := range map[string]struct {
		ctx  context.Context
		text string
	}{
		"not carried":    {context.Background(), q.KQL()},
		"different text": {ctx, q.KQL() + "\n| take 1"},
	} {
		_, err := graphIDs(t, c, tc.ctx, tc.text)
		var u *azure.PlannedValueUnknownError
		switch {
		case name == "not carried" && err == nil:
			t.Errorf("%s: answered with Azure's answer, want an error (the overlay cannot know what a search it does not know finds)", name)
		case name != "not carried" && !errors.As(err, &u):
			t.Errorf("%s: err = %v, want a planned unknown value", name, err)
		}
	}
}

// TestOverlayResolverSearchSeesPlannedEndpoints: the search for resolver
// inbound endpoints at some addresses (model.ResolverEndpointQuery) sees
// the endpoints the plan creates at those addresses and loses those it
// deletes (or whose resolver it deletes); an endpoint whose address is
// known only after apply makes the answer unknown.
func TestOverlayResolverSearchSeesPlannedEndpoints(t *testing.T) {
	arm := newMapARM()
	arm.graph = `{"totalRecords":1,"count":1,"resultTruncated":"false","data":[{"id":"` + ovInA + `","ipConfigurations":[{"privateIpAddress":"10.2.3.4"}]}]}`
	q := model.NewResolverEndpointQuery([]netip.Addr{netip.MustParseAddr("10.2.3.4"), netip.MustParseAddr("10.2.3.5")})
	ctx := azure.WithGraphSearch(context.Background(), q)
	endpoint := func(id, addr string, unknown ...string) planned.Op {
		return planned.Op{Address: "azurerm_private_dns_resolver_inbound_endpoint." + id[strings.LastIndex(id, "/")+1:], Kind: planned.OpPut, ID: id, Unknown: unknown,
			Body: map[string]any{"id": id, "properties": map[string]any{"ipConfigurations": []any{map[string]any{"privateIpAddress": addr}}}}}
	}
	for name, tc := range map[string]struct {
		ops     []planned.Op
		want    []string
		unknown bool
	}{
		"created at an address asked for": {ops: []planned.Op{endpoint(ovInB, "10.2.3.5")}, want: []string{ovInA, ovInB}},
		"created at another address":      {ops: []planned.Op{endpoint(ovInB, "10.2.9.9")}, want: []string{ovInA}},
		"moved away":                      {ops: []planned.Op{endpoint(ovInA, "10.2.9.9")}, want: nil},
		"deleted":                         {ops: []planned.Op{{Address: "azurerm_private_dns_resolver_inbound_endpoint.a", Kind: planned.OpDelete, ID: ovInA}}, want: nil},
		"resolver deleted":                {ops: []planned.Op{{Address: "azurerm_private_dns_resolver.r", Kind: planned.OpDelete, ID: ovResolver}}, want: nil},
		"address known after apply":       {ops: []planned.Op{endpoint(ovInB, "", "properties.ipConfigurations[0].privateIpAddress")}, unknown: true},
	} {
		cl, _ := overlayClients(t, arm, tc.ops...)
		c, err := cl.ResourceGraph()
		if err != nil {
			t.Fatal(err)
		}
		got, err := graphIDs(t, c, ctx, q.KQL())
		var u *azure.PlannedValueUnknownError
		if tc.unknown {
			if !errors.As(err, &u) {
				t.Errorf("%s: err = %v, want a planned unknown value", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: endpoints after the plan = %v, want %v", name, got, tc.want)
		}
	}
}

// TestOverlayEmbedsHubRouteTableRoutes: a route azurerm names
// …/hubRouteTables/{t}/routes/{name} (azurerm_virtual_hub_route_table_route)
// is an item of its table's routes, which have no id of their own: a
// planned route replaces the item of that name, a new one is added, a
// deleted one is gone.
func TestOverlayEmbedsHubRouteTableRoutes(t *testing.T) {
	rt := ovHub + "/hubRouteTables/rt-fw"
	fw := ovRG + "/providers/Microsoft.Network/azureFirewalls/fw-hub"
	arm := newMapARM()
	arm.bodies[strings.ToLower(rt)] = `{"id":"` + rt + `","name":"rt-fw","properties":{"labels":["fw"],"routes":[` +
		`{"name":"old","destinationType":"CIDR","destinations":["10.0.0.0/8"],"nextHopType":"ResourceId","nextHop":"` + fw + `"},` +
		`{"name":"gone","destinationType":"CIDR","destinations":["172.16.0.0/12"],"nextHopType":"ResourceId","nextHop":"` + fw + `"}]}}`
	arm.bodies[strings.ToLower(ovHub+"/hubRouteTables")] = `{"value":[` + arm.bodies[strings.ToLower(rt)] + `]}`
	route := func(name, dest string) planned.Op {
		return planned.Op{Address: "azurerm_virtual_hub_route_table_route." + name, Kind: planned.OpPut, ID: rt + "/routes/" + name,
			Body: map[string]any{"name": name, "destinationType": "CIDR", "destinations": []any{dest}, "nextHopType": "ResourceId", "nextHop": fw}}
	}
	cl, _ := overlayClients(t, arm, route("old", "10.2.0.0/16"), route("new", "192.168.0.0/16"),
		planned.Op{Address: "azurerm_virtual_hub_route_table_route.gone", Kind: planned.OpDelete, ID: rt + "/routes/gone"})
	f, _ := cl.Network(ovSub)
	got, err := f.NewHubRouteTablesClient().Get(context.Background(), "rg-net", "hub-weu", "rt-fw", nil)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for _, r := range got.Properties.Routes {
		routes = append(routes, *r.Name+" "+*r.Destinations[0])
	}
	if strings.Join(routes, ", ") != "old 10.2.0.0/16, new 192.168.0.0/16" {
		t.Errorf("routes after the plan: %v", routes)
	}
	// The hub's list of route tables (what gather reads) holds the same.
	page, err := f.NewHubRouteTablesClient().NewListPager("rg-net", "hub-weu", nil).NextPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Value) != 1 || len(page.Value[0].Properties.Routes) != 2 || *page.Value[0].Properties.Routes[1].Name != "new" {
		b, _ := json.Marshal(page.Value)
		t.Errorf("listed route tables after the plan: %s", b)
	}
}

// TestOverlayAnswersEverySearch: every Resource Graph search of
// model.GraphSearches is answered as after the plan: a row of a resource
// the plan deletes is gone, and a row of another resource stays. A new
// search is answered by the one answer of graph, from its RowType.
func TestOverlayAnswersEverySearch(t *testing.T) {
	for _, s := range model.GraphSearches() {
		// An id of the search's row type: {ns}/{type}/{name}/{child}/{name}.
		parts := strings.Split(s.RowType(), "/")
		id := ovRG + "/providers/" + parts[0]
		for _, p := range parts[1:] {
			id += "/" + p + "/x"
		}
		kept := id[:len(id)-1] + "kept"
		arm := newMapARM()
		arm.graph = `{"totalRecords":2,"count":2,"resultTruncated":"false","data":[{"id":"` + id + `"},{"id":"` + kept + `"}]}`
		cl, _ := overlayClients(t, arm, planned.Op{Address: "x.gone", Kind: planned.OpDelete, ID: id})
		c, err := cl.ResourceGraph()
		if err != nil {
			t.Fatal(err)
		}
		got, err := graphIDs(t, c, azure.WithGraphSearch(context.Background(), s), s.KQL())
		if err != nil || !slices.Equal(got, []string{kept}) {
			t.Errorf("%T: rows after a plan that deletes %s = %v, %v; want only %s", s, id, got, err, kept)
		}
	}
}
