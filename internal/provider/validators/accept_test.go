// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestCheckFindingCode(t *testing.T) {
	if msg := CheckFindingCode("EGRESS_UNVERIFIED"); msg != "" {
		t.Errorf("a catalogue code refused: %s", msg)
	}
	for _, tt := range []struct{ in, want string }{
		{"EGRESS_UNVERIFED", `did you mean "EGRESS_UNVERIFIED"`},
		{"egress_unverified", `did you mean "EGRESS_UNVERIFIED"`},
		{"ROUTE_BLACKHOLES", `did you mean "ROUTE_BLACKHOLE"`},
		{"DNS_EVERYTHING_BROKEN", "the codes that start with DNS_ are DNS_FORWARDER_UNVERIFIED"},
		{"NOPE", "findings[*].code"},
		{"", "is \"\", which is not a finding code"},
	} {
		if msg := CheckFindingCode(tt.in); !strings.Contains(msg, tt.want) {
			t.Errorf("CheckFindingCode(%q) = %q, want it to contain %q", tt.in, msg, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"EGRESS_UNVERIFED", "EGRESS_UNVERIFIED", 1}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCheckAcceptExpires(t *testing.T) {
	check := CheckAcceptExpires(func() model.Date { return "2026-06-15" })
	for _, ok := range []string{"2026-06-15", "2027-06-16", "2026-01-01", "2020-02-29"} {
		if msg := check(ok); msg != "" {
			t.Errorf("%s refused: %s", ok, msg)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"2027-06-17", "more than 366 days after today (2026-06-15, UTC)"},
		{"2027-06-17", "set expires to 2027-06-16 or earlier"},
		{"2026-6-30", "not a date written YYYY-MM-DD"},
		{"2026-02-30", "not a date written YYYY-MM-DD"},
		{"31/12/2026", "for example 2026-09-13"},
	} {
		if msg := check(tt.in); !strings.Contains(msg, tt.want) {
			t.Errorf("check(%q) = %q, want it to contain %q", tt.in, msg, tt.want)
		}
	}
}
