package gather

import (
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Data sources of one plan read through one session, each with its own
// Reader, at the same time (Terraform reads independent data sources in
// parallel). The session's cache must make every resource cost one request
// across all of them, and each Reader must still see exactly what it sees
// alone, gaps included.
func TestReadersSharingASessionSendEachRequestOnce(t *testing.T) {
	for _, scenario := range []string{"baseline_ok", "faults_403"} {
		t.Run(scenario, func(t *testing.T) {
			snap, _ := filepath.Abs(filepath.Join("testdata", scenario+".json"))
			alone := func() (verify.Result, int) {
				s, err := azure.NewSession(azure.Config{SnapshotFile: snap})
				if err != nil {
					t.Fatal(err)
				}
				f, err := New(s.Clients).VerificationFacts(t.Context(), acrRequest)
				if err != nil {
					t.Fatal(err)
				}
				requests, _, _ := s.ReplayStats()
				return verify.Run(f), requests
			}
			want, sentAlone := alone()

			s, err := azure.NewSession(azure.Config{SnapshotFile: snap})
			if err != nil {
				t.Fatal(err)
			}
			const readers = 4
			results := make([]verify.Result, readers)
			var wg sync.WaitGroup
			for i := range readers {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					defer cancel()
					r := New(s.Clients)
					if i%2 == 1 {
						// Another data source's reads of the same network
						// race with the verification's.
						if _, err := r.VNet(ctx, vnetSpoke); err != nil && scenario == "baseline_ok" {
							t.Error(err)
						}
					}
					f, err := r.VerificationFacts(ctx, acrRequest)
					if err != nil {
						t.Error(err)
						return
					}
					results[i] = verify.Run(f)
				})
			}
			wg.Wait()
			for i, got := range results {
				if !reflect.DeepEqual(got.Findings, want.Findings) || got.Verdict != want.Verdict {
					t.Errorf("reader %d: verdict %s, %d findings; alone: %s, %d findings", i, got.Verdict, len(got.Findings), want.Verdict, len(want.Findings))
				}
			}
			// Failed reads are not kept, so with a 403 each reader asks
			// again (and each reports the gap); successes are shared.
			requests, distinct, _ := s.ReplayStats()
			if scenario == "baseline_ok" && (requests != distinct || requests != sentAlone) {
				t.Errorf("%d readers sent %d requests for %d distinct reads; one reader alone sends %d", readers, requests, distinct, sentAlone)
			}
			if scenario == "faults_403" && requests <= sentAlone {
				t.Errorf("%d readers sent %d requests, no more than one alone (%d): a refused read was shared", readers, requests, sentAlone)
			}
		})
	}
}

// max_concurrent_reads holds for all data sources together: Readers given
// one Limiter take their request slots from it, not each from its own.
func TestReadersSharingALimiterShareTheBound(t *testing.T) {
	l := NewLimiter(3)
	a, b := New(nil), New(nil)
	a.SetLimiter(l)
	b.SetLimiter(l)
	ctx := context.Background()
	var releases []func()
	for _, r := range []*Reader{a, b, a} {
		release, err := r.acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	// Three slots are taken across both Readers: a fourth ask waits.
	waiting, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := b.acquire(waiting); err == nil {
		t.Fatal("a fourth request got a slot beyond max_concurrent_reads = 3 shared by two readers")
	}
	releases[0]()
	if release, err := b.acquire(ctx); err != nil {
		t.Fatalf("a freed slot was not handed on: %v", err)
	} else {
		release()
	}
	if a.concurrency() != 3 || b.concurrency() != 3 {
		t.Errorf("fan-out widths %d and %d, want the limiter's 3", a.concurrency(), b.concurrency())
	}
}
