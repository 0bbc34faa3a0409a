// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

func TestCheckHostname(t *testing.T) {
	for _, ok := range []string{"harbor.corp.example", "Harbor.Corp.Example.", "contosoreg.westeurope.data.azurecr.io", "a-1.b2.c"} {
		if msg := validators.CheckHostname(ok); msg != "" {
			t.Errorf("%q: %s", ok, msg)
		}
	}
	for bad, want := range map[string]string{
		"":                               "empty",
		"https://harbor.corp.example":    "is a URL",
		"harbor.corp.example/library":    "contains a path",
		"harbor.corp.example:5000":       "port",
		"*.blob.core.windows.net":        "wildcards",
		"harbor":                         "single label",
		"10.0.2.5":                       "IP address",
		"harbor..corp":                   "empty label",
		"-harbor.corp":                   "hyphen",
		"härbor.corp":                    "punycode",
		strings.Repeat("a", 64) + ".com": "longer than 63",
		" harbor.corp.example":           "leading or trailing whitespace",
		"harbor.corp.example\n":          "leading or trailing whitespace",
		"harbor.corp.example blob.corp":  "contains whitespace",
		"http://harbor.corp.example":     "is a URL; remove the scheme",
		"harbor.corp.example/v2/library": "contains a path",
		"[fd00::5]":                      "port or is an IP address",
	} {
		if msg := validators.CheckHostname(bad); !strings.Contains(msg, want) {
			t.Errorf("%q: got %q, want it to say %q", bad, msg, want)
		}
	}
}

func TestCheckIPAddress(t *testing.T) {
	for _, ok := range []string{"10.0.2.5", "192.168.10.20", "fd00::5"} {
		if msg := validators.CheckIPAddress(ok); msg != "" {
			t.Errorf("%q: %s", ok, msg)
		}
	}
	for bad, want := range map[string]string{
		"10.0.2.0/24":  "prefix",
		"harbor":       "not an IP address",
		"fe80::1%eth0": "zone",
		"127.0.0.1":    "loopback",
		"0.0.0.0":      "unspecified",
		" 10.0.2.5":    "leading or trailing spaces",
		"10.0.2.256":   "not an IP address",
		"":             "not an IP address",
	} {
		if msg := validators.CheckIPAddress(bad); !strings.Contains(msg, want) {
			t.Errorf("%q: got %q, want it to say %q", bad, msg, want)
		}
	}
}

func TestAddressKeysNotInHosts(t *testing.T) {
	hosts := []string{"Harbor.corp.example", "blob.corp.example"}
	got := validators.AddressKeysNotInHosts(hosts, map[string]string{"harbor.corp.example.": "10.0.0.1", "harbour.corp.example": "10.0.0.2"})
	if len(got) != 1 || !strings.Contains(got[0], `"harbour.corp.example"`) {
		t.Errorf("got %q", got)
	}
}

// finding is a catalogue finding for the tests.
func finding(code model.Code, pool, host string, res model.ResourceID, fix string) model.Finding {
	return model.NewFinding(code, pool, host, res, string(code)+" message", fix)
}

func TestEnforcementDiagnostics(t *testing.T) {
	zone := model.ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io")
	vm := model.ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm-dns")
	broken := []model.Finding{
		finding(model.DNSZoneNotLinked, "system", "contosoreg.azurecr.io", zone, "link it"),
		finding(model.DNSZoneNotLinked, "user", "contosoreg.azurecr.io", zone, "link it"),
		finding(model.DNSForwarderUnverified, "system", "10.0.1.10", vm, "check forwarding"),
	}
	unverified := []model.Finding{
		finding(model.DNSForwarderUnverified, "system", "10.0.1.10", vm, "check forwarding"),
		finding(model.DNSForwarderUnverified, "user", "10.0.1.10", vm, "check forwarding"),
		finding(model.EvidenceNotFound, "", "", "", "look"),
		finding(model.CoverageRoutesComputed, "system", "", "", "nothing"),
	}
	result := func(fs []model.Finding) verify.Result {
		return verify.Result{Findings: fs, Verdict: model.VerdictOf(fs)}
	}
	count := func(d diag.Diagnostics) (errs, warns int) {
		return d.ErrorsCount(), d.WarningsCount()
	}

	// Unreachable: ONE error with each cause of the verdict once, naming
	// the other warnings, nothing else.
	d := enforcementDiagnostics(result(broken), true, false)
	if e, w := count(d); e != 1 || w != 0 {
		t.Fatalf("unreachable: %d errors, %d warnings", e, w)
	}
	text := d[0].Summary() + "\n" + d[0].Detail()
	for _, want := range []string{"Registry pull path broken: 2 errors, 1 warning",
		"[dns] DNS_ZONE_NOT_LINKED — node pools system, user → contosoreg.azurecr.io\n  DNS_ZONE_NOT_LINKED message\n  Fix: link it\n",
		"Also 1 warning that does not decide the verdict: DNS_FORWARDER_UNVERIFIED.", "summary attribute"} {
		if !strings.Contains(text, want) {
			t.Errorf("unreachable report lacks %q:\n%s", want, text)
		}
	}

	// Unverified without fail_on_unverified: one warning per cause.
	d = enforcementDiagnostics(result(unverified), true, false)
	if e, w := count(d); e != 0 || w != 2 {
		t.Fatalf("unverified: %d errors, %d warnings: %v", e, w, d)
	}
	if s, det := d[0].Summary(), d[0].Detail(); s != "Registry pull path: DNS_FORWARDER_UNVERIFIED" ||
		!strings.Contains(det, "[dns] DNS_FORWARDER_UNVERIFIED — node pools system, user → 10.0.1.10\n") ||
		!strings.Contains(det, "DNS_FORWARDER_UNVERIFIED message") || !strings.Contains(det, "Resource: "+string(vm)) {
		t.Errorf("warning = %q\n%s", s, det)
	}
	if !strings.Contains(d[1].Detail(), "[operator] EVIDENCE_NOT_FOUND — all node pools\n") {
		t.Errorf("evidence warning = %s", d[1].Detail())
	}

	// Unverified with fail_on_unverified: one error.
	d = enforcementDiagnostics(result(unverified), true, true)
	if e, w := count(d); e != 1 || w != 0 || !strings.Contains(d[0].Summary(), "fail_on_unverified") {
		t.Fatalf("fail_on_unverified: %v", d)
	}

	// enforce = false: never a diagnostic; reachable: none either.
	if d := enforcementDiagnostics(result(broken), false, true); len(d) != 0 {
		t.Errorf("enforce=false: %v", d)
	}
	if d := enforcementDiagnostics(result(unverified[3:]), true, true); len(d) != 0 {
		t.Errorf("reachable: %v", d)
	}
}

func TestVerificationState(t *testing.T) {
	ctx := context.Background()
	res := verify.Result{
		Verdict:  model.Reachable,
		Findings: nil,
		Paths:    []verify.Path{{NodePool: "system", Host: "contosoreg.azurecr.io", RouteSource: verify.RouteSourceComputed, Verdict: model.Reachable}},
		Summary:  "ok",
	}
	s, diags := verificationState(ctx, res, 22, 1500*time.Millisecond)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if s.Findings.IsNull() || len(s.Findings.Elements()) != 0 {
		t.Errorf("findings = %v, want an empty list", s.Findings)
	}
	hops := s.Paths.Elements()[0].(types.Object).Attributes()["hops"].(types.List)
	if hops.IsNull() || len(hops.Elements()) != 0 {
		t.Errorf("hops = %v, want an empty list", hops)
	}
	want := map[string]attr.Value{"arm_requests": types.Int64Value(22), "duration_ms": types.Int64Value(1500)}
	for k, v := range want {
		if got := s.Stats.Attributes()[k]; !got.Equal(v) {
			t.Errorf("stats.%s = %v, want %v", k, got, v)
		}
	}
	if !s.Reachable.ValueBool() || s.Verdict.ValueString() != "reachable" {
		t.Errorf("verdict %v reachable %v", s.Verdict, s.Reachable)
	}
}

func TestVerificationRequest(t *testing.T) {
	ctx := context.Background()
	str := func(ss ...string) []attr.Value {
		out := make([]attr.Value, len(ss))
		for i, s := range ss {
			out[i] = types.StringValue(s)
		}
		return out
	}
	block := types.ObjectValueMust(map[string]attr.Type{"hosts": types.ListType{ElemType: types.StringType}, "addresses": types.MapType{ElemType: types.StringType}},
		map[string]attr.Value{
			"hosts":     types.ListValueMust(types.StringType, str("Harbor.corp.example")),
			"addresses": types.MapValueMust(types.StringType, map[string]attr.Value{"harbor.corp.example.": types.StringValue("192.168.10.20")}),
		})
	m := verificationModel{
		ClusterID:           types.StringValue("/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/managedClusters/aks1"),
		NodeSubnetIDs:       types.ListNull(types.StringType),
		NodePools:           types.SetValueMust(types.StringType, str("user")),
		RegistryID:          types.StringNull(),
		Registry:            block,
		ZoneSubscriptionIDs: types.SetValueMust(types.StringType, str("00000000-0000-0000-0000-000000000002")),
	}
	q, diags := verificationRequest(ctx, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if q.Declared == nil || q.Declared.Hosts[0] != "Harbor.corp.example" || q.Declared.Addresses["harbor.corp.example"].String() != "192.168.10.20" ||
		len(q.NodePools) != 1 || len(q.ZoneSubscriptionIDs) != 1 || q.ClusterID.Name() != "aks1" || !q.RegistryID.IsZero() {
		t.Errorf("request = %+v declared %+v", q, q.Declared)
	}
}

func TestDuplicateHosts(t *testing.T) {
	if got := validators.DuplicateHosts([]string{"harbor.corp.example", "blob.corp.example"}); len(got) != 0 {
		t.Errorf("distinct hosts reported: %v", got)
	}
	got := validators.DuplicateHosts([]string{"harbor.corp.example", "blob.corp.example", "Harbor.Corp.Example."})
	if len(got) != 1 || !strings.Contains(got[0], `"harbor.corp.example" and "Harbor.Corp.Example."`) || !strings.Contains(got[0], "Keep one") {
		t.Errorf("got %v", got)
	}
}
