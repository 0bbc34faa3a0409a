package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// AnswerHeader marks every answer of the replay, so that a failed read
// can say it is the snapshot that lacks a resource, not Azure.
const AnswerHeader = "X-Pullpath-Snapshot"

// newResponse builds an answer the way ARM sends it: JSON body, a request
// id, and the request attached (azcore's error type reads method and URL
// from it).
func newResponse(req *http.Request, status int, body []byte, requestID string) *http.Response {
	h := http.Header{}
	h.Set(AnswerHeader, "replay")
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Ms-Request-Id", requestID)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// errorResponse is an ARM error: {"error": {"code", "message"}} plus the
// x-ms-error-code header ARM also sets.
func errorResponse(req *http.Request, status int, code, message, requestID string) *http.Response {
	body, _ := json.Marshal(armError{Error: armErrorBody{Code: code, Message: message}}) // cannot fail: two strings
	resp := newResponse(req, status, body, requestID)
	resp.Header.Set("X-Ms-Error-Code", code)
	return resp
}

type armError struct {
	Error armErrorBody `json:"error"`
}

type armErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// faultResponse answers with a snapshot fault, filling in ARM's usual code
// and a message when the snapshot leaves them out.
func faultResponse(req *http.Request, f Fault, requestID string) *http.Response {
	if f.Body != nil {
		resp := newResponse(req, f.Status, []byte(*f.Body), requestID)
		resp.Header.Set("Content-Type", "text/html; charset=utf-8")
		return resp
	}
	code := f.Code
	if code == "" {
		code = defaultErrorCode(f.Status)
	}
	msg := f.Message
	if msg == "" {
		msg = fmt.Sprintf("Simulated fault from the snapshot: %d %s.", f.Status, http.StatusText(f.Status))
	}
	resp := errorResponse(req, f.Status, code, msg, requestID)
	if f.RetryAfterS != nil {
		resp.Header.Set("Retry-After", strconv.Itoa(*f.RetryAfterS))
	}
	if f.RetryAfterMS != nil {
		resp.Header.Set("Retry-After-Ms", strconv.Itoa(*f.RetryAfterMS))
	}
	return resp
}

func defaultErrorCode(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "AuthenticationFailed"
	case http.StatusForbidden:
		return "AuthorizationFailed"
	case http.StatusNotFound:
		return "ResourceNotFound"
	}
	if text := http.StatusText(status); text != "" {
		return strings.NewReplacer(" ", "", "-", "", "'", "").Replace(text)
	}
	return "HTTP" + strconv.Itoa(status)
}

// collectionBody is {"value": [...]} over stored bodies; ARM would add a
// nextLink when there are more pages, the replay never has more.
func collectionBody(members []*entry) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"value":[`)
	for i, e := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(e.body)
	}
	buf.WriteString(`]}`)
	return buf.Bytes()
}
