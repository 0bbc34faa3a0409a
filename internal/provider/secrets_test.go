// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// Distinctive values: any of them found in a log, the state, a plan or the
// recording is a leak. The token looks like a JWT (base64 of
// {"test-token":...}) so that it would also be caught by anyone grepping for
// "eyJ".
const (
	secretTenant       = "11111111-2222-3333-4444-555555555555"
	secretClientID     = "66666666-7777-8888-9999-000000000000"
	secretClientSecret = "pullpath-test-client-SECRET-Zq8~vN3.kP"
	secretAccessToken  = "eyJ0ZXN0LXRva2VuIjoicHVsbHBhdGgtc2VjcmV0cy10ZXN0In0.TOKEN-SIGNATURE-do-not-log"
)

// fakeAzure is the live HTTP client of the secrets test: Entra ID answers
// the client-secret token request with secretAccessToken, and ARM answers
// from a snapshot replay, but only requests that carry that token. A test
// that passed without the token request, or with ARM requests that lacked
// the bearer token, would prove nothing about the credential path, so both
// are counted and checked.
type fakeAzure struct {
	replay *snapshot.Replay
	// rejectSecret makes Entra ID refuse the client secret with an error
	// that echoes it, as a misbehaving proxy or endpoint might.
	rejectSecret bool

	mu            sync.Mutex
	tokenRequests int
	armRequests   int
	problems      []string
}

func (f *fakeAzure) problem(format string, a ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.problems = append(f.problems, fmt.Sprintf(format, a...))
}

func (f *fakeAzure) Do(req *http.Request) (*http.Response, error) {
	switch strings.ToLower(req.URL.Host) {
	case "login.microsoftonline.com":
		return f.entra(req)
	case "management.azure.com":
		f.mu.Lock()
		f.armRequests++
		f.mu.Unlock()
		if got := req.Header.Get("Authorization"); got != "Bearer "+secretAccessToken {
			f.problem("ARM request %s %s without the bearer token from Entra ID (Authorization %q)", req.Method, req.URL.Path, got)
			return jsonResponse(req, http.StatusUnauthorized, `{"error":{"code":"InvalidAuthenticationToken","message":"no token"}}`), nil
		}
		return f.replay.Do(req)
	}
	f.problem("request to an unexpected host: %s %s", req.Method, req.URL)
	return nil, fmt.Errorf("fake Azure: no host %s", req.URL.Host)
}

// entra answers MSAL's instance and tenant discovery and the token request
// of a client-secret credential.
func (f *fakeAzure) entra(req *http.Request) (*http.Response, error) {
	base := "https://login.microsoftonline.com/" + secretTenant
	p := req.URL.Path
	switch {
	case req.Method == http.MethodGet && strings.HasSuffix(p, "/discovery/instance"):
		return jsonResponse(req, http.StatusOK, fmt.Sprintf(`{"tenant_discovery_endpoint":%q,"api-version":"1.1",`+
			`"metadata":[{"preferred_network":"login.microsoftonline.com","preferred_cache":"login.windows.net",`+
			`"aliases":["login.microsoftonline.com","login.windows.net","login.microsoft.com","sts.windows.net"]}]}`,
			base+"/v2.0/.well-known/openid-configuration")), nil
	case req.Method == http.MethodGet && strings.HasSuffix(p, "/.well-known/openid-configuration"):
		return jsonResponse(req, http.StatusOK, fmt.Sprintf(`{"token_endpoint":%q,"authorization_endpoint":%q,"issuer":%q}`,
			base+"/oauth2/v2.0/token", base+"/oauth2/v2.0/authorize", "https://login.microsoftonline.com/"+secretTenant+"/v2.0")), nil
	case req.Method == http.MethodPost && strings.EqualFold(p, "/"+secretTenant+"/oauth2/v2.0/token"):
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, err
		}
		if f.rejectSecret {
			f.mu.Lock()
			f.tokenRequests++
			f.mu.Unlock()
			return jsonResponse(req, http.StatusUnauthorized, fmt.Sprintf(`{"error":"invalid_client","error_description":`+
				`"AADSTS7000215: Invalid client secret provided: %s","error_codes":[7000215]}`, form.Get("client_secret"))), nil
		}
		if form.Get("client_id") != secretClientID || form.Get("client_secret") != secretClientSecret || form.Get("grant_type") != "client_credentials" {
			f.problem("token request without the configured client id and secret (client_id %q, grant_type %q)", form.Get("client_id"), form.Get("grant_type"))
			return jsonResponse(req, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"wrong client"}`), nil
		}
		f.mu.Lock()
		f.tokenRequests++
		f.mu.Unlock()
		return jsonResponse(req, http.StatusOK, fmt.Sprintf(`{"token_type":"Bearer","expires_in":3599,"ext_expires_in":3599,"access_token":%q}`,
			secretAccessToken)), nil
	}
	f.problem("unexpected Entra ID request: %s %s", req.Method, req.URL)
	return jsonResponse(req, http.StatusNotFound, `{"error":"not_found"}`), nil
}

func jsonResponse(req *http.Request, status int, body string) *http.Response {
	return &http.Response{
		StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": []string{"application/json"}},
		Body:    io.NopCloser(strings.NewReader(body)),
		Request: req, ContentLength: int64(len(body)),
	}
}

// leaks are what must never be written anywhere, with a name for messages.
// The header pattern catches an Authorization header (or an azcore
// "REDACTED"-less dump of one) with any bearer value, not only ours.
var leaks = []struct {
	name string
	re   *regexp.Regexp
}{
	{"the client secret", regexp.MustCompile(regexp.QuoteMeta(secretClientSecret))},
	{"the access token", regexp.MustCompile(regexp.QuoteMeta(secretAccessToken))},
	{"the access token's signature", regexp.MustCompile(`TOKEN-SIGNATURE-do-not-log`)},
	{"an Authorization header value", regexp.MustCompile(`(?i)authorization["']?\s*[:=]\s*["'\[]*\s*bearer\s+\S`)},
	{"a bearer token", regexp.MustCompile(`(?i)bearer\s+eyJ`)},
}

func findLeaks(what, text string) []string {
	var out []string
	for _, l := range leaks {
		if loc := l.re.FindStringIndex(text); loc != nil {
			lo, hi := max(loc[0]-80, 0), min(loc[1]+80, len(text))
			out = append(out, fmt.Sprintf("%s contains %s: …%s…", what, l.name, text[lo:hi]))
		}
	}
	return out
}

// noLeakPlan searches the plan as JSON (`show -json` of the plan file),
// except for the two parts that are the CLI's copy of what the user wrote:
// "configuration" (a literal client_secret appears there as a constant) and
// "variables" (the values of root variables, sensitive ones included). No
// provider can change those; keep secrets in ARM_CLIENT_SECRET to keep
// them out of plan files. Everything the provider contributes (planned
// values, prior state, resource changes, checks) is searched.
type noLeakPlan struct{}

func (noLeakPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	raw, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	var plan map[string]json.RawMessage
	if err := json.Unmarshal(raw, &plan); err != nil {
		resp.Error = err
		return
	}
	delete(plan, "configuration")
	delete(plan, "variables")
	rest, err := json.Marshal(plan)
	if err != nil {
		resp.Error = err
		return
	}
	if l := findLeaks("the plan", string(rest)); len(l) > 0 {
		resp.Error = fmt.Errorf("%s", strings.Join(l, "\n"))
	}
}

type noLeakState struct{}

func (noLeakState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	text := string(raw)
	if l := findLeaks("the state", text); len(l) > 0 {
		resp.Error = fmt.Errorf("%s", strings.Join(l, "\n"))
		return
	}
	// Not vacuous: the state holds what the data sources read.
	if !strings.Contains(text, "contosoreg.westeurope.data.azurecr.io") || !strings.Contains(text, "spoke-to-hub") {
		resp.Error = fmt.Errorf("the state does not hold the data sources' results:\n%s", text)
	}
}

// A live plan and apply with a client secret, TF_LOG=TRACE and record_file
// keeps the secret, the access token and every Authorization header out of
// the CLI's and the provider's log, the plan, the state and the recording.
//
// Everything on the provider's side is real: the provider block, the
// azidentity client-secret credential (MSAL), the SDK pipeline with its
// bearer-token policy, the request log, the recorder. Only the HTTP client
// is replaced (provider.SetTestTransport), by fakeAzure.
//
// It runs with the secret in a sensitive variable, as it should be kept,
// and as a literal in the provider block. A literal is in the
// configuration the harness logs when it writes the test's files and in
// the plan's "configuration" section, both copies of what the user wrote,
// made without the provider; those two are left out of the search
// (harnessConfigDump, noLeakPlan), everything else is searched.
func TestAccSecrets_liveRecordTraceLog(t *testing.T) {
	t.Run("sensitive variable", func(t *testing.T) { testLiveRecordTraceLog(t, false) })
	t.Run("literal in the provider block", func(t *testing.T) { testLiveRecordTraceLog(t, true) })
}

func testLiveRecordTraceLog(t *testing.T, literal bool) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "trace.log")
	record := filepath.Join(dir, "recorded.json")

	// terraform-plugin-testing sends the CLI's log (TF_LOG_PATH of the CLI)
	// and the in-process provider's log (tfsdklog's test sink) to
	// TF_ACC_LOG_PATH; TF_LOG_PATH_MASK would take precedence, so it is
	// cleared. TF_ACC_LOG and TF_LOG default to TRACE with a log path, and
	// are set explicitly so that the test does not depend on that default.
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_LOG_PATH_MASK", "")
	t.Setenv("TF_ACC_LOG", "TRACE")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_CORE", "")
	t.Setenv("TF_LOG_PROVIDER", "")
	// The provider block below is the only source of credentials.
	for _, env := range []string{"ARM_CLIENT_SECRET", "ARM_CLIENT_ID", "ARM_TENANT_ID", "ARM_SUBSCRIPTION_ID", "ARM_USE_MSI", "ARM_USE_OIDC",
		"ARM_CLIENT_CERTIFICATE_PATH", "ARM_OIDC_TOKEN", "PULLPATH_SNAPSHOT_FILE", "PULLPATH_RECORD_FILE"} {
		t.Setenv(env, "")
	}

	replay, err := snapshot.LoadReplay(scenarioSnapshot(t, "baseline_ok"))
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeAzure{replay: replay}
	provider.SetTestTransport(t, fake)

	variable, secretExpr := "variable \"client_secret\" {\n  type      = string\n  sensitive = true\n}\n", "var.client_secret"
	if literal {
		variable, secretExpr = "", fmt.Sprintf("%q", secretClientSecret)
	} else {
		t.Setenv("TF_VAR_client_secret", secretClientSecret)
	}
	config := variable + fmt.Sprintf(`
provider "pullpath" {
  subscription_id = %q
  tenant_id       = %q
  client_id       = %q
  client_secret   = %s
  record_file     = %q
}

data "pullpath_verification" "this" {
  cluster_id  = %q
  registry_id = %q
}

data "pullpath_vnet_peerings" "this" {
  virtual_network_id = %q
}
`, accSub, secretTenant, secretClientID, secretExpr, record, accCluster, accRegistry, accSpoke)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{noLeakPlan{}},
				PostApplyPostRefresh: []plancheck.PlanCheck{noLeakPlan{}},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
				statecheck.ExpectKnownValue(peeringsAddr, tfjsonpath.New("peerings"), knownvalue.ListSizeExact(1)),
				noLeakState{},
			},
		}},
	})
	if t.Failed() {
		return
	}

	fake.mu.Lock()
	tokenRequests, armRequests, problems := fake.tokenRequests, fake.armRequests, fake.problems
	fake.mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	if tokenRequests == 0 {
		t.Error("Entra ID never issued a token: the client-secret credential was not used")
	}
	if armRequests < 10 {
		t.Errorf("ARM saw %d requests; the reads cannot have gone through the live pipeline", armRequests)
	}

	logText := readText(t, logPath)
	if literal {
		logText = harnessConfigDump.ReplaceAllString(logText, "$1 [configuration written by the test harness]\n")
	}
	// Not vacuous: the log has the CLI's TRACE lines and the provider's own,
	// including the request log that sits after the bearer-token policy and
	// so sees every Authorization header.
	for _, want := range []string{
		"pullpath provider configured",
		"mode=record",
		"ARM request",
		"https://management.azure.com/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/aks1",
		"[TRACE]",
	} {
		if !strings.Contains(logText, want) {
			t.Errorf("the TRACE log (%d bytes, %s) does not contain %q: the provider's log was not captured", len(logText), logPath, want)
		}
	}
	for _, l := range findLeaks("the TRACE log", logText) {
		t.Error(l)
	}

	fi, err := os.Stat(record)
	if err != nil {
		t.Fatalf("record_file was not written: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("record_file mode = %v, want 0600: it describes a private network", perm)
	}
	recText := readText(t, record)
	for _, l := range findLeaks("the recording", recText) {
		t.Error(l)
	}
	// ("Authorization" alone is no leak: role assignment ids contain
	// Microsoft.Authorization.)
	for _, leak := range []string{"Bearer", "access_token", "client_secret", secretTenant, secretClientID} {
		if strings.Contains(recText, leak) {
			t.Errorf("the recording contains %q", leak)
		}
	}
	// It holds the ARM bodies that were read, and replays.
	for _, want := range []string{`"pullpath.snapshot/v1"`, accCluster, accSpoke + "/virtualNetworkPeerings/spoke-to-hub", `"addressPrefixes"`} {
		if !strings.Contains(recText, want) {
			t.Errorf("the recording does not contain %s", want)
		}
	}
	if _, err := snapshot.Load(record); err != nil {
		t.Errorf("the recording does not load as a snapshot: %v", err)
	}
}

// harnessConfigDump matches the configuration terraform-plugin-testing logs
// when it writes a step's files (the multi-line field
// test_terraform_configuration, each line prefixed with "  |").
var harnessConfigDump = regexp.MustCompile(`(?m)(sdk\.helper_resource: Setting Terraform configuration:.*\n\s*test_terraform_configuration=)\n(?:  \|.*\n)*`)

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every provider argument that can hold a credential is Sensitive, so that
// the CLI never prints it in plans or in `show`. The explicit list is the
// sensitive provider arguments (docs/index.md); the name rule catches a secret argument added
// later without the flag (paths, URLs and ids name where a secret is, not
// the secret).
func TestProviderSchema_secretsSensitive(t *testing.T) {
	var resp fwprovider.SchemaResponse
	provider.New("test")().Schema(t.Context(), fwprovider.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	attrs := resp.Schema.GetAttributes()
	secret := map[string]bool{"client_secret": true, "client_certificate_password": true, "oidc_token": true, "oidc_request_token": true}
	for name := range secret {
		if _, ok := attrs[name]; !ok {
			t.Errorf("the provider has no argument %s", name)
		}
	}
	looksSecret := regexp.MustCompile(`secret|password|token|key`)
	notSecret := regexp.MustCompile(`_(path|file|url|id)$|^use_`)
	for name, a := range attrs {
		if secret[name] || looksSecret.MatchString(name) && !notSecret.MatchString(name) {
			if !a.IsSensitive() {
				t.Errorf("provider argument %s holds a credential but is not Sensitive", name)
			}
		}
	}
}

// When Entra ID refuses the secret with an answer that echoes it, the
// error the plan shows says that sign-in failed and what to fix, with the
// secret replaced, and neither the TRACE log nor a recording holds it. The
// verification fails on it, rather than reporting every resource as
// unverified evidence, and no ARM request is sent.
func TestAccSecrets_tokenErrorRedacted(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "trace.log")
	record := filepath.Join(dir, "recorded.json")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_LOG_PATH_MASK", "")
	t.Setenv("TF_ACC_LOG", "TRACE")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_VAR_client_secret", secretClientSecret)
	for _, env := range []string{"ARM_CLIENT_SECRET", "ARM_CLIENT_ID", "ARM_TENANT_ID", "ARM_SUBSCRIPTION_ID", "PULLPATH_SNAPSHOT_FILE", "PULLPATH_RECORD_FILE"} {
		t.Setenv(env, "")
	}
	replay, err := snapshot.LoadReplay(scenarioSnapshot(t, "baseline_ok"))
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeAzure{replay: replay, rejectSecret: true}
	provider.SetTestTransport(t, fake)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
variable "client_secret" {
  type      = string
  sensitive = true
}

provider "pullpath" {
  subscription_id = %q
  tenant_id       = %q
  client_id       = %q
  client_secret   = var.client_secret
  record_file     = %q
}

data "pullpath_verification" "this" {
  cluster_id  = %q
  registry_id = %q
}
`, accSub, secretTenant, secretClientID, record, accCluster, accRegistry),
			// The refusal reaches the user, with the echoed secret replaced.
			// It says sign-in failed and what to fix, not that a resource is
			// unavailable.
			ExpectError: regexp.MustCompile(`(?s)Could not sign in to Azure.*with data\.pullpath_verification\.this.*signing in to Azure with a service\s+principal\s+with\s+a\s+client\s+secret\s+failed` +
				`.*AADSTS7000215.*Invalid\s+client\s+secret\s+provided:\s+\[REDACTED\].*Check\s+the\s+client\s+secret\s+\(client_secret`),
		}},
	})
	if t.Failed() {
		return
	}
	fake.mu.Lock()
	tokenRequests, armRequests := fake.tokenRequests, fake.armRequests
	fake.mu.Unlock()
	if tokenRequests == 0 || armRequests != 0 {
		t.Errorf("Entra ID saw %d token requests and ARM %d requests; want at least one and none", tokenRequests, armRequests)
	}
	logText := readText(t, logPath)
	if !strings.Contains(logText, "pullpath provider configured") || !strings.Contains(logText, "AADSTS7000215") {
		t.Errorf("the TRACE log (%s) lacks the provider's lines or the sign-in error: the test would prove nothing", logPath)
	}
	for _, l := range findLeaks("the TRACE log", logText) {
		t.Error(l)
	}
	if b, err := os.ReadFile(record); err == nil {
		for _, l := range findLeaks("the recording", string(b)) {
			t.Error(l)
		}
	}
}
