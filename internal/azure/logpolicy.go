package azure

import (
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// requestLogPolicy writes one TRACE line per ARM request to the provider's
// log (TF_LOG=TRACE), so that a slow or failing plan shows what was read:
// method, URL, status, duration and try. The logger comes from the request's
// context, which the data source read hands down; without one (unit tests,
// tools) tflog does nothing.
//
// It runs per try after the bearer-token policy, so the request it sees
// carries the Authorization header: it logs no header and no body on
// purpose. azcore's own request logging (azcore/log) is not wired to the
// provider log at all.
type requestLogPolicy struct{}

// logMessageARMRequest is the message of every request line; the secrets
// test looks for it to prove that the provider's log was captured.
const logMessageARMRequest = "ARM request"

func (requestLogPolicy) Do(req *policy.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := req.Next()
	raw := req.Raw()
	fields := map[string]any{
		"method":      raw.Method,
		"url":         raw.URL.Scheme + "://" + raw.URL.Host + raw.URL.EscapedPath(),
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if resp != nil {
		fields["status"] = resp.StatusCode
	}
	if err != nil {
		fields["error"] = err.Error()
	}
	tflog.Trace(raw.Context(), logMessageARMRequest, fields)
	return resp, err
}
