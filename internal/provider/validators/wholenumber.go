// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// WholeNumber checks a number argument that counts something: a whole
// number from min to max. Such arguments are Number, not Int64, in the
// schema: the framework converts an Int64 before any validator runs, so
// `2.5` would end in a conversion error that blames the provider instead
// of naming the argument and what it accepts.
func WholeNumber(minimum, maximum int64) validator.Number {
	return wholeNumberValidator{minimum: minimum, maximum: maximum}
}

type wholeNumberValidator struct{ minimum, maximum int64 }

func (v wholeNumberValidator) Description(context.Context) string {
	return fmt.Sprintf("a whole number from %d to %d", v.minimum, v.maximum)
}

func (v wholeNumberValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v wholeNumberValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := CheckWholeNumber(req.ConfigValue.ValueBigFloat(), v.minimum, v.maximum); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), req.Path.String()+" "+msg)
	}
}

// CheckWholeNumber is "" for a whole number from minimum to maximum, else
// what is wrong ("must be a whole number from 1 to 64, got 2.5").
func CheckWholeNumber(f *big.Float, minimum, maximum int64) string {
	if f == nil {
		return ""
	}
	n, acc := f.Int64()
	if !f.IsInt() || acc != big.Exact || n < minimum || n > maximum {
		return fmt.Sprintf("must be a whole number from %d to %d, got %s", minimum, maximum, f.Text('g', -1))
	}
	return ""
}
