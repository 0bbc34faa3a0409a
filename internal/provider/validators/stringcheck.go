// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// StringCheck returns a validator that reports check's message ("" when
// valid) as an attribute error with the given summary; what completes the
// description "must be …".
func StringCheck(summary, what string, check func(string) string) validator.String {
	return stringCheck{summary: summary, what: what, check: check}
}

// stringCheck validates a literal argument with a check of package azure,
// so that `validate` reports what Configure would, on the argument, before
// any plan. Values from the environment are checked at configure time by
// the same function.
type stringCheck struct {
	summary string
	what    string
	check   func(string) string // "" when valid, else the message
}

var _ validator.String = stringCheck{}

func (v stringCheck) Description(context.Context) string { return "must be " + v.what }

func (v stringCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return // LengthAtLeast reports an empty string
	}
	if msg := v.check(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, req.Path.String()+" "+msg+".")
	}
}
