package azure

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// connectBounds is how long each step of opening a connection may take.
// Without them a network that swallows packets costs the whole read
// timeout: a proxy that accepts the connection and never answers the
// CONNECT request holds each try for a minute (the standard library's own
// bound), a firewall that drops packets holds each dial for 30 s, and the
// retries multiply both. With them every try that gets no answer ends
// within seconds, as an [UnreachableError] that names the host (and the
// proxy), so the read fails within about a minute in the worst case
// (4 tries, see RetryConfig): 4 × 15 s through a silent proxy, 4 × 10 s
// for a dropped dial or a TLS handshake that never completes.
//
// Once a connection is open no bound applies: a slow answer is the read
// timeout's business.
type connectBounds struct {
	// Dial: the TCP connection to the host or to the proxy.
	Dial time.Duration
	// TLSHandshake: the TLS handshake with the host (through the proxy's
	// tunnel when there is one) or with an https:// proxy.
	TLSHandshake time.Duration
	// ProxyConnect: the proxy's answer to the CONNECT request that opens
	// the tunnel.
	ProxyConnect time.Duration
}

// liveConnectBounds are the bounds of the live transport. A TCP dial that
// gets no answer in 10 s has lost its SYN three times (Linux retransmits
// after 1, 3 and 7 s); Resource Manager and Entra ID complete a handshake in
// well under a second from anywhere they serve.
var liveConnectBounds = connectBounds{Dial: 10 * time.Second, TLSHandshake: 10 * time.Second, ProxyConnect: 15 * time.Second}

// newHTTPClient is the live transport, of the reads and of the credential's
// token requests, configured like azcore's default client (which lives in
// an internal package) with the connection bounds of liveConnectBounds.
func newHTTPClient() *http.Client {
	return newBoundedHTTPClient(liveConnectBounds, http.ProxyFromEnvironment)
}

// newBoundedHTTPClient builds the client with bounds b and proxy selection
// proxy (http.ProxyFromEnvironment live: HTTPS_PROXY, NO_PROXY). Redirects
// are followed only for GET: a redirected POST would reach a URL the
// read-only guard never saw.
func newBoundedHTTPClient(b connectBounds, proxy func(*http.Request) (*url.URL, error)) *http.Client {
	dialer := &net.Dialer{Timeout: b.Dial, KeepAlive: 30 * time.Second}
	tunnels := &proxyTunnels{bound: b.ProxyConnect, conns: map[context.Context]*tunnelConn{}}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  proxy,
			DialContext:            tunnels.dial(dialer),
			GetProxyConnectHeader:  tunnels.connecting,
			OnProxyConnectResponse: tunnels.connected,
			ForceAttemptHTTP2:      true,
			MaxIdleConns:           100,
			MaxIdleConnsPerHost:    10,
			IdleConnTimeout:        90 * time.Second,
			TLSHandshakeTimeout:    b.TLSHandshake,
			ExpectContinueTimeout:  time.Second,
			TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
			// Detect dead HTTP/2 connections, as azcore does.
			HTTP2: &http.HTTP2Config{SendPingTimeout: 10 * time.Second, PingTimeout: 5 * time.Second},
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.Method != http.MethodGet {
				return http.ErrUseLastResponse
			}
			if len(via) >= 10 {
				return fmt.Errorf("stopped after %d redirects", len(via))
			}
			return nil
		},
	}
}

// ProxyNoAnswerError: the proxy accepted the TCP connection but did not
// answer the CONNECT request for Target within After.
type ProxyNoAnswerError struct {
	Proxy  string // the proxy's host:port
	Target string // host:port the tunnel was for
	After  time.Duration
	Err    error // the read's timeout error
}

func (e *ProxyNoAnswerError) Error() string {
	return fmt.Sprintf("the proxy %s accepted the connection but did not answer the request to open a tunnel to %s within %s",
		e.Proxy, e.Target, e.After)
}

func (e *ProxyNoAnswerError) Unwrap() error { return e.Err }

// Timeout reports true: it is a timeout of the network.
func (e *ProxyNoAnswerError) Timeout() bool { return true }

// proxyTunnels bounds the CONNECT exchange with a proxy. net/http offers
// no setting for it, only hooks: it dials the proxy (DialContext), asks for
// the CONNECT headers (GetProxyConnectHeader), writes the request, reads
// the answer and reports it (OnProxyConnectResponse), all with the same
// context. The dial registers its connection under that context; the
// header hook sets a deadline on it; the answer hook clears the deadline
// (the tunnel is open and then carries the TLS handshake, bounded by
// TLSHandshakeTimeout, and the requests, bounded by nothing here).
type proxyTunnels struct {
	bound time.Duration
	mu    sync.Mutex
	// conns are the open connections by the context they were dialled
	// with, until their tunnel is open or they are closed. (An https://
	// proxy gets a TLS handshake before the CONNECT, so a connection is
	// not known to be no tunnel before it closes.)
	conns map[context.Context]*tunnelConn
}

func (p *proxyTunnels) dial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc := &tunnelConn{Conn: c, owner: p, key: ctx, addr: addr}
		p.mu.Lock()
		p.conns[ctx] = tc
		p.mu.Unlock()
		return tc, nil
	}
}

func (p *proxyTunnels) take(ctx context.Context) *tunnelConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	tc := p.conns[ctx]
	delete(p.conns, ctx)
	return tc
}

func (p *proxyTunnels) forget(tc *tunnelConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns[tc.key] == tc {
		delete(p.conns, tc.key)
	}
}

// connecting is GetProxyConnectHeader: the CONNECT request is about to be
// written on the connection dialled with ctx. No extra header.
func (p *proxyTunnels) connecting(ctx context.Context, proxyURL *url.URL, target string) (http.Header, error) {
	p.mu.Lock()
	tc := p.conns[ctx]
	p.mu.Unlock()
	if tc != nil && p.bound > 0 {
		tc.startTunnel(target, p.bound)
	}
	return nil, nil
}

// connected is OnProxyConnectResponse: the proxy answered.
func (p *proxyTunnels) connected(ctx context.Context, _ *url.URL, _ *http.Request, _ *http.Response) error {
	if tc := p.take(ctx); tc != nil {
		return tc.endTunnel()
	}
	return nil
}

// tunnelConn is a dialled connection. While its CONNECT exchange runs it
// has a deadline, and a timeout then reads as a *ProxyNoAnswerError.
type tunnelConn struct {
	net.Conn
	owner *proxyTunnels
	key   context.Context
	addr  string

	mu     sync.Mutex
	target string        // set while the CONNECT exchange runs
	bound  time.Duration // its bound
}

func (c *tunnelConn) startTunnel(target string, bound time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.target, c.bound = target, bound
	_ = c.Conn.SetDeadline(time.Now().Add(bound))
}

func (c *tunnelConn) endTunnel() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.target = ""
	return c.Conn.SetDeadline(time.Time{})
}

// classify turns a timeout during the CONNECT exchange into the error that
// says so.
func (c *tunnelConn) classify(err error) error {
	if err == nil {
		return nil
	}
	c.mu.Lock()
	target, bound := c.target, c.bound
	c.mu.Unlock()
	var ne net.Error
	if target != "" && errors.As(err, &ne) && ne.Timeout() {
		return &ProxyNoAnswerError{Proxy: c.addr, Target: target, After: bound, Err: err}
	}
	return err
}

func (c *tunnelConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	return n, c.classify(err)
}

func (c *tunnelConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	return n, c.classify(err)
}

func (c *tunnelConn) Close() error {
	c.owner.forget(c)
	return c.Conn.Close()
}
