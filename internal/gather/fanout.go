// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// The one way the Reader runs work concurrently. Every fan-out in gather
// goes through eachIndex (as each, mapEach or all), so that these hold
// everywhere:
//
//   - Width: at most r.concurrency() calls of one fan-out run at a time
//     (the number of requests that can be in flight, so more would only
//     wait), in item order as workers free up.
//   - No deadlock when nested: a fan-out holds no request slot. Slots are
//     taken by acquire around SDK calls only, and released before any
//     memoised read or further fan-out; a call waiting on its own
//     children, or on a memoised read another call is making, holds
//     nothing another call needs. Items not started yet own nothing (a
//     memoised read belongs to the call that started it), so even a
//     width of 1 with fan-outs nested inside fan-outs completes.
//   - Deterministic results: mapEach's results are in item order, never
//     in the order calls finished.
//   - Cancellation: fn gets ctx. Once ctx is done, every read through the
//     Reader returns ctx's error at once without sending a request
//     (acquire), so a fan-out ends promptly. Items not started yet are
//     still called (with the done ctx): a read that is not made must leave
//     its gap or its unknown mark like any failed read, never be silently
//     absent from the facts.
//   - Nothing is recovered silently: a panic in fn is caught in its
//     goroutine, the other calls run to their end, and then the fan-out
//     panics again in the caller's goroutine with a *fanoutPanic that
//     carries the original value and stack (the lowest-index item's when
//     several panicked); nested fan-outs pass it up unchanged. A call that
//     ends its goroutine with runtime.Goexit (t.FailNow in a test) makes
//     the caller's goroutine Goexit once the others have ended.

// each calls fn(ctx, item) for every item, concurrently within the
// Reader's width, and returns when every call has returned.
func each[T any](ctx context.Context, r *Reader, items []T, fn func(context.Context, T)) {
	eachIndex(ctx, r, len(items), func(ctx context.Context, i int) { fn(ctx, items[i]) })
}

// mapEach calls fn for every item like each and returns fn's answers in
// item order: out[i] and errs[i] answer items[i], whatever order the calls
// finished in.
func mapEach[T, R any](ctx context.Context, r *Reader, items []T, fn func(context.Context, T) (R, error)) (out []R, errs []error) {
	out, errs = make([]R, len(items)), make([]error, len(items))
	eachIndex(ctx, r, len(items), func(ctx context.Context, i int) { out[i], errs[i] = fn(ctx, items[i]) })
	return out, errs
}

// all runs the tasks concurrently like each and returns when all have
// returned.
func all(ctx context.Context, r *Reader, tasks ...func(context.Context)) {
	eachIndex(ctx, r, len(tasks), func(ctx context.Context, i int) { tasks[i](ctx) })
}

// eachIndex calls fn(ctx, i) for i in [0, n) on at most r.concurrency()
// goroutines, which take the indices in order; see the rules above.
func eachIndex(ctx context.Context, r *Reader, n int, fn func(context.Context, int)) {
	if n == 0 {
		return
	}
	width := min(r.concurrency(), n)
	panics := make([]*fanoutPanic, n)
	var next atomic.Int64
	var exited atomic.Bool
	var wg sync.WaitGroup
	for range width {
		wg.Go(func() {
			done := false
			defer func() {
				// Only runtime.Goexit ends a worker early: callFn
				// recovers panics.
				if !done {
					exited.Store(true)
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					done = true
					return
				}
				panics[i] = callFn(ctx, fn, i)
			}
		})
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
	if exited.Load() {
		runtime.Goexit()
	}
}

// callFn calls fn(ctx, i) and returns the panic it raised, if any.
func callFn(ctx context.Context, fn func(context.Context, int), i int) (p *fanoutPanic) {
	defer func() {
		if v := recover(); v != nil {
			if inner, ok := v.(*fanoutPanic); ok {
				p = inner // from a nested fan-out: its stack is the one that matters
				return
			}
			p = &fanoutPanic{Value: v, Stack: debug.Stack()}
		}
	}()
	fn(ctx, i)
	return nil
}

// fanoutPanic is what a fan-out panics with in the caller's goroutine when
// one of its calls panicked: the original value and the stack of the
// goroutine that raised it.
type fanoutPanic struct {
	Value any
	Stack []byte
}

func (p *fanoutPanic) Error() string {
	return fmt.Sprintf("%v\n\ngoroutine of the concurrent read that panicked:\n%s", p.Value, p.Stack)
}

// Unwrap gives the original value when it is an error.
func (p *fanoutPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}
