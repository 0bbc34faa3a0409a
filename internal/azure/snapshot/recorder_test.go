package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// scripted is a stand-in for live ARM: per "METHOD /path" (lookup form) a
// list of answers, the last one repeated. It also remembers the
// Authorization headers it saw.
type scripted struct {
	mu       sync.Mutex
	answers  map[string][]answer
	authSeen []string
}

type answer struct {
	status int
	body   string
	header map[string]string
}

func (s *scripted) on(method, path string, answers ...answer) *scripted {
	if s.answers == nil {
		s.answers = map[string][]answer{}
	}
	s.answers[lookupKey(method, path)] = answers
	return s
}

func (s *scripted) Do(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authSeen = append(s.authSeen, req.Header.Get("Authorization"))
	key := lookupKey(req.Method, req.URL.Path)
	list := s.answers[key]
	if len(list) == 0 {
		return errorResponse(req, 404, "ResourceNotFound", "not scripted: "+key, "x"), nil
	}
	a := list[0]
	if len(list) > 1 {
		s.answers[key] = list[1:]
	}
	resp := newResponse(req, a.status, []byte(a.body), "live-request-id")
	for k, v := range a.header {
		resp.Header.Set(k, v)
	}
	return resp, nil
}

// TestRecorderRoundTrip replays the fixture through the Recorder, flushes,
// loads the recording and replays it: the same requests must get the same
// answers.
func TestRecorderRoundTrip(t *testing.T) {
	for _, name := range []string{"fixture.json", "baseline_ok.json"} {
		t.Run(name, func(t *testing.T) {
			live := replayWith(t, name, func(s *Snapshot) {
				s.Faults = map[string]Fault{"GET " + sub + "/resourceGroups/rg-locked/providers/Microsoft.Network/virtualNetworks/v": {Status: 403, Message: "locked"}}
			})
			reqs := roundTripRequests(t, name)
			rec := NewRecorder(live)
			first := make([]string, len(reqs))
			for i, rq := range reqs {
				status, _, body := send(t, rec, rq[0], rq[1])
				first[i] = fmt.Sprintf("%d %s", status, body)
			}
			path := filepath.Join(t.TempDir(), "recorded.json")
			if err := rec.Flush(path); err != nil {
				t.Fatal(err)
			}
			replayed, err := LoadReplay(path)
			if err != nil {
				t.Fatal(err)
			}
			for i, rq := range reqs {
				status, _, body := send(t, replayed, rq[0], rq[1])
				if got := fmt.Sprintf("%d %s", status, body); got != first[i] {
					t.Errorf("%s %s\nrecorded %s\nreplayed %s", rq[0], rq[1], first[i], got)
				}
			}
		})
	}
}

// roundTripRequests lists a GET for every resource, the collections of the
// replay rules, every action, and some answers that are errors.
func roundTripRequests(t *testing.T, name string) [][2]string {
	s, err := Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var reqs [][2]string
	for _, r := range s.Resources {
		reqs = append(reqs, [2]string{"GET", r.ID})
		if i := strings.LastIndexByte(r.ID, '/'); i > 0 {
			reqs = append(reqs, [2]string{"GET", r.ID[:i]}) // its collection
		}
	}
	for k := range s.Actions {
		m, p, _ := parseKey(k)
		reqs = append(reqs, [2]string{m, p})
	}
	subs := map[string]bool{}
	for _, r := range s.Resources {
		segs := strings.Split(r.ID, "/")
		if len(segs) > 2 {
			subs["/subscriptions/"+segs[2]] = true
		}
	}
	for sid := range subs {
		reqs = append(reqs,
			[2]string{"GET", sid + raPath},
			[2]string{"GET", sid + "/providers/Microsoft.Network/virtualNetworks"},
			[2]string{"GET", sid + "/providers/Microsoft.Network/privateDnsZones"},
		)
	}
	reqs = append(reqs,
		[2]string{"GET", fxHub + "/subnets"},
		[2]string{"GET", fxHub + "/subnets/snet-a"},
		[2]string{"GET", fxRegistry + raPath},
		[2]string{"GET", fxVMSS + "/networkInterfaces"},
		[2]string{"GET", fxZone + "/ALL"},
		[2]string{"GET", "/subscriptions/" + blSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/" + blZone + "/ALL"},
		[2]string{"GET", blRegID + raPath},
		[2]string{"GET", "/subscriptions/" + blSub + "/resourceGroups/" + blNodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-12345678-vmss/networkInterfaces"},
		[2]string{"GET", sub + "/resourceGroups/rg-locked/providers/Microsoft.Network/virtualNetworks/v"},
		[2]string{"GET", sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/absent"},
		[2]string{"POST", fxNIC + "/effectiveNetworkSecurityGroups"},
	)
	return reqs
}

func TestRecorderLongRunningAction(t *testing.T) {
	const (
		opBase = "https://management.azure.com/subscriptions/00000000-0000-0000-0000-00000000000a/providers/Microsoft.Network/locations/westeurope"
		routes = `{"value":[{"source":"Default","state":"Active","addressPrefix":["10.0.0.0/16"],"nextHopIpAddress":[],"nextHopType":"VnetLocal"}]}`
	)
	live := (&scripted{}).
		on("POST", fxNIC+"/effectiveRouteTable", answer{status: 202, header: map[string]string{
			"Azure-AsyncOperation": opBase + "/operations/op1?api-version=2024-05-01",
			"Location":             opBase + "/operationResults/op1?api-version=2024-05-01",
		}}).
		on("GET", opBase[len(armHost):]+"/operations/op1",
			answer{status: 200, body: `{"status":"InProgress"}`},
			answer{status: 200, body: `{"id":"` + opBase[len(armHost):] + `/operations/op1","name":"op1","status":"Succeeded"}`}).
		on("GET", opBase[len(armHost):]+"/operationResults/op1", answer{status: 200, body: routes}).
		// Location-only LRO whose Location moves once.
		on("POST", fxGW+"/getLearnedRoutes", answer{status: 202, header: map[string]string{"Location": opBase + "/operationResults/lr1"}}).
		on("GET", opBase[len(armHost):]+"/operationResults/lr1", answer{status: 202, header: map[string]string{"Location": opBase + "/operationResults/lr2"}}).
		on("GET", opBase[len(armHost):]+"/operationResults/lr2",
			answer{status: 202},
			answer{status: 200, body: `{"value":[{"network":"192.168.0.0/16","origin":"EBgp"}]}`})

	rec := NewRecorder(live)
	ctx := context.Background()
	poll := &runtime.PollUntilDoneOptions{Frequency: time.Millisecond}
	nics := must[*armnetwork.InterfacesClient](t)(armnetwork.NewInterfacesClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(rec)))
	p := must[*runtime.Poller[armnetwork.InterfacesClientGetEffectiveRouteTableResponse]](t)(nics.BeginGetEffectiveRouteTable(ctx, "rg-net", "nic-1", nil))
	res, err := p.PollUntilDone(ctx, poll)
	if err != nil || len(res.Value) != 1 {
		t.Fatalf("live LRO: %v %+v", err, res)
	}
	gws := must[*armnetwork.VirtualNetworkGatewaysClient](t)(armnetwork.NewVirtualNetworkGatewaysClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(rec)))
	lp := must[*runtime.Poller[armnetwork.VirtualNetworkGatewaysClientGetLearnedRoutesResponse]](t)(gws.BeginGetLearnedRoutes(ctx, "rg-net", "gw", nil))
	if lr, err := lp.PollUntilDone(ctx, poll); err != nil || len(lr.Value) != 1 {
		t.Fatalf("live Location LRO: %v", err)
	}

	s := rec.Snapshot()
	if len(s.Resources) != 0 {
		t.Errorf("operation status stored as resource: %s", s.Resources[0].ID)
	}
	if got := string(s.Actions["POST "+fxNIC+"/effectiveRouteTable"]); got != routes {
		t.Errorf("recorded action %q, want the final result", got)
	}
	if got := string(s.Actions["POST "+fxGW+"/getLearnedRoutes"]); !strings.Contains(got, "EBgp") {
		t.Errorf("recorded learned routes %q", got)
	}

	// The recording replays as an LRO that finished at once.
	replay, err := NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	nics = must[*armnetwork.InterfacesClient](t)(armnetwork.NewInterfacesClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(replay)))
	p = must[*runtime.Poller[armnetwork.InterfacesClientGetEffectiveRouteTableResponse]](t)(nics.BeginGetEffectiveRouteTable(ctx, "rg-net", "nic-1", nil))
	again, err := p.PollUntilDone(ctx, poll)
	if err != nil || *again.Value[0].NextHopType != *res.Value[0].NextHopType {
		t.Errorf("replayed LRO: %v %+v", err, again)
	}
	if n, _ := replay.Stats(); n != 1 {
		t.Errorf("replayed LRO took %d requests, want 1", n)
	}
}

// TestRecorderAsyncOnlyLRO: without a Location header the SDK takes the
// result from the final operation status, and so does the recorder.
func TestRecorderAsyncOnlyLRO(t *testing.T) {
	status := "/subscriptions/s/providers/Microsoft.Network/locations/w/operations/x"
	live := (&scripted{}).
		on("POST", fxGW+"/getBgpPeerStatus", answer{status: 202, header: map[string]string{"Azure-AsyncOperation": armHost + status}}).
		on("GET", status, answer{status: 200, body: `{"status":"InProgress"}`}, answer{status: 200, body: `{"status":"Succeeded","value":[{"state":"Connected"}]}`})
	rec := NewRecorder(live)
	send(t, rec, "POST", fxGW+"/getBgpPeerStatus")
	send(t, rec, "GET", status)
	if _, ok := rec.Snapshot().Actions["POST "+fxGW+"/getBgpPeerStatus"]; ok {
		t.Fatal("recorded before the operation succeeded")
	}
	send(t, rec, "GET", status)
	if got := string(rec.Snapshot().Actions["POST "+fxGW+"/getBgpPeerStatus"]); got != `{"status":"Succeeded","value":[{"state":"Connected"}]}` {
		t.Errorf("recorded %q", got)
	}
}

// TestRecorderActionPages: a POST list with a nextLink is recorded as one
// page holding every value.
func TestRecorderActionPages(t *testing.T) {
	vnet := sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/hub"
	res := func(n string) string {
		return `{"id":"` + sub + `/resourceGroups/rg-dns/providers/Microsoft.Network/dnsResolvers/` + n + `"}`
	}
	live := (&scripted{}).
		on("POST", vnet+"/listDnsResolvers", answer{status: 200, body: `{"value":[` + res("r1") + `],"nextLink":"` + armHost + vnet + `/listDnsResolvers?api-version=2025-05-01&$skipToken=abc"}`}).
		on("GET", vnet+"/listDnsResolvers", answer{status: 200, body: `{"value":[` + res("r2") + `]}`})
	rec := NewRecorder(live)
	client := must[*armdnsresolver.DNSResolversClient](t)(armdnsresolver.NewDNSResolversClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(rec)))
	pageItems := func(p armdnsresolver.DNSResolversClientListByVirtualNetworkResponse) []*armdnsresolver.SubResource {
		return p.Value
	}
	if got := collect(t, client.NewListByVirtualNetworkPager("rg-net", "hub", nil), pageItems); len(got) != 2 {
		t.Fatalf("live pages gave %d resolvers", len(got))
	}
	s := rec.Snapshot()
	body := string(s.Actions["POST "+vnet+"/listDnsResolvers"])
	if strings.Contains(body, "nextLink") || !strings.Contains(body, "/r1") || !strings.Contains(body, "/r2") {
		t.Errorf("recorded %s", body)
	}
	if len(s.Resources) != 0 {
		t.Errorf("bare id references recorded as resources")
	}
	replay, err := NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	client = must[*armdnsresolver.DNSResolversClient](t)(armdnsresolver.NewDNSResolversClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(replay)))
	if got := collect(t, client.NewListByVirtualNetworkPager("rg-net", "hub", nil), pageItems); len(got) != 2 {
		t.Errorf("replay gave %d resolvers", len(got))
	}
}

// TestRecorderGETAction: the answer of a GET that is neither a resource
// nor a list (the service tags of a region, whose body has an id of its
// own) is written as a "GET /path" action, not as a resource under that
// id; the replay of the recording answers the SDK's read as live ARM did.
// A list answer on a collection path stays resources, and a 403 on the
// read stays a fault.
func TestRecorderGETAction(t *testing.T) {
	list := sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks"
	denied := strings.Replace(serviceTagsPath, "westeurope", "northeurope", 1)
	live := (&scripted{}).
		on("GET", serviceTagsPath, answer{status: 200, body: serviceTagsAnswer}).
		on("GET", list, answer{status: 200, body: `{"value":[{"id":"` + list + `/v","name":"v"}]}`}).
		on("GET", denied, answer{status: 403, body: `{"error":{"code":"AuthorizationFailed","message":"no serviceTags/read"}}`})
	rec := NewRecorder(live)
	tags, err := armnetwork.NewServiceTagsClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(rec))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := tags.List(ctx, "westeurope", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tags.List(ctx, "northeurope", nil); err == nil {
		t.Fatal("the 403 was not passed on")
	}
	send(t, rec, "GET", list)

	s := rec.Snapshot()
	if got := string(s.Actions["GET "+serviceTagsPath]); got != serviceTagsAnswer {
		t.Errorf("actions[GET …/serviceTags] = %q, want the answer as ARM gave it", got)
	}
	if len(s.Resources) != 1 || s.Resources[0].ID != list+"/v" {
		t.Errorf("resources: %+v (the service tag answer must not be stored under its body's id)", s.Resources)
	}
	if f, ok := s.Faults["GET "+denied]; !ok || f.Status != 403 {
		t.Errorf("faults: %+v", s.Faults)
	}

	path := filepath.Join(t.TempDir(), "rec.json")
	if err := rec.Flush(path); err != nil {
		t.Fatal(err)
	}
	replay, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	tags, err = armnetwork.NewServiceTagsClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(replay))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tags.List(ctx, "westeurope", nil)
	if err != nil || len(resp.Values) != 1 || *resp.Values[0].Name != "AzureContainerRegistry.WestEurope" {
		t.Errorf("replayed read: %+v, %v", resp.ServiceTagsListResult, err)
	}
	if _, err := tags.List(ctx, "northeurope", nil); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("replayed refused read: %v", err)
	}
}

func TestRecorderPrefersDirectGET(t *testing.T) {
	list := sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks"
	id := list + "/v"
	for _, order := range [][2]string{{"GET", "LIST"}, {"LIST", "GET"}} {
		live := (&scripted{}).
			on("GET", id, answer{status: 200, body: `{"id":"` + id + `","name":"v","from":"get"}`}).
			on("GET", list, answer{status: 200, body: `{"value":[{"id":"` + id + `","name":"v","from":"list"}]}`})
		rec := NewRecorder(live)
		for _, step := range order {
			if step == "GET" {
				send(t, rec, "GET", id)
			} else {
				send(t, rec, "GET", list)
			}
		}
		s := rec.Snapshot()
		if len(s.Resources) != 1 || !strings.Contains(string(s.Resources[0].Body), `"from":"get"`) {
			t.Errorf("order %v: recorded %s", order, s.Resources[0].Body)
		}
	}
}

func TestRecorderFaults(t *testing.T) {
	forbidden := sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/locked"
	throttled := sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/busy"
	flaky := sub + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/flaky"
	live := (&scripted{}).
		on("GET", forbidden, answer{status: 403, body: `{"error":{"code":"AuthorizationFailed","message":"no read"}}`}).
		on("GET", throttled, answer{status: 429, body: `{"error":{"code":"TooManyRequests","message":"slow down"}}`}, answer{status: 500, body: `{}`}).
		on("GET", flaky, answer{status: 403, body: `{"error":{"code":"AuthorizationFailed","message":"not yet"}}`}, answer{status: 200, body: `{"id":"` + flaky + `","name":"flaky"}`})
	rec := NewRecorder(live)
	for _, p := range []string{forbidden, throttled, throttled, flaky, flaky} {
		send(t, rec, "GET", p)
	}
	s := rec.Snapshot()
	if f, ok := s.Faults["GET "+forbidden]; !ok || f.Status != 403 || f.Code != "AuthorizationFailed" || f.Message != "no read" || f.Times != nil {
		t.Errorf("403 not recorded as a fault: %+v", s.Faults)
	}
	if len(s.Faults) != 1 {
		t.Errorf("transient or superseded errors recorded: %+v", s.Faults)
	}
	if len(s.Resources) != 1 || s.Resources[0].ID != flaky {
		t.Errorf("resources %+v", s.Resources)
	}
}

// TestRecorderWritesNoSecrets: tokens travel in request headers and the
// recorder keeps no header; the file must not contain any.
func TestRecorderWritesNoSecrets(t *testing.T) {
	live := (&scripted{}).
		on("GET", fxHub, answer{status: 200, body: `{"id":"` + fxHub + `","name":"hub"}`, header: map[string]string{"Set-Cookie": "session=cookie-secret", "x-ms-client-request-id": "header-secret"}}).
		on("POST", fxNIC+"/effectiveRouteTable", answer{status: 200, body: `{"value":[]}`, header: map[string]string{"Authorization": "Bearer echo-secret"}})
	rec := NewRecorder(live)
	opts := armOptions(rec)
	vnets := must[*armnetwork.VirtualNetworksClient](t)(armnetwork.NewVirtualNetworksClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, opts))
	if _, err := vnets.Get(context.Background(), "rg-net", "hub", nil); err != nil {
		t.Fatal(err)
	}
	nics := must[*armnetwork.InterfacesClient](t)(armnetwork.NewInterfacesClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, opts))
	if _, err := nics.BeginGetEffectiveRouteTable(context.Background(), "rg-net", "nic-1", nil); err != nil {
		t.Fatal(err)
	}
	if len(live.authSeen) != 2 || live.authSeen[0] != "Bearer fake_token" {
		t.Fatalf("the SDK did not send the token this test looks for: %q", live.authSeen)
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := rec.Flush(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"fake_token", "Bearer", "Authorization", "cookie-secret", "header-secret", "echo-secret", "live-request-id"} {
		if bytes.Contains(bytes.ToLower(data), bytes.ToLower([]byte(secret))) {
			t.Errorf("the recording contains %q:\n%s", secret, data)
		}
	}
	if !bytes.Contains(data, []byte(fxHub)) {
		t.Errorf("the recording lacks the resource:\n%s", data)
	}
}

func TestFlushIsAtomicAndPrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "snap.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(loadReplay(t, "fixture.json"))
	send(t, rec, "GET", fxHub)
	send(t, rec, "POST", fxNIC+"/effectiveRouteTable")
	if err := rec.Flush(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Resources) != 1 || len(s.Actions) != 1 {
		t.Errorf("flushed %d resources, %d actions", len(s.Resources), len(s.Actions))
	}
	// Deterministic: flushing the same recording twice gives the same bytes.
	first, _ := os.ReadFile(path)
	if err := rec.Flush(path); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	if !bytes.Equal(first, second) {
		t.Error("two flushes of one recording differ")
	}

	// A failed write leaves the old file alone and creates nothing.
	if err := Save(path, &Snapshot{Format: "nope"}); err == nil {
		t.Error("saved an invalid snapshot")
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, second) {
		t.Error("a failed Save changed the file")
	}
	if err := rec.Flush(filepath.Join(dir, "missing", "snap.json")); err == nil {
		t.Error("flush into a missing directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestRecorderDeterministicOrder(t *testing.T) {
	rec := NewRecorder(loadReplay(t, "fixture.json"))
	for _, p := range []string{fxZone + "/ALL", fxHub, sub + raPath, fxAKS + "/agentPools"} {
		send(t, rec, "GET", p)
	}
	s := rec.Snapshot()
	for i := 1; i < len(s.Resources); i++ {
		if normPath(s.Resources[i-1].ID) >= normPath(s.Resources[i].ID) {
			t.Fatalf("resources not sorted by id: %s before %s", s.Resources[i-1].ID, s.Resources[i].ID)
		}
	}
	if len(s.Resources) != 4+1+5+2 {
		t.Errorf("%d resources recorded", len(s.Resources))
	}
}

func TestRecorderConcurrent(t *testing.T) {
	rec := NewRecorder(loadReplay(t, "fixture.json"))
	var wg sync.WaitGroup
	paths := []string{fxHub, fxSpoke, fxNIC, fxZone + "/ALL", fxVMSS + "/networkInterfaces", sub + raPath}
	for i := 0; i < 48; i++ {
		wg.Add(1)
		go func(p string) {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, armHost+p, nil)
			resp, err := rec.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}(paths[i%len(paths)])
	}
	wg.Wait()
	s := rec.Snapshot()
	if len(s.Resources) != 3+4+2+5 {
		t.Errorf("%d resources recorded", len(s.Resources))
	}
	if _, err := Marshal(s); err != nil {
		t.Fatal(err)
	}
	var check map[string]any
	data, _ := Marshal(s)
	if err := json.Unmarshal(data, &check); err != nil {
		t.Fatal(err)
	}
}
