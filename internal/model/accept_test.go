// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	for _, ok := range []string{"2026-06-15", "2028-02-29", "2026-12-31"} {
		if d, err := ParseDate(ok); err != nil || string(d) != ok {
			t.Errorf("ParseDate(%q) = %q, %v", ok, d, err)
		}
	}
	for _, bad := range []string{"", "2026-6-15", "2026-06-5", "26-06-15", "2026/06/15", "2026-13-01", "2027-02-29", "2026-06-15T00:00:00Z", " 2026-06-15", "tomorrow"} {
		if d, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) = %q, want an error", bad, d)
		}
	}
}

func TestDateArithmetic(t *testing.T) {
	d := Date("2026-06-15")
	if got := d.AddDays(366); got != "2027-06-16" {
		t.Errorf("AddDays(366) = %s", got)
	}
	if got := d.AddDays(-15); got != "2026-05-31" {
		t.Errorf("AddDays(-15) = %s", got)
	}
	if got := Date("").AddDays(1); !got.IsZero() {
		t.Errorf("zero date moved to %s", got)
	}
	if !Date("2026-06-14").Before(d) || d.Before(d) || Date("2026-06-16").Before(d) {
		t.Error("Before")
	}
	// The day is UTC's, whatever the zone of the clock.
	if got := DateOf(time.Date(2026, 6, 15, 23, 30, 0, 0, time.FixedZone("west", -3*3600))); got != "2026-06-16" {
		t.Errorf("DateOf = %s, want the UTC day 2026-06-16", got)
	}
}

func TestAcceptanceExpired(t *testing.T) {
	a := Acceptance{Code: EgressUnverified, Reason: "r", Expires: "2026-06-15"}
	if a.Expired("2026-06-15") {
		t.Error("a block is in force on its expiry day")
	}
	if !a.Expired("2026-06-16") {
		t.Error("a block is expired the day after its expiry day")
	}
	if got := (Acceptance{Code: EgressUnverified, NodePool: "user", Endpoint: "mcr.microsoft.com"}).Label(); got != `accept { code = "EGRESS_UNVERIFIED", node_pool = "user", endpoint = "mcr.microsoft.com" }` {
		t.Errorf("Label = %s", got)
	}
}

// TestVerdictOfAccepted: accepted findings decide nothing, whatever their
// code; an expired block's warning is not unverifying; an unverifying
// warning that is not accepted still is.
func TestVerdictOfAccepted(t *testing.T) {
	acc := &Accepted{Reason: "r", Expires: "2026-12-31"}
	egress := NewFinding(EgressUnverified, "user", "mcr.microsoft.com", "", "m", "f")
	accepted := egress
	accepted.Severity, accepted.Accepted = SeverityInfo, acc
	blackhole := NewFinding(RouteBlackhole, "user", "h", "", "m", "f")
	acceptedErr := blackhole
	acceptedErr.Severity, acceptedErr.Accepted = SeverityInfo, acc
	expired := NewFinding(CoverageAcceptanceExpired, "", "", "", "m", "f")
	tests := []struct {
		name string
		fs   []Finding
		want Verdict
	}{
		{"an unverifying warning", []Finding{egress}, Unverified},
		{"the same, accepted", []Finding{accepted}, Reachable},
		{"an accepted error", []Finding{acceptedErr}, Reachable},
		{"an accepted error beside an open one", []Finding{acceptedErr, blackhole}, Unreachable},
		{"an expired block alone", []Finding{expired}, Reachable},
		{"an expired block and the finding it no longer accepts", []Finding{expired, egress}, Unverified},
	}
	for _, tt := range tests {
		if got := VerdictOf(tt.fs); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if info := Catalogue[CoverageAcceptanceExpired]; info.Severity != SeverityWarning || info.Condition != ConditionCoverage || info.Unverifying {
		t.Errorf("COVERAGE_ACCEPTANCE_EXPIRED is %+v, want a coverage warning that is not unverifying", info)
	}
	if info := Catalogue[CoverageAcceptanceUnused]; info.Severity != SeverityInfo || info.Owner != OwnerOperator {
		t.Errorf("COVERAGE_ACCEPTANCE_UNUSED is %+v", info)
	}
}
