package azure

import (
	"context"
	"net/http"
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
	return t.inner.Do(req)
}

// requestCounter counts the requests made with one context, e.g. one data
// source read, while other reads share the session.
type requestCounter struct {
	n      atomic.Int64
	parent *requestCounter // an enclosing count sees the requests too
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
