// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/schemacheck"
)

// sarifLogOf decodes a log into the package's own types.
func sarifLogOf(t *testing.T, data []byte) sarifLog {
	t.Helper()
	var l sarifLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return l
}

// accepted is failing() with its warning accepted.
func accepted() Report {
	r := Build(failing())
	r.Findings[1].Accepted = &Accepted{Reason: "the hub appliance is owned by a third party", Expires: "2027-06-30"}
	return r
}

func TestSARIFIsValid(t *testing.T) {
	for name, r := range map[string]Report{"failing": Build(failing()), "passing": Build(passing()), "accepted": accepted()} {
		t.Run(name, func(t *testing.T) {
			data := SARIF(r)
			if err := schemacheck.SARIF(data); err != nil {
				t.Fatalf("not valid SARIF 2.1.0:\n%v", err)
			}
		})
	}
	if schemacheck.SARIF([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`)) == nil {
		t.Fatal("the SARIF schema accepts a driver without a name: the check checks nothing")
	}
}

func TestSARIFHasOneRulePerCatalogueCode(t *testing.T) {
	run := sarifLogOf(t, SARIF(Build(passing()))).Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != len(model.Catalogue) {
		t.Fatalf("%d rules, want one per catalogue code (%d)", len(rules), len(model.Catalogue))
	}
	for i, r := range rules {
		info, ok := model.Catalogue[model.Code(r.ID)]
		if !ok {
			t.Errorf("rule %s is not a catalogue code", r.ID)
			continue
		}
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("rules not sorted by code at %s", r.ID)
		}
		if r.DefaultConfiguration.Level != level(info.Severity) || r.Properties.Owner != string(info.Owner) {
			t.Errorf("rule %s: level %s owner %s, want %s %s", r.ID, r.DefaultConfiguration.Level, r.Properties.Owner, level(info.Severity), info.Owner)
		}
		if !strings.Contains(r.Help.Text, info.Meaning) || !strings.Contains(r.Help.Text, info.Guidance) || !strings.Contains(r.Help.Text, "owner "+string(info.Owner)) {
			t.Errorf("rule %s: help lacks the meaning, the guidance or the owner: %q", r.ID, r.Help.Text)
		}
	}
	if len(run.Results) != 0 {
		t.Errorf("a result without findings has %d SARIF results", len(run.Results))
	}
}

func TestSARIFResults(t *testing.T) {
	r := Build(failing())
	run := sarifLogOf(t, SARIF(r)).Runs[0]
	if len(run.Results) != len(r.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(r.Findings))
	}
	wantLevels := []string{"error", "warning", "note"}
	for i, res := range run.Results {
		f := r.Findings[i]
		if res.RuleID != string(f.Code) || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: rule %s at index %d, want %s", i, res.RuleID, res.RuleIndex, f.Code)
		}
		if res.Level != wantLevels[i] {
			t.Errorf("result %d (%s): level %s, want %s", i, f.Severity, res.Level, wantLevels[i])
		}
		if !strings.Contains(res.Message.Text, f.Message) || !strings.Contains(res.Message.Text, "Fix: "+f.Remediation) {
			t.Errorf("result %d: message lacks the finding's message or remediation: %q", i, res.Message.Text)
		}
		if len(res.Suppressions) != 0 {
			t.Errorf("result %d of a finding no accept block matched is suppressed", i)
		}
	}
	if loc := run.Results[0].Locations[0].LogicalLocations[0]; loc.FullyQualifiedName != zone || loc.Name != "privatelink.azurecr.io" || loc.Kind != "resource" {
		t.Errorf("location of a finding with a resource: %+v", loc)
	}
	if loc := run.Results[1].Locations[0].LogicalLocations[0]; loc.FullyQualifiedName != cluster {
		t.Errorf("location of a finding without a resource is %q, want the cluster", loc.FullyQualifiedName)
	}
	if !strings.Contains(run.Results[1].Message.Text, "azurerm_route_table.spoke") {
		t.Errorf("the planned change is not in the message: %q", run.Results[1].Message.Text)
	}
	if fp := run.Results[0].PartialFingerprints[fingerprintKey]; fp == "" || fp == run.Results[1].PartialFingerprints[fingerprintKey] {
		t.Errorf("fingerprints do not tell findings apart: %v", run.Results[0].PartialFingerprints)
	}
	if run.AutomationDetails.ID != "pullpath/aks1.contosoreg/" {
		t.Errorf("automation id %q", run.AutomationDetails.ID)
	}
	// Without a cluster, the first node subnet is the location.
	p := Build(passing())
	p.Findings = []Finding{findingOf(model.NewFinding(model.CoverageRoutesComputed, "snet-a", "", "", "computed", ""))}
	if loc := sarifLogOf(t, SARIF(p)).Runs[0].Results[0].Locations[0].LogicalLocations[0]; loc.FullyQualifiedName != subnetA {
		t.Errorf("location without a cluster: %q, want the first subnet", loc.FullyQualifiedName)
	}
}

func TestSARIFAcceptedFindingIsSuppressed(t *testing.T) {
	run := sarifLogOf(t, SARIF(accepted())).Runs[0]
	s := run.Results[1].Suppressions
	if len(s) != 1 || s[0].Kind != "external" || s[0].Status != "accepted" ||
		!strings.Contains(s[0].Justification, "third party") || !strings.Contains(s[0].Justification, "2027-06-30") {
		t.Errorf("suppressions of an accepted finding: %+v", s)
	}
	if run.Results[1].Properties.Accepted == nil {
		t.Error("the accepted finding's properties lack accepted")
	}
	if len(run.Results[0].Suppressions) != 0 {
		t.Error("a finding not accepted is suppressed")
	}
}

// TestHelpURIsPointToTheTroubleshootingGuide holds each rule's link to a
// heading of docs/guides/troubleshooting.md, slugged as GitHub does.
func TestHelpURIsPointToTheTroubleshootingGuide(t *testing.T) {
	raw, err := os.ReadFile("../../docs/guides/troubleshooting.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#{1,6} (.+)$`).FindAllStringSubmatch(string(raw), -1) {
		anchors[githubSlug(m[1])] = true
	}
	for code := range model.Catalogue {
		uri := helpURI(code)
		anchor, ok := strings.CutPrefix(uri, TroubleshootingURL+"#")
		if !ok || !anchors[anchor] {
			t.Errorf("%s: help URI %s names no heading of the troubleshooting guide", code, uri)
		}
	}
}

// githubSlug is the anchor GitHub gives a heading: lower case, spaces to
// '-', everything but letters, digits, '-' and '_' dropped.
func githubSlug(heading string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
