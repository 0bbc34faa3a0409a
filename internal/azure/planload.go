// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"os"

	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// loadPlan reads and translates planned_changes_file. The errors are
// planned's: they name the file and say how to produce a plan JSON.
func loadPlan(path, subscriptionID string) (*planned.Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, planned.ReadError(path, err)
	}
	return planned.ParseFile(path, data, planned.Options{DefaultSubscriptionID: subscriptionID})
}
