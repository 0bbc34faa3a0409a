// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The JUnit XML of a report, as Azure DevOps' Publish Test Results task
// (testResultsFormat: JUnit) and GitHub test reporters read it: the
// element and attribute names of the JUnit format that tools share
// (testsuites, testsuite with tests/failures/errors/skipped, testcase with
// classname and name, failure, error and skipped with a message and a
// text).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	ClassName string         `xml:"classname,attr"`
	Name      string         `xml:"name,attr"`
	Time      string         `xml:"time,attr"`
	Failures  []junitProblem `xml:"failure"`
	Errors    []junitProblem `xml:"error"`
	Skipped   *junitProblem  `xml:"skipped"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit is the report as JUnit XML: one test suite for the verification
// (named like the report's files), with one test case per node pool ×
// hostname (classname "<cluster>.<registry>.<pool>", name the hostname),
// and in it
//
//   - one failure per error finding that concerns the path (a finding
//     without a pool or a host concerns every pool or host), whose type is
//     the code and whose text is the message, the fix and the resource;
//   - else, for a path whose verdict is unverified, skipped, with the codes
//     that leave it unverified;
//   - else nothing: the path passes.
//
// An error finding that concerns no path (there are none) is a failure of
// a test case named "verification". A verification that checked nothing
// (outcome not_checked) is that one test case with an error per cause.
// Accepted findings have severity info and fail nothing; their test case
// lists them in system-out.
func JUnit(r Report) []byte {
	name := Name(r)
	suite := junitSuite{
		Name: name, Time: seconds(r.Stats.DurationMS), Timestamp: strings.TrimSuffix(r.GeneratedAt, "Z"),
		Properties: []junitProperty{
			{Name: "outcome", Value: r.Outcome},
			{Name: "verdict", Value: string(r.Verdict)},
			{Name: "fails_plan", Value: fmt.Sprint(r.Policy.FailsPlan)},
			{Name: "format", Value: Format},
		},
	}
	if r.Outcome == OutcomeNotChecked {
		c := junitCase{ClassName: name, Name: "verification", Time: "0"}
		for _, nc := range r.NotChecked {
			msg := "not checked: " + nc.Cause
			if nc.Argument != "" {
				msg = "not checked (" + nc.Argument + "): " + nc.Cause
			}
			c.Errors = append(c.Errors, junitProblem{Message: msg, Type: notCheckedRule, Text: nc.Detail})
		}
		suite.Cases = append(suite.Cases, c)
	} else {
		used := make([]bool, len(r.Findings))
		hosts := map[string]bool{}
		for _, p := range r.Paths {
			hosts[strings.ToLower(p.Host)] = true
		}
		for _, p := range r.Paths {
			c := junitCase{ClassName: name + "." + p.NodePool, Name: p.Host, Time: "0"}
			var unverifying, accepted []string
			for i, f := range r.Findings {
				if !concerns(f, p, hosts) {
					continue
				}
				switch {
				case f.Accepted != nil:
					accepted = append(accepted, fmt.Sprintf("%s accepted until %s: %s", f.Code, f.Accepted.Expires, f.Accepted.Reason))
				case f.Severity == model.SeverityError:
					used[i] = true
					c.Failures = append(c.Failures, problemOf(f))
				case model.Catalogue[f.Code].Unverifying:
					unverifying = append(unverifying, string(f.Code))
				}
			}
			if len(c.Failures) == 0 && p.Verdict == string(model.Unverified) {
				msg := "unverified"
				if len(unverifying) > 0 {
					msg += ": " + strings.Join(unverifying, ", ")
				}
				c.Skipped = &junitProblem{Message: msg, Text: strings.Join(p.Hops, "\n")}
			}
			if len(accepted) > 0 {
				c.SystemOut = strings.Join(accepted, "\n")
			}
			suite.Cases = append(suite.Cases, c)
		}
		var rest junitCase
		for i, f := range r.Findings {
			if f.Severity == model.SeverityError && f.Accepted == nil && !used[i] {
				rest.Failures = append(rest.Failures, problemOf(f))
			}
		}
		if len(rest.Failures) > 0 || len(r.Paths) == 0 {
			rest.ClassName, rest.Name, rest.Time = name, "verification", "0"
			if len(rest.Failures) == 0 && r.Verdict != model.Reachable {
				rest.Skipped = &junitProblem{Message: string(r.Verdict)}
			}
			suite.Cases = append(suite.Cases, rest)
		}
	}
	for _, c := range suite.Cases {
		suite.Tests++
		switch {
		case len(c.Errors) > 0:
			suite.Errors++
		case len(c.Failures) > 0:
			suite.Failures++
		case c.Skipped != nil:
			suite.Skipped++
		}
	}
	all := junitSuites{Name: "pullpath " + r.Title(), Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite}}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		panic("report: encoding plain data as XML failed: " + err.Error())
	}
	b.WriteString("\n")
	return b.Bytes()
}

// concerns is whether a finding is about a path: its pool (none: every
// pool) and its host (none, or an endpoint that is no hostname of the
// pull, such as a DNS server's address: every host).
func concerns(f Finding, p Path, hosts map[string]bool) bool {
	if f.NodePool != "" && f.NodePool != p.NodePool {
		return false
	}
	return !hosts[strings.ToLower(f.Endpoint)] || strings.EqualFold(f.Endpoint, p.Host)
}

// problemOf is the failure of one error finding.
func problemOf(f Finding) junitProblem {
	var text strings.Builder
	fmt.Fprintf(&text, "%s (owner %s)\n%s\n\nFix: %s", f.Code, f.Owner, f.Message, f.Remediation)
	if f.ResourceID != "" {
		fmt.Fprintf(&text, "\n\nResource: %s", f.ResourceID)
	}
	if f.PlannedChange != nil {
		fmt.Fprintf(&text, "\n\nAfter the planned change: %s", *f.PlannedChange)
	}
	return junitProblem{Message: string(f.Code) + ": " + firstLine(f.Message), Type: string(f.Code), Text: text.String()}
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// seconds is milliseconds as JUnit's seconds with three decimals.
func seconds(ms int64) string {
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}
