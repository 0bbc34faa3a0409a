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
	Err  error
	// Permanent: trying again at once will not help (a name that does not
	// resolve, a refused connection, a certificate that does not verify);
	// a timeout is not permanent.
	Permanent bool
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s: no network route or proxy (%v)", e.Host, networkCause(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Advice is what to check, in a sentence for diagnostics.
func (e *UnreachableError) Advice() string {
	return fmt.Sprintf("Check that this machine can resolve and reach %s over HTTPS (port 443): its DNS, the proxy settings "+
		"(HTTPS_PROXY, NO_PROXY) and a firewall between it and Azure. Credentials and permissions are irrelevant here: no "+
		"answer came back.", e.Host)
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
func Unreachable(host string, err error) (*UnreachableError, bool) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
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
	switch {
	case errors.As(err, &dnsErr):
		return &UnreachableError{Host: host, Err: err, Permanent: dnsErr.IsNotFound}, true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return &UnreachableError{Host: host, Err: err, Permanent: true}, true
	case errors.As(err, &unknownCA), errors.As(err, &badHost), errors.As(err, &invalid), errors.As(err, &verify), errors.As(err, &record):
		return &UnreachableError{Host: host, Err: err, Permanent: true}, true
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		return &UnreachableError{Host: host, Err: err, Permanent: true}, true
	case errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout():
		return &UnreachableError{Host: host, Err: err}, true
	}
	return nil, false
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
type reachPolicy struct{}

// Do implements policy.Policy.
func (reachPolicy) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if err == nil {
		return resp, nil
	}
	u, ok := Unreachable(req.Raw().URL.Hostname(), err)
	if !ok {
		return resp, err
	}
	if p, found := req.Raw().Context().Value(reachProbeKey{}).(*reachProbe); found {
		p.set(u)
	}
	if u.Permanent {
		return resp, permanentError{u}
	}
	return resp, u
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
