// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// withConcurrency is a Reader without clients whose fan-outs are n wide.
func withConcurrency(n int) *Reader {
	r := New(nil)
	r.SetConcurrency(n)
	return r
}

// finishes fails the test when f does not return within 10 s (a deadlock).
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return within 10 s:\n%s", what, goroutines())
	}
}

func goroutines() string {
	buf := make([]byte, 1<<16)
	return string(buf[:runtime.Stack(buf, true)])
}

// Results are in item order, whatever order the calls finish in: here the
// last item finishes first and the first last.
func TestMapEachKeepsItemOrder(t *testing.T) {
	const n = 6
	r := withConcurrency(n)
	finished := make([]chan struct{}, n+1)
	for i := range finished {
		finished[i] = make(chan struct{})
	}
	close(finished[n])
	items := []string{"a", "b", "c", "d", "e", "f"}
	var order []int
	var mu sync.Mutex
	var out []string
	var errs []error
	finishes(t, "mapEach", func() {
		out, errs = mapEach(t.Context(), r, items, func(_ context.Context, s string) (string, error) {
			i := strings.Index("abcdef", s)
			<-finished[i+1] // item i waits for item i+1
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			close(finished[i])
			if i%2 == 1 {
				return "", fmt.Errorf("item %s", s)
			}
			return strings.ToUpper(s), nil
		})
	})
	if want := []int{5, 4, 3, 2, 1, 0}; !reflect.DeepEqual(order, want) {
		t.Fatalf("calls finished in order %v, the test needs %v", order, want)
	}
	if want := []string{"A", "", "C", "", "E", ""}; !reflect.DeepEqual(out, want) {
		t.Errorf("results %q, want %q (item order)", out, want)
	}
	for i, err := range errs {
		if (i%2 == 1) != (err != nil) || (err != nil && err.Error() != "item "+items[i]) {
			t.Errorf("errs[%d] = %v, want item %s's own error or nil", i, err, items[i])
		}
	}
}

// A fan-out runs as many calls at once as the Reader has request slots,
// and no more.
func TestEachWidthIsTheReadersConcurrency(t *testing.T) {
	for _, width := range []int{1, 3} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			r := withConcurrency(width)
			var inFlight, peak, calls atomic.Int64
			full := make(chan struct{})
			var once sync.Once
			items := make([]int, 20)
			finishes(t, "each", func() {
				each(t.Context(), r, items, func(context.Context, int) {
					now := inFlight.Add(1)
					defer inFlight.Add(-1)
					calls.Add(1)
					for {
						p := peak.Load()
						if now <= p || peak.CompareAndSwap(p, now) {
							break
						}
					}
					if now == int64(width) {
						once.Do(func() { close(full) })
					}
					// The first calls wait until width of them run at once:
					// a narrower fan-out never gets there and times out.
					// Then each stays a while, for a wider one to show.
					<-full
					time.Sleep(5 * time.Millisecond)
				})
			})
			if calls.Load() != int64(len(items)) {
				t.Errorf("%d calls for %d items", calls.Load(), len(items))
			}
			if peak.Load() != int64(width) {
				t.Errorf("%d calls at once, want the Reader's concurrency %d", peak.Load(), width)
			}
		})
	}
}

// Fan-outs nested three deep under a bound of one request in flight, whose
// calls take request slots and wait on memoised reads that calls in other
// branches make, all complete: no fan-out holds a slot while it waits.
func TestNestedFanOutsUnderABoundOfOneDoNotDeadlock(t *testing.T) {
	r := withConcurrency(1)
	ctx := t.Context()
	var requests atomic.Int64
	request := func(ctx context.Context) error {
		release, err := r.acquire(ctx)
		if err != nil {
			return err
		}
		defer release()
		requests.Add(1)
		return nil
	}
	// shared is a memoised read that every branch asks for; the one that
	// asks first makes it, itself with a fan-out inside.
	shared := func(ctx context.Context, key string) (int, error) {
		return once(r, "shared "+key, func() (int, error) {
			counts, _ := mapEach(ctx, r, []int{1, 2, 3}, func(ctx context.Context, v int) (int, error) {
				return v, request(ctx)
			})
			return counts[0] + counts[1] + counts[2], nil
		})
	}
	var sum atomic.Int64
	finishes(t, "nested fan-outs", func() {
		each(ctx, r, []string{"a", "b", "c"}, func(ctx context.Context, outer string) {
			if err := request(ctx); err != nil {
				t.Error(err)
			}
			each(ctx, r, []string{"x", "y"}, func(ctx context.Context, inner string) {
				if err := request(ctx); err != nil {
					t.Error(err)
				}
				all(ctx, r,
					func(ctx context.Context) {
						v, err := shared(ctx, inner)
						if err != nil {
							t.Error(err)
						}
						sum.Add(int64(v))
					},
					func(ctx context.Context) {
						if err := request(ctx); err != nil {
							t.Error(err)
						}
					})
			})
		})
	})
	// 3 outer + 6 inner + 6 task requests, and the shared reads (one per
	// inner key, 3 requests each) made once.
	if got, want := requests.Load(), int64(3+6+6+2*3); got != want {
		t.Errorf("%d requests, want %d", got, want)
	}
	if got := sum.Load(); got != 6*6 {
		t.Errorf("shared reads summed to %d, want %d", got, 6*6)
	}
}

// The same holds for the real reads: the facts of a scenario gathered one
// request at a time are those gathered eight at a time.
func TestVerificationFactsOneRequestAtATime(t *testing.T) {
	snap, _ := filepath.Abs(filepath.Join("testdata", "baseline_ok.json"))
	facts := func(concurrency int) verify.Result {
		s, err := azure.NewSession(azure.Config{SnapshotFile: snap})
		if err != nil {
			t.Fatal(err)
		}
		r := New(s.Clients)
		r.SetConcurrency(concurrency)
		var res verify.Result
		finishes(t, fmt.Sprintf("VerificationFacts at concurrency %d", concurrency), func() {
			f, err := r.VerificationFacts(testCtx(t), acrRequest)
			if err != nil {
				t.Error(err)
				return
			}
			res = verify.Run(f)
		})
		return res
	}
	one, eight := facts(1), facts(8)
	if one.Verdict == "" || !reflect.DeepEqual(one, eight) {
		t.Errorf("one request at a time: %s, %d findings; eight: %s, %d findings", one.Verdict, len(one.Findings), eight.Verdict, len(eight.Findings))
	}
}

// Once ctx is done, the calls not started yet still run (a read that is not
// made must leave its gap like any failed read), and every read in them
// fails at once with ctx's error instead of sending a request, even with a
// request slot free.
func TestEachAfterCancellation(t *testing.T) {
	r := withConcurrency(1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errs := make([]error, 5)
	finishes(t, "each after cancel", func() {
		each(ctx, r, []int{0, 1, 2, 3, 4}, func(ctx context.Context, i int) {
			if i == 1 {
				cancel()
			}
			release, err := r.acquire(ctx)
			if err == nil {
				release()
			}
			errs[i] = err
		})
	})
	if errs[0] != nil {
		t.Errorf("the read before cancellation failed: %v", errs[0])
	}
	for i := 1; i < len(errs); i++ {
		if !errors.Is(errs[i], context.Canceled) {
			t.Errorf("call %d after cancellation: %v, want context.Canceled", i, errs[i])
		}
	}
	// The slot is free: a done ctx must still never get it (a select
	// between a free slot and a done ctx would pick either at random).
	for range 200 {
		if release, err := r.acquire(ctx); err == nil {
			release()
			t.Fatal("a request slot was handed out after ctx was cancelled")
		}
	}
}

// A panic in a call reaches the caller's goroutine once every call has
// ended, with the original value and stack; from nested fan-outs it
// arrives unchanged; of several, the first item's wins.
func TestEachPanicReachesTheCaller(t *testing.T) {
	catch := func(f func()) (p any) {
		defer func() { p = recover() }()
		f()
		return nil
	}
	t.Run("value, stack, others run", func(t *testing.T) {
		r := withConcurrency(2)
		var calls atomic.Int64
		boom := errors.New("boom")
		var p any
		finishes(t, "each with a panic", func() {
			p = catch(func() {
				each(t.Context(), r, []int{0, 1, 2, 3, 4}, func(_ context.Context, i int) {
					calls.Add(1)
					if i == 2 {
						panicInRead(boom)
					}
				})
			})
		})
		fp, ok := p.(*fanoutPanic)
		if !ok {
			t.Fatalf("recovered %#v, want a *fanoutPanic", p)
		}
		if fp.Value != boom || !errors.Is(fp, boom) { //nolint:errorlint // the recovered value itself, not an error chain
			t.Errorf("panic value %v, want the original %v", fp.Value, boom)
		}
		if !strings.Contains(string(fp.Stack), "panicInRead") || !strings.Contains(fp.Error(), "panicInRead") {
			t.Errorf("the panic does not carry the stack of the call that panicked:\n%s", fp.Error())
		}
		if calls.Load() != 5 {
			t.Errorf("%d of 5 calls ran: a panic must not leave the other reads unfinished", calls.Load())
		}
	})
	t.Run("nested", func(t *testing.T) {
		r := withConcurrency(1)
		var p any
		finishes(t, "nested each with a panic", func() {
			p = catch(func() {
				all(t.Context(), r, func(ctx context.Context) {
					each(ctx, r, []int{0, 1}, func(_ context.Context, i int) {
						if i == 1 {
							panicInRead("inner")
						}
					})
				})
			})
		})
		fp, ok := p.(*fanoutPanic)
		if !ok || fp.Value != "inner" || strings.Count(fp.Error(), "goroutine of the concurrent read") != 1 {
			t.Errorf("recovered %#v, want the inner panic once", p)
		}
	})
	t.Run("first item wins", func(t *testing.T) {
		for range 20 {
			r := withConcurrency(4)
			var p any
			finishes(t, "each with panics", func() {
				p = catch(func() {
					each(t.Context(), r, []int{0, 1, 2, 3}, func(_ context.Context, i int) {
						if i == 1 || i == 3 {
							panicInRead(i)
						}
					})
				})
			})
			if fp, ok := p.(*fanoutPanic); !ok || fp.Value != 1 {
				t.Fatalf("recovered %#v, want item 1's panic", p)
			}
		}
	})
}

//go:noinline
func panicInRead(v any) { panic(v) }

// A call that ends its goroutine (t.FailNow in a test) ends the caller's
// goroutine too, once the other calls have ended; the fan-out does not
// return as if it had completed.
func TestEachGoexitEndsTheCaller(t *testing.T) {
	r := withConcurrency(2)
	var calls atomic.Int64
	returned := false
	finishes(t, "each with Goexit", func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			each(t.Context(), r, []int{0, 1, 2, 3}, func(_ context.Context, i int) {
				calls.Add(1)
				if i == 0 {
					runtime.Goexit()
				}
			})
			returned = true
		}()
		<-done
	})
	if returned {
		t.Error("each returned normally after a call ended its goroutine")
	}
	if calls.Load() != 4 {
		t.Errorf("%d of 4 calls ran", calls.Load())
	}
}

func TestEachOfNothing(t *testing.T) {
	called := false
	each(t.Context(), New(nil), []int(nil), func(context.Context, int) { called = true })
	out, errs := mapEach(t.Context(), New(nil), []int{}, func(context.Context, int) (int, error) { called = true; return 0, nil })
	all(t.Context(), New(nil))
	if called || len(out) != 0 || len(errs) != 0 {
		t.Error("a fan-out over no items called fn or returned results")
	}
}
