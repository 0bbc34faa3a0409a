package azure

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// Requests are logged at DEBUG, which the timeout diagnostics tell users to
// set (TF_LOG=DEBUG); their bodies at TRACE only; neither ever holds the
// bearer token or a value named like a credential.
func TestRequestLogLevels(t *testing.T) {
	t.Setenv("TF_LOG_PROVIDER", "")
	t.Setenv("TF_ACC_LOG", "")
	t.Setenv("TF_LOG", "TRACE")
	const answer = `{"name":"vnet-hub","properties":{"adminPassword":"hunter2-secret","primaryKey":"k3y-secret","addressSpace":{"addressPrefixes":["10.0.0.0/16"]}}}`
	var sawAuth string
	tr := transportFunc(func(req *http.Request) (*http.Response, error) {
		sawAuth = req.Header.Get("Authorization")
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(answer)), Request: req}, nil
	})
	vnets, err := armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Transport:        tr,
			Retry:            SDKRetryOptions(),
			PerRetryPolicies: []policy.Policy{ReadOnlyGuard{}, requestLogPolicy{}},
		},
		DisableRPRegistration: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &out)
	got, err := vnets.Get(ctx, "rg-hub", "vnet-hub", nil)
	if err != nil || got.Name == nil || *got.Name != "vnet-hub" {
		t.Fatalf("the read must still get its answer after the body is logged: %v %+v", err, got)
	}
	if sawAuth == "" {
		t.Fatal("premise: the request carried a bearer token")
	}

	levels := map[string]map[string]any{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		levels[line["@message"].(string)] = line
	}
	req, body := levels[logMessageARMRequest], levels[logMessageARMBody]
	if req == nil || req["@level"] != "debug" || req["method"] != "GET" || req["status"] != float64(200) ||
		!strings.HasPrefix(req["url"].(string), "https://management.azure.com/subscriptions/") || req["request_body"] != nil || req["response_body"] != nil {
		t.Errorf("request line %v: want it at debug, without bodies", req)
	}
	if body == nil || body["@level"] != "trace" || !strings.Contains(body["response_body"].(string), `"addressPrefixes":["10.0.0.0/16"]`) {
		t.Errorf("body line %v: want the answer at trace", body)
	}
	for _, secret := range []string{"hunter2-secret", "k3y-secret", strings.TrimPrefix(sawAuth, "Bearer "), "fake_token"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, out.String())
		}
	}
	if !strings.Contains(body["response_body"].(string), `"adminPassword":"[REDACTED]"`) {
		t.Errorf("response body %v", body["response_body"])
	}
	// At DEBUG the bodies are neither read for the log nor logged.
	t.Setenv("TF_LOG", "DEBUG")
	out.Reset()
	if _, err := vnets.Get(tflogtest.RootLogger(t.Context(), &out), "rg-hub", "vnet-hub", nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), logMessageARMBody) || !strings.Contains(out.String(), logMessageARMRequest) {
		t.Errorf("at DEBUG the log holds:\n%s", out.String())
	}
}

func TestRedactBody(t *testing.T) {
	for in, want := range map[string]string{
		`{"clientSecret": "a\"b", "x": "y"}`:           `{"clientSecret": "[REDACTED]", "x": "y"}`,
		`{"SharedAccessSignature":"sv=1&sig=abc"}`:     `{"SharedAccessSignature":"[REDACTED]"}`,
		`{"query":"Resources | where type =~ 'x'"}`:    `{"query":"Resources | where type =~ 'x'"}`,
		`{"access_token":"eyJ0"}`:                      `{"access_token":"[REDACTED]"}`,
		`{"connectionString":"Endpoint=sb://x;Key=z"}`: `{"connectionString":"[REDACTED]"}`,
	} {
		if got := redactBody([]byte(in)); got != want {
			t.Errorf("redactBody(%s) = %s, want %s", in, got, want)
		}
	}
	long := redactBody(bytes.Repeat([]byte("a"), logBodyLimit+10))
	if len(long) > logBodyLimit+20 || !strings.HasSuffix(long, "(truncated)") {
		t.Errorf("long body not cut: %d bytes", len(long))
	}
}
