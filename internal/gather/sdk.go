package gather

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// pollFrequency is how often long-running read actions (effective route
// table, gateway routes) are polled. The SDK default of 30 s would make a
// plan wait for nothing; ARM answers these in seconds.
var pollFrequency = 2 * time.Second

func pollOptions() *runtime.PollUntilDoneOptions {
	return &runtime.PollUntilDoneOptions{Frequency: pollFrequency}
}

// pollAction runs a long-running read action: it holds a request slot
// (acquire: the Reader's acquire or acquireAction) for the call, starts
// the action with begin and polls it until Azure has the answer.
func pollAction[T any](ctx context.Context, acquire func(context.Context) (func(), error), begin func(context.Context) (*runtime.Poller[T], error)) (T, error) {
	var zero T
	release, err := acquire(ctx)
	if err != nil {
		return zero, err
	}
	defer release()
	p, err := begin(ctx)
	if err != nil {
		return zero, err
	}
	return p.PollUntilDone(ctx, pollOptions())
}

// DefaultConcurrency is how many requests a Reader has in flight at most,
// unless SetConcurrency says otherwise.
const DefaultConcurrency = 16

const semaphoreKey = "\x00concurrency"

// SetConcurrency sets how many requests the Reader sends at the same time
// (DefaultConcurrency when not set). It takes effect only before the
// Reader's first read.
func (r *Reader) SetConcurrency(n int) {
	if n > 0 {
		r.SetLimiter(NewLimiter(n))
	}
}

// Limiter bounds requests in flight; Readers that share one share the
// bound (the provider's max_concurrent_reads holds for all its data
// sources together, whatever Terraform reads in parallel).
//
// When every slot is taken, a read action waiting for one (a POST that
// takes seconds: a gateway's learned routes, a NIC's effective routes, a
// VNet's forwarding rulesets or resolvers, the Resource Graph search)
// gets the next free slot before the GETs waiting, each kind in the order
// it asked: the longest reads start first, so that a burst of quick reads
// (a cluster's NIC lists) does not hold back the read the verdict waits
// longest for.
type Limiter = *slots

// slots is the Limiter: size slots, used of them taken, and the waiters
// for one (actions first).
type slots struct {
	mu      sync.Mutex
	size    int
	used    int
	actions []*slotWaiter
	reads   []*slotWaiter
}

type slotWaiter struct {
	ready   chan struct{}
	granted bool
}

// NewLimiter returns a bound of n requests in flight (DefaultConcurrency
// when n < 1).
func NewLimiter(n int) Limiter {
	if n < 1 {
		n = DefaultConcurrency
	}
	return &slots{size: n}
}

// Cap is the number of requests the Limiter lets be in flight.
func (s *slots) Cap() int { return s.size }

// take waits for a slot (action: the read is a read action) until ctx
// ends.
func (s *slots) take(ctx context.Context, action bool) (release func(), err error) {
	s.mu.Lock()
	if s.used < s.size {
		// A slot is free only while nobody waits: release hands a
		// freed slot to the next waiter directly.
		s.used++
		s.mu.Unlock()
		return s.release, nil
	}
	w := &slotWaiter{ready: make(chan struct{})}
	if action {
		s.actions = append(s.actions, w)
	} else {
		s.reads = append(s.reads, w)
	}
	s.mu.Unlock()
	select {
	case <-w.ready:
		return s.release, nil
	case <-ctx.Done():
		s.mu.Lock()
		if w.granted {
			s.mu.Unlock()
			s.release()
			return nil, ctx.Err()
		}
		s.actions = slices.DeleteFunc(s.actions, func(x *slotWaiter) bool { return x == w })
		s.reads = slices.DeleteFunc(s.reads, func(x *slotWaiter) bool { return x == w })
		s.mu.Unlock()
		return nil, ctx.Err()
	}
}

// release frees a slot: to the first action waiting, else the first read
// waiting, else back to the pool.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	var w *slotWaiter
	switch {
	case len(s.actions) > 0:
		w, s.actions = s.actions[0], s.actions[1:]
	case len(s.reads) > 0:
		w, s.reads = s.reads[0], s.reads[1:]
	default:
		s.used--
		return
	}
	w.granted = true
	close(w.ready)
}

// SetLimiter makes the Reader take its request slots from l. It takes
// effect only before the Reader's first read.
func (r *Reader) SetLimiter(l Limiter) {
	if l != nil {
		prime(r, semaphoreKey, l)
	}
}

// semaphore bounds the Reader's requests in flight. It lives in the memo:
// per Reader unless SetLimiter shares one.
func (r *Reader) semaphore() Limiter {
	s, _ := once(r, semaphoreKey, func() (Limiter, error) {
		return NewLimiter(DefaultConcurrency), nil
	})
	return s
}

// concurrency is the Reader's request bound.
func (r *Reader) concurrency() int { return r.semaphore().Cap() }

// acquire takes a request slot. Slots are held only around SDK calls that
// wait on nothing but Azure (never across a memoised read, another acquire
// or a fan-out), so nested fan-outs cannot deadlock (see fanout.go). Once
// ctx is done it fails at once, even with a slot free: no request is sent
// for a read that was cancelled or timed out.
func (r *Reader) acquire(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.semaphore().take(ctx, false)
}

// acquireAction is acquire for a read action (a POST that takes seconds),
// which gets a slot before the GETs waiting (Limiter).
func (r *Reader) acquireAction(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.semaphore().take(ctx, true)
}

// collectAction is collect for a pager whose first request is a read
// action (listDnsForwardingRulesets, listDnsResolvers).
func collectAction[R any, T any](ctx context.Context, r *Reader, p *runtime.Pager[R], items func(R) []*T) ([]*T, error) {
	release, err := r.acquireAction(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return pages(ctx, p, items)
}

// collect reads every page of a pager, holding one request slot.
func collect[R any, T any](ctx context.Context, r *Reader, p *runtime.Pager[R], items func(R) []*T) ([]*T, error) {
	release, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return pages(ctx, p, items)
}

// pages reads every page of a pager.
func pages[R any, T any](ctx context.Context, p *runtime.Pager[R], items func(R) []*T) ([]*T, error) {
	var out []*T
	for p.More() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, it := range items(page) {
			if it != nil {
				out = append(out, it)
			}
		}
	}
	return out, nil
}

// read memoises one read of id under kind and records its failure as a gap
// with the permission the read needs (except a partialError, whose failed
// parts recorded their own gaps and whose value is kept).
func read[T any](r *Reader, kind string, id model.ResourceID, permission string, get func() (T, error)) (T, error) {
	return once(r, memoKey(kind, id), func() (T, error) {
		v, err := get()
		var partial partialError
		if errors.As(err, &partial) {
			// A usable partial result; its failed parts are gaps already.
			return v, err
		}
		if err != nil {
			var zero T
			return zero, r.fail(id, permission, err)
		}
		return v, nil
	})
}

// joinErrs joins errors, nil when there are none.
func joinErrs(errs []error) error { return errors.Join(errs...) }
