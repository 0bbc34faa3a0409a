package azure

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// UnreachableError: a request to Host got no answer because the network
// between this machine and Host failed: the name does not resolve, the
// connection is refused or has no route, or the TLS connection (often a
// proxy that intercepts it) or the proxy itself fails. It is neither a
// credential that does not work nor a resource that cannot be read, and
// the message says what to check. Err is the network error.
type UnreachableError struct {
	Host string
	// Proxy is the proxy the request went through (host:port, or its URL
	// without credentials), when one did: the machine to check first.
	Proxy string
	Err   error
	// Permanent: trying again at once will not help (a name that does not
	// resolve, a refused connection, a certificate that does not verify);
	// a timeout is not permanent.
	Permanent bool
}

func (e *UnreachableError) Error() string {
	if e.Proxy != "" {
		return fmt.Sprintf("cannot reach %s through the proxy %s: no network route or proxy (%v)", e.Host, e.Proxy, networkCause(e.Err))
	}
	return fmt.Sprintf("cannot reach %s: no network route or proxy (%v)", e.Host, networkCause(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Advice is what to check, in a sentence for diagnostics.
func (e *UnreachableError) Advice() string {
	if e.Proxy != "" {
		return fmt.Sprintf("Check that the proxy %s (HTTPS_PROXY) is up, answers, and lets this machine reach %s over HTTPS "+
			"(port 443), or exempt the host with NO_PROXY; then a firewall between the proxy and Azure. Credentials, "+
			"permissions and throttling are irrelevant here: no answer came back.", e.Proxy, e.Host)
	}
	return fmt.Sprintf("Check that this machine can resolve and reach %s over HTTPS (port 443): its DNS, the proxy settings "+
		"(HTTPS_PROXY, NO_PROXY) and a firewall between it and Azure. Credentials, permissions and throttling are irrelevant "+
		"here: no answer came back.", e.Host)
}

// permanentError marks an UnreachableError that retrying does not cure as
// azcore's non-retriable error, which both azcore's retry policy (the
// credential's token requests) and NewRetryPolicy (the reads) honour: the
// read fails at once instead of after seconds of backoff.
type permanentError struct{ *UnreachableError }

// NonRetriable is azcore's marker (errorinfo.NonRetriable).
func (permanentError) NonRetriable() {}

func (e permanentError) Unwrap() error { return e.UnreachableError }

// Unreachable classifies err, the error of a request to host that got no
// HTTP answer: the network failure it is, or false for any other error
// (an answer, a cancelled context, a reset connection worth a retry).
//
// A timeout of a step that opens the connection (dial, TLS handshake, the
// proxy's CONNECT answer; see connectBounds) is the network's, and is
// retried. Go's network timeouts also match context.DeadlineExceeded
// (errors.Is), so the caller must tell them from its own context's end
// first: a request whose context is done is not classified here
// (reachPolicy and the credential check ctx.Err()). A bare
// context.DeadlineExceeded is the context's and never unreachable.
func Unreachable(host string, err error) (*UnreachableError, bool) {
	if err == nil || errors.Is(err, context.Canceled) {
		return nil, false
	}
	var already *UnreachableError
	if errors.As(err, &already) {
		return already, true
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var silentProxy *ProxyNoAnswerError
	switch {
	case errors.As(err, &silentProxy):
		return &UnreachableError{Host: host, Proxy: silentProxy.Proxy, Err: err}, true
	case errors.As(err, &dnsErr):
		return &UnreachableError{Host: host, Err: err, Permanent: dnsErr.IsNotFound}, true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return &UnreachableError{Host: host, Err: err, Permanent: true}, true
	case errors.As(err, &unknownCA), errors.As(err, &badHost), errors.As(err, &invalid), errors.As(err, &verify), errors.As(err, &record):
		return &UnreachableError{Host: host, Err: err, Permanent: true}, true
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		// The dial (or TLS handshake) with the proxy failed; a timeout may
		// pass, anything else (refused, no route) will not.
		return &UnreachableError{Host: host, Proxy: proxyAddr(opErr), Err: err, Permanent: !opErr.Timeout()}, true
	case errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout():
		return &UnreachableError{Host: host, Err: err}, true
	case isTLSHandshakeTimeout(err):
		return &UnreachableError{Host: host, Err: err}, true
	}
	return nil, false
}

// proxyAddr is the proxy's address in a "proxyconnect" error: that of the
// dial it wraps, if it says.
func proxyAddr(proxyConnect *net.OpError) string {
	var dial *net.OpError
	if errors.As(proxyConnect.Err, &dial) && dial.Addr != nil {
		return dial.Addr.String()
	}
	return ""
}

// isTLSHandshakeTimeout: net/http's TLSHandshakeTimeout ended a handshake
// (an unexported type; its text is its identity).
func isTLSHandshakeTimeout(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if t, ok := e.(interface{ Timeout() bool }); ok && t.Timeout() && e.Error() == "net/http: TLS handshake timeout" {
			return true
		}
	}
	return false
}

// networkCause is the network error without the URL and method that
// *url.Error repeats (the message names the host itself).
func networkCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// reachPolicy turns a request's network failure into an UnreachableError
// naming the request's host (marked non-retriable when retrying cannot
// help), and reports it to the reachProbe of the request's context, if any.
// It sits among the per-try policies, right above the transport, of the
// reads and of the credential's token requests.
type reachPolicy struct {
	// signIn: the credential's token requests, where every network failure
	// is final for azcore's retries. The confidential client (MSAL) tries a
	// token request twice by itself, and azcore would multiply that by its
	// four tries: through a silent proxy eight times 15 s. Reads keep their
	// retries (RetryConfig), a minute at most.
	signIn bool
}

// Do implements policy.Policy.
func (p reachPolicy) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	// The read's own deadline or cancellation is not the network's.
	if err == nil || req.Raw().Context().Err() != nil {
		return resp, err
	}
	u, ok := Unreachable(req.Raw().URL.Hostname(), err)
	if !ok {
		return resp, err
	}
	if u.Proxy == "" {
		u.Proxy = proxyOf(req.Raw())
	}
	if probe, found := req.Raw().Context().Value(reachProbeKey{}).(*reachProbe); found {
		probe.set(u)
	}
	if u.Permanent || p.signIn {
		return resp, permanentError{u}
	}
	return resp, u
}

// proxyOf is the proxy the environment selects for req (HTTPS_PROXY,
// NO_PROXY), without its credentials; empty without one.
func proxyOf(req *http.Request) string {
	u, err := http.ProxyFromEnvironment(req)
	if err != nil || u == nil {
		return ""
	}
	return u.Redacted()
}

// reachProbe keeps the last network failure of the requests made with a
// context: azidentity turns the errors of token requests into text, so the
// credential learns from the probe that signing in failed for want of a
// network, not for a credential Entra ID refused.
type reachProbe struct {
	mu  sync.Mutex
	err *UnreachableError
}

type reachProbeKey struct{}

func withReachProbe(ctx context.Context) (context.Context, *reachProbe) {
	p := &reachProbe{}
	return context.WithValue(ctx, reachProbeKey{}, p), p
}

func (p *reachProbe) set(u *UnreachableError) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.err = u
}

func (p *reachProbe) get() *UnreachableError {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
