// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"os"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// plannedChanges reads and translates planned_changes_file into the
// what-if overlay the session applies under every read (nil without the
// argument). Its errors are planned's, on the argument: they name the file
// and say how to write a plan JSON.
func plannedChanges(cfg azure.Config) (*overlay.Overlay, error) {
	if cfg.PlannedChangesFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(cfg.PlannedChangesFile)
	if err != nil {
		return nil, azure.PlannedChangesError(planned.ReadError(cfg.PlannedChangesFile, err))
	}
	plan, err := planned.ParseFile(cfg.PlannedChangesFile, data, planned.Options{DefaultSubscriptionID: cfg.SubscriptionID})
	if err != nil {
		return nil, azure.PlannedChangesError(err)
	}
	return overlay.New(plan), nil
}

// newSession is the session of cfg with the overlay of its
// planned_changes_file (nil without one).
func newSession(cfg azure.Config) (*azure.Session, *overlay.Overlay, error) {
	plan, err := plannedChanges(cfg)
	if err != nil {
		return nil, nil, err
	}
	var opts []azure.SessionOption
	if plan != nil {
		opts = append(opts, azure.WithPlannedChanges(plan))
	}
	session, err := azure.NewSession(cfg, opts...)
	if err != nil {
		return nil, nil, err
	}
	return session, plan, nil
}
