// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"math/big"
	"strings"
	"testing"
)

func TestCheckWholeNumber(t *testing.T) {
	for _, ok := range []float64{1, 8, 64} {
		if msg := CheckWholeNumber(big.NewFloat(ok), 1, 64); msg != "" {
			t.Errorf("%v: %s", ok, msg)
		}
	}
	for v, want := range map[float64]string{2.5: "got 2.5", 0: "got 0", 65: "got 65", -1: "got -1", 1e30: "got 1e+30"} {
		msg := CheckWholeNumber(big.NewFloat(v), 1, 64)
		if !strings.HasPrefix(msg, "must be a whole number from 1 to 64") || !strings.Contains(msg, want) {
			t.Errorf("%v: %q", v, msg)
		}
	}
}
