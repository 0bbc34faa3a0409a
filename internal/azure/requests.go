package azure

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// countingTransport counts every HTTP request handed to the transport: each
// try of a retried request, each page and each LRO poll. Counting here, and
// not in a policy, makes the number mean "requests sent to ARM" (or to the
// replay); a request the read-only guard refuses never gets this far and is
// not counted.
type countingTransport struct {
	inner policy.Transporter
	total *atomic.Int64
}

func (t countingTransport) Do(req *http.Request) (*http.Response, error) {
	t.total.Add(1)
	for c, _ := req.Context().Value(requestCounterKey{}).(*requestCounter); c != nil; c = c.parent {
		c.n.Add(1)
	}
	resp, err := t.inner.Do(req)
	if err != nil && req.Context().Err() != nil {
		noteInterrupted(req)
	}
	return resp, err
}

// requestCounter counts the requests made with one context, e.g. one data
// source read, while other reads share the session, and remembers those
// its cancellation or deadline cut off.
type requestCounter struct {
	n      atomic.Int64
	parent *requestCounter // an enclosing count sees the requests too

	mu  sync.Mutex
	cut []string
}

// maxInterrupted bounds the requests a timeout message lists.
const maxInterrupted = 10

// noteInterrupted records that req was in flight (sent, or waiting for the
// same read in flight) when its context ended.
func noteInterrupted(req *http.Request) {
	what := req.Method + " " + req.URL.Path
	for c, _ := req.Context().Value(requestCounterKey{}).(*requestCounter); c != nil; c = c.parent {
		c.mu.Lock()
		if len(c.cut) < maxInterrupted && !slices.Contains(c.cut, what) {
			c.cut = append(c.cut, what)
		}
		c.mu.Unlock()
	}
}

// Interrupted lists, sorted, the requests (method and path, at most ten)
// of the operation counted by ctx (see CountRequests) that were still in
// flight when its context was cancelled or timed out: what a timeout
// message should name.
func Interrupted(ctx context.Context) []string {
	c, _ := ctx.Value(requestCounterKey{}).(*requestCounter)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.cut)
	slices.Sort(out)
	return out
}

type requestCounterKey struct{}

// CountRequests returns a context whose ARM requests are counted, and a
// function reporting how many left the pipeline so far (tries and polls
// included). Session.Requests counts everything; this counts one operation,
// which is what a data source's stats.arm_requests should report when
// several data sources read through the same session at once.
func CountRequests(ctx context.Context) (context.Context, func() int64) {
	parent, _ := ctx.Value(requestCounterKey{}).(*requestCounter)
	c := &requestCounter{parent: parent}
	return context.WithValue(ctx, requestCounterKey{}, c), c.n.Load
}
