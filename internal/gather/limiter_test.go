// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"sync"
	"testing"
	"time"
)

// waitQueued waits until the limiter has n waiters.
func waitQueued(t *testing.T, l Limiter, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		l.mu.Lock()
		q := len(l.actions) + len(l.reads)
		l.mu.Unlock()
		if q == n {
			return
		}
	}
	t.Fatalf("never %d waiters", n)
}

// With every slot taken, a read action waiting gets the next free slot
// before GETs that asked earlier; GETs keep their order among themselves,
// and a waiter whose read was cancelled is skipped.
func TestLimiterServesReadActionsFirst(t *testing.T) {
	l := NewLimiter(1)
	ctx := context.Background()
	release, err := l.take(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	start := func(name string, action bool, ctx context.Context) {
		wg.Go(func() {
			rel, err := l.take(ctx, action)
			if err != nil {
				mu.Lock()
				order = append(order, name+" cancelled")
				mu.Unlock()
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			rel()
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	start("get 1", false, ctx)
	waitQueued(t, l, 1)
	start("get 2 (cancelled)", false, cancelled)
	waitQueued(t, l, 2)
	start("get 3", false, ctx)
	waitQueued(t, l, 3)
	start("action", true, ctx)
	waitQueued(t, l, 4)
	cancel()
	waitQueued(t, l, 3)
	release()
	wg.Wait()
	want := []string{"get 2 (cancelled) cancelled", "action", "get 1", "get 3"}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if l.used != 0 || l.Cap() != 1 {
		t.Errorf("%d slots still taken of %d", l.used, l.Cap())
	}
}
