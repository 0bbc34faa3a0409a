// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
)

// TestPlannedChangesFileErrorsNameTheArgument: a planned_changes_file that
// cannot be read or is not a plan JSON is an error on the argument that
// names the file; a plan JSON gives the session an overlay.
func TestPlannedChangesFileErrorsNameTheArgument(t *testing.T) {
	dir := t.TempDir()
	snapshot := "../azure/testdata/baseline_ok.json"
	for name, content := range map[string]string{
		"not-json.json": "this is not a plan",
		"state.json":    `{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{}}}`,
		"future.json":   `{"format_version":"9.0","resource_changes":[]}`,
		"missing.json":  "",
		"errored.json":  `{"format_version":"1.2","terraform_version":"1.10.2","resource_changes":[],"errored":true}`,
	} {
		p := filepath.Join(dir, name)
		if content != "" {
			if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := newSession(azure.Config{SnapshotFile: snapshot, PlannedChangesFile: p})
		var ae *azure.ArgumentError
		if !errors.As(err, &ae) || ae.Argument != "planned_changes_file" {
			t.Errorf("%s: err = %v, want an ArgumentError on planned_changes_file", name, err)
			continue
		}
		if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "PULLPATH_PLANNED_CHANGES_FILE") {
			t.Errorf("%s: message does not name the file and the argument: %v", name, err)
		}
		if name == "errored.json" && !strings.Contains(err.Error(), `"errored": true`) {
			t.Errorf("%s: message does not name the cause: %v", name, err)
		}
	}
	_, plan, err := newSession(azure.Config{SnapshotFile: snapshot, PlannedChangesFile: "../planned/testdata/plan_v4_network.json"})
	if err != nil {
		t.Fatalf("a plan JSON: %v", err)
	}
	if plan == nil || len(plan.Addresses()) == 0 {
		t.Errorf("no overlay for a plan with changes")
	}
	if _, plan, err := newSession(azure.Config{SnapshotFile: snapshot}); err != nil || plan != nil {
		t.Errorf("without planned_changes_file: overlay %v, err %v", plan, err)
	}
}
