// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// CheckFindingCode returns "" when s is a code of the findings catalogue
// (model.Catalogue, exactly as written there), else what is wrong: the
// closest code when s looks like a typo of one, the codes that share its
// first word otherwise.
func CheckFindingCode(s string) string {
	if _, ok := model.Catalogue[model.Code(s)]; ok {
		return ""
	}
	msg := fmt.Sprintf("is %q, which is not a finding code", s)
	if best, ok := closestCode(s); ok {
		return msg + fmt.Sprintf("; did you mean %q? Codes are written in upper case, exactly as in the findings catalogue", best)
	}
	prefix, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(s)), "_")
	var same []string
	for code := range model.Catalogue {
		if p, _, _ := strings.Cut(string(code), "_"); p == prefix {
			same = append(same, string(code))
		}
	}
	sort.Strings(same)
	if len(same) > 0 {
		return msg + "; the codes that start with " + prefix + "_ are " + strings.Join(same, ", ")
	}
	return msg + "; use the code of a finding as the verification reports it (findings[*].code), such as EGRESS_UNVERIFIED"
}

// closestCode is the catalogue code nearest to s (case-insensitively, by
// edit distance), when it is near enough to be a typo: at most a third of
// its length away.
func closestCode(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	codes := make([]string, 0, len(model.Catalogue))
	for code := range model.Catalogue {
		codes = append(codes, string(code))
	}
	sort.Strings(codes)
	best, dist := "", -1
	for _, c := range codes {
		if d := editDistance(s, c); dist < 0 || d < dist {
			best, dist = c, d
		}
	}
	return best, dist >= 0 && dist*3 <= len(best)
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// CheckAcceptExpires returns the check of an accept block's expires on the
// day today: a date written YYYY-MM-DD, at most model.MaxAcceptanceDays
// days after today. A date in the past is valid here: the block is then
// expired, which the verification reports (COVERAGE_ACCEPTANCE_EXPIRED)
// rather than failing validation, so that a block that expires does not
// break `validate` of a configuration that was valid the day before.
func CheckAcceptExpires(today func() model.Date) func(string) string {
	return func(s string) string {
		d, err := model.ParseDate(s)
		if err != nil {
			return fmt.Sprintf("is %q, which is not a date written YYYY-MM-DD (for example %s)", s, today().AddDays(90))
		}
		limit := today().AddDays(model.MaxAcceptanceDays)
		if limit.Before(d) {
			return fmt.Sprintf("is %s, more than %d days after today (%s, UTC): an accepted finding must be looked at again "+
				"within a year; set expires to %s or earlier", d, model.MaxAcceptanceDays, today(), limit)
		}
		return ""
	}
}

// NotBlank returns a validator that refuses an empty or whitespace-only
// string with summary and detail (what to write instead). Unknown and null
// values pass.
func NotBlank(summary, detail string) validator.String { return notBlank{summary, detail} }

type notBlank struct{ summary, detail string }

func (v notBlank) Description(context.Context) string { return "must not be empty or only whitespace" }

func (v notBlank) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v notBlank) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, req.Path.String()+" is empty: "+v.detail)
	}
}
