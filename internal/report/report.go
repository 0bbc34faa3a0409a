// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/diagram"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Format is the value of the JSON report's "format": the name and major
// version of its schema. A change that removes or redefines a field is a
// new version ("pullpath.report/v2"); fields may be added within v1.
const Format = "pullpath.report/v1"

// Input is what a report is made of: the verification's result and what
// the data source knows around it. The zero value of every optional field
// means "not given" and is reported as null.
type Input struct {
	// Exactly one of ClusterID and NodeSubnetIDs is set, as in the
	// verification's arguments.
	ClusterID     model.ResourceID
	NodeSubnetIDs []model.ResourceID
	// NodePools is the node_pools argument (nil: every pool).
	NodePools []string
	// Exactly one of RegistryID and RegistryHosts (the registry block's
	// hosts) is set.
	RegistryID    model.ResourceID
	RegistryHosts []string
	// PullCredentials is the pull_credentials in force.
	PullCredentials model.PullCredentials
	// Enforce and FailOnUnverified are the arguments in force; FailsPlan is
	// whether the read fails the plan with this result (decided by the
	// provider, which fails it).
	Enforce, FailOnUnverified, FailsPlan bool

	Result verify.Result
	// ARMRequests and Duration are the read's stats.
	ARMRequests int64
	Duration    time.Duration
	// PlannedChanges is nil without planned_changes_file.
	PlannedChanges *PlannedChanges

	ProviderVersion string
	// Generated is when the read finished; reported in UTC to the second.
	Generated time.Time

	// NotChecked is why the verification could not check anything: the
	// read failed closed (an argument names what could not be read, the
	// read timed out, the provider could not sign in). Non-empty, it makes
	// the report's outcome not_checked, whatever Result holds.
	NotChecked []NotChecked
	// DeclaredIn is the file (relative to the repository's root, with
	// forward slashes) and line of the configuration that declares the
	// verification: where SARIF anchors every result. Empty: "main.tf",
	// line 1.
	DeclaredIn DeclaredIn
}

// The outcomes of a report: what CI scripts branch on, since Terraform
// exits 1 for both failures.
const (
	// OutcomePass: the verification checked every path and its verdict
	// does not fail the policy (enforce, fail_on_unverified).
	OutcomePass = "pass"
	// OutcomeFail: the verdict fails the policy; the plan fails.
	OutcomeFail = "fail"
	// OutcomeNotChecked: the read failed closed and checked nothing; the
	// plan fails.
	OutcomeNotChecked = "not_checked"
)

// Report is the JSON report, field for field (the JSON Schema
// docs/reports/pullpath.report.v1.schema.json describes each one). Lists
// are never null: an empty list is [].
type Report struct {
	Format          string `json:"format"`
	ProviderVersion string `json:"provider_version"`
	GeneratedAt     string `json:"generated_at"`

	Subject Subject `json:"subject"`

	// Outcome is OutcomePass, OutcomeFail or OutcomeNotChecked.
	Outcome string `json:"outcome"`
	// NotChecked is null unless Outcome is not_checked: then what could
	// not be checked, one element per cause.
	NotChecked []NotChecked `json:"not_checked"`
	DeclaredIn DeclaredIn   `json:"declared_in"`

	Verdict   model.Verdict `json:"verdict"`
	Reachable bool          `json:"reachable"`
	Policy    Policy        `json:"policy"`
	Counts    Counts        `json:"counts"`

	Paths    []Path    `json:"paths"`
	Findings []Finding `json:"findings"`

	Stats          Stats           `json:"stats"`
	PlannedChanges *PlannedChanges `json:"planned_changes"`

	// Summary is the data source's `summary` attribute, Diagram its
	// `diagram` (a Mermaid flowchart, without the code fence).
	Summary string `json:"summary"`
	Diagram string `json:"diagram"`
}

// Subject is what was verified: the nodes, the registry and how they pull.
type Subject struct {
	// ClusterID is null when the nodes are given as NodeSubnetIDs (then
	// non-null), and the other way round.
	ClusterID     *string  `json:"cluster_id"`
	NodeSubnetIDs []string `json:"node_subnet_ids"`
	// NodePools is null when every pool was checked.
	NodePools []string `json:"node_pools"`
	// RegistryID is null for a registry block, whose hosts are then
	// RegistryHosts (null with a registry id).
	RegistryID      *string  `json:"registry_id"`
	RegistryHosts   []string `json:"registry_hosts"`
	PullCredentials string   `json:"pull_credentials"`
}

// NotChecked is one cause of a verification that checked nothing: the
// argument that names what could not be read (empty when the cause is no
// single argument: a timeout, signing in), the error's summary and its
// whole text, as the plan's diagnostic says them.
type NotChecked struct {
	Argument string `json:"argument"`
	Cause    string `json:"cause"`
	Detail   string `json:"detail"`
}

// DeclaredIn is where the configuration declares the verification: a file
// relative to the repository's root and a line (1 when not known).
type DeclaredIn struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Policy is what the verification was asked to fail on, and whether it did.
type Policy struct {
	Enforce          bool `json:"enforce"`
	FailOnUnverified bool `json:"fail_on_unverified"`
	FailsPlan        bool `json:"fails_plan"`
}

// Counts are the findings by severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Path is one node pool × hostname (the `paths` attribute).
type Path struct {
	NodePool    string   `json:"node_pool"`
	Host        string   `json:"host"`
	Address     string   `json:"address"`
	Resolver    string   `json:"resolver"`
	RouteSource string   `json:"route_source"`
	Hops        []string `json:"hops"`
	Verdict     string   `json:"verdict"`
}

// Finding is one finding with every field of the findings catalogue
// (docs/design/findings.md).
type Finding struct {
	Code        model.Code      `json:"code"`
	Severity    model.Severity  `json:"severity"`
	Condition   model.Condition `json:"condition"`
	Owner       model.Owner     `json:"owner"`
	NodePool    string          `json:"node_pool"`
	Endpoint    string          `json:"endpoint"`
	ResourceID  string          `json:"resource_id"`
	Message     string          `json:"message"`
	Remediation string          `json:"remediation"`
	// PlannedChange is null unless a planned change causes the finding.
	PlannedChange *string `json:"planned_change"`
	// Accepted is null unless an `accept` block of the verification
	// matched the finding.
	Accepted *Accepted `json:"accepted"`
}

// Accepted is the `accept` block that matched a finding: why the owners
// live with it, and until when (YYYY-MM-DD).
type Accepted struct {
	Reason  string `json:"reason"`
	Expires string `json:"expires"`
}

// Stats is what the read cost.
type Stats struct {
	ARMRequests int64 `json:"arm_requests"`
	DurationMS  int64 `json:"duration_ms"`
}

// PlannedChanges is the saved plan the network was read through
// (planned_changes_file).
type PlannedChanges struct {
	// Applied are the addresses of the changes read as planned, sorted.
	Applied []string `json:"applied"`
	// NotApplied are the changes read as they are now, by address.
	NotApplied []NotApplied `json:"not_applied"`
}

// NotApplied is a planned change the provider read as it is now, and why.
type NotApplied struct {
	Address string `json:"address"`
	Reason  string `json:"reason"`
}

// Build makes the report of in. It keeps the order of the result's paths
// and findings (verify sorts them) and copies every slice it keeps.
func Build(in Input) Report {
	res := in.Result
	r := Report{
		Format:          Format,
		ProviderVersion: in.ProviderVersion,
		GeneratedAt:     in.Generated.UTC().Truncate(time.Second).Format(time.RFC3339),
		Subject:         subject(in),
		Verdict:         res.Verdict,
		Reachable:       res.Verdict == model.Reachable,
		Policy:          Policy{Enforce: in.Enforce, FailOnUnverified: in.FailOnUnverified, FailsPlan: in.FailsPlan},
		Paths:           make([]Path, 0, len(res.Paths)),
		Findings:        make([]Finding, 0, len(res.Findings)),
		Stats:           Stats{ARMRequests: in.ARMRequests, DurationMS: in.Duration.Milliseconds()},
		Summary:         res.Summary,
		Diagram:         diagram.Flowchart(res.Paths, res.Findings),
	}
	for _, p := range res.Paths {
		r.Paths = append(r.Paths, Path{
			NodePool: p.NodePool, Host: p.Host, Address: p.Address, Resolver: p.Resolver,
			RouteSource: string(p.RouteSource), Hops: append([]string{}, p.Hops...), Verdict: string(p.Verdict),
		})
	}
	for _, f := range res.Findings {
		r.Findings = append(r.Findings, findingOf(f))
		switch f.Severity {
		case model.SeverityError:
			r.Counts.Error++
		case model.SeverityWarning:
			r.Counts.Warning++
		default:
			r.Counts.Info++
		}
	}
	r.DeclaredIn = in.DeclaredIn
	if r.DeclaredIn.File == "" {
		r.DeclaredIn.File = DefaultDeclaredIn
	}
	if r.DeclaredIn.Line < 1 {
		r.DeclaredIn.Line = 1
	}
	switch {
	case len(in.NotChecked) > 0:
		r.Outcome = OutcomeNotChecked
		r.NotChecked = append([]NotChecked{}, in.NotChecked...)
		// Nothing was checked: no verdict but unverified, and the plan fails
		// whatever enforce says.
		r.Verdict, r.Reachable, r.Policy.FailsPlan = model.Unverified, false, true
		r.Paths, r.Findings, r.Counts = []Path{}, []Finding{}, Counts{}
		r.Summary = notCheckedSummary(in.NotChecked)
		r.Diagram = diagram.Flowchart(nil, nil)
	case in.FailsPlan:
		r.Outcome = OutcomeFail
	default:
		r.Outcome = OutcomePass
	}
	if pc := in.PlannedChanges; pc != nil {
		r.PlannedChanges = &PlannedChanges{
			Applied:    append([]string{}, pc.Applied...),
			NotApplied: append([]NotApplied{}, pc.NotApplied...),
		}
	}
	return r
}

// DefaultDeclaredIn is the file SARIF results are anchored in when the
// caller knows no better.
const DefaultDeclaredIn = "main.tf"

// notCheckedSummary is the summary of a verification that checked nothing.
func notCheckedSummary(causes []NotChecked) string {
	var b strings.Builder
	b.WriteString("Verdict: unverified (not checked): the verification failed closed and checked no path.\n")
	for _, c := range causes {
		b.WriteString("\n")
		if c.Argument != "" {
			b.WriteString(c.Argument + ": ")
		}
		b.WriteString(c.Cause + "\n" + c.Detail + "\n")
	}
	return b.String()
}

// findingOf is the report's form of a finding.
func findingOf(f model.Finding) Finding {
	out := Finding{
		Code: f.Code, Severity: f.Severity, Condition: f.Condition, Owner: f.Owner,
		NodePool: f.NodePool, Endpoint: f.Endpoint, ResourceID: string(f.ResourceID),
		Message: f.Message, Remediation: f.Remediation,
	}
	if f.PlannedChange != "" {
		pc := f.PlannedChange
		out.PlannedChange = &pc
	}
	if a := f.Accepted; a != nil {
		out.Accepted = &Accepted{Reason: a.Reason, Expires: a.Expires.String()}
	}
	return out
}

// subject is in's nodes and registry.
func subject(in Input) Subject {
	s := Subject{PullCredentials: string(in.PullCredentials.OrDefault())}
	if len(in.NodeSubnetIDs) > 0 {
		s.NodeSubnetIDs = make([]string, 0, len(in.NodeSubnetIDs))
		for _, id := range in.NodeSubnetIDs {
			s.NodeSubnetIDs = append(s.NodeSubnetIDs, string(id))
		}
	} else {
		id := string(in.ClusterID)
		s.ClusterID = &id
	}
	if len(in.NodePools) > 0 {
		s.NodePools = slices.Sorted(slices.Values(in.NodePools))
	}
	if len(in.RegistryHosts) > 0 {
		s.RegistryHosts = make([]string, 0, len(in.RegistryHosts))
		for _, h := range in.RegistryHosts {
			s.RegistryHosts = append(s.RegistryHosts, model.NormalizeHost(h))
		}
	} else {
		id := string(in.RegistryID)
		s.RegistryID = &id
	}
	return s
}

// JSON is the report as indented JSON, ending in a newline. HTML
// characters are not escaped: messages quote "<" and "&" as written.
func JSON(r Report) []byte {
	return encode(r)
}

// encode is indented JSON with a final newline and without HTML escaping.
// Every value this package encodes is plain data, so encoding cannot fail.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic("report: encoding plain data failed: " + err.Error())
	}
	return b.Bytes()
}

// Title is "cluster → registry" in the names users know: the last segment
// of each id, the first host of a registry block, the subnets' names.
func (r Report) Title() string {
	nodes := ""
	if r.Subject.ClusterID != nil {
		nodes = model.ResourceID(*r.Subject.ClusterID).Name()
	} else {
		names := make([]string, 0, len(r.Subject.NodeSubnetIDs))
		for _, id := range r.Subject.NodeSubnetIDs {
			names = append(names, model.ResourceID(id).Name())
		}
		nodes = strings.Join(names, ", ")
	}
	registry := ""
	if r.Subject.RegistryID != nil {
		registry = model.ResourceID(*r.Subject.RegistryID).Name()
	} else if len(r.Subject.RegistryHosts) > 0 {
		registry = r.Subject.RegistryHosts[0]
	}
	return nodes + " → " + registry
}
