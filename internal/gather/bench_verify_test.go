// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/benchutil"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// largeFacts gathers, once and without simulated latency, the facts of the
// large benchmark topology (20 pools on 5 subnets in 3 spokes,
// 10,000 learned BGP routes, 4 replicas).
func largeFacts(tb testing.TB) model.Facts {
	tb.Helper()
	topo, err := gentopo.Generate(gentopo.Defaults())
	if err != nil {
		tb.Fatal(err)
	}
	s, err := snapshot.Parse(topo.Snapshot)
	if err != nil {
		tb.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		tb.Fatal(err)
	}
	r := gather.New(azure.NewClients(azure.Options{
		Transport:  replay,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := r.VerificationFacts(ctx, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)})
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// BenchmarkVerifyLargeTopology times verify.Run (evaluation only, no I/O)
// on the large generated topology. Target: ≤ 20 ms per op.
func BenchmarkVerifyLargeTopology(b *testing.B) {
	f := largeFacts(b)
	if res := verify.Run(f); res.Verdict != model.Reachable {
		b.Fatalf("verdict %s\n%s", res.Verdict, res.Summary)
	}
	// Collect the setup's garbage (the snapshot's JSON, the gathered
	// facts' intermediates) now, so that the loop's CPU time is the
	// evaluation's alone.
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	clock := benchutil.Start()
	for b.Loop() {
		verify.Run(f)
	}
	clock.ReportCPUPerOp(b)
}

func TestLargeTopologyIsReachable(t *testing.T) {
	if testing.Short() {
		t.Skip("large topology")
	}
	res := verify.Run(largeFacts(t))
	if res.Verdict != model.Reachable {
		t.Fatalf("verdict %s\n%s", res.Verdict, res.Summary)
	}
	for _, fd := range res.Findings {
		if fd.Severity != model.SeverityInfo {
			t.Errorf("finding above info: %s %s: %s", fd.Severity, fd.Code, fd.Message)
		}
	}
}

// The summary of the benchmark topology (20 pools × 5 hostnames, all
// reachable) fits a terminal: at most 60 lines of at most 100 columns.
func TestLargeTopologySummaryFitsATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("large topology")
	}
	res := verify.Run(largeFacts(t))
	if len(res.Paths) != 100 || res.Verdict != model.Reachable {
		t.Fatalf("%d paths, verdict %s: not the benchmark topology", len(res.Paths), res.Verdict)
	}
	lines := strings.Split(strings.TrimSuffix(res.Summary, "\n"), "\n")
	if len(lines) > 60 {
		t.Errorf("the summary has %d lines, at most 60:\n%s", len(lines), res.Summary)
	}
	for i, line := range lines {
		if n := utf8.RuneCountInString(line); n > verify.SummaryWidth {
			t.Errorf("line %d is %d columns, at most %d: %q", i+1, n, verify.SummaryWidth, line)
		}
	}
}
