package snapshot

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// Long-running actions, as the recorder sees them. A live POST such as
// effectiveRouteTable answers 202 with polling URLs; azcore's poller then
// GETs them until the operation ends and takes the result from:
//
//   - the Location URL, when the action has one (the final GET answers 200
//     with the result; 202 while running);
//   - otherwise the last Azure-AsyncOperation / Operation-Location status
//     body (status "Succeeded").
//
// The recorder maps those GETs back to the POST and keeps the result under
// "POST <original path>", which the replay answers with 200 at once.

type pendingLRO struct {
	action      string // "POST /path"
	hasLocation bool
}

type pollTarget struct {
	lro      *pendingLRO
	location bool // a Location URL; else an operation-status URL
}

func (r *Recorder) trackLRO(action string, h http.Header) {
	lro := &pendingLRO{action: action}
	for _, name := range []string{"Azure-AsyncOperation", "Operation-Location"} {
		if u, err := parseURL(h.Get(name)); err == nil {
			r.polls[normPath(u.Path)] = pollTarget{lro: lro}
		}
	}
	if u, err := parseURL(h.Get("Location")); err == nil {
		lro.hasLocation = true
		r.polls[normPath(u.Path)] = pollTarget{lro: lro, location: true}
	}
}

func (r *Recorder) observePoll(t pollTarget, resp *http.Response, body []byte) {
	if t.location {
		// Location polling may move to a new URL.
		if u, err := parseURL(resp.Header.Get("Location")); err == nil {
			r.polls[normPath(u.Path)] = pollTarget{lro: t.lro, location: true}
		}
		switch resp.StatusCode {
		case http.StatusOK:
			r.recordActionPage(t.lro.action, body, false)
			r.finish(t.lro)
		case http.StatusAccepted: // still running
		default:
			r.finish(t.lro)
		}
		return
	}
	if resp.StatusCode != http.StatusOK {
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
		if !t.lro.hasLocation {
			r.recordActionPage(t.lro.action, body, false)
			r.finish(t.lro)
		}
	case "failed", "canceled", "cancelled":
		r.finish(t.lro)
	}
}

// finish forgets every polling URL of lro.
func (r *Recorder) finish(lro *pendingLRO) {
	for k, t := range r.polls {
		if t.lro == lro {
			delete(r.polls, k)
		}
	}
}

// isOperationStatus reports ARM operation-status resources
// (…/locations/{l}/operations/{id} and the like): they describe a
// request, not the network, and must not be stored as resources.
func isOperationStatus(key string) bool {
	segs := segments(key)
	for i := 0; i+2 < len(segs); i++ {
		if segs[i] == "locations" {
			switch segs[i+2] {
			case "operations", "operationresults", "operationstatuses", "asyncoperations", "asyncoperation":
				return true
			}
		}
	}
	return false
}

func parseURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, errEmptyURL
	}
	return url.Parse(s)
}

// pageKey identifies a next-page URL independent of query encoding and
// parameter order (azcore re-encodes nextLink before sending it).
func pageKey(path, rawQuery string) string {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return normPath(path) + "?" + rawQuery
	}
	return normPath(path) + "?" + q.Encode()
}

var errEmptyURL = errors.New("empty URL")
