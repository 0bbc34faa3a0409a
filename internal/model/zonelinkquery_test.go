// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"strings"
	"testing"
)

func TestZoneLinkQuery(t *testing.T) {
	q := NewZoneLinkQuery([]ResourceID{"/X/VNet-B", "", "/x/vnet-a", "/x/vnet-b", `/x/it's\`})
	if got := strings.Join(q.VNets, " "); got != `/x/it's\ /x/vnet-a /x/vnet-b` {
		t.Errorf("VNets = %s, want the keys sorted, each once, blanks left out", got)
	}
	if !strings.Contains(q.KQL(), `'/x/it\'s\\'`) || !strings.Contains(q.KQL(), "'"+ZoneLinkType+"'") {
		t.Errorf("KQL quoting or type: %s", q.KQL())
	}
	link := "/x/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/l"
	if !q.Includes(link, "/X/VNET-A") || q.Includes(link, "/x/vnet-c") || !q.Includes(link, "") {
		t.Error("Includes does not follow the VNet set, case-insensitively, or drops a row that does not say its VNet")
	}
	if strings.Contains(q.KQL(), "zoneDomain") {
		t.Errorf("a query by VNet filters by zone domain: %s", q.KQL())
	}
	d := NewZoneDomainLinkQuery([]string{"privatelink.azurecr.io", "azurecr.io", "PRIVATELINK.AZURECR.CN", ""})
	if got := strings.Join(d.ZoneDomains, " "); got != "azurecr.cn azurecr.io" {
		t.Errorf("ZoneDomains = %s, want the domains sorted, each once", got)
	}
	if !strings.Contains(d.KQL(), "zoneDomain in ('azurecr.cn', 'azurecr.io')") || strings.Contains(d.KQL(), "vnetId in") {
		t.Errorf("KQL of the domain search: %s", d.KQL())
	}
	if !d.Includes(link, "/x/any-vnet") || d.Includes("/x/providers/Microsoft.Network/privateDnsZones/contoso.com/virtualNetworkLinks/l", "/x/any-vnet") || d.Includes("/x/not-a-link", "") {
		t.Error("Includes does not follow the zone domains")
	}
	const zl = "/x/providers/Microsoft.Network/privateDnsZones/z/virtualNetworkLinks/l"
	row, ok := q.Row(zl, map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": "/X/VNet-A"}}})
	if !ok || q.RowVNet(row) != "/x/vnet-a" || row["id"] != zl {
		t.Errorf("row %v %v", row, ok)
	}
	if _, ok := q.Row(zl, map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": "/x/vnet-c"}}}); ok {
		t.Error("a link to a VNet not asked for is a row")
	}
	if q.RowVNet(map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": "/x/v"}}}) != "/x/v" || q.RowVNet(map[string]any{}) != "" {
		t.Error("RowVNet of a whole resource or of a row without its VNet")
	}
}
