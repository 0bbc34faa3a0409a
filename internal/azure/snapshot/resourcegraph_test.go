package snapshot

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"
)

// graphRows decodes a Resource Graph answer's objectArray rows by id.
func graphRows(t *testing.T, body []byte) map[string]map[string]any {
	t.Helper()
	var got struct {
		Count           int              `json:"count"`
		TotalRecords    int              `json:"totalRecords"`
		ResultTruncated string           `json:"resultTruncated"`
		SkipToken       *string          `json:"$skipToken"`
		Data            []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("not a Resource Graph answer: %v: %s", err, body)
	}
	if got.Count != len(got.Data) || got.TotalRecords != len(got.Data) || got.ResultTruncated != "false" || got.SkipToken != nil {
		t.Errorf("counts, truncation or skip token do not describe one complete page: %s", body)
	}
	out := map[string]map[string]any{}
	for _, row := range got.Data {
		id, _ := row["id"].(string)
		out[strings.ToLower(id)] = row
	}
	return out
}

// A snapshot without a Resource Graph result stands for every subscription
// the identity can read: a query is answered with every private DNS zone
// virtual network link in it, as stored.
func TestReplayResourceGraphFromResources(t *testing.T) {
	r := loadReplay(t, "baseline_ok.json")
	status, _, body := send(t, r, http.MethodPost, "/providers/Microsoft.ResourceGraph/resources?api-version=2024-04-01")
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	rows := graphRows(t, body)
	const zone = "/subscriptions/00000000-0000-0000-0000-000000000001/resourcegroups/rg-hub/providers/microsoft.network/privatednszones/privatelink.azurecr.io"
	if len(rows) != 2 || rows[zone+"/virtualnetworklinks/link-hub"] == nil || rows[zone+"/virtualnetworklinks/link-spoke"] == nil {
		t.Fatalf("rows %v, want the zone's two links", rows)
	}
	vnet := rows[zone+"/virtualnetworklinks/link-spoke"]["properties"].(map[string]any)["virtualNetwork"].(map[string]any)["id"]
	if !strings.HasSuffix(vnet.(string), "/virtualNetworks/vnet-spoke") {
		t.Errorf("the link is not served as stored: virtualNetwork %v", vnet)
	}

	// The SDK client decodes it.
	client, err := armresourcegraph.NewClient(fakeCred, armOptions(r))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Resources(t.Context(), armresourcegraph.QueryRequest{Query: to.Ptr("resources | take 1")}, nil)
	if err != nil || resp.Count == nil || *resp.Count != 2 {
		t.Fatalf("SDK: %v, %+v", err, resp.QueryResponse)
	}

	// Other Resource Graph operations are not answered this way, and a
	// snapshot without links answers an empty list.
	if status, _, _ := send(t, r, http.MethodPost, "/providers/Microsoft.ResourceGraph/resourceChanges"); status != http.StatusNotFound {
		t.Errorf("resourceChanges: %d", status)
	}
	empty := replayWith(t, "baseline_ok.json", func(s *Snapshot) {
		kept := s.Resources[:0]
		for _, res := range s.Resources {
			if !strings.Contains(strings.ToLower(res.ID), "/virtualnetworklinks/") {
				kept = append(kept, res)
			}
		}
		s.Resources = kept
	})
	if _, _, body := send(t, empty, http.MethodPost, "/providers/Microsoft.ResourceGraph/resources"); len(graphRows(t, body)) != 0 {
		t.Errorf("no links, but %s", body)
	}
}

// A recorded (or hand-written) result, or a fault, wins over the answer
// from resources.
func TestReplayResourceGraphRecorded(t *testing.T) {
	const key = "POST /providers/Microsoft.ResourceGraph/resources"
	r := replayWith(t, "baseline_ok.json", func(s *Snapshot) {
		s.Actions = map[string]json.RawMessage{key: json.RawMessage(`{"totalRecords":1,"count":1,"resultTruncated":"false","data":[{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z/virtualNetworkLinks/l"}]}`)}
	})
	if _, _, body := send(t, r, http.MethodPost, "/providers/Microsoft.ResourceGraph/resources"); len(graphRows(t, body)) != 1 {
		t.Errorf("recorded result not served: %s", body)
	}
	r = replayWith(t, "baseline_ok.json", func(s *Snapshot) {
		s.Faults = map[string]Fault{key: {Status: 403, Code: "AuthorizationFailed"}}
	})
	if status, _, body := send(t, r, http.MethodPost, "/providers/Microsoft.ResourceGraph/resources"); status != 403 || armErrorCode(t, body) != "AuthorizationFailed" {
		t.Errorf("fault not served: %d %s", status, body)
	}
}

// The recorder keeps one Resource Graph result holding the rows of every
// page and every query, once each, without the skip token; the replay
// serves it to any query.
func TestRecorderResourceGraphRows(t *testing.T) {
	link := func(n string) string {
		return `{"id":"` + sub + `/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks/` + n + `","vnetId":"/v/` + n + `"}`
	}
	live := (&scripted{}).on("POST", "/providers/Microsoft.ResourceGraph/resources",
		answer{status: 200, body: `{"totalRecords":3,"count":2,"resultTruncated":"false","$skipToken":"page2","data":[` + link("a") + `,` + link("b") + `]}`},
		answer{status: 200, body: `{"totalRecords":3,"count":1,"resultTruncated":"false","data":[` + link("c") + `]}`},
		answer{status: 200, body: `{"totalRecords":1,"count":1,"resultTruncated":"false","data":[` + strings.ToUpper(link("a")) + `]}`},
	)
	rec := NewRecorder(live)
	client, err := armresourcegraph.NewClient(fakeCred, armOptions(rec))
	if err != nil {
		t.Fatal(err)
	}
	q := armresourcegraph.QueryRequest{Query: to.Ptr("resources | where type =~ 'microsoft.network/privatednszones/virtualnetworklinks'")}
	first, err := client.Resources(t.Context(), q, nil)
	if err != nil || first.SkipToken == nil {
		t.Fatalf("first page: %v", err)
	}
	q.Options = &armresourcegraph.QueryRequestOptions{SkipToken: first.SkipToken}
	if _, err := client.Resources(t.Context(), q, nil); err != nil {
		t.Fatal(err)
	}
	// A second query (another run's VNets) returns a row already kept.
	if _, err := client.Resources(t.Context(), armresourcegraph.QueryRequest{Query: to.Ptr("another query")}, nil); err != nil {
		t.Fatal(err)
	}
	s := rec.Snapshot()
	body := s.Actions["POST /providers/Microsoft.ResourceGraph/resources"]
	rows := graphRows(t, body)
	if len(rows) != 3 {
		t.Fatalf("recorded rows %v, want a, b and c once each", rows)
	}
	replay, err := NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, served := send(t, replay, http.MethodPost, "/providers/Microsoft.ResourceGraph/resources"); len(graphRows(t, served)) != 3 {
		t.Errorf("replay served %s", served)
	}
}

// A refused query is recorded as a fault, so that the replay reproduces it.
func TestRecorderResourceGraphRefused(t *testing.T) {
	live := (&scripted{}).on("POST", "/providers/Microsoft.ResourceGraph/resources",
		answer{status: 403, body: `{"error":{"code":"AuthorizationFailed","message":"no Microsoft.ResourceGraph/resources/read"}}`})
	rec := NewRecorder(live)
	client, err := armresourcegraph.NewClient(fakeCred, armOptions(rec))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Resources(t.Context(), armresourcegraph.QueryRequest{Query: to.Ptr("resources")}, nil); err == nil {
		t.Fatal("no error for a 403")
	}
	f, ok := rec.Snapshot().Faults["POST /providers/Microsoft.ResourceGraph/resources"]
	if !ok || f.Status != 403 || f.Code != "AuthorizationFailed" {
		t.Errorf("faults %+v", rec.Snapshot().Faults)
	}
}
