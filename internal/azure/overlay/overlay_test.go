// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

const (
	ovSub    = "00000000-0000-0000-0000-000000000001"
	ovRG     = "/subscriptions/" + ovSub + "/resourceGroups/rg-net"
	ovVNet   = ovRG + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
	ovZone   = ovRG + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	ovLinkA  = ovZone + "/virtualNetworkLinks/link-spoke"
	ovLinkB  = ovZone + "/virtualNetworkLinks/link-hub"
	ovNIC    = ovRG + "/providers/Microsoft.Network/networkInterfaces/nic-1"
	ovRT     = ovRG + "/providers/Microsoft.Network/routeTables/rt-spoke"
	ovRecord = ovZone + "/A/myacr"
)

// mapARM answers GETs from a map of resource bodies by lower-case path (404
// otherwise), lists of links and subnets, and a Resource Graph query; it
// counts every request that reaches it.
type mapARM struct {
	mu     sync.Mutex
	bodies map[string]string
	graph  string
	calls  []string
}

func (m *mapARM) Do(req *http.Request) (*http.Response, error) {
	m.mu.Lock()
	m.calls = append(m.calls, req.Method+" "+req.URL.Path)
	m.mu.Unlock()
	answer := func(code int, body string) *http.Response {
		r := &http.Response{StatusCode: code, Status: http.StatusText(code), Header: http.Header{}, Request: req,
			Body: io.NopCloser(strings.NewReader(body))}
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	p := strings.ToLower(req.URL.Path)
	if req.Method == http.MethodPost {
		if strings.HasSuffix(p, "/resources") {
			return answer(200, m.graph), nil
		}
		return answer(200, `{"value":[]}`), nil
	}
	if b, ok := m.bodies[p]; ok {
		return answer(200, b), nil
	}
	return answer(404, `{"error":{"code":"ResourceNotFound","message":"not here"}}`), nil
}

func (m *mapARM) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.calls)
}

func newMapARM() *mapARM {
	return &mapARM{bodies: map[string]string{
		strings.ToLower(ovVNet): `{"id":"` + ovVNet + `","name":"vnet-spoke","properties":{"addressSpace":{"addressPrefixes":["10.1.0.0/16"]},` +
			`"subnets":[{"id":"` + ovVNet + `/subnets/nodes","name":"nodes","properties":{"addressPrefix":"10.1.0.0/24","routeTable":{"id":"` + ovRT + `"}}}],` +
			`"virtualNetworkPeerings":[{"id":"` + ovVNet + `/virtualNetworkPeerings/to-hub","name":"to-hub","properties":{"allowVirtualNetworkAccess":true}}]}}`,
		strings.ToLower(ovVNet + "/subnets/nodes"):       `{"id":"` + ovVNet + `/subnets/nodes","name":"nodes","properties":{"addressPrefix":"10.1.0.0/24","routeTable":{"id":"` + ovRT + `"}}}`,
		strings.ToLower(ovLinkA):                         `{"id":"` + ovLinkA + `","name":"link-spoke","properties":{"virtualNetwork":{"id":"` + ovVNet + `"}}}`,
		strings.ToLower(ovZone + "/virtualNetworkLinks"): `{"value":[{"id":"` + ovLinkA + `","name":"link-spoke","properties":{"virtualNetwork":{"id":"` + ovVNet + `"}}}]}`,
		strings.ToLower(ovZone + "/ALL"):                 `{"value":[]}`,
	}, graph: `{"totalRecords":1,"count":1,"resultTruncated":"false","data":[{"id":"` + ovLinkA + `","vnetId":"` + strings.ToLower(ovVNet) + `"}]}`}
}

// overlayClients builds clients whose per-call pipeline is the session's
// with an overlay of ops: guard, overlay, cache, retry.
func overlayClients(t *testing.T, arm *mapARM, ops ...planned.Op) (*azure.Clients, *Overlay) {
	t.Helper()
	o := New(&planned.Plan{FormatVersion: "1.2", Ops: ops})
	cl := azure.NewClients(azure.Options{
		Credential:       func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Transport:        arm,
		Retry:            azure.SDKRetryOptions(),
		PerCallPolicies:  []policy.Policy{azure.ReadOnlyGuard{}, o, azure.NewReadCache(), azure.NewRetryPolicy(azure.RetryConfig{})},
		PerRetryPolicies: []policy.Policy{azure.ReadOnlyGuard{}},
	})
	return cl, o
}

func TestOverlayVNetEmbedsPlannedChildren(t *testing.T) {
	arm := newMapARM()
	cl, _ := overlayClients(t, arm,
		planned.Op{Address: "azurerm_subnet.pe", Type: "azurerm_subnet", Kind: planned.OpPut, ID: ovVNet + "/subnets/pe",
			Body: map[string]any{"id": ovVNet + "/subnets/pe", "name": "pe", "properties": map[string]any{"addressPrefix": "10.1.1.0/24"}}},
		planned.Op{Address: "azurerm_virtual_network_peering.to_hub", Type: "azurerm_virtual_network_peering", Kind: planned.OpDelete, ID: ovVNet + "/virtualNetworkPeerings/to-hub"},
		planned.Op{Address: "azurerm_subnet_route_table_association.nodes", Type: "azurerm_subnet_route_table_association", Kind: planned.OpPatch, ID: ovVNet + "/subnets/nodes",
			Body: map[string]any{"properties": map[string]any{"routeTable": nil}}},
	)
	f, err := cl.Network(ovSub)
	if err != nil {
		t.Fatal(err)
	}
	ctx, served := TrackPlannedChanges(context.Background())
	resp, err := f.NewVirtualNetworksClient().Get(ctx, "rg-net", "vnet-spoke", nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range resp.Properties.Subnets {
		names = append(names, *s.Name)
		if *s.Name == "nodes" && s.Properties.RouteTable != nil {
			t.Errorf("subnet nodes keeps its route table although the plan removes the association")
		}
	}
	if !slices.Equal(names, []string{"nodes", "pe"}) {
		t.Errorf("subnets = %v, want [nodes pe] (the existing one patched, the planned one added)", names)
	}
	if len(resp.Properties.VirtualNetworkPeerings) != 0 {
		t.Errorf("the deleted peering is still embedded: %d peerings", len(resp.Properties.VirtualNetworkPeerings))
	}
	if got := served(); len(got) != 3 {
		t.Errorf("served changes = %v, want all three", got)
	}
	if arm.count() != 1 {
		t.Errorf("requests = %d, want 1 (the VNet as Azure has it)", arm.count())
	}

	// Without the plan, the same read is what Azure has, from the cache.
	base, err := f.NewVirtualNetworksClient().Get(WithoutPlan(context.Background()), "rg-net", "vnet-spoke", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(base.Properties.Subnets) != 1 || len(base.Properties.VirtualNetworkPeerings) != 1 || base.Properties.Subnets[0].Properties.RouteTable == nil {
		t.Errorf("baseline read shows planned changes: %d subnets, %d peerings", len(base.Properties.Subnets), len(base.Properties.VirtualNetworkPeerings))
	}
	if arm.count() != 1 {
		t.Errorf("requests = %d after the baseline read, want 1: the cache keeps what Azure answered", arm.count())
	}

	// The subnet read on its own gets the same patch.
	sn, err := f.NewSubnetsClient().Get(context.Background(), "rg-net", "vnet-spoke", "nodes", nil)
	if err != nil {
		t.Fatal(err)
	}
	if sn.Properties.RouteTable != nil || *sn.Properties.AddressPrefix != "10.1.0.0/24" {
		t.Errorf("patched subnet = %+v", sn.Properties)
	}
}

func TestOverlayDeleteIsNotFoundAndMaskable(t *testing.T) {
	arm := newMapARM()
	del := planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.spoke", Type: "azurerm_private_dns_zone_virtual_network_link", Kind: planned.OpDelete, ID: ovLinkA}
	add := planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.hub", Type: "azurerm_private_dns_zone_virtual_network_link", Kind: planned.OpPut, ID: ovLinkB,
		Body: map[string]any{"id": ovLinkB, "name": "link-hub", "properties": map[string]any{"virtualNetwork": map[string]any{"id": ovRG + "/providers/Microsoft.Network/virtualNetworks/vnet-hub"}}}}
	cl, _ := overlayClients(t, arm, del, add)
	f, err := cl.PrivateDNS(ovSub)
	if err != nil {
		t.Fatal(err)
	}
	links := f.NewVirtualNetworkLinksClient()
	_, err = links.Get(context.Background(), "rg-net", "privatelink.azurecr.io", "link-spoke", nil)
	if !azure.IsNotFound(err) {
		t.Fatalf("deleted link: err = %v, want ARM's 404", err)
	}
	var re *azcore.ResponseError
	if errors.As(err, &re) && re.ErrorCode != "ResourceNotFound" {
		t.Errorf("error code %q, want ResourceNotFound", re.ErrorCode)
	}
	if g := azure.Gap(model.ResourceID(ovLinkA), "p", err); g.Kind != model.GapNotFound {
		t.Errorf("gap kind %s, want not_found", g.Kind)
	}
	// Leaving the deletion out (leave-one-out) shows the link again.
	if _, err := links.Get(WithoutPlannedChanges(context.Background(), del.Address), "rg-net", "privatelink.azurecr.io", "link-spoke", nil); err != nil {
		t.Errorf("with the deletion masked: %v", err)
	}

	// The list: the deleted link removed, the created one appended.
	var got []string
	pager := links.NewListPager("rg-net", "privatelink.azurecr.io", nil)
	for pager.More() {
		page, err := pager.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range page.Value {
			got = append(got, *l.Name)
		}
	}
	if !slices.Equal(got, []string{"link-hub"}) {
		t.Errorf("links after the plan = %v, want [link-hub]", got)
	}
	got = nil
	pager = links.NewListPager("rg-net", "privatelink.azurecr.io", nil)
	for pager.More() {
		page, err := pager.NextPage(WithoutPlannedChanges(context.Background(), add.Address))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range page.Value {
			got = append(got, *l.Name)
		}
	}
	if len(got) != 0 {
		t.Errorf("links with only the deletion = %v, want none", got)
	}
}

func TestOverlayUntouchedReadsPassThrough(t *testing.T) {
	with, without := newMapARM(), newMapARM()
	clWith, _ := overlayClients(t, with, planned.Op{Address: "azurerm_route_table.other", Kind: planned.OpPut,
		ID: ovRG + "/providers/Microsoft.Network/routeTables/other", Body: map[string]any{"id": ovRG + "/providers/Microsoft.Network/routeTables/other"}})
	clWithout, _ := overlayClients(t, without)
	var bodies []string
	for _, cl := range []*azure.Clients{clWith, clWithout} {
		f, _ := cl.PrivateDNS(ovSub)
		l, err := f.NewVirtualNetworkLinksClient().Get(context.Background(), "rg-net", "privatelink.azurecr.io", "link-spoke", nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(l)
		bodies = append(bodies, string(b))
	}
	if bodies[0] != bodies[1] {
		t.Errorf("an untouched read differs with a plan:\n%s\n%s", bodies[0], bodies[1])
	}
	if with.count() != without.count() {
		t.Errorf("requests with a plan %d, without %d", with.count(), without.count())
	}
}

func TestOverlayUnknownValueIsAPlannedGap(t *testing.T) {
	arm := newMapARM()
	cl, _ := overlayClients(t, arm, planned.Op{Address: "azurerm_private_dns_a_record.acr", Type: "azurerm_private_dns_a_record", Kind: planned.OpPut, ID: ovRecord,
		Body:    map[string]any{"id": ovRecord, "name": "myacr", "properties": map[string]any{"ttl": 10}},
		Unknown: []string{"properties.aRecords"}})
	f, _ := cl.PrivateDNS(ovSub)
	_, err := f.NewRecordSetsClient().Get(context.Background(), "rg-net", "privatelink.azurecr.io", "A", "myacr", nil)
	var u *azure.PlannedValueUnknownError
	if !errors.As(err, &u) {
		t.Fatalf("err = %v, want azure.PlannedValueUnknownError", err)
	}
	g := azure.Gap(model.ResourceID(ovRecord), "Microsoft.Network/privateDnsZones/A/read", err)
	if g.Kind != model.GapPlannedUnknown || g.Planned != "azurerm_private_dns_a_record.acr" || !strings.Contains(g.Detail, "properties.aRecords") {
		t.Errorf("gap = %+v, want planned_unknown naming the address and the attribute", g)
	}
	// The zone's record list holds it too: the list is unknown as well.
	pager := f.NewRecordSetsClient().NewListPager("rg-net", "privatelink.azurecr.io", nil)
	if _, err := pager.NextPage(context.Background()); !errors.As(err, &u) {
		t.Errorf("record list: err = %v, want azure.PlannedValueUnknownError", err)
	}
	// A known record is fine.
	arm2 := newMapARM()
	cl2, _ := overlayClients(t, arm2, planned.Op{Address: "azurerm_private_dns_a_record.acr", Kind: planned.OpPut, ID: ovRecord,
		Body: map[string]any{"id": ovRecord, "name": "myacr", "properties": map[string]any{"ttl": 10, "aRecords": []any{map[string]any{"ipv4Address": "10.1.1.4"}}}}})
	f2, _ := cl2.PrivateDNS(ovSub)
	page, err := f2.NewRecordSetsClient().NewListPager("rg-net", "privatelink.azurecr.io", nil).NextPage(context.Background())
	if err != nil || len(page.Value) != 1 || *page.Value[0].Properties.ARecords[0].IPv4Address != "10.1.1.4" {
		t.Errorf("record list with a created record: %v %+v", err, page.Value)
	}
}

func TestOverlayEffectiveRoutesStaleOnlyForRoutingChanges(t *testing.T) {
	rt := planned.Op{Address: "azurerm_route.blackhole", Type: "azurerm_route", Kind: planned.OpPut, ID: ovRT + "/routes/default",
		Body: map[string]any{"id": ovRT + "/routes/default", "properties": map[string]any{"addressPrefix": "0.0.0.0/0", "nextHopType": "None"}}}
	arm := newMapARM()
	cl, _ := overlayClients(t, arm, rt)
	f, _ := cl.Network(ovSub)
	_, err := f.NewInterfacesClient().BeginGetEffectiveRouteTable(context.Background(), "rg-net", "nic-1", nil)
	if !azure.IsPlannedStale(err) {
		t.Fatalf("effective routes with a planned route: err = %v, want PlannedStaleError", err)
	}
	if arm.count() != 0 {
		t.Errorf("the stale action was sent (%d requests)", arm.count())
	}
	// A plan that only changes DNS leaves the action alone.
	arm2 := newMapARM()
	cl2, _ := overlayClients(t, arm2, planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.spoke", Kind: planned.OpDelete, ID: ovLinkA})
	f2, _ := cl2.Network(ovSub)
	if _, err := f2.NewInterfacesClient().BeginGetEffectiveRouteTable(context.Background(), "rg-net", "nic-1", nil); err != nil {
		t.Errorf("effective routes with a DNS-only plan: %v", err)
	}
	if arm2.count() != 1 {
		t.Errorf("requests = %d, want 1", arm2.count())
	}
}

func TestOverlayResourceGraphSeesPlannedLinks(t *testing.T) {
	hub := ovRG + "/providers/Microsoft.Network/virtualNetworks/vnet-hub"
	arm := newMapARM()
	cl, _ := overlayClients(t, arm,
		planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.spoke", Kind: planned.OpDelete, ID: ovLinkA},
		planned.Op{Address: "azurerm_private_dns_zone_virtual_network_link.hub", Kind: planned.OpPut, ID: ovLinkB,
			Body: map[string]any{"id": ovLinkB, "properties": map[string]any{"virtualNetwork": map[string]any{"id": hub}}}})
	c, err := cl.ResourceGraph()
	if err != nil {
		t.Fatal(err)
	}
	queryWhere := func(ctx context.Context, col string, vals ...string) []string {
		t.Helper()
		var zq model.ZoneLinkQuery
		if col == "vnetId" {
			var ids []model.ResourceID
			for _, v := range vals {
				ids = append(ids, model.ResourceID(v))
			}
			zq = model.NewZoneLinkQuery(ids)
		} else {
			zq = model.NewZoneDomainLinkQuery(vals)
		}
		q := zq.KQL()
		resp, err := c.Resources(azure.WithGraphSearch(ctx, zq), armresourcegraph.QueryRequest{Query: &q, Options: &armresourcegraph.QueryRequestOptions{ResultFormat: to.Ptr(armresourcegraph.ResultFormatObjectArray)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var links []string
		for _, row := range resp.Data.([]any) {
			links = append(links, row.(map[string]any)["id"].(string))
		}
		return links
	}
	query := func(ctx context.Context, vnets ...string) []string {
		t.Helper()
		return queryWhere(ctx, "vnetId", vnets...)
	}
	// The search by zone domain (gather's zone search) sees the planned
	// links of the zones in its domains, whatever their VNet; a zone in
	// another domain changes nothing.
	if got := queryWhere(context.Background(), "zoneDomain", "azurecr.io"); !slices.Equal(got, []string{ovLinkB}) {
		t.Errorf("links in azurecr.io after the plan = %v, want only the planned hub link", got)
	}
	if got := queryWhere(context.Background(), "zoneDomain", "azurecr.us"); len(got) != 0 {
		t.Errorf("links in azurecr.us after the plan = %v, want none", got)
	}
	if got := queryWhere(WithoutPlan(context.Background()), "zoneDomain", "azurecr.io"); !slices.Equal(got, []string{ovLinkA}) {
		t.Errorf("links in azurecr.io without the plan = %v, want the spoke link", got)
	}
	if got := query(context.Background(), ovVNet, hub); !slices.Equal(got, []string{ovLinkB}) {
		t.Errorf("links after the plan = %v, want only the planned hub link", got)
	}
	if got := query(context.Background(), ovVNet); len(got) != 0 {
		t.Errorf("links of the spoke after the plan = %v, want none (deleted; the hub link is for another VNet)", got)
	}
	if got := query(WithoutPlan(context.Background()), ovVNet); !slices.Equal(got, []string{ovLinkA}) {
		t.Errorf("links without the plan = %v, want the spoke link", got)
	}
	// A query the request does not carry as a model.ZoneLinkQuery, or
	// whose text is not that query's, is unknown while links change: the
	// overlay does not read KQL.
	zq := model.NewZoneLinkQuery([]model.ResourceID{ovVNet})
	for name, tc := range map[string]struct {
		ctx  context.Context
		text string
	}{
		"not carried":    {context.Background(), zq.KQL()},
		"different text": {azure.WithGraphSearch(context.Background(), zq), zq.KQL() + "\n| take 1"},
	} {
		_, err := c.Resources(tc.ctx, armresourcegraph.QueryRequest{Query: &tc.text}, nil)
		var u *azure.PlannedValueUnknownError
		switch {
		case name == "not carried" && err == nil:
			t.Errorf("%s: answered with Azure's answer, want an error (the overlay cannot know what a search it does not know finds)", name)
		case name != "not carried" && !errors.As(err, &u):
			t.Errorf("%s: err = %v, want a planned unknown value", name, err)
		}
	}
}

func TestMergePatch(t *testing.T) {
	target := map[string]any{"a": 1.0, "b": map[string]any{"c": 2.0, "d": 3.0}, "e": []any{1.0}}
	patch := map[string]any{"a": nil, "b": map[string]any{"c": 5.0}, "e": []any{2.0}, "f": "x"}
	got, _ := json.Marshal(mergePatch(target, patch))
	if string(got) != `{"b":{"c":5,"d":3},"e":[2],"f":"x"}` {
		t.Errorf("mergePatch = %s", got)
	}
	if b, _ := json.Marshal(target); string(b) != `{"a":1,"b":{"c":2,"d":3},"e":[1]}` {
		t.Errorf("mergePatch changed its target: %s", b)
	}
}

func TestOverlayChildrenOfADeletedResourceAreGone(t *testing.T) {
	arm := newMapARM()
	cl, _ := overlayClients(t, arm, planned.Op{Address: "azurerm_private_dns_zone.acr", Kind: planned.OpDelete, ID: ovZone})
	f, _ := cl.PrivateDNS(ovSub)
	if _, err := f.NewVirtualNetworkLinksClient().Get(context.Background(), "rg-net", "privatelink.azurecr.io", "link-spoke", nil); !azure.IsNotFound(err) {
		t.Errorf("a link of a deleted zone: err = %v, want 404", err)
	}
	if _, err := f.NewVirtualNetworkLinksClient().NewListPager("rg-net", "privatelink.azurecr.io", nil).NextPage(context.Background()); !azure.IsNotFound(err) {
		t.Errorf("the links of a deleted zone: err = %v, want 404", err)
	}
	// Without the plan the link is there.
	if _, err := f.NewVirtualNetworkLinksClient().Get(WithoutPlan(context.Background()), "rg-net", "privatelink.azurecr.io", "link-spoke", nil); err != nil {
		t.Errorf("without the plan: %v", err)
	}
	if arm.count() != 1 {
		t.Errorf("requests = %d, want 1 (only the read without the plan)", arm.count())
	}
}

// TestEveryReadActionHasAWhatIf: the guard's allow-list is the overlay's
// list of actions; an allowed action without a what-if treatment would be
// answered with the network before the plan.
func TestEveryReadActionHasAWhatIf(t *testing.T) {
	for _, a := range model.ReadActions() {
		if a.WhatIf == 0 {
			t.Errorf("POST %s is allowed but has no what-if treatment", a.PathPattern)
		}
		// The overlay finds the action by the path the guard matches.
		path := strings.NewReplacer("{subscriptionId}", ovSub, "{resourceGroupName}", "rg-net", "{virtualHubName}", "hub",
			"{connectionName}", "rs-nva", "{networkInterfaceName}", "nic-1", "{virtualNetworkGatewayName}", "gw",
			"{networkWatcherName}", "nw", "{virtualNetworkName}", "vnet-spoke").Replace(a.PathPattern)
		got, ok := model.ReadActionAt(path)
		if !ok || got.Action != a.Action {
			t.Errorf("%s: readActionFor = %+v, %v", path, got, ok)
		}
	}
}

// TestOverlayRouteServerLearnedRoutesUnknownWhenHubChanges: the learned
// routes of a Route Server (…/virtualHubs/{h}/bgpConnections/{c}/learnedRoutes)
// are unknown until apply when the plan changes the hub or one of its BGP
// connections, and read from Azure when it does not.
func TestOverlayRouteServerLearnedRoutesUnknownWhenHubChanges(t *testing.T) {
	hub := ovRG + "/providers/Microsoft.Network/virtualHubs/rs-hub"
	action := hub + "/bgpConnections/nva/learnedRoutes"
	conn := planned.Op{Address: "azurerm_route_server_bgp_connection.nva", Type: "azurerm_route_server_bgp_connection", Kind: planned.OpPut,
		ID: hub + "/bgpConnections/nva", Body: map[string]any{"properties": map[string]any{"peerIp": "10.0.4.4", "peerAsn": 65010}}}
	post := func(cl *azure.Clients) error {
		f, err := cl.Network(ovSub)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.NewVirtualHubBgpConnectionsClient().BeginListLearnedRoutes(context.Background(), "rg-net", "rs-hub", "nva", nil)
		return err
	}
	arm := newMapARM()
	cl, _ := overlayClients(t, arm, conn)
	var unk *azure.PlannedValueUnknownError
	if err := post(cl); !errors.As(err, &unk) || unk.Address != conn.Address || !strings.Contains(strings.Join(unk.Members, " "), "rs-hub") {
		t.Fatalf("POST %s with a planned BGP connection: err = %v, want azure.PlannedValueUnknownError naming the change and the hub", action, err)
	}
	if arm.count() != 0 {
		t.Errorf("the action was sent (%d requests)", arm.count())
	}
	// A plan about another hub leaves the action to Azure.
	other := conn
	other.ID = ovRG + "/providers/Microsoft.Network/virtualHubs/rs-other/bgpConnections/nva"
	arm2 := newMapARM()
	cl2, _ := overlayClients(t, arm2, other)
	if err := post(cl2); err != nil {
		t.Errorf("learned routes with a plan about another hub: %v", err)
	}
	if arm2.count() != 1 {
		t.Errorf("requests = %d, want 1", arm2.count())
	}
}

// TestOverlayEmbedsClassicFirewallCollections: a planned classic rule
// collection replaces the firewall's collection of that name (matched by
// name when Azure's item has no id) and a new one is added.
func TestOverlayEmbedsClassicFirewallCollections(t *testing.T) {
	fw := ovRG + "/providers/Microsoft.Network/azureFirewalls/fw-hub"
	arm := newMapARM()
	arm.bodies[strings.ToLower(fw)] = `{"id":"` + fw + `","name":"fw-hub","properties":{"networkRuleCollections":[` +
		`{"name":"aks-egress","properties":{"priority":200,"action":{"type":"Allow"},"rules":[{"name":"old"}]}}],"applicationRuleCollections":[]}}`
	cl, _ := overlayClients(t, arm,
		planned.Op{Address: "azurerm_firewall_network_rule_collection.aks", Kind: planned.OpPut, ID: fw + "/networkRuleCollections/aks-egress",
			Body: map[string]any{"id": fw + "/networkRuleCollections/aks-egress", "name": "aks-egress", "properties": map[string]any{"priority": 200, "action": map[string]any{"type": "Deny"}, "rules": []any{}}}},
		planned.Op{Address: "azurerm_firewall_application_rule_collection.acr", Kind: planned.OpPut, ID: fw + "/applicationRuleCollections/acr",
			Body: map[string]any{"id": fw + "/applicationRuleCollections/acr", "name": "acr", "properties": map[string]any{"priority": 300, "action": map[string]any{"type": "Allow"}, "rules": []any{}}}})
	f, _ := cl.Network(ovSub)
	got, err := f.NewAzureFirewallsClient().Get(context.Background(), "rg-net", "fw-hub", nil)
	if err != nil {
		t.Fatal(err)
	}
	nc, ac := got.Properties.NetworkRuleCollections, got.Properties.ApplicationRuleCollections
	if len(nc) != 1 || *nc[0].Properties.Action.Type != "Deny" || len(ac) != 1 || *ac[0].Name != "acr" {
		b, _ := json.Marshal(got)
		t.Errorf("firewall after the plan: %s", b)
	}
}

// A read made with azure.WithKnownPart gets the known part of a resource
// the plan leaves partly unknown: the unknown members left out (never the
// value before the plan), and the unknown values one by one, a child's by
// the child's id. A read without it, and a list, still fail as a whole.
func TestOverlayKnownPartNamesEachUnknownValue(t *testing.T) {
	vnetBody := map[string]any{"id": ovVNet, "name": "vnet-spoke", "properties": map[string]any{
		"addressSpace": map[string]any{"addressPrefixes": []any{"10.1.0.0/16"}},
		"dhcpOptions":  map[string]any{"dnsServers": []any{"10.9.9.9"}}}}
	ops := []planned.Op{
		{Address: "azurerm_virtual_network.spoke", Type: "azurerm_virtual_network", Kind: planned.OpPut, ID: ovVNet, Body: vnetBody,
			Unknown: []string{"properties.dhcpOptions.dnsServers"}},
		{Address: "azurerm_subnet.batch", Type: "azurerm_subnet", Kind: planned.OpPut, ID: ovVNet + "/subnets/batch",
			Body: map[string]any{"id": ovVNet + "/subnets/batch", "name": "batch", "properties": map[string]any{
				"addressPrefix": "10.1.16.0/24", "privateEndpointNetworkPolicies": "Enabled"}},
			Unknown: []string{"properties.privateEndpointNetworkPolicies"}},
	}
	arm := newMapARM()
	arm.bodies[strings.ToLower(ovRG+"/providers/Microsoft.Network/virtualNetworks")] = `{"value":[` + arm.bodies[strings.ToLower(ovVNet)] + `]}`
	cl, _ := overlayClients(t, arm, ops...)
	f, _ := cl.Network(ovSub)

	ctx, unknown := azure.WithKnownPart(context.Background())
	resp, err := f.NewVirtualNetworksClient().Get(ctx, "rg-net", "vnet-spoke", nil)
	if err != nil {
		t.Fatalf("read with the known part: %v", err)
	}
	p := resp.Properties
	if p.DhcpOptions != nil && len(p.DhcpOptions.DNSServers) > 0 {
		t.Errorf("the unknown DNS servers were answered: %v", p.DhcpOptions.DNSServers)
	}
	if len(p.AddressSpace.AddressPrefixes) != 1 || *p.AddressSpace.AddressPrefixes[0] != "10.1.0.0/16" {
		t.Errorf("the known address space is missing: %+v", p.AddressSpace)
	}
	var batch *armSubnet
	for _, s := range p.Subnets {
		if *s.Name == "batch" {
			batch = &armSubnet{policies: (*string)(s.Properties.PrivateEndpointNetworkPolicies), prefix: s.Properties.AddressPrefix}
		}
	}
	if batch == nil || batch.policies != nil || batch.prefix == nil || *batch.prefix != "10.1.16.0/24" {
		t.Errorf("subnet batch: %+v, want its prefix without its unknown policies", batch)
	}
	u := unknown()
	want := []azure.PlannedUnknownValue{
		{ID: ovVNet, Member: "properties.dhcpOptions.dnsServers", Address: "azurerm_virtual_network.spoke"},
		{ID: ovVNet + "/subnets/batch", Member: "properties.privateEndpointNetworkPolicies", Address: "azurerm_subnet.batch"},
	}
	if u == nil || !slices.Equal(u.Values, want) {
		t.Errorf("unknown values = %+v, want %+v", u, want)
	}

	// Without the known part: the whole VNet is unknown, as before.
	_, err = f.NewVirtualNetworksClient().Get(context.Background(), "rg-net", "vnet-spoke", nil)
	var whole *azure.PlannedValueUnknownError
	if !errors.As(err, &whole) || whole.Address != "azurerm_subnet.batch, azurerm_virtual_network.spoke" {
		t.Errorf("read without the known part: err = %v, want the whole VNet unknown naming both changes", err)
	}
	// A list is unknown as a whole, with or without it.
	ctx2, unknown2 := azure.WithKnownPart(context.Background())
	if _, err := f.NewVirtualNetworksClient().NewListPager("rg-net", nil).NextPage(ctx2); !errors.As(err, &whole) {
		t.Errorf("list with the known part: err = %v, want azure.PlannedValueUnknownError", err)
	}
	if unknown2() != nil {
		t.Errorf("a list reported a known part: %+v", unknown2())
	}
	// A resource the plan leaves fully known reports nothing.
	cl3, _ := overlayClients(t, newMapARM(), planned.Op{Address: "azurerm_virtual_network.spoke", Kind: planned.OpPut, ID: ovVNet, Body: vnetBody})
	f3, _ := cl3.Network(ovSub)
	ctx3, unknown3 := azure.WithKnownPart(context.Background())
	resp3, err := f3.NewVirtualNetworksClient().Get(ctx3, "rg-net", "vnet-spoke", nil)
	if err != nil || unknown3() != nil || len(resp3.Properties.DhcpOptions.DNSServers) != 1 {
		t.Errorf("known VNet: %v, unknown %+v", err, unknown3())
	}
}

type armSubnet struct{ policies, prefix *string }
