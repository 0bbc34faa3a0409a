// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"fmt"
	"strings"
	"time"
)

// MaxAcceptanceDays is how far ahead an accept block may expire: at most
// this many days after the day of the plan, so that every accepted finding
// is looked at again within a year.
const MaxAcceptanceDays = 366

// dateLayout is the only form of a Date: YYYY-MM-DD.
const dateLayout = "2006-01-02"

// Date is a calendar day in UTC, written YYYY-MM-DD. The zero value is no
// date. Dates compare as strings (the form is fixed-width), so Before and
// After need no parsing.
type Date string

// ParseDate reads a date written exactly YYYY-MM-DD (zero-padded, a day
// that exists: 2027-02-30 is refused). The error says what was expected.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil || t.Format(dateLayout) != s {
		return "", fmt.Errorf("%q is not a date written YYYY-MM-DD (for example %s): four-digit year, two-digit month and day, a day that exists", s, "2027-03-31")
	}
	return Date(s), nil
}

// DateOf is the UTC calendar day of t.
func DateOf(t time.Time) Date { return Date(t.UTC().Format(dateLayout)) }

// AddDays is the date n days after d (before it for negative n). The zero
// date stays zero.
func (d Date) AddDays(n int) Date {
	t, err := time.Parse(dateLayout, string(d))
	if err != nil {
		return ""
	}
	return DateOf(t.AddDate(0, 0, n))
}

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool { return d < e }

// IsZero reports whether d is no date.
func (d Date) IsZero() bool { return d == "" }

// String is the date as written.
func (d Date) String() string { return string(d) }

// Acceptance is one `accept` block of pullpath_verification: a finding the
// owners have decided to live with, until Expires. It matches a finding of
// Code whose resource, node pool and endpoint equal those given
// (case-insensitively); an empty matcher matches anything.
type Acceptance struct {
	Code   Code
	Reason string
	// Expires is the last day the block accepts anything: it is in force
	// through that day (UTC) and expired from the next one.
	Expires    Date
	ResourceID ResourceID
	NodePool   string
	Endpoint   string
}

// Expired reports whether the block is past its expiry on day today.
func (a Acceptance) Expired(today Date) bool { return a.Expires.Before(today) }

// Label names the block for messages: its code and the matchers given,
// e.g. `accept { code = "EGRESS_UNVERIFIED", node_pool = "user" }`.
func (a Acceptance) Label() string {
	parts := []string{fmt.Sprintf("code = %q", a.Code)}
	if !a.ResourceID.IsZero() {
		parts = append(parts, fmt.Sprintf("resource_id = %q", a.ResourceID))
	}
	if a.NodePool != "" {
		parts = append(parts, fmt.Sprintf("node_pool = %q", a.NodePool))
	}
	if a.Endpoint != "" {
		parts = append(parts, fmt.Sprintf("endpoint = %q", a.Endpoint))
	}
	return "accept { " + strings.Join(parts, ", ") + " }"
}

// Accepted is what a finding carries once an accept block accepted it:
// the block's reason and expiry.
type Accepted struct {
	Reason  string
	Expires Date
}

// Acceptances are the accept blocks of one verification with what judging
// them needs. The zero value accepts nothing.
type Acceptances struct {
	// Blocks are the accept blocks in configuration order; the first
	// that matches a finding accepts it.
	Blocks []Acceptance
	// Today is the day of the plan (UTC), against which Expires is
	// judged. Blocks are ignored when it is zero.
	Today Date
	// Named are the resources the verification was asked about (the
	// cluster or the node subnets, and the registry): an evidence finding
	// about one of them cannot be accepted.
	Named []ResourceID
}
