package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// Ids in testdata/fixture.json.
const (
	fxHub      = sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/hub"
	fxSpoke    = sub + "/resourceGroups/RG-Spoke/providers/Microsoft.Network/virtualNetworks/spoke"
	fxNIC      = sub + "/resourceGroups/rg-net/providers/Microsoft.Network/networkInterfaces/nic-1"
	fxGW       = sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworkGateways/gw"
	fxAKS      = sub + "/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks"
	fxVMSS     = sub + "/resourceGroups/MC_rg-aks_aks_westeurope/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-vmss"
	fxUserVMSS = sub + "/resourceGroups/MC_rg-aks_aks_westeurope/providers/Microsoft.Compute/virtualMachineScaleSets/aks-user-vmss"
	fxZone     = sub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	fxRegistry = sub + "/resourceGroups/rg-acr/providers/Microsoft.ContainerRegistry/registries/reg"
	fxPE       = sub + "/resourceGroups/rg-acr/providers/Microsoft.Network/privateEndpoints/pe-reg"

	raPath         = "/providers/Microsoft.Authorization/roleAssignments"
	fxRARoot       = raPath + "/ra-root"
	fxRASub        = sub + raPath + "/ra-subscription"
	fxRARGACR      = sub + "/resourceGroups/rg-acr" + raPath + "/ra-rg-acr"
	fxRARegistry   = fxRegistry + raPath + "/ra-registry"
	fxRARGNet      = sub + "/resourceGroups/rg-net" + raPath + "/ra-rg-net"
	fxNIC0, fxNIC1 = fxVMSS + "/virtualMachines/0/networkInterfaces/aks-system-vmss", fxVMSS + "/virtualMachines/1/networkInterfaces/aks-system-vmss"
)

// TestReplayGET runs every GET rule of docs/design/snapshot-format.md against the fixture.
func TestReplayGET(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	lowerRG := func(id string) string { return strings.ToLower(id) }
	tests := []struct {
		name    string
		path    string
		status  int
		id      string   // item: the id in the body
		ids     []string // collection: the ids in order (nil: not a collection)
		errCode string
		note    string // a substring the body must contain
	}{
		{name: "resource by id", path: fxHub, id: fxHub},
		{name: "id in other case, query ignored", path: lowerRG(fxHub) + "?api-version=2024-05-01&$expand=x", id: fxHub},
		{name: "id stored mixed case, requested lower", path: strings.ToLower(fxSpoke), id: fxSpoke},
		{name: "trailing slash", path: fxHub + "/", id: fxHub},
		{name: "embedded subnet", path: fxHub + "/subnets/snet-a", id: fxHub + "/subnets/snet-a"},
		{name: "embedded peering", path: fxHub + "/virtualNetworkPeerings/hub-to-spoke", id: fxHub + "/virtualNetworkPeerings/hub-to-spoke"},
		{name: "embedded in embedded (subnet delegation)", path: fxHub + "/subnets/snet-a/delegations/dnsResolvers", id: fxHub + "/subnets/snet-a/delegations/dnsResolvers"},
		{name: "embedded NIC ipConfiguration", path: fxNIC + "/ipConfigurations/ipconfig1", id: fxNIC + "/ipConfigurations/ipconfig1"},
		{name: "standalone wins over embedded copy", path: fxHub + "/subnets/snet-b", id: fxHub + "/subnets/snet-b", note: "standalone copy"},
		{name: "bare id reference is not a copy", path: fxNIC + "/tapConfigurations/tap1", status: 404, errCode: "ResourceNotFound"},
		{name: "resource without type", path: fxPE + "/privateDnsZoneGroups/default", id: fxPE + "/privateDnsZoneGroups/default"},
		{name: "record set by id", path: fxZone + "/SOA/@", id: fxZone + "/SOA/@"},
		{name: "unknown resource", path: fxHub + "-missing", status: 404, errCode: "ResourceNotFound"},
		{name: "resource group is not stored", path: sub + "/resourceGroups/rg-net", status: 404, errCode: "ResourceNotFound"},
		{name: "not an ARM path", path: "/foo/bar", status: 404, errCode: "ResourceNotFound"},
		{name: "provider namespace without type", path: sub + "/providers/Microsoft.Network", status: 404, errCode: "ResourceNotFound"},

		{name: "embedded children", path: fxHub + "/subnets", ids: []string{fxHub + "/subnets/snet-a", fxHub + "/subnets/snet-b"}, note: "standalone copy"},
		{name: "embedded peerings", path: fxHub + "/virtualNetworkPeerings", ids: []string{fxHub + "/virtualNetworkPeerings/hub-to-spoke"}},
		{name: "standalone peerings", path: lowerRG(fxSpoke) + "/virtualNetworkPeerings", ids: []string{fxSpoke + "/virtualNetworkPeerings/spoke-to-hub"}},
		{name: "empty embedded list", path: fxSpoke + "/subnets", ids: []string{}},
		{name: "agent pools, not agentPoolProfiles", path: fxAKS + "/agentPools", ids: []string{fxAKS + "/agentPools/system", fxAKS + "/agentPools/user"}},
		{name: "NIC ipConfigurations", path: fxNIC + "/ipConfigurations", ids: []string{fxNIC + "/ipConfigurations/ipconfig1"}},
		{name: "resource-group type list", path: sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks", ids: []string{fxHub}},
		{name: "resource-group type list, other case", path: strings.ToLower(sub + "/resourceGroups/RG-SPOKE/providers/Microsoft.Network/virtualNetworks"), ids: []string{fxSpoke}},
		{name: "subscription type list", path: sub + "/providers/Microsoft.Network/virtualNetworks", ids: []string{fxHub, fxSpoke}},
		{name: "subscription type list, zones", path: sub + "/providers/Microsoft.Network/privateDnsZones", ids: []string{fxZone}},
		{name: "list under unknown parent", path: sub + "/resourceGroups/rg-none/providers/Microsoft.Network/virtualNetworks", ids: []string{}},
		{name: "scale-set NICs", path: lowerRG(fxVMSS) + "/networkInterfaces", ids: []string{fxNIC0, fxNIC1}},
		{name: "scale set at zero instances", path: fxUserVMSS + "/networkInterfaces", ids: []string{}},
		{name: "NICs of one instance", path: fxVMSS + "/virtualMachines/1/networkInterfaces", ids: []string{fxNIC1}},
		{name: "scale-set instance public IPs", path: lowerRG(fxVMSS) + "/publicipaddresses", ids: []string{fxNIC1 + "/ipConfigurations/ipconfig1/publicIPAddresses/pub1"}},
		{name: "scale set without instance public IPs", path: fxUserVMSS + "/publicipaddresses", ids: []string{}},
		{name: "scale-set instance public IP by id", path: fxNIC1 + "/ipConfigurations/ipconfig1/publicIPAddresses/pub1", id: fxNIC1 + "/ipConfigurations/ipconfig1/publicIPAddresses/pub1"},
		{name: "scale-set NIC by id", path: lowerRG(fxNIC0), id: fxNIC0},
		{name: "scale-set NIC ipConfiguration", path: fxNIC1 + "/ipConfigurations/ipconfig1", id: fxNIC1 + "/ipConfigurations/ipconfig1"},
		{name: "DNS ALL without links", path: fxZone + "/ALL", ids: []string{fxZone + "/A/reg", fxZone + "/A/reg.westeurope.data", fxZone + "/CNAME/alias", fxZone + "/SOA/@"}},
		{name: "DNS by type", path: fxZone + "/A", ids: []string{fxZone + "/A/reg", fxZone + "/A/reg.westeurope.data"}},
		{name: "DNS by type, lower case", path: fxZone + "/cname", ids: []string{fxZone + "/CNAME/alias"}},
		{name: "DNS type without records", path: fxZone + "/AAAA", ids: []string{}},
		{name: "DNS zone links", path: fxZone + "/virtualNetworkLinks", ids: []string{fxZone + "/virtualNetworkLinks/link-hub"}},

		{name: "role assignments at registry: at and above", path: fxRegistry + raPath, ids: []string{fxRARoot, fxRASub, fxRARGACR, fxRARegistry}},
		{name: "role assignments at subscription: and below", path: sub + raPath, ids: []string{fxRARoot, fxRASub, fxRARGACR, fxRARegistry, fxRARGNet}},
		{name: "role assignments at resource group", path: strings.ToLower(sub + "/resourceGroups/RG-NET" + raPath), ids: []string{fxRARoot, fxRASub, fxRARGNet}},
		{name: "role assignments below a resource", path: fxRegistry + "/replications/westeurope" + raPath, ids: []string{fxRARoot, fxRASub, fxRARGACR, fxRARegistry}},
		{name: "role assignments at root", path: raPath, ids: []string{fxRARoot, fxRASub, fxRARGACR, fxRARegistry, fxRARGNet}},
		{name: "role assignment by id", path: fxRARegistry, id: fxRARegistry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, h, body := send(t, r, http.MethodGet, tt.path)
			want := tt.status
			if want == 0 {
				want = http.StatusOK
			}
			if status != want {
				t.Fatalf("status %d, want %d: %s", status, want, body)
			}
			if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if h.Get("x-ms-request-id") == "" {
				t.Error("no x-ms-request-id")
			}
			switch {
			case tt.errCode != "":
				if code := armErrorCode(t, body); code != tt.errCode {
					t.Errorf("error code %q, want %q", code, tt.errCode)
				}
				if h.Get("x-ms-error-code") != tt.errCode {
					t.Errorf("x-ms-error-code %q", h.Get("x-ms-error-code"))
				}
			case tt.ids != nil:
				if got := idsOf(t, body); !reflect.DeepEqual(got, tt.ids) {
					t.Errorf("ids\n got %q\nwant %q", got, tt.ids)
				}
			default:
				if got := idOf(t, body); got != tt.id {
					t.Errorf("id %q, want %q", got, tt.id)
				}
			}
			if tt.note != "" && !bytes.Contains(body, []byte(tt.note)) {
				t.Errorf("body lacks %q: %s", tt.note, body)
			}
		})
	}
}

// TestReplayBodyExactlyAsStored compares served bodies with the file.
func TestReplayBodyExactlyAsStored(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	for _, id := range []string{fxHub, fxSpoke, fxNIC0, fxRARegistry, fxZone + "/SOA/@"} {
		_, _, body := send(t, r, http.MethodGet, strings.ToLower(id))
		if want := storedBody(t, "fixture.json", id); !bytes.Equal(body, want) {
			t.Errorf("GET %s\n got %s\nwant %s", id, body, want)
		}
	}
	// A collection is made of the same bytes.
	_, _, list := send(t, r, http.MethodGet, fxVMSS+"/networkInterfaces")
	want := `{"value":[` + string(storedBody(t, "fixture.json", fxNIC0)) + "," + string(storedBody(t, "fixture.json", fxNIC1)) + `]}`
	if string(list) != want {
		t.Errorf("collection\n got %s\nwant %s", list, want)
	}
}

func TestReplayPOST(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	status, _, body := send(t, r, http.MethodPost, strings.ToUpper(fxNIC)+"/EFFECTIVEROUTETABLE?api-version=2024-05-01")
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var got struct{ Value []map[string]any }
	if err := json.Unmarshal(body, &got); err != nil || len(got.Value) != 1 || got.Value[0]["nextHopType"] != "VnetLocal" {
		t.Errorf("body %s", body)
	}

	status, _, body = send(t, r, http.MethodPost, fxNIC+"/effectiveNetworkSecurityGroups")
	if status != http.StatusNotFound || armErrorCode(t, body) != "NotFound" {
		t.Errorf("action without entry: %d %s", status, body)
	}
	// A GET on an action's path is not the action.
	if _, _, b := send(t, r, http.MethodGet, fxNIC+"/effectiveRouteTable"); bytes.Contains(b, []byte("VnetLocal")) {
		t.Errorf("GET served the action result: %s", b)
	}
}

// serviceTagsPath is the Service Tag Discovery read of a region: a GET
// whose answer is not a resource with that id.
const serviceTagsPath = sub + "/providers/Microsoft.Network/locations/westeurope/serviceTags"

const serviceTagsAnswer = `{"name":"Public","id":"` + sub + `/providers/Microsoft.Network/serviceTags/Public","type":"Microsoft.Network/serviceTags","changeNumber":"1","cloud":"Public",` +
	`"values":[{"name":"AzureContainerRegistry.WestEurope","id":"AzureContainerRegistry.WestEurope","properties":{"changeNumber":"1","region":"westeurope","systemService":"AzureContainerRegistry","addressPrefixes":["20.61.0.0/27"]}}]}`

// TestReplayGETAction: a GET whose path has no resource is answered from
// the actions entry keyed "GET /path" (matched like every key), and only
// that GET: the same path as POST, or the parent collection, is not it.
func TestReplayGETAction(t *testing.T) {
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Actions["GET "+serviceTagsPath] = json.RawMessage(serviceTagsAnswer)
	})
	for _, p := range []string{serviceTagsPath, strings.ToUpper(serviceTagsPath) + "?api-version=2025-05-01"} {
		status, h, body := send(t, r, http.MethodGet, p)
		if status != http.StatusOK || h.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("GET %s: status %d, content type %q: %s", p, status, h.Get("Content-Type"), body)
		}
		if string(body) != serviceTagsAnswer {
			t.Errorf("GET %s:\n got %s\nwant %s", p, body, serviceTagsAnswer)
		}
	}
	if status, _, body := send(t, r, http.MethodPost, serviceTagsPath); status != http.StatusNotFound || armErrorCode(t, body) != "NotFound" {
		t.Errorf("a POST to the path of a GET action: %d %s", status, body)
	}
	// Another region has no entry: the path has the shape of a collection,
	// so, as before, an empty list.
	other := strings.Replace(serviceTagsPath, "westeurope", "northeurope", 1)
	if status, _, body := send(t, r, http.MethodGet, other); status != http.StatusOK || string(body) != `{"value":[]}` {
		t.Errorf("GET %s: %d %s", other, status, body)
	}
	// A fault on the GET overrides the entry.
	r = replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Actions["GET "+serviceTagsPath] = json.RawMessage(serviceTagsAnswer)
		s.Faults = map[string]Fault{"GET " + serviceTagsPath: {Status: 403}}
	})
	if status, _, body := send(t, r, http.MethodGet, serviceTagsPath); status != http.StatusForbidden || armErrorCode(t, body) != "AuthorizationFailed" {
		t.Errorf("faulted GET action: %d %s", status, body)
	}
}

// TestReplayGETActionThroughSDK: the SDK's ServiceTagsClient.List decodes
// the entry.
func TestReplayGETActionThroughSDK(t *testing.T) {
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Actions["GET "+serviceTagsPath] = json.RawMessage(serviceTagsAnswer)
	})
	client, err := armnetwork.NewServiceTagsClient(strings.TrimPrefix(sub, "/subscriptions/"), fakeCred, armOptions(r))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.List(context.Background(), "westeurope", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Values) != 1 || *resp.Values[0].Name != "AzureContainerRegistry.WestEurope" ||
		len(resp.Values[0].Properties.AddressPrefixes) != 1 || *resp.Values[0].Properties.AddressPrefixes[0] != "20.61.0.0/27" {
		t.Errorf("decoded %+v", resp.ServiceTagsListResult)
	}
}

func TestReplayRefusesOtherMethods(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions} {
		req, _ := http.NewRequest(m, armHost+fxHub, nil)
		resp, err := r.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			t.Errorf("%s answered with %d", m, resp.StatusCode)
			continue
		}
		var rerr *ReplayError
		if !errors.As(err, &rerr) || !strings.Contains(err.Error(), "only GET and POST") {
			t.Errorf("%s: error %v", m, err)
		}
	}
	if n, _ := r.Stats(); n != 0 {
		t.Errorf("refused requests were counted: %d", n)
	}
}

func TestReplayFaults(t *testing.T) {
	two, zero := 2, 0
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Faults = map[string]Fault{
			"GET " + fxHub: {Status: 403, Code: "AuthorizationFailed", Message: "no read on hub"},
			"GET " + sub + "/providers/Microsoft.Network/privateDnsZones": {Status: 429, RetryAfterS: &two, Times: &two},
			"post " + strings.ToLower(fxNIC) + "/effectiveRouteTable":     {Status: 500, Times: &two, RetryAfterS: &zero},
		}
	})

	// A fault applies to every request when times is absent, case-insensitively.
	for i := 0; i < 3; i++ {
		status, h, body := send(t, r, http.MethodGet, strings.ToLower(fxHub)+"?api-version=1")
		if status != 403 || armErrorCode(t, body) != "AuthorizationFailed" || !bytes.Contains(body, []byte("no read on hub")) {
			t.Fatalf("try %d: %d %s", i, status, body)
		}
		if h.Get("Retry-After") != "" {
			t.Errorf("Retry-After without retry_after_s")
		}
	}
	// …and does not cover the collection the resource is listed in.
	if status, _, body := send(t, r, http.MethodGet, sub+"/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks"); status != 200 {
		t.Errorf("collection faulted: %d %s", status, body)
	}
	// …nor the children embedded in it.
	if status, _, _ := send(t, r, http.MethodGet, fxHub+"/subnets/snet-a"); status != 200 {
		t.Errorf("embedded child faulted: %d", status)
	}

	// times: the first two requests fault, then the normal answer.
	for i, want := range []int{429, 429, 200, 200} {
		status, h, body := send(t, r, http.MethodGet, sub+"/providers/Microsoft.Network/privateDnsZones")
		if status != want {
			t.Fatalf("request %d: status %d, want %d: %s", i, status, want, body)
		}
		if want == 429 {
			if h.Get("Retry-After") != "2" {
				t.Errorf("Retry-After %q", h.Get("Retry-After"))
			}
			if code := armErrorCode(t, body); code != "TooManyRequests" {
				t.Errorf("default code %q", code)
			}
		}
	}

	// Faults on actions.
	for i, want := range []int{500, 500, 200} {
		status, h, body := send(t, r, http.MethodPost, fxNIC+"/effectiveRouteTable")
		if status != want {
			t.Fatalf("POST %d: %d, want %d: %s", i, status, want, body)
		}
		if want == 500 && h.Get("Retry-After") != "0" {
			t.Errorf("retry_after_s 0 must still send the header, got %q", h.Get("Retry-After"))
		}
	}
}

// TestReplayFaultTimesConcurrent checks that times is counted exactly when
// many requests race for the same path.
func TestReplayFaultTimesConcurrent(t *testing.T) {
	five := 5
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Faults = map[string]Fault{"GET " + fxHub: {Status: 503, Times: &five}}
	})
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, armHost+fxHub, nil)
			resp, err := r.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			_ = resp.Body.Close()
			mu.Lock()
			counts[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counts[503] != 5 || counts[200] != 59 {
		t.Errorf("status counts %v, want 5×503 and 59×200", counts)
	}
	if n, d := r.Stats(); n != 64 || d != 1 {
		t.Errorf("Stats() = %d, %d; want 64, 1", n, d)
	}
}

func TestReplayLatency(t *testing.T) {
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Simulate = &Simulate{LatencyMS: 40, ActionLatencyMS: 60}
	})
	start := time.Now()
	send(t, r, http.MethodGet, fxHub)
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("GET took %v, want ≥ 40ms", d)
	}
	start = time.Now()
	send(t, r, http.MethodPost, fxNIC+"/effectiveRouteTable")
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("POST took %v, want ≥ 100ms (latency + action latency)", d)
	}
	// Errors are answers too.
	start = time.Now()
	send(t, r, http.MethodGet, fxHub+"-missing")
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("404 took %v, want ≥ 40ms", d)
	}
}

func TestReplayLatencyHonoursCancellation(t *testing.T) {
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Simulate = &Simulate{LatencyMS: 60_000}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, armHost+fxHub, nil)
	start := time.Now()
	resp, err := r.Do(req)
	if err == nil {
		_ = resp.Body.Close()
		t.Fatal("answered despite cancellation")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}

	ctx, cancel2 := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel2()
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, armHost+fxNIC+"/effectiveRouteTable", nil)
	if resp, err := r.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		if resp != nil {
			_ = resp.Body.Close()
		}
		t.Errorf("error %v, want deadline exceeded", err)
	}
}

// TestReplayEscapedNames: ids are stored unescaped; the SDK escapes names
// in the URL, and the replay matches the decoded path.
func TestReplayEscapedNames(t *testing.T) {
	id := sub + "/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/TXT/100% sure"
	res, err := NewResource([]byte(`{"id": "` + id + `", "name": "100% sure"}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReplay(&Snapshot{Format: Format, Resources: []Resource{res}})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, armHost+sub+"/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/TXT/"+url.PathEscape("100% sure")+"?api-version=1", nil)
	resp, err := r.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
}

func TestReplayStats(t *testing.T) {
	r := loadReplay(t, "fixture.json")
	send(t, r, http.MethodGet, fxHub)
	send(t, r, http.MethodGet, strings.ToUpper(fxHub)+"?api-version=2")
	send(t, r, http.MethodGet, fxHub+"/subnets")
	send(t, r, http.MethodPost, fxNIC+"/effectiveRouteTable")
	send(t, r, http.MethodGet, fxHub+"-missing")
	if n, d := r.Stats(); n != 5 || d != 4 {
		t.Errorf("Stats() = %d, %d; want 5, 4", n, d)
	}
	// Two queries to one action path are two reads; the same query twice
	// is one.
	query := func(body string) {
		req, err := http.NewRequest(http.MethodPost, armHost+"/providers/Microsoft.ResourceGraph/resources?api-version=2024-04-01", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := r.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	query(`{"query":"a"}`)
	query(`{"query":"b"}`)
	query(`{"query":"a"}`)
	if n, d := r.Stats(); n != 8 || d != 6 {
		t.Errorf("Stats() after three queries = %d, %d; want 8, 6", n, d)
	}
}

// TestReplayFaultExtensions: retry_after_ms is sent as Retry-After-Ms; a
// fault body is sent as it is, also with status 200; path_latency_ms slows
// exactly one request; Requested lists what was asked.
func TestReplayFaultExtensions(t *testing.T) {
	ms, html := 7, "<html>502 Bad Gateway</html>"
	r := replayWith(t, "fixture.json", func(s *Snapshot) {
		s.Faults = map[string]Fault{
			"GET " + fxHub: {Status: 429, RetryAfterMS: &ms},
			"GET " + sub + "/providers/Microsoft.Network/privateDnsZones": {Status: 200, Body: &html},
		}
		s.Simulate = &Simulate{PathLatencyMS: map[string]int{"POST " + strings.ToLower(fxNIC) + "/effectiveRouteTable": 300}}
	})
	if status, h, _ := send(t, r, http.MethodGet, fxHub); status != 429 || h.Get("Retry-After-Ms") != "7" || h.Get("Retry-After") != "" {
		t.Errorf("retry_after_ms: %d, Retry-After-Ms %q, Retry-After %q", status, h.Get("Retry-After-Ms"), h.Get("Retry-After"))
	}
	status, h, body := send(t, r, http.MethodGet, sub+"/providers/Microsoft.Network/privateDnsZones")
	if status != 200 || string(body) != html || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Errorf("body fault: %d %q %q", status, h.Get("Content-Type"), body)
	}
	start := time.Now()
	send(t, r, http.MethodGet, fxNIC)
	if d := time.Since(start); d >= 300*time.Millisecond {
		t.Errorf("GET of the NIC took %v: the path latency is for the POST only", d)
	}
	start = time.Now()
	send(t, r, http.MethodPost, fxNIC+"/effectiveRouteTable")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("POST took %v, want ≥ 300ms", d)
	}
	want := []string{
		"GET " + strings.ToLower(sub+"/providers/Microsoft.Network/privateDnsZones"),
		"GET " + strings.ToLower(fxHub), "GET " + strings.ToLower(fxNIC), "POST " + strings.ToLower(fxNIC+"/effectiveRouteTable"),
	}
	sort.Strings(want)
	if got := r.Requested(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Requested() = %q, want %q", got, want)
	}

	bad := &Snapshot{Format: Format,
		Faults:   map[string]Fault{"GET /subscriptions/s": {Status: 200}, "GET /subscriptions/t": {Status: 404, RetryAfterMS: &[]int{-1}[0]}},
		Simulate: &Simulate{PathLatencyMS: map[string]int{"PUT /subscriptions/s": 5, "GET /subscriptions/s": maxLatencyMS + 1}}}
	err := bad.Validate()
	for _, w := range []string{"200 is not an error status", "retry_after_ms", `path_latency_ms["PUT /subscriptions/s"]`, "out of range"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate: %v; want it to mention %q", err, w)
		}
	}
}
