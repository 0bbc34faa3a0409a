// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
)

// providerData is what Configure hands to every data source: the session
// (clients, transport, recorder) shared by all reads of one run, or the
// arguments that were still unknown when the provider was configured.
type providerData struct {
	session *azure.Session
	// plan is the what-if overlay of planned_changes_file, which the
	// session applies under every read; nil without one.
	plan    *overlay.Overlay
	version string
	// unknown are provider arguments whose values were unknown at
	// configure time; session is nil then.
	unknown []string
	// limiter bounds the ARM requests in flight of all data sources
	// together (max_concurrent_reads).
	limiter gather.Limiter
	// reports writes pullpath_verification's reports into report_dir; nil
	// without one.
	reports *reportFiles
	// concurrency, when positive, gives each read its own bound instead,
	// so that in-process tests can compare concurrency levels.
	concurrency int
}

// deferred reports a provider configured with unknown arguments.
func (d *providerData) deferred() bool { return d != nil && len(d.unknown) > 0 }

// defaultReadTimeout bounds one data source read when timeouts.read is not
// set: generous for a hub-and-spoke estate read through ARM throttling, and
// short enough that a hung endpoint does not hold a CI plan for an hour.
const defaultReadTimeout = 5 * time.Minute

// dataSourceBase is embedded by every data source: it receives the
// providerData in Configure and prepares each read.
type dataSourceBase struct {
	data *providerData
}

// Configure stores the provider data. It is called with nil ProviderData
// during validation, before the provider is configured: that is not an
// error, the data source just cannot read yet.
func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d, ok := req.ProviderData.(*providerData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data",
			fmt.Sprintf("The data source expected *providerData, got %T. This is a bug in the pullpath provider; please report it.", req.ProviderData))
		return
	}
	b.data = d
}

// readRun is one data source read: the session, a fresh gather.Reader (its
// memo and gaps belong to this read only) and the timeout in force.
type readRun struct {
	session *azure.Session
	plan    *overlay.Overlay // planned_changes_file; nil without one
	reader  *gather.Reader
	timeout time.Duration
	// newReader returns another fresh reader with the same settings.
	newReader func() *gather.Reader
}

// startRead checks that the provider can read, applies timeouts.read to ctx
// and returns the run (nil when the read cannot start; diags say why). The
// caller defers done in every case: it writes the recording of a run that
// started, then releases the timeout.
func (b *dataSourceBase) startRead(ctx context.Context, t timeouts.Value, diags *diag.Diagnostics) (*readRun, context.Context, func()) {
	noop := func() {}
	switch {
	case b.data == nil || (b.data.session == nil && !b.data.deferred()):
		diags.AddError("Provider not configured",
			"The pullpath provider was not configured before this data source was read. "+
				"This is unexpected (Terraform configures a provider before reading its data sources); please report it.")
		return nil, ctx, noop
	case b.data.deferred():
		diags.AddError("Provider configuration not known yet",
			fmt.Sprintf("The pullpath provider arguments %s depend on values that are not known until apply, so this data source cannot be read in this plan. "+
				"Give the provider values known at plan time (not attributes of resources created in the same run), "+
				"or create those resources first (for example with -target) and plan again.", strings.Join(b.data.unknown, ", ")))
		return nil, ctx, noop
	}
	timeout, d := t.Read(ctx, defaultReadTimeout)
	diags.Append(d...)
	if d.HasError() {
		return nil, ctx, noop
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	// Sign in before reading: a credential that does not work is one error
	// about the configuration, not a failed read of every resource (which
	// the verification would report as unverified evidence).
	if err := b.data.session.SignIn(ctx); err != nil {
		diags.Append(signInFailure(err))
		return nil, ctx, cancel
	}

	newReader := func() *gather.Reader {
		reader := gather.New(b.data.session.Clients)
		if b.data.concurrency > 0 {
			reader.SetConcurrency(b.data.concurrency)
		} else {
			reader.SetLimiter(b.data.limiter)
		}
		return reader
	}
	run := &readRun{session: b.data.session, plan: b.data.plan, reader: newReader(), timeout: timeout, newReader: newReader}
	return run, ctx, func() {
		run.finish(diags)
		cancel()
	}
}

// finish writes the recording (record_file), which must happen after every
// read because Terraform has no end-of-run hook for providers.
func (r *readRun) finish(diags *diag.Diagnostics) {
	writeBenchStats(r.session)
	if err := r.session.Flush(); err != nil {
		diags.AddError("Could not write the recording",
			fmt.Sprintf("The data source read Azure, but writing what it read to record_file failed: %v. "+
				"Check that the directory is writable, or remove record_file.", err))
	}
}

// timeoutsBlock is the `timeouts { read }` block with a description that
// states the default.
func timeoutsBlock(ctx context.Context) schema.Block {
	b := timeouts.BlockWithOpts(ctx, timeouts.Opts{
		ReadDescription: fmt.Sprintf("How long the read may take, as a Go duration such as `30s` or `10m` (default `%s`). "+
			"Reads that exceed it fail with a message naming what was still being read.", shortDuration(defaultReadTimeout)),
	})
	if nb, ok := b.(schema.SingleNestedBlock); ok {
		nb.MarkdownDescription = "Timeouts of this data source."
		return nb
	}
	return b
}

// shortDuration prints whole minutes as "5m" rather than "5m0s".
func shortDuration(d time.Duration) string {
	if d > 0 && d%time.Minute == 0 {
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return d.String()
}

// stillReading names, for a timeout message, the requests the deadline cut
// off (azure.Interrupted): where the time went, usually one slow or
// throttled resource.
func stillReading(interrupted []string) string {
	if len(interrupted) == 0 {
		return ""
	}
	return " Still being read when the time ran out: " + strings.Join(interrupted, ", ") + "."
}
