package azure

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// ReadCache is the session's request cache: one per provider instance, so
// every data source of one plan shares it. A resource is read from ARM
// once; a second ask for it, from the same read or another data source, is
// answered from memory, and an ask while the first is still in flight waits
// for that one request (single flight) instead of sending its own.
//
// Only successful answers are kept: a 200 to a GET, and the result of a
// read action (POST), whether ARM answered it at once or as a long-running
// operation. Errors (403, 404, throttling that outlasted the retries, a
// cancelled request) are never kept: whoever asks next sends the request
// again, so a failure is not carried beyond the read that saw it.
//
// It is a per-call policy placed above the retry policy: a waiter waits for
// the whole call, retries included, and a cached answer needs neither a
// token nor a try. LRO polls pass through it uncached (they change until
// the operation ends); it watches them to learn the action's result.
type ReadCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	// polls maps the polling URLs of running actions to their entry.
	polls map[string]pollWatch

	hits atomic.Int64
}

type cacheEntry struct {
	done chan struct{}
	// ok, header and body are set before done closes, when ok.
	ok     bool
	header http.Header
	body   []byte
	// lro: the entry's POST answered 202 and waits for its polls.
	lro         bool
	hasLocation bool
}

type pollWatch struct {
	entry    *cacheEntry
	key      string
	location bool // a Location URL (its 200 is the result); else a status URL
}

// NewReadCache returns an empty cache.
func NewReadCache() *ReadCache {
	return &ReadCache{entries: map[string]*cacheEntry{}, polls: map[string]pollWatch{}}
}

// Hits is the number of requests answered from the cache (or by waiting for
// an identical request in flight) instead of being sent.
func (c *ReadCache) Hits() int64 { return c.hits.Load() }

// Do implements policy.Policy.
func (c *ReadCache) Do(req *policy.Request) (*http.Response, error) {
	raw := req.Raw()
	if raw.Method != http.MethodGet && raw.Method != http.MethodPost {
		return req.Next()
	}
	if raw.Method == http.MethodGet {
		c.mu.Lock()
		w, isPoll := c.polls[pollKey(raw.URL)]
		c.mu.Unlock()
		if isPoll {
			resp, err := req.Next()
			c.observePoll(w, resp, err)
			return resp, err
		}
	}
	key, err := cacheKey(req)
	if err != nil {
		return req.Next()
	}
	for {
		c.mu.Lock()
		e, found := c.entries[key]
		if !found {
			e = &cacheEntry{done: make(chan struct{})}
			c.entries[key] = e
			c.mu.Unlock()
			return c.fetch(req, key, e)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-raw.Context().Done():
			noteInterrupted(raw)
			return nil, raw.Context().Err()
		}
		if e.ok {
			c.hits.Add(1)
			return e.response(raw), nil
		}
		// The request in flight failed; its owner removed the entry, so
		// the next turn sends this one.
	}
}

// fetch sends the request as the owner of entry e and completes e from
// the answer (or leaves it to the polls of a long-running action).
func (c *ReadCache) fetch(req *policy.Request, key string, e *cacheEntry) (*http.Response, error) {
	resp, err := req.Next()
	if err != nil {
		c.complete(key, e, nil, nil)
		return resp, err
	}
	method := req.Raw().Method
	switch {
	case resp.StatusCode == http.StatusOK:
		body, rerr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr != nil {
			c.complete(key, e, nil, nil)
			return resp, rerr
		}
		c.complete(key, e, resp.Header, body)
	case method == http.MethodPost && (resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusCreated):
		if !c.watchLRO(key, e, resp.Header) {
			c.complete(key, e, nil, nil)
			break
		}
		// If the owner gives up before the operation ends (its read was
		// cancelled or timed out), waiters must not wait for nothing.
		stop := context.AfterFunc(req.Raw().Context(), func() { c.complete(key, e, nil, nil) })
		go func() {
			<-e.done
			stop()
		}()
	default:
		c.complete(key, e, nil, nil)
	}
	return resp, err
}

// watchLRO registers the polling URLs of an action that answered 202.
func (c *ReadCache) watchLRO(key string, e *cacheEntry, h http.Header) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.lro = true
	watched := false
	for _, name := range []string{"Azure-AsyncOperation", "Operation-Location"} {
		if u, err := url.Parse(h.Get(name)); err == nil && h.Get(name) != "" {
			c.polls[pollKey(u)] = pollWatch{entry: e, key: key}
			watched = true
		}
	}
	if loc := h.Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			e.hasLocation = true
			c.polls[pollKey(u)] = pollWatch{entry: e, key: key, location: true}
			watched = true
		}
	}
	return watched
}

// observePoll completes an action's entry from a poll answer: the 200 of
// its Location URL is the result; without a Location URL, the status body
// that says Succeeded is (as azcore's poller takes it).
func (c *ReadCache) observePoll(w pollWatch, resp *http.Response, err error) {
	if err != nil || resp == nil {
		c.complete(w.key, w.entry, nil, nil)
		return
	}
	if w.location {
		switch resp.StatusCode {
		case http.StatusAccepted:
			if loc := resp.Header.Get("Location"); loc != "" {
				if u, perr := url.Parse(loc); perr == nil {
					c.mu.Lock()
					c.polls[pollKey(u)] = w
					c.mu.Unlock()
				}
			}
		case http.StatusOK:
			if body, ok := peekBody(resp); ok {
				c.complete(w.key, w.entry, resp.Header, body)
				return
			}
			c.complete(w.key, w.entry, nil, nil)
		default:
			c.complete(w.key, w.entry, nil, nil)
		}
		return
	}
	if resp.StatusCode != http.StatusOK {
		c.complete(w.key, w.entry, nil, nil)
		return
	}
	body, ok := peekBody(resp)
	if !ok {
		return
	}
	var status struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(body, &status) != nil {
		return
	}
	switch strings.ToLower(status.Status) {
	case "succeeded":
		if !w.entry.hasLocation {
			c.complete(w.key, w.entry, resp.Header, body)
		}
	case "failed", "canceled", "cancelled":
		c.complete(w.key, w.entry, nil, nil)
	}
}

// complete ends entry e: kept with the answer when body is non-nil,
// removed otherwise (the next ask sends its own request). Only the first
// completion counts.
func (c *ReadCache) complete(key string, e *cacheEntry, h http.Header, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-e.done:
		return
	default:
	}
	if body != nil {
		e.ok, e.body = true, body
		e.header = http.Header{}
		if ct := h.Get("Content-Type"); ct != "" {
			e.header.Set("Content-Type", ct)
		}
	} else if c.entries[key] == e {
		delete(c.entries, key)
	}
	if e.lro {
		for k, w := range c.polls {
			if w.entry == e {
				delete(c.polls, k)
			}
		}
	}
	close(e.done)
}

// response is the cached answer to req: 200 with the body, which for an
// action is its result (azcore's poller takes a 200 to a POST as done).
func (e *cacheEntry) response(req *http.Request) *http.Response {
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: e.header.Clone(), Body: io.NopCloser(bytes.NewReader(e.body)),
		ContentLength: int64(len(e.body)), Request: req,
	}
}

// peekBody reads resp's body and puts it back for the caller.
func peekBody(resp *http.Response) ([]byte, bool) {
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return body, err == nil
}

// cacheKey identifies a read: method, host, path (ARM paths are
// case-insensitive) and query (api-version, paging, filters), and for a
// POST its body.
func cacheKey(req *policy.Request) (string, error) {
	raw := req.Raw()
	var b strings.Builder
	b.WriteString(raw.Method)
	b.WriteByte(' ')
	b.WriteString(pollKey(raw.URL))
	if raw.Method == http.MethodPost && req.Body() != nil {
		body, err := io.ReadAll(req.Body())
		if err != nil {
			return "", err
		}
		if err := req.RewindBody(); err != nil {
			return "", err
		}
		sum := sha256.Sum256(body)
		b.WriteByte(' ')
		b.WriteString(hex.EncodeToString(sum[:]))
	}
	return b.String(), nil
}

// pollKey is a URL without case in host and path, with its query in a
// canonical order (azcore re-encodes nextLink and polling URLs).
func pollKey(u *url.URL) string {
	q := u.Query().Encode()
	return strings.ToLower(u.Host) + strings.ToLower(u.EscapedPath()) + "?" + q
}
