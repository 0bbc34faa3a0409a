package azure

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

// Why a policy of our own rather than azcore's policy.RetryOptions: azcore
// v1.24.0's retry (runtime/policy_retry.go) does honour Retry-After (all
// three headers) and stops when the context ends, but it sleeps first and
// looks at the deadline afterwards. A plan with a 30 s read timeout that
// gets "Retry-After: 60" waits the whole 30 s and then reports
// "context deadline exceeded", losing the 429 that explains it. This policy
// checks the deadline before it waits: when the wait would outlast it, it
// returns the last response at once, so the user sees the throttling (or
// the 5xx) and the rest of the plan keeps its time.
//
// Wiring (the SDK's retry must be off, or tries multiply):
//
//	opts.Retry = azure.SDKRetryOptions()
//	opts.PerCallPolicies = append(opts.PerCallPolicies, azure.ReadOnlyGuard{}, azure.NewRetryPolicy(azure.RetryConfig{}))
//
// In PerCallPolicies the policy sits where azcore's retry sits, before the
// bearer-token policy, so every try gets a fresh token.

// RetryConfig configures [NewRetryPolicy]; the zero value gives the defaults.
type RetryConfig struct {
	// MaxTries counts every try, the first included. Default 4.
	MaxTries int
	// BaseDelay is the first backoff when the answer has no Retry-After;
	// each further retry doubles it, with jitter. Default 0.5 s.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. Default 8 s.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After honoured; a server asking
	// for more gets its answer returned instead. Default 60 s.
	MaxRetryAfter time.Duration
	// StatusCodes are retried. Default 408, 429, 500, 502, 503, 504.
	StatusCodes []int
}

const (
	defaultMaxTries      = 4
	defaultBaseDelay     = 500 * time.Millisecond
	defaultMaxDelay      = 8 * time.Second
	defaultMaxRetryAfter = 60 * time.Second
)

var defaultRetryStatusCodes = []int{
	http.StatusRequestTimeout,      // 408
	http.StatusTooManyRequests,     // 429
	http.StatusInternalServerError, // 500
	http.StatusBadGateway,          // 502
	http.StatusServiceUnavailable,  // 503
	http.StatusGatewayTimeout,      // 504
}

// SDKRetryOptions turns azcore's own retry off (one try) for clients that
// use [NewRetryPolicy]; the two together would multiply the tries.
func SDKRetryOptions() policy.RetryOptions {
	return policy.RetryOptions{MaxRetries: -1}
}

// NewRetryPolicy returns the retry policy for ARM reads; see RetryConfig.
func NewRetryPolicy(cfg RetryConfig) policy.Policy {
	return newRetryPolicy(cfg)
}

type retryPolicy struct {
	cfg RetryConfig

	// Hooks for tests; production uses the real clock.
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error
	jitter func(n int64) int64 // uniform in [0, n)
}

func newRetryPolicy(cfg RetryConfig) *retryPolicy {
	if cfg.MaxTries <= 0 {
		cfg.MaxTries = defaultMaxTries
	}
	if cfg.BaseDelay <= 0 {
		cfg.BaseDelay = defaultBaseDelay
	}
	if cfg.MaxDelay <= 0 {
		cfg.MaxDelay = defaultMaxDelay
	}
	if cfg.MaxRetryAfter <= 0 {
		cfg.MaxRetryAfter = defaultMaxRetryAfter
	}
	if cfg.StatusCodes == nil {
		cfg.StatusCodes = defaultRetryStatusCodes
	}
	cfg.StatusCodes = slices.Clone(cfg.StatusCodes)
	return &retryPolicy{cfg: cfg, now: time.Now, sleep: sleepContext, jitter: rand.Int64N}
}

// Do implements policy.Policy.
func (p *retryPolicy) Do(req *policy.Request) (*http.Response, error) {
	ctx := req.Raw().Context()
	for try := 1; ; try++ {
		if err := req.RewindBody(); err != nil {
			return nil, err
		}
		// A clone per try: later policies set headers (the token) on it.
		resp, err := req.Clone(ctx).Next()

		if ctx.Err() != nil || !p.retriable(resp, err) || try >= p.cfg.MaxTries {
			return resp, err
		}
		delay, fromServer := retryAfter(resp, p.now())
		switch {
		case fromServer && delay > p.cfg.MaxRetryAfter:
			return resp, err
		case !fromServer:
			delay = p.backoff(try)
		}
		// Never wait past the deadline: the answer in hand explains the
		// failure better than "context deadline exceeded" would.
		if deadline, ok := ctx.Deadline(); ok && p.now().Add(delay).After(deadline) {
			return resp, err
		}
		runtime.Drain(resp)
		if err := p.sleep(ctx, delay); err != nil {
			return nil, err
		}
	}
}

func (p *retryPolicy) retriable(resp *http.Response, err error) bool {
	if err != nil {
		// Transport failures (reset connections) are transient unless
		// the error says otherwise (the read-only guard, the replay).
		var nre interface{ NonRetriable() }
		return !errors.As(err, &nre)
	}
	return resp != nil && slices.Contains(p.cfg.StatusCodes, resp.StatusCode)
}

// backoff is BaseDelay·2^(try-1), capped at MaxDelay, with "equal jitter":
// uniformly in [d/2, d], so that clients throttled together spread out.
func (p *retryPolicy) backoff(try int) time.Duration {
	d := min(p.cfg.BaseDelay, p.cfg.MaxDelay)
	for i := 1; i < try && d < p.cfg.MaxDelay; i++ {
		if d > p.cfg.MaxDelay/2 {
			d = p.cfg.MaxDelay
			break
		}
		d *= 2
	}
	half := int64(d / 2)
	return time.Duration(half + p.jitter(int64(d)-half+1))
}

// retryAfter reads the server's wait, in azcore's order of preference:
// retry-after-ms, x-ms-retry-after-ms, then Retry-After in seconds or as an
// HTTP date. Like azcore it takes a zero or negative value as no hint.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp == nil {
		return 0, false
	}
	for _, h := range []string{"Retry-After-Ms", "X-Ms-Retry-After-Ms"} {
		if ms, err := strconv.ParseInt(resp.Header.Get(h), 10, 64); err == nil && ms > 0 {
			return scale(ms, time.Millisecond), true
		}
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s > 0 {
			return scale(s, time.Second), true
		}
		return 0, false
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
	}
	return 0, false
}

// scale is n·unit without overflow: an absurd Retry-After must read as
// "very long", never as a negative wait.
func scale(n int64, unit time.Duration) time.Duration {
	if n > int64(math.MaxInt64/unit) {
		return math.MaxInt64
	}
	return time.Duration(n) * unit
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
