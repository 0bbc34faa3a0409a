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
	if !q.Includes("/X/VNET-A") || q.Includes("/x/vnet-c") || q.Includes("") {
		t.Error("Includes does not follow the VNet set, case-insensitively")
	}
	row := q.Row("/x/zone/virtualNetworkLinks/l", "/X/VNet-A")
	if q.RowVNet(row) != "/x/vnet-a" || row["id"] != "/x/zone/virtualNetworkLinks/l" {
		t.Errorf("row %v", row)
	}
	if q.RowVNet(map[string]any{"properties": map[string]any{"virtualNetwork": map[string]any{"id": "/x/v"}}}) != "/x/v" || q.RowVNet(map[string]any{}) != "" {
		t.Error("RowVNet of a whole resource or of a row without its VNet")
	}
}
