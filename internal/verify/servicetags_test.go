// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// publicDataRegistry makes the baseline registry public with its data
// endpoint kept: no private endpoint,
// no private zone, public network access allowed. Its login server and
// data endpoint resolve to public addresses in AzureContainerRegistry.westeurope.
func publicDataRegistry(f *model.Facts) {
	delete(f.Network.PrivateEndpoints, peID.Key())
	delete(f.Network.NICs, peNICID.Key())
	f.Registry.PrivateEndpointConnections = nil
	f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Allow"
	f.DNS = model.NewDNS()
	f.DNS.ZoneSearchComplete = true
}

func westEuropeTags(t *testing.T) *model.ServiceTags {
	t.Helper()
	tags, err := model.NewServiceTags(model.ServiceTagsID("00000000-0000-0000-0000-000000000001", "westeurope"), "westeurope", "Public", "9", []model.ServiceTag{
		{Name: "AzureContainerRegistry", Prefixes: pfxs("20.61.0.0/27", "51.12.0.0/24")},
		{Name: "AzureContainerRegistry.WestEurope", Region: "westeurope", Prefixes: pfxs("20.61.0.0/27")},
		{Name: "Storage.WestEurope", Region: "westeurope", Prefixes: pfxs("20.60.0.0/17")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

// TestSecurityOnPublicPathWithServiceTags: the registry's public address
// is only known as a member of AzureContainerRegistry.<region>; with the
// service tags read, a rule naming a tag is decided over the tag's
// members, and without them it stays unverified as before.
func TestSecurityOnPublicPathWithServiceTags(t *testing.T) {
	denyACR := secRule("DenyAcr", 100, "Outbound", "Deny", "Tcp", "*", "AzureContainerRegistry", "443")
	allowACR := secRule("AllowAcrWE", 100, "Outbound", "Allow", "Tcp", "*", "AzureContainerRegistry.WestEurope", "443")
	denyInternet := secRule("DenyInternet", 200, "Outbound", "Deny", "*", "*", "Internet", "*")
	denyStorage := secRule("DenyStorage", 100, "Outbound", "Deny", "Tcp", "*", "Storage.WestEurope", "443")
	tests := []struct {
		name     string
		rules    []model.SecurityRule
		tags     bool
		verdict  model.Verdict
		code     model.Code
		contains []string
	}{
		{name: "deny to the registry's tag, tags read", rules: []model.SecurityRule{denyACR}, tags: true, verdict: model.Unreachable, code: model.SecurityOutboundDenied,
			contains: []string{"DenyAcr", "to the registry's public address (in service tag AzureContainerRegistry.WestEurope) port 443 (flow TCP 10.1.0.0/22 -> the registry's public address:443)"}},
		{name: "deny to the registry's tag, tags not read", rules: []model.SecurityRule{denyACR}, verdict: model.Unverified, code: model.SecurityUnverified,
			contains: []string{"DenyAcr", "AzureContainerRegistry"}},
		{name: "allow the registry's regional tag before denying Internet, tags read", rules: []model.SecurityRule{allowACR, denyInternet}, tags: true, verdict: model.Reachable},
		{name: "… tags not read", rules: []model.SecurityRule{allowACR, denyInternet}, verdict: model.Unverified, code: model.SecurityUnverified,
			contains: []string{"AllowAcrWE", "AzureContainerRegistry.WestEurope"}},
		{name: "deny to another service's tag, tags read", rules: []model.SecurityRule{denyStorage}, tags: true, verdict: model.Reachable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			publicDataRegistry(&f)
			withNSG(f, aksSubnetID, nsgAKSID, tc.rules...)
			if tc.tags {
				f.Network.SetServiceTags("westeurope", westEuropeTags(t))
			}
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if tc.code == "" {
				return
			}
			fs := findingsOf(res, tc.code)
			if len(fs) == 0 {
				t.Fatalf("no %s in %+v", tc.code, res.Findings)
			}
			for _, want := range tc.contains {
				if !strings.Contains(fs[0].Message, want) {
					t.Errorf("message %q lacks %q", fs[0].Message, want)
				}
			}
		})
	}
}

// TestServiceTagsReadFailureIsEvidence: when the read of the service tags
// failed, a rule that names a tag stays unverified, and the failed read is
// an evidence finding naming the read and the permission.
func TestServiceTagsReadFailureIsEvidence(t *testing.T) {
	f := baselineFacts()
	publicDataRegistry(&f)
	withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAcr", 100, "Outbound", "Deny", "Tcp", "*", "AzureContainerRegistry", "443"))
	gap := model.Gap{ResourceID: model.ServiceTagsID("00000000-0000-0000-0000-000000000001", "westeurope"), Kind: model.GapPermissionDenied,
		Permission: "Microsoft.Network/locations/serviceTags/read", Detail: "HTTP 403 AuthorizationFailed"}
	f.Network.SetServiceTagGap("westeurope", gap)
	f.Gaps.Add(gap)
	res := Run(f)
	if res.Verdict != model.Unverified {
		t.Fatalf("verdict %s: %+v", res.Verdict, res.Findings)
	}
	if fs := findingsOf(res, model.SecurityUnverified); len(fs) == 0 || !strings.Contains(fs[0].Message, "the service tag list could not be read") {
		t.Errorf("SECURITY_RULE_UNVERIFIED: %+v", fs)
	}
	found := false
	for _, e := range findingsOf(res, model.EvidencePermissionDenied) {
		found = found || (e.ResourceID.Equal(gap.ResourceID) && strings.Contains(e.Message, gap.Permission) && strings.Contains(e.Message, "the service tags of westeurope"))
	}
	if !found {
		t.Errorf("no EVIDENCE_PERMISSION_DENIED naming the read: %+v", res.Findings)
	}
}
