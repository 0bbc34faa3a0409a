// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"strings"
	"testing"
)

// TestResolverEndpointQuery: the query asks for each address once, in
// order; a row is an inbound endpoint one of whose ip configurations holds
// an address asked for, whether the row is the query's projection or the
// whole resource; other types and other addresses are not rows.
func TestResolverEndpointQuery(t *testing.T) {
	q := NewResolverEndpointQuery([]netip.Addr{netip.MustParseAddr("10.2.3.5"), netip.MustParseAddr("10.2.3.4"), netip.MustParseAddr("10.2.3.5"), {}})
	if strings.Join(q.Addresses, ",") != "10.2.3.4,10.2.3.5" {
		t.Fatalf("addresses = %v", q.Addresses)
	}
	if kql := q.KQL(); !strings.Contains(kql, "'"+InboundEndpointType+"'") || !strings.Contains(kql, "in ('10.2.3.4', '10.2.3.5')") {
		t.Errorf("KQL:\n%s", kql)
	}
	if !q.Asks(netip.MustParseAddr("10.2.3.4")) || q.Asks(netip.MustParseAddr("10.2.3.6")) || (ResolverEndpointQuery{}).Asks(netip.MustParseAddr("10.2.3.4")) {
		t.Error("Asks")
	}
	ep := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolvers/r/inboundEndpoints/in"
	cfg := func(a string) map[string]any {
		return map[string]any{"ipConfigurations": []any{map[string]any{"privateIpAddress": "10.9.9.9"}, map[string]any{"privateIpAddress": a}}}
	}
	body := func(a string) map[string]any { return map[string]any{"properties": cfg(a)} }
	if row, ok := q.Row(ep, body("10.2.3.5")); !ok || row["id"] != ep {
		t.Errorf("an endpoint at an address asked for: %v %v", row, ok)
	}
	if _, ok := q.Row(ep, body("10.2.3.6")); ok {
		t.Error("an endpoint at another address is a row")
	}
	if _, ok := q.Row("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/dnsResolvers/r/outboundEndpoints/out", body("10.2.3.5")); ok {
		t.Error("an outbound endpoint is a row")
	}
	whole := map[string]any{"id": ep, "properties": cfg("10.2.3.4")}
	if got := RowEndpointAddresses(whole); len(got) != 2 || got[1] != netip.MustParseAddr("10.2.3.4") {
		t.Errorf("addresses of a whole resource row = %v", got)
	}
}

// TestHubConnectionQuery: a row is a hub connection whose remote VNet is
// one asked for (case does not matter); a connection to another VNet, or
// without one, is not.
func TestHubConnectionQuery(t *testing.T) {
	spoke := ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-Spoke")
	q := NewHubConnectionQuery([]ResourceID{spoke, spoke, ""})
	if len(q.VNets) != 1 || !strings.Contains(q.KQL(), "'"+spoke.Key()+"'") {
		t.Fatalf("query %v:\n%s", q.VNets, q.KQL())
	}
	conn := "/subscriptions/s/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub/hubVirtualNetworkConnections/c"
	props := func(vnet string) map[string]any {
		return map[string]any{"remoteVirtualNetwork": map[string]any{"id": vnet}}
	}
	wrap := func(vnet string) map[string]any { return map[string]any{"properties": props(vnet)} }
	if row, ok := q.Row(conn, wrap(strings.ToUpper(string(spoke)))); !ok || row["vnetId"] != strings.ToLower(string(spoke)) {
		t.Errorf("a connection of the VNet: %v %v", row, ok)
	}
	if _, ok := q.Row(conn, wrap(string(spoke)+"x")); ok {
		t.Error("a connection of another VNet is a row")
	}
	if _, ok := q.Row(conn, map[string]any{}); ok {
		t.Error("a connection without a remote VNet is a row")
	}
	if got := HubConnectionRowVNet(map[string]any{"properties": props(string(spoke))}); got != string(spoke) {
		t.Errorf("row VNet of a whole resource = %q", got)
	}
}
