package azure

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// requestLogPolicy writes every ARM request to the provider's log, so that
// a slow or failing plan shows what was read:
//
//   - at DEBUG (TF_LOG=DEBUG, what the timeout diagnostics tell users to
//     set) one line per request: method, URL, status, duration, error;
//   - at TRACE (TF_LOG=TRACE) also the request's and the answer's bodies,
//     at most logBodyLimit bytes each, with every JSON value whose name
//     suggests a credential replaced (redactBody).
//
// The logger comes from the request's context, which the data source read
// hands down; without one (unit tests, tools) tflog does nothing.
//
// It runs per try after the bearer-token policy, so the request it sees
// carries the Authorization header: it logs no header on purpose. Token
// requests to Entra ID do not pass here (the credential has a pipeline of
// its own), so no token answer is ever logged. azcore's own request
// logging (azcore/log) is not wired to the provider log at all.
type requestLogPolicy struct{}

// logMessageARMRequest is the message of every request line; the secrets
// test looks for it to prove that the provider's log was captured.
const (
	logMessageARMRequest = "ARM request"
	logMessageARMBody    = "ARM request and answer bodies"
	logBodyLimit         = 16 << 10
)

func (requestLogPolicy) Do(req *policy.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := req.Next()
	raw := req.Raw()
	ctx := raw.Context()
	url := raw.URL.Scheme + "://" + raw.URL.Host + raw.URL.EscapedPath()
	fields := map[string]any{
		"method":      raw.Method,
		"url":         url,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if resp != nil {
		fields["status"] = resp.StatusCode
	}
	if err != nil {
		fields["error"] = err.Error()
	}
	tflog.Debug(ctx, logMessageARMRequest, fields)
	if !traceLogging() {
		return resp, err
	}

	bodies := map[string]any{"method": raw.Method, "url": url}
	if b := requestBody(req); b != "" {
		bodies["request_body"] = b
	}
	if resp != nil {
		// Payload buffers the body and puts it back for the SDK to read.
		if p, perr := runtime.Payload(resp); perr == nil && len(p) > 0 {
			bodies["response_body"] = redactBody(p)
		}
	}
	tflog.Trace(ctx, logMessageARMBody, bodies)
	return resp, err
}

// traceLogging reports whether the provider log is at TRACE, from the
// variables the CLIs and the test harness set (TF_LOG_PROVIDER, TF_LOG,
// TF_ACC_LOG; "JSON" is TRACE in JSON): the bodies are then read and
// redacted, and at any other level that work is skipped.
func traceLogging() bool {
	for _, v := range []string{"TF_LOG_PROVIDER", "TF_LOG", "TF_ACC_LOG"} {
		switch strings.ToUpper(strings.TrimSpace(os.Getenv(v))) {
		case "TRACE", "JSON":
			return true
		}
	}
	return false
}

// requestBody is the request's body for the log (a Resource Graph query, a
// read-only POST), read from its rewindable copy; empty without one.
func requestBody(req *policy.Request) string {
	body := req.Body()
	if body == nil || req.RewindBody() != nil {
		return ""
	}
	defer func() { _ = req.RewindBody() }()
	b, err := io.ReadAll(io.LimitReader(body, logBodyLimit+1))
	if err != nil {
		return ""
	}
	return redactBody(b)
}

// secretValue matches a JSON string member whose name suggests a
// credential (password, secret, token, key, connection string, SAS,
// signature, credential), in any case, with its value.
var secretValue = regexp.MustCompile(`(?i)("[^"]*(?:password|secret|token|key|connectionstring|sas|signature|credential)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// redactBody is b for the log: at most logBodyLimit bytes, every value
// secretValue matches replaced by "[REDACTED]". Resource Manager's read
// answers carry no credential (listing keys is a POST action the read-only
// guard refuses); this is the belt to that pair of braces.
func redactBody(b []byte) string {
	truncated := len(b) > logBodyLimit
	if truncated {
		b = b[:logBodyLimit]
	}
	out := secretValue.ReplaceAll(b, []byte(`$1"[REDACTED]"`))
	if truncated {
		out = append(bytes.Clone(out), []byte(" …(truncated)")...)
	}
	return string(out)
}
