// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/report"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
	"github.com/pullpath/terraform-provider-pullpath/internal/whatif"
)

// verificationRun is what one read of pullpath_verification knows besides
// its result: the request, the arguments in force, what the read cost.
type verificationRun struct {
	request                   gather.VerificationRequest
	enforce, failOnUnverified bool
	// failsPlan is whether the read's diagnostics fail the plan
	// (enforcementDiagnostics has an error).
	failsPlan   bool
	armRequests int64
	took        time.Duration
	plan        *overlay.Overlay
	version     string
	finished    time.Time
	// notChecked are the errors of a read that failed closed (the report's
	// outcome is then not_checked); declaredIn is where the configuration
	// declares the verification.
	notChecked []report.NotChecked
	declaredIn report.DeclaredIn
}

// reportInput is the report of one verification (package report).
func reportInput(v verificationRun, res verify.Result) report.Input {
	q := v.request
	in := report.Input{
		ClusterID: q.ClusterID, NodeSubnetIDs: q.NodeSubnetIDs, NodePools: q.NodePools,
		RegistryID: q.RegistryID, PullCredentials: q.PullCredentials,
		Enforce: v.enforce, FailOnUnverified: v.failOnUnverified, FailsPlan: v.failsPlan,
		Result: res, ARMRequests: v.armRequests, Duration: v.took,
		ProviderVersion: v.version, Generated: v.finished,
		NotChecked: v.notChecked, DeclaredIn: v.declaredIn,
	}
	if q.Declared != nil {
		in.RegistryHosts = q.Declared.Hosts
	}
	if v.plan != nil {
		pc := &report.PlannedChanges{Applied: v.plan.Addresses()}
		for _, p := range whatif.NotApplied(v.plan) {
			pc.NotApplied = append(pc.NotApplied, report.NotApplied{Address: p.Address, Reason: p.Reason})
		}
		in.PlannedChanges = pc
	}
	return in
}

// reportKey orders the reports that share a file name (reportFiles): the
// verification's arguments, ids in lower case, sets sorted.
func reportKey(v verificationRun) string {
	q := v.request
	q.NodePools = slices.Sorted(slices.Values(q.NodePools))
	q.ZoneSubscriptionIDs = slices.Sorted(slices.Values(q.ZoneSubscriptionIDs))
	b, err := json.Marshal(struct {
		Request                   gather.VerificationRequest
		Enforce, FailOnUnverified bool
	}{q, v.enforce, v.failOnUnverified})
	if err != nil {
		// The request is plain data; a failure here would be a new field
		// that cannot be encoded. Its text still orders the reports.
		return fmt.Sprintf("%v", q)
	}
	return strings.ToLower(string(b))
}

// writeReports writes the verification's report files into report_dir
// (when the provider has one): JSON, SARIF, Markdown and JUnit XML,
// rendered by package report; for a read that failed closed too
// (v.notChecked), whose report says outcome not_checked. A failure is an error diagnostic naming the directory,
// the file and what to do; the attributes are still set.
func writeReports(files *reportFiles, v verificationRun, res verify.Result) diag.Diagnostics {
	var diags diag.Diagnostics
	if files == nil {
		return diags
	}
	r := report.Build(reportInput(v, res))
	name := report.Name(r)
	_, err := files.write(name, reportKey(v), [][]byte{report.JSON(r), report.SARIF(r), report.Markdown(r), report.JUnit(r)})
	if err != nil {
		diags.AddError("Could not write the verification report to report_dir",
			fmt.Sprintf("The verification of %s finished (verdict %s, outcome %s), but writing its report files %s.{json,sarif,md,junit.xml} "+
				"into the provider's report_dir %q failed: %v.\n\n"+
				"Set report_dir (or PULLPATH_REPORT_DIR) of the pullpath provider to a directory that the user running "+
				"Terraform can create and write to (for example a fresh directory in the pipeline's workspace), or unset it "+
				"to write no reports. The verdict and findings are in this data source's attributes.",
				r.Title(), r.Verdict, r.Outcome, name, files.dir, err))
	}
	return diags
}

// notCheckedOf is the errors of a read that failed closed, as the report
// carries them: the argument each names (its attribute path), the summary
// and the detail.
func notCheckedOf(failure diag.Diagnostics) []report.NotChecked {
	var out []report.NotChecked
	for _, d := range failure.Errors() {
		nc := report.NotChecked{Cause: d.Summary(), Detail: d.Detail()}
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			nc.Argument = wp.Path().String()
		}
		out = append(out, nc)
	}
	return out
}

// reportFiles is the provider's report writer; nil when the provider has
// no report_dir or is not configured.
func (b *dataSourceBase) reportFiles() *reportFiles {
	if b.data == nil {
		return nil
	}
	return b.data.reports
}
