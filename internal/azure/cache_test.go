package azure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	armnetwork "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// scriptedARM answers like ARM: VNet GETs (with a status per call number),
// and the effectiveRouteTable action as a long-running operation (202 with
// a Location URL, one 202 poll, then 200 with the result). It counts what
// reaches it and can hold answers until released.
type scriptedARM struct {
	mu       sync.Mutex
	calls    map[string]int
	vnetCode func(call int) int
	gate     chan struct{} // when set, VNet answers wait for it
	total    atomic.Int64
}

func newScriptedARM() *scriptedARM {
	return &scriptedARM{calls: map[string]int{}, vnetCode: func(int) int { return http.StatusOK }}
}

func (s *scriptedARM) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[key]
}

func (s *scriptedARM) Do(req *http.Request) (*http.Response, error) {
	s.total.Add(1)
	key := req.Method + " " + req.URL.Path
	s.mu.Lock()
	s.calls[key]++
	n := s.calls[key]
	s.mu.Unlock()
	answer := func(code int, body string, h map[string]string) *http.Response {
		r := &http.Response{StatusCode: code, Status: http.StatusText(code), Header: http.Header{}, Request: req,
			Body: io.NopCloser(strings.NewReader(body))}
		r.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			r.Header.Set(k, v)
		}
		return r
	}
	p := req.URL.Path
	switch {
	case strings.HasSuffix(p, "/virtualNetworks/vnet-spoke"):
		if s.gate != nil {
			select {
			case <-s.gate:
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		code := s.vnetCode(n)
		if code != http.StatusOK {
			return answer(code, `{"error":{"code":"Failed","message":"scripted failure"}}`, nil), nil
		}
		return answer(http.StatusOK, `{"id":"`+testVNetID+`","name":"vnet-spoke","properties":{"addressSpace":{"addressPrefixes":["10.1.0.0/16"]}}}`, nil), nil
	case strings.HasSuffix(p, "/effectiveRouteTable") && req.Method == http.MethodPost:
		loc := "https://" + req.URL.Host + "/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Network/locations/westeurope/operationResults/op" + fmt.Sprint(n) + "?api-version=2024-05-01"
		return answer(http.StatusAccepted, "", map[string]string{"Location": loc, "Retry-After": "0"}), nil
	case strings.Contains(p, "/operationResults/"):
		if s.count(key) == 1 {
			return answer(http.StatusAccepted, "", map[string]string{"Location": req.URL.String(), "Retry-After": "0"}), nil
		}
		return answer(http.StatusOK, `{"value":[{"source":"Default","state":"Active","addressPrefix":["10.1.0.0/16"],"nextHopType":"VnetLocal"}]}`, nil), nil
	}
	return answer(http.StatusNotFound, `{"error":{"code":"NotFound","message":"no such thing"}}`, nil), nil
}

const testVNetID = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"

// cachedFactory returns network clients whose pipeline is the session's:
// guard, cache, retry (fast), over the scripted ARM.
func cachedFactory(t *testing.T, arm *scriptedARM) (*armnetwork.ClientFactory, *ReadCache) {
	t.Helper()
	cache := NewReadCache()
	cl := NewClients(Options{
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Transport:  arm,
		Retry:      SDKRetryOptions(),
		PerCallPolicies: []policy.Policy{ReadOnlyGuard{}, cache,
			NewRetryPolicy(RetryConfig{MaxTries: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond})},
		PerRetryPolicies: []policy.Policy{ReadOnlyGuard{}},
	})
	f, err := cl.Network("00000000-0000-0000-0000-000000000001")
	if err != nil {
		t.Fatal(err)
	}
	return f, cache
}

func TestReadCacheOneRequestForConcurrentAndLaterReads(t *testing.T) {
	arm := newScriptedARM()
	arm.gate = make(chan struct{})
	f, cache := cachedFactory(t, arm)
	c := f.NewVirtualNetworksClient()

	const readers = 6
	var wg sync.WaitGroup
	errs := make([]error, readers)
	names := make([]string, readers)
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil)
			errs[i] = err
			if err == nil {
				names[i] = *resp.Name
			}
		}()
	}
	// Let every reader reach the cache before the one request returns.
	time.Sleep(50 * time.Millisecond)
	close(arm.gate)
	wg.Wait()
	for i := range readers {
		if errs[i] != nil || names[i] != "vnet-spoke" {
			t.Fatalf("reader %d: %q, %v", i, names[i], errs[i])
		}
	}
	if _, err := c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil); err != nil {
		t.Fatal(err)
	}
	if got := arm.count("GET /subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"); got != 1 {
		t.Errorf("%d requests for one VNet read %d times; want 1", got, readers+1)
	}
	if got := cache.Hits(); got != readers {
		t.Errorf("cache hits %d, want %d", got, readers)
	}
}

func TestReadCacheNeverKeepsErrors(t *testing.T) {
	for _, code := range []int{http.StatusForbidden, http.StatusNotFound, http.StatusInternalServerError} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			arm := newScriptedARM()
			arm.vnetCode = func(call int) int {
				if call == 1 {
					return code
				}
				return http.StatusOK
			}
			f, _ := cachedFactory(t, arm)
			c := f.NewVirtualNetworksClient()
			// A 500 is retried below the cache, so the first read already
			// succeeds; 403 and 404 are final for that read.
			_, first := c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil)
			resp, err := c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil)
			if err != nil || *resp.Name != "vnet-spoke" {
				t.Fatalf("second read after a %d: %v (first: %v)", code, err, first)
			}
			if code != http.StatusInternalServerError {
				var re *azcore.ResponseError
				if !errors.As(first, &re) || re.StatusCode != code {
					t.Fatalf("first read: %v, want the %d", first, code)
				}
			}
			if got := arm.total.Load(); got != 2 {
				t.Errorf("%d requests, want 2 (the failure is not kept, the success is)", got)
			}
		})
	}
}

func TestReadCacheLongRunningActionResultIsKept(t *testing.T) {
	arm := newScriptedARM()
	f, cache := cachedFactory(t, arm)
	c := f.NewInterfacesClient()
	get := func() []string {
		t.Helper()
		p, err := c.BeginGetEffectiveRouteTable(context.Background(), "rg-spoke", "nic-1", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.PollUntilDone(context.Background(), &runtime.PollUntilDoneOptions{Frequency: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Value {
			out = append(out, *r.AddressPrefix[0]+" "+string(*r.NextHopType))
		}
		return out
	}
	first := get()
	sent := arm.total.Load()
	second := get()
	if fmt.Sprint(first) != "[10.1.0.0/16 VnetLocal]" || fmt.Sprint(second) != fmt.Sprint(first) {
		t.Fatalf("results %v then %v", first, second)
	}
	if sent != 3 {
		t.Errorf("first action: %d requests, want 3 (POST, a 202 poll, the 200)", sent)
	}
	if got := arm.total.Load(); got != sent {
		t.Errorf("the repeated action sent %d more requests; want it answered from the cache", got-sent)
	}
	if cache.Hits() != 1 {
		t.Errorf("cache hits %d, want 1", cache.Hits())
	}
}

func TestReadCacheWaiterSendsItsOwnWhenTheFirstIsCancelled(t *testing.T) {
	arm := newScriptedARM()
	arm.gate = make(chan struct{})
	f, _ := cachedFactory(t, arm)
	c := f.NewVirtualNetworksClient()

	ownerCtx, cancelOwner := context.WithCancel(context.Background())
	ownerDone := make(chan error, 1)
	go func() {
		_, err := c.Get(ownerCtx, "rg-spoke", "vnet-spoke", nil)
		ownerDone <- err
	}()
	time.Sleep(30 * time.Millisecond)
	waiterDone := make(chan error, 1)
	go func() {
		_, err := c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil)
		waiterDone <- err
	}()
	time.Sleep(30 * time.Millisecond)
	cancelOwner()
	if err := <-ownerDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("owner: %v, want context.Canceled", err)
	}
	close(arm.gate)
	select {
	case err := <-waiterDone:
		if err != nil {
			t.Fatalf("waiter: %v; a cancelled read must not fail the others", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiter still waits for a cancelled request")
	}
}

func TestReadCacheWaiterHonoursItsOwnCancellation(t *testing.T) {
	arm := newScriptedARM()
	arm.gate = make(chan struct{})
	defer close(arm.gate)
	f, _ := cachedFactory(t, arm)
	c := f.NewVirtualNetworksClient()
	go func() { _, _ = c.Get(context.Background(), "rg-spoke", "vnet-spoke", nil) }()
	time.Sleep(30 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Get(ctx, "rg-spoke", "vnet-spoke", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter: %v, want its own deadline", err)
	}
}
