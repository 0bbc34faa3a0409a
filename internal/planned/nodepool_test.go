// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package planned

import "testing"

// TestNodePoolPublicIPSettings: a pool's node public IP settings are
// translated when known; one known only after apply is an unknown member
// of the pool, never read as false or as no prefix.
func TestNodePoolPublicIPSettings(t *testing.T) {
	cluster := rgSpk + "/providers/Microsoft.ContainerService/managedClusters/aks1"
	prefix := rgSpk + "/providers/Microsoft.Network/publicIPPrefixes/ippre-nodes"
	pool := func(vals map[string]any) map[string]any {
		out := map[string]any{"name": "system", "kubernetes_cluster_id": cluster, "vnet_subnet_id": aksSn, "node_count": 2}
		for k, v := range vals {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name        string
		after       map[string]any
		unknown     map[string]any
		wantEnabled bool
		wantPrefix  string
		wantUnknown []string
	}{
		{name: "enabled, no prefix", after: pool(map[string]any{"node_public_ip_enabled": true}), wantEnabled: true},
		{name: "enabled from a prefix", after: pool(map[string]any{"node_public_ip_enabled": true, "node_public_ip_prefix_id": prefix}), wantEnabled: true, wantPrefix: prefix},
		{name: "the azurerm 3.x name", after: pool(map[string]any{"enable_node_public_ip": true}), wantEnabled: true},
		{name: "off", after: pool(map[string]any{"node_public_ip_enabled": false})},
		{name: "enabled known only after apply", after: pool(nil), unknown: map[string]any{"node_public_ip_enabled": true},
			wantUnknown: []string{"properties.enableNodePublicIP"}},
		{name: "prefix known only after apply", after: pool(map[string]any{"node_public_ip_enabled": true}), unknown: map[string]any{"node_public_ip_prefix_id": true},
			wantEnabled: true, wantUnknown: []string{"properties.nodePublicIPPrefixID"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, planSpec{changes: []rc{{addr: "azurerm_kubernetes_cluster_node_pool.system", actions: []string{"create"}, after: tt.after, unknown: tt.unknown}}, providerSub: sub1}, Options{})
			var op *Op
			for i := range p.Ops {
				if p.Ops[i].ID == cluster+"/agentPools/system" {
					op = &p.Ops[i]
				}
			}
			if op == nil {
				t.Fatalf("no op for the pool: %+v", p.Ops)
			}
			props, _ := op.Body["properties"].(map[string]any)
			if props["enableNodePublicIP"] != tt.wantEnabled {
				t.Errorf("enableNodePublicIP %v, want %v", props["enableNodePublicIP"], tt.wantEnabled)
			}
			if got, _ := props["nodePublicIPPrefixID"].(string); got != tt.wantPrefix {
				t.Errorf("nodePublicIPPrefixID %q, want %q", got, tt.wantPrefix)
			}
			for _, u := range tt.wantUnknown {
				if !hasUnknown(*op, u) {
					t.Errorf("%s not unknown: %v", u, op.Unknown)
				}
			}
			for _, m := range []string{"properties.enableNodePublicIP", "properties.nodePublicIPPrefixID"} {
				if hasUnknown(*op, m) && !contains(tt.wantUnknown, m) {
					t.Errorf("%s unknown, though known: %v", m, op.Unknown)
				}
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
