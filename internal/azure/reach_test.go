package azure

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// Network failures are told from everything else by their Go types, the
// way the standard library and the SDK return them.
func TestUnreachable(t *testing.T) {
	const host = "login.microsoftonline.com"
	dnsErr := &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	wrap := func(err error) error {
		return &url.Error{Op: "Post", URL: "https://" + host + "/tenant/oauth2/v2.0/token", Err: err}
	}
	for _, tc := range []struct {
		name      string
		err       error
		permanent bool
	}{
		{"name does not resolve", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: dnsErr}), true},
		{"DNS server timed out", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true}}), false},
		{"connection refused", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}), true},
		{"no route", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.EHOSTUNREACH)}), true},
		{"proxy", wrap(&net.OpError{Op: "proxyconnect", Net: "tcp", Err: errors.New("dial tcp 10.0.0.1:3128: connect: connection timed out")}), true},
		{"TLS interception", wrap(&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), true},
		{"certificate for another name", wrap(x509.HostnameError{Certificate: &x509.Certificate{}, Host: host}), true},
		{"dial timeout", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, ok := Unreachable(host, fmt.Errorf("reading: %w", tc.err))
			if !ok || u.Host != host || u.Permanent != tc.permanent {
				t.Fatalf("Unreachable = %+v, %v; want host %s, permanent %v", u, ok, host, tc.permanent)
			}
			if msg := u.Error(); !strings.HasPrefix(msg, "cannot reach "+host+": no network route or proxy (") || strings.Contains(msg, "https://") {
				t.Errorf("message %q", msg)
			}
			for _, w := range []string{"DNS", "HTTPS_PROXY", "firewall"} {
				if !strings.Contains(u.Advice(), w) {
					t.Errorf("advice %q lacks %s", u.Advice(), w)
				}
			}
		})
	}
	refused := &azidentity.AuthenticationFailedError{RawResponse: &http.Response{StatusCode: http.StatusUnauthorized}}
	for name, err := range map[string]error{
		"Entra ID refused the credential": refused,
		"ARM answered 401":                &azcore.ResponseError{StatusCode: http.StatusUnauthorized, ErrorCode: "InvalidAuthenticationToken"},
		"read timeout":                    fmt.Errorf("x: %w", context.DeadlineExceeded),
		"connection reset (retried)":      wrap(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}),
		"truncated answer":                io.ErrUnexpectedEOF,
		"no error":                        nil,
	} {
		if u, ok := Unreachable("management.azure.com", err); ok {
			t.Errorf("%s: classified as unreachable: %v", name, u)
		}
	}
}

// closedPort is an address nothing listens on: the listener is closed
// before it is used, so a dial is refused at once.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// refusingTransport sends every request, whatever its host, to a closed
// local port through a real http.Transport, and counts the dials.
func refusingTransport(t *testing.T, dials *atomic.Int32) *http.Client {
	addr := closedPort(t)
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
}

// The real credential, with the real azidentity and HTTP stack: when the
// sign-in endpoint refuses the connection, signing in fails at once with
// "cannot reach login.microsoftonline.com", not as a credential problem and
// not after azcore's retries (one dial per request, where azcore alone
// would try four times with growing waits).
func TestSignInUnreachableFailsFast(t *testing.T) {
	var dials atomic.Int32
	cfg := sp(Config{ClientSecret: "not-a-real-secret"}).WithTransport(refusingTransport(t, &dials))
	source, err := NewCredentialSource(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cred, err := source()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	_, err = cred.GetToken(t.Context(), policy.TokenRequestOptions{Scopes: []string{"https://management.azure.com/.default"}})
	took := time.Since(started)
	var u *UnreachableError
	var signIn *SignInError
	if !errors.As(err, &u) || errors.As(err, &signIn) {
		t.Fatalf("GetToken error = %v (%T), want an *UnreachableError and no *SignInError", err, err)
	}
	if u.Host != "login.microsoftonline.com" || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("host %q, error %v", u.Host, err)
	}
	if n := dials.Load(); n > 2 || took > 5*time.Second {
		t.Errorf("%d dials in %s: a refused connection must not be retried", n, took)
	}
}

// A read of Resource Manager that is refused the connection is one try,
// classified as unreachable (the gap says so); a reset connection is
// retried as before.
func TestReadUnreachableIsNotRetried(t *testing.T) {
	var dials atomic.Int32
	p := newRetryPolicy(RetryConfig{})
	sleeps := &fakeSleeps{}
	p.sleep = sleeps.sleep
	c, err := newVNetClientWithReach(refusingTransport(t, &dials), p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), "rg-hub", "vnet-hub", nil)
	var u *UnreachableError
	if !errors.As(err, &u) || u.Host != "management.azure.com" {
		t.Fatalf("error %v, want an *UnreachableError for management.azure.com", err)
	}
	if n := dials.Load(); n != 1 || len(sleeps.delays) != 0 {
		t.Errorf("%d dials, %d waits: want one try", n, len(sleeps.delays))
	}
	if g := Gap("/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub", "", err); g.Kind != "unreachable" ||
		!strings.HasPrefix(g.Detail, "cannot reach management.azure.com: no network route or proxy") {
		t.Errorf("gap %+v", g)
	}
}

// newVNetClientWithReach is vnetClient with the per-try policies of the
// session's pipeline (reachPolicy above the transport).
func newVNetClientWithReach(tr policy.Transporter, p *retryPolicy) (*armnetwork.VirtualNetworksClient, error) {
	return armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Transport:        tr,
			Retry:            SDKRetryOptions(),
			PerCallPolicies:  []policy.Policy{ReadOnlyGuard{}, p},
			PerRetryPolicies: []policy.Policy{reachPolicy{}},
		},
		DisableRPRegistration: true,
	})
}
