package azure

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
)

// Session is what the provider's Configure hands to every data source: the
// SDK clients with their pipeline (read-only guard, retries, User-Agent,
// request counting, and the live, replay or recording transport). It is
// safe for concurrent use by several data sources.
type Session struct {
	// Clients hands out the SDK client factories per subscription.
	Clients *Clients
	// SubscriptionID is the default subscription (subscription_id); empty
	// when not configured.
	SubscriptionID string

	offline  bool
	requests atomic.Int64
	cache    *ReadCache
	armScope string // the token scope of the ARM clients

	overlay    policy.Policy      // the what-if overlay; nil without planned_changes_file
	recorder   *snapshot.Recorder // nil unless recording
	replay     *snapshot.Replay   // nil unless offline
	recordPath string
	flushMu    sync.Mutex // one Flush at a time, so the last write has everything
}

// NewSession validates cfg and builds the session. Nothing is sent and no
// credential is created here: in snapshot mode there is none at all, live
// the credential is created on the first request that needs one.
//
// The pipeline, in the order a request meets it:
//
//	per call:  ReadOnlyGuard → Overlay (planned_changes_file) → ReadCache
//	           (one read per resource per session)
//	           → retry policy (Retry-After, deadline-aware)
//	per try:   bearer token (SDK) → ReadOnlyGuard → request log (DEBUG; bodies at TRACE; no headers)
//	transport: counter → recorder (record mode) → HTTP client, or counter → replay
//
// The guard sits twice on purpose. Per call it refuses a write before a
// token is requested or a retry is planned; per try it is the last policy
// before the transport, so no retry, poll or policy in between can send
// anything it did not see. LRO polls and next pages are GETs and pass.
// azcore's own retry is off (SDKRetryOptions): ours replaces it.
//
// The what-if overlay of planned_changes_file is the provider's to build
// (it reads and translates the plan); [WithPlannedChanges] places it.
func NewSession(cfg Config, opts ...SessionOption) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cl, err := cfg.Cloud()
	if err != nil {
		return nil, err
	}
	s := &Session{SubscriptionID: cfg.SubscriptionID, offline: cfg.offline(), cache: NewReadCache()}
	// The scope exactly as azcore's ARM bearer-token policy asks for it, so
	// that SignIn's token is the one the clients then take from the cache.
	s.armScope = cl.Services[cloud.ResourceManager].Audience + "/.default"

	for _, opt := range opts {
		opt(s)
	}

	var transport policy.Transporter
	var credential CredentialSource
	if s.offline {
		replay, err := snapshot.LoadReplay(cfg.SnapshotFile)
		if err != nil {
			return nil, argError(argSnapshotFile, "%s: %w", argRef(argSnapshotFile), err)
		}
		transport, s.replay = replay, replay
		// The SDK's bearer policy insists on a credential; this one holds
		// a fixed dummy token. No source built from cfg is ever called.
		credential = func() (azcore.TokenCredential, error) { return staticCredential{}, nil }
	} else {
		credential, err = NewCredentialSource(cfg)
		if err != nil {
			return nil, err
		}
		transport = cfg.transport
		if transport == nil {
			transport = newHTTPClient()
		}
		if cfg.RecordFile != "" {
			s.recorder = snapshot.NewRecorder(transport)
			s.recordPath = cfg.RecordFile
			transport = s.recorder
		}
	}

	s.Clients = NewClients(Options{
		Cloud:            cl,
		Credential:       credential,
		Transport:        countingTransport{inner: transport, total: &s.requests},
		ApplicationID:    applicationID(cfg.ProviderVersion),
		Retry:            SDKRetryOptions(),
		PerCallPolicies:  perCall(s.overlay, s.cache),
		PerRetryPolicies: []policy.Policy{ReadOnlyGuard{}, requestLogPolicy{}, reachPolicy{}},
	})
	return s, nil
}

// perCall is the per-call pipeline: the guard, the overlay when there is a
// plan, the cache, retries. The overlay is above the cache so that the
// cache (and record_file) keep what Azure answered, never planned answers.
func perCall(o policy.Policy, cache *ReadCache) []policy.Policy {
	out := []policy.Policy{ReadOnlyGuard{}}
	if o != nil {
		out = append(out, o)
	}
	return append(out, cache, NewRetryPolicy(RetryConfig{}))
}

// CachedReads is the number of reads answered by the session's cache
// instead of a request (see ReadCache).
func (s *Session) CachedReads() int64 { return s.cache.Hits() }

// SignIn gets a token for ARM now (live mode; offline it does nothing).
// Data sources call it before reading, so that a credential that does not
// work fails the read once with a [SignInError] that says what to fix,
// instead of every request failing as if each resource were unavailable.
// The credential caches the token: the reads that follow use it.
func (s *Session) SignIn(ctx context.Context) error {
	if s.offline {
		return nil
	}
	cred, err := s.Clients.Credential()
	if err != nil {
		return err
	}
	_, err = cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{s.armScope}})
	return err
}

// Offline reports snapshot mode: every read is answered from the snapshot.
func (s *Session) Offline() bool { return s.offline }

// Recording reports record mode.
func (s *Session) Recording() bool { return s.recorder != nil }

// Requests is the number of HTTP requests that left the pipeline so far,
// every try, page and LRO poll included, for stats.arm_requests. Token
// requests to Entra ID are not ARM requests and are not counted. See
// [CountRequests] for the count of one read.
func (s *Session) Requests() int64 { return s.requests.Load() }

// Flush writes everything recorded so far to record_file, atomically
// (a reader sees the previous or the new file, never half of one). The
// provider calls it after every data source read, since Terraform has no
// end-of-run hook; each call rewrites the whole file. Without record_file
// it does nothing.
func (s *Session) Flush() error {
	if s.recorder == nil {
		return nil
	}
	// Serialised so that a slower, older Flush cannot rename its file over
	// a newer one.
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	if err := s.recorder.Flush(s.recordPath); err != nil {
		return fmt.Errorf("%s: %w", argRef(argRecordFile), err)
	}
	return nil
}

// applicationID is the User-Agent prefix "pullpath/<version>". azcore
// allows 24 characters without spaces and silently cuts longer ones; doing
// it here keeps the result predictable: build metadata ("+dirty") goes
// first, then the tail.
func applicationID(version string) string {
	v := strings.TrimPrefix(strings.TrimSpace(version), "v")
	if i := strings.IndexAny(v, "+ \t"); i >= 0 {
		v = v[:i]
	}
	if v == "" {
		v = "dev"
	}
	id := "pullpath/" + v
	if len(id) > 24 {
		id = id[:24]
	}
	return id
}
