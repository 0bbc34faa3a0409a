package gather

import (
	"context"
	"errors"
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

// DefaultConcurrency is how many requests a Reader has in flight at most,
// unless SetConcurrency says otherwise.
const DefaultConcurrency = 8

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
type Limiter chan struct{}

// NewLimiter returns a bound of n requests in flight (DefaultConcurrency
// when n < 1).
func NewLimiter(n int) Limiter {
	if n < 1 {
		n = DefaultConcurrency
	}
	return make(Limiter, n)
}

// SetLimiter makes the Reader take its request slots from l. It takes
// effect only before the Reader's first read.
func (r *Reader) SetLimiter(l Limiter) {
	if l != nil {
		prime(r, semaphoreKey, (chan struct{})(l))
	}
}

// semaphore bounds the Reader's requests in flight. It lives in the memo:
// per Reader unless SetLimiter shares one.
func (r *Reader) semaphore() chan struct{} {
	s, _ := once(r, semaphoreKey, func() (chan struct{}, error) {
		return make(chan struct{}, DefaultConcurrency), nil
	})
	return s
}

// concurrency is the Reader's request bound.
func (r *Reader) concurrency() int { return cap(r.semaphore()) }

// acquire takes a request slot. Slots are held only around SDK calls that
// wait on nothing but Azure (never across a memoised read, another acquire
// or a fan-out), so nested fan-outs cannot deadlock (see fanout.go). Once
// ctx is done it fails at once, even with a slot free: no request is sent
// for a read that was cancelled or timed out.
func (r *Reader) acquire(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := r.semaphore()
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// collect reads every page of a pager, holding one request slot.
func collect[R any, T any](ctx context.Context, r *Reader, p *runtime.Pager[R], items func(R) []*T) ([]*T, error) {
	release, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
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
