package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A resource no read of which failed is not among the facts because it
// was not read: its finding says so and never asks for a permission; a
// read that Azure answered 404 keeps the words of a missing resource.
func TestUnreadGapAsksForNoPermission(t *testing.T) {
	id := model.ResourceID("/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-transit")
	cases := []struct {
		name       string
		gap        model.Gap
		wantMsg    string
		permission bool // the remediation speaks of granting access
	}{
		{"never read", model.UnreadGap(id, "its routes are unknown"), "was not read (its routes are unknown); no read of it was refused", false},
		{"never read, own remedy", func() model.Gap {
			g := model.UnreadGap(id, "x")
			g.Remediation = "Connect it."
			return g
		}(), "was not read (x)", false},
		{"answered 404", model.Gap{ResourceID: id, Kind: model.GapNotFound, Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 404"}, "was not found (HTTP 404)", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []evidenceWords{pullPathWords, networkPathWords} {
				f := w.gapFinding(tc.gap, "system", "", "the route")
				if f.Code != model.EvidenceNotFound {
					t.Fatalf("code %s, want EVIDENCE_NOT_FOUND", f.Code)
				}
				if !strings.Contains(f.Message, tc.wantMsg) {
					t.Errorf("message %q lacks %q", f.Message, tc.wantMsg)
				}
				asks := strings.Contains(f.Remediation, "Reader") || strings.Contains(strings.ToLower(f.Remediation), "grant")
				if asks != tc.permission {
					t.Errorf("remediation asks for a permission: %v, want %v: %s", asks, tc.permission, f.Remediation)
				}
				if tc.gap.Remediation != "" && f.Remediation != tc.gap.Remediation {
					t.Errorf("remediation %q, want the gap's own %q", f.Remediation, tc.gap.Remediation)
				}
			}
		})
	}
}

// r.evidence for a resource not among the facts and with no failed read.
func TestEvidenceOfUnreadResource(t *testing.T) {
	id := model.ResourceID("/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg")
	r := &run{gaps: model.Gaps{}, used: map[string]bool{}}
	f := r.evidence("system", "contosoreg.azurecr.io", id, "the security rules")
	if f.Code != model.EvidenceNotFound || strings.Contains(f.Remediation, "Reader") || !strings.Contains(f.Message, "was not read") {
		t.Errorf("unread resource: %s %q / %q", f.Code, f.Message, f.Remediation)
	}
	denied := model.Gap{ResourceID: id, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkSecurityGroups/read"}
	r.gaps.Add(denied)
	if f := r.evidence("system", "contosoreg.azurecr.io", id, "the security rules"); f.Code != model.EvidencePermissionDenied || !strings.Contains(f.Remediation, denied.Permission) {
		t.Errorf("refused read: %s %q", f.Code, f.Remediation)
	}
}
