// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"strings"
	"testing"
)

func TestMarkdownOfAFailingVerification(t *testing.T) {
	r := Build(failing())
	md := string(Markdown(r))
	for _, want := range []string{
		"## pullpath: AKS1 → contosoreg: ❌ unreachable\n",
		"**1 error, 1 warning, 1 note.** The plan fails (`enforce`).",
		"- cluster: `" + cluster + "`",
		"- node pools: system, user",
		"- read as after the saved plan: 1 changes applied, 1 read as they are now",
		"```mermaid\n" + strings.TrimRight(r.Diagram, "\n") + "\n```\n",
		"| severity | code | owner | where | what is wrong | fix |",
		"[`DNS_ZONE_NOT_LINKED`](" + TroubleshootingURL + "#dns_zone_not_linked)",
		"| node pool system → contosoreg.azurecr.io |",
		// A '|' and a line break in a message stay in their cell; HTML is escaped.
		"vnet-spoke \\| so the name resolves publicly.<br>Second line &lt;b&gt;.",
		"<br>after the planned change azurerm_route_table.spoke",
		// The summary holds ``` itself: its fence is longer.
		"````text\n" + r.Summary + "\n````\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if got := strings.Count(md, "\n| error |") + strings.Count(md, "\n| warning |") + strings.Count(md, "\n| info |"); got != len(r.Findings) {
		t.Errorf("%d finding rows, want %d", got, len(r.Findings))
	}
}

func TestMarkdownOfAPassingVerification(t *testing.T) {
	md := string(Markdown(Build(passing())))
	for _, want := range []string{
		"## pullpath: snet-a, snet-b → harbor.corp.example.com: ✅ reachable",
		"The plan does not fail.",
		"- node subnet: `" + subnetA + "`",
		"- registry hosts: harbor.corp.example.com, blob.corp.example.com",
		"No findings.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| severity |") {
		t.Error("a verification without findings has a findings table")
	}
}

func TestMarkdownShowsAcceptance(t *testing.T) {
	md := string(Markdown(accepted()))
	if !strings.Contains(md, "| warning (accepted until 2027-06-30: the hub appliance is owned by a third party) |") {
		t.Errorf("the accepted finding's row does not say so:\n%s", md)
	}
}

func TestMarkdownPolicy(t *testing.T) {
	cases := map[Policy]string{
		{Enforce: true, FailOnUnverified: true, FailsPlan: true}: "The plan fails (`enforce`, `fail_on_unverified`).",
		{Enforce: true, FailsPlan: true}:                         "The plan fails (`enforce`).",
		{Enforce: false}:                                         "The plan does not fail on findings (`enforce = false`).",
		{Enforce: true}:                                          "The plan does not fail.",
	}
	for p, want := range cases {
		if got := policyText(p); got != want {
			t.Errorf("policyText(%+v) = %q, want %q", p, got, want)
		}
	}
}
