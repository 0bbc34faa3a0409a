// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Role assignments are read only when the pull uses the kubelet identity:
// with an imagePullSecret or anonymous pulls nothing is asked (a plan
// identity without Microsoft.Authorization/roleAssignments/read is then no
// gap), with the kubelet identity they are, and their 403 is evidence.
func TestVerificationFactsPullCredentials(t *testing.T) {
	coll := acr + "/providers/Microsoft.Authorization/roleAssignments"
	tests := []struct {
		creds   model.PullCredentials
		reads   bool
		verdict model.Verdict
		code    model.Code
	}{
		{"", true, model.Unverified, model.EvidencePermissionDenied},
		{model.PullKubeletIdentity, true, model.Unverified, model.EvidencePermissionDenied},
		{model.PullImagePullSecret, false, model.Reachable, model.CoverageIdentityNotChecked},
		{model.PullAnonymous, false, model.Unreachable, model.IdentityAnonymousPull},
	}
	for _, tt := range tests {
		t.Run(string(tt.creds.OrDefault())+"/"+string(tt.creds), func(t *testing.T) {
			r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
				m["faults"] = map[string]any{"GET " + string(coll): map[string]any{"status": 403, "code": "AuthorizationFailed"}}
			})
			q := acrRequest
			q.PullCredentials = tt.creds
			f, res := verifyFacts(t, r, q)
			if got := ct.count("GET", coll) > 0; got != tt.reads {
				t.Errorf("role assignments read %d times, want read = %v", ct.count("GET", coll), tt.reads)
			}
			if f.PullCredentials != tt.creds.OrDefault() {
				t.Errorf("facts pull credentials %q", f.PullCredentials)
			}
			if res.Verdict != tt.verdict || !codes(res)[tt.code] {
				t.Errorf("verdict %s codes %v, want %s with %s\n%s", res.Verdict, codes(res), tt.verdict, tt.code, res.Summary)
			}
		})
	}
	q := acrRequest
	q.PullCredentials = "service_principal"
	if err := q.Validate(); err == nil {
		t.Error("an unknown pull_credentials value was accepted")
	}
}
