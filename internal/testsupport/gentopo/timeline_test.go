// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gentopo_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
)

// timingTransport records when each request started and ended.
type timingTransport struct {
	inner policy.Transporter
	t0    time.Time
	mu    sync.Mutex
	spans []span
}

type span struct {
	start, end time.Duration
	what       string
}

func (c *timingTransport) Do(req *http.Request) (*http.Response, error) {
	start := time.Since(c.t0)
	resp, err := c.inner.Do(req)
	end := time.Since(c.t0)
	p := req.URL.Path
	if i := strings.Index(p, "/providers/"); i >= 0 {
		p = p[i+len("/providers/"):]
	}
	c.mu.Lock()
	c.spans = append(c.spans, span{start, end, req.Method + " " + p})
	c.mu.Unlock()
	return resp, err
}

// TestGatherTimeline prints when each request of VerificationFacts on the
// large topology (50 ms per read, 2 s per action) starts and ends, for
// reading the critical path. Run it with PULLPATH_TIMELINE=1 (and
// PULLPATH_TIMELINE_CONCURRENCY=n, default gather.DefaultConcurrency; PULLPATH_TIMELINE=vwan for
// the Virtual WAN topology) and -v.
func TestGatherTimeline(t *testing.T) {
	if os.Getenv("PULLPATH_TIMELINE") == "" {
		t.Skip("set PULLPATH_TIMELINE=1")
	}
	o := gentopo.Defaults()
	o.LatencyMS, o.ActionLatencyMS = 50, 2000
	o.VirtualWAN = os.Getenv("PULLPATH_TIMELINE") == "vwan"
	tt := &timingTransport{}
	topo, r, replay := replayReaderVia(t, o, func(inner policy.Transporter) policy.Transporter {
		tt.inner = inner
		return tt
	})
	n := gather.DefaultConcurrency
	if v := os.Getenv("PULLPATH_TIMELINE_CONCURRENCY"); v != "" {
		_, _ = fmt.Sscan(v, &n)
	}
	r.SetConcurrency(n)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tt.t0 = time.Now()
	if _, err := r.VerificationFacts(ctx, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)}); err != nil {
		t.Fatal(err)
	}
	total := time.Since(tt.t0)
	sort.Slice(tt.spans, func(i, j int) bool { return tt.spans[i].start < tt.spans[j].start })
	for _, s := range tt.spans {
		t.Logf("%6d %6d ms  %s", s.start.Milliseconds(), s.end.Milliseconds(), s.what)
	}
	req, distinct := replay.Stats()
	t.Logf("concurrency %d: %d ms, %d requests, %d distinct", n, total.Milliseconds(), req, distinct)
}
