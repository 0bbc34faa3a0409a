// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// The SARIF 2.1.0 log is written with the few types below rather than a
// library. github.com/owenrumney/go-sarif (v3.3.1, the newest the module
// proxy serves) was considered: its v2.1.0 package imports os and
// github.com/xeipuuv/gojsonschema (unmaintained since 2019) into the
// package that builds the log, which would put I/O into this pure package
// and an unmaintained validator into the provider binary, and its types
// emit empty arrays and -1 indexes for every optional property. What a
// report needs is a handful of properties; TestSARIFIsValid holds every
// log this package writes to the official OASIS schema
// (testdata/sarif-schema-2.1.0.json).

// SARIFSchema is the $schema of the logs: the OASIS SARIF 2.1.0 schema
// (errata 01).
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// informationURI is the provider's documentation.
const informationURI = "https://registry.terraform.io/providers/pullpath/pullpath/latest/docs"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool          `json:"tool"`
	AutomationDetails sarifAutomation    `json:"automationDetails"`
	Invocations       []sarifInvocation  `json:"invocations"`
	Results           []sarifResult      `json:"results"`
	Properties        sarifRunProperties `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	ShortDescription     sarifMessage        `json:"shortDescription"`
	FullDescription      sarifMessage        `json:"fullDescription"`
	Help                 sarifMultiformat    `json:"help"`
	HelpURI              string              `json:"helpUri"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProperties struct {
	Tags        []string `json:"tags"`
	Severity    string   `json:"severity"`
	Condition   string   `json:"condition"`
	Owner       string   `json:"owner"`
	Unverifying bool     `json:"unverifying"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

// srcRoot is the uriBaseId of every artifact location: the root of the
// repository, which GitHub code scanning resolves to its checkout.
const srcRoot = "%SRCROOT%"

// notCheckedRule is the rule of the one result of a verification that
// checked nothing. It is not a catalogue code (no finding has it): the
// read failed closed before there were findings.
const notCheckedRule = "PULLPATH_NOT_CHECKED"

type sarifRunProperties struct {
	Outcome     string        `json:"outcome"`
	Verdict     model.Verdict `json:"verdict"`
	FailsPlan   bool          `json:"failsPlan"`
	GeneratedAt string        `json:"generatedAt"`
}

type sarifResult struct {
	RuleID              string                `json:"ruleId"`
	RuleIndex           int                   `json:"ruleIndex"`
	Level               string                `json:"level"`
	Message             sarifMessage          `json:"message"`
	Locations           []sarifLocation       `json:"locations"`
	PartialFingerprints map[string]string     `json:"partialFingerprints"`
	Suppressions        []sarifSuppression    `json:"suppressions,omitempty"`
	Properties          sarifResultProperties `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

type sarifResultProperties struct {
	Severity      model.Severity  `json:"severity"`
	Condition     model.Condition `json:"condition"`
	Owner         model.Owner     `json:"owner"`
	NodePool      string          `json:"nodePool"`
	Endpoint      string          `json:"endpoint"`
	ResourceID    string          `json:"resourceId"`
	Remediation   string          `json:"remediation"`
	PlannedChange *string         `json:"plannedChange"`
	Accepted      *Accepted       `json:"accepted"`
}

// fingerprintKey names the partial fingerprint of a result: code, node
// pool, hostname and resource, the identity verify keeps one finding per,
// so a code-scanning view follows one finding from run to run.
const fingerprintKey = "pullpathFinding/v1"

// SARIF is the report as a SARIF 2.1.0 log with one run: one rule per
// catalogue code (sorted by code) with its meaning, owner and guidance;
// one result per finding, in the report's order, with level error,
// warning or note (info). Every result is anchored in a file of the
// repository, as GitHub code scanning requires (a physical location: the
// report's DeclaredIn, relative to %SRCROOT%), and names the resource the
// finding is about (else the cluster, or the first node subnet) as a
// logical location of kind "resource". A finding an `accept` block
// matched is an accepted external suppression carrying the block's
// reason. A verification that checked nothing (outcome not_checked) has
// one error result of rule PULLPATH_NOT_CHECKED per cause, and its
// invocation did not succeed.
func SARIF(r Report) []byte {
	codes := make([]model.Code, 0, len(model.Catalogue))
	for c := range model.Catalogue {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	index := map[model.Code]int{}
	rules := make([]sarifRule, 0, len(codes))
	for i, c := range codes {
		index[c] = i
		rules = append(rules, ruleOf(c))
	}
	run := sarifRun{
		Tool:              sarifTool{Driver: sarifDriver{Name: "pullpath", Version: r.ProviderVersion, InformationURI: informationURI, Rules: rules}},
		AutomationDetails: sarifAutomation{ID: "pullpath/" + Name(r) + "/"},
		Invocations:       []sarifInvocation{{ExecutionSuccessful: true}},
		Results:           make([]sarifResult, 0, len(r.Findings)),
		Properties:        sarifRunProperties{Outcome: r.Outcome, Verdict: r.Verdict, FailsPlan: r.Policy.FailsPlan, GeneratedAt: r.GeneratedAt},
	}
	for _, f := range r.Findings {
		i, ok := index[f.Code]
		if !ok {
			// A code outside the catalogue cannot be emitted (model.NewFinding
			// fills findings from it); a rule of its own keeps the log valid.
			i = len(run.Tool.Driver.Rules)
			index[f.Code] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, ruleOf(f.Code))
		}
		run.Results = append(run.Results, resultOf(r, f, i))
	}
	if r.Outcome == OutcomeNotChecked {
		run.Invocations[0].ExecutionSuccessful = false
		i := len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, notCheckedRuleOf())
		for _, c := range r.NotChecked {
			run.Results = append(run.Results, notCheckedResult(r, c, i))
		}
	}
	return encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// ruleOf is the rule of a catalogue code.
func ruleOf(c model.Code) sarifRule {
	info := model.Catalogue[c]
	unverifying := ""
	if info.Unverifying {
		unverifying = " It makes the verdict unverified."
	}
	facts := fmt.Sprintf("Severity %s, condition %s, owner %s (who acts).%s", info.Severity, info.Condition, info.Owner, unverifying)
	return sarifRule{
		ID:               string(c),
		ShortDescription: sarifMessage{Text: info.Meaning},
		FullDescription:  sarifMessage{Text: info.Meaning + " " + facts},
		Help: sarifMultiformat{
			Text: info.Meaning + "\n\n" + facts + "\n\nFix: " + info.Guidance + " Each finding's remediation names the resource to change " +
				"and what will not help. More: " + helpURI(c),
			Markdown: fmt.Sprintf("**%s**: %s\n\n%s\n\n**Fix:** %s Each finding's remediation names the resource to change "+
				"and what will not help.\n\n[Troubleshooting guide](%s)", c, info.Meaning, facts, info.Guidance, helpURI(c)),
		},
		HelpURI:              helpURI(c),
		DefaultConfiguration: sarifConfiguration{Level: level(info.Severity)},
		Properties: sarifRuleProperties{
			Tags:     []string{"pullpath", string(info.Condition), "owner:" + string(info.Owner)},
			Severity: string(info.Severity), Condition: string(info.Condition), Owner: string(info.Owner),
			Unverifying: info.Unverifying,
		},
	}
}

// resultOf is the result of one finding.
func resultOf(r Report, f Finding, ruleIndex int) sarifResult {
	where := verify.Where(model.Finding{NodePool: f.NodePool, Endpoint: f.Endpoint})
	var text strings.Builder
	fmt.Fprintf(&text, "%s (%s, owner %s): %s\n\nFix: %s", f.Code, where, f.Owner, f.Message, f.Remediation)
	if f.PlannedChange != nil {
		fmt.Fprintf(&text, "\n\nAfter the planned change: %s", *f.PlannedChange)
	}
	res := sarifResult{
		RuleID:    string(f.Code),
		RuleIndex: ruleIndex,
		Level:     level(f.Severity),
		Message:   sarifMessage{Text: text.String()},
		Locations: []sarifLocation{{PhysicalLocation: physicalOf(r), LogicalLocations: []sarifLogicalLocation{locationOf(r, f)}}},
		PartialFingerprints: map[string]string{
			fingerprintKey: fingerprint(f),
		},
		Properties: sarifResultProperties{
			Severity: f.Severity, Condition: f.Condition, Owner: f.Owner, NodePool: f.NodePool, Endpoint: f.Endpoint,
			ResourceID: f.ResourceID, Remediation: f.Remediation, PlannedChange: f.PlannedChange, Accepted: f.Accepted,
		},
	}
	if a := f.Accepted; a != nil {
		res.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted",
			Justification: fmt.Sprintf("%s (accepted until %s)", a.Reason, a.Expires)}}
	}
	return res
}

// physicalOf is the file and line that declare the verification.
func physicalOf(r Report) sarifPhysicalLocation {
	return sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLocation{URI: r.DeclaredIn.File, URIBaseID: srcRoot},
		Region:           sarifRegion{StartLine: max(1, r.DeclaredIn.Line)},
	}
}

// notCheckedRuleOf is the rule of a verification that checked nothing.
func notCheckedRuleOf() sarifRule {
	meaning := "The verification failed closed and checked no path: what an argument names could not be read, " +
		"the read timed out, or the provider could not sign in."
	guidance := "Fix what the result names (a mistyped id, a missing permission, an outage of Azure Resource Manager) and plan again."
	return sarifRule{
		ID:               notCheckedRule,
		ShortDescription: sarifMessage{Text: meaning},
		FullDescription:  sarifMessage{Text: meaning + " The plan fails whatever enforce says."},
		Help: sarifMultiformat{
			Text:     meaning + "\n\nFix: " + guidance + " More: " + notCheckedHelpURI,
			Markdown: fmt.Sprintf("**%s**: %s\n\n**Fix:** %s\n\n[Reports for CI](%s)", notCheckedRule, meaning, guidance, notCheckedHelpURI),
		},
		HelpURI:              notCheckedHelpURI,
		DefaultConfiguration: sarifConfiguration{Level: "error"},
		Properties: sarifRuleProperties{Tags: []string{"pullpath", "not_checked"}, Severity: string(model.SeverityError),
			Condition: "not_checked", Owner: string(model.OwnerOperator), Unverifying: true},
	}
}

// notCheckedHelpURI is the guide's section on outcome not_checked.
const notCheckedHelpURI = "https://registry.terraform.io/providers/pullpath/pullpath/latest/docs/guides/ci-reports#outcome"

// notCheckedResult is the result of one cause of a verification that
// checked nothing.
func notCheckedResult(r Report, c NotChecked, ruleIndex int) sarifResult {
	where := "the verification"
	if c.Argument != "" {
		where = "argument " + c.Argument
	}
	text := fmt.Sprintf("Not checked (%s): %s\n\n%s", where, c.Cause, c.Detail)
	return sarifResult{
		RuleID: notCheckedRule, RuleIndex: ruleIndex, Level: "error",
		Message: sarifMessage{Text: text},
		Locations: []sarifLocation{{PhysicalLocation: physicalOf(r),
			LogicalLocations: []sarifLogicalLocation{locationOf(r, Finding{})}}},
		PartialFingerprints: map[string]string{fingerprintKey: fingerprint(Finding{Code: notCheckedRule, NodePool: c.Argument})},
		Properties: sarifResultProperties{Severity: model.SeverityError, Condition: "not_checked", Owner: model.OwnerOperator,
			Remediation: c.Detail},
	}
}

// locationOf is the resource a finding names, else what was verified.
func locationOf(r Report, f Finding) sarifLogicalLocation {
	id := f.ResourceID
	if id == "" {
		switch {
		case r.Subject.ClusterID != nil:
			id = *r.Subject.ClusterID
		case len(r.Subject.NodeSubnetIDs) > 0:
			id = r.Subject.NodeSubnetIDs[0]
		}
	}
	return sarifLogicalLocation{Name: model.ResourceID(id).Name(), FullyQualifiedName: id, Kind: "resource"}
}

// fingerprint identifies a finding across runs (fingerprintKey).
func fingerprint(f Finding) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{
		string(f.Code), f.NodePool, f.Endpoint, strings.ToLower(f.ResourceID),
	}, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// level is the SARIF level of a severity.
func level(s model.Severity) string {
	switch s {
	case model.SeverityError:
		return "error"
	case model.SeverityWarning:
		return "warning"
	default:
		return "note"
	}
}
