// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// pull_credentials decides what step 4 of the chain checks: the kubelet
// identity's roles (the default), nothing but a note for an
// imagePullSecret, the registry's anonymous pull setting for anonymous
// pulls. A registry with anonymous pull enabled needs no role whatever the
// argument.
func TestPullCredentials(t *testing.T) {
	noRoles := func(f *model.Facts) { f.RoleAssignments = nil }
	creds := func(c model.PullCredentials) func(f *model.Facts) {
		return func(f *model.Facts) { f.PullCredentials = c }
	}
	anonymousEnabled := func(f *model.Facts) { f.Registry.AnonymousPullEnabled = true }
	subnetsOnly := func(f *model.Facts) { f.Cluster = nil }
	harbor := func(f *model.Facts) {
		f.Registry = nil
		f.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}, Addresses: map[string]netip.Addr{"harbor.corp.example": ip("192.168.10.20")}}
	}
	tests := []struct {
		name    string
		mutate  []func(f *model.Facts)
		want    []model.Code
		verdict model.Verdict
		note    string
	}{
		{"default is the kubelet identity: no role, refused", []func(*model.Facts){noRoles}, []model.Code{model.IdentityPullRoleMissing}, model.Unreachable, ""},
		{"kubelet identity spelled out", []func(*model.Facts){noRoles, creds(model.PullKubeletIdentity)}, []model.Code{model.IdentityPullRoleMissing}, model.Unreachable, ""},
		{"image pull secret: the identity's missing role is not judged, a note says so", []func(*model.Facts){noRoles, creds(model.PullImagePullSecret)},
			[]model.Code{model.CoverageIdentityNotChecked}, model.Reachable, "pull_credentials = image_pull_secret"},
		{"anonymous, registry does not allow it: refused although the identity holds AcrPull", []func(*model.Facts){creds(model.PullAnonymous)},
			[]model.Code{model.IdentityAnonymousPull}, model.Unreachable, "Pulls are anonymous"},
		{"anonymous, registry allows it", []func(*model.Facts){noRoles, creds(model.PullAnonymous), anonymousEnabled}, nil, model.Reachable, "No pull identity needed"},
		{"anonymous pull enabled needs no role with the kubelet identity either", []func(*model.Facts){noRoles, anonymousEnabled}, nil, model.Reachable, "No pull identity needed"},
		{"anonymous pull enabled needs no note with an image pull secret", []func(*model.Facts){noRoles, creds(model.PullImagePullSecret), anonymousEnabled}, nil, model.Reachable, ""},
		{"anonymous with nodes given as subnets still needs the registry setting", []func(*model.Facts){subnetsOnly, creds(model.PullAnonymous)},
			[]model.Code{model.IdentityAnonymousPull}, model.Unreachable, ""},
		{"image pull secret with nodes given as subnets: nothing to check", []func(*model.Facts){subnetsOnly, creds(model.PullImagePullSecret)}, nil, model.Reachable, ""},
		{"a registry that is not an ACR: no setting to check", []func(*model.Facts){harbor, creds(model.PullAnonymous)}, nil, model.Reachable, "not an Azure Container Registry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := baselineFacts()
			for _, m := range tt.mutate {
				m(&f)
			}
			res := verifyFake(t, f, nil)
			onlyCodes(t, res, tt.want...)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			if tt.note != "" {
				requireContains(t, res.Summary, tt.note)
			}
			for _, c := range tt.want {
				for _, fd := range findingsWith(res, c) {
					if fd.Endpoint != loginHost || !fd.ResourceID.Equal(registryID) {
						t.Errorf("%s on %q at %s, want the login server and the registry", c, fd.Endpoint, fd.ResourceID)
					}
				}
			}
		})
	}

	f := baselineFacts()
	f.PullCredentials = model.PullAnonymous
	a := findingsWith(verifyFake(t, f, nil), model.IdentityAnonymousPull)
	if len(a) != 2 || a[0].Owner != model.OwnerRegistry || a[0].Severity != model.SeverityError {
		t.Fatalf("findings %+v", a)
	}
	requireContains(t, a[0].Message, "anonymousPullEnabled is false", "401")
	requireContains(t, a[0].Remediation, "az acr update -n contosoreg --anonymous-pull-enabled true", "pull_credentials = kubelet_identity")

	f = baselineFacts()
	f.PullCredentials = model.PullImagePullSecret
	n := findingsWith(verifyFake(t, f, nil), model.CoverageIdentityNotChecked)
	if len(n) != 2 || n[0].Severity != model.SeverityInfo || n[0].Owner != model.OwnerOperator {
		t.Fatalf("findings %+v", n)
	}
	requireContains(t, n[0].Message, "not checked", "pull_credentials = image_pull_secret")
}
