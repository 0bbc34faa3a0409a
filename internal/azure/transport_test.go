package azure

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// silentListener accepts TCP connections on 127.0.0.1 and never writes a
// byte: what a proxy or a TLS endpoint that swallows traffic looks like.
// It counts the connections and closes them when the test ends.
func silentListener(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = &atomic.Int32{}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }() // read, never answer
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return l.Addr().String(), accepted
}

// testBounds are short bounds, so that the tests take seconds; the
// behaviour is the live one (liveConnectBounds only sets the numbers).
var testBounds = connectBounds{Dial: 2 * time.Second, TLSHandshake: 300 * time.Millisecond, ProxyConnect: 300 * time.Millisecond}

// readVNet reads a VNet through client c as the session wires it (the
// retry policy with recorded waits, reachPolicy above the transport),
// against Resource Manager at endpoint ("" for the public cloud).
func readVNet(t *testing.T, c *http.Client, endpoint string) (*fakeSleeps, error) {
	t.Helper()
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep
	opts := &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Transport:        c,
			Retry:            SDKRetryOptions(),
			PerCallPolicies:  []policy.Policy{ReadOnlyGuard{}, p},
			PerRetryPolicies: []policy.Policy{reachPolicy{}},
		},
		DisableRPRegistration: true,
	}
	if endpoint != "" {
		opts.Cloud = cloud.Configuration{
			ActiveDirectoryAuthorityHost: "https://login.microsoftonline.com/",
			Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
				cloud.ResourceManager: {Endpoint: endpoint, Audience: "https://management.core.windows.net/"},
			},
		}
	}
	vnets, err := armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err = vnets.Get(ctx, "rg-hub", "vnet-hub", nil)
	return sleeps, err
}

// A proxy that accepts the connection and never answers the CONNECT
// request: each try ends after the CONNECT bound, and the read fails as a
// network failure naming the host and the proxy, well before the read
// timeout (the standard library alone waits a minute per try, and the
// error read as a timeout that blamed throttling).
func TestSilentProxyFailsFastAsNetwork(t *testing.T) {
	proxyAddr, accepted := silentListener(t)
	client := newBoundedHTTPClient(testBounds, http.ProxyURL(&url.URL{Scheme: "http", Host: proxyAddr}))

	start := time.Now()
	sleeps, err := readVNet(t, client, "")
	took := time.Since(start)

	var u *UnreachableError
	if !errors.As(err, &u) {
		t.Fatalf("error %v (%T), want an *UnreachableError", err, err)
	}
	if u.Host != "management.azure.com" || u.Proxy != proxyAddr {
		t.Errorf("host %q, proxy %q; want management.azure.com through %s", u.Host, u.Proxy, proxyAddr)
	}
	var silent *ProxyNoAnswerError
	if !errors.As(err, &silent) || silent.Target != "management.azure.com:443" {
		t.Errorf("error %v does not say that the proxy did not answer the CONNECT for management.azure.com:443", err)
	}
	for _, w := range []string{"management.azure.com", proxyAddr, "did not answer"} {
		if !strings.Contains(u.Error(), w) {
			t.Errorf("message %q lacks %q", u.Error(), w)
		}
	}
	if a := u.Advice(); !strings.Contains(a, proxyAddr) || !strings.Contains(a, "HTTPS_PROXY") || !strings.Contains(a, "throttling are irrelevant") {
		t.Errorf("advice %q", a)
	}
	// Retried like any transient network failure, each try bounded.
	if n := accepted.Load(); n != defaultMaxTries || len(sleeps.delays) != defaultMaxTries-1 {
		t.Errorf("%d connections to the proxy, %d waits; want %d tries", n, len(sleeps.delays), defaultMaxTries)
	}
	if limit := time.Duration(defaultMaxTries)*testBounds.ProxyConnect + 5*time.Second; took > limit {
		t.Errorf("took %s, want under %s", took, limit)
	}
	g := Gap("/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub", "", err)
	if g.Kind != "unreachable" || !strings.Contains(g.Detail, proxyAddr) || strings.Contains(g.Detail, "timed out (the data source") {
		t.Errorf("gap %+v", g)
	}
}

// A TLS endpoint that accepts the connection and never completes the
// handshake: each try ends after the handshake bound, as a network
// failure naming the host.
func TestTLSHandshakeThatNeverCompletesFailsFastAsNetwork(t *testing.T) {
	addr, accepted := silentListener(t)
	client := newBoundedHTTPClient(testBounds, nil)

	start := time.Now()
	_, err := readVNet(t, client, "https://"+addr)
	took := time.Since(start)

	var u *UnreachableError
	if !errors.As(err, &u) || u.Host != "127.0.0.1" || u.Proxy != "" {
		t.Fatalf("error %v (%T), want an *UnreachableError for 127.0.0.1 without proxy", err, err)
	}
	if !strings.Contains(u.Error(), "TLS handshake timeout") {
		t.Errorf("message %q does not say the TLS handshake timed out", u.Error())
	}
	if n := accepted.Load(); n != defaultMaxTries {
		t.Errorf("%d connections, want %d tries", n, defaultMaxTries)
	}
	if limit := time.Duration(defaultMaxTries)*testBounds.TLSHandshake + 5*time.Second; took > limit {
		t.Errorf("took %s, want under %s", took, limit)
	}
}

// A tunnel the proxy opens is not cut by the CONNECT bound afterwards: an
// answer slower than the bound still arrives.
func TestProxyTunnelOutlivesTheConnectBound(t *testing.T) {
	backend := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(3 * testBounds.ProxyConnect)
		_, _ = io.WriteString(w, "ok")
	})}
	bl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = backend.Serve(bl) }()
	t.Cleanup(func() { _ = backend.Close() })

	// A minimal CONNECT proxy that tunnels to the backend whatever the target.
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pl.Close() })
	go func() {
		for {
			c, err := pl.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				n := 0
				for !strings.Contains(string(buf[:n]), "\r\n\r\n") {
					m, err := c.Read(buf[n:])
					if err != nil {
						return
					}
					n += m
				}
				b, err := net.Dial("tcp", bl.Addr().String())
				if err != nil {
					return
				}
				defer b.Close()
				_, _ = io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
				go func() { _, _ = io.Copy(b, c) }()
				_, _ = io.Copy(c, b)
			}()
		}
	}()

	// The tunnel's steps as net/http takes them, on one connection.
	tunnels := &proxyTunnels{bound: testBounds.ProxyConnect, conns: map[context.Context]*tunnelConn{}}
	conn, err := tunnels.dial(&net.Dialer{Timeout: time.Second})(t.Context(), "tcp", pl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := tunnels.connecting(t.Context(), nil, "backend:80"); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, "CONNECT backend:80 HTTP/1.1\r\nHost: backend:80\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufioReader(conn), &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("CONNECT: %v", err)
	}
	_ = resp.Body.Close() // a CONNECT answer has no body
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %s", resp.Status)
	}
	if err := tunnels.connected(t.Context(), nil, nil, resp); err != nil {
		t.Fatal(err)
	}
	if len(tunnels.conns) != 0 {
		t.Errorf("an open tunnel stays registered")
	}
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: backend\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("reading through the open tunnel after the CONNECT bound: %v", err)
	}
	if !strings.HasSuffix(string(body), "ok") {
		t.Errorf("answer %q", body)
	}
}

// The live bounds keep a read that gets no answer from the network within
// two minutes, every try included, far below the default read timeout.
func TestLiveConnectBoundsFailWithinTwoMinutes(t *testing.T) {
	b := liveConnectBounds
	if b.Dial <= 0 || b.TLSHandshake <= 0 || b.ProxyConnect <= 0 {
		t.Fatalf("a connection step is unbounded: %+v", b)
	}
	// A try that gets no answer waits out one step's bound (the steps
	// before it answered); between tries the retry policy waits its
	// backoff, at most BaseDelay·2^(try-1) each.
	perTry := max(b.Dial, b.ProxyConnect, b.TLSHandshake)
	p := newRetryPolicy(RetryConfig{})
	p.jitter = func(n int64) int64 { return n - 1 } // the longest wait
	worst := time.Duration(defaultMaxTries) * perTry
	for try := 1; try < defaultMaxTries; try++ {
		worst += p.backoff(try)
	}
	if worst > 2*time.Minute {
		t.Errorf("worst case %s (%s per try × %d tries + waits) exceeds two minutes", worst, perTry, defaultMaxTries)
	}
	c := newHTTPClient()
	tr := c.Transport.(*http.Transport)
	if tr.TLSHandshakeTimeout != b.TLSHandshake || tr.GetProxyConnectHeader == nil || tr.OnProxyConnectResponse == nil {
		t.Errorf("the live transport does not apply the bounds")
	}
}

// A real dial timeout of the standard library matches
// context.DeadlineExceeded; it is still the network's, not a read timeout.
func TestDialTimeoutIsTheNetwork(t *testing.T) {
	_, err := (&net.Dialer{Timeout: time.Nanosecond}).Dial("tcp", "127.0.0.1:9")
	if err == nil {
		t.Skip("the dial succeeded")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("premise: a dial timeout %v matches context.DeadlineExceeded", err)
	}
	u, ok := Unreachable("management.azure.com", &url.Error{Op: "Get", URL: "https://management.azure.com/x", Err: err})
	if !ok || u.Permanent {
		t.Fatalf("Unreachable = %+v, %v; want a transient network failure", u, ok)
	}
	proxied := &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	u, ok = Unreachable("management.azure.com", proxied)
	if !ok || u.Permanent || u.Proxy != "127.0.0.1:9" || !strings.Contains(u.Error(), "through the proxy 127.0.0.1:9") {
		t.Fatalf("Unreachable(proxy dial timeout) = %+v, %v", u, ok)
	}
}

func bufioReader(c net.Conn) *bufio.Reader { return bufio.NewReaderSize(c, 1) }

// Signing in through a proxy that never answers fails as the network,
// naming the sign-in host and the proxy, in seconds: the credential's token
// requests use the bounded transport too, and a token request that got no
// answer is not retried on top of the client's own second try (live: at
// most 2 × 15 s).
func TestSignInThroughSilentProxyFailsFastAsNetwork(t *testing.T) {
	proxyAddr, accepted := silentListener(t)
	client := newBoundedHTTPClient(testBounds, http.ProxyURL(&url.URL{Scheme: "http", Host: proxyAddr}))
	s, err := NewSession(sp(Config{ClientSecret: "not-a-real-secret"}).WithTransport(client))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.SignIn(t.Context())
	took := time.Since(start)
	var u *UnreachableError
	var signIn *SignInError
	if !errors.As(err, &u) || errors.As(err, &signIn) {
		t.Fatalf("SignIn error %v (%T), want an *UnreachableError and no *SignInError", err, err)
	}
	if u.Host != "login.microsoftonline.com" || u.Proxy != proxyAddr {
		t.Errorf("host %q, proxy %q", u.Host, u.Proxy)
	}
	t.Logf("%d connections to the proxy in %s", accepted.Load(), took)
	// The confidential client tries twice; azcore does not multiply that.
	if n := accepted.Load(); n == 0 || n > 2 || took > 5*time.Second {
		t.Errorf("%d connections in %s", accepted.Load(), took)
	}
}
