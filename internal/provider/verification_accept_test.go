// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// The accept blocks of pullpath_verification, through the CLIs. The test
// provider's day is testToday (2026-06-15).

const (
	accMCRHosts = `registry {
  hosts = ["mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"]
}`
	accNVANIC = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva"
)

// acceptBody is a verification of the appliance hub (egress_appliance)
// that fails on unverified, with the given accept blocks.
func acceptBody(blocks ...string) string {
	return fmt.Sprintf("cluster_id = %q\n%s\nenforce = true\nfail_on_unverified = true\n%s", accCluster, accMCRHosts, strings.Join(blocks, "\n"))
}

// acceptBlockText is one accept block; empty arguments are left out.
func acceptBlockText(code, reason, expires, extra string) string {
	var b strings.Builder
	b.WriteString("accept {\n")
	for _, kv := range [][2]string{{"code", code}, {"reason", reason}, {"expires", expires}} {
		if kv[1] != "-" {
			fmt.Fprintf(&b, "  %s = %q\n", kv[0], kv[1])
		}
	}
	b.WriteString(extra)
	b.WriteString("}\n")
	return b.String()
}

// TestAccVerificationAccept_validation: each bad accept block is an error
// on that block's attribute at validation, before anything is read, and
// says what to write instead.
func TestAccVerificationAccept_validation(t *testing.T) {
	snap := scenarioSnapshot(t, "egress_appliance")
	tests := []struct {
		name  string
		block string
		want  string
	}{
		{"a typo of a code", acceptBlockText("EGRESS_UNVERIFED", "NET-42", "2026-12-31", ""),
			`(?s)Unknown\s+finding\s+code.*accept\[0\]\.code.*did\s+you\s+mean\s+"EGRESS_UNVERIFIED"`},
		{"an empty reason", acceptBlockText("EGRESS_UNVERIFIED", "   ", "2026-12-31", ""),
			`(?s)Missing\s+reason\s+for\s+an\s+accept\s+block.*accept\[0\]\.reason\s+is\s+empty`},
		{"a date not written YYYY-MM-DD", acceptBlockText("EGRESS_UNVERIFIED", "NET-42", "31/12/2026", ""),
			`(?s)Invalid\s+expiry\s+date.*accept\[0\]\.expires.*not\s+a\s+date\s+written\s+YYYY-MM-DD`},
		{"a date more than 366 days ahead", acceptBlockText("EGRESS_UNVERIFIED", "NET-42", "2027-06-17", ""),
			`(?s)Invalid\s+expiry\s+date.*more\s+than\s+366\s+days\s+after\s+today\s+\(2026-06-15,\s+UTC\).*2027-06-16`},
		{"evidence about the cluster", acceptBlockText("EVIDENCE_NOT_FOUND", "NET-42", "2026-12-31", fmt.Sprintf("  resource_id = %q\n", accCluster)),
			`(?s)Finding\s+that\s+cannot\s+be\s+accepted.*asked\s+to\s+check`},
		{"a missing expires", acceptBlockText("EGRESS_UNVERIFIED", "NET-42", "-", ""), `(?s)expires.*required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				Steps: []resource.TestStep{{
					Config:      verificationWith(snap, acceptBody(tt.block)),
					ExpectError: regexp.MustCompile(tt.want),
				}},
			})
		})
	}
}

// TestAccVerificationAccept_failOnUnverified: the appliance hub fails a
// plan with fail_on_unverified; an accept block in force for its
// EGRESS_UNVERIFIED lets it pass (verdict reachable, the findings kept with
// accepted), the same block past its date fails it again and names
// itself, and a block that matches nothing is reported.
func TestAccVerificationAccept_failOnUnverified(t *testing.T) {
	appliance := scenarioSnapshot(t, "egress_appliance")
	baseline := scenarioSnapshot(t, "baseline_ok")
	inForce := acceptBlockText("EGRESS_UNVERIFIED", "vm-nva allows the registry hosts (NET-42)", "2026-06-15", fmt.Sprintf("  resource_id = %q\n", strings.ToUpper(accNVANIC)))
	expired := acceptBlockText("EGRESS_UNVERIFIED", "vm-nva allows the registry hosts (NET-42)", "2026-06-14", "")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      verificationWith(appliance, acceptBody()),
				ExpectError: regexp.MustCompile(`(?s)unverified\s+\(fail_on_unverified\).*EGRESS_UNVERIFIED`),
			},
			{
				Config: verificationWith(appliance, acceptBody(inForce)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("paths").AtSliceIndex(0).AtMapKey("verdict"), knownvalue.StringExact("reachable")),
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("summary"),
						knownvalue.StringRegexp(regexp.MustCompile(`(?s)EGRESS_UNVERIFIED — node pools system, user → .*\s+— until 2026-06-15 — vm-nva allows`))),
					findingsCheck{include: []string{"EGRESS_UNVERIFIED"}, exclude: []string{"COVERAGE_ACCEPTANCE_UNUSED", "COVERAGE_ACCEPTANCE_EXPIRED"},
						expect: &scenarioExpect{Accepted: []string{"EGRESS_UNVERIFIED"}}},
				},
			},
			{
				Config:      verificationWith(appliance, acceptBody(expired)),
				ExpectError: regexp.MustCompile(`(?s)unverified\s+\(fail_on_unverified\).*EGRESS_UNVERIFIED.*does\s+not\s+decide\s+the\s+verdict:\s+COVERAGE_ACCEPTANCE_EXPIRED`),
			},
			{
				Config: verificationWith(baseline, fmt.Sprintf("cluster_id = %q\nregistry_id = %q\nfail_on_unverified = true\n%s", accCluster, accRegistry,
					acceptBlockText("EGRESS_UNVERIFIED", "old appliance (NET-42)", "2026-09-30", "  node_pool = \"user\"\n"))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
					findingsCheck{include: []string{"COVERAGE_ACCEPTANCE_UNUSED"}, exclude: []string{"EGRESS_UNVERIFIED"}, expect: &scenarioExpect{}},
				},
			},
		},
	})
}

// TestAcceptValidationInProcess: validation puts each error on the block's
// attribute; a date in the past is no validation error (the read reports
// the block as expired); and the read checks again what validation could
// not see (values unknown then), on the same attributes.
func TestAcceptValidationInProcess(t *testing.T) {
	snap := scenarioSnapshot(t, "egress_appliance")
	config := func(block map[string]any) map[string]any {
		return map[string]any{
			"cluster_id": accCluster,
			"registry":   map[string]any{"hosts": []string{"mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"}},
			"enforce":    false,
			"accept":     []map[string]any{block},
		}
	}
	block := func(edit func(map[string]any)) map[string]any {
		b := map[string]any{"code": "EGRESS_UNVERIFIED", "reason": "NET-42", "expires": "2026-12-31"}
		edit(b)
		return b
	}
	tests := []struct {
		name      string
		edit      func(map[string]any)
		attribute string
		detail    string
	}{
		{"typo", func(b map[string]any) { b["code"] = "EGRES_UNVERIFIED" }, "code", `did you mean "EGRESS_UNVERIFIED"`},
		{"blank reason", func(b map[string]any) { b["reason"] = " \t" }, "reason", "is empty"},
		{"bad date", func(b map[string]any) { b["expires"] = "2026-02-30" }, "expires", "not a date written YYYY-MM-DD"},
		{"too far", func(b map[string]any) { b["expires"] = "2027-06-17" }, "expires", "more than 366 days"},
		{"evidence about a node pool of the cluster", func(b map[string]any) {
			b["code"], b["resource_id"] = "EVIDENCE_NOT_FOUND", strings.ToLower(accCluster)+"/agentPools/gpu"
		}, "resource_id", "asked to check"},
		{"an acceptance code", func(b map[string]any) { b["code"] = "COVERAGE_ACCEPTANCE_UNUSED" }, "code", "about an accept block itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readDataSource(t, snap, "pullpath_verification", config(block(tt.edit)))
			if got.State != nil || len(got.Diagnostics) != 1 {
				t.Fatalf("want exactly one validation error and no read, got %+v", got.Diagnostics)
			}
			d := got.Diagnostics[0]
			wantAttr := fmt.Sprintf(`AttributeName("accept").ElementKeyInt(0).AttributeName(%q)`, tt.attribute)
			if d.Severity != "error" || d.Attribute != wantAttr || !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("got %s on %s: %s\nwant an error on %s containing %q", d.Severity, d.Attribute, d.Detail, wantAttr, tt.detail)
			}
		})
	}

	t.Run("a past date validates, and the read reports the block", func(t *testing.T) {
		got := readDataSource(t, snap, "pullpath_verification", config(block(func(b map[string]any) { b["expires"] = "2025-01-31" })))
		if len(got.Diagnostics) != 0 {
			t.Fatalf("diagnostics %+v", got.Diagnostics)
		}
		state, _ := got.State.(map[string]any)
		if state["verdict"] != "unverified" || !strings.Contains(fmt.Sprint(state["findings"]), "COVERAGE_ACCEPTANCE_EXPIRED") {
			t.Errorf("verdict %v, findings %v", state["verdict"], state["findings"])
		}
	})

	t.Run("the read checks again", func(t *testing.T) {
		for _, tt := range tests {
			b := block(tt.edit)
			in := provider.VerificationInput{Snapshot: snap, ClusterID: accCluster, Today: testToday,
				RegistryHosts: []string{"mcr.microsoft.com", "westeurope.data.mcr.microsoft.com"}}
			in.Accept = []map[string]string{{}}
			for k, v := range b {
				in.Accept[0][k] = v.(string)
			}
			out, err := provider.RunVerification(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Diagnostics.HasError() || out.Verdict != "" {
				t.Errorf("%s: the read went on: verdict %q, %v", tt.name, out.Verdict, out.Diagnostics)
				continue
			}
			d := out.Diagnostics.Errors()[0]
			wd, ok := d.(interface{ Path() path.Path })
			if !ok || !wd.Path().Equal(path.Root("accept").AtListIndex(0).AtName(tt.attribute)) || !strings.Contains(d.Detail(), tt.detail) {
				t.Errorf("%s: %s: %s", tt.name, d.Summary(), d.Detail())
			}
		}
	})
}
