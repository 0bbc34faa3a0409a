package snapshot

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestReplayVNetListActionsEmptyWhenAbsent: the security admin rules and
// the DNS security policies of a VNet the snapshot holds, without an entry
// of their own, are the empty list Azure answers for a VNet nothing
// reaches; for a VNet the snapshot does not hold they are 404, and another
// action without an entry stays 404.
func TestReplayVNetListActionsEmptyWhenAbsent(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	for _, action := range []string{"listNetworkManagerEffectiveSecurityAdminRules", "listDnsResolverPolicies"} {
		status, _, body := send(t, r, http.MethodPost, fxHub+"/"+action+"?api-version=2025-05-01")
		var got struct{ Value []any }
		if status != http.StatusOK || json.Unmarshal(body, &got) != nil || got.Value == nil || len(got.Value) != 0 {
			t.Errorf("%s of a VNet the snapshot holds: %d %s, want 200 with an empty list", action, status, body)
		}
		missing := sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/absent"
		if status, _, body := send(t, r, http.MethodPost, missing+"/"+action); status != http.StatusNotFound {
			t.Errorf("%s of a VNet the snapshot does not hold: %d %s, want 404", action, status, body)
		}
	}
	if status, _, body := send(t, r, http.MethodPost, fxHub+"/listDnsForwardingRulesets"); status != http.StatusNotFound {
		t.Errorf("another VNet action without an entry: %d %s, want 404", status, body)
	}
}
