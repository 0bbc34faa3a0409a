package azure

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
)

const baselineSnapshot = "testdata/baseline_ok.json"

// trapSource is a credential source that records being called.
type trapSource struct{ calls atomic.Int64 }

func (s *trapSource) source() CredentialSource {
	return func() (azcore.TokenCredential, error) {
		s.calls.Add(1)
		return nil, errors.New("the credential source must not be called")
	}
}

func newSnapshotSession(t *testing.T, file string) (*Session, *trapSource) {
	t.Helper()
	trap := &trapSource{}
	cfg := Config{SnapshotFile: file, SubscriptionID: testSub, credentialSource: trap.source()}
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	return s, trap
}

func vnets(t *testing.T, s *Session) *armnetwork.VirtualNetworksClient {
	t.Helper()
	f, err := s.Clients.Network(s.SubscriptionID)
	if err != nil {
		t.Fatalf("Network: %v", err)
	}
	return f.NewVirtualNetworksClient()
}

func TestSessionSnapshotReadsVNet(t *testing.T) {
	s, trap := newSnapshotSession(t, baselineSnapshot)
	if !s.Offline() || s.Recording() {
		t.Fatalf("Offline() = %v, Recording() = %v", s.Offline(), s.Recording())
	}
	ctx, count := CountRequests(t.Context())
	resp, err := vnets(t, s).Get(ctx, "rg-hub", "vnet-hub", nil)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if resp.Name == nil || *resp.Name != "vnet-hub" {
		t.Errorf("name = %v", resp.Name)
	}
	if s.Requests() != 1 || count() != 1 {
		t.Errorf("Requests() = %d, context count = %d; want 1 and 1", s.Requests(), count())
	}

	// An allowed read action (a long-running POST) passes the guard.
	f, _ := s.Clients.Network(testSub)
	poller, err := f.NewVirtualNetworkGatewaysClient().BeginGetLearnedRoutes(ctx, "rg-hub", "vpngw", nil)
	if err != nil {
		t.Fatalf("BeginGetLearnedRoutes: %v", err)
	}
	routes, err := poller.PollUntilDone(ctx, nil)
	if err != nil {
		t.Fatalf("PollUntilDone: %v", err)
	}
	if len(routes.Value) == 0 {
		t.Error("no learned routes")
	}
	if s.Requests() != 2 || count() != 2 {
		t.Errorf("after the action: Requests() = %d, context count = %d; want 2 and 2", s.Requests(), count())
	}
	if n := trap.calls.Load(); n != 0 {
		t.Errorf("the credential source was called %d times in snapshot mode", n)
	}
}

func TestSessionSnapshotRefusesWrite(t *testing.T) {
	s, trap := newSnapshotSession(t, baselineSnapshot)
	_, err := vnets(t, s).BeginCreateOrUpdate(t.Context(), "rg-hub", "vnet-hub", armnetwork.VirtualNetwork{Location: to.Ptr("westeurope")}, nil)
	var ro *ReadOnlyError
	if !errors.As(err, &ro) {
		t.Fatalf("BeginCreateOrUpdate error = %v, want the read-only guard's *ReadOnlyError", err)
	}
	if ro.Method != http.MethodPut {
		t.Errorf("refused method = %s", ro.Method)
	}
	if s.Requests() != 0 {
		t.Errorf("a refused write reached the transport: Requests() = %d", s.Requests())
	}
	if trap.calls.Load() != 0 {
		t.Error("the credential source was called")
	}
}

func TestSessionSnapshotNeverCallsCredentialSource(t *testing.T) {
	// Broken authentication settings do not matter offline.
	trap := &trapSource{}
	cfg := Config{
		SnapshotFile: baselineSnapshot, ClientSecret: "no-tenant-no-client", UseCLI: to.Ptr(false),
		credentialSource: trap.source(),
	}
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	// Several data sources at once, through several subscriptions' clients.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			f, err := s.Clients.Network(testSub)
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := f.NewVirtualNetworksClient().Get(t.Context(), "rg-spoke", "vnet-spoke", nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := trap.calls.Load(); n != 0 {
		t.Errorf("credential source called %d times", n)
	}
	// Eight data sources asking for one VNet make one request: the
	// session's cache answers the others.
	if s.Requests() != 1 || s.CachedReads() != 7 {
		t.Errorf("Requests() = %d and CachedReads() = %d, want 1 and 7", s.Requests(), s.CachedReads())
	}
	if err := s.Flush(); err != nil {
		t.Errorf("Flush without record_file = %v, want a no-op", err)
	}
}

func TestSessionCountsRetries(t *testing.T) {
	// One 429 with Retry-After: 1, then the answer: two requests leave the
	// pipeline for one Get.
	raw, err := os.ReadFile(baselineSnapshot)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["faults"] = map[string]any{
		"GET /subscriptions/" + testSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub": map[string]any{
			"status": 429, "retry_after_s": 1, "times": 1,
		},
	}
	raw, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "throttled.json")
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := newSnapshotSession(t, file)
	if _, err := vnets(t, s).Get(t.Context(), "rg-hub", "vnet-hub", nil); err != nil {
		t.Fatalf("Get after a throttled try: %v", err)
	}
	if s.Requests() != 2 {
		t.Errorf("Requests() = %d, want 2 (the throttled try and the retry)", s.Requests())
	}
}

// fakeARM is a "live" Azure: an httptest server behind a transport that
// rewrites https://management.azure.com to it. The SDK's bearer policy only
// sends tokens over https URLs, so the rewrite happens below the pipeline.
type fakeARM struct {
	srv    *httptest.Server
	target *url.URL
}

func newFakeARM(t *testing.T, handler http.HandlerFunc) *fakeARM {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &fakeARM{srv: srv, target: u}
}

func (f *fakeARM) Do(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = f.target.Scheme, f.target.Host, ""
	out.RequestURI = ""
	return f.srv.Client().Transport.RoundTrip(out)
}

// fakeToken is what the test credential hands out; it must reach the fake
// ARM and never the recording.
const fakeToken = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.live-token-SECRET.sig"

type fixedCredential struct{}

func (fixedCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: fakeToken, ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func TestSessionRecordFlushWritesReplayableFile(t *testing.T) {
	vnetID := "/subscriptions/" + testSub + "/resourceGroups/rg-live/providers/Microsoft.Network/virtualNetworks/vnet-live"
	var sawToken, sawUA atomic.Value
	arm := newFakeARM(t, func(w http.ResponseWriter, r *http.Request) {
		sawToken.Store(r.Header.Get("Authorization"))
		sawUA.Store(r.Header.Get("User-Agent"))
		if !strings.EqualFold(r.URL.Path, vnetID) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":{"code":"ResourceNotFound","message":"not here"}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=cookie-SECRET")
		_, _ = w.Write([]byte(`{"id":"` + vnetID + `","name":"vnet-live","type":"Microsoft.Network/virtualNetworks","location":"westeurope",` +
			`"properties":{"addressSpace":{"addressPrefixes":["10.9.0.0/16"]}}}`))
	})

	record := filepath.Join(t.TempDir(), "recorded.json")
	var credCalls atomic.Int64
	cfg := Config{
		SubscriptionID: testSub, TenantID: testTenant, ClientID: testClient, ClientSecret: "client-secret-SECRET",
		RecordFile: record, ProviderVersion: "1.2.3",
		transport: arm,
		credentialSource: func() (azcore.TokenCredential, error) {
			credCalls.Add(1)
			return fixedCredential{}, nil
		},
	}
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	if s.Offline() || !s.Recording() {
		t.Fatalf("Offline() = %v, Recording() = %v", s.Offline(), s.Recording())
	}
	if credCalls.Load() != 0 {
		t.Error("NewSession created the credential; it must wait for the first request")
	}

	if err := s.Flush(); err != nil { // nothing read yet: an empty, valid snapshot
		t.Fatalf("first Flush: %v", err)
	}
	if _, err := vnets(t, s).Get(t.Context(), "rg-live", "vnet-live", nil); err != nil {
		t.Fatalf("live Get: %v", err)
	}
	if got := sawToken.Load(); got != "Bearer "+fakeToken {
		t.Errorf("fake ARM saw Authorization %q; the live request must carry the token", got)
	}
	if ua, _ := sawUA.Load().(string); !strings.HasPrefix(ua, "pullpath/1.2.3 ") {
		t.Errorf("User-Agent = %q, want it to start with pullpath/1.2.3", ua)
	}
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if err := s.Flush(); err != nil { // callable again: rewrites the same content
		t.Fatalf("second Flush: %v", err)
	}

	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{fakeToken, "live-token", "Bearer", "Authorization", "client-secret", "cookie-SECRET", "SECRET"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("recording contains %q:\n%s", leak, data)
		}
	}
	if fi, err := os.Stat(record); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("recording mode = %v, want 0600", fi.Mode().Perm())
	}

	// The recording replays: the same read, offline.
	replayed, _ := newSnapshotSession(t, record)
	resp, err := vnets(t, replayed).Get(t.Context(), "rg-live", "vnet-live", nil)
	if err != nil {
		t.Fatalf("replayed Get: %v", err)
	}
	if resp.Properties == nil || resp.Properties.AddressSpace == nil || len(resp.Properties.AddressSpace.AddressPrefixes) != 1 {
		t.Errorf("replayed VNet lost its address space: %+v", resp.Properties)
	}
	if _, err := snapshot.Load(record); err != nil {
		t.Errorf("recording does not load: %v", err)
	}
}

func TestSessionLiveRefusesWriteBeforeToken(t *testing.T) {
	var hits atomic.Int64
	arm := newFakeARM(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	cred := &countingCredential{}
	s, err := NewSession(Config{
		SubscriptionID: testSub, transport: arm,
		credentialSource: func() (azcore.TokenCredential, error) { return cred, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = vnets(t, s).BeginDelete(t.Context(), "rg", "vnet", nil)
	var ro *ReadOnlyError
	if !errors.As(err, &ro) {
		t.Fatalf("BeginDelete error = %v, want *ReadOnlyError", err)
	}
	if hits.Load() != 0 || s.Requests() != 0 {
		t.Errorf("a refused DELETE reached Azure: %d hits, %d counted", hits.Load(), s.Requests())
	}
	if cred.calls.Load() != 0 {
		t.Error("a refused write requested a token: the guard must run before the bearer-token policy")
	}
}

type countingCredential struct{ calls atomic.Int64 }

func (c *countingCredential) GetToken(ctx context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.calls.Add(1)
	return fixedCredential{}.GetToken(ctx, o)
}

func TestNewSessionErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format":"something/else"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"invalid config", Config{Environment: "mars"}, "environment (ARM_ENVIRONMENT)"},
		{"snapshot does not parse", Config{SnapshotFile: bad}, "snapshot_file (PULLPATH_SNAPSHOT_FILE)"},
		{"incomplete auth", Config{ClientSecret: "s"}, "tenant_id (ARM_TENANT_ID)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewSession(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewSession = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestApplicationID(t *testing.T) {
	tests := map[string]string{
		"":                            "pullpath/dev",
		"1.2.3":                       "pullpath/1.2.3",
		"v1.2.3":                      "pullpath/1.2.3",
		"1.2.3+dirty":                 "pullpath/1.2.3",
		"1.2.3-rc.1":                  "pullpath/1.2.3-rc.1",
		"0.0.0-20250101120000-abcdef": "pullpath/0.0.0-202501011",
		"1.0 beta":                    "pullpath/1.0",
	}
	for in, want := range tests {
		got := applicationID(in)
		if got != want {
			t.Errorf("applicationID(%q) = %q, want %q", in, got, want)
		}
		if len(got) > 24 || strings.Contains(got, " ") {
			t.Errorf("applicationID(%q) = %q breaks azcore's limit", in, got)
		}
	}
}

func TestCountRequestsNested(t *testing.T) {
	var total atomic.Int64
	tr := countingTransport{inner: okTransport{}, total: &total}
	outer, outerCount := CountRequests(t.Context())
	inner, innerCount := CountRequests(outer)
	for _, ctx := range []context.Context{t.Context(), outer, inner, inner} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://management.azure.com/x", nil)
		resp, err := tr.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	if total.Load() != 4 || outerCount() != 3 || innerCount() != 2 {
		t.Errorf("total %d, outer %d, inner %d; want 4, 3, 2", total.Load(), outerCount(), innerCount())
	}
}

type okTransport struct{}

func (okTransport) Do(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: req}, nil
}

// SignIn asks the credential for exactly the scope the ARM clients use (so
// that they reuse the cached token), and offline it creates no credential.
func TestSessionSignIn(t *testing.T) {
	s, trap := newSnapshotSession(t, baselineSnapshot)
	if err := s.SignIn(t.Context()); err != nil || trap.calls.Load() != 0 {
		t.Errorf("offline SignIn = %v with %d credential calls; want nil and none", err, trap.calls.Load())
	}

	rec := &scopeRecorder{}
	live, err := NewSession(Config{SubscriptionID: testSub, transport: newFakeARM(t, func(http.ResponseWriter, *http.Request) {}),
		credentialSource: func() (azcore.TokenCredential, error) { return rec, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if err := live.SignIn(t.Context()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://management.core.windows.net//.default"}; !slices.Equal(rec.scopes, want) {
		t.Errorf("SignIn asked for scopes %v, want %v (azcore's ARM scope)", rec.scopes, want)
	}

	failing, err := NewSession(Config{SubscriptionID: testSub, transport: newFakeARM(t, func(http.ResponseWriter, *http.Request) {}),
		credentialSource: func() (azcore.TokenCredential, error) {
			return nil, &SignInError{Method: "a managed identity", Err: errors.New("no identity endpoint")}
		}})
	if err != nil {
		t.Fatal(err)
	}
	var si *SignInError
	if err := failing.SignIn(t.Context()); !errors.As(err, &si) {
		t.Errorf("SignIn = %v, want the SignInError of the credential source", err)
	}
}

type scopeRecorder struct{ scopes []string }

func (r *scopeRecorder) GetToken(_ context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	r.scopes = append(r.scopes, o.Scopes...)
	return azcore.AccessToken{Token: "t", ExpiresOn: time.Now().Add(time.Hour)}, nil
}
