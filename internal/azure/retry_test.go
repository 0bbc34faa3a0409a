package azure

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
)

const hubPath = "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"

// faultedReplay is the baseline snapshot with one fault on GET vnet-hub.
func faultedReplay(t *testing.T, f snapshot.Fault) *snapshot.Replay {
	t.Helper()
	s, err := snapshot.Load(baselineSnapshotPath)
	if err != nil {
		t.Fatal(err)
	}
	s.Faults = map[string]snapshot.Fault{"GET " + hubPath: f}
	r, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fakeSleeps makes the policy's waits instant and records them.
type fakeSleeps struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (f *fakeSleeps) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.delays = append(f.delays, d)
	f.mu.Unlock()
	return ctx.Err()
}

// vnetClient is a VirtualNetworksClient wired as the provider wires it:
// the SDK's retry off, the guard and this retry policy per call.
func vnetClient(t *testing.T, tr policy.Transporter, p *retryPolicy) *armnetwork.VirtualNetworksClient {
	t.Helper()
	c, err := armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Transport:       tr,
			Retry:           SDKRetryOptions(),
			PerCallPolicies: []policy.Policy{ReadOnlyGuard{}, p},
		},
		DisableRPRegistration: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func requests(r *snapshot.Replay) int {
	n, _ := r.Stats()
	return n
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	two, one := 2, 1
	replay := faultedReplay(t, snapshot.Fault{Status: 429, RetryAfterS: &one, Times: &two})
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep

	vnet, err := vnetClient(t, replay, p).Get(context.Background(), "rg-hub", "vnet-hub", nil)
	if err != nil {
		t.Fatalf("429 twice then OK: %v", err)
	}
	if *vnet.Name != "vnet-hub" {
		t.Errorf("got %s", *vnet.Name)
	}
	if len(sleeps.delays) != 2 || sleeps.delays[0] != time.Second || sleeps.delays[1] != time.Second {
		t.Errorf("waits %v, want [1s 1s] from Retry-After", sleeps.delays)
	}
	if n := requests(replay); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestRetryGivesUpAfterMaxTries(t *testing.T) {
	replay := faultedReplay(t, snapshot.Fault{Status: 500})
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep
	p.jitter = func(n int64) int64 { return n - 1 } // the top of each range

	_, err := vnetClient(t, replay, p).Get(context.Background(), "rg-hub", "vnet-hub", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 500 {
		t.Fatalf("error %v, want the 500", err)
	}
	// Exactly the default 4 tries: the SDK's own retry is off, so they do
	// not multiply.
	if n := requests(replay); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}
	if len(sleeps.delays) != len(want) {
		t.Fatalf("waits %v, want %v", sleeps.delays, want)
	}
	for i := range want {
		if sleeps.delays[i] != want[i] {
			t.Errorf("wait %d: %v, want %v", i, sleeps.delays[i], want[i])
		}
	}
}

// TestRetryStopsBeforeDeadline: when the server's wait would outlast the
// context, the policy returns the 429 at once instead of sleeping into
// "context deadline exceeded".
func TestRetryStopsBeforeDeadline(t *testing.T) {
	five := 5
	replay := faultedReplay(t, snapshot.Fault{Status: 429, RetryAfterS: &five})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := vnetClient(t, replay, newRetryPolicy(RetryConfig{})).Get(ctx, "rg-hub", "vnet-hub", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 429 {
		t.Fatalf("error %v, want the 429", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("slept into the deadline")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v; the wait should not have started", d)
	}
	if n := requests(replay); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestRetryStopsBeforeDeadlineWithBackoff(t *testing.T) {
	replay := faultedReplay(t, snapshot.Fault{Status: 503})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := vnetClient(t, replay, newRetryPolicy(RetryConfig{BaseDelay: 2 * time.Second})).Get(ctx, "rg-hub", "vnet-hub", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 503 {
		t.Fatalf("error %v, want the 503", err)
	}
	if n := requests(replay); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestRetryWithinDeadline: a wait that fits is taken.
func TestRetryWithinDeadline(t *testing.T) {
	one := 1
	replay := faultedReplay(t, snapshot.Fault{Status: 429, RetryAfterS: &one, Times: &one})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep
	if _, err := vnetClient(t, replay, p).Get(ctx, "rg-hub", "vnet-hub", nil); err != nil {
		t.Fatal(err)
	}
	if len(sleeps.delays) != 1 {
		t.Errorf("waits %v", sleeps.delays)
	}
}

func TestRetryCancelledWhileWaiting(t *testing.T) {
	five := 5
	replay := faultedReplay(t, snapshot.Fault{Status: 429, RetryAfterS: &five})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := vnetClient(t, replay, newRetryPolicy(RetryConfig{})).Get(ctx, "rg-hub", "vnet-hub", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestRetryAfterBeyondCapReturnsAnswer(t *testing.T) {
	long := 120
	replay := faultedReplay(t, snapshot.Fault{Status: 429, RetryAfterS: &long})
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep
	_, err := vnetClient(t, replay, p).Get(context.Background(), "rg-hub", "vnet-hub", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 429 || len(sleeps.delays) != 0 || requests(replay) != 1 {
		t.Errorf("error %v, waits %v, %d requests; want the 429 at once", err, sleeps.delays, requests(replay))
	}
}

func TestRetryNotForOtherStatuses(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409} {
		replay := faultedReplay(t, snapshot.Fault{Status: status})
		p := newRetryPolicy(RetryConfig{})
		p.sleep = (&fakeSleeps{}).sleep
		_, err := vnetClient(t, replay, p).Get(context.Background(), "rg-hub", "vnet-hub", nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != status || requests(replay) != 1 {
			t.Errorf("%d: error %v after %d requests", status, err, requests(replay))
		}
	}
}

// TestRetryTransportErrors: a dropped connection is retried; an error that
// says it is final (the replay refusing a method) is not.
func TestRetryTransportErrors(t *testing.T) {
	replay := baselineReplay(t)
	failures := 2
	flaky := transportFunc(func(req *http.Request) (*http.Response, error) {
		if failures > 0 {
			failures--
			return nil, io.ErrUnexpectedEOF
		}
		return replay.Do(req)
	})
	p := newRetryPolicy(RetryConfig{})
	p.sleep = (&fakeSleeps{}).sleep
	if _, err := vnetClient(t, flaky, p).Get(context.Background(), "rg-hub", "vnet-hub", nil); err != nil {
		t.Fatalf("after two dropped connections: %v", err)
	}

	tries := 0
	final := transportFunc(func(req *http.Request) (*http.Response, error) {
		tries++
		req.Method = http.MethodPut // the replay refuses it, non-retriably
		return replay.Do(req)
	})
	_, err := vnetClient(t, final, p).Get(context.Background(), "rg-hub", "vnet-hub", nil)
	var rerr *snapshot.ReplayError
	if !errors.As(err, &rerr) || tries != 1 {
		t.Errorf("error %v after %d tries, want the replay's refusal after 1", err, tries)
	}
}

// TestRetryResendsBody: every try sends the whole request body.
func TestRetryResendsBody(t *testing.T) {
	var bodies []string
	tr := transportFunc(func(req *http.Request) (*http.Response, error) {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, string(b))
		status := http.StatusOK
		if len(bodies) == 1 {
			status = http.StatusServiceUnavailable
		}
		return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(nil)), Request: req}, nil
	})
	p := newRetryPolicy(RetryConfig{})
	p.sleep = (&fakeSleeps{}).sleep
	pl := runtime.NewPipeline("test", "v0", runtime.PipelineOptions{}, &policy.ClientOptions{
		Transport: tr, Retry: SDKRetryOptions(), PerCallPolicies: []policy.Policy{p},
	})
	req, err := runtime.NewRequest(context.Background(), http.MethodPost, publicARM+"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkWatchers/w/nextHop")
	if err != nil {
		t.Fatal(err)
	}
	if err := runtime.MarshalAsJSON(req, map[string]string{"sourceIPAddress": "10.1.0.4"}); err != nil {
		t.Fatal(err)
	}
	resp, err := pl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if len(bodies) != 2 || bodies[0] == "" || bodies[0] != bodies[1] {
		t.Errorf("bodies sent %q", bodies)
	}
}

func TestRetryAfterHeaders(t *testing.T) {
	now := time.Date(2025, 3, 4, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		headers map[string]string
		want    time.Duration
		ok      bool
	}{
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{"HTTP date", map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}, 3 * time.Second, true},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, false},
		{"retry-after-ms", map[string]string{"retry-after-ms": "250"}, 250 * time.Millisecond, true},
		{"x-ms-retry-after-ms", map[string]string{"x-ms-retry-after-ms": "1500"}, 1500 * time.Millisecond, true},
		{"ms preferred", map[string]string{"Retry-After": "9", "retry-after-ms": "100"}, 100 * time.Millisecond, true},
		{"zero is no hint", map[string]string{"Retry-After": "0"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-3"}, 0, false},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0, false},
		{"huge does not overflow", map[string]string{"Retry-After": "99999999999999999"}, 1<<63 - 1, true},
		{"none", nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &http.Response{Header: http.Header{}}
			for k, v := range tt.headers {
				resp.Header.Set(k, v)
			}
			got, ok := retryAfter(resp, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBackoffBounds(t *testing.T) {
	p := newRetryPolicy(RetryConfig{})
	bounds := map[int][2]time.Duration{
		1:  {250 * time.Millisecond, 500 * time.Millisecond},
		2:  {500 * time.Millisecond, time.Second},
		3:  {time.Second, 2 * time.Second},
		5:  {4 * time.Second, 8 * time.Second},
		40: {4 * time.Second, 8 * time.Second}, // capped, no overflow
	}
	for try, b := range bounds {
		for i := 0; i < 200; i++ {
			if d := p.backoff(try); d < b[0] || d > b[1] {
				t.Fatalf("try %d: %v outside [%v, %v]", try, d, b[0], b[1])
			}
		}
	}
	huge := newRetryPolicy(RetryConfig{BaseDelay: time.Hour, MaxDelay: 1<<63 - 1})
	if d := huge.backoff(60); d <= 0 {
		t.Errorf("overflowed: %v", d)
	}
}

// TestSDKRetryOptionsTurnsSDKRetryOff: without our policy, one try only.
func TestSDKRetryOptionsTurnsSDKRetryOff(t *testing.T) {
	replay := faultedReplay(t, snapshot.Fault{Status: 500})
	c, _ := armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, &arm.ClientOptions{
		ClientOptions:         policy.ClientOptions{Transport: replay, Retry: SDKRetryOptions()},
		DisableRPRegistration: true,
	})
	if _, err := c.Get(context.Background(), "rg-hub", "vnet-hub", nil); err == nil || requests(replay) != 1 {
		t.Errorf("error %v after %d requests, want 1", err, requests(replay))
	}
}

type transportFunc func(*http.Request) (*http.Response, error)

func (f transportFunc) Do(req *http.Request) (*http.Response, error) { return f(req) }
